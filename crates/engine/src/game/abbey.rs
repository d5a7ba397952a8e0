//! The abbey (SPEC ABBEY-01..08): each player holds one and may place it instead of drawing, into a hole. What
//! happens to held abbeys when the stack runs out is END-02 with VAR-04 (`endgame.rs`).

use super::{Game, IllegalReason, MAX_PLAYERS, Step};
use crate::action::{Action, Player};
use crate::board::Placement;
use crate::catalogue::TileKind;
use crate::geom::{Rotation, Space};
use crate::rules::AbbeyEndgame;

/// The abbeys each player still holds (ABBEY-01: one each while the module is on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct AbbeyState {
    pub(super) left: [u8; MAX_PLAYERS],
}

impl AbbeyState {
    /// An abbey for each of `players` if the module is on.
    pub(super) fn new(players: usize, on: bool) -> AbbeyState {
        let mut left = [0; MAX_PLAYERS];
        left[..players].fill(on as u8);
        AbbeyState { left }
    }
}

impl Game {
    /// Whether `p` holds an abbey and there is a hole for it (ABBEY-02), at a time abbeys may be placed.
    pub(super) fn can_place_abbey(&self, p: Player) -> bool {
        self.config.abbey.is_some()
            && self.abbey.left[p.index()] > 0
            && self.abbeys_playable()
            && self.board.holes().next().is_some()
    }

    /// Abbeys may be placed before the stack runs out, and afterwards as VAR-04 says: in the continuation
    /// (`continue_until_no_placement`) or in the final round (`c1_final_round`), never under `none`.
    pub(super) fn abbeys_playable(&self) -> bool {
        !self.stack.is_empty()
            || match self.config.rules.abbey_endgame {
                AbbeyEndgame::ContinueUntilNoPlacement => true,
                AbbeyEndgame::C1FinalRound => self.end.final_round.is_some(),
                AbbeyEndgame::None => false,
            }
    }

    /// Phase 1: the abbey into each hole (the abbey looks the same every way round: one orientation).
    pub(super) fn abbey_actions(&self, out: &mut Vec<Action>) {
        let Some(tile) = self.config.abbey else { return };
        if self.abbey.left[self.active.index()] == 0 || !self.abbeys_playable() {
            return;
        }
        out.extend(self.board.holes().map(|space| Action::Place { tile, space, rotation: Rotation::R0 }));
    }

    pub(super) fn check_abbey(&self, tile: TileKind, space: Space) -> Result<(), IllegalReason> {
        let abbey = self.config.abbey.ok_or(IllegalReason::ModuleOff("abbey"))?;
        if tile != abbey {
            let c = self.catalogue();
            return Err(IllegalReason::WrongTile { expected: c.def(abbey).id.clone(), given: c.def(tile).id.clone() });
        }
        if self.abbey.left[self.active.index()] == 0 || !self.abbeys_playable() {
            return Err(IllegalReason::NoAbbey);
        }
        if !self.board.is_hole(space) {
            return Err(IllegalReason::NotAHole);
        }
        Ok(())
    }

    /// Place the abbey: it closes every feature it faces (ABBEY-03, done by the board) and the turn goes on with
    /// phase 2 and scoring as after any tile (ABBEY-04..06).
    pub(super) fn place_abbey(&mut self, tile: TileKind, space: Space) {
        self.abbey.left[self.active.index()] -= 1;
        self.completed.clear();
        let p = Placement::Square(Rotation::R0);
        self.board.place_unchecked(&self.config.catalogue, tile, space, p, &mut self.completed);
        self.placed = Some((self.board.tiles().len() - 1) as u8);
        self.steps.pop();
        self.steps.extend([Step::EndTurn, Step::Score, Step::Phase2]);
    }
}

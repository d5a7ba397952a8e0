//! The abbey (SPEC ABBEY-01..08): each player holds one and may place it instead of drawing, into a hole. What
//! happens to held abbeys when the stack runs out is END-02 with VAR-04.

use super::{Game, IllegalReason, Step};
use crate::action::{Action, Player};
use crate::board::Placement;
use crate::catalogue::TileKind;
use crate::geom::{Rotation, Space};
use crate::rules::AbbeyEndgame;

impl Game {
    /// Whether `p` holds an abbey and there is a hole for it (ABBEY-02).
    pub(super) fn can_place_abbey(&self, p: Player) -> bool {
        self.config.abbey.is_some() && self.abbeys_left[p.index()] > 0 && self.board.holes().next().is_some()
    }

    /// Phase 1: the abbey into each hole (the abbey looks the same every way round: one orientation).
    pub(super) fn abbey_actions(&self, out: &mut Vec<Action>) {
        let Some(tile) = self.config.abbey else { return };
        if self.abbeys_left[self.active.index()] == 0 {
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
        if self.abbeys_left[self.active.index()] == 0 {
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
        self.abbeys_left[self.active.index()] -= 1;
        self.completed.clear();
        let p = Placement::Square(Rotation::R0);
        self.board.place_unchecked(&self.config.catalogue, tile, space, p, &mut self.completed);
        self.placed = Some((self.board.tiles().len() - 1) as u8);
        self.steps.pop();
        self.steps.extend([Step::EndTurn, Step::Score, Step::Phase2]);
    }

    /// The stack is empty at the end of a turn (`placed`: whether this turn placed a tile). Returns whether the game
    /// goes on because abbeys are still held (END-02, VAR-04); if so, the next turn has been set up.
    pub(super) fn continue_after_stack(&mut self, placed: bool) -> bool {
        let n = self.players();
        if self.config.abbey.is_none() || self.abbeys_left[..n].iter().all(|&a| a == 0) {
            return false; // END-01
        }
        match self.config.rules.abbey_endgame {
            AbbeyEndgame::None => false,
            AbbeyEndgame::ContinueUntilNoPlacement => {
                // A full round of turns without a placement ends the game; a player who cannot place passes.
                self.passes = if placed { 0 } else { self.passes + 1 };
                loop {
                    if self.passes as usize >= n {
                        return false;
                    }
                    self.active = self.next_player(self.active);
                    self.turn += 1;
                    // A turn, even one that can only pass: the fairy's point comes first (TURN-01, D-37).
                    self.fairy_turn_point();
                    if self.can_place_abbey(self.active) {
                        self.steps.push(Step::Phase1);
                        return true;
                    }
                    self.passes += 1;
                }
            }
            AbbeyEndgame::C1FinalRound => {
                // One round, starting left of the player who took the last turn, for those still holding an abbey.
                let mut left = self.final_round.unwrap_or(n as u8);
                loop {
                    if left == 0 {
                        self.final_round = Some(0);
                        return false;
                    }
                    left -= 1;
                    self.active = self.next_player(self.active);
                    self.turn += 1;
                    // Only the players still holding an abbey take part in the final round (VAR-04, D-37).
                    if self.abbeys_left[self.active.index()] > 0 {
                        self.fairy_turn_point();
                    }
                    if self.can_place_abbey(self.active) {
                        self.final_round = Some(left);
                        self.steps.push(Step::Phase1);
                        return true;
                    }
                }
            }
        }
    }
}

//! When the stack runs out (SPEC END-01..03, HALF-16, VAR-04, VAR-18): while players hold abbeys or triangles that
//! may still be placed, turns go on until a full round passes without a placement (END-02); a VAR-04
//! `c1_final_round` for abbeys runs once after that; then the game ends.

use super::{Game, Step};
use crate::action::Player;
use crate::rules::{AbbeyEndgame, HalflingsEndgame};

/// The end game's part of a game's state (END-02, VAR-04).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct EndState {
    /// Turns in a row without a tile placed, once the stack is empty (END-02).
    pub(super) passes: u8,
    /// Seats left in the VAR-04 `c1_final_round`, once it has started.
    pub(super) final_round: Option<u8>,
    /// Who placed the last tile (a land tile, an abbey or a triangle): the VAR-04 final round starts on their left.
    pub(super) last_placer: Player,
}

impl Game {
    /// Whether some player holds a tile that the END-02 continuation may still bring into play: an abbey under
    /// VAR-04 `continue_until_no_placement`, a triangle under VAR-18 `continue_until_no_placement`.
    pub(super) fn holds_anything(&self) -> bool {
        let n = self.players();
        let rules = &self.config.rules;
        let abbeys = self.config.abbey.is_some()
            && rules.abbey_endgame == AbbeyEndgame::ContinueUntilNoPlacement
            && self.abbey.left[..n].iter().any(|&a| a > 0);
        let triangles = rules.modules.halflings
            && rules.halflings_endgame == HalflingsEndgame::ContinueUntilNoPlacement
            && !self.halflings.hands.is_empty();
        abbeys || triangles
    }

    /// The stack is empty at the end of a turn (`placed`: whether this turn placed a tile). Returns whether the game
    /// goes on; if so, the next turn has been set up.
    pub(super) fn continue_after_stack(&mut self, placed: bool) -> bool {
        let n = self.players();
        if self.end.final_round.is_none() && self.holds_anything() {
            // END-02: a full round of turns without a placement ends the continuation; a player who cannot place
            // passes (D-17), and every such turn is still a turn (the fairy's point, D-37).
            self.end.passes = if placed { 0 } else { self.end.passes + 1 };
            while (self.end.passes as usize) < n {
                self.active = self.next_player(self.active);
                self.turn += 1;
                self.fairy_turn_point();
                if self.can_place_abbey(self.active) || self.can_place_triangle(self.active) {
                    self.steps.push(Step::Phase1);
                    return true;
                }
                self.end.passes += 1;
            }
        }
        let abbeys_held = self.abbey.left[..n].iter().any(|&a| a > 0);
        if self.config.abbey.is_none() || self.config.rules.abbey_endgame != AbbeyEndgame::C1FinalRound || !abbeys_held
        {
            return false;
        }
        // VAR-04 `c1_final_round`: one round, starting left of the player who placed the last tile (not the one
        // whose turn emptied the stack, if the last draw was discarded), for those still holding an abbey (D-18,
        // D-27).
        if self.end.final_round.is_none() {
            self.active = self.end.last_placer;
        }
        let mut left = self.end.final_round.unwrap_or(n as u8);
        loop {
            if left == 0 {
                self.end.final_round = Some(0);
                return false;
            }
            left -= 1;
            self.active = self.next_player(self.active);
            self.turn += 1;
            self.end.final_round = Some(left);
            if self.abbey.left[self.active.index()] > 0 {
                self.fairy_turn_point();
            }
            if self.can_place_abbey(self.active) {
                self.steps.push(Step::Phase1);
                return true;
            }
        }
    }
}

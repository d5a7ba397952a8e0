//! The dragon (SPEC DRAGON-01..10): dragon tiles drawn before the first volcano are set aside (or put back, VAR-09);
//! a volcano brings the dragon onto its tile; a dragon tile makes it move up to six steps, each chosen by the next
//! player clockwise, eating every meeple on the spaces it enters.

use super::{Event, Game, IllegalReason, ReturnCause, Step};
use crate::action::{Action, Player};
use crate::catalogue::{Symbol, TileKind};
use crate::geom::{Side, Space};
use crate::rules::{EarlyDragonTile, FairyBlocksDragon};

/// The longest movement (DRAGON-07).
const MAX_STEPS: u8 = 6;

/// The dragon's part of a game's state (DRAGON-02, DRAGON-03, DRAGON-07).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct DragonState {
    /// The dragon's space, once it is in play (DRAGON-03).
    pub(super) space: Option<Space>,
    /// The spaces visited by the dragon's movement in progress, its start first (DRAGON-07).
    pub(super) path: Vec<Space>,
    /// Dragon tiles drawn before the dragon was in play (DRAGON-02).
    pub(super) set_aside: Vec<TileKind>,
}

impl DragonState {
    /// Back to the start of a game, keeping the memory held.
    pub(super) fn clear(&mut self) {
        let DragonState { space, path, set_aside } = self;
        *space = None;
        path.clear();
        set_aside.clear();
    }
}

impl Clone for DragonState {
    fn clone(&self) -> DragonState {
        DragonState { space: self.space, path: self.path.clone(), set_aside: self.set_aside.clone() }
    }

    /// Into the memory already held, as [`Game`]'s `clone_from` (every field named).
    fn clone_from(&mut self, o: &DragonState) {
        let DragonState { space, path, set_aside } = self;
        *space = o.space;
        path.clone_from(&o.path);
        set_aside.clone_from(&o.set_aside);
    }
}

impl Game {
    /// DRAGON-02 and VAR-09: a drawn tile showing the dragon while the dragon is not in play is set aside (or put
    /// back into the stack) and the same player draws again. Returns whether `k` was such a tile.
    pub(super) fn early_dragon_tile(&mut self, k: TileKind) -> bool {
        if !self.config.rules.modules.dragon
            || self.dragon.space.is_some()
            || !self.catalogue().def(k).has_symbol(Symbol::Dragon)
        {
            return false;
        }
        let player = self.active;
        let dragon_tile = |g: &Game, t: TileKind| g.catalogue().def(t).has_symbol(Symbol::Dragon);
        // Putting it back only makes sense while something else can still be drawn; otherwise it leaves play as
        // under the default rule (AMB-03; docs/decisions.md).
        let put_back = self.config.rules.dragon_early_dragon_tile == EarlyDragonTile::ReturnAndRedraw
            && self.stack.iter().any(|&t| !dragon_tile(self, t));
        if put_back {
            let at = self.random_below(self.stack.len() + 1);
            self.stack.insert(at, k);
            self.events.push(Event::PutBack { player, tile: k });
        } else {
            self.dragon.set_aside.push(k);
            self.events.push(Event::SetAside { player, tile: k });
            if self.stack.is_empty() {
                // AMB-03: the set-aside tiles are never played; the turn (and so the game) ends.
                *self.steps.last_mut().expect("draw step") = Step::EndTurn;
            }
        }
        true
    }

    /// DRAGON-03: a volcano was placed on `space`. The dragon flies there, eating nothing; the first volcano shuffles
    /// the set-aside dragon tiles back into the stack.
    pub(super) fn volcano_placed(&mut self, space: Space) {
        let first = self.dragon.space.is_none();
        self.dragon.space = Some(space);
        let mut reshuffled = 0;
        if first && !self.dragon.set_aside.is_empty() {
            reshuffled = self.dragon.set_aside.len() as u8;
            let tiles = std::mem::take(&mut self.dragon.set_aside);
            self.stack.extend_from_slice(&tiles);
            // Fisher–Yates with the game's own generator.
            for i in (1..self.stack.len()).rev() {
                let j = self.random_below(i + 1);
                self.stack.swap(i, j);
            }
        }
        self.events.push(Event::Volcano { space, reshuffled });
    }

    /// Who chooses step `k` (1-based): the player at clockwise offset `k - 1` from the active player (DRAGON-07).
    pub(super) fn dragon_step_owner(&self, k: u8) -> Player {
        let n = self.players();
        Player(((self.active.index() + k as usize - 1) % n) as u8)
    }

    /// Why the dragon may not step towards `side` now, if it may not (DRAGON-07, FAIRY-05, VAR-12).
    fn dragon_step_error(&self, side: Side) -> Option<&'static str> {
        let from = *self.dragon.path.last().expect("a movement in progress has a start");
        let to = from.step(side);
        if !self.board.is_filled(to) {
            return Some("that space is empty");
        }
        if self.dragon.path.contains(&to) {
            return Some("the dragon has already been there in this movement");
        }
        if self.fairy.space == Some(to) && self.config.rules.fairy_blocks_dragon == FairyBlocksDragon::Yes {
            return Some("the fairy protects that space");
        }
        None
    }

    /// Whether the movement in progress has a legal next step.
    pub(super) fn dragon_can_step(&self) -> bool {
        Side::ALL.into_iter().any(|s| self.dragon_step_error(s).is_none())
    }

    /// The legal steps, clockwise from north.
    pub(super) fn dragon_actions(&self, out: &mut Vec<Action>) {
        out.extend(Side::ALL.into_iter().filter(|&s| self.dragon_step_error(s).is_none()).map(Action::MoveDragon));
    }

    pub(super) fn check_dragon(&self, side: Side) -> Result<(), IllegalReason> {
        match self.dragon_step_error(side) {
            Some(why) => Err(IllegalReason::DragonStep(why)),
            None => Ok(()),
        }
    }

    /// Take one step and eat (DRAGON-08); the movement goes on to the next player's step unless this was the sixth.
    pub(super) fn move_dragon(&mut self, side: Side) {
        let Step::Dragon(k) = self.step() else { unreachable!("checked: a dragon step is pending") };
        let player = self.dragon_step_owner(k);
        let to = self.dragon.path.last().expect("movement in progress").step(side);
        self.dragon.space = Some(to);
        self.dragon.path.push(to);
        self.events.push(Event::DragonMoved { player, to });
        self.eat(to);
        if k < MAX_STEPS {
            *self.steps.last_mut().expect("dragon step") = Step::Dragon(k + 1);
        } else {
            self.steps.pop();
            self.dragon.path.clear();
        }
    }

    /// DRAGON-08: every meeple on the tiles of `space` goes home; barns and the fairy stay. Under VAR-12 `false`
    /// the dragon eats nothing on the fairy's space.
    fn eat(&mut self, space: Space) {
        if self.fairy.space == Some(space) {
            return;
        }
        let mut i = 0;
        while i < self.meeples.len() {
            if self.space_of(self.meeples[i].segment) == space {
                self.send_home(i, ReturnCause::Dragon);
            } else {
                i += 1;
            }
        }
    }
}

//! The fairy (SPEC FAIRY-01..08, VAR-08, VAR-11, VAR-12): moved as the phase-2 action next to one of the mover's
//! meeples (or, under VAR-08 `on_tile`, onto a space holding one); it gives its meeple's owner 1 point at the start
//! of their turn and 3 whenever that meeple's feature is scored, and keeps the dragon off its space.

use super::{Event, Game, IllegalReason, Players, ScoreReason};
use crate::action::{Action, MeepleRef};
use crate::board::SegmentId;
use crate::geom::Space;
use crate::rules::{FairyBonusMode, FairyPlacement};

/// The fairy's part of a game's state (FAIRY-03).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct FairyState {
    /// The fairy's space, once it is on the board (FAIRY-03); the meeple it is attached to carries the flag.
    pub(super) space: Option<Space>,
}

impl Game {
    fn fairy_on(&self) -> bool {
        self.config.rules.modules.fairy
    }

    /// Phase 2: the fairy next to each of the active player's meeples (identical meeples once), or onto each space
    /// holding one (`on_tile`). Moving it to where it already is counts too (AMB-06).
    pub(super) fn fairy_actions(&self, out: &mut Vec<Action>) {
        if !self.fairy_on() {
            return;
        }
        // In the order the meeples were deployed; identical meeples once (a player has a handful of meeples, so
        // looking back over what is already listed costs nothing and allocates nothing).
        let on_tile = self.config.rules.fairy_placement == FairyPlacement::OnTile;
        for (i, m) in self.meeples.iter().enumerate() {
            if m.player != self.active {
                continue;
            }
            let earlier = &self.meeples[..i];
            if on_tile {
                let s = self.space_of(m.segment);
                if !earlier.iter().any(|x| x.player == self.active && self.space_of(x.segment) == s) {
                    out.push(Action::MoveFairyTo(s));
                }
            } else if !earlier.iter().any(|x| x.reference() == m.reference()) {
                out.push(Action::MoveFairy(m.reference()));
            }
        }
    }

    pub(super) fn check_fairy(&self, r: MeepleRef) -> Result<(), IllegalReason> {
        if !self.fairy_on() {
            return Err(IllegalReason::ModuleOff("fairy"));
        }
        if self.config.rules.fairy_placement != FairyPlacement::NextToMeeple || r.player != self.active {
            return Err(IllegalReason::FairyTarget);
        }
        self.find_meeple(r).map(|_| ()).ok_or(IllegalReason::NoSuchMeeple)
    }

    pub(super) fn check_fairy_to(&self, space: Space) -> Result<(), IllegalReason> {
        if !self.fairy_on() {
            return Err(IllegalReason::ModuleOff("fairy"));
        }
        let ok = self.config.rules.fairy_placement == FairyPlacement::OnTile
            && self.meeples.iter().any(|m| m.player == self.active && self.space_of(m.segment) == space);
        if ok { Ok(()) } else { Err(IllegalReason::FairyTarget) }
    }

    /// FAIRY-02/03: the fairy leaves wherever it was and is attached to this meeple only.
    pub(super) fn move_fairy(&mut self, r: MeepleRef) {
        let i = self.find_meeple(r).expect("checked: the meeple is on the board");
        for m in &mut self.meeples {
            m.fairy = false;
        }
        self.meeples[i].fairy = true;
        let space = self.space_of(r.segment);
        self.fairy.space = Some(space);
        self.events.push(Event::FairyMoved { player: self.active, space });
    }

    /// VAR-08 `on_tile`: the fairy lies on the space, attached to nobody in particular.
    pub(super) fn move_fairy_to(&mut self, space: Space) {
        self.fairy.space = Some(space);
        self.events.push(Event::FairyMoved { player: self.active, space });
    }

    /// The players the fairy favours among the meeples of the feature of `root` (or of every feature when `root` is
    /// `None`): the owner of its meeple, or under `on_tile` everyone with a meeple on its space.
    fn fairy_players(&self, root: Option<SegmentId>) -> Players {
        let Some(space) = self.fairy.space else { return Players(0) };
        let on_tile = self.config.rules.fairy_placement == FairyPlacement::OnTile;
        let mut p = Players(0);
        for m in &self.meeples {
            let favoured = if on_tile { self.space_of(m.segment) == space } else { m.fairy };
            if favoured && root.is_none_or(|r| self.board.root(m.segment) == r) {
                p.0 |= 1 << m.player.0;
            }
        }
        p
    }

    /// TURN-01, FAIRY-04: 1 point at the start of a turn to the active player if the fairy favours them (not under
    /// VAR-11 `house_five`).
    pub(super) fn fairy_turn_point(&mut self) {
        if !self.fairy_on() || self.config.rules.fairy_bonus_mode == FairyBonusMode::HouseFive {
            return;
        }
        if self.fairy_players(None).contains(self.active) {
            self.scores[self.active.index()] += 1;
            self.events.push(Event::FairyPoints { player: self.active, points: 1, at: None });
        }
    }

    /// FAIRY-06 (AMB-05, AMB-15): who earns the bonus for the scoring of the feature of `root`, and how much; to be
    /// asked before its meeples go home. 3 points whatever the outcome; under VAR-11 `house_five`, 5 points and only
    /// for a completed feature scored during the game.
    pub(super) fn fairy_bonus(&self, root: SegmentId, reason: ScoreReason) -> (Players, u32) {
        if !self.fairy_on() {
            return (Players(0), 0);
        }
        let points = match self.config.rules.fairy_bonus_mode {
            FairyBonusMode::Standard => 3,
            FairyBonusMode::HouseFive if reason == ScoreReason::Completed => 5,
            FairyBonusMode::HouseFive => return (Players(0), 0),
        };
        (self.fairy_players(Some(root)), points)
    }

    /// Pay a bonus found by [`Game::fairy_bonus`], as its own scoring event after the feature's.
    pub(super) fn pay_fairy(&mut self, (players, points): (Players, u32), root: SegmentId) {
        for p in players.iter() {
            self.scores[p.index()] += points as i32;
            self.events.push(Event::FairyPoints { player: p, points, at: Some(root) });
        }
    }
}

//! Crop circles (SPEC CROP-01..10, VAR-13, VAR-14): after a crop-circle tile's turn, the active player names action
//! A or B; then every player, starting on the active player's left and ending with the active player, adds a meeple
//! next to one of theirs of the circle's role (A, optional unless VAR-14) or returns one such meeple (B).
//!
//! The Halflings' triangular crop circle (HALF-20, VAR-15) runs through the same steps: the active player names the
//! role too; A is optional and B compulsory whatever VAR-14 says, and additions stay on the same segment; under
//! VAR-15 `english` the active player names only the role and each player answers with an addition or a removal of
//! their own choosing (an addition is then compulsory, so there is no pass).

use super::{Game, IllegalReason, ReturnCause, Step};
use crate::action::{Action, CropAction, MeepleKind, Player};
use crate::board::SegmentId;
use crate::catalogue::{CropType, SegmentKind};
use crate::rules::{CropAddScope, HalflingsCropMode};

/// The crop circles' part of a game's state: what this turn's circle asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CropState {
    /// The crop-circle action named this turn (CROP-04); `None` while each player chooses (VAR-15 `english`).
    pub(super) action: Option<CropAction>,
    /// The crop circle's role this turn (CROP-01, or named by the active player after the triangle, HALF-20).
    pub(super) role: Option<CropType>,
}

/// The crop circle on this turn's tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CropCircle {
    /// A crop-circle land tile: its symbol fixes the role (CROP-01).
    Fixed(CropType),
    /// The Halflings' triangle: the active player names the role (HALF-20).
    AnyRole,
}

impl Game {
    /// The crop circle of the tile placed this turn, with its module on (crop circles, or Halflings for the
    /// triangle).
    pub(super) fn crop_circle(&self) -> Option<CropCircle> {
        let m = self.config.rules.modules;
        let def = self.catalogue().def(self.board.tile(self.placed? as usize).kind);
        if m.halflings && def.has_symbol(crate::catalogue::Symbol::CropAnyRole) {
            return Some(CropCircle::AnyRole);
        }
        if !m.crop_circles {
            return None;
        }
        CropType::of(def).map(CropCircle::Fixed)
    }

    /// The kind of feature whose meeples this turn's circle concerns (CROP-05).
    fn crop_role(&self) -> SegmentKind {
        self.crop.role.expect("answers follow the choice").role()
    }

    /// Whether this turn's circle is the triangle (HALF-20), whose answers ignore VAR-13 and VAR-14.
    fn crop_on_triangle(&self) -> bool {
        self.crop_circle() == Some(CropCircle::AnyRole)
    }

    /// The active player's choices: A or B, or for the triangle the role with A or B (or, VAR-15 `english`, the role
    /// alone).
    pub(super) fn crop_choices(&self, out: &mut Vec<Action>) {
        match self.crop_circle() {
            Some(CropCircle::Fixed(_)) => {
                out.extend([Action::ChooseCrop(CropAction::A), Action::ChooseCrop(CropAction::B)]);
            }
            Some(CropCircle::AnyRole) => {
                for role in CropType::ALL {
                    match self.config.rules.halflings_crop_mode {
                        HalflingsCropMode::German => out.extend([
                            Action::ChooseCropRole(role, Some(CropAction::A)),
                            Action::ChooseCropRole(role, Some(CropAction::B)),
                        ]),
                        HalflingsCropMode::English => out.push(Action::ChooseCropRole(role, None)),
                    }
                }
            }
            None => {}
        }
    }

    pub(super) fn check_crop_choice(&self, a: Action) -> Result<(), IllegalReason> {
        let mut v = Vec::new();
        self.crop_choices(&mut v);
        if v.contains(&a) {
            Ok(())
        } else {
            Err(IllegalReason::CropAnswer(
                "name what this crop circle allows (`crop A`, or `crop knight A` after the triangle)",
            ))
        }
    }

    /// Who answers crop step `k` (1..=n): the player `k` seats to the active player's left; `k = n` is the active
    /// player, who acts last (CROP-08).
    pub(super) fn crop_answerer(&self, k: u8) -> Player {
        Player(((self.active.index() + k as usize) % self.players()) as u8)
    }

    /// The answers player `p` may give under `action` (without `pass`): under A every follower in their supply that
    /// may stand there, on the segment of each of their meeples of the role (or, VAR-13 `any_tile_of_feature`, on
    /// every segment of those features), never on the dragon's space; under B each of their meeples of the role.
    fn crop_answers(&self, p: Player, action: Option<CropAction>, out: &mut Vec<Action>) {
        for &a in answered_under(&action) {
            self.crop_answers_for(p, a, out);
        }
    }

    /// Each answer player `p` may give under `action`, in no order and perhaps more than once, to `emit`.
    fn each_crop_answer(&self, p: Player, action: CropAction, emit: &mut impl FnMut(Action)) {
        let role = self.crop_role();
        let mine = || self.meeples.iter().filter(move |m| m.player == p && self.board.kind(m.segment) == role);
        match action {
            CropAction::B => mine().for_each(|m| emit(Action::CropRemove(m.reference()))),
            CropAction::A => {
                let supply = self.supply[p.index()];
                let may = |k: &MeepleKind| supply[k.index()] > 0 && k.may_stand_on(role);
                let mut add = |segment: SegmentId| {
                    if !self.on_dragon(segment) {
                        for &meeple in MeepleKind::ALL.iter().filter(|k| may(k)) {
                            emit(Action::CropAdd { meeple, segment });
                        }
                    }
                };
                let scope = if self.crop_on_triangle() {
                    CropAddScope::SameTileSameSegment
                } else {
                    self.config.rules.crop_add_scope
                };
                match scope {
                    CropAddScope::SameTileSameSegment => mine().for_each(|m| add(m.segment)),
                    CropAddScope::AnyTileOfFeature => {
                        // Each feature once: the first of `p`'s meeples on it names it.
                        for (i, m) in mine().enumerate() {
                            let r = self.board.root(m.segment);
                            if mine().take(i).all(|o| self.board.root(o.segment) != r) {
                                self.board.members(r).for_each(&mut add);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Appends player `p`'s answers under `action` to `out`, sorted and without repeats, allocating nothing.
    fn crop_answers_for(&self, p: Player, action: CropAction, out: &mut Vec<Action>) {
        let start = out.len();
        self.each_crop_answer(p, action, &mut |a| out.push(a));
        out[start..].sort_unstable_by_key(|a| match *a {
            Action::CropRemove(r) => (r.segment, r.kind, r.fairy),
            Action::CropAdd { meeple, segment } => (segment, meeple, false),
            _ => unreachable!("only crop answers here"),
        });
        // Repeats removed in place, in the appended part only.
        let mut kept = start;
        for i in start..out.len() {
            if kept == start || out[i] != out[kept - 1] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// The pending crop answer's options, with `pass` where A is optional (VAR-14).
    pub(super) fn crop_answer_actions(&self, out: &mut Vec<Action>) {
        let Step::CropAnswer(k) = self.step() else { return };
        let action = self.crop.action;
        self.crop_answers(self.crop_answerer(k), action, out);
        let optional = if self.crop_on_triangle() { true } else { !self.config.rules.crop_action_a_mandatory };
        if action == Some(CropAction::A) && optional && !out.is_empty() {
            out.push(Action::Pass);
        }
    }

    pub(super) fn check_crop_answer(&self, a: Action) -> Result<(), IllegalReason> {
        let mut v = Vec::new();
        self.crop_answer_actions(&mut v);
        if v.contains(&a) {
            return Ok(());
        }
        Err(match (a, self.crop.action) {
            (Action::Pass, _) => IllegalReason::CropAnswer("this answer is compulsory"),
            (Action::CropAdd { .. }, Some(CropAction::A) | None) => {
                IllegalReason::CropAnswer("a meeple may only join one of yours of the circle's role")
            }
            (Action::CropRemove(_), Some(CropAction::B) | None) => {
                IllegalReason::CropAnswer("only one of your own meeples of the circle's role can go back")
            }
            _ => IllegalReason::CropAnswer("that is not this crop action's answer"),
        })
    }

    /// The active player named the action (and for the triangle the role): the answers start on their left
    /// (CROP-08).
    pub(super) fn choose_crop(&mut self, role: Option<CropType>, action: Option<CropAction>) {
        self.crop.role = match (role, self.crop_circle()) {
            (Some(r), _) => Some(r),
            (None, Some(CropCircle::Fixed(t))) => Some(t),
            (None, _) => unreachable!("checked: the triangle's role is named"),
        };
        self.crop.action = action;
        *self.steps.last_mut().expect("crop choice step") = Step::CropAnswer(1);
    }

    /// Carry out one player's answer, then move to the next player.
    pub(super) fn crop_answer(&mut self, a: Action) {
        match a {
            Action::CropAdd { meeple, segment } => {
                let Step::CropAnswer(k) = self.step() else { unreachable!("checked") };
                // CROP-06: no occupation test; the new meeple is not the fairy's (CROP-10).
                self.deploy(self.crop_answerer(k), meeple, segment);
            }
            Action::CropRemove(r) => {
                let i = self.find_meeple(r).expect("checked: the meeple is on the board");
                // A wagon simply goes home; it does not move (it was not scored).
                self.send_home(i, ReturnCause::CropCircle);
            }
            _ => {}
        }
        self.next_crop_answer();
    }

    /// Move to the next player's answer, or end phase 4 after the active player's.
    pub(super) fn next_crop_answer(&mut self) {
        let Step::CropAnswer(k) = self.step() else { return };
        if k as usize >= self.players() {
            self.steps.pop();
            self.crop = CropState::default();
        } else {
            *self.steps.last_mut().expect("crop answer step") = Step::CropAnswer(k + 1);
        }
    }

    /// Whether the pending answer has any option (CROP-09: a player without one does nothing and is not asked).
    pub(super) fn crop_answer_possible(&self) -> bool {
        let Step::CropAnswer(k) = self.step() else { return false };
        let p = self.crop_answerer(k);
        let mut any = false;
        for &a in answered_under(&self.crop.action) {
            self.each_crop_answer(p, a, &mut |_| any = true);
        }
        any
    }
}

/// The crop actions a player answers under the action named: that one, or under VAR-15 `english` (none named) A and
/// then B, each player picking for themselves.
fn answered_under(action: &Option<CropAction>) -> &[CropAction] {
    const BOTH: [CropAction; 2] = [CropAction::A, CropAction::B];
    match action {
        Some(a) => std::slice::from_ref(a),
        None => &BOTH,
    }
}

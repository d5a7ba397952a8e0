//! Halflings (SPEC HALF-01..20): triangles held in hand — dealt at random or drafted (HALF-03, VAR-20) — placed
//! instead of drawing (HALF-04..07); the hill (HALF-18) and the vineyard (HALF-17); scoring per space or per tile
//! (HALF-11..13, VAR-16). The board itself handles gaps and the square grid (HALF-08, HALF-10).

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::{Event, Game, IllegalReason, MAX_PLAYERS, Players, Step};
use crate::action::{Action, Player};
use crate::board::{Placement, SegmentId};
use crate::catalogue::{Shape, Symbol, TileKind};
use crate::geom::{Corner, Space};
use crate::rules::{HalflingsEndgame, HalflingsScoring, HalflingsSetup, HillTiebreak};

/// The Halflings' part of a game's state: who holds which triangles, the draft, and what is out of play (HALF-03,
/// HALF-18, VAR-20).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct HalflingsState {
    /// Each player's triangles (HALF-03): private to their owner.
    pub(super) hands: Hands,
    /// Triangles face up in the draft (VAR-20).
    pub(super) draft: Vec<TileKind>,
    /// Tiles out of play: undealt triangles, tiles under a hill (HALF-18).
    pub(super) out_of_play: Vec<TileKind>,
}

impl Clone for HalflingsState {
    fn clone(&self) -> HalflingsState {
        HalflingsState { hands: self.hands.clone(), draft: self.draft.clone(), out_of_play: self.out_of_play.clone() }
    }

    /// Into the memory already held, as [`Game`]'s `clone_from` (every field named).
    fn clone_from(&mut self, o: &HalflingsState) {
        let HalflingsState { hands, draft, out_of_play } = self;
        hands.clone_from(&o.hands);
        draft.clone_from(&o.draft);
        out_of_play.clone_from(&o.out_of_play);
    }
}

/// Every player's triangles in one list, seat after seat, each hand in the order its triangles came: one vector
/// rather than one per seat keeps a game's state small (a base game carries it too).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Hands {
    all: Vec<TileKind>,
    /// Where each seat's hand ends in `all` (it starts where the previous seat's ends).
    ends: [u16; MAX_PLAYERS],
}

impl Clone for Hands {
    fn clone(&self) -> Hands {
        Hands { all: self.all.clone(), ends: self.ends }
    }

    /// Into the memory already held (a search's determinizations).
    fn clone_from(&mut self, o: &Hands) {
        self.all.clone_from(&o.all);
        self.ends = o.ends;
    }
}

impl Hands {
    fn range(&self, p: usize) -> std::ops::Range<usize> {
        let start = if p == 0 { 0 } else { self.ends[p - 1] as usize };
        start..self.ends[p] as usize
    }

    /// Seat `p`'s triangles.
    pub(super) fn of(&self, p: usize) -> &[TileKind] {
        &self.all[self.range(p)]
    }

    /// Seat `p`'s triangles, to change in place.
    fn of_mut(&mut self, p: usize) -> &mut [TileKind] {
        let r = self.range(p);
        &mut self.all[r]
    }

    /// Whether no seat holds a triangle.
    pub(super) fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// Every hand emptied, the memory kept.
    fn clear(&mut self) {
        self.all.clear();
        self.ends = [0; MAX_PLAYERS];
    }

    /// A triangle added at the end of seat `p`'s hand.
    fn push(&mut self, p: usize, k: TileKind) {
        self.all.insert(self.ends[p] as usize, k);
        for e in &mut self.ends[p..] {
            *e += 1;
        }
    }

    /// The `i`th triangle of seat `p`'s hand taken out.
    fn remove(&mut self, p: usize, i: usize) {
        self.all.remove(self.range(p).start + i);
        for e in &mut self.ends[p..] {
            *e -= 1;
        }
    }
}

/// Candidates [`Game::random_phase1`] draws before it lists every phase-1 action instead.
const PHASE1_TRIES: usize = 16;

impl Game {
    pub(super) fn halflings_on(&self) -> bool {
        self.config.rules.modules.halflings
    }

    /// HALF-03: hand out the triangles at the start of a game: the forced hands of the setup, else the random deal
    /// (the game's seed shuffles them), else the draft, which is a sequence of decisions. Undealt triangles are out
    /// of play.
    pub(super) fn deal_triangles(&mut self, seed: u64) {
        self.halflings.hands.clear();
        self.halflings.out_of_play.clear();
        self.halflings.draft.clear();
        if !self.halflings_on() {
            return;
        }
        let cfg = std::sync::Arc::clone(&self.config);
        let n = self.players();
        if let Some(hands) = &cfg.hands {
            for (p, h) in hands.iter().enumerate() {
                for &k in h {
                    self.halflings.hands.push(p, k);
                }
            }
            // Every copy not in a hand is out of play.
            let mut pool = cfg.triangles.clone();
            for h in hands {
                for k in h {
                    if let Some(i) = pool.iter().position(|x| x == k) {
                        pool.swap_remove(i);
                    }
                }
            }
            self.halflings.out_of_play = pool;
            return;
        }
        let per = cfg.rules.halflings_tiles_per_player.0 as usize;
        let mut pool = cfg.triangles.clone();
        match cfg.rules.halflings_setup {
            HalflingsSetup::RandomDeal => {
                pool.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ 0x4a4c_4631));
                for _ in 0..per {
                    for p in 0..n {
                        if let Some(k) = pool.pop() {
                            self.halflings.hands.push(p, k);
                        }
                    }
                }
                self.halflings.out_of_play = pool;
            }
            HalflingsSetup::Draft => {
                // Face up, in catalogue order; the picks are decisions (Step::Draft).
                pool.sort_unstable();
                self.halflings.draft = pool;
            }
        }
    }

    /// The number of draft picks in all: `tiles_per_player` each, while triangles last.
    fn draft_picks(&self) -> usize {
        let per = self.config.rules.halflings_tiles_per_player.0 as usize;
        (per * self.players()).min(self.config.triangles.len())
    }

    /// Whether the game starts with a draft.
    pub(super) fn starts_with_draft(&self) -> bool {
        self.halflings_on() && self.config.hands.is_none() && !self.halflings.draft.is_empty()
    }

    /// Who makes draft pick `k` (0-based): the last player in turn order first, then counter-clockwise, round after
    /// round (HALF-03, VAR-20).
    pub(super) fn draft_picker(&self, k: u8) -> Player {
        let n = self.players();
        Player((n - 1 - (k as usize % n)) as u8)
    }

    /// The distinct triangles still face up.
    pub(super) fn draft_actions(&self, out: &mut Vec<Action>) {
        for (i, &k) in self.halflings.draft.iter().enumerate() {
            if i == 0 || self.halflings.draft[i - 1] != k {
                out.push(Action::Pick(k));
            }
        }
    }

    pub(super) fn check_pick(&self, k: TileKind) -> Result<(), IllegalReason> {
        if self.halflings.draft.contains(&k) { Ok(()) } else { Err(IllegalReason::NotInDraft) }
    }

    /// Take a triangle in the draft; after the last pick the rest are out of play and the first turn starts.
    pub(super) fn pick(&mut self, k: TileKind) {
        let Step::Draft(i) = self.step() else { unreachable!("checked: a draft pick is pending") };
        let p = self.draft_picker(i);
        let at = self.halflings.draft.iter().position(|&x| x == k).expect("checked: face up");
        self.halflings.draft.remove(at);
        self.halflings.hands.push(p.index(), k);
        if i as usize + 1 >= self.draft_picks() {
            self.steps.pop();
            self.halflings.out_of_play.append(&mut self.halflings.draft);
            self.start_turn();
        } else {
            *self.steps.last_mut().expect("draft step") = Step::Draft(i + 1);
        }
    }

    /// Whether triangles may still be placed: always before the stack runs out; afterwards only under VAR-18's
    /// default (END-02), and not in an abbeys' `c1_final_round`, which comes after the continuation.
    fn triangles_playable(&self) -> bool {
        self.halflings_on()
            && (!self.stack.is_empty()
                || (self.config.rules.halflings_endgame == HalflingsEndgame::ContinueUntilNoPlacement
                    && self.end.final_round.is_none()))
    }

    /// Every legal placement of one of `p`'s triangles (HALF-05..07), calling `f` until it returns `true`.
    fn for_each_triangle_placement(&self, p: Player, mut f: impl FnMut(TileKind, Space, Corner) -> bool) {
        let hand = self.halflings.hands.of(p.index());
        if hand.is_empty() || !self.triangles_playable() {
            return;
        }
        let cat = self.catalogue();
        // Candidate spaces: empty spaces facing a placed edge (the frontier), and half-filled spaces (for the
        // complement; each holds exactly one tile, so none is visited twice). Nothing is collected: a playout
        // allocates nothing here.
        let half_filled = self.half_filled();
        for (i, &k) in hand.iter().enumerate() {
            if hand[..i].contains(&k) {
                continue;
            }
            for s in self.board.frontier().chain(half_filled.clone()) {
                for c in Corner::ALL {
                    if self.board.check(cat, k, s, Placement::Triangle(c)).is_ok() && f(k, s, c) {
                        return;
                    }
                }
            }
        }
    }

    /// Spaces holding one triangle, whose other half is free (for the complement, HALF-05).
    fn half_filled(&self) -> impl Iterator<Item = Space> + Clone + '_ {
        self.board
            .tiles()
            .iter()
            .filter(|t| matches!(t.placement, Placement::Triangle(_)) && !self.board.is_full(t.space))
            .map(|t| t.space)
    }

    /// A uniformly random phase-1 action (an abbey into a hole, a triangle placement or a pass), found without
    /// listing every triangle placement: candidates are drawn uniformly from the abbey's holes, the pass and every
    /// (distinct held triangle, frontier or half-filled space, corner), and the first legal one is taken; after
    /// [`PHASE1_TRIES`] misses it falls back to the full listing. Each draw is uniform over a superset in which every
    /// legal action appears once, so the result is exactly uniform over the legal actions, as
    /// [`Game::random_action`]'s is; the draws differ from its.
    pub(super) fn random_phase1(&self, rng: &mut impl rand::Rng, buf: &mut Vec<Action>) -> Action {
        buf.clear();
        self.abbey_actions(buf);
        buf.push(Action::Pass);
        let fixed = buf.len();
        let hand = self.halflings.hands.of(self.active.index());
        if hand.is_empty() || !self.triangles_playable() {
            return buf[rng.random_range(0..fixed)];
        }
        let kinds = hand.iter().enumerate().filter(|&(i, k)| !hand[..i].contains(k)).count();
        let frontier = self.board.frontier_len();
        let spaces = frontier + self.half_filled().count();
        let total = fixed + kinds * spaces * Corner::ALL.len();
        let cat = self.catalogue();
        for _ in 0..PHASE1_TRIES {
            let i = rng.random_range(0..total);
            if i < fixed {
                return buf[i];
            }
            let j = i - fixed;
            let (k, s, c) = (j / (spaces * 4), (j / 4) % spaces, Corner::ALL[j % 4]);
            let tile = hand.iter().enumerate().filter(|&(i, k)| !hand[..i].contains(k)).nth(k).expect("k < kinds").1;
            let space = if s < frontier {
                self.board.frontier_space(s)
            } else {
                self.half_filled().nth(s - frontier).expect("s < spaces")
            };
            if self.board.check(cat, *tile, space, Placement::Triangle(c)).is_ok() {
                return Action::PlaceTriangle { tile: *tile, space, corner: c };
            }
        }
        self.legal_actions_into(buf);
        buf[rng.random_range(0..buf.len())]
    }

    /// Whether `p` holds a triangle that can be placed now.
    pub(super) fn can_place_triangle(&self, p: Player) -> bool {
        let mut any = false;
        self.for_each_triangle_placement(p, |_, _, _| {
            any = true;
            true
        });
        any
    }

    /// Phase 1: every placement of every held triangle.
    pub(super) fn triangle_actions(&self, out: &mut Vec<Action>) {
        self.for_each_triangle_placement(self.active, |tile, space, corner| {
            out.push(Action::PlaceTriangle { tile, space, corner });
            false
        });
    }

    pub(super) fn check_triangle(&self, tile: TileKind, space: Space, corner: Corner) -> Result<(), IllegalReason> {
        if !self.halflings_on() {
            return Err(IllegalReason::ModuleOff("halflings"));
        }
        if self.catalogue().def(tile).shape != Shape::Triangle {
            return Err(IllegalReason::NotATriangle);
        }
        if !self.halflings.hands.of(self.active.index()).contains(&tile) {
            return Err(IllegalReason::NotInHand);
        }
        if !self.triangles_playable() {
            return Err(IllegalReason::TrianglesLost);
        }
        Ok(self.board.check(self.catalogue(), tile, space, Placement::Triangle(corner))?)
    }

    /// HALF-04: place a held triangle; the turn goes on as after any tile.
    pub(super) fn place_triangle(&mut self, tile: TileKind, space: Space, corner: Corner) {
        let p = self.active.index();
        let i = self.halflings.hands.of(p).iter().position(|&k| k == tile).expect("checked: in hand");
        self.halflings.hands.remove(p, i);
        self.completed.clear();
        let cfg = std::sync::Arc::clone(&self.config);
        self.board.place_unchecked(&cfg.catalogue, tile, space, Placement::Triangle(corner), &mut self.completed);
        self.placed = Some((self.board.tiles().len() - 1) as u8);
        self.steps.pop();
        self.after_placement();
    }

    /// HALF-18: the hill takes the top tile of the stack out of play.
    pub(super) fn hill_placed(&mut self) {
        if let Some(k) = self.stack.pop() {
            self.halflings.out_of_play.push(k);
            self.events.push(Event::UnderHill { tile: k });
        }
    }

    /// Whether the space of a segment holds a hill tile (HALF-18: the hill affects its whole space).
    fn on_hill(&self, seg: SegmentId) -> bool {
        let s = self.space_of(seg);
        self.board.tile_numbers_in(s).any(|t| self.catalogue().def(self.board.tile(t).kind).has_symbol(Symbol::Hill))
    }

    /// HALF-18, VAR-19: among players tied for the majority of the feature of `root`, those with a meeple on a hill
    /// space win (or, counting, those with the most meeples there); if none of them has one, all tied players win.
    pub(super) fn hill_tiebreak(&self, root: SegmentId, tied: Players) -> Players {
        if !self.halflings_on() || tied.iter().count() < 2 {
            return tied;
        }
        let mut on_hill = [0u32; MAX_PLAYERS];
        for m in &self.meeples {
            if tied.contains(m.player) && self.board.root(m.segment) == root && self.on_hill(m.segment) {
                on_hill[m.player.index()] += 1;
            }
        }
        let best = *on_hill.iter().max().expect("players");
        if best == 0 {
            return tied;
        }
        let wins = |n: u32| match self.config.rules.halflings_hill_tiebreak {
            HillTiebreak::AtLeastOneOnHill => n > 0,
            HillTiebreak::CountOnHill => n == best,
        };
        Players(tied.iter().filter(|p| wins(on_hill[p.index()])).fold(0, |acc, p| acc | 1 << p.0))
    }

    /// The value of a road or city (HALF-11, VAR-16): per tile by the base rules and under `oct2015`/`c2_2020`,
    /// per occupied space under `jan2021`/`c1_2014`.
    pub(super) fn linear_count(&self, tiles: u16, spaces: u16) -> u32 {
        if !self.halflings_on() {
            return tiles as u32;
        }
        match self.config.rules.halflings_scoring {
            HalflingsScoring::Jan2021 | HalflingsScoring::C12014 => spaces as u32,
            HalflingsScoring::Oct2015 | HalflingsScoring::C22020 => tiles as u32,
        }
    }

    /// The tiles of the 3×3 block of spaces around `space` (HALF-10: areas are counted in spaces).
    fn block_tiles(&self, space: Space) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(space).chain(space.neighbourhood()).flat_map(|q| self.board.tile_numbers_in(q))
    }

    /// A monastery's value (BASE-08, HALF-12/13, VAR-16): 1 per filled space in its 3×3 block; under `oct2015`, 1
    /// per tile there.
    pub(super) fn monastery_count(&self, space: Space) -> u32 {
        if self.halflings_on() && self.config.rules.halflings_scoring == HalflingsScoring::Oct2015 {
            self.block_tiles(space).count() as u32
        } else {
            1 + self.board.filled_neighbours(space)
        }
    }

    /// HALF-17: vineyards on the tiles of a completed monastery's 3×3 block (scored during the game only, AMB-21).
    pub(super) fn vineyards_around(&self, space: Space) -> u32 {
        if !self.halflings_on() {
            return 0;
        }
        self.block_tiles(space)
            .filter(|&t| self.catalogue().def(self.board.tile(t).kind).has_symbol(Symbol::Vineyard))
            .count() as u32
    }
}

impl Game {
    /// Re-sample what `viewer` cannot see, for determinization in search: the order of the stack (pooled with any
    /// tiles lying face down under a hill, HALF-18, since the viewer knows only which tiles those are together), the
    /// game's generator for later in-game shuffles, and (after a random deal) the other players' triangles, drawn
    /// again from every triangle `viewer` has not seen (the others' hands and the undealt ones). Hand sizes stay as
    /// they are. Drafted hands are public and stay.
    ///
    /// The result depends only on what `viewer` can see and on `rng`: every hidden pool is put in a canonical order
    /// before it is shuffled, so two games that look the same to `viewer` but differ in hidden contents (another
    /// seed, say) give the same determinization for the same generator.
    ///
    /// It allocates nothing once the game's lists have grown (searches call it every iteration): each pool is put
    /// together in place, at the end of a list it ends up in.
    pub fn shuffle_hidden(&mut self, viewer: Player, rng: &mut impl rand::Rng) {
        let cfg = std::sync::Arc::clone(&self.config);
        let is_triangle = |k: &TileKind| cfg.catalogue.def(*k).shape == Shape::Triangle;
        // The stack, pooled with the tiles under hills; the first `under` of it go back under the hills.
        let under = self.halflings.out_of_play.iter().filter(|k| !is_triangle(k)).count();
        if under > 0 {
            self.stack.extend(self.halflings.out_of_play.iter().copied().filter(|k| !is_triangle(k)));
            self.halflings.out_of_play.retain(is_triangle);
        }
        sort_kinds(&mut self.stack, cfg.catalogue.len());
        self.stack.shuffle(rng);
        self.halflings.out_of_play.extend(self.stack.drain(..under));
        self.rng = rng.random();
        if !self.halflings_on() || self.config.rules.halflings_setup == HalflingsSetup::Draft {
            return;
        }
        // The triangles `viewer` has not seen, pooled at the end of `out_of_play` (behind the tiles under hills,
        // whose order is kept), dealt back from its end, the rest left there.
        let n = self.players();
        let mut kept = 0;
        for i in 0..self.halflings.out_of_play.len() {
            if !is_triangle(&self.halflings.out_of_play[i]) {
                self.halflings.out_of_play.swap(kept, i);
                kept += 1;
            }
        }
        let mut sizes = [0usize; MAX_PLAYERS];
        for p in (0..n).filter(|&p| p != viewer.index()) {
            sizes[p] = self.halflings.hands.of(p).len();
            self.halflings.out_of_play.extend_from_slice(self.halflings.hands.of(p));
        }
        let pool = &mut self.halflings.out_of_play[kept..];
        sort_kinds(pool, cfg.catalogue.len());
        pool.shuffle(rng);
        for p in (0..n).filter(|&p| p != viewer.index()) {
            // The hand keeps its size, so its triangles are written over in place.
            let at = self.halflings.out_of_play.len() - sizes[p];
            self.halflings.hands.of_mut(p).copy_from_slice(&self.halflings.out_of_play[at..]);
            self.halflings.out_of_play.truncate(at);
        }
    }
}

/// Sort tiles by kind, as `sort_unstable` would (kinds are small numbers, so the order is the same whatever the
/// method): by counting when the catalogue is small, which is several times cheaper for a stack of tens of tiles, and
/// a determinization sorts the stack every iteration of a search.
fn sort_kinds(v: &mut [TileKind], kinds: usize) {
    const MAX: usize = 256;
    if kinds > MAX || v.len() > u16::MAX as usize {
        v.sort_unstable();
        return;
    }
    let mut count = [0u16; MAX];
    for k in v.iter() {
        count[k.0 as usize] += 1;
    }
    let mut i = 0;
    for (k, &c) in count[..kinds].iter().enumerate() {
        v[i..i + c as usize].fill(TileKind(k as u16));
        i += c as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_by_kind_is_sorting() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for kinds in [1usize, 7, 100, 256, 300] {
            for len in [0usize, 1, 5, 72, 400] {
                let v: Vec<TileKind> =
                    (0..len).map(|_| TileKind(rand::Rng::random_range(&mut rng, 0..kinds as u16))).collect();
                let mut a = v.clone();
                sort_kinds(&mut a, kinds);
                let mut b = v;
                b.sort_unstable();
                assert_eq!(a, b, "{kinds} kinds, {len} tiles");
            }
        }
    }

    #[test]
    fn hands_in_one_list_behave_as_a_list_per_seat() {
        // Random pushes and removals on both, seats in any order: every seat's hand the same, in the same order.
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut one = Hands::default();
        let mut each: [Vec<TileKind>; MAX_PLAYERS] = Default::default();
        for step in 0..2000 {
            let p = rand::Rng::random_range(&mut rng, 0..MAX_PLAYERS);
            if each[p].is_empty() || rand::Rng::random_bool(&mut rng, 0.6) {
                let k = TileKind(rand::Rng::random_range(&mut rng, 0..30));
                one.push(p, k);
                each[p].push(k);
            } else {
                let i = rand::Rng::random_range(&mut rng, 0..each[p].len());
                one.remove(p, i);
                each[p].remove(i);
            }
            for (q, hand) in each.iter().enumerate() {
                assert_eq!(one.of(q), hand.as_slice(), "seat {q} after step {step}");
            }
            assert_eq!(one.is_empty(), each.iter().all(Vec::is_empty));
        }
        let mut copy = Hands::default();
        copy.clone_from(&one);
        assert_eq!(copy, one);
        one.clear();
        assert!(one.is_empty() && (0..MAX_PLAYERS).all(|p| one.of(p).is_empty()));
    }
}

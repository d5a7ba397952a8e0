//! The static evaluation: what each player can expect to hold at the end of the game, from what is on the table now.
//!
//! For every player: the points already scored, plus, for each open feature the player leads (alone or tied), the
//! points it should bring — weighted by the chance that it is completed with the tiles still to come — plus the
//! value of the followers still in the supply (a follower is worth more while many tiles remain), and small values
//! for figures still to be played (the fairy's turn points, an unplayed abbey, triangles in hand).
//!
//! It reads only what every player can see: the table, the scores, the supplies and how many tiles are left.
//! Nothing here looks at the order of the stack or at anyone's triangles.

use carcassonne::action::MeepleKind;
use carcassonne::board::SegmentId;
use carcassonne::catalogue::Shape;
use carcassonne::game::MAX_PLAYERS;
use carcassonne::geom::{Corner, Pos, Side};
use carcassonne::{DecisionKind, Game, Player, SegmentKind};

/// The evaluation's constants. The defaults were tuned by arena runs (`carc arena`); see the crate's README.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// How hard a city is to complete: with `t` own turns left, a city with one open end is completed with chance
    /// `t / (t + city_close)`, and each further open end multiplies that by `extra_end`.
    pub city_close: f32,
    /// The same for roads.
    pub road_close: f32,
    /// The factor each open end beyond the first puts on the chance of completion.
    pub extra_end: f32,
    /// Tiles a road or city is expected to grow by per open end on its way to completion.
    pub growth: f32,
    /// How fast a monastery's neighbours fill: each empty one is filled by the end with chance `1 − e^(−t / fill)`.
    pub fill: f32,
    /// A follower in the supply with many tiles left, in points (the first few followers).
    pub follower: f32,
    /// Followers in supply beyond this many count half.
    pub followers_full: u8,
    /// Own turns left below which a follower in supply loses value linearly.
    pub follower_ramp: f32,
    /// A triangle in hand, in points.
    pub triangle: f32,
    /// An unplayed abbey, in points.
    pub abbey: f32,
    /// The barn in supply, in points (while tiles remain).
    pub barn: f32,
    /// How much of the best opponent (rather than the mean of the others) counts in a player's margin, 0..=1.
    pub best_opponent: f32,
    /// Tiles that count as one turn in the chances of completion and of a monastery's filling: with `s` tiles
    /// left, `t = s / pace`. Every player's tiles complete features, so these chances follow the tiles left, not
    /// the own turns: the constants were fitted at two players, and at four a city with one open end and 8 own
    /// turns left was completed as often as one with 16 at two (`examples/calibrate`). `0` means the number of
    /// players (own turns, as the evaluation was before; the default and `hard@1`'s). The followers' value always
    /// counts own turns.
    pub pace: f32,
    /// Own turns the fairy is expected to stay with the meeple it is attached to: its point at the start of each of
    /// the owner's turns (FAIRY-04) counts for at most this many turns. Any other player may take it away with their
    /// phase 2, and with two players who both want it neither ever scores a turn point. `0` means every turn left
    /// (the evaluation as it was; the default and `hard@1`'s), which makes the fairy worth tens of points early in
    /// the game and sets bots fighting over it turn after turn instead of deploying.
    pub fairy_turns: f32,
    /// Cities a field is expected to gain before the end, per square root of its segments, at the start of the game
    /// (scaled like a city's chance of completion by the turns left). A field counts only the cities it borders now,
    /// so without this an early farmer looks worth little. `0` (the default and `hard@1`'s) counts none.
    pub field_growth: f32,
    /// How much of the learned value ([`crate::value`]) is in the estimate, 0..=1: each player's expected points
    /// are their score plus `learned` × the model's points still to come plus (1 − `learned`) × the hand-written
    /// estimate's. `0` (the default, `hard@1`'s and `hard@2`'s) is the hand-written evaluation alone.
    pub learned: f32,
    /// `learned` for the search's priors (the values that order and bias a node's children) rather than its
    /// leaves, 0..=1; below 0 (the default, -1) the same as `learned`. The priors are computed once a node, the
    /// leaves once an iteration, so a slow model costs far less time here.
    pub prior_learned: f32,
    /// Above 0, a road or city with an open end that no tile still to come can fill (no kind left in the stack
    /// fits the empty space beside it, and no abbey or triangle could go there) counts as never completed, for its
    /// holders and for the farmers of the fields it borders: the space's constraints only grow and the tiles only
    /// dwindle, so it never will be. `0` (the default, `hard@2`'s) does not look.
    pub dead: f32,
    /// With `dead`, above 0: each space beside an open end of a road or city, where `f` of the tiles still to come
    /// fit, multiplies the chance that the feature is completed by `1 − e^(−f / scarce)` (a space only one or two
    /// tiles fit is often never filled). `0` (the default) counts only `f = 0`, as `dead`.
    pub scarce: f32,
    /// With `dead`, above 0: a monastery's empty neighbours are priced the same way, each filled by the end with
    /// `fill`'s chance times its space's factor (0 where no tile to come fits, or with `scarce` its fit count's), so
    /// a monastery beside a space nothing fits is never completed. `0` (the default) does not look.
    pub monastery_fits: f32,
    /// With `dead`, above 0: the Halflings' triangles still to come are followed too (a triangle whose leg covers
    /// the side an open end faces closes it, the complement of a triangle on the board closes its long side), where
    /// without it nothing is priced by its fits while any triangle is still to come. `0` (the default) does not.
    pub halves: f32,
    /// Each of the Halflings' triangles in the players' hands counts as this many tiles still to come in the turns
    /// left: a triangle turn is a whole turn (HALF-04), and play goes on after the stack is empty while triangles
    /// remain (HALF-16), so with the stack alone a late monastery or city looks far less likely to be finished than
    /// it is. `0` (the default, `hard@2`'s) counts the stack alone.
    pub hand_turns: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            city_close: 17.0,
            road_close: 17.0,
            extra_end: 0.55,
            growth: 0.6,
            fill: 16.0,
            follower: 2.0,
            followers_full: 3,
            follower_ramp: 6.0,
            triangle: 2.5,
            abbey: 3.0,
            barn: 2.0,
            best_opponent: 0.5,
            pace: 0.0,
            fairy_turns: 0.0,
            field_growth: 0.0,
            learned: 0.0,
            prior_learned: -1.0,
            dead: 0.0,
            scarce: 0.0,
            monastery_fits: 0.0,
            halves: 0.0,
            hand_turns: 0.0,
        }
    }
}

impl Weights {
    /// The constants the search's priors are computed with: `learned` replaced by `prior_learned` when that is set.
    pub fn for_priors(self) -> Weights {
        if self.prior_learned >= 0.0 { Weights { learned: self.prior_learned, ..self } } else { self }
    }

    /// These constants without the prices of what fits the spaces: `dead`, `scarce`, `monastery_fits` and
    /// `halves` off.
    pub fn without_fits(self) -> Weights {
        Weights { dead: 0.0, scarce: 0.0, monastery_fits: 0.0, halves: 0.0, ..self }
    }
}

/// Every player's expected final points, by seat (entries past the player count are 0).
pub type Points = [f32; MAX_PLAYERS];

/// A feature with followers on it, gathered once per evaluation.
#[derive(Clone, Copy, Debug)]
struct Held {
    root: SegmentId,
    strength: [u16; MAX_PLAYERS],
    followers: [u8; MAX_PLAYERS],
    fairy: Option<Player>,
}

/// Reusable scratch space for [`Evaluator::points`], so evaluations do not allocate.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {
    /// The constants.
    pub weights: Weights,
    held: Vec<Held>,
    cities: Vec<SegmentId>,
    /// For [`Weights::dead`] ([`Evaluator::gather_to_come`]): the tiles still to come counted by kind, which kinds
    /// those are (one bit each), the edges they show and the triangles among them. The edges are built again
    /// only when the kinds change, which in a search is rare.
    counts: Vec<u32>,
    kinds: Vec<u64>,
    edges: carcassonne::SquareEdges,
    triangles: Vec<carcassonne::TileKind>,
    /// Within one evaluation: the spaces already asked about, with what was needed of them (and how many tiles to
    /// come fit each, or with `scarce` at 0 whether any does), the roads and cities already priced (the factor on
    /// their chance of completion, 0 when dead), and the spaces beside the one being priced.
    spaces: Vec<(carcassonne::Space, Need, u32)>,
    roots: Vec<(SegmentId, f32)>,
    beside: Vec<(carcassonne::Space, Need)>,
}

/// What a feature needs of a space to be completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    /// A tile covering this side of the space (the side that faces the feature's open end).
    Side(Side),
    /// Any tile in it (a monastery's neighbour).
    Any,
    /// The triangle of this corner, beside one already there (its long side faces the feature).
    Half(Corner),
}

impl Evaluator {
    /// An evaluator with these constants.
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator { weights, held: Vec::with_capacity(48), cities: Vec::with_capacity(16), ..Evaluator::default() }
    }

    /// Each player's expected final points. Once the game is over, the final scores.
    pub fn points(&mut self, game: &Game) -> Points {
        let l = self.weights.learned;
        if l <= 0.0 || game.is_over() {
            return self.hand_points(game);
        }
        let mut rows = [[0f32; crate::features::COUNT]; MAX_PLAYERS];
        let mut out = self.features(game, &mut rows);
        for (p, o) in out.iter_mut().enumerate().take(game.players()) {
            let score = game.scores()[p] as f32;
            let rest = crate::value::rest(&rows[p]);
            *o = score + l * rest + (1.0 - l) * (*o - score);
        }
        out
    }

    /// Each player's expected final points by the hand-written estimate alone.
    pub fn hand_points(&mut self, game: &Game) -> Points {
        let n = game.players();
        let mut out = [0f32; MAX_PLAYERS];
        for (p, s) in game.scores().iter().enumerate() {
            out[p] = *s as f32;
        }
        if game.is_over() {
            return out;
        }
        let w = self.weights;
        let board = game.board();
        // Own turns left: the tiles left shared among the players (END-02 turns with held tiles add a little), and
        // with `hand_turns` the triangles in hand.
        let held = if w.hand_turns > 0.0 { w.hand_turns * triangles_in_hands(game) as f32 } else { 0.0 };
        let tiles_left = game.stack_len() as f32 + held;
        let turns = tiles_left / n as f32;
        let paced = if w.pace > 0.0 { tiles_left / w.pace } else { turns };
        let city = paced / (paced + w.city_close);
        let road = paced / (paced + w.road_close);
        let chance = |one: f32, open: u16| if open == 0 { 1.0 } else { one * w.extra_end.powi(open as i32 - 1) };
        let fill = 1.0 - (-paced / w.fill).exp();
        let follower = w.follower * (turns / w.follower_ramp).min(1.0);
        let fairy_turns = if w.fairy_turns > 0.0 { turns.min(w.fairy_turns) } else { turns };

        self.held.clear();
        for m in game.meeples() {
            let root = board.root(m.segment);
            let i = match self.held.iter().position(|h| h.root == root) {
                Some(i) => i,
                None => {
                    self.held.push(Held { root, strength: [0; MAX_PLAYERS], followers: [0; MAX_PLAYERS], fairy: None });
                    self.held.len() - 1
                }
            };
            let h = &mut self.held[i];
            h.strength[m.player.index()] +=
                if m.kind == MeepleKind::Mayor { board.pennants_of(root) as u16 } else { 1 };
            h.followers[m.player.index()] += 1;
            if m.fairy {
                h.fairy = Some(m.player);
            }
        }
        let tiny_two = game.rules().tiny_city_points == carcassonne::rules::TinyCityPoints::Two;
        // `Some(whether an abbey may still fill a hole)` when dead roads and cities are looked for: those held, and
        // those a field borders.
        let dead = (w.dead > 0.0 && self.gather_to_come(game)).then(|| abbeys_to_come(game));
        for hi in 0..self.held.len() {
            let h = self.held[hi];
            let kind = board.kind(h.root);
            // The feature's expected points, and the chance it completes (its followers then come home).
            let (value, complete) = match kind {
                SegmentKind::Road | SegmentKind::City => {
                    let ends = board.open_ends(h.root);
                    let open = ends as f32;
                    let mut p = chance(if kind == SegmentKind::Road { road } else { city }, ends);
                    if let Some(abbeys) = dead {
                        p *= self.completion_factor(game, h.root, abbeys);
                    }
                    let tiles = board.tile_count(h.root);
                    let grown = tiles as f32 + w.growth * open;
                    let v = if kind == SegmentKind::Road {
                        p * grown + (1.0 - p) * tiles as f32
                    } else {
                        let pen = board.pennants_of(h.root) as f32;
                        let done =
                            if tiny_two && tiles == 2 && open == 1.0 { grown + pen } else { 2.0 * (grown + pen) };
                        p * done + (1.0 - p) * (tiles as f32 + pen)
                    };
                    (v, p)
                }
                SegmentKind::Monastery => {
                    let (t, _) = board.segment_tile(h.root);
                    let space = board.tile(t).space;
                    let filled = 1 + board.filled_neighbours(space);
                    match dead {
                        Some(abbeys) if w.monastery_fits > 0.0 => self.monastery(game, space, filled, fill, abbeys),
                        _ => {
                            let empty = 9u32.saturating_sub(filled) as f32;
                            (filled as f32 + empty * fill, fill.powf(empty))
                        }
                    }
                }
                SegmentKind::Field => (3.0 * self.field_cities(game, h.root, &chance, city, dead), 0.0),
                SegmentKind::Crop => (0.0, 0.0),
            };
            let best = *h.strength.iter().max().expect("players");
            for (p, o) in out.iter_mut().enumerate().take(n) {
                if best > 0 && h.strength[p] == best {
                    *o += value;
                }
                *o += complete * follower * h.followers[p] as f32;
            }
            if let Some(f) = h.fairy {
                // The fairy's bonus when this feature is scored (FAIRY-06), if its meeple's owner takes part.
                if h.strength[f.index()] == best && best > 0 {
                    out[f.index()] += 3.0;
                }
                // Its point at the start of each of the owner's turns (FAIRY-04), while its meeple stays.
                out[f.index()] += fairy_turns * (1.0 - complete * 0.5);
            }
        }
        // Barns: 4 per completed city for the players with the most barns in the field (BARN-07).
        let barns = game.barns();
        for (i, b) in barns.iter().enumerate() {
            let root = board.root(b.segment);
            if barns[..i].iter().any(|x| board.root(x.segment) == root) {
                continue;
            }
            let mut count = [0u8; MAX_PLAYERS];
            for x in barns.iter().filter(|x| board.root(x.segment) == root) {
                count[x.player.index()] += 1;
            }
            let best = *count.iter().max().expect("players");
            let v = 4.0 * self.field_cities(game, root, &chance, city, dead);
            for p in 0..n {
                if count[p] == best {
                    out[p] += v;
                }
            }
        }
        for (p, o) in out.iter_mut().enumerate().take(n) {
            let pl = Player(p as u8);
            let normal = game.supply_of(pl, MeepleKind::Normal);
            let full = normal.min(w.followers_full) as f32;
            let half = normal.saturating_sub(w.followers_full) as f32;
            let special = (game.supply_of(pl, MeepleKind::Mayor) + game.supply_of(pl, MeepleKind::Wagon)) as f32;
            *o += follower * (full + 0.5 * half + 0.75 * special);
            *o += w.triangle * game.hand(pl).len() as f32;
            *o += w.abbey * game.abbeys_left(pl) as f32 * fill;
            *o += w.barn * game.barns_left(pl) as f32 * fill;
        }
        out
    }

    /// Gather the kinds of the tiles still to come (the stack, the tile drawn, hands, the draft pool, the tiles set
    /// aside for the dragon) for [`Evaluator::is_dead`]; `false` if a triangle is among them (it could fill half a
    /// space) and [`Weights::halves`] does not follow them.
    fn gather_to_come(&mut self, game: &Game) -> bool {
        let cat = game.catalogue();
        self.counts.clear();
        self.counts.resize(cat.len(), 0);
        game.count_stack(&mut self.counts);
        if let DecisionKind::PlaceTile { tile } = game.decision().kind {
            self.counts[tile.0 as usize] += 1;
        }
        let hands = (0..game.players()).flat_map(|p| game.hand(Player(p as u8)));
        for k in hands.chain(game.draft_pool()).chain(game.set_aside()) {
            self.counts[k.0 as usize] += 1;
        }
        self.spaces.clear();
        self.roots.clear();
        let words = cat.len().div_ceil(64);
        let mut same = self.kinds.len() == words;
        self.kinds.resize(words, 0);
        for (w, chunk) in self.kinds.iter_mut().zip(self.counts.chunks(64)) {
            let bits = chunk.iter().enumerate().fold(0u64, |b, (i, &c)| b | u64::from(c > 0) << i);
            same &= *w == bits;
            *w = bits;
        }
        if !same {
            let present = (0..cat.len()).filter(|&k| self.counts[k] > 0).map(|k| carcassonne::TileKind(k as u16));
            self.triangles.clear();
            self.triangles.extend(present.clone().filter(|&k| cat.def(k).shape == Shape::Triangle));
            self.edges.set(cat, present);
        }
        self.triangles.is_empty() || self.weights.halves > 0.0
    }

    /// Whether the road or city of `root` has an open end that none of the tiles still to come fits (nor an abbey,
    /// in a hole, when `abbeys`): it can never be completed.
    #[cfg(test)]
    fn is_dead(&mut self, game: &Game, root: SegmentId, abbeys: bool) -> bool {
        self.completion_factor(game, root, abbeys) == 0.0
    }

    /// What the spaces beside the open ends of the road or city of `root` put on its chance of completion: 0 if
    /// one of them fits none of the tiles still to come (nor an abbey, in a hole, when `abbeys`), so it can never
    /// be completed; otherwise 1, or with [`Weights::scarce`] the product of its spaces' factors. Asked again within
    /// one evaluation, the answer is remembered.
    fn completion_factor(&mut self, game: &Game, root: SegmentId, abbeys: bool) -> f32 {
        if let Some(&(_, f)) = self.roots.iter().find(|r| r.0 == root) {
            return f;
        }
        let f = self.price_open_ends(game, root, abbeys);
        self.roots.push((root, f));
        f
    }

    fn price_open_ends(&mut self, game: &Game, root: SegmentId, abbeys: bool) -> f32 {
        let board = game.board();
        let cat = game.catalogue();
        let halves = !self.triangles.is_empty();
        self.beside.clear();
        let mut factor = 1.0;
        for m in board.members(root) {
            let (t, local) = board.segment_tile(m);
            let pt = board.tile(t);
            let positions = cat.segment_positions(pt.kind, pt.placement.rotation(), local);
            let mut needs = [None; 5];
            for side in Side::ALL {
                let touches = (0..3).any(|k| positions & Pos::on_side(side, k).bit() != 0);
                if touches && board.tile_facing(pt.space, side).is_none() {
                    needs[side.index()] = Some((pt.space.step(side), Need::Side(side.opposite())));
                }
            }
            // A triangle's long side faces the other half of its own space (only followed with triangles to come).
            if let carcassonne::Placement::Triangle(c) = pt.placement {
                let long = (0..3).any(|k| positions & Pos::on_long(k).bit() != 0);
                if halves && long && !board.is_full(pt.space) {
                    needs[4] = Some((pt.space, Need::Half(c.complement())));
                }
            }
            for (spot, need) in needs.into_iter().flatten() {
                if (abbeys && board.is_hole(spot)) || self.beside.contains(&(spot, need)) {
                    continue;
                }
                self.beside.push((spot, need));
                let f = self.space_factor(game, spot, need);
                if f == 0.0 {
                    return 0.0;
                }
                factor *= f;
            }
        }
        factor
    }

    /// What a space puts on the chance that a feature needing it (`need`) is completed: 0 if none of the tiles
    /// still to come can go there so; otherwise 1, or with [`Weights::scarce`] `1 − e^(−f / scarce)` for the `f`
    /// tiles that can. Triangles count only with [`Weights::halves`]. Remembered within one evaluation.
    fn space_factor(&mut self, game: &Game, spot: carcassonne::Space, need: Need) -> f32 {
        let scarce = self.weights.scarce;
        let fit = match self.spaces.iter().find(|s| s.0 == spot && s.1 == need) {
            Some(&(_, _, f)) => f,
            None => {
                let board = game.board();
                let mut f = match need {
                    Need::Half(_) => 0,
                    _ if scarce > 0.0 => {
                        board.kinds_fitting(&self.edges, spot).map(|k| self.counts[k.0 as usize]).sum()
                    }
                    _ => u32::from(board.square_fits(&self.edges, spot)),
                };
                if (f == 0 || scarce > 0.0) && !self.triangles.is_empty() {
                    let corners: &[Corner] = match need {
                        Need::Side(s) => &[Corner::ALL[s.index()], Corner::ALL[(s.index() + 3) % 4]],
                        Need::Any => &Corner::ALL,
                        Need::Half(c) => &[c][..],
                    };
                    let cat = game.catalogue();
                    for &k in &self.triangles {
                        let fits = corners
                            .iter()
                            .any(|&c| board.check(cat, k, spot, carcassonne::Placement::Triangle(c)).is_ok());
                        if fits {
                            f += if scarce > 0.0 { self.counts[k.0 as usize] } else { 1 };
                        }
                    }
                }
                self.spaces.push((spot, need, f));
                f
            }
        };
        match fit {
            0 => 0.0,
            _ if scarce > 0.0 => 1.0 - (-(fit as f32) / scarce).exp(),
            _ => 1.0,
        }
    }

    /// A monastery's expected points and chance of completion with [`Weights::monastery_fits`]: each empty
    /// neighbour is filled with `fill`'s chance times its space's factor ([`Evaluator::space_factor`]; 1 off the
    /// frontier, where anything may still go, and in a hole while an abbey may fill it).
    fn monastery(&mut self, game: &Game, at: carcassonne::Space, filled: u32, fill: f32, abbeys: bool) -> (f32, f32) {
        let board = game.board();
        let (mut value, mut complete) = (filled as f32, 1.0);
        for s in at.neighbourhood() {
            if board.is_filled(s) {
                continue;
            }
            let f = if board.on_frontier(s) && !(abbeys && board.is_hole(s)) {
                self.space_factor(game, s, Need::Any)
            } else {
                1.0
            };
            value += fill * f;
            complete *= fill * f;
        }
        (value, complete)
    }

    /// The features held after [`Evaluator::hand_points`]: how many.
    pub(crate) fn held_len(&self) -> usize {
        self.held.len()
    }

    /// One held feature: its root, each player's strength and followers on it.
    pub(crate) fn held_at(&self, i: usize) -> (SegmentId, [u16; MAX_PLAYERS], [u8; MAX_PLAYERS]) {
        let h = &self.held[i];
        (h.root, h.strength, h.followers)
    }

    /// The cities found by the last [`Evaluator::collect_border_cities`].
    pub(crate) fn cities_found(&self) -> &[SegmentId] {
        &self.cities
    }

    /// Gathers the roots of the cities a field borders; returns the field's segments.
    pub(crate) fn collect_border_cities(&mut self, game: &Game, field: SegmentId) -> u32 {
        let board = game.board();
        let cat = game.catalogue();
        self.cities.clear();
        let mut members = 0u32;
        for m in board.members(field) {
            members += 1;
            let (t, local) = board.segment_tile(m);
            let pt = board.tile(t);
            for &c in &cat.def(pt.kind).segments[local as usize].cities {
                let r = board.root(SegmentId(pt.first_segment + c as u16));
                if !self.cities.contains(&r) {
                    self.cities.push(r);
                }
            }
        }
        members
    }

    /// The cities a field borders, counted 1 if complete and by their chance of completion if not.
    fn field_cities(
        &mut self,
        game: &Game,
        field: SegmentId,
        chance: &impl Fn(f32, u16) -> f32,
        city: f32,
        dead: Option<bool>,
    ) -> f32 {
        let board = game.board();
        let members = self.collect_border_cities(game, field);
        let mut now = 0.0;
        for i in 0..self.cities.len() {
            let c = self.cities[i];
            now += match dead {
                _ if board.is_complete(c) => 1.0,
                Some(abbeys) => chance(city, board.open_ends(c)) * self.completion_factor(game, c, abbeys),
                None => chance(city, board.open_ends(c)),
            };
        }
        if self.weights.field_growth > 0.0 {
            now + self.weights.field_growth * city * (members as f32).sqrt()
        } else {
            now
        }
    }

    /// `me`'s margin: their expected points minus a blend of the best and the mean of the other players'.
    pub fn margin(&mut self, game: &Game, me: Player) -> f32 {
        let pts = self.points(game);
        margin_of(&pts[..game.players()], me, self.weights.best_opponent)
    }
}

/// The Halflings' triangles in every player's hand (their number is public, HALF-03).
fn triangles_in_hands(game: &Game) -> usize {
    (0..game.players()).map(|p| game.hand(Player(p as u8)).len()).sum()
}

/// Whether any player still has an abbey to place (it fills any hole, ABBEY-02).
fn abbeys_to_come(game: &Game) -> bool {
    (0..game.players()).any(|p| game.abbeys_left(Player(p as u8)) > 0)
}

/// A player's margin over the others: their points minus `best` × the best other plus (1 − `best`) × the mean of
/// the others.
pub fn margin_of(points: &[f32], me: Player, best: f32) -> f32 {
    let mine = points[me.index()];
    let mut top = f32::MIN;
    let mut sum = 0.0;
    for (p, &v) in points.iter().enumerate() {
        if p != me.index() {
            top = top.max(v);
            sum += v;
        }
    }
    let mean = sum / (points.len() - 1) as f32;
    mine - (best * top + (1.0 - best) * mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::Setup;

    #[test]
    fn a_feature_called_dead_is_never_completed() {
        // Seeded random games, base and every module: each time the evaluation calls an incomplete road, city or
        // monastery dead, the game goes on to its end and that feature (whatever it has joined since) must still be open.
        let (mut called, mut looked, mut monasteries) = (0, 0, 0);
        let every: &[&str] = &["base", "am", "pd", "cc", "half"];
        for (i, sets) in [&["base"][..], every].into_iter().enumerate() {
            for seed in 0..10u64 {
                let mut setup = Setup::new(2 + (seed % 3) as u8);
                setup.sets = sets.iter().map(|s| s.to_string()).collect();
                setup.switch_on_set_modules(false);
                setup.seed = seed;
                let mut g = Game::new(&setup).unwrap();
                let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed + 100 * i as u64);
                // Triangles followed too (`halves`), so the Halflings' games are checked while triangles remain.
                let mut e = Evaluator::new(Weights { halves: 1.0, ..Weights::default() });
                let (mut dead, mut buf) = (Vec::new(), Vec::new());
                while let Some(a) = g.random_action(&mut rng, &mut buf) {
                    if matches!(g.decision().kind, DecisionKind::PlaceTile { .. }) && e.gather_to_come(&g) {
                        looked += 1;
                        let abbeys = abbeys_to_come(&g);
                        let b = g.board();
                        for r in b.roots() {
                            let road_or_city = matches!(b.kind(r), SegmentKind::Road | SegmentKind::City);
                            if road_or_city && !b.is_complete(r) && e.is_dead(&g, r, abbeys) {
                                dead.push(r);
                            }
                            // A monastery beside a space nothing to come fits (`monastery_fits`).
                            if b.kind(r) == SegmentKind::Monastery && !b.is_complete(r) {
                                let at = b.tile(b.segment_tile(r).0).space;
                                let (_, complete) = e.monastery(&g, at, 1 + b.filled_neighbours(at), 1.0, abbeys);
                                if complete == 0.0 {
                                    dead.push(r);
                                    monasteries += 1;
                                }
                            }
                        }
                    }
                    g.apply(a).unwrap();
                }
                for s in &dead {
                    assert!(
                        !g.board().is_complete(*s),
                        "sets {sets:?} seed {seed}: a feature called dead was completed: {:?}",
                        g.board().kind(*s)
                    );
                }
                called += dead.len();
            }
        }
        assert!(
            looked > 1000 && called > monasteries && monasteries > 0,
            "looked {looked} times, called {called} dead, {monasteries} of them monasteries"
        );
    }

    #[test]
    fn margins_blend_the_best_and_the_mean() {
        let pts = [10.0, 20.0, 4.0];
        assert_eq!(margin_of(&pts, Player(0), 1.0), -10.0);
        assert_eq!(margin_of(&pts, Player(0), 0.0), -2.0);
        assert_eq!(margin_of(&pts, Player(1), 0.5), 20.0 - (0.5 * 10.0 + 0.5 * 7.0));
    }

    #[test]
    fn a_new_game_is_even_and_a_finished_one_is_its_scores() {
        let g = Game::new(&Setup::new(2)).unwrap();
        let mut e = Evaluator::default();
        let p = e.points(&g);
        assert_eq!(p[0], p[1]);
        assert!(p[0] > 0.0, "followers in supply are worth something");
        let mut g = g;
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        g.play_random(&mut rng, &mut Vec::new());
        let p = e.points(&g);
        assert_eq!(p[0], g.scores()[0] as f32);
        assert_eq!(p[1], g.scores()[1] as f32);
    }

    /// The fairy's turn points are capped by `fairy_turns`: only its owner's estimate changes, by at most the turns
    /// beyond the cap (a defect: uncapped, whoever moved the fairy last gained tens of points in the estimate).
    #[test]
    fn the_fairy_counts_only_a_few_turns() {
        let mut s = Setup::new(2);
        s.sets = ["base", "pd"].map(String::from).to_vec();
        s.rules.set("modules.fairy", "true").unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
        let mut buf = Vec::new();
        let mut checked = 0;
        for seed in 0..40 {
            s.seed = seed;
            let mut g = Game::new(&s).unwrap();
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                g.apply_unchecked(a);
                let Some(owner) = g.meeples().iter().find(|m| m.fairy).map(|m| m.player) else { continue };
                let turns = g.stack_len() as f32 / 2.0;
                if turns < 6.0 {
                    break;
                }
                let all = Evaluator::new(Weights::default()).points(&g);
                let capped = Evaluator::new(Weights { fairy_turns: 2.0, ..Weights::default() }).points(&g);
                let other = 1 - owner.index();
                assert_eq!(all[other], capped[other]);
                let lost = all[owner.index()] - capped[owner.index()];
                assert!(lost >= 0.5 * (turns - 2.0) - 1e-3 && lost <= turns - 2.0 + 1e-3, "{lost} with {turns} turns");
                checked += 1;
                break;
            }
        }
        assert!(checked >= 10, "only {checked} games put the fairy on a meeple");
    }

    /// `field_growth` adds future cities to a field held by a farmer: the farmer's owner gains while tiles are
    /// left, the other player's estimate does not change, and with the stack empty (the last placement's phase 2)
    /// nothing is added.
    #[test]
    fn a_held_field_grows_while_tiles_are_left() {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
        let mut buf = Vec::new();
        let grown = Weights { field_growth: 1.0, ..Weights::default() };
        let (mut gained, mut at_end) = (0, 0);
        for seed in 0..30 {
            let mut s = Setup::new(2);
            s.seed = seed;
            let mut g = Game::new(&s).unwrap();
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                g.apply_unchecked(a);
                let farmers: Vec<Player> = g
                    .meeples()
                    .iter()
                    .filter(|m| g.board().kind(m.segment) == SegmentKind::Field)
                    .map(|m| m.player)
                    .collect();
                if farmers.len() != 1 || g.is_over() {
                    continue;
                }
                let owner = farmers[0].index();
                let plain = Evaluator::new(Weights::default()).points(&g);
                let more = Evaluator::new(grown).points(&g);
                assert_eq!(plain[1 - owner], more[1 - owner]);
                if g.stack_len() > 0 {
                    assert!(more[owner] > plain[owner], "no gain with {} tiles left", g.stack_len());
                    gained += 1;
                } else {
                    assert_eq!(more[owner], plain[owner]);
                    at_end += 1;
                }
            }
        }
        assert!(gained >= 100, "only {gained} positions with a lone farmer ({at_end} with the stack empty)");
    }

    /// `hand_turns` counts the triangles in hand as turns left: while any are held, a held monastery that is not
    /// yet complete is worth more to its holder; with no triangle in any hand nothing changes. (Random players
    /// spend their triangles early, so few positions have them.)
    #[test]
    fn triangles_in_hand_are_turns_left() {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(5);
        let mut buf = Vec::new();
        let counted = Weights { hand_turns: 1.0, ..Weights::default() };
        let (mut held, mut none_held) = (0, 0);
        for seed in 0..60 {
            let mut s = Setup::new(2);
            s.sets = ["base", "half"].map(String::from).to_vec();
            s.switch_on_set_modules(false);
            s.seed = seed;
            let mut g = Game::new(&s).unwrap();
            while let Some(a) = g.random_action(&mut rng, &mut buf) {
                g.apply_unchecked(a);
                if g.is_over() {
                    break;
                }
                let plain = Evaluator::new(Weights::default()).points(&g);
                let more = Evaluator::new(counted).points(&g);
                if triangles_in_hands(&g) == 0 {
                    assert_eq!(plain, more);
                    none_held += 1;
                    continue;
                }
                let b = g.board();
                for m in g.meeples() {
                    if b.kind(m.segment) == SegmentKind::Monastery && !b.is_complete(m.segment) {
                        let p = m.player.index();
                        assert!(more[p] > plain[p], "no gain with {} tiles left", g.stack_len());
                        held += 1;
                    }
                }
            }
        }
        assert!(
            held >= 50 && none_held > 0,
            "{held} held monasteries with triangles in hand, {none_held} positions without"
        );
    }
}

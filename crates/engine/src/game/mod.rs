//! The game: a sequence of decisions.
//!
//! At any moment [`Game::decision`] says who decides (a player, or chance for the tile draw) and what kind of decision
//! it is; [`Game::legal_actions`] lists the answers; [`Game::apply`] takes one, or rejects it with a typed reason and
//! leaves the game unchanged.
//!
//! # How a turn runs (SPEC §T)
//! A turn is a stack of steps. Decision steps wait for an action; automatic steps (scoring, end of turn) run as
//! soon as they reach the top. Placing a tile pushes the rest of the turn — phase 2, scoring, end of turn — and a
//! rules module adds its own steps in the same way (a dragon step owned by another player, one wagon decision per
//! returned wagon, a crop-circle answer per player), so the turn never has to be rewritten to grow.

mod abbey;
mod barn;
mod crop;
mod decision;
mod dragon;
mod endgame;
mod error;
mod event;
mod fairy;
mod halflings;
mod mayor;
mod notation;
mod pieces;
mod portal;
mod princess;
mod scoring;
mod symmetry;
mod wagon;

use std::sync::Arc;

use crate::action::{Action, MeepleKind, MeepleRef, Player};
use crate::board::{Board, Placement, SegmentId};
use crate::catalogue::{Catalogue, SegmentKind, Symbol, TileKind};
use crate::geom::Space;
use crate::rules::Rules;
use crate::setup::{GameConfig, Setup, SetupError};

/// Most players at one table (SPEC BASE-01).
pub const MAX_PLAYERS: usize = 6;
/// Normal meeples per player (SPEC BASE-01).
pub const MEEPLES_PER_PLAYER: u8 = 7;

pub(crate) use decision::Step;
pub use decision::{Actor, Decision, DecisionKind};
pub use error::{IllegalAction, IllegalReason};
pub use event::{Event, Players, ReturnCause, ScoreReason, ScoreTime, Scoring};
pub(crate) use pieces::PendingWagon;
pub use pieces::{PlacedBarn, PlacedMeeple};

/// A game in progress. Cloning is cheap (a few small vectors; the catalogue is shared).
///
/// `PartialEq` compares the whole state: board, scores, supplies, stack order, meeples and the pending decision (not
/// the events of the last action, a report rather than state; the configuration as the same one or an equal setup).
/// It is derived, so a new field is compared without being listed anywhere.
#[derive(Debug, PartialEq)]
pub struct Game {
    config: SharedConfig,
    board: Board,
    scores: [i32; MAX_PLAYERS],
    /// Followers in each player's supply, by [`MeepleKind`].
    supply: [[u8; MeepleKind::COUNT]; MAX_PLAYERS],
    /// The barns on the board, those in supply and this turn's (barn.rs).
    barn: barn::BarnState,
    /// The abbeys still held (abbey.rs).
    abbey: abbey::AbbeyState,
    /// The dragon's space, its movement in progress and the tiles set aside (dragon.rs).
    dragon: dragon::DragonState,
    /// The fairy's space (fairy.rs).
    fairy: fairy::FairyState,
    /// This turn's crop circle: the action and role named (crop.rs).
    crop: crop::CropState,
    /// The players' triangles, the draft and the tiles out of play (halflings.rs).
    halflings: halflings::HalflingsState,
    /// State of the generator for in-game shuffles (the reshuffle at the first volcano, VAR-09 put-backs).
    rng: u64,
    /// Wagons returned by this turn's scoring, in decision order (wagon.rs).
    wagon: wagon::WagonState,
    /// The end game's count of passes, final round and last placer (endgame.rs).
    end: endgame::EndState,
    /// Remaining draw stack; the next tile is the last element.
    stack: Vec<TileKind>,
    meeples: Vec<PlacedMeeple>,
    active: Player,
    /// The turn's remaining steps; the current one is the last element.
    steps: Vec<Step>,
    /// The tile placed this turn (board tile number).
    placed: Option<u8>,
    /// Features completed by this turn's placement, scored in phase 3.
    completed: Vec<SegmentId>,
    events: Report,
    discarded: u16,
    turn: u32,
}

/// The shared configuration (setup, catalogue, rules), equal when it is the same one or made from an equal setup.
#[derive(Clone, Debug)]
struct SharedConfig(Arc<GameConfig>);

impl PartialEq for SharedConfig {
    fn eq(&self, o: &SharedConfig) -> bool {
        Arc::ptr_eq(&self.0, &o.0) || self.0.setup == o.0.setup
    }
}

impl std::ops::Deref for SharedConfig {
    type Target = Arc<GameConfig>;
    fn deref(&self) -> &Arc<GameConfig> {
        &self.0
    }
}

/// The events of the last action: a report of what it did, not state, so two games that differ only here are equal.
#[derive(Clone, Debug, Default)]
struct Report(Vec<Event>);

impl PartialEq for Report {
    fn eq(&self, _: &Report) -> bool {
        true
    }
}

impl std::ops::Deref for Report {
    type Target = Vec<Event>;
    fn deref(&self) -> &Vec<Event> {
        &self.0
    }
}

impl std::ops::DerefMut for Report {
    fn deref_mut(&mut self) -> &mut Vec<Event> {
        &mut self.0
    }
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            config: self.config.clone(),
            board: self.board.clone(),
            scores: self.scores,
            supply: self.supply,
            barn: self.barn.clone(),
            abbey: self.abbey,
            dragon: self.dragon.clone(),
            fairy: self.fairy,
            crop: self.crop,
            halflings: self.halflings.clone(),
            rng: self.rng,
            wagon: self.wagon.clone(),
            end: self.end,
            stack: self.stack.clone(),
            meeples: self.meeples.clone(),
            active: self.active,
            steps: self.steps.clone(),
            placed: self.placed,
            completed: self.completed.clone(),
            events: self.events.clone(),
            discarded: self.discarded,
            turn: self.turn,
        }
    }

    /// Into the memory already held: a search copies a game into the same scratch game every iteration, and this
    /// allocates nothing once the scratch has grown. Every field is named (no `..`), so a new one cannot be
    /// forgotten here.
    fn clone_from(&mut self, o: &Game) {
        let Game {
            config,
            board,
            scores,
            supply,
            barn,
            abbey,
            dragon,
            fairy,
            crop,
            halflings,
            rng,
            wagon,
            end,
            stack,
            meeples,
            active,
            steps,
            placed,
            completed,
            events,
            discarded,
            turn,
        } = self;
        if !Arc::ptr_eq(&config.0, &o.config.0) {
            *config = o.config.clone();
        }
        board.clone_from(&o.board);
        *scores = o.scores;
        *supply = o.supply;
        barn.clone_from(&o.barn);
        *abbey = o.abbey;
        dragon.clone_from(&o.dragon);
        *fairy = o.fairy;
        *crop = o.crop;
        halflings.clone_from(&o.halflings);
        *rng = o.rng;
        wagon.clone_from(&o.wagon);
        *end = o.end;
        stack.clone_from(&o.stack);
        meeples.clone_from(&o.meeples);
        *active = o.active;
        steps.clone_from(&o.steps);
        *placed = o.placed;
        completed.clone_from(&o.completed);
        events.0.clone_from(&o.events.0);
        *discarded = o.discarded;
        *turn = o.turn;
    }
}

impl Game {
    /// Start a game from a setup (its seed shuffles the stack).
    ///
    /// # Errors
    /// A [`SetupError`] if the setup is not valid.
    ///
    /// # Examples
    /// ```
    /// use carcassonne::{Game, Setup};
    /// let game = Game::new(&Setup::new(2)).unwrap();
    /// assert_eq!(game.stack_len(), 71);
    /// ```
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        let config = setup.prepare()?;
        Ok(Game::from_config(config, setup.seed))
    }

    /// Start a game from a prepared configuration with this seed (cheap: for running many games of one setup).
    pub fn from_config(config: Arc<GameConfig>, seed: u64) -> Game {
        let mut g = Game {
            config: SharedConfig(config),
            board: Board::new(),
            scores: [0; MAX_PLAYERS],
            supply: [[0; MeepleKind::COUNT]; MAX_PLAYERS],
            barn: barn::BarnState::default(),
            abbey: abbey::AbbeyState::default(),
            dragon: dragon::DragonState::default(),
            fairy: fairy::FairyState::default(),
            crop: crop::CropState::default(),
            halflings: halflings::HalflingsState::default(),
            rng: 0,
            wagon: wagon::WagonState::default(),
            end: endgame::EndState::default(),
            stack: Vec::new(),
            meeples: Vec::with_capacity(16),
            active: Player(0),
            steps: Vec::with_capacity(8),
            placed: None,
            completed: Vec::with_capacity(8),
            events: Report(Vec::with_capacity(8)),
            discarded: 0,
            turn: 1,
        };
        g.restart(seed);
        g
    }

    /// Start this game over from its setup with a new seed, keeping the memory it has already allocated (for
    /// running many games in a row). The result equals `Game::from_config(config, seed)`.
    pub fn restart(&mut self, seed: u64) {
        let config = Arc::clone(&self.config);
        let n = config.players as usize;
        self.board.clear();
        let mut completed = std::mem::take(&mut self.completed);
        completed.clear();
        self.board
            .place_start(
                &config.catalogue,
                config.start,
                Space::new(0, 0),
                Placement::Square(config.setup.start_rotation),
                &mut completed,
            )
            .expect("the start tile goes on an empty board");
        completed.clear();
        self.completed = completed;
        let m = config.rules.modules;
        self.scores = [0; MAX_PLAYERS];
        self.supply = [[0; MeepleKind::COUNT]; MAX_PLAYERS];
        self.supply[..n].fill([MEEPLES_PER_PLAYER, m.mayor as u8, m.wagon as u8]);
        self.barn.restart(n, m.barn);
        self.abbey = abbey::AbbeyState::new(n, config.abbey.is_some());
        self.dragon.clear();
        self.fairy = fairy::FairyState::default();
        self.crop = crop::CropState::default();
        self.deal_triangles(seed);
        self.rng = seed ^ 0x9e37_79b9_7f4a_7c15;
        self.wagon.pending.clear();
        self.end = endgame::EndState::default();
        config.shuffle_into(seed, &mut self.stack);
        self.meeples.clear();
        self.active = Player(0);
        self.steps.clear();
        self.placed = None;
        self.events.clear();
        self.discarded = 0;
        self.turn = 1;
        if self.starts_with_draft() {
            self.steps.push(Step::Draft(0));
        } else if self.stack.is_empty() && !self.holds_anything() {
            self.steps.push(Step::EndTurn);
        } else {
            self.start_turn();
        }
        self.advance();
    }

    // ----- reading the state -----

    /// The shared configuration (setup, catalogue, rules).
    pub fn config(&self) -> &Arc<GameConfig> {
        &self.config.0
    }

    /// The tile kinds in play.
    pub fn catalogue(&self) -> &Catalogue {
        &self.config.catalogue
    }

    /// The rule options.
    pub fn rules(&self) -> &Rules {
        &self.config.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.config.players as usize
    }

    /// Scores in seat order.
    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.players()]
    }

    /// Normal meeples each player has in supply.
    pub fn supply(&self) -> Vec<u8> {
        self.supply[..self.players()].iter().map(|s| s[MeepleKind::Normal.index()]).collect()
    }

    /// The players with the highest score, who share the victory once the game is over (BASE-17).
    pub fn leaders(&self) -> Players {
        let best = *self.scores().iter().max().expect("at least two players");
        Players(self.scores().iter().enumerate().filter(|(_, s)| **s == best).fold(0, |acc, (i, _)| acc | 1 << i))
    }

    /// How many followers of a kind a player has in supply.
    pub fn supply_of(&self, p: Player, kind: MeepleKind) -> u8 {
        self.supply[p.index()][kind.index()]
    }

    /// Whether a player still has their barn.
    pub fn barns_left(&self, p: Player) -> u8 {
        self.barn.left[p.index()]
    }

    /// Whether a player still holds their abbey.
    pub fn abbeys_left(&self, p: Player) -> u8 {
        self.abbey.left[p.index()]
    }

    /// The barns on the board.
    pub fn barns(&self) -> &[PlacedBarn] {
        &self.barn.placed
    }

    /// The dragon's space, once a volcano has brought it into play (DRAGON-03).
    pub fn dragon(&self) -> Option<Space> {
        self.dragon.space
    }

    /// The spaces the dragon has visited in the movement in progress, its start first (empty between movements).
    pub fn dragon_path(&self) -> &[Space] {
        &self.dragon.path
    }

    /// The fairy's space, once it is on the board (FAIRY-03). The meeple it is attached to, if any, has
    /// [`PlacedMeeple::fairy`] set.
    pub fn fairy(&self) -> Option<Space> {
        self.fairy.space
    }

    /// A player's triangles (HALF-03). Private: a view for another player shows only how many.
    pub fn hand(&self, p: Player) -> &[TileKind] {
        self.halflings.hands.of(p.index())
    }

    /// Triangles face up in the draft (VAR-20), while it lasts.
    pub fn draft_pool(&self) -> &[TileKind] {
        &self.halflings.draft
    }

    /// Tiles out of play: undealt triangles and tiles under a hill (HALF-18).
    pub fn out_of_play(&self) -> &[TileKind] {
        &self.halflings.out_of_play
    }

    /// Dragon tiles set aside because they were drawn before the dragon was in play (DRAGON-02).
    pub fn set_aside(&self) -> &[TileKind] {
        &self.dragon.set_aside
    }

    /// The meeples on the board, in the order they were deployed.
    pub fn meeples(&self) -> &[PlacedMeeple] {
        &self.meeples
    }

    /// The player whose turn it is.
    pub fn active_player(&self) -> Player {
        self.active
    }

    /// Turn number, from 1.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Tiles left in the draw stack.
    pub fn stack_len(&self) -> usize {
        self.stack.len()
    }

    /// Tiles discarded as unplaceable (BASE-05).
    pub fn discarded(&self) -> usize {
        self.discarded as usize
    }

    /// The next tile the stack would give (hidden information: the server must not show it).
    pub fn next_draw(&self) -> Option<TileKind> {
        self.stack.last().copied()
    }

    /// The remaining tiles by kind, with counts: the chance outcomes of a draw, in catalogue order.
    pub fn chance_outcomes(&self) -> Vec<(TileKind, u32)> {
        let mut counts = vec![0u32; self.catalogue().len()];
        self.count_stack(&mut counts);
        counts.into_iter().enumerate().filter(|(_, c)| *c > 0).map(|(k, c)| (TileKind(k as u16), c)).collect()
    }

    /// Add the remaining tiles' counts into `counts`, indexed by kind (at least the catalogue's length): the counts
    /// of [`Game::chance_outcomes`] without allocating. The order stays hidden.
    ///
    /// # Panics
    /// If `counts` is shorter than the catalogue.
    pub fn count_stack(&self, counts: &mut [u32]) {
        for k in &self.stack {
            counts[k.0 as usize] += 1;
        }
    }

    /// Replace the order of the remaining stack (for determinization: an AI samples an order it cannot see; with
    /// Halflings, [`Game::shuffle_hidden`] also re-deals the triangles the AI cannot see).
    pub fn shuffle_stack(&mut self, rng: &mut impl rand::Rng) {
        use rand::seq::SliceRandom;
        self.stack.shuffle(rng);
    }

    /// The events of the last action applied.
    pub fn last_events(&self) -> &[Event] {
        &self.events.0
    }

    /// The tile placed this turn, if any (its board tile number).
    pub fn placed_tile(&self) -> Option<usize> {
        self.placed.map(|t| t as usize)
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.step() == Step::GameOver
    }

    #[inline]
    fn step(&self) -> Step {
        *self.steps.last().expect("the step stack is never empty")
    }

    /// Who must decide what now.
    pub fn decision(&self) -> Decision {
        let p = Actor::Player(self.active);
        match self.step() {
            Step::Phase1 => Decision { actor: p, kind: DecisionKind::Phase1 },
            Step::Draft(k) => Decision { actor: Actor::Player(self.draft_picker(k)), kind: DecisionKind::Draft },
            Step::Draw => Decision { actor: Actor::Chance, kind: DecisionKind::Draw },
            Step::PlaceTile(tile) => Decision { actor: p, kind: DecisionKind::PlaceTile { tile } },
            Step::Phase2 => Decision { actor: p, kind: DecisionKind::Phase2 },
            Step::Princess => Decision { actor: p, kind: DecisionKind::Princess },
            Step::Dragon(step) => {
                Decision { actor: Actor::Player(self.dragon_step_owner(step)), kind: DecisionKind::MoveDragon { step } }
            }
            Step::CropChoice => Decision { actor: p, kind: DecisionKind::CropChoice },
            Step::CropAnswer(k) => Decision {
                actor: Actor::Player(self.crop_answerer(k)),
                kind: DecisionKind::CropAnswer { action: self.crop.action },
            },
            Step::Wagon => Decision {
                actor: Actor::Player(self.wagon.pending.first().expect("a wagon step has a pending wagon").player),
                kind: DecisionKind::MoveWagon,
            },
            Step::GameOver | Step::Score | Step::EndTurn => {
                Decision { actor: Actor::Nobody, kind: DecisionKind::GameOver }
            }
        }
    }

    // ----- legal actions -----

    /// The legal actions, in a deterministic order.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(&mut v);
        v
    }

    /// The legal actions, written into `out` (cleared first), so a playout can reuse one buffer.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.step() {
            Step::Phase1 => {
                self.abbey_actions(out);
                self.triangle_actions(out);
                out.push(Action::Pass);
            }
            Step::Draft(_) => self.draft_actions(out),
            Step::Wagon => {
                self.wagon_actions(out);
                out.push(Action::Pass);
            }
            Step::Draw => {
                out.extend(self.chance_outcomes().into_iter().map(|(k, _)| Action::Draw(k)));
            }
            Step::PlaceTile(tile) => {
                self.board.for_each_square_placement(self.catalogue(), tile, |space, rotation| {
                    out.push(Action::Place { tile, space, rotation });
                    false
                });
            }
            Step::Phase2 => {
                self.phase2_actions(out);
                out.push(Action::Pass);
            }
            Step::Princess => {
                self.princess_actions(out);
                if self.config.rules.princess_removal == crate::rules::PrincessRemoval::Optional {
                    out.push(Action::Pass);
                }
            }
            Step::Dragon(_) => self.dragon_actions(out),
            Step::CropChoice => self.crop_choices(out),
            Step::CropAnswer(_) => self.crop_answer_actions(out),
            Step::Score | Step::EndTurn | Step::GameOver => {}
        }
    }

    /// Phase 2: deployments on the placed tile (BASE-06, MAYOR-02, WAGON-02, BARN-03; crop circles never, CROP-02;
    /// never on the dragon's space, DRAGON-04/05), then through the portal (PORTAL-02), the barn (BARN-02) and the
    /// fairy (FAIRY-02).
    fn phase2_actions(&self, out: &mut Vec<Action>) {
        let Some(t) = self.placed else { return };
        let pt = self.board.tile(t as usize);
        if Some(pt.space) != self.dragon.space {
            self.deploy_actions(pt, out);
        }
        self.portal_actions(out);
        self.barn_actions(out);
        self.fairy_actions(out);
    }

    /// Deployments on the placed tile.
    fn deploy_actions(&self, pt: &crate::board::PlacedTile, out: &mut Vec<Action>) {
        let supply = self.supply[self.active.index()];
        let o = self.catalogue().oriented(pt.kind, pt.placement.rotation());
        let special = supply[MeepleKind::Mayor.index()] + supply[MeepleKind::Wagon.index()] > 0;
        for i in 0..o.n_segments as usize {
            let kind = o.seg_kind[i];
            if kind == SegmentKind::Crop {
                continue;
            }
            let (meeples, barns) = self.board.occupancy(SegmentId(pt.first_segment + i as u16));
            if meeples != 0 || barns != 0 {
                continue;
            }
            if supply[MeepleKind::Normal.index()] > 0 {
                out.push(Action::Deploy { meeple: MeepleKind::Normal, segment: i as u8 });
            }
            if special {
                for m in [MeepleKind::Mayor, MeepleKind::Wagon] {
                    if supply[m.index()] > 0 && m.may_stand_on(kind) {
                        out.push(Action::Deploy { meeple: m, segment: i as u8 });
                    }
                }
            }
        }
    }

    /// A uniformly random legal action for the pending decision; a chance step takes the top of the (already
    /// shuffled) stack. `buf` is scratch space, reused so a playout does not allocate. `None` when the game is over.
    pub fn random_action(&self, rng: &mut impl rand::Rng, buf: &mut Vec<Action>) -> Option<Action> {
        match self.step() {
            Step::Draw => return self.next_draw().map(Action::Draw),
            Step::PlaceTile(tile) => {
                let (space, rotation) = self.board.random_square_placement(self.catalogue(), tile, rng)?;
                return Some(Action::Place { tile, space, rotation });
            }
            _ => {}
        }
        self.legal_actions_into(buf);
        (!buf.is_empty()).then(|| buf[rng.random_range(0..buf.len())])
    }

    /// A uniformly random legal action, as [`Game::random_action`] gives, but found faster where listing every
    /// action is long (the Halflings' phase 1 lists every placement of every held triangle): candidates are drawn and
    /// checked instead (decision E-21). The distribution is the same; the draws for a given generator are not, so
    /// `random_action` stays what `carc selfplay` and seeded random play use, and this is for playouts.
    pub fn fast_random_action(&self, rng: &mut impl rand::Rng, buf: &mut Vec<Action>) -> Option<Action> {
        if self.step() == Step::Phase1 && self.halflings_on() {
            return Some(self.random_phase1(rng, buf));
        }
        self.random_action(rng, buf)
    }

    /// Play uniformly random legal actions to the end of the game.
    pub fn play_random(&mut self, rng: &mut impl rand::Rng, buf: &mut Vec<Action>) {
        while let Some(a) = self.random_action(rng, buf) {
            self.apply_unchecked(a);
        }
    }

    /// Whether `a` would be accepted now.
    pub fn is_legal(&self, a: Action) -> bool {
        self.check(a).is_ok()
    }

    fn check(&self, a: Action) -> Result<(), IllegalReason> {
        if let Action::Draw(k) | Action::Place { tile: k, .. } | Action::PlaceTriangle { tile: k, .. } | Action::Pick(k) =
            a
            && k.0 as usize >= self.catalogue().len()
        {
            return Err(IllegalReason::UnknownTile);
        }
        let wrong = |expected| Err(IllegalReason::WrongDecision { expected });
        match (self.step(), a) {
            (Step::Phase1, Action::Pass) => Ok(()),
            (Step::Phase1, Action::Place { tile, space, .. }) => self.check_abbey(tile, space),
            (Step::Phase1, Action::PlaceTriangle { tile, space, corner }) => self.check_triangle(tile, space, corner),
            (Step::Phase1, _) => wrong("an abbey or triangle placement, or a pass"),
            (Step::Draft(_), Action::Pick(k)) => self.check_pick(k),
            (Step::Draft(_), _) => wrong("a triangle to pick"),
            (Step::Wagon, Action::Pass) => Ok(()),
            (Step::Wagon, Action::MoveWagon { segment }) => self.check_wagon(segment),
            (Step::Wagon, _) => wrong("a wagon move or a pass"),
            (Step::Draw, Action::Draw(k)) => {
                if self.stack.contains(&k) {
                    Ok(())
                } else {
                    Err(IllegalReason::NotInStack)
                }
            }
            (Step::Draw, _) => wrong("a tile draw"),
            (Step::PlaceTile(t), Action::Place { tile, space, rotation }) => {
                if tile != t {
                    let c = self.catalogue();
                    return Err(IllegalReason::WrongTile {
                        expected: c.def(t).id.clone(),
                        given: c.def(tile).id.clone(),
                    });
                }
                Ok(self.board.check(self.catalogue(), tile, space, Placement::Square(rotation))?)
            }
            (Step::PlaceTile(_), _) => wrong("the drawn tile's placement"),
            (Step::Phase2, Action::Pass) => Ok(()),
            (Step::Phase2, Action::PlaceBarn { corner }) => self.check_barn(corner),
            (Step::Phase2, Action::Portal { meeple, segment }) => self.check_portal(meeple, segment),
            (Step::Phase2, Action::MoveFairy(r)) => self.check_fairy(r),
            (Step::Phase2, Action::MoveFairyTo(space)) => self.check_fairy_to(space),
            (Step::Phase2, Action::Deploy { meeple, segment }) => {
                let t = self.placed.expect("phase 2 follows a placement");
                let pt = self.board.tile(t as usize);
                let def = self.catalogue().def(pt.kind);
                let seg = def.segments.get(segment as usize).ok_or(IllegalReason::NoSuchSegment(segment))?;
                if seg.kind == SegmentKind::Crop {
                    return Err(IllegalReason::CropCircle);
                }
                if !meeple.may_stand_on(seg.kind) {
                    return Err(IllegalReason::NotAllowedOn(meeple.name(), seg.kind.name()));
                }
                if self.supply[self.active.index()][meeple.index()] == 0 {
                    return Err(IllegalReason::EmptySupply(meeple.name()));
                }
                if Some(pt.space) == self.dragon.space {
                    return Err(IllegalReason::DragonSpace);
                }
                let id = SegmentId(pt.first_segment + segment as u16);
                if self.board.meeples_on(id) != 0 {
                    return Err(IllegalReason::Occupied);
                }
                if seg.kind == SegmentKind::Field && self.board.barns_on(id) != 0 {
                    return Err(IllegalReason::FieldHasBarn);
                }
                Ok(())
            }
            (Step::Phase2, _) => wrong("a meeple deployment, a barn, a fairy move or a pass"),
            (Step::Princess, Action::Pass) => match self.config.rules.princess_removal {
                crate::rules::PrincessRemoval::Optional => Ok(()),
                crate::rules::PrincessRemoval::Mandatory => Err(IllegalReason::RemovalRequired),
            },
            (Step::Princess, Action::RemoveKnight(r)) => self.check_princess(r),
            (Step::Princess, _) => wrong("a knight to remove or a pass"),
            (Step::Dragon(_), Action::MoveDragon(side)) => self.check_dragon(side),
            (Step::Dragon(_), _) => wrong("a dragon step"),
            (Step::CropChoice, Action::ChooseCrop(_) | Action::ChooseCropRole(..)) => self.check_crop_choice(a),
            (Step::CropChoice, _) => wrong("crop action A or B"),
            (Step::CropAnswer(_), Action::CropAdd { .. } | Action::CropRemove(_) | Action::Pass) => {
                self.check_crop_answer(a)
            }
            (Step::CropAnswer(_), _) => wrong("an answer to the crop-circle action"),
            (Step::GameOver | Step::Score | Step::EndTurn, _) => Err(IllegalReason::GameOver),
        }
    }

    // ----- applying actions -----

    /// Apply an action.
    ///
    /// # Errors
    /// [`IllegalAction`] if the action is not legal now; the game is then unchanged.
    pub fn apply(&mut self, a: Action) -> Result<(), IllegalAction> {
        self.check(a).map_err(|reason| IllegalAction { action: a, reason })?;
        self.apply_unchecked(a);
        Ok(())
    }

    /// Apply an action, consuming and returning the game; on error the unchanged game comes back in the error.
    ///
    /// # Errors
    /// The reason, with the game.
    pub fn play(mut self, a: Action) -> Result<Game, Box<(IllegalAction, Game)>> {
        match self.apply(a) {
            Ok(()) => Ok(self),
            Err(e) => Err(Box::new((e, self))),
        }
    }

    /// Apply an action known to be legal (from [`Game::legal_actions`]). An illegal action may panic or leave the game
    /// inconsistent, but never causes undefined behaviour.
    pub fn apply_unchecked(&mut self, a: Action) {
        self.events.clear();
        if matches!(a, Action::Place { .. } | Action::PlaceTriangle { .. }) {
            self.end.last_placer = self.active;
        }
        match a {
            Action::Draw(k) => self.draw(k),
            Action::Place { tile, space, .. } if self.step() == Step::Phase1 => self.place_abbey(tile, space),
            Action::Place { tile, space, rotation } => {
                let rotation = self.catalogue().canonical_rotation(tile, rotation);
                let cfg = Arc::clone(&self.config);
                self.completed.clear();
                self.board.place_unchecked(
                    &cfg.catalogue,
                    tile,
                    space,
                    Placement::Square(rotation),
                    &mut self.completed,
                );
                self.placed = Some((self.board.tiles().len() - 1) as u8);
                self.steps.pop();
                self.after_placement();
            }
            Action::PlaceTriangle { tile, space, corner } => self.place_triangle(tile, space, corner),
            Action::Pick(k) => self.pick(k),
            Action::Portal { meeple, segment } => {
                self.deploy(self.active, meeple, segment);
                self.steps.pop();
            }
            Action::MoveFairy(r) => {
                self.move_fairy(r);
                self.steps.pop();
            }
            Action::MoveFairyTo(space) => {
                self.move_fairy_to(space);
                self.steps.pop();
            }
            Action::RemoveKnight(r) => {
                self.remove_knight(r);
                // PRINCESS-03: no phase-2 action at all.
                self.steps.pop();
                if self.step() == Step::Phase2 {
                    self.steps.pop();
                }
            }
            Action::MoveDragon(side) => self.move_dragon(side),
            Action::ChooseCrop(c) => self.choose_crop(None, Some(c)),
            Action::ChooseCropRole(role, c) => self.choose_crop(Some(role), c),
            Action::CropAdd { .. } | Action::CropRemove(_) => self.crop_answer(a),
            Action::Deploy { meeple, segment } => {
                let t = self.placed.expect("phase 2 follows a placement") as usize;
                let seg = self.board.segment_of(t, segment);
                self.deploy(self.active, meeple, seg);
                self.steps.pop();
            }
            Action::PlaceBarn { corner } => {
                self.place_barn(corner);
                self.steps.pop();
            }
            Action::MoveWagon { segment } => {
                let w = self.wagon.pending.remove(0);
                self.deploy(w.player, MeepleKind::Wagon, segment);
                if self.wagon.pending.is_empty() {
                    self.steps.pop();
                }
            }
            Action::Pass => match self.step() {
                Step::Phase1 => {
                    // Draw instead; with an empty stack, the turn passes (END-02).
                    let next = if self.stack.is_empty() { Step::EndTurn } else { Step::Draw };
                    *self.steps.last_mut().expect("phase 1 step") = next;
                }
                Step::Wagon => {
                    self.wagon.pending.remove(0);
                    if self.wagon.pending.is_empty() {
                        self.steps.pop();
                    }
                }
                Step::CropAnswer(_) => self.next_crop_answer(),
                _ => {
                    self.steps.pop();
                }
            },
        }
        self.advance();
    }

    /// Phase-1 effects of the tile just placed (volcano, TURN-02), then the rest of the turn, last step first
    /// (TURN-02..08): the princess's removal, phase 2, the dragon (before or after scoring, VAR-06), scoring (and
    /// wagons), the crop circle, end.
    fn after_placement(&mut self) {
        let t = self.placed.expect("a tile was just placed") as usize;
        let pt = *self.board.tile(t);
        let m = self.config.rules.modules;
        let cfg = Arc::clone(&self.config);
        let def = cfg.catalogue.def(pt.kind);
        if m.dragon && def.has_symbol(Symbol::Volcano) {
            self.volcano_placed(pt.space);
        }
        if m.halflings && def.has_symbol(Symbol::Hill) {
            self.hill_placed();
        }
        let dragon_moves = m.dragon && self.dragon.space.is_some() && def.has_symbol(Symbol::Dragon);
        let after = cfg.rules.dragon_move_timing == crate::rules::DragonMoveTiming::AfterScoring;
        self.steps.push(Step::EndTurn);
        if self.crop_circle().is_some() {
            self.steps.push(Step::CropChoice);
        }
        if dragon_moves && after {
            self.steps.push(Step::Dragon(1));
        }
        self.steps.push(Step::Score);
        if dragon_moves && !after {
            self.steps.push(Step::Dragon(1));
        }
        self.steps.push(Step::Phase2);
        if self.princess_has_knights() {
            self.steps.push(Step::Princess);
        }
    }

    fn draw(&mut self, k: TileKind) {
        let i = self.stack.iter().rposition(|&x| x == k).expect("checked: the tile is in the stack");
        self.stack.remove(i);
        if self.early_dragon_tile(k) {
            return;
        }
        if self.board.has_square_placement(self.catalogue(), k) {
            *self.steps.last_mut().expect("draw step") = Step::PlaceTile(k);
        } else {
            // BASE-05: the tile leaves the game; the same player draws again, unless the stack is empty.
            self.discarded += 1;
            self.events.push(Event::Discarded { player: self.active, tile: k });
            if self.stack.is_empty() {
                *self.steps.last_mut().expect("draw step") = Step::EndTurn;
            }
        }
    }

    fn deploy(&mut self, player: Player, kind: MeepleKind, seg: SegmentId) {
        self.supply[player.index()][kind.index()] -= 1;
        self.board.add_meeples(seg, 1);
        self.meeples.push(PlacedMeeple { player, kind, segment: seg, fairy: false });
    }

    /// The index of a meeple matching `r`, if one stands there.
    fn find_meeple(&self, r: MeepleRef) -> Option<usize> {
        self.meeples.iter().position(|m| m.reference() == r)
    }

    /// Send the meeple at index `i` home without scoring it; the fairy stays where it is (FAIRY-07).
    fn send_home(&mut self, i: usize, cause: ReturnCause) {
        let m = self.meeples.remove(i);
        self.supply[m.player.index()][m.kind.index()] += 1;
        self.board.add_meeples(m.segment, -1);
        self.events.push(Event::MeepleReturned { meeple: m, cause });
    }

    /// The space of the tile a segment belongs to.
    fn space_of(&self, seg: SegmentId) -> Space {
        self.board.tile(self.board.segment_tile(seg).0).space
    }

    /// Whether a segment lies on the dragon's space (DRAGON-05).
    fn on_dragon(&self, seg: SegmentId) -> bool {
        self.dragon.space.is_some_and(|d| self.space_of(seg) == d)
    }

    /// A number in `0..n` from the game's own generator (for in-game shuffles, so replays stay exact).
    fn random_below(&mut self, n: usize) -> usize {
        // SplitMix64.
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        ((z as u128 * n as u128) >> 64) as usize
    }

    /// Return every meeple on the feature of `root` to its owner. Returns how many.
    fn return_meeples(&mut self, root: SegmentId) -> u8 {
        let mut n = 0;
        let mut i = 0;
        while i < self.meeples.len() {
            let m = self.meeples[i];
            if self.board.root(m.segment) == root {
                self.supply[m.player.index()][m.kind.index()] += 1;
                self.board.add_meeples(m.segment, -1);
                self.meeples.remove(i);
                n += 1;
                if m.kind == MeepleKind::Wagon {
                    self.wagon_returned(m, root);
                }
            } else {
                i += 1;
            }
        }
        n
    }

    /// Run automatic steps until a decision is pending.
    fn advance(&mut self) {
        loop {
            match self.step() {
                Step::Score => {
                    self.steps.pop();
                    self.score_completed();
                    self.score_barn_fields();
                    if !self.wagon.pending.is_empty() {
                        self.order_wagons();
                        self.steps.push(Step::Wagon);
                    }
                }
                Step::EndTurn => {
                    self.steps.pop();
                    self.end_turn();
                }
                Step::Wagon => {
                    // WAGON-08: a wagon with nowhere to go simply stays in the supply; its owner is not asked.
                    if self.wagon.pending.is_empty() || self.first_wagon_can_move() {
                        if self.wagon.pending.is_empty() {
                            self.steps.pop();
                            continue;
                        }
                        return;
                    }
                    self.wagon.pending.remove(0);
                }
                Step::Dragon(_) => {
                    // DRAGON-07: a dead end ends the movement early.
                    if self.dragon.path.is_empty() {
                        self.dragon.path.push(self.dragon.space.expect("the dragon moves only once in play"));
                    }
                    if self.dragon_can_step() {
                        return;
                    }
                    self.steps.pop();
                    self.dragon.path.clear();
                }
                Step::CropAnswer(_) => {
                    if self.crop_answer_possible() {
                        return;
                    }
                    self.next_crop_answer();
                }
                Step::Phase1
                | Step::Draft(_)
                | Step::Draw
                | Step::PlaceTile(_)
                | Step::Phase2
                | Step::Princess
                | Step::CropChoice
                | Step::GameOver => {
                    return;
                }
            }
        }
    }

    /// The next player clockwise.
    fn next_player(&self, p: Player) -> Player {
        Player(((p.0 as usize + 1) % self.players()) as u8)
    }

    /// TURN-01/02: begin the active player's turn (a phase-1 choice if they hold a placeable abbey or triangle,
    /// else the draw).
    fn start_turn(&mut self) {
        self.fairy_turn_point();
        let choice = self.can_place_abbey(self.active) || self.can_place_triangle(self.active);
        let next = match (choice, self.stack.is_empty()) {
            (true, _) => Step::Phase1,
            (false, false) => Step::Draw,
            (false, true) => Step::EndTurn,
        };
        self.steps.push(next);
    }

    /// TURN-08 and END-01/02: the next turn, or the end of the game.
    fn end_turn(&mut self) {
        let placed = self.placed.take().is_some();
        self.completed.clear();
        self.barn.this_turn = None;
        if !self.stack.is_empty() {
            self.active = self.next_player(self.active);
            self.turn += 1;
            self.start_turn();
            return;
        }
        if self.continue_after_stack(placed) {
            return;
        }
        // END-03: final scoring.
        self.events.push(Event::GameEnded);
        self.final_scoring();
        self.steps.clear();
        self.steps.push(Step::GameOver);
    }

    /// The players who would score the feature of segment `s` if it were scored now: the highest strength among the
    /// figures on it (BASE-10, MAYOR-04, with the hill's tie-break, HALF-18); empty when it holds no figure.
    pub fn holders(&self, s: SegmentId) -> Players {
        self.majority(self.board.root(s))
    }

    /// Where a segment is, for people: its space, its tile's id and its notation name (`road@E`).
    pub fn describe_segment(&self, seg: SegmentId) -> (Space, String, String) {
        let (t, local) = self.board.segment_tile(seg);
        let pt = self.board.tile(t);
        let c = self.catalogue();
        (pt.space, c.def(pt.kind).id.clone(), c.segment_name(pt.kind, pt.placement.rotation(), local))
    }

    /// Check the state's internal bookkeeping against a recomputation (feature graph, meeple counts, supplies).
    /// For tests; slow.
    ///
    /// # Errors
    /// A description of the first inconsistency.
    pub fn audit(&self) -> Result<(), String> {
        self.board.audit(self.catalogue())?;
        for r in self.board.roots() {
            let here = self.meeples.iter().filter(|m| self.board.root(m.segment) == r).count();
            if here != self.board.meeples_on(r) as usize {
                return Err(format!("feature {} counts {} meeples but has {here}", r.0, self.board.meeples_on(r)));
            }
        }
        let m = self.config.rules.modules;
        let start = [MEEPLES_PER_PLAYER, m.mayor as u8, m.wagon as u8];
        for p in 0..self.players() {
            for k in MeepleKind::ALL {
                let on = self.meeples.iter().filter(|x| x.player.index() == p && x.kind == k).count();
                let have = self.supply[p][k.index()] as usize;
                if on + have != start[k.index()] as usize {
                    return Err(format!("P{}: {have} {} in supply and {on} on the board", p + 1, k.name()));
                }
            }
            let barns = self.barn.placed.iter().filter(|b| b.player.index() == p).count();
            if barns + self.barn.left[p] as usize != m.barn as usize {
                return Err(format!("P{}: barns do not add up", p + 1));
            }
        }
        for r in self.board.roots() {
            let here = self.barn.placed.iter().filter(|b| self.board.root(b.segment) == r).count();
            if here != self.board.barns_on(r) as usize {
                return Err(format!("field {} counts {} barns but has {here}", r.0, self.board.barns_on(r)));
            }
        }
        let with_fairy: Vec<&PlacedMeeple> = self.meeples.iter().filter(|m| m.fairy).collect();
        if with_fairy.len() > 1 {
            return Err("the fairy is attached to more than one meeple".into());
        }
        if let Some(m) = with_fairy.first()
            && Some(self.space_of(m.segment)) != self.fairy.space
        {
            return Err("the fairy's meeple is not on the fairy's space".into());
        }
        // Under VAR-12 `false` the dragon may stop on the fairy's space without eating, and the meeples there may
        // stay after the fairy has left; otherwise nothing ever stands on the dragon's space (DRAGON-05).
        let shares = self.config.rules.fairy_blocks_dragon == crate::rules::FairyBlocksDragon::No;
        if let Some(d) = self.dragon.space
            && !shares
            && self.meeples.iter().any(|m| self.space_of(m.segment) == d)
        {
            return Err(format!("a meeple stands on the dragon's space {d}"));
        }
        for x in &self.meeples {
            if !x.kind.may_stand_on(self.board.kind(x.segment)) {
                return Err(format!("a {} stands on a {}", x.kind.name(), self.board.kind(x.segment).name()));
            }
        }
        Ok(())
    }

    /// A rough size of the state in bytes: the struct plus the room its vectors hold.
    pub fn state_bytes(&self) -> usize {
        self.bytes(false)
    }

    /// The part of [`Game::state_bytes`] in use: the struct plus its vectors' elements, not their spare room (what a
    /// step reads and writes, so what has to fit in the caches).
    pub fn state_bytes_in_use(&self) -> usize {
        self.bytes(true)
    }

    fn bytes(&self, in_use: bool) -> usize {
        use crate::board::vec_bytes as v;
        std::mem::size_of::<Game>()
            + self.board.heap_bytes(in_use)
            + v(&self.stack, in_use)
            + v(&self.meeples, in_use)
            + v(&self.steps, in_use)
            + v(&self.completed, in_use)
            + v(&self.events, in_use)
            + v(&self.barn.placed, in_use)
            + v(&self.wagon.pending, in_use)
            + v(&self.dragon.path, in_use)
            + v(&self.dragon.set_aside, in_use)
    }
}

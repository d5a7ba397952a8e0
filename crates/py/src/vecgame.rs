//! `carcassonne._core.VecGame`: many games stepped together in Rust, the GIL released, numpy arrays in and out.

use std::sync::{Arc, Mutex};

use carcassonne::game::MAX_PLAYERS;
use carcassonne::{Action, Actor, DecisionKind, Game, GameConfig, Player, Setup};
use carcassonne_ai::{Bot, BotSpec};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use crate::IllegalActionError;
use crate::game::{PyGame, current_player, setup_from_json};
use crate::obs::{self, Shape};
use crate::space::{ActionSpace, Figures, Legal};
use crate::spatial::Spatial;

/// An observation batch: the board planes and the features.
type Planes<'py> = (Bound<'py, numpy::PyArray4<f32>>, Bound<'py, PyArray2<f32>>);
/// An observation batch with the board planes as `uint8`.
type PlanesU8<'py> = (Bound<'py, numpy::PyArray4<u8>>, Bound<'py, PyArray2<f32>>);

/// One game of the batch.
///
/// A placement's legal actions are listed only when something needs them (a mask, the ids, an id that was not
/// sampled here): [`VecGame::random_actions`] samples a placement the way the engine's own random playout does, so a
/// batch of random or mostly random play does not pay for listing every placement. Every other decision is listed as
/// soon as it comes up.
#[derive(Debug)]
struct Slot {
    game: Game,
    /// The seed the game started from, and every action since (draws and bots' moves included), for its record.
    seed: u64,
    history: Vec<Action>,
    /// The legal actions with their ids, once `listed`.
    legal: Legal,
    listed: bool,
    /// The placement that `random_actions` sampled for this decision, with its id.
    sampled: Option<(u32, Action)>,
    /// An action could not be given an id (beyond the configuration's bounds, which should not happen) or a bot could
    /// not move: the game ends as truncated.
    overflow: bool,
    /// The built-in players of the seats Python does not play, by seat.
    bots: Vec<Option<SeatBot>>,
    /// The scores as last reported in the rewards (zero when the game starts).
    reported: [i32; MAX_PLAYERS],
    /// A new game, not settled yet.
    fresh: bool,
    /// What the last step did.
    outcome: Outcome,
    /// Ended by a step that did not start it again (`step(autoreset=False)`): waits for `restart_ended`.
    ended: bool,
    /// Counts the games started here, so that the live observations know a new game from the old one.
    serial: u64,
}

/// A built-in player at one seat of one game (behind a mutex only so that the slots can be shared between threads for
/// reading; it is only used through `&mut`, without locking).
struct SeatBot(Mutex<Box<dyn Bot>>);

impl std::fmt::Debug for SeatBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.lock() {
            Ok(b) => write!(f, "SeatBot({})", b.name()),
            Err(_) => f.write_str("SeatBot(failed)"),
        }
    }
}

impl Slot {
    fn new((game, seed): (Game, u64), bots: Vec<Option<SeatBot>>) -> Slot {
        Slot {
            game,
            seed,
            history: Vec::new(),
            legal: Legal::default(),
            listed: false,
            sampled: None,
            overflow: false,
            bots,
            reported: [0; MAX_PLAYERS],
            fresh: true,
            outcome: Outcome::default(),
            ended: false,
            serial: 0,
        }
    }

    /// Take the chance steps (the game's own shuffled stack) and the built-in players' decisions up to the next
    /// decision of a seat Python plays, or the end; list the legal actions unless the decision is a placement.
    fn settle(&mut self, space: &ActionSpace) {
        self.fresh = false;
        self.overflow = false;
        loop {
            match self.game.decision().actor {
                Actor::Chance => match self.game.next_draw() {
                    Some(k) => self.apply(Action::Draw(k)),
                    None => break,
                },
                Actor::Player(p) => {
                    let Some(Some(bot)) = self.bots.get_mut(p.index()) else { break };
                    let choice = match bot.0.get_mut() {
                        Ok(bot) => bot.choose(&self.game, p).ok(),
                        Err(_) => None,
                    };
                    match choice {
                        Some(a) => self.apply(a),
                        None => {
                            // Ended as truncated by the next step; nothing of the last decision is kept.
                            self.overflow = true;
                            self.listed = true;
                            self.legal.clear();
                            self.sampled = None;
                            return;
                        }
                    }
                }
                Actor::Nobody => break,
            }
        }
        self.legal.frontier.update(&self.game);
        self.listed = false;
        self.sampled = None;
        if !matches!(self.game.decision().kind, DecisionKind::PlaceTile { .. }) {
            self.list(space);
        }
    }

    /// List the legal actions with their ids, if not done yet.
    fn list(&mut self, space: &ActionSpace) {
        if !self.listed {
            self.overflow |= self.legal.fill(space, &self.game).is_err();
            self.listed = true;
        }
    }

    /// A uniformly random legal id (-1 if there is none). A tile placement is always sampled the engine's way
    /// (without listing), whether or not it has been listed, so the ids drawn from a seed do not depend on what was
    /// asked before; every other decision is picked from its list.
    fn random_id(&mut self, space: &ActionSpace, rng: &mut impl Rng) -> i64 {
        if matches!(self.game.decision().kind, DecisionKind::PlaceTile { .. }) && !self.overflow {
            let frontier = &self.legal.frontier;
            let sampled = self.game.random_action(rng, &mut Vec::new()).and_then(|a| {
                let id = space.encode(&self.game, frontier, &Figures::default(), a).ok()?;
                Some((id as u32, a))
            });
            if let Some((id, _)) = sampled {
                self.sampled = sampled;
                return i64::from(id);
            }
            self.list(space);
        }
        match self.legal.ids.len() {
            0 => -1,
            n => i64::from(self.legal.ids[rng.random_range(0..n)]),
        }
    }

    /// The legal action with this id.
    fn find(&mut self, space: &ActionSpace, id: i64) -> Option<Action> {
        if let Some((sid, a)) = self.sampled
            && i64::from(sid) == id
        {
            return Some(a);
        }
        self.list(space);
        usize::try_from(id).ok().and_then(|id| self.legal.find(id))
    }

    /// Apply a legal action, keeping it for the record.
    fn apply(&mut self, a: Action) {
        self.game.apply_unchecked(a);
        self.history.push(a);
    }

    /// Start a new game here (settled later).
    fn restart(&mut self, (game, seed): (Game, u64)) {
        self.game = game;
        self.seed = seed;
        self.history.clear();
        // The open spaces are followed tile by tile: a new game is followed from scratch (its board may have as many
        // tiles as the old one's, when a bot moves first in both).
        self.legal = Legal::default();
        self.listed = false;
        self.sampled = None;
        self.reported = [0; MAX_PLAYERS];
        self.fresh = true;
        self.ended = false;
        self.serial = self.serial.wrapping_add(1);
    }
}

/// What a VecGame is, for pickling: the next seed, the games finished, and each game's seed, actions (record
/// notation) and scores last reported.
type State = (u64, u64, Vec<(u64, Vec<String>, Vec<i32>)>);

/// What one step did to one game.
#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    rewards: [f32; carcassonne::game::MAX_PLAYERS],
    /// Over by the rules.
    terminated: bool,
    /// Cut short (an action beyond the action space's bounds, or a bot that could not move); never together with
    /// `terminated`, as in Gymnasium.
    truncated: bool,
    final_scores: [i32; carcassonne::game::MAX_PLAYERS],
}

/// `n` games of one configuration, stepped together.
#[pyclass(module = "carcassonne._core", name = "VecGame")]
#[derive(Debug)]
pub(crate) struct VecGame {
    /// The setup every game starts from (each with its own seed).
    setup: Setup,
    config: Arc<GameConfig>,
    space: Arc<ActionSpace>,
    slots: Vec<Slot>,
    next_seed: u64,
    pool: Option<Arc<rayon::ThreadPool>>,
    episodes: u64,
    /// The built-in player of each seat, if any (the other seats are Python's).
    bot_specs: Vec<Option<BotSpec>>,
    /// The arrays of `live_observations`, once asked for.
    live: Option<Live>,
}

/// The arrays `live_observations` keeps up to date, and what each game's planes hold.
#[derive(Debug)]
struct Live {
    board: LiveBoard,
    features: Py<PyArray2<f32>>,
    drawn: Vec<obs::Drawn>,
}

/// The live board planes, of either cell type.
#[derive(Debug)]
enum LiveBoard {
    F32(Py<numpy::PyArray4<f32>>),
    U8(Py<numpy::PyArray4<u8>>),
}

impl VecGame {
    /// A new game from the next seed, with that seed.
    fn fresh(&mut self) -> (Game, u64) {
        let seed = self.next_seed;
        self.next_seed = self.next_seed.wrapping_add(1);
        (Game::from_config(Arc::clone(&self.config), seed), seed)
    }

    fn slot(&self, i: i64) -> PyResult<&Slot> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.slots.get(i))
            .ok_or_else(|| PyIndexError::new_err(format!("no game {i} in a VecGame of {}", self.slots.len())))
    }

    /// List every game's legal actions (those not listed yet), the GIL released.
    fn list_all(&mut self, py: Python<'_>) {
        if self.slots.iter().all(|s| s.listed) {
            return;
        }
        let space = Arc::clone(&self.space);
        py.detach(|| self.each(|_, s| s.list(&space)));
    }

    /// Run `f` over every slot, on the pool when there is one.
    fn each<F>(&mut self, f: F)
    where
        F: Fn(usize, &mut Slot) + Sync + Send,
    {
        match &self.pool {
            Some(pool) => {
                let slots = &mut self.slots;
                pool.install(|| slots.par_iter_mut().enumerate().for_each(|(i, s)| f(i, s)));
            }
            None => self.slots.iter_mut().enumerate().for_each(|(i, s)| f(i, s)),
        }
    }
}

/// The seat whose view an observation takes in game `s`: `seat`, or else the player to act (seat 0 when nobody is).
fn viewer(seat: Option<Player>, s: &Slot) -> Player {
    match (seat, s.game.decision().actor) {
        (Some(p), _) | (None, Actor::Player(p)) => p,
        _ => Player(0),
    }
}

/// Let Python write into `array` or not (numpy's `writeable` flag).
fn set_writeable(array: &Bound<'_, PyAny>, write: bool) -> PyResult<()> {
    let kwargs = pyo3::types::PyDict::new(array.py());
    kwargs.set_item("write", write)?;
    array.call_method("setflags", (), Some(&kwargs))?;
    Ok(())
}

impl VecGame {
    /// `seat` checked against the players.
    fn seat(&self, seat: Option<i64>) -> PyResult<Option<Player>> {
        match seat {
            Some(p) if p < 0 || p as usize >= self.players() => {
                Err(PyIndexError::new_err(format!("no seat {p} in a {}-player game", self.players())))
            }
            Some(p) => Ok(Some(Player(p as u8))),
            None => Ok(None),
        }
    }

    /// Bring the live arrays, with board cells `T`, up to date (see `live_observations`).
    #[allow(clippy::type_complexity)]
    fn live_into<T: obs::Cell + numpy::Element>(
        &mut self,
        py: Python<'_>,
        board: &Bound<'_, numpy::PyArray4<T>>,
        features: &Bound<'_, PyArray2<f32>>,
        drawn: &mut [obs::Drawn],
        seat: Option<Player>,
    ) -> PyResult<()> {
        // Python only reads these arrays: what they hold is what the next call builds on.
        set_writeable(board.as_any(), true)?;
        set_writeable(features.as_any(), true)?;
        let wrote = (|| {
            let mut bw = board.try_readwrite().map_err(|e| PyValueError::new_err(format!("live planes: {e}")))?;
            let mut fw = features.try_readwrite().map_err(|e| PyValueError::new_err(format!("live features: {e}")))?;
            let bs = bw.as_slice_mut().map_err(|e| PyValueError::new_err(format!("live planes: {e}")))?;
            let fs = fw.as_slice_mut().map_err(|e| PyValueError::new_err(format!("live features: {e}")))?;
            let shape = Shape::of(&self.space);
            let (bl, fl) = (shape.board_len(), shape.features);
            let space = Arc::clone(&self.space);
            let slots = &self.slots;
            let pool = self.pool.clone();
            py.detach(|| {
                let work = |(((s, d), b), f): (((&Slot, &mut obs::Drawn), &mut [T]), &mut [f32])| {
                    obs::observe_since(&s.game, s.serial, viewer(seat, s), &space, b, f, d);
                };
                match pool {
                    Some(pool) => pool.install(|| {
                        (slots.par_iter().zip(drawn.par_iter_mut()))
                            .zip(bs.par_chunks_mut(bl))
                            .zip(fs.par_chunks_mut(fl))
                            .for_each(work)
                    }),
                    None => (slots.iter().zip(drawn.iter_mut()))
                        .zip(bs.chunks_mut(bl))
                        .zip(fs.chunks_mut(fl))
                        .for_each(work),
                }
            });
            Ok(())
        })();
        set_writeable(board.as_any(), false)?;
        set_writeable(features.as_any(), false)?;
        wrote
    }

    /// Every game's observation into arrays of board cells `T` (see `observations`).
    #[allow(clippy::type_complexity)]
    fn observe_into<'py, T: obs::Cell + numpy::Element>(
        &mut self,
        py: Python<'py>,
        out: Option<(Bound<'py, numpy::PyArray4<T>>, Bound<'py, PyArray2<f32>>)>,
        seat: Option<i64>,
    ) -> crate::Pair<'py, numpy::PyArray4<T>, PyArray2<f32>> {
        let seat = self.seat(seat)?;
        let shape = Shape::of(&self.space);
        let n = self.slots.len();
        let (bl, fl) = (shape.board_len(), shape.features);
        let board_dims = [n, shape.planes, shape.width, shape.width];
        let (board, features) = match out {
            Some((b, f)) => {
                check_out("out[0]", b.shape(), &board_dims)?;
                check_out("out[1]", f.shape(), &[n, fl])?;
                (b, f)
            }
            None => (numpy::PyArray4::zeros(py, board_dims, false), PyArray2::zeros(py, [n, fl], false)),
        };
        {
            let mut bw = board.try_readwrite().map_err(|e| PyValueError::new_err(format!("out[0]: {e}")))?;
            let mut fw = features.try_readwrite().map_err(|e| PyValueError::new_err(format!("out[1]: {e}")))?;
            let bs = bw.as_slice_mut().map_err(|e| PyValueError::new_err(format!("out[0]: {e}")))?;
            let fs = fw.as_slice_mut().map_err(|e| PyValueError::new_err(format!("out[1]: {e}")))?;
            let space = Arc::clone(&self.space);
            let slots = &self.slots;
            let pool = self.pool.clone();
            py.detach(|| {
                let work = |((s, b), f): ((&Slot, &mut [T]), &mut [f32])| {
                    obs::observe(&s.game, viewer(seat, s), &space, b, f);
                };
                match pool {
                    Some(pool) => pool.install(|| {
                        slots.par_iter().zip(bs.par_chunks_mut(bl)).zip(fs.par_chunks_mut(fl)).for_each(work)
                    }),
                    None => slots.iter().zip(bs.chunks_mut(bl)).zip(fs.chunks_mut(fl)).for_each(work),
                }
            });
        }
        Ok((board, features))
    }
}

#[pymethods]
impl VecGame {
    /// `n` games of the setup in JSON; game `i` starts from seed `seed + i`, and each reset takes the next seed.
    /// `bots` gives a built-in player's spec for each seat that Python does not play (`None` for Python's seats).
    #[new]
    #[pyo3(signature = (n, setup_json, window = 32, seed = 0, threads = 1, bots = None))]
    fn new(
        py: Python<'_>,
        n: usize,
        setup_json: &str,
        window: i16,
        seed: u64,
        threads: usize,
        bots: Option<Vec<Option<String>>>,
    ) -> PyResult<VecGame> {
        if n == 0 {
            return Err(PyValueError::new_err("a VecGame needs at least one game"));
        }
        crate::space::check_width(window).map_err(PyValueError::new_err)?;
        let setup = setup_from_json(setup_json)?;
        let config = setup.prepare().map_err(|e| PyValueError::new_err(format!("invalid setup: {e}")))?;
        let first = Game::from_config(Arc::clone(&config), seed);
        let space = Arc::new(ActionSpace::new(&first, window));
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
            Some(Arc::new(pool))
        } else {
            None
        };
        let bot_specs = bot_specs(bots, config.players as usize)?;
        let mut v = VecGame {
            setup,
            config,
            space,
            slots: Vec::with_capacity(n),
            next_seed: seed,
            pool,
            episodes: 0,
            bot_specs,
            live: None,
        };
        for i in 0..n {
            let game = v.fresh();
            // Each seat's bot in each game has a seed of its own, whatever the threads (bots with a time cap still
            // depend on the machine's speed).
            let bots = (v.bot_specs.iter().enumerate())
                .map(|(p, b)| {
                    let own = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add((i * MAX_PLAYERS + p) as u64);
                    b.as_ref().map(|b| SeatBot(Mutex::new(b.build(own))))
                })
                .collect();
            v.slots.push(Slot::new(game, bots));
        }
        let space = Arc::clone(&v.space);
        py.detach(|| v.each(|_, s| s.settle(&space)));
        Ok(v)
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// Number of players.
    #[getter]
    fn players(&self) -> usize {
        self.config.players as usize
    }

    /// Each seat's built-in player (`None` for the seats Python plays).
    #[getter]
    fn bots(&self) -> Vec<Option<String>> {
        self.bot_specs.iter().map(|b| b.as_ref().map(ToString::to_string)).collect()
    }

    /// Games finished since the start (each is replaced by a new one).
    #[getter]
    fn episodes(&self) -> u64 {
        self.episodes
    }

    /// Size of the action space.
    fn action_space_size(&self) -> usize {
        self.space.size()
    }

    /// The action space's blocks: `(name, first id, size)`.
    fn action_blocks(&self) -> Vec<(&'static str, usize, usize)> {
        self.space.blocks()
    }

    /// What an id stands for, without a position: its block and numbers.
    fn describe_id(&self, id: usize) -> PyResult<(&'static str, Vec<(&'static str, i64)>)> {
        crate::game::describe_id(&self.space, id)
    }

    /// The planes' names, in order.
    fn plane_names(&self) -> Vec<String> {
        Shape::of(&self.space).plane_names()
    }

    /// The feature vector's blocks: `(name, length)`, in order.
    fn feature_blocks(&self) -> Vec<(String, usize)> {
        Shape::of(&self.space).feature_blocks()
    }

    /// Each game's observation window, `[n, 3]`: `x0, y0, width` (its south-west space and its width).
    fn windows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let w: Vec<i32> = (self.slots.iter())
            .flat_map(|s| {
                let w = crate::space::Window::of(&s.game, self.space.width);
                [i32::from(w.x0), i32::from(w.y0), i32::from(w.width)]
            })
            .collect();
        PyArray1::from_vec(py, w).reshape([self.slots.len(), 3])
    }

    /// Where each game's open spaces lie in its observation window, `[n, S]` (S: the open-space slots of the
    /// `place` block): the window cell (`row * width + column`, row `y - y0`, column `x - x0`) of slot k's space, or
    /// -1 for a slot with no space at this decision or a space outside the window. Written into `out` when given.
    /// A spatial policy gathers its per-cell outputs through it into the `place` ids (`4·k + rotation`).
    #[pyo3(signature = (out = None))]
    fn open_cells<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray2<i64>>>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let (n, slots) = (self.slots.len(), self.space.open);
        let cells = match out {
            Some(a) => {
                check_out("out", a.shape(), &[n, slots])?;
                a
            }
            None => PyArray2::zeros(py, [n, slots], false),
        };
        {
            let mut w = cells.try_readwrite().map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
            let all = w.as_slice_mut().map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
            let width = self.space.width;
            for (s, row) in self.slots.iter_mut().zip(all.chunks_mut(slots)) {
                s.legal.frontier.update(&s.game);
                let window = crate::space::Window::of(&s.game, width);
                row.fill(-1);
                for (cell, space) in row.iter_mut().zip(s.legal.frontier.spaces()) {
                    if let Some(i) = window.index(*space) {
                        *cell = i as i64;
                    }
                }
            }
        }
        Ok(cells)
    }

    /// The spatial action map's shape: `(channels, W, W)`.
    fn spatial_shape(&self) -> (usize, usize, usize) {
        let w = self.space.width as usize;
        let start = self.slots.first().map(|s| &s.game);
        (start.map(|g| Spatial::of(&self.space, g).channels()).unwrap_or(0), w, w)
    }

    /// The channels of the spatial action map (`spatial_ids`), in order.
    fn spatial_channels(&self) -> Vec<String> {
        let start = self.slots.first().map(|s| &s.game);
        start.map(|g| Spatial::of(&self.space, g).channel_names()).unwrap_or_default()
    }

    /// Where ids lie on the spatial action map, `[n, m]` for ids `[n, m]` (row i: ids of game i, -1 for padding,
    /// as `legal_ids()` gives): `channel · W² + cell` over a map `[channels, W, W]` laid over the observation
    /// window, or -1 for an id of a block with no place on the board (pass, pick, barn, figure, dragon, crop
    /// circles), padding, or a space outside the window. Written into `out` when given.
    #[pyo3(signature = (ids, out = None))]
    fn spatial_ids<'py>(
        &mut self,
        py: Python<'py>,
        ids: PyReadonlyArray2<'py, i64>,
        out: Option<Bound<'py, PyArray2<i64>>>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let shape = ids.shape().to_vec();
        if shape[0] != self.slots.len() {
            return Err(PyValueError::new_err(format!("ids: {} rows for {} games", shape[0], self.slots.len())));
        }
        let m = shape[1];
        let ids = ids.as_array();
        let result = match out {
            Some(a) => {
                check_out("out", a.shape(), &shape)?;
                a
            }
            None => PyArray2::zeros(py, [shape[0], m], false),
        };
        {
            let mut w = result.try_readwrite().map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
            let all = w.as_slice_mut().map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
            let width = self.space.width;
            for (i, (s, row)) in self.slots.iter_mut().zip(all.chunks_mut(m.max(1))).enumerate() {
                s.legal.frontier.update(&s.game);
                let window = crate::space::Window::of(&s.game, width);
                let layout = Spatial::of(&self.space, &s.game);
                for (j, cell) in row.iter_mut().enumerate().take(m) {
                    *cell = layout.index(&self.space, &s.game, &s.legal.frontier, window, ids[[i, j]]);
                }
            }
        }
        Ok(result)
    }

    /// Game `i` as it stands, as a `Game` of its own (with its record: the seed it started from and every action
    /// since, the draws and the built-in players' moves included).
    fn game(&self, i: i64) -> PyResult<PyGame> {
        let s = self.slot(i)?;
        let mut setup = self.setup.clone();
        setup.seed = s.seed;
        PyGame::replayed(setup, self.space.width, &s.history)
    }

    /// The observation's shape: `(planes, width, width)` and the feature count.
    fn observation_shape(&self) -> ((usize, usize, usize), usize) {
        let s = Shape::of(&self.space);
        ((s.planes, s.width, s.width), s.features)
    }

    /// Start every game again, from new seeds.
    fn reset(&mut self, py: Python<'_>) {
        let games: Vec<(Game, u64)> = (0..self.slots.len()).map(|_| self.fresh()).collect();
        for (s, g) in self.slots.iter_mut().zip(games) {
            s.restart(g);
        }
        let space = Arc::clone(&self.space);
        py.detach(|| self.each(|_, s| s.settle(&space)));
    }

    /// The player to act in each game: always a seat Python plays (draws and the bots' decisions are taken inside).
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(py, self.slots.iter().map(|s| current_player(&s.game)).collect())
    }

    /// The scores, `[n, players]`.
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let p = self.players();
        let v: Vec<i32> = self.slots.iter().flat_map(|s| s.game.scores().iter().copied()).collect();
        PyArray1::from_vec(py, v).reshape([self.slots.len(), p])
    }

    /// The legal ids of each game, padded with -1: `(ids [n, longest], counts [n])`.
    fn legal_ids<'py>(&mut self, py: Python<'py>) -> crate::Pair<'py, PyArray2<i64>, PyArray1<i64>> {
        self.list_all(py);
        let width = self.slots.iter().map(|s| s.legal.ids.len()).max().unwrap_or(0).max(1);
        let mut ids = vec![-1i64; self.slots.len() * width];
        for (i, s) in self.slots.iter().enumerate() {
            for (j, id) in s.legal.ids.iter().enumerate() {
                ids[i * width + j] = i64::from(*id);
            }
        }
        let counts = self.slots.iter().map(|s| s.legal.ids.len() as i64).collect();
        Ok((PyArray1::from_vec(py, ids).reshape([self.slots.len(), width])?, PyArray1::from_vec(py, counts)))
    }

    /// The legal ids of all games in one array, game after game, with where each game's ids start: `(ids [total],
    /// offsets [n + 1])`; game `i`'s ids are `ids[offsets[i]:offsets[i + 1]]`. Cheaper than `legal_ids` when a few
    /// decisions have many legal actions (the portal, the triangles).
    fn legal_ids_flat<'py>(&mut self, py: Python<'py>) -> crate::Pair<'py, PyArray1<i64>, PyArray1<i64>> {
        self.list_all(py);
        let mut offsets = Vec::with_capacity(self.slots.len() + 1);
        let mut ids = Vec::with_capacity(self.slots.iter().map(|s| s.legal.ids.len()).sum());
        offsets.push(0i64);
        for s in &self.slots {
            ids.extend(s.legal.ids.iter().map(|id| i64::from(*id)));
            offsets.push(ids.len() as i64);
        }
        Ok((PyArray1::from_vec(py, ids), PyArray1::from_vec(py, offsets)))
    }

    /// One uniformly random legal id per game (-1 for none), from a generator seeded with `seed`: the same seed on
    /// the same games gives the same ids. A placement is sampled without listing every legal one, as the engine's
    /// own random playout does.
    fn random_actions<'py>(&mut self, py: Python<'py>, seed: u64) -> Bound<'py, PyArray1<i64>> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let space = Arc::clone(&self.space);
        let ids: Vec<i64> = self.slots.iter_mut().map(|s| s.random_id(&space, &mut rng)).collect();
        PyArray1::from_vec(py, ids)
    }

    /// The legality masks, `[n, action_space_size]`, written into `out` when given (a bool array of that shape).
    #[pyo3(signature = (out = None))]
    fn legal_mask<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray2<bool>>>,
    ) -> PyResult<Bound<'py, PyArray2<bool>>> {
        self.list_all(py);
        let size = self.space.size();
        let out = match out {
            Some(o) => {
                check_out("out", o.shape(), &[self.slots.len(), size])?;
                o
            }
            None => PyArray2::zeros(py, [self.slots.len(), size], false),
        };
        {
            let mut rw = out.try_readwrite().map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
            let mask = rw.as_slice_mut().map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
            let slots = &self.slots;
            py.detach(|| {
                mask.fill(false);
                for (i, s) in slots.iter().enumerate() {
                    for id in &s.legal.ids {
                        mask[i * size + *id as usize] = true;
                    }
                }
            });
        }
        Ok(out)
    }

    /// Each game's observation for its player to act (or for seat `seat` in every game): board planes `[n,
    /// planes, width, width]` and features `[n, features]`, written into `out` when given (a pair of float32 arrays
    /// of those shapes, reused from step to step so that no memory is allocated).
    #[pyo3(signature = (out = None, seat = None))]
    fn observations<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Planes<'py>>,
        seat: Option<i64>,
    ) -> crate::Pair<'py, numpy::PyArray4<f32>, PyArray2<f32>> {
        self.observe_into(py, out, seat)
    }

    /// [`VecGame::observations`] with the board planes as `uint8` (the `tile` plane counting halves: 2 for a square
    /// tile, 1 for a triangle); the features stay `float32`.
    #[pyo3(signature = (out = None, seat = None))]
    fn observations_u8<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<PlanesU8<'py>>,
        seat: Option<i64>,
    ) -> crate::Pair<'py, numpy::PyArray4<u8>, PyArray2<f32>> {
        self.observe_into(py, out, seat)
    }

    /// Each game's observation as [`VecGame::observations`] has it, in two arrays this VecGame keeps: the same
    /// arrays every call, brought up to date in place. Only what changed since the last call is written (the tiles
    /// placed since, the pieces, the features), so a call costs a fraction of writing every plane. The arrays are
    /// read-only to Python (they hold what the next call builds on): copy them to keep an observation. `uint8`
    /// chooses the planes' type as `observations_u8` has them (else `float32`); changing it starts new arrays.
    #[pyo3(signature = (uint8 = true, seat = None))]
    fn live_observations<'py>(
        &mut self,
        py: Python<'py>,
        uint8: bool,
        seat: Option<i64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray2<f32>>)> {
        let seat = self.seat(seat)?;
        let shape = Shape::of(&self.space);
        let n = self.slots.len();
        let dims = [n, shape.planes, shape.width, shape.width];
        let mut live = match self.live.take() {
            Some(l) if matches!(l.board, LiveBoard::U8(_)) == uint8 => l,
            _ => Live {
                board: if uint8 {
                    LiveBoard::U8(numpy::PyArray4::<u8>::zeros(py, dims, false).unbind())
                } else {
                    LiveBoard::F32(numpy::PyArray4::<f32>::zeros(py, dims, false).unbind())
                },
                features: PyArray2::zeros(py, [n, shape.features], false).unbind(),
                drawn: vec![obs::Drawn::default(); n],
            },
        };
        let features = live.features.bind(py).clone();
        let done = match &live.board {
            LiveBoard::U8(b) => self.live_into(py, b.bind(py), &features, &mut live.drawn, seat),
            LiveBoard::F32(b) => self.live_into(py, b.bind(py), &features, &mut live.drawn, seat),
        };
        let board = match &live.board {
            LiveBoard::U8(b) => b.bind(py).clone().into_any(),
            LiveBoard::F32(b) => b.bind(py).clone().into_any(),
        };
        // After a failure what the arrays hold is not known: the next call starts new ones.
        done?;
        self.live = Some(live);
        Ok((board, features))
    }

    /// Start again, each from the next seed, the games a `step(autoreset=False)` ended (those with `ended()`).
    fn restart_ended(&mut self, py: Python<'_>) {
        let space = Arc::clone(&self.space);
        let ended: Vec<usize> = (0..self.slots.len()).filter(|i| self.slots[*i].ended).collect();
        for i in &ended {
            let g = self.fresh();
            self.slots[*i].restart(g);
            self.episodes += 1;
        }
        if !ended.is_empty() {
            // The new games' first draws (and bots' moves, which the next step's rewards report).
            py.detach(|| {
                self.each(|_, s| {
                    if s.fresh {
                        s.settle(&space)
                    }
                })
            });
        }
    }

    /// `bool[n]`: the games a `step(autoreset=False)` ended, waiting for `restart_ended()`.
    fn ended<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        PyArray1::from_vec(py, self.slots.iter().map(|s| s.ended).collect())
    }

    /// What the games are, for pickling: `(next seed, games finished, [(seed, actions, scores reported)])`.
    fn state(&self) -> State {
        let slots = self.slots.iter().map(|s| {
            let mut g = Game::from_config(Arc::clone(&self.config), s.seed);
            let texts = s.history.iter().map(|a| {
                let t = g.action_text(*a);
                g.apply_unchecked(*a);
                t
            });
            (s.seed, texts.collect(), s.reported[..self.players()].to_vec())
        });
        (self.next_seed, self.episodes, slots.collect())
    }

    /// Put the games back as `state` has them (the built-in players start again from their seeds).
    fn set_state(&mut self, py: Python<'_>, state: State) -> PyResult<()> {
        let (next_seed, episodes, games) = state;
        if games.len() != self.slots.len() {
            return Err(PyValueError::new_err(format!("{} games for a VecGame of {}", games.len(), self.slots.len())));
        }
        let mut restored = Vec::with_capacity(games.len());
        for (i, (seed, actions, reported)) in games.into_iter().enumerate() {
            let mut game = Game::from_config(Arc::clone(&self.config), seed);
            let mut history = Vec::with_capacity(actions.len());
            for t in &actions {
                let a = game.parse_action(t).map_err(|e| PyValueError::new_err(format!("game {i}: `{t}`: {e}")))?;
                game.apply(a).map_err(|e| PyValueError::new_err(format!("game {i}: `{t}`: {e}")))?;
                history.push(a);
            }
            restored.push((game, seed, history, reported));
        }
        for (s, (game, seed, history, reported)) in self.slots.iter_mut().zip(restored) {
            s.restart((game, seed));
            s.history = history;
            for (p, r) in reported.iter().enumerate().take(MAX_PLAYERS) {
                s.reported[p] = *r;
            }
        }
        self.next_seed = next_seed;
        self.episodes = episodes;
        let space = Arc::clone(&self.space);
        py.detach(|| self.each(|_, s| s.settle(&space)));
        Ok(())
    }

    /// Apply one action id per game. Returns `(rewards [n, players], terminated [n], truncated [n], final_scores
    /// [n, players])`: rewards are each player's points gained; a game that ended, over by the rules (terminated)
    /// or cut short (truncated, never both: see `Slot::overflow`), gives its final scores and starts again
    /// from the next seed (with `autoreset=False`, it waits for `restart_ended`, so that its last position can be
    /// observed). Nothing is applied if any id is illegal.
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (actions, autoreset = true))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        autoreset: bool,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray2<i32>>,
    )> {
        let ids = actions.as_slice().map_err(|e| PyValueError::new_err(format!("actions: {e}")))?;
        let n = self.slots.len();
        if ids.len() != n {
            return Err(PyValueError::new_err(format!("{} actions for {n} games", ids.len())));
        }
        if let Some(i) = self.slots.iter().position(|s| s.ended) {
            return Err(PyValueError::new_err(format!("game {i} has ended: call restart_ended() before stepping")));
        }
        let space = Arc::clone(&self.space);
        let mut chosen = Vec::with_capacity(n);
        for (i, (s, id)) in self.slots.iter_mut().zip(ids).enumerate() {
            if s.overflow {
                // Cut short while settling (a bot could not move): ended below, whatever the id.
                chosen.push(None);
                continue;
            }
            match s.find(&space, *id) {
                Some(a) => chosen.push(Some(a)),
                None => {
                    return Err(IllegalActionError::new_err(format!("game {i}: action id {id} is not legal here")));
                }
            }
        }
        let players = self.players();
        py.detach(|| {
            let chosen = &chosen;
            self.each(|i, s| {
                if let Some(a) = chosen[i] {
                    s.apply(a);
                    s.settle(&space);
                }
                let after = s.game.scores();
                let done = s.game.is_over() || s.overflow;
                let o = &mut s.outcome;
                for (p, now) in after.iter().enumerate().take(players) {
                    o.rewards[p] = (now - s.reported[p]) as f32;
                    o.final_scores[p] = if done { *now } else { 0 };
                    s.reported[p] = *now;
                }
                o.terminated = s.game.is_over();
                o.truncated = done && !o.terminated;
            });
        });
        let outcomes: Vec<Outcome> = self.slots.iter().map(|s| s.outcome).collect();
        // Finished games start again.
        for (s, o) in self.slots.iter_mut().zip(&outcomes) {
            s.ended = o.terminated || o.truncated;
        }
        if autoreset {
            self.restart_ended(py);
        }
        let rewards: Vec<f32> = outcomes.iter().flat_map(|o| o.rewards[..players].iter().copied()).collect();
        let finals: Vec<i32> = outcomes.iter().flat_map(|o| o.final_scores[..players].iter().copied()).collect();
        Ok((
            PyArray1::from_vec(py, rewards).reshape([n, players])?,
            PyArray1::from_vec(py, outcomes.iter().map(|o| o.terminated).collect()),
            PyArray1::from_vec(py, outcomes.iter().map(|o| o.truncated).collect()),
            PyArray1::from_vec(py, finals).reshape([n, players])?,
        ))
    }
}

/// Refuse an output array of the wrong shape.
fn check_out(name: &str, shape: &[usize], want: &[usize]) -> PyResult<()> {
    if shape == want { Ok(()) } else { Err(PyValueError::new_err(format!("{name} has shape {shape:?}, not {want:?}"))) }
}

/// Read the `bots` argument: one entry per seat, at least one seat left to Python.
fn bot_specs(bots: Option<Vec<Option<String>>>, players: usize) -> PyResult<Vec<Option<BotSpec>>> {
    let Some(bots) = bots else { return Ok(vec![None; players]) };
    if bots.len() != players {
        return Err(PyValueError::new_err(format!(
            "bots needs one entry per seat: {} for {players} seats",
            bots.len()
        )));
    }
    let specs = bots
        .iter()
        .map(|b| match b {
            // One search thread a bot: the VecGame's own threads spread the games.
            Some(text) => text
                .parse::<BotSpec>()
                .map(|b| Some(b.with_threads(1)))
                .map_err(|e: carcassonne_ai::SpecError| PyValueError::new_err(e.to_string())),
            None => Ok(None),
        })
        .collect::<PyResult<Vec<_>>>()?;
    if specs.iter().all(Option::is_some) {
        return Err(PyValueError::new_err(
            "every seat has a bot: leave at least one seat to Python (or use carc arena)",
        ));
    }
    Ok(specs)
}

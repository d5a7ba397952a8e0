//! `carcassonne._core.Game`: one game, its record, its action ids and observations.

use std::sync::Arc;

use carcassonne::{Action, Actor, Game, Player, Record, Setup};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use rand::SeedableRng;

use crate::obs::{self, Shape};
use crate::space::{ActionSpace, Legal, Window};
use crate::{IllegalActionError, WindowError};

/// OpenSpiel's number for a chance node.
pub(crate) const CHANCE: i64 = -1;
/// OpenSpiel's number for a finished game.
pub(crate) const TERMINAL: i64 = -4;

/// Read a setup from JSON, switching on the modules of the sets in play unless a `modules.*` rule is given.
pub(crate) fn setup_from_json(text: &str) -> PyResult<Setup> {
    let raw: serde_json::Value =
        serde_json::from_str(text).map_err(|e| PyValueError::new_err(format!("setup is not JSON: {e}")))?;
    let explicit =
        raw.get("rules").and_then(|r| r.as_object()).is_some_and(|r| r.keys().any(|k| k.starts_with("modules.")));
    let mut setup: Setup = serde_json::from_value(raw).map_err(|e| PyValueError::new_err(format!("bad setup: {e}")))?;
    setup.switch_on_set_modules(explicit);
    Ok(setup)
}

/// What an id of `space` stands for, or an `IndexError` for an id outside it (`Game` and `VecGame` both answer).
pub(crate) fn describe_id(space: &ActionSpace, id: usize) -> PyResult<(&'static str, Vec<(&'static str, i64)>)> {
    space.describe(id).ok_or_else(|| PyIndexError::new_err(format!("id {id} is outside 0..{}", space.size())))
}

/// The player whose turn a decision is, in OpenSpiel's numbering.
pub(crate) fn current_player(game: &Game) -> i64 {
    match game.decision().actor {
        Actor::Chance => CHANCE,
        Actor::Player(p) => p.index() as i64,
        Actor::Nobody => TERMINAL,
    }
}

/// One game of Carcassonne.
#[pyclass(module = "carcassonne._core", name = "Game")]
#[derive(Clone, Debug)]
pub(crate) struct PyGame {
    pub(crate) game: Game,
    record: Record,
    pub(crate) space: Arc<ActionSpace>,
    legal: Legal,
    /// Why the legal actions have no ids (a number beyond the action space's bounds), if so.
    overflow: Option<String>,
}

impl PyGame {
    pub(crate) fn start(setup: Setup, width: i16) -> PyResult<PyGame> {
        crate::space::check_width(width).map_err(PyValueError::new_err)?;
        let game = Game::new(&setup).map_err(|e| PyValueError::new_err(format!("invalid setup: {e}")))?;
        let space = Arc::new(ActionSpace::new(&game, width));
        let mut g = PyGame { game, record: Record::new(setup), space, legal: Legal::default(), overflow: None };
        g.refresh();
        Ok(g)
    }

    /// A game from `setup` with `actions` applied (each checked and recorded).
    pub(crate) fn replayed(setup: Setup, width: i16, actions: &[Action]) -> PyResult<PyGame> {
        let mut g = PyGame::start(setup, width)?;
        for a in actions {
            g.play(*a)?;
        }
        Ok(g)
    }

    fn refresh(&mut self) {
        self.overflow = self.legal.fill(&self.space, &self.game).err().map(|e| e.to_string());
    }

    fn ids(&self) -> PyResult<&[u32]> {
        match &self.overflow {
            Some(why) => Err(WindowError::new_err(why.clone())),
            None => Ok(&self.legal.ids),
        }
    }

    /// Apply a legal action (already checked), recording it.
    pub(crate) fn play(&mut self, a: Action) -> PyResult<()> {
        let text = self.game.action_text(a);
        self.game.apply(a).map_err(|e| IllegalActionError::new_err(format!("`{text}`: {}", e.reason)))?;
        self.record.actions.push(text);
        self.refresh();
        Ok(())
    }

    fn player(&self, p: i64) -> PyResult<Player> {
        if p < 0 || p as usize >= self.game.players() {
            return Err(PyIndexError::new_err(format!("no player {p} in a {}-player game", self.game.players())));
        }
        Ok(Player(p as u8))
    }
}

#[pymethods]
impl PyGame {
    /// A new game from a setup in JSON (`{"players": 2, "sets": ["base"], "rules": {...}, "seed": 7}`).
    #[new]
    #[pyo3(signature = (setup_json, window = 32))]
    fn new(setup_json: &str, window: i16) -> PyResult<PyGame> {
        PyGame::start(setup_from_json(setup_json)?, window)
    }

    /// A game replayed from a record in JSON (every action checked).
    #[staticmethod]
    #[pyo3(signature = (record_json, window = 32))]
    fn from_record(record_json: &str, window: i16) -> PyResult<PyGame> {
        let record = Record::from_json(record_json).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let replay = record.replay().map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut g = PyGame::start(record.setup.clone(), window)?;
        g.game = replay.game;
        g.record.actions = replay.actions;
        g.refresh();
        Ok(g)
    }

    /// The same game with the whole board turned `quarter_turns` times clockwise about the start space: its start
    /// tile turned (`start_rotation` in the setup) and every action turned with it, so the same tiles are drawn,
    /// the same points scored and the same ids legal, turned (`rotate_ids`). Any whole number (taken modulo 4).
    fn rotated(&self, quarter_turns: i64) -> PyResult<PyGame> {
        let r = carcassonne::geom::Rotation::from_index(quarter_turns.rem_euclid(4) as usize);
        let record = self.record.rotated(r).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let replay = record.replay().map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut g = PyGame::start(record.setup.clone(), self.space.width)?;
        g.game = replay.game;
        g.record.actions = replay.actions;
        g.refresh();
        Ok(g)
    }

    /// The ids, in the game turned `quarter_turns` times clockwise (`rotated`), of these legal ids of this position:
    /// what a policy target over this position's ids becomes for the turned position. -1 stays -1 (padding).
    ///
    /// Raises `IllegalActionError` for an id that is not legal here.
    fn rotate_ids(&self, ids: Vec<i64>, quarter_turns: i64) -> PyResult<Vec<i64>> {
        self.ids()?;
        let r = carcassonne::geom::Rotation::from_index(quarter_turns.rem_euclid(4) as usize);
        let turned = self.rotated(quarter_turns)?;
        let there = turned.ids()?;
        ids.into_iter()
            .map(|id| {
                if id == -1 {
                    return Ok(-1);
                }
                let a = usize::try_from(id).ok().and_then(|i| self.legal.find(i));
                let a = a.ok_or_else(|| IllegalActionError::new_err(format!("action id {id} is not legal here")))?;
                let t = self.game.rotate_action(a, r);
                let i = turned.legal.actions.iter().position(|x| *x == t).ok_or_else(|| {
                    PyValueError::new_err(format!("`{}` has no turned twin (a bug)", self.game.action_text(a)))
                })?;
                Ok(i64::from(there[i]))
            })
            .collect()
    }

    /// The spatial action map's shape: `(channels, W, W)`.
    fn spatial_shape(&self) -> (usize, usize, usize) {
        let w = self.space.width as usize;
        (crate::spatial::Spatial::of(&self.space, &self.game).channels(), w, w)
    }

    /// The channels of the spatial action map (`spatial_ids`), in order.
    fn spatial_channels(&self) -> Vec<String> {
        crate::spatial::Spatial::of(&self.space, &self.game).channel_names()
    }

    /// Where ids lie on the spatial action map over the observation window: `channel · W² + cell`, or -1 for an id
    /// with no place on the board here (docs/python.md, "Spatial actions").
    fn spatial_ids(&mut self, ids: Vec<i64>) -> Vec<i64> {
        self.legal.frontier.update(&self.game);
        let window = Window::of(&self.game, self.space.width);
        let layout = crate::spatial::Spatial::of(&self.space, &self.game);
        ids.into_iter().map(|id| layout.index(&self.space, &self.game, &self.legal.frontier, window, id)).collect()
    }

    /// The record so far, as JSON (it replays with `carc replay`).
    fn record_json(&self) -> String {
        self.record.to_json()
    }

    /// Number of players.
    #[getter]
    fn players(&self) -> usize {
        self.game.players()
    }

    /// The player to act (0-based), `-1` at a chance node (a draw), `-4` once the game is over.
    fn current_player(&self) -> i64 {
        current_player(&self.game)
    }

    /// The pending decision, as JSON: actor, kind, and the drawn tile, the dragon's step or the crop action.
    fn decision_json(&self) -> String {
        carcassonne::report::pending_json(&self.game).to_string()
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The scores, in seat order.
    fn scores(&self) -> Vec<i32> {
        self.game.scores().to_vec()
    }

    /// Turn number.
    #[getter]
    fn turn(&self) -> u32 {
        self.game.turn()
    }

    /// Tiles left in the draw stack.
    fn stack_len(&self) -> usize {
        self.game.stack_len()
    }

    /// The legal actions in record notation (draws at a chance node).
    fn legal_actions(&self) -> Vec<String> {
        self.legal.actions.iter().map(|a| self.game.action_text(*a)).collect()
    }

    /// The legal actions' ids, in the same order as `legal_actions` (empty at a chance node).
    fn legal_action_ids(&self) -> PyResult<Vec<u32>> {
        Ok(self.ids()?.to_vec())
    }

    /// The legality mask over the whole action space.
    fn legal_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mut mask = vec![false; self.space.size()];
        for id in self.ids()? {
            mask[*id as usize] = true;
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// Apply an action given in record notation.
    fn apply(&mut self, action: &str) -> PyResult<()> {
        let a = self.game.parse_action(action).map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        self.play(a)
    }

    /// Apply the legal action with this id.
    fn apply_id(&mut self, id: i64) -> PyResult<()> {
        self.ids()?;
        let a = usize::try_from(id).ok().and_then(|i| self.legal.find(i));
        let a = a.ok_or_else(|| IllegalActionError::new_err(format!("action id {id} is not legal here")))?;
        self.play(a)
    }

    /// The id of an action given in notation (it must be legal now).
    fn action_id(&self, action: &str) -> PyResult<u32> {
        let a = self.game.parse_action(action).map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        let ids = self.ids()?;
        self.legal
            .actions
            .iter()
            .position(|x| *x == a)
            .and_then(|i| ids.get(i).copied())
            .ok_or_else(|| IllegalActionError::new_err(format!("`{action}` is not a legal player action here")))
    }

    /// The notation of the legal action with this id.
    fn action_text(&self, id: i64) -> PyResult<String> {
        self.ids()?;
        let a = usize::try_from(id).ok().and_then(|i| self.legal.find(i));
        a.map(|a| self.game.action_text(a))
            .ok_or_else(|| IllegalActionError::new_err(format!("action id {id} is not legal here")))
    }

    /// The chance outcomes of a draw: `(kind number, tile id, probability)` for each kind left in the stack.
    fn chance_outcomes(&self) -> Vec<(u16, String, f64)> {
        if self.game.decision().actor != Actor::Chance {
            return vec![];
        }
        let outcomes = self.game.chance_outcomes();
        let total: u32 = outcomes.iter().map(|(_, n)| n).sum();
        outcomes
            .into_iter()
            .map(|(k, n)| (k.0, self.game.catalogue().def(k).id.clone(), f64::from(n) / f64::from(total)))
            .collect()
    }

    /// Draw the tile of this kind number (a chance outcome).
    fn apply_chance(&mut self, kind: u16) -> PyResult<()> {
        let a = Action::Draw(carcassonne::TileKind(kind));
        if self.game.decision().actor != Actor::Chance || !self.game.is_legal(a) {
            return Err(IllegalActionError::new_err(format!("tile kind {kind} cannot be drawn now")));
        }
        self.play(a)
    }

    /// Draw the next tile of the game's own shuffled stack (the seed's draw).
    fn draw(&mut self) -> PyResult<()> {
        if self.game.decision().actor != Actor::Chance {
            return Err(IllegalActionError::new_err("no draw is pending"));
        }
        let k = self.game.next_draw().ok_or_else(|| IllegalActionError::new_err("the stack is empty"))?;
        self.play(Action::Draw(k))
    }

    /// An independent copy.
    fn clone(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        Clone::clone(self)
    }

    /// What one player (or, with `None`, a spectator) may see, as JSON.
    #[pyo3(signature = (player = None))]
    fn view_json(&self, player: Option<i64>) -> PyResult<String> {
        let viewer = player.map(|p| self.player(p)).transpose()?;
        Ok(carcassonne::report::view_json_for(&self.game, viewer).to_string())
    }

    /// The events of the last action, as a JSON list.
    fn events_json(&self) -> String {
        let n = self.record.actions.len();
        let events: Vec<_> =
            self.game.last_events().iter().map(|e| carcassonne::report::event_json(&self.game, n, e)).collect();
        serde_json::Value::Array(events).to_string()
    }

    /// `player`'s observation: board planes `[planes, width, width]` and the feature vector, as float32 arrays.
    fn observation<'py>(&self, py: Python<'py>, player: i64) -> crate::Pair<'py, PyArray3<f32>, PyArray1<f32>> {
        let viewer = self.player(player)?;
        let shape = Shape::of(&self.space);
        let mut board = vec![0f32; shape.board_len()];
        let mut features = vec![0f32; shape.features];
        obs::observe(&self.game, viewer, &self.space, &mut board, &mut features);
        let board = PyArray1::from_vec(py, board).reshape([shape.planes, shape.width, shape.width])?;
        Ok((board, PyArray1::from_vec(py, features)))
    }

    /// The open spaces by slot (the `space` number of the place and triangle ids): `(x, y)` of each, sorted by `y`
    /// then `x`. Slots from `len()` up to the block's size are unused at this decision.
    fn open_spaces(&mut self) -> Vec<(i16, i16)> {
        self.legal.frontier.update(&self.game);
        self.legal.frontier.spaces().iter().map(|s| (s.x, s.y)).collect()
    }

    /// The board window: `(x0, y0, width)`, its south-west space and its width.
    fn window(&self) -> (i16, i16, i16) {
        let w = Window::of(&self.game, self.space.width);
        (w.x0, w.y0, w.width)
    }

    /// A copy in which everything `player` cannot see is sampled again: the stack's order, the others' triangles.
    fn resample(&self, player: i64, seed: u64) -> PyResult<PyGame> {
        let viewer = self.player(player)?;
        let mut g = Clone::clone(self);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        g.game.shuffle_hidden(viewer, &mut rng);
        g.refresh();
        Ok(g)
    }

    /// Size of the player action space.
    fn action_space_size(&self) -> usize {
        self.space.size()
    }

    /// Number of distinct chance outcomes (tile kinds).
    fn chance_space_size(&self) -> usize {
        self.space.kinds
    }

    /// The action space's blocks: `(name, first id, size)`.
    fn action_blocks(&self) -> Vec<(&'static str, usize, usize)> {
        self.space.blocks()
    }

    /// What an id stands for, without a position: its block and numbers.
    fn describe_id(&self, id: usize) -> PyResult<(&'static str, Vec<(&'static str, i64)>)> {
        describe_id(&self.space, id)
    }

    /// The observation's shape: `(planes, width, width)` and the feature count.
    fn observation_shape(&self) -> ((usize, usize, usize), usize) {
        let s = Shape::of(&self.space);
        ((s.planes, s.width, s.width), s.features)
    }

    /// The planes' names, in order.
    fn plane_names(&self) -> Vec<String> {
        Shape::of(&self.space).plane_names()
    }

    /// The feature vector's blocks: `(name, length)`, in order.
    fn feature_blocks(&self) -> Vec<(String, usize)> {
        Shape::of(&self.space).feature_blocks()
    }

    /// The Halflings' random deal, when this game has one (HALF-03: module on, `halflings.setup=random_deal`, no
    /// forced hands): `(triangles per player, every triangle's kind number, one entry per copy)`; else `None`. The
    /// OpenSpiel adapter deals from it at chance nodes.
    fn deal_pool(&self) -> Option<(usize, Vec<u16>)> {
        let cfg = self.game.config();
        let random = cfg.rules.modules.halflings
            && cfg.rules.halflings_setup == carcassonne::rules::HalflingsSetup::RandomDeal
            && cfg.hands.is_none();
        random.then(|| (cfg.rules.halflings_tiles_per_player.0 as usize, cfg.triangles.iter().map(|k| k.0).collect()))
    }

    /// The tile ids of the catalogue, by kind number.
    fn tile_ids(&self) -> Vec<String> {
        self.game.catalogue().kinds().map(|k| self.game.catalogue().def(k).id.clone()).collect()
    }

    /// The game as text (`carc replay`'s summary of the position).
    fn __repr__(&self) -> String {
        let scores: Vec<String> = self.game.scores().iter().map(|s| s.to_string()).collect();
        format!(
            "<carcassonne.Game {} players, turn {}, {} tiles left, scores {}{}>",
            self.game.players(),
            self.game.turn(),
            self.game.stack_len(),
            scores.join("-"),
            if self.game.is_over() { ", over" } else { "" }
        )
    }
}

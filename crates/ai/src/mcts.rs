//! `mcts`: information-set Monte-Carlo tree search over determinizations.
//!
//! Each iteration re-samples what the bot's seat cannot see ([`Game::shuffle_hidden`]: the order of the stack, other
//! players' triangles, the in-game generator) and walks one shared tree with that determinization. The tree has a
//! node per decision, whoever takes it: the bot's own placements and meeples, the other players' replies, and the
//! decisions other players make inside a turn (dragon steps, wagon moves, crop-circle answers, the draft). At each
//! node the player to decide picks the child best for *their own* reward (UCB1 over the children available in this
//! determinization, counting availability as in single-observer IS-MCTS). Draws are not chosen: the determinization
//! says which tile comes, and the tree follows it.
//!
//! Large branching (40 and more placements, the portal's "anywhere", triangles × corners × hand) is handled by
//! **progressive widening** guided by **priors** from the static evaluation: a node may have about
//! `widening × √visits` children; they are opened best prior first, and the prior also biases selection while a
//! child has few visits. No legal action is ever dropped: every one is opened once the node has enough visits. The
//! root's priors look through the bot's whole turn (the greedy player's values); deeper nodes use the evaluation
//! after the action alone, once they have been visited `prior_visits` times.
//!
//! Playouts are uniformly random and, by default, cut off after a few turns, where the static evaluation gives each
//! player an expected margin. The reward of a player is a blend of winning (at the end: 1, a share of a tie, or 0;
//! at a cut-off: the chance of winning the margin suggests) and the margin itself, squashed into 0..=1.
//!
//! With several threads, each grows its own tree from its own seed and their root statistics are added (root
//! parallelisation), so an iteration budget stays deterministic whatever the scheduling.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use carcassonne::game::MAX_PLAYERS;
use carcassonne::{Action, Actor, Game, Player};

use crate::bot::{Bot, BotError, Candidate, Thought, my_actions};
use crate::eval::{Evaluator, Points, Weights, margin_of};
use crate::greedy::TurnSearch;

/// How long an MCTS player thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Iterations per decision, over all threads (deterministic for a seed).
    pub iterations: Option<u64>,
    /// Wall-clock time per decision.
    pub time: Option<Duration>,
}

/// The MCTS player's settings. [`MctsConfig::default`] is the `hard` level's search without its budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// When to stop: whichever of the two limits comes first (at least one must be set).
    pub budget: Budget,
    /// Threads searching in parallel (root parallelisation).
    pub threads: usize,
    /// UCB1's exploration constant.
    pub exploration: f32,
    /// Turns of random play before the evaluation cuts a playout off; `None` plays to the end.
    pub playout_turns: Option<u32>,
    /// In playouts, the chance that a placement or phase-2 decision is chosen by the evaluation among a few random
    /// candidates rather than at random.
    pub playout_greedy: f32,
    /// In playouts, the chance that a phase-2 decision is drawn from all its actions rather than passed.
    pub playout_deploy: f32,
    /// How the search sees the other players.
    pub opponents: Opponents,
    /// With modelled opponents: the bot's own turns a playout reaches before the evaluation. At 1 it stops where the
    /// bot's next turn begins; at 2 the bot plays that turn as the greedy player, the others reply again, and so on.
    pub model_rounds: u32,
    /// Weight of winning in the reward (the rest is the squashed margin), 0..=1.
    pub win_weight: f32,
    /// Points of margin that make the margin part of the reward about 0.88 (tanh(1)/2 + 1/2).
    pub margin_scale: f32,
    /// Children a node may open: `widening × √(visits + 1)`, at least one.
    pub widening: f32,
    /// Weight of the prior in selection; it fades as `1 / (visits + 1)`.
    pub prior_weight: f32,
    /// Points by which a prior must trail the best sibling's to count `1/e` as much.
    pub prior_temperature: f32,
    /// Visits before a node below the root computes its priors.
    pub prior_visits: u32,
    /// Keep the tree when a decision follows straight from the bot's previous one (its meeple after its placement).
    pub reuse: bool,
    /// With modelled opponents: whether their turns are chosen by the bot's whole evaluation, or (`false`) by it
    /// without the prices of what fits the spaces ([`Weights::without_fits`]), which a greedy turn asks of every
    /// placement and so costs playouts.
    pub model_fits: bool,
    /// Stop a thread's search once its most visited root action leads the next by more than the iterations it has
    /// left: no iteration could change which action that thread's tree plays.
    pub early: bool,
    /// With an iteration budget and `early`: the iterations a search left unused because it was decided are kept
    /// for later decisions, and an undecided search may take up to its budget again from them (time management).
    pub carry: bool,
    /// The evaluation's constants.
    pub weights: Weights,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget { iterations: Some(10_000), time: None },
            threads: 1,
            exploration: 0.25,
            playout_turns: Some(4),
            playout_deploy: 1.0,
            opponents: Opponents::Random,
            model_rounds: 1,
            playout_greedy: 0.0,
            win_weight: 0.5,
            margin_scale: 5.0,
            widening: 2.0,
            prior_weight: 0.3,
            prior_temperature: 4.0,
            prior_visits: 32,
            reuse: true,
            model_fits: true,
            early: false,
            carry: false,
            weights: Weights::default(),
        }
    }
}

/// How a search sees the other players ([`MctsConfig::opponents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opponents {
    /// In the tree, each chooses for its own reward like the bot; in playouts, at random.
    Random,
    /// Modelled as the greedy player: the tree holds only the bot's own decisions, and a playout is the other
    /// players' replies, each the greedy player's choice by this bot's evaluation, up to the bot's next turn (or
    /// the cut-off, if sooner), where the evaluation values it.
    Greedy,
    /// `Random` with two players, `Greedy` with more (what `hard` plays, docs/ai.md "Modelling the opponents").
    Auto,
}

impl Opponents {
    /// Every way of seeing them.
    pub const ALL: [Opponents; 3] = [Opponents::Random, Opponents::Greedy, Opponents::Auto];

    /// Whether the other players are modelled as the greedy player in a game of `players`.
    pub fn modelled(self, players: usize) -> bool {
        match self {
            Opponents::Random => false,
            Opponents::Greedy => true,
            Opponents::Auto => players > 2,
        }
    }

    /// Its name in specs.
    pub fn name(self) -> &'static str {
        match self {
            Opponents::Random => "random",
            Opponents::Greedy => "greedy",
            Opponents::Auto => "auto",
        }
    }
}

const NONE: u32 = u32::MAX;
/// Most iterations kept for later decisions, in budgets of one decision ([`MctsConfig::carry`]).
const MAX_BANK: u64 = 4;
const CHANCE: u8 = u8::MAX;
/// Most nodes one tree grows (about 100 bytes each plus their edges); beyond it, iterations only play out.
const MAX_NODES: usize = 1 << 21;

/// One node: the decision reached by an action, and the statistics of that action for the player who took it.
///
/// Its actions live in the tree's pools (no allocation per node): `acts`, `kids` and `ords` at
/// `start..start + len`, with room for `cap`; its selection biases in `biases` at `bias..bias + first_len`.
#[derive(Clone, Copy, Debug)]
struct Node {
    start: u32,
    /// Actions seen here, in the order they were first met; the first `first_len` are the legal list of the first
    /// visit (the common case: the same list again, compared as a slice).
    len: u32,
    cap: u32,
    first_len: u32,
    /// Where the selection biases of the first `first_len` actions start ([`NONE`] until the priors are computed):
    /// `prior_weight × e^((prior − best prior) / prior_temperature)`, divided by the child's visits + 1 in use.
    bias: u32,
    /// Who took the action leading here (a seat, or [`CHANCE`]).
    mover: u8,
    visits: u32,
    avail: u32,
    reward: f64,
}

impl Node {
    fn new(mover: u8) -> Node {
        Node { start: 0, len: 0, cap: 0, first_len: 0, bias: NONE, mover, visits: 0, avail: 0, reward: 0.0 }
    }

    fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// One thread's tree and scratch space. Everything is kept from one decision to the next, so that once the pools
/// have grown a search allocates nothing.
#[derive(Debug, Default)]
struct Tree {
    nodes: Vec<Node>,
    /// Every node's actions, the child of each ([`NONE`] if not opened), and the order to open them in (by prior
    /// once known, else shuffled once), as indices into the node's actions.
    acts: Vec<Action>,
    kids: Vec<u32>,
    ords: Vec<u32>,
    biases: Vec<f32>,
    /// The root's index (not 0 when the tree was kept from the previous decision).
    root: u32,
    path: Vec<u32>,
    legal: Vec<Action>,
    avail: Vec<u32>,
    priors: Vec<f32>,
    eval: Evaluator,
    /// The evaluation of the priors below the root ([`Weights::for_priors`]).
    prior_eval: Evaluator,
    /// A game to try actions and playout steps on.
    scratch: Option<Game>,
    /// The other players' turns in playouts, when they are modelled ([`MctsConfig::opponents`]).
    turn: TurnSearch,
    /// `ln(i)` for every availability count `i` met so far: UCB1 takes a logarithm per child per selection, and a
    /// table of the same values is exact and cheaper.
    ln: Vec<f32>,
}

impl Tree {
    /// Forget the tree, keeping its memory.
    fn clear(&mut self) {
        self.nodes.clear();
        self.acts.clear();
        self.kids.clear();
        self.ords.clear();
        self.biases.clear();
    }

    fn reset(&mut self, cfg: &MctsConfig) {
        let weights = cfg.weights;
        self.clear();
        self.nodes.push(Node::new(CHANCE));
        self.root = 0;
        self.eval.weights = weights;
        self.prior_eval.weights = weights.for_priors();
        self.turn.eval.weights = if cfg.model_fits { weights } else { weights.without_fits() };
    }

    fn actions(&self, node: u32) -> &[Action] {
        &self.acts[self.nodes[node as usize].range()]
    }

    fn child(&self, node: u32, e: usize) -> u32 {
        self.kids[self.nodes[node as usize].start as usize + e]
    }

    /// Give a node with no actions yet these `actions`, none opened, in the engine's order.
    fn fill(&mut self, node: u32, actions: &[Action]) {
        let start = self.acts.len() as u32;
        self.acts.extend_from_slice(actions);
        self.kids.extend(std::iter::repeat_n(NONE, actions.len()));
        self.ords.extend(0..actions.len() as u32);
        let n = &mut self.nodes[node as usize];
        (n.start, n.len, n.cap, n.first_len) =
            (start, actions.len() as u32, actions.len() as u32, actions.len() as u32);
    }

    /// Add an action to a node, moving its actions to the end of the pools when it is full.
    fn push_action(&mut self, node: u32, a: Action) -> usize {
        let n = self.nodes[node as usize];
        if n.len == n.cap {
            let start = self.acts.len();
            let cap = (2 * n.len).max(4) as usize;
            let r = n.range();
            self.acts.extend_from_within(r.clone());
            self.kids.extend_from_within(r.clone());
            self.ords.extend_from_within(r);
            let filler = cap - n.len as usize;
            self.acts.extend(std::iter::repeat_n(Action::Pass, filler));
            self.kids.extend(std::iter::repeat_n(NONE, filler));
            self.ords.extend(std::iter::repeat_n(0, filler));
            let m = &mut self.nodes[node as usize];
            (m.start, m.cap) = (start as u32, cap as u32);
        }
        let m = &mut self.nodes[node as usize];
        let i = (m.start + m.len) as usize;
        self.acts[i] = a;
        self.kids[i] = NONE;
        self.ords[i] = m.len;
        m.len += 1;
        (m.len - 1) as usize
    }

    /// Make the root's child for `a` the root, if it exists and lists exactly `legal` (or nothing yet). Whether it
    /// could.
    fn reroot(&mut self, a: Action, legal: &[Action]) -> bool {
        if self.nodes.get(self.root as usize).is_none() {
            return false;
        }
        let Some(i) = self.actions(self.root).iter().position(|&x| x == a) else { return false };
        let c = self.child(self.root, i);
        if c == NONE || self.nodes.len() >= MAX_NODES / 2 {
            return false;
        }
        let n = self.nodes[c as usize];
        if n.len > 0 && (n.first_len as usize != legal.len() || self.actions(c)[..legal.len()] != *legal) {
            return false;
        }
        self.root = c;
        true
    }

    fn new_node(&mut self, mover: u8) -> u32 {
        self.nodes.push(Node::new(mover));
        (self.nodes.len() - 1) as u32
    }

    /// The child of `node` for action `a`, created if needed (for chance edges and actions new to this node).
    fn edge(&mut self, node: u32, a: Action) -> usize {
        match self.actions(node).iter().position(|&x| x == a) {
            Some(i) => i,
            None => self.push_action(node, a),
        }
    }

    /// Set a node's priors (one per first-seen action): its opening order and its selection biases.
    fn set_priors(&mut self, node: u32, priors: &[f32], cfg: &MctsConfig) {
        let n = self.nodes[node as usize];
        let (s, fl) = (n.start as usize, n.first_len as usize);
        debug_assert_eq!(priors.len(), fl);
        let order = &mut self.ords[s..s + n.len as usize];
        prior_order(priors, &mut order[..fl]);
        for (k, o) in order.iter_mut().enumerate().skip(fl) {
            *o = k as u32;
        }
        let bias = self.biases.len() as u32;
        let best = priors.iter().copied().fold(f32::MIN, f32::max);
        self.biases.extend(priors.iter().map(|&p| cfg.prior_weight * ((p - best) / cfg.prior_temperature).exp()));
        self.nodes[node as usize].bias = bias;
    }
}

/// What a search found at the root: per action, visits and summed reward.
#[derive(Clone, Debug, Default)]
struct RootStats {
    actions: Vec<Action>,
    visits: Vec<u32>,
    reward: Vec<f64>,
    iterations: u64,
    /// Whether the time ran out before the iterations.
    timed_out: bool,
}

/// The information-set MCTS player.
#[derive(Debug)]
pub struct MctsBot {
    /// Its settings.
    pub config: MctsConfig,
    /// Other settings for games of three or more players, if any (the levels' tuning was done at two players).
    pub many: Option<MctsConfig>,
    /// Other settings again for games of three or more players with any module on, if any (there the levels'
    /// model of the opponents is too slow for their time a decision: docs/ai.md, "Modelling the opponents").
    pub many_modules: Option<MctsConfig>,
    name: String,
    rng: ChaCha8Rng,
    trees: Vec<Tree>,
    turn: TurnSearch,
    /// The last decision's position and the action chosen there, to keep the tree when the next decision follows
    /// straight from it (a placement, then the meeple).
    last: Option<(Game, Action)>,
    /// Iterations kept from decided searches for later ones ([`MctsConfig::carry`]).
    bank: u64,
}

impl MctsBot {
    /// An MCTS player; `name` is what [`Bot::name`] reports.
    pub fn new(config: MctsConfig, seed: u64, name: impl Into<String>) -> MctsBot {
        MctsBot {
            config,
            many: None,
            many_modules: None,
            name: name.into(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            trees: Vec::new(),
            turn: TurnSearch::new(config.weights),
            last: None,
            bank: 0,
        }
    }

    /// The settings it plays `game` with: [`MctsBot::many_modules`] with three or more players and any module on,
    /// [`MctsBot::many`] with three or more players, else [`MctsBot::config`].
    pub fn config_for(&self, game: &Game) -> MctsConfig {
        let many = game.players() > 2;
        let modules = game.rules().modules != carcassonne::rules::Modules::default();
        match (self.many, self.many_modules) {
            (_, Some(m)) if many && modules => m,
            (Some(m), _) if many => m,
            _ => self.config,
        }
    }
}

impl Bot for MctsBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn think(&mut self, game: &Game, me: Player) -> Result<Thought, BotError> {
        let start = Instant::now();
        let legal = my_actions(game, me)?;
        // The tree can be kept when this decision follows straight from the last one, with nothing in between
        // (no draw, no other player): the same information, one action further.
        let follows = self.last.take().is_some_and(|(mut g, a)| {
            g.apply_unchecked(a);
            let same = g == *game;
            if same {
                for t in &mut self.trees {
                    if !t.reroot(a, &legal) {
                        t.clear();
                    }
                }
            }
            same
        });
        if !follows {
            for t in &mut self.trees {
                t.clear();
            }
        }
        if legal.len() == 1 {
            return Ok(Thought::only(legal[0]));
        }
        let cfg = self.config_for(game);
        self.turn.eval.weights = cfg.weights.for_priors();
        // The root's priors: the greedy player's values, on a determinization of our own.
        let mut det = game.clone();
        det.shuffle_hidden(me, &mut self.rng);
        let priors = self.turn.action_values(&det, me, &legal);
        let threads = cfg.threads.max(1);
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.random()).collect();
        self.trees.resize_with(threads, Tree::default);
        // A time past what the clock can hold is no deadline at all.
        let deadline = cfg.budget.time.and_then(|t| start.checked_add(t));
        let budget = cfg.budget.iterations.unwrap_or(if deadline.is_some() { u64::MAX } else { 1000 });
        let carry = cfg.carry && cfg.early && cfg.budget.iterations.is_some();
        let total = if carry { budget + self.bank.min(budget) } else { budget };
        let share = |i: usize| total / threads as u64 + u64::from((i as u64) < total % threads as u64);
        let stats: Vec<RootStats> = if threads == 1 {
            vec![search(&mut self.trees[0], &cfg, game, me, &legal, &priors, seeds[0], share(0), deadline)]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .enumerate()
                    .map(|(i, tree)| {
                        let (legal, priors, seed) = (&legal, &priors, seeds[i]);
                        s.spawn(move || search(tree, &cfg, game, me, legal, priors, seed, share(i), deadline))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a search thread does not panic")).collect()
            })
        };
        let mut candidates: Vec<Candidate> =
            legal.iter().map(|&action| Candidate { action, visits: 0, value: 0.0 }).collect();
        let mut rewards = vec![0f64; legal.len()];
        let mut iterations = 0;
        let mut timed_out = false;
        for st in &stats {
            iterations += st.iterations;
            timed_out |= st.timed_out;
            for (i, a) in st.actions.iter().enumerate() {
                if let Some(j) = legal.iter().position(|x| x == a) {
                    candidates[j].visits += st.visits[i];
                    rewards[j] += st.reward[i];
                }
            }
        }
        if carry {
            // Only what a decided search left is kept: iterations the clock cut off were not saved.
            if iterations > budget {
                self.bank -= iterations - budget;
            } else if !timed_out {
                self.bank = (self.bank + budget - iterations).min(MAX_BANK * budget);
            }
        }
        for (c, r) in candidates.iter_mut().zip(&rewards) {
            c.value = if c.visits > 0 { (*r / c.visits as f64) as f32 } else { 0.0 };
        }
        // The most visited action; among equals, the better mean, then the better prior.
        let mut order: Vec<usize> = (0..legal.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&candidates[a], &candidates[b]);
            y.visits.cmp(&x.visits).then(y.value.total_cmp(&x.value)).then(priors[b].total_cmp(&priors[a]))
        });
        let candidates: Vec<Candidate> = order.into_iter().map(|i| candidates[i]).collect();
        if cfg.reuse {
            self.last = Some((game.clone(), candidates[0].action));
        }
        Ok(Thought { action: candidates[0].action, candidates, iterations, elapsed: start.elapsed() })
    }
}

/// One thread's search from `game` for `me`, whose legal actions (with the root's priors) are given.
#[allow(clippy::too_many_arguments)]
fn search(
    tree: &mut Tree,
    cfg: &MctsConfig,
    game: &Game,
    me: Player,
    legal: &[Action],
    priors: &[f32],
    seed: u64,
    iterations: u64,
    deadline: Option<Instant>,
) -> RootStats {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if tree.nodes.is_empty() {
        tree.reset(cfg);
    }
    if tree.nodes[tree.root as usize].len == 0 {
        tree.fill(tree.root, legal);
    }
    tree.set_priors(tree.root, priors, cfg);
    let mut det = game.clone();
    let mut buf = Vec::new();
    let mut done = 0u64;
    let mut timed_out = false;
    while done < iterations {
        if done.is_multiple_of(32) {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                timed_out = true;
                break;
            }
            if cfg.early && iterations != u64::MAX && decided(tree, iterations - done) {
                break;
            }
        }
        det.clone_from(game);
        det.shuffle_hidden(me, &mut rng);
        iterate(tree, cfg, &mut det, me, &mut rng, &mut buf);
        done += 1;
    }
    let mut st = RootStats { iterations: done, timed_out, ..RootStats::default() };
    for (i, &a) in tree.actions(tree.root).iter().enumerate() {
        let c = tree.child(tree.root, i);
        st.actions.push(a);
        if c == NONE {
            st.visits.push(0);
            st.reward.push(0.0);
        } else {
            st.visits.push(tree.nodes[c as usize].visits);
            st.reward.push(tree.nodes[c as usize].reward);
        }
    }
    st
}

/// Whether the root's most visited child leads every other by more than `left` visits, so that no number of
/// iterations up to `left` can change it.
fn decided(tree: &Tree, left: u64) -> bool {
    let (mut first, mut second) = (0u64, 0u64);
    for e in 0..tree.nodes[tree.root as usize].len as usize {
        let c = tree.child(tree.root, e);
        let v = if c == NONE { 0 } else { u64::from(tree.nodes[c as usize].visits) };
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    first > second + left
}

/// Indices sorted by prior, best first, into `order` (stable: equal priors keep the engine's order).
fn prior_order(priors: &[f32], order: &mut [u32]) {
    for (i, o) in order.iter_mut().enumerate() {
        *o = i as u32;
    }
    order.sort_by(|&a, &b| priors[b as usize].total_cmp(&priors[a as usize]));
}

/// One iteration: select and expand down the tree with `det`, play out, and back the reward up.
fn iterate(tree: &mut Tree, cfg: &MctsConfig, det: &mut Game, me: Player, rng: &mut ChaCha8Rng, buf: &mut Vec<Action>) {
    let model = cfg.opponents.modelled(det.players());
    tree.path.clear();
    tree.path.push(tree.root);
    let mut node = tree.root;
    let mut expanded = false;
    while !det.is_over() && !expanded {
        let (edge, mover) = match det.decision().actor {
            Actor::Chance => {
                let a = Action::Draw(det.next_draw().expect("chance draws from a non-empty stack"));
                (tree.edge(node, a), CHANCE)
            }
            // Modelled opponents decide in the playout, not in the tree.
            Actor::Player(p) if model && p != me => break,
            Actor::Player(p) => match select(tree, cfg, node, det, p, rng) {
                Some(e) => (e, p.0),
                None => break,
            },
            Actor::Nobody => break,
        };
        let slot = tree.nodes[node as usize].start as usize + edge;
        let a = tree.acts[slot];
        let mut child = tree.kids[slot];
        if child == NONE {
            if tree.nodes.len() >= MAX_NODES {
                det.apply_unchecked(a);
                break;
            }
            child = tree.new_node(mover);
            tree.kids[slot] = child;
            // Opening a chance edge is no expansion: the walk goes on to the next decision.
            expanded = mover != CHANCE;
        }
        det.apply_unchecked(a);
        node = child;
        tree.path.push(node);
    }
    let reward = playout(tree, cfg, det, me, rng, buf);
    for &i in &tree.path {
        let n = &mut tree.nodes[i as usize];
        n.visits += 1;
        if n.mover != CHANCE {
            n.reward += reward[n.mover as usize] as f64;
        }
    }
}

/// The child of `node` that player `p` takes in this determinization: a new one while widening allows, else the
/// best by UCB1 with availability counts and the fading prior. `None` if there is no legal action.
fn select(tree: &mut Tree, cfg: &MctsConfig, node: u32, det: &Game, p: Player, rng: &mut ChaCha8Rng) -> Option<usize> {
    let ni = node as usize;
    // At the root the legal actions are the bot's own, the same in every determinization (they depend only on what
    // its seat sees), and the root was filled with them: listing them again each iteration is wasted (with the
    // Halflings, three quarters of a search's time went to relisting the root's triangle placements).
    let root = tree.nodes[ni];
    let at_root = node == tree.root && root.len > 0 && root.len == root.first_len;
    if at_root {
        debug_assert!({
            det.legal_actions_into(&mut tree.legal);
            tree.legal[..] == tree.actions(node)[..]
        });
    } else {
        det.legal_actions_into(&mut tree.legal);
        if tree.legal.is_empty() {
            return None;
        }
        if tree.nodes[ni].len == 0 {
            let legal = std::mem::take(&mut tree.legal);
            tree.fill(node, &legal);
            tree.legal = legal;
            let r = tree.nodes[ni].range();
            tree.ords[r].shuffle(rng);
        }
    }
    // Which actions are available now, as indices into the node's actions.
    tree.avail.clear();
    let fl = tree.nodes[ni].first_len as usize;
    if at_root || (tree.legal.len() == fl && tree.legal[..] == tree.actions(node)[..fl]) {
        tree.avail.extend(0..fl as u32);
    } else {
        for k in 0..tree.legal.len() {
            let a = tree.legal[k];
            let e = tree.edge(node, a);
            tree.avail.push(e as u32);
        }
    }
    // Priors once the node is worth it: the evaluation after each first-seen action, for the player deciding.
    if tree.nodes[ni].bias == NONE && tree.nodes[ni].visits >= cfg.prior_visits && fl > 1 {
        let mut priors = std::mem::take(&mut tree.priors);
        priors.clear();
        let mut child = tree.scratch.take().unwrap_or_else(|| det.clone());
        let start = tree.nodes[ni].start as usize;
        for k in 0..fl {
            let a = tree.acts[start + k];
            if det.is_legal(a) {
                child.clone_from(det);
                child.apply_unchecked(a);
                priors.push(tree.prior_eval.margin(&child, p));
            } else {
                priors.push(f32::MIN / 4.0);
            }
        }
        tree.scratch = Some(child);
        tree.set_priors(node, &priors, cfg);
        tree.priors = priors;
    }
    let n = tree.nodes[ni];
    let (start, len) = (n.start as usize, n.len as usize);
    let kids = &tree.kids[start..start + len];
    // Widening: open the next action in order if fewer children than allowed are available here.
    let allowed = (cfg.widening * ((n.visits + 1) as f32).sqrt()).max(1.0) as usize;
    let open = tree.avail.iter().filter(|&&e| kids[e as usize] != NONE).count();
    if open < allowed && open < tree.avail.len() {
        for &e in &tree.ords[start..start + len] {
            if kids[e as usize] == NONE && tree.avail.contains(&e) {
                return Some(e as usize);
            }
        }
    }
    // UCB1 over the available children, with availability in place of the parent's visits. No child has been
    // available more often than its parent has been visited, so the table of logarithms is grown to that first.
    while tree.ln.len() <= n.visits as usize + 1 {
        let i = tree.ln.len();
        tree.ln.push((i.max(1) as f32).ln());
    }
    let ln = &tree.ln;
    let kids = &tree.kids[start..start + len];
    let bias = if n.bias == NONE { &[][..] } else { &tree.biases[n.bias as usize..(n.bias + n.first_len) as usize] };
    let mut best = (f32::MIN, usize::MAX);
    for &e in &tree.avail {
        let c = kids[e as usize];
        if c == NONE {
            continue;
        }
        let ch = &tree.nodes[c as usize];
        let visits = ch.visits.max(1) as f32;
        let mean = ch.reward as f32 / visits;
        let avail = ch.avail.max(1);
        let ln_avail = ln.get(avail as usize).copied().unwrap_or_else(|| (avail as f32).ln());
        let explore = cfg.exploration * (ln_avail / visits).sqrt();
        let bias = bias.get(e as usize).map_or(0.0, |b| b / (visits + 1.0));
        let score = mean + explore + bias;
        if score > best.0 {
            best = (score, e as usize);
        }
    }
    // Every available child was counted as available once more.
    for &e in &tree.avail {
        let c = tree.kids[start + e as usize];
        if c != NONE {
            tree.nodes[c as usize].avail += 1;
        }
    }
    (best.1 != usize::MAX).then_some(best.1)
}

/// Play random actions from `det` until the game ends or the cut-off, and return every player's reward.
fn playout(
    tree: &mut Tree,
    cfg: &MctsConfig,
    det: &mut Game,
    me: Player,
    rng: &mut ChaCha8Rng,
    buf: &mut Vec<Action>,
) -> Points {
    let model = cfg.opponents.modelled(det.players());
    let start_turn = det.turn();
    let end_turn = cfg.playout_turns.map(|t| start_turn + t);
    // With modelled opponents, the turn of the bot's the playout is in, and how many of its turns it has begun.
    let (mut my_turn, mut rounds) = (start_turn, 0);
    while !det.is_over() {
        if end_turn.is_some_and(|t| det.turn() >= t) {
            break;
        }
        // With modelled opponents a playout is their replies: it ends where the bot's next turn begins (or, with
        // more rounds, a later one of its turns; it plays the ones between as the greedy player).
        if model && det.turn() != my_turn && det.active_player() == me {
            rounds += 1;
            if rounds >= cfg.model_rounds {
                break;
            }
            my_turn = det.turn();
        }
        if model
            && let Actor::Player(p) = det.decision().actor
            && (p != me || (my_turn != start_turn && det.turn() == my_turn))
        {
            match modelled_action(tree, det, p, buf) {
                Some(a) => det.apply_unchecked(a),
                None => break,
            }
            continue;
        }
        // Phase 2: deploy (or use a figure) only so often, else pass, so playouts do not scatter followers.
        if cfg.playout_deploy < 1.0
            && det.decision().kind == carcassonne::DecisionKind::Phase2
            && rng.random::<f32>() >= cfg.playout_deploy
        {
            det.apply_unchecked(Action::Pass);
            continue;
        }
        let a = if cfg.playout_greedy > 0.0 && rng.random::<f32>() < cfg.playout_greedy {
            informed_action(tree, det, rng, buf)
        } else {
            det.fast_random_action(rng, buf)
        };
        match a {
            Some(a) => det.apply_unchecked(a),
            None => break,
        }
    }
    let n = det.players();
    let mut reward = [0f32; MAX_PLAYERS];
    if det.is_over() {
        let scores: Vec<f32> = det.scores().iter().map(|&s| s as f32).collect();
        let best = scores.iter().copied().fold(f32::MIN, f32::max);
        let winners = scores.iter().filter(|&&s| s == best).count() as f32;
        for p in 0..n {
            let m = margin_of(&scores, Player(p as u8), 1.0);
            let win = if scores[p] == best { 1.0 / winners } else { 0.0 };
            reward[p] = cfg.win_weight * win + (1.0 - cfg.win_weight) * squash(m, cfg.margin_scale);
        }
    } else {
        let pts = tree.eval.points(det);
        // What is still to come makes the margin uncertain: about 4 points per square root of a turn left each.
        let spread = 4.0 * (det.stack_len() as f32 / n as f32 + 1.0).sqrt();
        for (p, r) in reward.iter_mut().enumerate().take(n) {
            let m = margin_of(&pts[..n], Player(p as u8), 1.0);
            *r = cfg.win_weight * squash(m, spread) + (1.0 - cfg.win_weight) * squash(m, cfg.margin_scale);
        }
    }
    reward
}

/// What a modelled opponent `p` plays at `det`: the greedy player's choice by the bot's evaluation.
fn modelled_action(tree: &mut Tree, det: &Game, p: Player, buf: &mut Vec<Action>) -> Option<Action> {
    det.legal_actions_into(buf);
    match buf.len() {
        0 => None,
        1 => Some(buf[0]),
        _ => {
            let values = tree.turn.action_values(det, p, buf);
            let best = (0..buf.len()).max_by(|&a, &b| values[a].total_cmp(&values[b]).then(b.cmp(&a)))?;
            Some(buf[best])
        }
    }
}

/// Candidates an informed playout step compares.
const INFORMED_SAMPLES: usize = 4;

/// A playout step chosen by the evaluation: for a placement, the best of a few random placements; in phase 2, the
/// best of a few random actions and passing; any other decision at random.
fn informed_action(tree: &mut Tree, det: &Game, rng: &mut ChaCha8Rng, buf: &mut Vec<Action>) -> Option<Action> {
    let Actor::Player(p) = det.decision().actor else { return det.fast_random_action(rng, buf) };
    let mut cands = [Action::Pass; INFORMED_SAMPLES + 1];
    let n = match det.decision().kind {
        carcassonne::DecisionKind::PlaceTile { .. } => {
            for c in cands.iter_mut().take(INFORMED_SAMPLES) {
                *c = det.fast_random_action(rng, buf)?;
            }
            INFORMED_SAMPLES
        }
        carcassonne::DecisionKind::Phase2 => {
            det.legal_actions_into(buf);
            if buf.is_empty() {
                return None;
            }
            for c in cands.iter_mut().take(INFORMED_SAMPLES) {
                *c = buf[rng.random_range(0..buf.len())];
            }
            INFORMED_SAMPLES + 1
        }
        _ => return det.fast_random_action(rng, buf),
    };
    let scratch = tree.scratch.get_or_insert_with(|| det.clone());
    let mut best = (f32::MIN, cands[0]);
    for &a in &cands[..n] {
        scratch.clone_from(det);
        scratch.apply_unchecked(a);
        let v = tree.eval.margin(scratch, p);
        if v > best.0 {
            best = (v, a);
        }
    }
    Some(best.1)
}

/// A margin squashed into 0..=1: 0.5 at 0, about 0.88 at `scale`.
fn squash(m: f32, scale: f32) -> f32 {
    0.5 + 0.5 * (m / scale).tanh()
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::Setup;

    /// The movers of a tree's nodes after a search of a four-player base game's first decision.
    fn movers(opponents: Opponents) -> Vec<u8> {
        let mut game = Game::new(&Setup::new(4)).unwrap();
        while game.decision().actor == Actor::Chance {
            let a = Action::Draw(game.next_draw().unwrap());
            game.apply_unchecked(a);
        }
        let Actor::Player(me) = game.decision().actor else { panic!("a player decides") };
        let legal = game.legal_actions();
        let cfg = MctsConfig { opponents, ..MctsConfig::default() };
        let mut tree = Tree::default();
        let priors = vec![0.0; legal.len()];
        let st = search(&mut tree, &cfg, &game, me, &legal, &priors, 1, 300, None);
        assert_eq!(st.iterations, 300);
        tree.nodes.iter().skip(1).map(|n| n.mover).filter(|&m| m != CHANCE && m != me.0).collect()
    }

    #[test]
    fn a_modelled_playout_reaches_the_bots_turn_its_rounds_say() {
        let mut start = Game::new(&Setup::new(4)).unwrap();
        while start.decision().actor == Actor::Chance {
            let a = Action::Draw(start.next_draw().unwrap());
            start.apply_unchecked(a);
        }
        let me = start.active_player();
        for rounds in 1..=3 {
            let cfg = MctsConfig {
                opponents: Opponents::Greedy,
                playout_turns: None,
                model_rounds: rounds,
                ..MctsConfig::default()
            };
            let mut tree = Tree::default();
            tree.reset(&cfg);
            let mut det = start.clone();
            let mut rng = ChaCha8Rng::seed_from_u64(rounds as u64);
            det.shuffle_hidden(me, &mut rng);
            playout(&mut tree, &cfg, &mut det, me, &mut rng, &mut Vec::new());
            assert_eq!(det.turn(), start.turn() + 4 * rounds, "{rounds} round(s) of four players");
            assert_eq!(det.active_player(), me);
        }
    }

    #[test]
    fn the_model_of_the_opponents_leaves_the_fits_out_only_when_told() {
        let weights = Weights { dead: 1.0, scarce: 3.0, monastery_fits: 1.0, ..Weights::default() };
        let mut tree = Tree::default();
        for model_fits in [true, false] {
            tree.reset(&MctsConfig { weights, model_fits, ..MctsConfig::default() });
            assert_eq!(tree.eval.weights, weights, "the bot's own evaluation keeps them");
            let modelled = tree.turn.eval.weights;
            assert_eq!(modelled == weights, model_fits);
            if !model_fits {
                assert_eq!((modelled.dead, modelled.scarce, modelled.monastery_fits), (0.0, 0.0, 0.0));
                assert_eq!(modelled.city_close, weights.city_close, "the rest as the bot's");
            }
        }
    }

    #[test]
    fn modelled_opponents_stay_out_of_the_tree() {
        assert!(movers(Opponents::Greedy).is_empty(), "the others' decisions are the playout's");
        assert!(!movers(Opponents::Random).is_empty(), "unmodelled, the others choose in the tree");
    }

    #[test]
    fn the_settings_follow_the_players_and_the_modules() {
        let c = |i| MctsConfig { budget: Budget { iterations: Some(i), time: None }, ..MctsConfig::default() };
        let mut bot = MctsBot::new(c(1), 0, "test");
        let game = |players, modules: bool| {
            let mut s = Setup::new(players);
            if modules {
                s.sets = ["base", "am"].iter().map(|x| x.to_string()).collect();
                s.switch_on_set_modules(false);
            }
            Game::new(&s).unwrap()
        };
        let its = |bot: &MctsBot, players, modules| bot.config_for(&game(players, modules)).budget.iterations;
        assert_eq!([its(&bot, 2, false), its(&bot, 4, false), its(&bot, 4, true)], [Some(1); 3]);
        bot.many = Some(c(2));
        assert_eq!([its(&bot, 2, true), its(&bot, 3, false), its(&bot, 3, true)], [Some(1), Some(2), Some(2)]);
        bot.many_modules = Some(c(3));
        assert_eq!([its(&bot, 2, true), its(&bot, 3, false), its(&bot, 3, true)], [Some(1), Some(2), Some(3)]);
    }

    #[test]
    fn auto_models_the_opponents_from_three_players() {
        assert!(!Opponents::Auto.modelled(2));
        assert!(Opponents::Auto.modelled(3) && Opponents::Auto.modelled(6));
        assert!(Opponents::Greedy.modelled(2) && !Opponents::Random.modelled(4));
    }
}

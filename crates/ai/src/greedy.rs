//! `greedy`: one ply over the whole own turn, valued by the static evaluation.
//!
//! At each of its decisions the greedy player tries every legal action and, after it, every continuation of its own
//! turn — the placement, then the meeple, figure, fairy or barn choice, its own dragon step, wagon move or
//! crop-circle choice — up to the point where the turn passes to another player or to chance. Each end point is
//! valued by [`Evaluator::margin`]. Below the decision asked about, only the few actions with the best immediate
//! value are followed to the end of the turn (the rest keep their immediate value), which keeps a decision well
//! under 10 ms even with the portal's "anywhere". When the turn's choice is whether to place an abbey or a triangle
//! instead of drawing, drawing is valued as the mean over a few tiles spread over what is left (the counts, which
//! every player knows), each followed by its best placement.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use carcassonne::{Action, Actor, Game, Player};

use crate::bot::{Bot, BotError, Candidate, Thought, my_actions};
use crate::eval::{Evaluator, Weights};

/// Most decisions of one turn looked through (a turn rarely has more than four of its owner's).
const MAX_DEPTH: u32 = 8;
/// Below the decision asked about, only the `BEAM` actions with the best immediate value are looked through to the
/// end of the turn; the others keep their immediate value (which the rest of the turn can only raise). The
/// decision asked about itself is always looked through in full.
const BEAM: usize = 8;
/// With more legal actions than this at the decision asked about, portal moves further down are tried only for
/// this many of its best actions.
const PORTAL_AFTER: usize = 8;
/// Draws considered when valuing a draw instead of an abbey or triangle placement: the tiles at evenly spaced
/// quantiles of what is left (systematic sampling, so the value is deterministic and every kind can be picked).
const DRAW_SAMPLES: u32 = 4;

/// The search over one's own turn, shared by `greedy` and by `mcts` for its priors.
#[derive(Clone, Debug, Default)]
pub struct TurnSearch {
    /// The evaluation at the end of the turn.
    pub eval: Evaluator,
    bufs: Vec<Vec<Action>>,
    scored: Vec<Vec<(f32, Action)>>,
    /// While set, portal moves below the decision asked about are not tried (counted in `skipped`).
    skip_portal: bool,
    skipped: u32,
}

impl TurnSearch {
    /// A turn search with these evaluation constants.
    pub fn new(weights: Weights) -> TurnSearch {
        TurnSearch {
            eval: Evaluator::new(weights),
            bufs: Vec::new(),
            scored: Vec::new(),
            skip_portal: false,
            skipped: 0,
        }
    }

    /// The value for `me` (an expected point margin) of each legal action at `game`'s pending decision, which must
    /// be `me`'s, looking through the rest of `me`'s turn. `game` should be a determinization of `me`'s view.
    pub fn action_values(&mut self, game: &Game, me: Player, legal: &[Action]) -> Vec<f32> {
        let mut child = game.clone();
        let turn = game.turn();
        let mut value_of = |ts: &mut TurnSearch, a: Action| {
            child.clone_from(game);
            child.apply_unchecked(a);
            ts.value(&child, me, turn, true, 1)
        };
        // With many placements, the portal's moves (every free feature on the board, much the same after any
        // placement) are tried only after the best placements found without them.
        self.skip_portal = legal.len() > PORTAL_AFTER;
        self.skipped = 0;
        let mut values: Vec<f32> = legal.iter().map(|&a| value_of(self, a)).collect();
        if self.skip_portal && self.skipped > 0 {
            self.skip_portal = false;
            let mut order: Vec<usize> = (0..legal.len()).collect();
            order.sort_by(|&x, &y| values[y].total_cmp(&values[x]));
            for &i in order.iter().take(PORTAL_AFTER) {
                values[i] = values[i].max(value_of(self, legal[i]));
            }
        }
        self.skip_portal = false;
        values
    }

    /// The value of a position for `me`: the best continuation while `me` decides in turn `turn`, else the
    /// evaluation. (Once the stack is empty, the others' turns may pass without a decision: `me`'s next turn is
    /// not this one.)
    fn value(&mut self, g: &Game, me: Player, turn: u32, may_draw: bool, depth: u32) -> f32 {
        if g.is_over() || depth >= MAX_DEPTH || g.turn() != turn {
            return self.eval.margin(g, me);
        }
        match g.decision().actor {
            Actor::Player(p) if p == me => {
                let mut legal = self.bufs.pop().unwrap_or_default();
                g.legal_actions_into(&mut legal);
                if self.skip_portal {
                    let before = legal.len();
                    legal.retain(|a| !matches!(a, Action::Portal { .. }));
                    self.skipped += (before - legal.len()) as u32;
                }
                if legal.is_empty() {
                    self.bufs.push(legal);
                    return self.eval.margin(g, me);
                }
                let mut child = g.clone();
                let mut best = f32::MIN;
                if legal.len() <= BEAM {
                    for &a in &legal {
                        child.clone_from(g);
                        child.apply_unchecked(a);
                        best = best.max(self.value(&child, me, turn, may_draw, depth + 1));
                    }
                } else {
                    // Every action's immediate value, then the rest of the turn for the best few.
                    let mut scored = self.scored.pop().unwrap_or_default();
                    scored.clear();
                    for &a in &legal {
                        child.clone_from(g);
                        child.apply_unchecked(a);
                        scored.push((self.eval.margin(&child, me), a));
                    }
                    scored.sort_by(|x, y| y.0.total_cmp(&x.0));
                    best = scored[0].0;
                    for &(_, a) in &scored[..BEAM] {
                        child.clone_from(g);
                        child.apply_unchecked(a);
                        best = best.max(self.value(&child, me, turn, may_draw, depth + 1));
                    }
                    self.scored.push(scored);
                }
                self.bufs.push(legal);
                best
            }
            // `me` chose to draw instead of placing an abbey or a triangle: the mean over a few draws.
            Actor::Chance if may_draw && g.active_player() == me => {
                let outcomes = g.chance_outcomes();
                let total: u32 = outcomes.iter().map(|(_, c)| c).sum();
                if total == 0 {
                    return self.eval.margin(g, me);
                }
                let mut sum = 0.0;
                let mut child = g.clone();
                let samples = DRAW_SAMPLES.min(total);
                for i in 0..samples {
                    // The tile at quantile (i + ½) / samples of the counts left, in catalogue order.
                    let target = ((2 * i + 1) * total) / (2 * samples);
                    let mut acc = 0;
                    let k = outcomes
                        .iter()
                        .find(|(_, c)| {
                            acc += c;
                            acc > target
                        })
                        .map_or(outcomes[0].0, |(k, _)| *k);
                    child.clone_from(g);
                    child.apply_unchecked(Action::Draw(k));
                    sum += self.value(&child, me, turn, false, depth + 1);
                }
                sum / samples as f32
            }
            _ => self.eval.margin(g, me),
        }
    }
}

/// The greedy player.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    search: TurnSearch,
    rng: ChaCha8Rng,
}

impl GreedyBot {
    /// A greedy player with the default evaluation; the seed drives only the re-sampling of hidden information.
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot::with_weights(seed, Weights::default())
    }

    /// A greedy player with these evaluation constants.
    pub fn with_weights(seed: u64, weights: Weights) -> GreedyBot {
        GreedyBot { search: TurnSearch::new(weights), rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn think(&mut self, game: &Game, me: Player) -> Result<Thought, BotError> {
        let start = Instant::now();
        let legal = my_actions(game, me)?;
        if legal.len() == 1 {
            return Ok(Thought::only(legal[0]));
        }
        let mut det = game.clone();
        det.shuffle_hidden(me, &mut self.rng);
        let values = self.search.action_values(&det, me, &legal);
        let mut candidates: Vec<Candidate> =
            legal.iter().zip(&values).map(|(&action, &value)| Candidate { action, visits: 1, value }).collect();
        // Best first; among equals, the engine's order (stable sort), so the choice is deterministic.
        candidates.sort_by(|a, b| b.value.total_cmp(&a.value));
        Ok(Thought { action: candidates[0].action, candidates, iterations: 0, elapsed: start.elapsed() })
    }
}

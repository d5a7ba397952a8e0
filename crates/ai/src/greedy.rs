//! `greedy`: one ply over the whole own turn, valued by the static evaluation.
//!
//! At each of its decisions the greedy player tries every legal action and, after it, every continuation of its own
//! turn — the placement, then the meeple, figure, fairy or barn choice, its own dragon step, wagon move or
//! crop-circle choice — up to the point where the turn passes to another player or to chance. Each end point is
//! valued by [`Evaluator::margin`]. When the turn's choice is whether to place an abbey or a triangle instead of
//! drawing, drawing is valued as the expectation over the tiles that may come (the counts left, which every player
//! knows), each followed by its best placement.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use carcassonne::{Action, Actor, Game, Player};

use crate::bot::{Bot, BotError, Candidate, Thought, my_actions};
use crate::eval::{Evaluator, Weights};

/// Most decisions of one turn looked through (a turn rarely has more than four of its owner's).
const MAX_DEPTH: u32 = 8;

/// The search over one's own turn, shared by `greedy` and by `mcts` for its priors.
#[derive(Clone, Debug, Default)]
pub struct TurnSearch {
    /// The evaluation at the end of the turn.
    pub eval: Evaluator,
    bufs: Vec<Vec<Action>>,
}

impl TurnSearch {
    /// A turn search with these evaluation constants.
    pub fn new(weights: Weights) -> TurnSearch {
        TurnSearch { eval: Evaluator::new(weights), bufs: Vec::new() }
    }

    /// The value for `me` (an expected point margin) of each legal action at `game`'s pending decision, which must
    /// be `me`'s, looking through the rest of `me`'s turn. `game` should be a determinization of `me`'s view.
    pub fn action_values(&mut self, game: &Game, me: Player, legal: &[Action]) -> Vec<f32> {
        let mut child = game.clone();
        legal
            .iter()
            .map(|&a| {
                child.clone_from(game);
                child.apply_unchecked(a);
                self.value(&child, me, true, 1)
            })
            .collect()
    }

    /// The value of a position for `me`: the best continuation while `me` decides, else the evaluation.
    fn value(&mut self, g: &Game, me: Player, may_draw: bool, depth: u32) -> f32 {
        if g.is_over() || depth >= MAX_DEPTH {
            return self.eval.margin(g, me);
        }
        match g.decision().actor {
            Actor::Player(p) if p == me => {
                let mut legal = self.bufs.pop().unwrap_or_default();
                g.legal_actions_into(&mut legal);
                let mut best = f32::MIN;
                let mut child = g.clone();
                for &a in &legal {
                    child.clone_from(g);
                    child.apply_unchecked(a);
                    best = best.max(self.value(&child, me, may_draw, depth + 1));
                }
                self.bufs.push(legal);
                if best == f32::MIN { self.eval.margin(g, me) } else { best }
            }
            // `me` chose to draw instead of placing an abbey or a triangle: the expectation over the draw.
            Actor::Chance if may_draw && g.active_player() == me => {
                let outcomes = g.chance_outcomes();
                let total: u32 = outcomes.iter().map(|(_, c)| c).sum();
                let mut sum = 0.0;
                let mut child = g.clone();
                for (k, c) in outcomes {
                    child.clone_from(g);
                    child.apply_unchecked(Action::Draw(k));
                    sum += c as f32 * self.value(&child, me, false, depth + 1);
                }
                sum / total.max(1) as f32
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

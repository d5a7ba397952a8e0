//! `random`: uniform over the legal actions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use carcassonne::{Game, Player};

use crate::bot::{Bot, BotError, Thought, my_actions};

/// Chooses uniformly among the legal actions.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random player with its own generator.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn think(&mut self, game: &Game, me: Player) -> Result<Thought, BotError> {
        let legal = my_actions(game, me)?;
        Ok(Thought::only(legal[self.rng.random_range(0..legal.len())]))
    }
}

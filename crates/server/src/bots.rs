//! A bounded pool of blocking threads for the bots' thinking, kept off the async runtime's workers.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use carcassonne::{Action, Game, Player};
use carcassonne_ai::BotError;
use tokio::sync::oneshot;

type Job = Box<dyn FnOnce() + Send>;

/// Worker threads that run bots; at most `threads` decisions are thought about at once, the others queue.
#[derive(Debug)]
pub(crate) struct BotPool {
    jobs: Mutex<mpsc::Sender<Job>>,
    threads: usize,
}

impl BotPool {
    /// A pool of `threads` workers (at least one).
    pub(crate) fn new(threads: usize) -> BotPool {
        let threads = threads.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx = Arc::clone(&rx);
            std::thread::Builder::new()
                .name(format!("bot-{i}"))
                .spawn(move || {
                    loop {
                        // The lock is held only while waiting for the next job.
                        let job = match rx.lock() {
                            Ok(r) => r.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                })
                .expect("the operating system starts a bot thread");
        }
        BotPool { jobs: Mutex::new(tx), threads }
    }

    /// How many workers.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// Let `bot` choose `seat`'s action in `game` on a worker; the answer comes back through the receiver (which
    /// reports a closed channel if the worker failed).
    pub(crate) fn think(
        &self,
        bot: crate::SharedBot,
        game: Game,
        seat: Player,
    ) -> oneshot::Receiver<Result<Action, BotError>> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            let choice = match bot.lock() {
                Ok(mut b) => b.choose(&game, seat),
                Err(_) => Err(BotError::NoLegalAction),
            };
            let _ = tx.send(choice);
        });
        if let Ok(jobs) = self.jobs.lock() {
            let _ = jobs.send(job);
        }
        rx
    }

    /// Let a fresh bot think for `seat` and report everything it weighed (a hint for a person).
    pub(crate) async fn hint(
        &self,
        mut bot: Box<dyn carcassonne_ai::Bot>,
        game: Game,
        seat: Player,
    ) -> Result<carcassonne_ai::Thought, crate::error::ApiError> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(bot.think(&game, seat));
        });
        if let Ok(jobs) = self.jobs.lock() {
            let _ = jobs.send(job);
        }
        match rx.await {
            Ok(Ok(t)) => Ok(t),
            Ok(Err(e)) => Err(crate::error::ApiError::Illegal(e.to_string())),
            Err(_) => Err(crate::error::ApiError::Unavailable("the bot thread failed".into())),
        }
    }
}

//! The bots' thinking, on threads of its own, kept off the async runtime's workers.
//!
//! Two pools. The seats' bots share `threads` workers fed by two lanes: decisions in games where a person sits come
//! first, games of bots only take what is left, and each game has at most one decision queued or thinking at a time
//! (the server's `thinking` flag), so no game can take the whole pool and a person's opponent is never queued behind
//! a hundred bot games. Hints have one worker of their own and a short queue: when it is full, a hint is refused at
//! once (429) instead of waiting.
//!
//! A bot that panics fails only its own decision: the worker catches the panic, reports it, and goes on with the
//! next job, so the pool stays whole.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex};

use carcassonne::{Action, Game, Player};
use carcassonne_ai::{BotError, Thought};
use tokio::sync::oneshot;

use crate::error::ApiError;

type Job = Box<dyn FnOnce() + Send>;

/// Why a bot gave no action.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ThinkError {
    /// The bot said why.
    #[error("{0}")]
    Bot(#[from] BotError),
    /// The bot panicked (a defect): its decision failed, its worker goes on.
    #[error("the bot failed: {0}")]
    Panicked(String),
    /// The pool is shutting down.
    #[error("the bot pool is gone")]
    Gone,
}

/// Which lane a seat's decision waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lane {
    /// A game with a person at the table: served first.
    People,
    /// A game of bots only.
    Bots,
}

#[derive(Default)]
struct Queues {
    people: VecDeque<Job>,
    bots: VecDeque<Job>,
}

/// Jobs waiting, and the workers' wake-up call.
struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
}

impl Shared {
    fn next(&self, lanes: usize) -> Option<Job> {
        let mut q = self.queues.lock().ok()?;
        loop {
            if let Some(j) = q.people.pop_front() {
                return Some(j);
            }
            if lanes > 1
                && let Some(j) = q.bots.pop_front()
            {
                return Some(j);
            }
            q = self.ready.wait(q).ok()?;
        }
    }
}

/// A panic's message, for the log.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

fn worker(name: String, shared: Arc<Shared>, lanes: usize) -> std::io::Result<()> {
    std::thread::Builder::new().name(name).spawn(move || {
        while let Some(job) = shared.next(lanes) {
            // Jobs catch their own panics (they report them); this is the last guard, so the thread never dies.
            let _ = catch_unwind(AssertUnwindSafe(job));
        }
    })?;
    Ok(())
}

/// The bots' workers and the hints' worker.
pub(crate) struct BotPool {
    shared: Arc<Shared>,
    threads: usize,
    hints: Mutex<std::sync::mpsc::SyncSender<Job>>,
}

impl std::fmt::Debug for BotPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotPool").field("threads", &self.threads).finish_non_exhaustive()
    }
}

/// Run `f`, turning a panic into [`ThinkError::Panicked`].
fn guarded<T>(f: impl FnOnce() -> Result<T, BotError>) -> Result<T, ThinkError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(ThinkError::Bot),
        Err(p) => Err(ThinkError::Panicked(panic_text(p.as_ref()))),
    }
}

impl BotPool {
    /// `threads` workers for the seats (at least one; with two or more, one of them serves only games with a
    /// person), and one for hints with `hint_queue` places.
    ///
    /// # Errors
    /// When the operating system does not start a thread.
    pub(crate) fn new(threads: usize, hint_queue: usize) -> std::io::Result<BotPool> {
        let threads = threads.max(1);
        let shared = Arc::new(Shared { queues: Mutex::new(Queues::default()), ready: Condvar::new() });
        for i in 0..threads {
            // Worker 0 keeps to people's games when there is more than one worker.
            let lanes = if i == 0 && threads > 1 { 1 } else { 2 };
            worker(format!("bot-{i}"), Arc::clone(&shared), lanes)?;
        }
        let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(hint_queue.max(1));
        std::thread::Builder::new().name("hints".into()).spawn(move || {
            while let Ok(job) = rx.recv() {
                let _ = catch_unwind(AssertUnwindSafe(job));
            }
        })?;
        Ok(BotPool { shared, threads, hints: Mutex::new(tx) })
    }

    /// How many workers the seats have.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// How many seat decisions wait, by lane (people, bots).
    pub(crate) fn queued(&self) -> (usize, usize) {
        self.shared.queues.lock().map(|q| (q.people.len(), q.bots.len())).unwrap_or((0, 0))
    }

    /// Let `bot` choose `seat`'s action in `game` on a worker. A bot that panicked is replaced by a fresh one built
    /// by `rebuild` (its state is not trusted after a panic), and the decision fails with
    /// [`ThinkError::Panicked`].
    pub(crate) async fn think(
        &self,
        lane: Lane,
        bot: crate::SharedBot,
        rebuild: impl FnOnce() -> Box<dyn carcassonne_ai::Bot> + Send + 'static,
        game: Game,
        seat: Player,
    ) -> Result<Action, ThinkError> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            let mut b = match bot.lock() {
                Ok(b) => b,
                Err(poisoned) => poisoned.into_inner(),
            };
            let choice = guarded(|| b.choose(&game, seat));
            if matches!(choice, Err(ThinkError::Panicked(_))) {
                *b = rebuild();
            }
            let _ = tx.send(choice);
        });
        if let Ok(mut q) = self.shared.queues.lock() {
            match lane {
                Lane::People => q.people.push_back(job),
                Lane::Bots => q.bots.push_back(job),
            }
        }
        self.shared.ready.notify_all();
        rx.await.unwrap_or(Err(ThinkError::Gone))
    }

    /// Let a fresh bot think for `seat` on the hints' worker and report everything it weighed. 429 at once when the
    /// hints' queue is full.
    pub(crate) async fn hint(
        &self,
        mut bot: Box<dyn carcassonne_ai::Bot>,
        game: Game,
        seat: Player,
    ) -> Result<Thought, ApiError> {
        let (tx, rx) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = tx.send(guarded(|| bot.think(&game, seat)));
        });
        let sent = match self.hints.lock() {
            Ok(h) => h.try_send(job),
            Err(_) => return Err(ApiError::Unavailable("the hints' worker is gone".into())),
        };
        if sent.is_err() {
            return Err(ApiError::Busy("the server is working out too many hints: try again in a moment".into()));
        }
        match rx.await {
            Ok(Ok(t)) => Ok(t),
            Ok(Err(ThinkError::Bot(e))) => Err(ApiError::Illegal(e.to_string())),
            Ok(Err(e)) => {
                tracing::error!(error = %e, "a hint failed");
                Err(ApiError::Internal("the hint could not be worked out".into()))
            }
            Err(_) => Err(ApiError::Unavailable("the hints' worker is gone".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::Setup;

    /// A bot that panics on its first decision only.
    struct Fragile(bool);

    impl carcassonne_ai::Bot for Fragile {
        fn name(&self) -> String {
            "fragile".into()
        }
        fn think(&mut self, game: &Game, _: Player) -> Result<Thought, BotError> {
            if !self.0 {
                self.0 = true;
                panic!("fragile bot");
            }
            Ok(Thought::only(game.legal_actions()[0]))
        }
    }

    #[tokio::test]
    async fn a_panicking_bot_fails_its_decision_and_the_pool_stays_whole() {
        let pool = BotPool::new(1, 1).unwrap();
        let game = Game::new(&Setup::new(2)).unwrap();
        let mut g = game.clone();
        let draw = g.next_draw().unwrap();
        g.apply(Action::Draw(draw)).unwrap();
        for round in 0..3 {
            let bot: crate::SharedBot = Arc::new(std::sync::Mutex::new(Box::new(Fragile(false))));
            let rebuilt = || Box::new(Fragile(true)) as Box<dyn carcassonne_ai::Bot>;
            let r = pool.think(Lane::People, Arc::clone(&bot), rebuilt, g.clone(), Player(0)).await;
            assert!(matches!(r, Err(ThinkError::Panicked(_))), "round {round}: {r:?}");
            // The one worker is still there, and the bot was replaced by a sound one.
            let r = pool.think(Lane::Bots, bot, rebuilt, g.clone(), Player(0)).await;
            assert!(r.is_ok(), "round {round}: {r:?}");
        }
        let r = pool.hint(Box::new(Fragile(false)), g.clone(), Player(0)).await;
        assert!(matches!(r, Err(ApiError::Internal(_))), "{r:?}");
        let r = pool.hint(Box::new(Fragile(true)), g, Player(0)).await;
        assert!(r.is_ok(), "the hints' worker survived: {r:?}");
    }
}

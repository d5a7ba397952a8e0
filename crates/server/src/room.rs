//! One game on the server, without I/O: its seats, its action log and the engine's game, the draws the server makes,
//! take-back and confirmation, and what each seat (or a spectator) may see.
//!
//! The log is the truth. Every entry is an action in record notation; the state is the setup replayed through the
//! log, and everything else here (which actions may be taken back, whether the turn waits for a confirmation) is
//! worked out from the log and the one stored number `confirmed`, so a restarted server computes the same.
//!
//! Take-back: the active player may take back their own actions of the current turn, one at a time, until they
//! confirm the turn. Never past a *barrier*: a draw, another seat's action, an action that revealed hidden
//! information (a triangle from the hand, a tile put under a hill, a reshuffle) or ended the game. When the turn is
//! over and there is something left to take back, the server holds the next draw (or the next player's turn) until
//! the seat confirms; bots and seats that ask for it confirm at once.

use carcassonne::catalogue::Shape;
use carcassonne::report::{event_json, view_json_for};
use carcassonne::{Action, Actor, Event, Game, Player, Setup, SetupError};
use carcassonne_ai::BotSpec;
use serde_json::{Value, json};

use crate::views::{RoomView, SeatView};

/// A seat at the table.
#[derive(Clone, Debug)]
pub(crate) struct Seat {
    /// Shown to everyone.
    pub name: String,
    /// The bot playing the seat, or `None` for a person.
    pub bot: Option<BotSpec>,
    /// A person's seat waiting for someone to join from the lobby (it has no token yet).
    pub open: bool,
    /// SHA-256 of the seat's token, hex (people only).
    pub token_hash: Option<String>,
    /// Confirm this seat's turns at once (no take-back).
    pub auto_confirm: bool,
    /// Its colour, a name of [`COLOURS`].
    pub colour: &'static str,
}

/// The colours a seat may have, in the order seats get them by default.
pub(crate) const COLOURS: [&str; 6] = ["red", "blue", "green", "yellow", "black", "purple"];

/// A colour by name, or `None` for an unknown one.
pub(crate) fn colour(name: &str) -> Option<&'static str> {
    COLOURS.iter().copied().find(|c| c.eq_ignore_ascii_case(name.trim()))
}

impl Seat {
    /// Whether the seat's turns are confirmed without waiting.
    fn confirms_at_once(&self) -> bool {
        self.bot.is_some() || self.auto_confirm
    }
}

/// One action of the log.
#[derive(Clone, Debug)]
struct Entry {
    /// In canonical record notation.
    text: String,
    /// Who took it (chance for the draws the server made).
    actor: Actor,
    /// Its events, as everyone may see them.
    events: Vec<Value>,
}

/// Why a seat's action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ActError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The pending decision is another seat's (or the turn waits for another seat's confirmation).
    #[error("it is not your decision: {0}")]
    NotYours(String),
    /// The seat must confirm its turn, or take back, before anything else happens.
    #[error("your turn is over: confirm it, or take back")]
    Unconfirmed,
    /// The text is not an action.
    #[error("{0}")]
    Malformed(String),
    /// The engine refused the action.
    #[error("{0}")]
    Illegal(String),
    /// Nothing to take back or confirm.
    #[error("{0}")]
    Nothing(String),
}

/// What a change did: the entries added (first version, texts) or removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    /// The version before the change.
    pub from: usize,
    /// The actions added, in order (empty for a take-back or a confirmation without draw).
    pub added: Vec<String>,
    /// Whether this was a take-back (the version went down).
    pub took_back: bool,
}

/// A copy of the mutable parts, to put back when storing a change failed.
#[derive(Debug)]
pub(crate) struct Saved {
    len: usize,
    /// The last entry: the one a take-back removes.
    last: Option<Entry>,
    game: Game,
    snapshot: (usize, Game),
    confirmed: usize,
    auto_confirm: Vec<bool>,
}

/// A game on the server.
#[derive(Clone, Debug)]
pub(crate) struct Room {
    /// The game's id.
    pub id: String,
    /// Unix seconds.
    pub created_at: i64,
    /// The setup, seed included.
    pub setup: Setup,
    /// One per player, in seat order.
    pub seats: Vec<Seat>,
    entries: Vec<Entry>,
    game: Game,
    /// The game after the first `snapshot.0` entries: the last barrier, where a take-back restarts from.
    snapshot: (usize, Game),
    /// The version the last turn was confirmed at.
    confirmed: usize,
    /// Nobody changed it for too long (`--abandon-after`): it is over as it stands.
    pub abandoned: bool,
}

impl Room {
    /// A new game. The draws that start it are made at once.
    pub(crate) fn new(id: String, created_at: i64, setup: Setup, seats: Vec<Seat>) -> Result<Room, SetupError> {
        let mut room = Room::empty(id, created_at, setup, seats)?;
        room.settle();
        Ok(room)
    }

    /// A game with nothing played yet (not even the opening draws).
    fn empty(id: String, created_at: i64, setup: Setup, seats: Vec<Seat>) -> Result<Room, SetupError> {
        let game = Game::new(&setup)?;
        Ok(Room {
            id,
            created_at,
            setup,
            seats,
            entries: Vec::new(),
            snapshot: (0, game.clone()),
            game,
            confirmed: 0,
            abandoned: false,
        })
    }

    /// A stored game, replayed through its log. `confirmed` is the stored confirmation version.
    pub(crate) fn restore(
        id: String,
        created_at: i64,
        setup: Setup,
        seats: Vec<Seat>,
        actions: &[String],
        confirmed: usize,
    ) -> Result<Room, String> {
        let mut room = Room::empty(id, created_at, setup, seats).map_err(|e| format!("setup: {e}"))?;
        for (i, text) in actions.iter().enumerate() {
            let a = room.game.parse_action(text).map_err(|e| format!("action {} `{text}`: {}", i + 1, e.reason))?;
            let actor = room.game.decision().actor;
            room.push(actor, a).map_err(|e| format!("action {} `{text}`: {e}", i + 1))?;
            if i + 1 == confirmed {
                room.seal();
                room.confirmed = confirmed;
            }
        }
        Ok(room)
    }

    /// A game brought in from a record (its setup and actions as they are): nothing of it can be taken back, and the
    /// draws it is waiting for are made.
    pub(crate) fn import(
        id: String,
        created_at: i64,
        setup: Setup,
        seats: Vec<Seat>,
        actions: &[String],
    ) -> Result<Room, String> {
        let mut room = Room::restore(id, created_at, setup, seats, actions, 0)?;
        room.seal();
        room.confirmed = room.version();
        room.settle();
        Ok(room)
    }

    /// The number of actions so far.
    pub(crate) fn version(&self) -> usize {
        self.entries.len()
    }

    /// The engine's game.
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// The confirmation version to store.
    pub(crate) fn confirmed(&self) -> usize {
        self.confirmed
    }

    /// Every action so far, in notation.
    pub(crate) fn actions(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.text.as_str())
    }

    /// `running` or `finished`.
    pub(crate) fn status(&self) -> &'static str {
        if self.game.is_over() {
            "finished"
        } else if self.abandoned {
            "abandoned"
        } else {
            "running"
        }
    }

    /// The seat that may take back the last action, if any.
    pub(crate) fn take_back_seat(&self) -> Option<Player> {
        if self.entries.len() <= self.snapshot.0 {
            return None;
        }
        match self.entries.last()?.actor {
            Actor::Player(p) => Some(p),
            _ => None,
        }
    }

    /// The seat whose turn is over but not yet confirmed: until it confirms (or takes back), nothing else happens.
    pub(crate) fn awaiting(&self) -> Option<Player> {
        let s = self.take_back_seat()?;
        if self.confirmed >= self.version() {
            return None;
        }
        let turn_over = match self.game.decision().actor {
            Actor::Chance => true,
            Actor::Player(q) => q != s && self.game.active_player() != s,
            Actor::Nobody => false,
        };
        turn_over.then_some(s)
    }

    /// The seat to decide now, if it is a person's or a bot's decision that may be taken (not held).
    pub(crate) fn to_decide(&self) -> Option<Player> {
        if self.awaiting().is_some() || self.abandoned {
            return None;
        }
        match self.game.decision().actor {
            Actor::Player(p) => Some(p),
            _ => None,
        }
    }

    /// Keep what a failed store must restore.
    pub(crate) fn save(&self) -> Saved {
        Saved {
            len: self.entries.len(),
            last: self.entries.last().cloned(),
            game: self.game.clone(),
            snapshot: self.snapshot.clone(),
            confirmed: self.confirmed,
            auto_confirm: self.seats.iter().map(|s| s.auto_confirm).collect(),
        }
    }

    /// Put back what [`Room::save`] kept (the change could not be stored): the room is exactly as it was.
    pub(crate) fn undo(&mut self, saved: Saved) {
        self.entries.truncate(saved.len);
        if self.entries.len() + 1 == saved.len
            && let Some(last) = saved.last
        {
            // A take-back removed one entry.
            self.entries.push(last);
        }
        debug_assert_eq!(self.entries.len(), saved.len, "a change adds actions or takes back one");
        self.game = saved.game;
        self.snapshot = saved.snapshot;
        self.confirmed = saved.confirmed;
        for (s, on) in self.seats.iter_mut().zip(saved.auto_confirm) {
            s.auto_confirm = on;
        }
    }

    /// `seat` takes `text`. On success the log has grown by the action and any draws that follow it.
    pub(crate) fn act(&mut self, seat: Player, text: &str) -> Result<Change, ActError> {
        let from = self.version();
        if self.game.is_over() || self.abandoned {
            return Err(ActError::GameOver);
        }
        if let Some(w) = self.awaiting() {
            return Err(if w == seat {
                ActError::Unconfirmed
            } else {
                ActError::NotYours(format!("waiting for {w} to confirm their turn"))
            });
        }
        match self.game.decision().actor {
            Actor::Player(p) if p == seat => {}
            Actor::Player(p) => return Err(ActError::NotYours(format!("{p} is to decide"))),
            _ => return Err(ActError::NotYours("nobody is to decide".into())),
        }
        let a = self.game.parse_action(text).map_err(|e| ActError::Malformed(format!("`{text}`: {}", e.reason)))?;
        self.push(Actor::Player(seat), a).map_err(ActError::Illegal)?;
        self.settle();
        Ok(self.change_since(from))
    }

    /// `seat` takes back its last action.
    pub(crate) fn take_back(&mut self, seat: Player) -> Result<Change, ActError> {
        let from = self.version();
        if self.abandoned {
            return Err(ActError::GameOver);
        }
        match self.take_back_seat() {
            Some(s) if s == seat => {}
            Some(s) => return Err(ActError::NotYours(format!("only {s} may take back now"))),
            // Past a draw (or another barrier) nothing may be taken back; but the last action being another seat's,
            // it is not this seat's to take back in any case (403, as the docs say), only its own past a barrier
            // are "nothing to take back" (422).
            None => {
                let last = self.entries.iter().rev().find_map(|e| match e.actor {
                    Actor::Player(p) => Some(p),
                    _ => None,
                });
                return Err(match last {
                    Some(p) if p != seat => {
                        ActError::NotYours(format!("the last action is {p}'s, not yours to take back"))
                    }
                    _ => ActError::Nothing("there is nothing to take back".into()),
                });
            }
        }
        self.entries.pop();
        let mut game = self.snapshot.1.clone();
        for e in &self.entries[self.snapshot.0..] {
            let a = game.parse_action(&e.text).expect("the log replays");
            game.apply(a).expect("the log replays");
        }
        self.game = game;
        Ok(Change { from, added: Vec::new(), took_back: true })
    }

    /// `seat` confirms its turn: the draws that waited for it are made.
    pub(crate) fn confirm(&mut self, seat: Player) -> Result<Change, ActError> {
        let from = self.version();
        if self.abandoned {
            return Err(ActError::GameOver);
        }
        match self.awaiting() {
            Some(s) if s == seat => {}
            Some(s) => return Err(ActError::NotYours(format!("{s} is to confirm"))),
            None => return Err(ActError::Nothing("there is nothing to confirm".into())),
        }
        self.seal();
        self.confirmed = self.version();
        self.settle();
        Ok(self.change_since(from))
    }

    /// A seat switches confirming at once on or off; switching it on confirms a turn that waits for the seat.
    pub(crate) fn set_auto_confirm(&mut self, seat: Player, on: bool) -> Change {
        let from = self.version();
        self.seats[seat.index()].auto_confirm = on;
        self.settle();
        self.change_since(from)
    }

    fn change_since(&self, from: usize) -> Change {
        Change { from, added: self.entries[from..].iter().map(|e| e.text.clone()).collect(), took_back: false }
    }

    /// Nothing so far may be taken back.
    fn seal(&mut self) {
        if self.snapshot.0 != self.entries.len() {
            self.snapshot = (self.entries.len(), self.game.clone());
        }
    }

    /// Make the server's moves: confirm for the seats that confirm at once, and draw while nothing holds the draw.
    fn settle(&mut self) {
        loop {
            if let Some(s) = self.awaiting() {
                if !self.seats[s.index()].confirms_at_once() {
                    return;
                }
                self.seal();
                self.confirmed = self.version();
            }
            if self.game.decision().actor != Actor::Chance {
                return;
            }
            let Some(k) = self.game.next_draw() else { return };
            self.push(Actor::Chance, Action::Draw(k)).expect("the next draw is legal");
        }
    }

    /// Apply `a` by `actor` and log it, with its events and whether it is a barrier.
    fn push(&mut self, actor: Actor, a: Action) -> Result<(), String> {
        let active = self.game.active_player();
        // Another seat's action ends what the previous one may take back.
        if let Actor::Player(p) = actor
            && self.take_back_seat().is_some_and(|s| s != p)
        {
            self.seal();
        }
        let text = self.game.action_text(a);
        // What the seat did, for the log: the action with its parts named, on the board as it was before it. A draw
        // is chance's and says nothing a scoring or the next view does not.
        let played = match actor {
            Actor::Player(p) => Some(json!({
                "action": self.entries.len() + 1,
                "type": "played",
                "by": p.to_string(),
                "move": carcassonne::report::action_view(&self.game, a),
            })),
            _ => None,
        };
        // A triangle from the hand showed a hidden tile (D-54).
        let triangle = match a {
            Action::PlaceTriangle { .. } => true,
            Action::Place { tile, .. } => self.game.catalogue().def(tile).shape == Shape::Triangle,
            _ => false,
        };
        self.game.apply(a).map_err(|e| e.to_string())?;
        let n = self.entries.len() + 1;
        let revealing = self.game.last_events().iter().any(|e| match e {
            Event::UnderHill { .. } | Event::SetAside { .. } | Event::PutBack { .. } | Event::Discarded { .. } => true,
            Event::Volcano { reshuffled, .. } => *reshuffled > 0,
            _ => false,
        });
        let events =
            played.into_iter().chain(self.game.last_events().iter().map(|e| public_event(&self.game, n, e))).collect();
        let barrier = match actor {
            Actor::Player(p) => p != active || triangle || revealing || self.game.is_over(),
            _ => true,
        };
        self.entries.push(Entry { text, actor, events });
        if barrier {
            self.seal();
        }
        Ok(())
    }

    /// The public events from version `from` on.
    pub(crate) fn events_since(&self, from: usize) -> Vec<Value> {
        self.entries.iter().skip(from).flat_map(|e| e.events.iter().cloned()).collect()
    }

    /// The setup as everyone may see it: without the seed, a forced stack order or forced hands.
    pub(crate) fn public_setup(&self) -> Value {
        let mut v = serde_json::to_value(&self.setup).unwrap_or(Value::Null);
        if let Some(o) = v.as_object_mut() {
            for hidden in ["seed", "draw_order", "hands"] {
                o.remove(hidden);
            }
        }
        v
    }

    /// The seats as everyone may see them.
    pub(crate) fn public_seats(&self) -> Vec<SeatView> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatView::new(i, &s.name, s.bot.as_ref().map(|b| b.to_string()), s.open, Some(s.colour)))
            .collect()
    }

    /// What `seat` sees (`None`: a spectator).
    pub(crate) fn view(&self, seat: Option<Player>) -> RoomView {
        let mut game = game_view(&self.game, seat);
        let awaiting = self.awaiting();
        if awaiting.is_some() {
            // The turn is held: nobody decides until it is confirmed.
            game["legal"] = json!([]);
            game["actions"] = json!([]);
        }
        RoomView {
            id: self.id.clone(),
            version: self.version(),
            status: self.status(),
            seat: seat.map(|p| p.to_string()),
            seats: self.public_seats(),
            setup: self.public_setup(),
            created_at: self.created_at,
            awaiting_confirmation: awaiting.map(|p| p.to_string()),
            can_take_back: seat.is_some() && self.take_back_seat() == seat,
            can_confirm: seat.is_some() && awaiting == seat,
            auto_confirm: seat.map(|p| self.seats[p.index()].auto_confirm),
            if_ended: self.if_ended(),
            game,
        }
    }

    /// What each seat would have if the game ended now, while it runs.
    pub(crate) fn if_ended(&self) -> Option<crate::standing::IfEnded> {
        if self.status() != "running" {
            return None;
        }
        let actions: Vec<&str> = self.actions().collect();
        crate::standing::if_ended(&self.setup, &actions)
    }

    /// The record: complete (seed included) once the game is over; while it runs, without what is hidden.
    pub(crate) fn record(&self) -> Value {
        let setup = if self.game.is_over() {
            serde_json::to_value(&self.setup).unwrap_or(Value::Null)
        } else {
            self.public_setup()
        };
        json!({
            "format": carcassonne::record::RECORD_FORMAT,
            "setup": setup,
            "actions": self.entries.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(),
        })
    }
}

/// An event as everyone may see it: the tile a hill takes out of play stays face down.
fn public_event(g: &Game, n: usize, e: &Event) -> Value {
    let mut v = event_json(g, n, e);
    if matches!(e, Event::UnderHill { .. })
        && let Some(o) = v.as_object_mut()
    {
        o.remove("tile");
    }
    v
}

/// The engine's view for `seat` (or a spectator) and the tiles not yet seen, by kind: the stack and the tiles
/// under hills (their counts are public: a player could keep them; their order and which went under a hill are not).
pub(crate) fn game_view(g: &Game, seat: Option<Player>) -> Value {
    let mut v = view_json_for(g, seat);
    v["features"] = carcassonne::report::features_json(g);
    let mut counts = vec![0u32; g.catalogue().len()];
    for (k, n) in g.chance_outcomes() {
        counts[k.0 as usize] += n;
    }
    for k in g.out_of_play() {
        if g.catalogue().def(*k).shape != Shape::Triangle {
            counts[k.0 as usize] += 1;
        }
    }
    v["tiles_left"] = counts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| json!({ "tile": g.catalogue().def(carcassonne::TileKind(k as u16)).id, "copies": n }))
        .collect();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person() -> Seat {
        Seat { name: "Ana".into(), bot: None, open: false, token_hash: None, auto_confirm: false, colour: "red" }
    }

    fn room(seed: u64) -> Room {
        let mut s = Setup::new(2);
        s.seed = seed;
        Room::new("g".into(), 0, s, vec![person(), person()]).unwrap()
    }

    /// The first legal action of the pending decision.
    fn first(r: &Room) -> String {
        let g = r.game();
        g.action_text(g.legal_actions()[0])
    }

    #[test]
    fn the_server_draws_the_first_tile_and_the_turn_waits_for_confirmation() {
        let mut r = room(1);
        assert_eq!(r.version(), 1, "the first draw is made at once");
        assert!(r.actions().next().unwrap().starts_with("draw "));
        assert_eq!(r.to_decide(), Some(Player(0)));
        let place = first(&r);
        r.act(Player(0), &place).unwrap();
        assert_eq!(r.take_back_seat(), Some(Player(0)));
        assert_eq!(r.awaiting(), None, "phase 2 is still P1's");
        r.act(Player(0), "pass").unwrap();
        assert_eq!(r.awaiting(), Some(Player(0)), "the next draw waits");
        assert_eq!(r.version(), 3);
        assert_eq!(r.act(Player(1), "pass"), Err(ActError::NotYours("waiting for P1 to confirm their turn".into())));
        assert_eq!(r.act(Player(0), "pass"), Err(ActError::Unconfirmed));
        // Take back the pass and the placement; then nothing is left.
        r.take_back(Player(0)).unwrap();
        r.take_back(Player(0)).unwrap();
        assert_eq!(r.version(), 1);
        assert!(matches!(r.take_back(Player(0)), Err(ActError::Nothing(_))), "never past the draw");
        assert_eq!(r.to_decide(), Some(Player(0)));
        r.act(Player(0), &place).unwrap();
        r.act(Player(0), "pass").unwrap();
        let c = r.confirm(Player(0)).unwrap();
        assert_eq!(c.added.len(), 1, "the draw is made on confirmation");
        assert_eq!(r.to_decide(), Some(Player(1)));
        assert!(matches!(r.take_back(Player(0)), Err(ActError::Nothing(_))));
    }

    #[test]
    fn refusals_say_why() {
        let mut r = room(2);
        assert!(matches!(r.act(Player(1), "pass"), Err(ActError::NotYours(_))));
        assert!(matches!(r.act(Player(0), "fly away"), Err(ActError::Malformed(_))));
        assert!(matches!(r.act(Player(0), "place base/D 40,40 r0"), Err(ActError::Illegal(_))));
        assert_eq!(r.version(), 1, "refusals change nothing");
    }

    #[test]
    fn a_restored_room_is_the_same_room() {
        let mut r = room(3);
        let mut rng = 7u64;
        while !r.game().is_over() {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let Some(p) = r.to_decide() else {
                let w = r.awaiting().unwrap();
                if rng >> 62 == 0 {
                    r.take_back(w).unwrap();
                } else {
                    r.confirm(w).unwrap();
                }
                continue;
            };
            let legal = r.game().legal_actions();
            let a = legal[(rng >> 33) as usize % legal.len()];
            let text = r.game().action_text(a);
            r.act(p, &text).unwrap();
            if r.version().is_multiple_of(17) {
                let actions: Vec<String> = r.actions().map(String::from).collect();
                let back =
                    Room::restore("g".into(), 0, r.setup.clone(), r.seats.clone(), &actions, r.confirmed()).unwrap();
                assert_eq!(back.version(), r.version());
                assert_eq!(back.awaiting(), r.awaiting());
                assert_eq!(back.take_back_seat(), r.take_back_seat());
                assert_eq!(back.view(Some(Player(0))), r.view(Some(Player(0))));
            }
        }
        assert_eq!(r.status(), "finished");
        assert_eq!(r.take_back_seat(), None, "the end is a barrier");
        let rec: carcassonne::Record = serde_json::from_value(r.record()).unwrap();
        assert_eq!(rec.replay().unwrap().game.scores(), r.game().scores());
    }

    #[test]
    fn a_view_depends_only_on_what_its_seat_may_see() {
        // Random games with every module: for each seat, the view is the same in every game that seat cannot tell
        // apart from this one (the stack re-ordered, the other hands re-dealt, the tiles under hills swapped).
        use rand::{Rng, SeedableRng};
        let mut differed = 0;
        for seed in 0..4u64 {
            let mut s = Setup::new(3);
            s.seed = seed;
            s.sets = ["base", "am", "pd", "cc", "half"].iter().map(|x| x.to_string()).collect();
            s.switch_on_set_modules(false);
            let seats = vec![person(), person(), person()];
            let mut r = Room::new("g".into(), 0, s, seats).unwrap();
            for p in 0..3 {
                r.seats[p].auto_confirm = true;
            }
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while let Some(p) = r.to_decide() {
                for viewer in (0..3).map(|v| Player(v as u8)) {
                    let mut other = r.game().clone();
                    other.shuffle_hidden(viewer, &mut rng);
                    differed += usize::from(other.next_draw() != r.game().next_draw());
                    assert_eq!(game_view(&other, Some(viewer)), game_view(r.game(), Some(viewer)), "seed {seed}");
                    assert_eq!(game_view(&other, None), game_view(r.game(), None), "seed {seed}");
                }
                let legal = r.game().legal_actions();
                let text = r.game().action_text(legal[rng.random_range(0..legal.len())]);
                r.act(p, &text).unwrap();
            }
            assert!(r.game().is_over());
        }
        assert!(differed > 100, "the hidden parts were hardly ever different ({differed}): the test compared little");
    }
}

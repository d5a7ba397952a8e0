//! What each seat would have if the game ended now, worked out by the engine's own final scoring (the table knows no
//! rules, and the server scores nothing itself: it adds up the points of the engine's events).
//!
//! The engine ends a game when its stack runs out, so the game is played again from its setup through its log with
//! a stack of exactly the tiles drawn so far, in the order they were drawn: nothing is left to draw, and the turn in
//! progress ends as if its player did nothing more (every decision left is passed, END-02's extra turns too). If
//! that cannot be done (a drawn tile waits to be placed, the dragon is flying, a crop circle asks), the game is
//! played again only up to the last draw, the start of the turn. Only what the table already shows goes in (the
//! tiles drawn, the board, the figures); the tiles under hills, face down, were taken from the stack and count the
//! same whichever they are. The ending's points are those of the events the replay has beyond the real game's
//! (every point comes from an event), added to the scores now.

use carcassonne::report::event_json;
use carcassonne::{Action, Actor, Event, Game, Setup};
use serde::Serialize;
use serde_json::Value;

/// The scores if the game ended now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct IfEnded {
    /// The scores, by seat from P1.
    pub scores: Vec<i32>,
    /// The events the ending adds (final scorings, the fairy's points, …), numbered from the action after the last
    /// one played.
    pub events: Vec<Value>,
}

/// The longest run of passes an ending may need (END-02: a round of turns for each figure held, at most).
const MAX_PASSES: usize = 64;

/// `setup` played through `actions` (record notation), then ended as if nothing more were drawn; `None` if the
/// actions do not replay or the ending cannot be reached by passing.
pub(crate) fn if_ended(setup: &Setup, actions: &[&str]) -> Option<IfEnded> {
    work_out(setup, actions).map(|(end, _)| end)
}

/// [`if_ended`], and the replay's own final scores. Every point comes from an event (the fairy's with its own), so
/// the ending's points are those of its events, added to the scores now; the replay's scores can differ from
/// these by what the real game did beyond the ending's replay (the fairy's point at the start of the next turn).
fn work_out(setup: &Setup, actions: &[&str]) -> Option<(IfEnded, Vec<i32>)> {
    let mut game = Game::new(setup).ok()?;
    let n = game.players();
    // The tiles taken from the stack, in order, before each action; where each draw comes; each action's events.
    let mut drawn: Vec<String> = Vec::new();
    let mut drawn_before: Vec<usize> = Vec::with_capacity(actions.len());
    let mut draws: Vec<usize> = Vec::new();
    let mut done: Vec<Vec<Value>> = Vec::with_capacity(actions.len());
    for (i, text) in actions.iter().enumerate() {
        drawn_before.push(drawn.len());
        let a = game.parse_action(text).ok()?;
        if let Action::Draw(k) = a {
            draws.push(i);
            drawn.push(game.catalogue().def(k).id.clone());
        }
        game.apply(a).ok()?;
        for e in game.last_events() {
            match e {
                Event::UnderHill { tile } => drawn.push(game.catalogue().def(*tile).id.clone()),
                // A tile set aside goes back into the stack (DRAGON-02): it is not drawn until drawn again.
                Event::PutBack { tile, .. } => {
                    let id = &game.catalogue().def(*tile).id;
                    if let Some(at) = drawn.iter().position(|d| d == id) {
                        drawn.remove(at);
                    }
                }
                _ => {}
            }
        }
        done.push(public(&game, i + 1));
    }
    let now = game.scores()[..n].to_vec();
    if game.is_over() {
        return Some((IfEnded { scores: now.clone(), events: Vec::new() }, now));
    }
    let ending = |upto: usize, drawn: &[String]| -> Option<(IfEnded, Vec<i32>)> {
        let last = upto.checked_sub(1).map(|k| done[k].as_slice());
        let (events, replayed) = ended_after(setup, &actions[..upto], drawn, last)?;
        let mut scores = now.clone();
        for e in &events {
            let points = e["points"].as_i64().unwrap_or(0) as i32;
            let seats: Vec<&Value> = match e["type"].as_str() {
                Some("scored") => e["winners"].as_array().map(|w| w.iter().collect()).unwrap_or_default(),
                Some("fairy_points") => vec![&e["player"]],
                _ => Vec::new(),
            };
            // `P1`..`P6`.
            let seat = |p: &Value| p.as_str()?.strip_prefix('P')?.parse::<usize>().ok()?.checked_sub(1);
            for i in seats.into_iter().filter_map(seat) {
                if let Some(s) = scores.get_mut(i) {
                    *s += points;
                }
            }
        }
        Some((IfEnded { scores, events }, replayed))
    };
    ending(actions.len(), &drawn).or_else(|| {
        let last = *draws.last()?;
        ending(last, &drawn[..drawn_before[last]])
    })
}

/// `actions` replayed on `setup` with the stack `drawn`, then every decision left passed: the ending's events, and
/// the replay's final scores. `last` are the events of the last action in the real game: the replay's last action
/// does the same first (the stack is all that differs), and what it does beyond that is the ending's.
fn ended_after(
    setup: &Setup,
    actions: &[&str],
    drawn: &[String],
    last: Option<&[Value]>,
) -> Option<(Vec<Value>, Vec<i32>)> {
    let mut s = setup.clone();
    s.draw_order = Some(drawn.to_vec());
    let mut game = Game::new(&s).ok()?;
    for text in actions {
        let a = game.parse_action(text).ok()?;
        game.apply(a).ok()?;
    }
    let mut events: Vec<Value> = Vec::new();
    if let Some(last) = last {
        let mine = public(&game, actions.len());
        let common = mine.iter().zip(last).take_while(|(a, b)| a == b).count();
        events.extend(mine.into_iter().skip(common));
    }
    for _ in 0..MAX_PASSES {
        if game.is_over() {
            return Some((events, game.scores()[..game.players()].to_vec()));
        }
        if !matches!(game.decision().actor, Actor::Player(_)) || !game.is_legal(Action::Pass) {
            return None;
        }
        game.apply(Action::Pass).ok()?;
        events.extend(public(&game, actions.len() + 1));
    }
    None
}

/// The last action's events, numbered `at`, without the tiles put under hills (face down).
fn public(game: &Game, at: usize) -> Vec<Value> {
    let evs = game.last_events().iter().filter(|e| !matches!(e, Event::UnderHill { .. }));
    evs.map(|e| event_json(game, at, e)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::rules::Modules;
    use rand::SeedableRng;

    /// A game of `setup` played by random actions to its end, as a log.
    fn random_log(setup: &Setup, seed: u64) -> Vec<String> {
        let mut game = Game::new(setup).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut buf = Vec::new();
        let mut log = Vec::new();
        while let Some(a) = game.random_action(&mut rng, &mut buf) {
            log.push(game.action_text(a));
            game.apply(a).unwrap();
        }
        log
    }

    fn every_module_but_halflings() -> Setup {
        let mut s = Setup::new(3);
        s.sets = vec!["base".into(), "am".into(), "pd".into(), "cc".into()];
        s.rules.modules = Modules {
            abbey: true,
            mayor: true,
            wagon: true,
            barn: true,
            dragon: true,
            fairy: true,
            princess: true,
            portal: true,
            crop_circles: true,
            halflings: false,
        };
        s
    }

    #[test]
    fn a_finished_game_ends_as_it_ended() {
        let setup = Setup { seed: 3, ..Setup::new(2) };
        let log = random_log(&setup, 3);
        let texts: Vec<&str> = log.iter().map(String::as_str).collect();
        let mut game = Game::new(&setup).unwrap();
        for t in &texts {
            game.apply(game.parse_action(t).unwrap()).unwrap();
        }
        assert!(game.is_over());
        assert_eq!(if_ended(&setup, &texts).unwrap().scores, game.scores());
    }

    /// At every point of a game the ending can be worked out, and it takes nothing away; where nothing of the next
    /// turn has happened yet (no module gives points at its start), it is the replay's own final scores.
    #[test]
    fn an_ending_can_be_worked_out_at_every_point_of_a_game() {
        for (setup, seed, base) in
            [(Setup { seed: 5, ..Setup::new(2) }, 5, true), (every_module_but_halflings(), 7, false)]
        {
            let log = random_log(&setup, seed);
            let texts: Vec<&str> = log.iter().map(String::as_str).collect();
            let mut game = Game::new(&setup).unwrap();
            let mut added_somewhere = false;
            for n in 0..=texts.len() {
                if n > 0 {
                    game.apply(game.parse_action(texts[n - 1]).unwrap()).unwrap();
                }
                let Some((end, replayed)) = work_out(&setup, &texts[..n]) else {
                    panic!("no ending after {n} actions ({:?})", game.decision());
                };
                for (s, now) in end.scores.iter().zip(game.scores()) {
                    assert!(s >= now, "after {n} actions: {:?} against {:?}", end.scores, game.scores());
                }
                if base && game.decision().actor == Actor::Chance {
                    assert_eq!(end.scores, replayed, "after {n} actions");
                }
                added_somewhere |= end.scores[..] != game.scores()[..game.players()];
            }
            assert!(added_somewhere, "some ending scored something");
        }
    }
}

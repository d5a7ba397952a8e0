//! The players choose only legal actions, use only what their seat can see, and are deterministic for a seed and an
//! iteration budget.

use carcassonne::{Action, Actor, Game, Player, Record, Setup};
use carcassonne_ai::arena::play_game;
use carcassonne_ai::{Bot, BotError, BotSpec};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A setup with every module on (and a few rule options varied by the seed).
fn everything(players: u8, seed: u64) -> Setup {
    let mut s = Setup::new(players);
    s.seed = seed;
    s.sets = ["base", "am", "pd", "cc", "half"].map(String::from).to_vec();
    for m in carcassonne::rules::Modules::NAMES {
        s.rules.set(&format!("modules.{m}"), "true").unwrap();
    }
    if seed % 2 == 1 {
        s.rules.set("wagon.movement", "c1").unwrap();
        s.rules.set("dragon.move_timing", "after_scoring").unwrap();
    }
    if seed % 3 == 2 {
        s.rules.set("halflings.setup", "draft").unwrap();
    }
    s
}

/// Play random actions (chance from the stack) for `steps` decisions, stopping early at the end.
fn advance(game: &mut Game, steps: usize, rng: &mut ChaCha8Rng) {
    let mut buf = Vec::new();
    for _ in 0..steps {
        match game.random_action(rng, &mut buf) {
            Some(a) => game.apply_unchecked(a),
            None => break,
        }
    }
}

/// Advance to the next decision a player takes (chance draws from the stack).
fn to_player_decision(game: &mut Game) -> Option<Player> {
    loop {
        match game.decision().actor {
            Actor::Player(p) => return Some(p),
            Actor::Chance => game.apply(Action::Draw(game.next_draw()?)).unwrap(),
            Actor::Nobody => return None,
        }
    }
}

fn spec(s: &str) -> BotSpec {
    s.parse().unwrap()
}

#[test]
fn every_bot_chooses_legal_actions_in_random_positions_of_every_module() {
    let specs = [
        spec("random"),
        spec("greedy"),
        spec("mcts:iterations=40"),
        spec("mcts:iterations=8,opponents=greedy"),
        spec("easy"),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut asked = 0;
    for seed in 0..24u64 {
        let players = [2, 3, 4, 6][seed as usize % 4];
        let setup = everything(players, seed);
        let mut game = Game::new(&setup).unwrap();
        let horizon = rng.random_range(0..400);
        advance(&mut game, horizon, &mut rng);
        let Some(p) = to_player_decision(&mut game) else { continue };
        for (i, s) in specs.iter().enumerate() {
            let mut bot = s.build(seed * 10 + i as u64);
            let a = bot.choose(&game, p).unwrap_or_else(|e| panic!("{s} at seed {seed}: {e}"));
            assert!(game.is_legal(a), "{s} chose the illegal {} at seed {seed}", game.action_text(a));
            asked += 1;
        }
    }
    assert!(asked >= 60, "only {asked} positions were asked");
}

#[test]
fn whole_games_with_every_module_end_without_errors() {
    for (players, seed) in [(3u8, 1u64), (4, 2), (6, 3)] {
        let setup = everything(players, seed);
        let mut bots: Vec<Box<dyn Bot>> = (0..players as u64)
            .map(|i| match i % 3 {
                0 => spec("greedy").build(i),
                1 => spec("mcts:iterations=25").build(i),
                _ => spec("mcts:iterations=3,opponents=greedy").build(i),
            })
            .collect();
        let r = play_game(&setup, &mut bots, true).unwrap_or_else(|e| panic!("{players} players: {e}"));
        // The record replays to the same scores.
        let replay = r.record.unwrap().replay().unwrap();
        assert!(replay.game.is_over());
        assert_eq!(replay.game.scores(), &r.scores[..]);
    }
}

#[test]
fn a_bot_asked_out_of_turn_says_so() {
    let mut game = Game::new(&Setup::new(2)).unwrap();
    let p = to_player_decision(&mut game).unwrap();
    let other = Player(1 - p.0);
    for s in ["random", "greedy", "mcts:iterations=10"] {
        let e = spec(s).build(1).choose(&game, other).unwrap_err();
        assert_eq!(e, BotError::NotYourDecision { asked: other });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    game.play_random(&mut rng, &mut Vec::new());
    assert_eq!(spec("greedy").build(1).choose(&game, p).unwrap_err(), BotError::GameOver);
}

/// The same choice, candidates and statistics included, for the same bot seed and iteration budget.
fn same_thought(s: &BotSpec, seed: u64, a: &Game, b: &Game, me: Player) {
    let x = s.build(seed).think(a, me).unwrap();
    let y = s.build(seed).think(b, me).unwrap();
    assert_eq!(x.action, y.action, "{s}: another choice");
    let stats =
        |t: &carcassonne_ai::Thought| t.candidates.iter().map(|c| (c.action, c.visits, c.value)).collect::<Vec<_>>();
    assert_eq!(stats(&x), stats(&y), "{s}: other statistics");
}

#[test]
fn hidden_information_changes_nothing_a_seat_cannot_see() {
    // The same visible position with different hidden contents: the stack's order, the other players' triangles,
    // the tiles under a hill and the in-game generator, re-sampled from the seat's view.
    let specs = [
        spec("greedy"),
        spec("mcts:iterations=300"),
        spec("mcts:iterations=300,threads=2"),
        spec("mcts:iterations=40,opponents=greedy"),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut checked = 0;
    for seed in 0..16u64 {
        let setup = everything(2 + (seed % 3) as u8, seed);
        let mut game = Game::new(&setup).unwrap();
        let horizon = rng.random_range(0..300);
        advance(&mut game, horizon, &mut rng);
        let Some(me) = to_player_decision(&mut game) else { continue };
        if game.legal_actions().len() < 2 {
            continue;
        }
        let mut other = game.clone();
        other.shuffle_hidden(me, &mut ChaCha8Rng::seed_from_u64(seed + 1000));
        for s in &specs {
            same_thought(s, seed, &game, &other, me);
        }
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} positions");
}

#[test]
fn the_same_record_under_another_seed_gives_the_same_choice() {
    // A base game's record replayed with another `setup.seed`: the draws are in the record, so the table is the
    // same, but the stack left holds the remaining tiles in another order.
    let mut setup = Setup::new(2);
    setup.seed = 3;
    let mut game = Game::new(&setup).unwrap();
    let mut record = Record::new(setup.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut buf = Vec::new();
    // About 20 turns in, up to and including a draw, so a placement is pending.
    while game.board().tiles().len() < 20 || game.decision().actor != Actor::Chance {
        let a = game.random_action(&mut rng, &mut buf).unwrap();
        record.push(&game, a);
        game.apply_unchecked(a);
    }
    let draw = Action::Draw(game.next_draw().unwrap());
    record.push(&game, draw);
    let a = record.replay().unwrap().game;
    // Another seed whose stack shows another next tile (so the hidden contents surely differ).
    let b = (4..100)
        .find_map(|seed| {
            record.setup.seed = seed;
            let b = record.replay().unwrap().game;
            (b.next_draw() != a.next_draw()).then_some(b)
        })
        .unwrap();
    assert_eq!(a.decision(), b.decision());
    let Actor::Player(me) = a.decision().actor else { panic!("a placement is pending") };
    for s in [spec("greedy"), spec("mcts:iterations=500"), spec("mcts:iterations=500,threads=2")] {
        same_thought(&s, 9, &a, &b, me);
    }
}

#[test]
fn an_iteration_budget_is_deterministic() {
    let setup = everything(3, 4);
    let mut game = Game::new(&setup).unwrap();
    advance(&mut game, 120, &mut ChaCha8Rng::seed_from_u64(4));
    let me = to_player_decision(&mut game).unwrap();
    for s in [spec("mcts:iterations=400"), spec("mcts:iterations=400,threads=2,playout=end")] {
        same_thought(&s, 21, &game, &game, me);
        let t = s.build(21).think(&game, me).unwrap();
        assert_eq!(t.iterations, 400, "{s}");
    }
}

#[test]
fn a_single_legal_answer_takes_no_search() {
    // The first decision of a base game after the draw may have several placements; a phase-2 decision with no
    // meeple left has exactly one: find a position with one legal action.
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for seed in 0..50 {
        let mut s = Setup::new(2);
        s.seed = seed;
        let mut game = Game::new(&s).unwrap();
        advance(&mut game, rng.random_range(0..150), &mut rng);
        let Some(me) = to_player_decision(&mut game) else { continue };
        if game.legal_actions().len() == 1 {
            let t = spec("hard").build(1).think(&game, me).unwrap();
            assert_eq!(t.iterations, 0);
            assert_eq!(t.action, game.legal_actions()[0]);
            return;
        }
    }
    panic!("no position with a single legal answer found");
}

#[test]
fn the_tree_of_a_placement_is_kept_for_the_meeple_that_follows() {
    let mut setup = Setup::new(2);
    setup.seed = 12;
    let mut game = Game::new(&setup).unwrap();
    advance(&mut game, 30, &mut ChaCha8Rng::seed_from_u64(12));
    // The next placement.
    while !matches!(game.decision().kind, carcassonne::DecisionKind::PlaceTile { .. }) {
        let a = game.random_action(&mut ChaCha8Rng::seed_from_u64(1), &mut Vec::new()).unwrap();
        game.apply_unchecked(a);
    }
    let me = to_player_decision(&mut game).unwrap();
    for (s, kept) in [("mcts:iterations=2000", true), ("mcts:iterations=2000,reuse=false", false)] {
        let mut bot = spec(s).build(3);
        let mut g = game.clone();
        let placed = bot.choose(&g, me).unwrap();
        g.apply(placed).unwrap();
        assert_eq!(g.decision().actor, Actor::Player(me), "phase 2 follows");
        let t = bot.think(&g, me).unwrap();
        let visits: u32 = t.candidates.iter().map(|c| c.visits).sum();
        assert_eq!(t.iterations, 2000);
        assert_eq!(visits as u64 > t.iterations, kept, "{s}: {visits} visits after {} iterations", t.iterations);
    }
}

#[test]
fn a_search_stopped_when_decided_plays_what_the_whole_budget_would() {
    // On one thread and without a kept tree, `early` may only save iterations: the most visited action at the stop
    // leads by more than the iterations left, so the whole budget would have played it too.
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let (mut asked, mut saved) = (0, 0);
    for seed in 0..12u64 {
        let setup = if seed % 3 == 2 {
            everything(2, seed)
        } else {
            let mut s = Setup::new(2);
            s.seed = seed;
            s
        };
        let mut game = Game::new(&setup).unwrap();
        advance(&mut game, rng.random_range(0..120), &mut rng);
        let Some(me) = to_player_decision(&mut game) else { continue };
        if game.legal_actions().len() < 2 {
            continue;
        }
        let whole = spec("mcts:iterations=3000,reuse=false").build(seed).think(&game, me).unwrap();
        let early = spec("mcts:iterations=3000,reuse=false,early=true").build(seed).think(&game, me).unwrap();
        assert_eq!(early.action, whole.action, "seed {seed}");
        assert_eq!(whole.iterations, 3000);
        assert!(early.iterations <= 3000);
        let (top, next) = (early.candidates[0].visits, early.candidates.get(1).map_or(0, |c| c.visits));
        if early.iterations < 3000 {
            assert!(u64::from(top - next) > 3000 - early.iterations, "seed {seed}: stopped while undecided");
            saved += 1;
        }
        asked += 1;
    }
    assert!(asked >= 8, "only {asked} positions");
    assert!(saved > 0, "no search stopped early in {asked} positions");
}

#[test]
fn iterations_a_decided_search_left_go_to_later_ones() {
    // With `carry`, a decided search banks what it did not use and an undecided one draws on it: over a game the
    // searches use no more than their budgets in all, and some use more than one budget.
    let mut setup = Setup::new(2);
    setup.seed = 3;
    let mut game = Game::new(&setup).unwrap();
    let mut bot = spec("mcts:iterations=600,early=true,carry=true").build(3);
    let (mut searched, mut used, mut most) = (0u64, 0u64, 0u64);
    while let Some(me) = to_player_decision(&mut game) {
        let t = bot.think(&game, me).unwrap();
        if t.iterations > 0 {
            searched += 1;
            used += t.iterations;
            most = most.max(t.iterations);
            assert!(t.iterations <= 1200, "at most a budget from the bank: {}", t.iterations);
            assert!(used <= 600 * searched, "{used} iterations in {searched} searches");
        }
        game.apply(t.action).unwrap();
    }
    assert!(most > 600, "no search drew on the bank");
}

//! Seeded random games, checking invariants at every step: tiles and meeples conserved, the feature graph consistent
//! with a recomputation, scores never falling, every listed legal action accepted (and its notation read back), a
//! sample of unlisted actions rejected with the game unchanged, and the saved record replaying to the identical state.

use carcassonne::action::CropAction;
use carcassonne::{Action, Actor, Game, Record, Rotation, Setup, Space, TileKind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn tiles_accounted(g: &Game) -> usize {
    let in_hand = matches!(g.decision().kind, carcassonne::DecisionKind::PlaceTile { .. }) as usize;
    let abbeys: usize = (0..g.players()).map(|p| g.abbeys_left(carcassonne::Player(p as u8)) as usize).sum();
    let triangles: usize = (0..g.players()).map(|p| g.hand(carcassonne::Player(p as u8)).len()).sum();
    g.board().tiles().len()
        + g.stack_len()
        + g.discarded()
        + in_hand
        + abbeys
        + g.set_aside().len()
        + triangles
        + g.draft_pool().len()
        + g.out_of_play().len()
}

/// Actions that are probably illegal now: random placements, deployments and draws.
fn candidates(g: &Game, rng: &mut ChaCha8Rng) -> Vec<Action> {
    let tile = TileKind(rng.random_range(0..g.catalogue().len() as u16 + 2));
    let space = Space::new(rng.random_range(-6..=6), rng.random_range(-6..=6));
    let rotation = Rotation::from_index(rng.random_range(0..4));
    let drawn = match g.decision().kind {
        carcassonne::DecisionKind::PlaceTile { tile } => tile,
        _ => tile,
    };
    let meeple = carcassonne::MeepleKind::ALL[rng.random_range(0..3)];
    let segment = carcassonne::SegmentId(rng.random_range(0..g.board().segment_count().max(1)) as u16);
    // A meeple reference: usually one on the board (possibly with the wrong flag or owner), sometimes made up.
    let r = match g.meeples().get(rng.random_range(0..g.meeples().len() + 1)) {
        Some(m) => carcassonne::action::MeepleRef {
            player: if rng.random_bool(0.8) { m.player } else { carcassonne::Player(rng.random_range(0..6)) },
            fairy: if rng.random_bool(0.8) { m.fairy } else { !m.fairy },
            ..m.reference()
        },
        None => carcassonne::action::MeepleRef {
            player: carcassonne::Player(rng.random_range(0..g.players() as u8)),
            kind: meeple,
            segment,
            fairy: false,
        },
    };
    vec![
        Action::Place { tile: drawn, space, rotation },
        Action::Place { tile: TileKind(9999), space, rotation },
        Action::Place { tile, space, rotation },
        Action::Deploy { meeple, segment: rng.random_range(0..12) },
        Action::PlaceBarn { corner: carcassonne::Corner::ALL[rng.random_range(0..4)] },
        Action::MoveWagon {
            segment: carcassonne::SegmentId(rng.random_range(0..g.board().segment_count().max(1)) as u16),
        },
        Action::Draw(tile),
        Action::Pass,
        Action::Portal { meeple, segment },
        Action::MoveDragon(carcassonne::Side::ALL[rng.random_range(0..4)]),
        Action::MoveFairy(r),
        Action::RemoveKnight(r),
        Action::MoveFairyTo(space),
        Action::ChooseCrop(if rng.random_bool(0.5) { CropAction::A } else { CropAction::B }),
        Action::CropAdd { meeple, segment: r.segment },
        Action::CropAdd { meeple, segment },
        Action::CropRemove(r),
        Action::PlaceTriangle {
            tile: g.hand(g.active_player()).first().copied().unwrap_or(tile),
            space,
            corner: carcassonne::Corner::ALL[rng.random_range(0..4)],
        },
        Action::PlaceTriangle { tile, space, corner: carcassonne::Corner::ALL[rng.random_range(0..4)] },
        Action::Pick(tile),
        Action::ChooseCropRole(
            carcassonne::catalogue::CropType::ALL[rng.random_range(0..3)],
            [None, Some(CropAction::A), Some(CropAction::B)][rng.random_range(0..3)],
        ),
    ]
}

fn canonical(g: &Game, a: Action) -> Action {
    match a {
        Action::Place { tile, space, rotation } if (tile.0 as usize) < g.catalogue().len() => {
            Action::Place { tile, space, rotation: g.catalogue().canonical_rotation(tile, rotation) }
        }
        other => other,
    }
}

/// Play one game with uniformly random actions, checking everything; `thorough` tries every legal action.
fn play_checked(setup: &Setup, seed: u64, thorough: bool) -> Game {
    let mut g = Game::new(setup).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut record = Record::new(setup.clone());
    let total = tiles_accounted(&g);
    let mut prev_scores = g.scores().to_vec();
    let mut steps = 0;
    while !g.is_over() {
        steps += 1;
        assert!(steps < 5000, "the game does not end");
        g.audit().unwrap_or_else(|e| panic!("seed {seed}, step {steps}: {e}"));
        spaces_hold_complementary_pairs(&g);
        assert_eq!(tiles_accounted(&g), total, "tiles conserved");
        let legal = g.legal_actions();
        assert!(!legal.is_empty(), "seed {seed}: a pending decision with no legal action");
        let tried: Vec<Action> =
            if thorough { legal.clone() } else { (0..3).map(|_| legal[rng.random_range(0..legal.len())]).collect() };
        for &a in &tried {
            let text = g.action_text(a);
            assert_eq!(g.parse_action(&text), Ok(a), "notation round trip of `{text}`");
            let mut c = g.clone();
            c.apply(a).unwrap_or_else(|e| panic!("seed {seed}: listed action `{text}` refused: {e}"));
        }
        for a in candidates(&g, &mut rng) {
            let listed = legal.contains(&canonical(&g, a));
            assert_eq!(g.is_legal(a), listed, "seed {seed}: is_legal({a:?}) disagrees with the list");
            if !listed {
                let before = g.clone();
                let mut c = g.clone();
                assert!(c.apply(a).is_err(), "seed {seed}: unlisted {a:?} accepted");
                assert!(c == before, "a refused action changed the game");
            }
        }
        let a = match g.decision().actor {
            Actor::Chance => Action::Draw(g.next_draw().unwrap()),
            _ => legal[rng.random_range(0..legal.len())],
        };
        record.push(&g, a);
        g.apply(a).unwrap();
        for (p, s) in g.scores().iter().enumerate() {
            assert!(*s >= prev_scores[p], "a score fell");
        }
        prev_scores = g.scores().to_vec();
    }
    g.audit().unwrap();
    assert_eq!(g.stack_len(), 0);
    assert!(g.legal_actions().is_empty());
    // The record replays to the identical state, through JSON.
    let replayed = Record::from_json(&record.to_json()).unwrap().replay().unwrap();
    assert!(replayed.game == g, "seed {seed}: the replayed game differs");
    g
}

#[test]
fn two_player_base_games_keep_every_invariant() {
    for seed in 0..1500 {
        let mut s = Setup::new(2);
        s.seed = seed;
        play_checked(&s, seed, false);
    }
}

#[test]
fn every_listed_action_is_accepted_in_full_games() {
    for seed in 0..20 {
        let mut s = Setup::new(2 + (seed % 5) as u8);
        s.seed = seed;
        play_checked(&s, seed, true);
    }
}

#[test]
fn more_players_and_the_abbey_and_mayor_land_tiles() {
    for seed in 0..500 {
        let mut s = Setup::new(2 + (seed % 5) as u8);
        s.seed = seed * 7 + 1;
        if seed % 2 == 0 {
            s.sets = vec!["base".into(), "am".into()];
        }
        if seed % 3 == 0 {
            s.rules.set("base.tiny_city_points", "two").unwrap();
        }
        let g = play_checked(&s, seed, false);
        // Every tile of the sets was drawn: placed or discarded.
        let expected = if s.sets.len() == 2 { 84 } else { 72 };
        assert_eq!(g.board().tiles().len() + g.discarded(), expected);
    }
}

fn abbey_mayor(players: u8, seed: u64) -> Setup {
    let mut s = Setup::new(players);
    s.seed = seed;
    s.sets = vec!["base".into(), "am".into()];
    for m in ["abbey", "mayor", "wagon", "barn"] {
        s.rules.set(&format!("modules.{m}"), "true").unwrap();
    }
    s
}

#[test]
fn abbey_and_mayor_games_keep_every_invariant() {
    // Both wagon rules (VAR-03), all three abbey endings (VAR-04), second barns allowed or not (VAR-05).
    let endings = ["continue_until_no_placement", "c1_final_round", "none"];
    for seed in 0..600u64 {
        let mut s = abbey_mayor(2 + (seed % 4) as u8, seed * 13 + 5);
        s.rules.set("wagon.movement", if seed % 2 == 0 { "c2" } else { "c1" }).unwrap();
        s.rules.set("abbey.endgame", endings[(seed % 3) as usize]).unwrap();
        s.rules.set("barn.allow_second_barn", if seed % 5 == 0 { "true" } else { "false" }).unwrap();
        let g = play_checked(&s, seed, seed % 50 == 0);
        assert_eq!(g.board().tiles().len() + g.discarded() + held_abbeys(&g), 84 + g.players());
    }
}

fn held_abbeys(g: &Game) -> usize {
    (0..g.players()).map(|p| g.abbeys_left(carcassonne::Player(p as u8)) as usize).sum()
}

#[test]
fn a_restarted_game_equals_a_new_one() {
    let config = abbey_mayor(3, 0).prepare().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut buf = Vec::new();
    let mut g = Game::from_config(config.clone(), 1);
    for seed in 0..50 {
        g.play_random(&mut rng, &mut buf);
        g.restart(seed);
        assert!(g == Game::from_config(config.clone(), seed), "seed {seed}");
    }
}

#[test]
fn a_game_copied_into_another_is_that_game() {
    // `clone_from` reuses the scratch game's memory: whatever it held before (a longer or a shorter game, another
    // setup), the copy must be the game itself, field for field (Debug shows every field, events included), and
    // must play on the same.
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut buf = Vec::new();
    let mut scratch = Game::new(&Setup::new(2)).unwrap();
    scratch.play_random(&mut rng, &mut buf);
    for seed in 0..6u64 {
        let mut s = princess_dragon(2 + (seed % 3) as u8, seed, seed % 2 == 0);
        if seed >= 3 {
            s = Setup::new(3);
            s.seed = seed;
        }
        let mut g = Game::new(&s).unwrap();
        let mut step = 0;
        while !g.is_over() {
            if step % 3 == 0 {
                scratch.clone_from(&g);
                assert!(scratch == g, "seed {seed} step {step}");
                assert_eq!(format!("{scratch:?}"), format!("{g:?}"), "seed {seed} step {step}");
                assert_eq!(scratch.legal_actions(), g.legal_actions());
            }
            let Some(a) = g.random_action(&mut rng, &mut buf) else { break };
            g.apply(a).unwrap();
            if step % 3 == 0 {
                scratch.apply(a).unwrap();
                assert_eq!(format!("{scratch:?}"), format!("{g:?}"), "seed {seed} step {step}, after {a:?}");
            }
            step += 1;
        }
    }
}

#[test]
fn fast_random_playouts_match_the_checked_path() {
    // `play_random` (rejection-sampled placements) must reach a finished, consistent game.
    let config = Setup::new(3).prepare().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut buf = Vec::new();
    for seed in 0..300 {
        let mut g = Game::from_config(config.clone(), seed);
        g.play_random(&mut rng, &mut buf);
        assert!(g.is_over());
        g.audit().unwrap();
        assert_eq!(g.board().tiles().len() + g.discarded(), 72);
    }
}

fn princess_dragon(players: u8, seed: u64, with_am: bool) -> Setup {
    let mut s = if with_am { abbey_mayor(players, seed) } else { Setup::new(players) };
    s.seed = seed;
    s.sets.push("pd".into());
    for m in ["dragon", "fairy", "princess", "portal"] {
        s.rules.set(&format!("modules.{m}"), "true").unwrap();
    }
    s
}

/// Set each option to one of two values, the choice flipping every `k` seeds, so every value gets played.
fn vary(s: &mut Setup, seed: u64, options: &[(&str, u64, &str, &str)]) {
    for &(key, k, a, b) in options {
        s.rules.set(key, if (seed / k).is_multiple_of(2) { a } else { b }).unwrap();
    }
}

/// Every P&D option (VAR-06..09, VAR-11, VAR-12) takes each of its values across the seeds.
fn vary_pd_options(s: &mut Setup, seed: u64) {
    vary(
        s,
        seed,
        &[
            ("dragon.move_timing", 1, "before_scoring", "after_scoring"),
            ("princess.removal", 2, "optional", "mandatory"),
            ("fairy.placement", 3, "next_to_meeple", "on_tile"),
            ("dragon.early_dragon_tile", 5, "set_aside_then_reshuffle", "return_and_redraw"),
            ("fairy.bonus_mode", 7, "standard", "house_five"),
            ("fairy.blocks_dragon", 11, "true", "false"),
        ],
    );
}

#[test]
fn princess_and_dragon_games_keep_every_invariant() {
    for seed in 0..300u64 {
        let mut s = princess_dragon(2 + (seed % 5) as u8, seed * 31 + 3, false);
        vary_pd_options(&mut s, seed);
        let g = play_checked(&s, seed, seed % 60 == 0);
        // 72 base + 30 P&D tiles: placed, discarded, or set aside for good (AMB-03).
        assert_eq!(g.board().tiles().len() + g.discarded() + g.set_aside().len(), 102);
        assert!(g.set_aside().is_empty() || g.dragon().is_none(), "tiles stay aside only without a volcano");
    }
}

#[test]
fn every_module_together_keeps_every_invariant() {
    for seed in 0..250u64 {
        let mut s = princess_dragon(2 + (seed % 4) as u8, seed * 17 + 11, true);
        vary_pd_options(&mut s, seed);
        s.rules.set("wagon.movement", if seed % 2 == 0 { "c2" } else { "c1" }).unwrap();
        let g = play_checked(&s, seed, seed % 50 == 0);
        assert_eq!(g.board().tiles().len() + g.discarded() + g.set_aside().len() + held_abbeys(&g), 114 + g.players());
    }
}

#[test]
fn each_princess_and_dragon_module_alone() {
    for (i, module) in ["dragon", "fairy", "princess", "portal"].into_iter().enumerate() {
        for seed in 0..40u64 {
            let mut s = Setup::new(2 + (seed % 3) as u8);
            s.seed = seed * 5 + i as u64;
            s.sets = vec!["base".into(), "pd".into()];
            s.rules.set(&format!("modules.{module}"), "true").unwrap();
            vary_pd_options(&mut s, seed);
            let g = play_checked(&s, seed, false);
            // A module switched off drops its tiles: 12 + 6 for the dragon, 6 each for the princess and portal.
            let expected = 72
                + match module {
                    "dragon" => 18,
                    "princess" | "portal" => 6,
                    _ => 0,
                };
            assert_eq!(g.board().tiles().len() + g.discarded() + g.set_aside().len(), expected, "{module}");
        }
    }
}

/// Both readings of VAR-13 and VAR-14 across the seeds.
fn vary_crop_options(s: &mut Setup, seed: u64) {
    vary(
        s,
        seed,
        &[
            ("crop.add_scope", 1, "same_tile_same_segment", "any_tile_of_feature"),
            ("crop.action_a_mandatory", 2, "false", "true"),
        ],
    );
}

/// Base plus one set with its module, 2 to 6 players by seed.
fn base_and(set: &str, module: &str, seed: u64, game_seed: u64) -> Setup {
    let mut s = Setup::new(2 + (seed % 5) as u8);
    s.seed = game_seed;
    s.sets = vec!["base".into(), set.into()];
    s.rules.set(&format!("modules.{module}"), "true").unwrap();
    s
}

#[test]
fn crop_circle_games_keep_every_invariant() {
    for seed in 0..200u64 {
        let mut s = base_and("cc", "crop_circles", seed, seed * 7 + 2);
        vary_crop_options(&mut s, seed);
        let g = play_checked(&s, seed, seed % 40 == 0);
        assert_eq!(g.board().tiles().len() + g.discarded(), 78);
    }
}

#[test]
fn crop_circles_with_every_other_module() {
    for seed in 0..200u64 {
        let mut s = princess_dragon(2 + (seed % 4) as u8, seed * 19 + 7, true);
        s.sets.push("cc".into());
        s.rules.set("modules.crop_circles", "true").unwrap();
        vary_pd_options(&mut s, seed);
        vary_crop_options(&mut s, seed / 3);
        let g = play_checked(&s, seed, seed % 50 == 0);
        assert_eq!(g.board().tiles().len() + g.discarded() + g.set_aside().len() + held_abbeys(&g), 120 + g.players());
    }
}

/// HALF-02: a space holds one square tile, or one triangle, or two complementary triangles.
fn spaces_hold_complementary_pairs(g: &Game) {
    use carcassonne::Placement;
    let tiles = g.board().tiles();
    for (i, t) in tiles.iter().enumerate() {
        for u in &tiles[i + 1..] {
            if u.space == t.space {
                match (t.placement, u.placement) {
                    (Placement::Triangle(a), Placement::Triangle(b)) if a.complement() == b => {}
                    other => panic!("space {} holds {other:?}", t.space),
                }
            }
        }
    }
}

/// Every Halflings option (VAR-15..VAR-21) takes each of its values across the seeds.
fn vary_halflings_options(s: &mut Setup, seed: u64) {
    let scoring = ["jan2021", "oct2015", "c2_2020", "c1_2014"];
    s.rules.set("halflings.scoring", scoring[(seed % 4) as usize]).unwrap();
    s.rules.set("halflings.tiles_per_player", ["3", "1", "5"][(seed % 3) as usize]).unwrap();
    vary(
        s,
        seed,
        &[
            ("halflings.include_symbol_tiles", 2, "true", "false"),
            ("halflings.endgame", 3, "continue_until_no_placement", "end_after_last_regular_tile"),
            ("halflings.hill_tiebreak", 5, "at_least_one_on_hill", "count_on_hill"),
            ("halflings.setup", 7, "random_deal", "draft"),
            ("halflings.barn_gaps", 11, "forbidden", "allowed"),
            ("halflings.crop_mode", 13, "german", "english"),
        ],
    );
}

#[test]
fn halflings_games_keep_every_invariant() {
    for seed in 0..250u64 {
        let mut s = base_and("half", "halflings", seed, seed * 23 + 9);
        vary_halflings_options(&mut s, seed);
        let g = play_checked(&s, seed, seed % 50 == 0);
        let triangles = if s.rules.halflings_include_symbol_tiles { 24 } else { 20 };
        let held: usize = (0..g.players()).map(|p| g.hand(carcassonne::Player(p as u8)).len()).sum();
        assert_eq!(g.board().tiles().len() + g.discarded() + held + g.out_of_play().len(), 72 + triangles);
    }
}

#[test]
fn halflings_with_every_other_module() {
    for seed in 0..200u64 {
        let mut s = princess_dragon(2 + (seed % 4) as u8, seed * 29 + 13, true);
        s.sets.extend(["cc".to_string(), "half".to_string()]);
        s.rules.set("modules.crop_circles", "true").unwrap();
        s.rules.set("modules.halflings", "true").unwrap();
        vary_pd_options(&mut s, seed);
        vary_crop_options(&mut s, seed / 3);
        vary_halflings_options(&mut s, seed / 2);
        play_checked(&s, seed, seed % 50 == 0);
    }
}

#[test]
fn shuffle_hidden_keeps_what_the_viewer_knows() {
    let mut s = Setup::new(3);
    s.sets = vec!["base".into(), "half".into()];
    s.rules.set("modules.halflings", "true").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for seed in 0..30 {
        s.seed = seed;
        let g = Game::new(&s).unwrap();
        let mut h = g.clone();
        h.shuffle_hidden(carcassonne::Player(1), &mut rng);
        let p = |i: u8| carcassonne::Player(i);
        assert_eq!(h.hand(p(1)), g.hand(p(1)), "the viewer's own hand stays");
        for i in [0, 2] {
            assert_eq!(h.hand(p(i)).len(), g.hand(p(i)).len(), "hand sizes stay");
        }
        let count = |x: &Game| {
            let mut v: Vec<_> = (0..3).flat_map(|i| x.hand(p(i)).to_vec()).chain(x.out_of_play().to_vec()).collect();
            v.sort();
            v
        };
        assert_eq!(count(&h), count(&g), "the same triangles, redistributed");
        assert_eq!(h.stack_len(), g.stack_len());
        h.audit().unwrap();
    }
}

#[test]
fn a_players_view_hides_other_hands_and_how_their_turn_starts() {
    use carcassonne::report::view_json;
    let mut s = Setup::new(2);
    s.sets = vec!["base".into(), "half".into()];
    s.rules.set("modules.halflings", "true").unwrap();
    s.hands = Some(vec![vec!["half/I4".into(), "half/I7".into()], vec!["half/II12".into()]]);
    let g = Game::new(&s).unwrap();
    // P1 holds placeable triangles: the turn starts with P1's phase-1 choice.
    assert_eq!(g.decision().kind, carcassonne::DecisionKind::Phase1);
    let mine = view_json(&g, carcassonne::Player(0));
    assert_eq!(mine["players"][0]["hand"], serde_json::json!(["half/I4", "half/I7"]));
    assert_eq!(mine["pending"]["kind"], "phase1");
    assert!(!mine["legal"].as_array().unwrap().is_empty());
    let theirs = view_json(&g, carcassonne::Player(1));
    assert!(theirs["players"][0].get("hand").is_none(), "P1's triangles are hidden from P2");
    assert_eq!(theirs["players"][0]["triangles"], 2);
    assert_eq!(theirs["pending"]["kind"], "start_of_turn");
    assert!(theirs["legal"].as_array().unwrap().is_empty());
    assert!(!theirs.to_string().contains("half/I4"), "no trace of P1's hand");
}

#[test]
fn shuffle_hidden_depends_only_on_what_the_viewer_sees() {
    let p = |i: u8| carcassonne::Player(i);
    let setup = |seed: u64, theirs: &[&str]| {
        let mut s = Setup::new(2);
        s.sets = vec!["base".into(), "half".into()];
        s.rules.set("modules.halflings", "true").unwrap();
        s.seed = seed;
        s.hands = Some(vec![vec!["half/I4".into()], theirs.iter().map(|t| t.to_string()).collect()]);
        Game::new(&s).unwrap()
    };
    // The same table and the same hand for P1; another stack order and another hidden hand for P2.
    let a = setup(1, &["half/II12", "half/I7"]);
    let b = setup(2, &["half/I2", "half/II3"]);
    assert_ne!(a.next_draw(), b.next_draw(), "the seeds give different stacks");
    for r in 0..5 {
        let (mut x, mut y) = (a.clone(), b.clone());
        x.shuffle_hidden(p(0), &mut ChaCha8Rng::seed_from_u64(r));
        y.shuffle_hidden(p(0), &mut ChaCha8Rng::seed_from_u64(r));
        assert_eq!(x.chance_outcomes(), y.chance_outcomes());
        assert_eq!(x.hand(p(1)), y.hand(p(1)), "P2's hand is re-dealt the same way");
        assert_eq!(x.hand(p(0)), a.hand(p(0)), "P1 keeps their own hand");
        let mut buf = Vec::new();
        let mut rng_x = ChaCha8Rng::seed_from_u64(9);
        let mut rng_y = ChaCha8Rng::seed_from_u64(9);
        x.play_random(&mut rng_x, &mut buf);
        y.play_random(&mut rng_y, &mut buf);
        assert_eq!(x.scores(), y.scores(), "the determinized games play out the same");
        assert_eq!(x.board(), y.board());
    }
}

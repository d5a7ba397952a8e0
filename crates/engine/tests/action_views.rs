//! The typed view of an action (`report::action_view`, what the server sends beside each legal action's notation):
//! in random games with every module at 2 to 4 players, every legal action's fields, put back together, give exactly
//! its notation, so a client that reads the fields reads what the notation says.

use carcassonne::report::{ActionView, action_view};
use carcassonne::{Game, Setup};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The notation the fields describe.
fn notation(v: &ActionView) -> String {
    let get = |f: &Option<String>| f.clone().unwrap_or_else(|| "?".into());
    let place = || match &v.corner {
        Some(c) => format!("{}/{c}", get(&v.space)),
        None => get(&v.space),
    };
    let fairy = if v.with_fairy { " +fairy" } else { "" };
    let figure = v.figure.unwrap_or("?");
    let follower = || format!("{} {figure} {} {}{fairy}", get(&v.player), place(), get(&v.segment));
    match v.kind {
        "draw" => format!("draw {}", get(&v.tile)),
        "place" => format!("place {} {} {}", get(&v.tile), get(&v.space), get(&v.orient)),
        "pick" => format!("pick {}", get(&v.tile)),
        "deploy" => format!("{figure} {}", get(&v.segment)),
        "barn" => format!("barn {}", get(&v.corner)),
        "wagon-move" => format!("wagon {} {}", place(), get(&v.segment)),
        "portal" => format!("portal {figure} {} {}", place(), get(&v.segment)),
        "princess" => format!("princess {}", follower()),
        "fairy" if v.player.is_some() => format!("fairy {}", follower()),
        "fairy" => format!("fairy {}", get(&v.space)),
        "dragon" => format!("dragon {}", get(&v.dir)),
        "crop" => {
            let mut w = vec!["crop".to_string()];
            w.extend(v.role.map(str::to_string));
            w.extend(v.crop.map(|c| c.to_string()));
            w.join(" ")
        }
        "crop-add" => format!("add {figure} {} {}", place(), get(&v.segment)),
        "crop-remove" => format!("remove {}", follower()),
        "pass" => "pass".into(),
        other => format!("unknown kind {other}"),
    }
}

#[test]
fn every_legal_actions_fields_say_what_its_notation_says() {
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..12u64 {
        let mut s = Setup::new(2 + (seed % 3) as u8);
        s.seed = seed;
        s.sets = ["base", "am", "pd", "cc", "half"].iter().map(|x| x.to_string()).collect();
        s.switch_on_set_modules(false);
        let mut g = Game::new(&s).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !g.is_over() {
            let legal = g.legal_actions();
            for &a in &legal {
                let v = action_view(&g, a);
                assert_eq!(v.text, g.action_text(a));
                assert_eq!(notation(&v), v.text, "seed {seed}: {v:?}");
                kinds.insert(v.kind);
            }
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(a).unwrap();
        }
    }
    for k in ["draw", "place", "deploy", "barn", "wagon-move", "portal", "fairy", "dragon", "crop", "crop-add", "pass"]
    {
        assert!(kinds.contains(k), "no `{k}` action in these games: {kinds:?}");
    }
}

/// Every legal action that acts on a feature names it in the view's `spot_features`, and that feature holds the
/// segment the action names (the deployment's on the tile just placed); a feature's `points` are what it scores:
/// each completion scores what `feature_points` said of it, and so does each feature of the final scoring.
#[test]
fn spot_features_hold_their_segments_and_their_points_are_the_scores() {
    use carcassonne::report::view_json;
    use carcassonne::{Actor, Event};
    let mut checked = (0, 0, 0);
    for seed in 0..8u64 {
        let mut s = Setup::new(2 + (seed % 2) as u8);
        s.seed = seed;
        let mut g = Game::new(&s).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !g.is_over() {
            if let Actor::Player(p) = g.decision().actor {
                let v = view_json(&g, p);
                let features = v["spot_features"].as_array().unwrap();
                let placed = g.placed_tile().map(|t| g.board().tile(t).space.to_string());
                for a in v["actions"].as_array().unwrap() {
                    let Some(i) = a["feature"].as_u64() else {
                        assert!(a.get("segment").is_none() || a["type"] == "fairy", "{a}");
                        continue;
                    };
                    let f = &features[i as usize];
                    let space = a.get("space").and_then(|s| s.as_str()).map(str::to_string).or(placed.clone());
                    let held = f["segments"].as_array().unwrap().iter().any(|m| {
                        Some(m["space"].as_str().unwrap()) == space.as_deref() && m["segment"] == a["segment"]
                    });
                    assert!(held, "seed {seed}: {a} is not on its feature {f}");
                    checked.0 += 1;
                }
            }
            let legal = g.legal_actions();
            let a = legal[rng.random_range(0..legal.len())];
            g.apply(a).unwrap();
            for e in g.last_events() {
                if let Event::Scored(sc) = e
                    && sc.points > 0
                {
                    assert_eq!(g.feature_points(sc.at), Some(sc.points), "seed {seed}: {sc:?}");
                    if sc.complete { checked.1 += 1 } else { checked.2 += 1 }
                }
            }
        }
    }
    assert!(checked.0 > 500 && checked.1 > 15 && checked.2 > 50, "{checked:?}");
}

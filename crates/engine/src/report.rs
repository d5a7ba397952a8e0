//! Machine-readable reports of a game: the pending decision, events and meeples as JSON values, in the shape
//! `carc replay --json` prints (docs/record-format.md). Scenario tests read the same shape. A player is always named as
//! in the notation and the text, `"P1"` to `"P6"`; lists by seat (scores, supplies) start with P1.

use serde_json::{Value, json};

use crate::action::{MeepleKind, Player};
use crate::game::{Actor, DecisionKind, Event, Game, PlacedMeeple, ScoreTime};

/// The pending decision: `{"actor", "player", "kind", "tile"}`.
pub fn pending_json(g: &Game) -> Value {
    let d = g.decision();
    let (actor, player) = match d.actor {
        Actor::Chance => ("chance".to_string(), Value::Null),
        Actor::Player(p) => (p.to_string(), json!(p.to_string())),
        Actor::Nobody => ("nobody".to_string(), Value::Null),
    };
    let (kind, tile) = match d.kind {
        DecisionKind::Phase1 => ("phase1", Value::Null),
        DecisionKind::Draft => ("draft", Value::Null),
        DecisionKind::MoveWagon => ("move_wagon", Value::Null),
        DecisionKind::Draw => ("draw", Value::Null),
        DecisionKind::PlaceTile { tile } => ("place_tile", json!(g.catalogue().def(tile).id)),
        DecisionKind::Phase2 => ("phase2", Value::Null),
        DecisionKind::Princess => ("princess", Value::Null),
        DecisionKind::MoveDragon { .. } => ("move_dragon", Value::Null),
        DecisionKind::CropChoice => ("crop_choice", Value::Null),
        DecisionKind::CropAnswer { .. } => ("crop_answer", Value::Null),
        DecisionKind::GameOver => ("game_over", Value::Null),
    };
    // A dragon step also names its number (1..6); a crop answer, the action named (A or B).
    let mut v = json!({ "actor": actor, "player": player, "kind": kind, "tile": tile });
    match d.kind {
        DecisionKind::MoveDragon { step } => v["step"] = json!(step),
        DecisionKind::CropAnswer { action } => v["crop"] = json!(action.map(|a| a.letter().to_string())),
        _ => {}
    }
    v
}

/// One event, numbered by the 1-based action that caused it.
pub fn event_json(g: &Game, action: usize, e: &Event) -> Value {
    match e {
        Event::Discarded { player, tile } => json!({
            "action": action, "type": "discarded", "player": player.to_string(), "tile": g.catalogue().def(*tile).id,
        }),
        Event::GameEnded => json!({ "action": action, "type": "game_ended" }),
        Event::UnderHill { tile } => json!({
            "action": action, "type": "under_hill", "tile": g.catalogue().def(*tile).id,
        }),
        Event::SetAside { player, tile } => json!({
            "action": action, "type": "set_aside", "player": player.to_string(), "tile": g.catalogue().def(*tile).id,
        }),
        Event::PutBack { player, tile } => json!({
            "action": action, "type": "put_back", "player": player.to_string(), "tile": g.catalogue().def(*tile).id,
        }),
        Event::Volcano { space, reshuffled } => json!({
            "action": action, "type": "volcano", "space": space.to_string(), "reshuffled": reshuffled,
        }),
        Event::DragonMoved { player, to } => json!({
            "action": action, "type": "dragon_moved", "player": player.to_string(), "space": to.to_string(),
        }),
        Event::MeepleReturned { meeple, cause } => {
            let mut v = meeple_json(g, meeple);
            v["action"] = json!(action);
            v["type"] = json!("meeple_returned");
            v["cause"] = json!(cause.name());
            v
        }
        Event::FairyMoved { player, space } => json!({
            "action": action, "type": "fairy_moved", "player": player.to_string(), "space": space.to_string(),
        }),
        Event::FairyPoints { player, points, at } => {
            let mut v =
                json!({ "action": action, "type": "fairy_points", "player": player.to_string(), "points": points });
            if let Some(at) = at {
                let (space, tile, segment) = g.describe_segment(*at);
                v["reason"] = json!("bonus");
                v["space"] = json!(space.to_string());
                v["tile"] = json!(tile);
                v["segment"] = json!(segment);
            } else {
                v["reason"] = json!("turn");
            }
            v
        }
        Event::Scored(s) => {
            let (space, tile, segment) = g.describe_segment(s.at);
            let mut v = json!({
                "action": action,
                "type": "scored",
                "when": match s.when { ScoreTime::Turn => "turn", ScoreTime::Final => "final" },
                "reason": s.reason.name(),
                "feature": s.feature.name(),
                "complete": s.complete,
                "points": s.points,
                "winners": s.winners.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
                "tiles": s.tiles,
                "pennants": s.pennants,
                "cities": s.cities,
                "returned": s.returned,
                "space": space.to_string(),
                "tile": tile,
                "segment": segment,
            });
            if let crate::board::Placement::Triangle(c) = g.board().tile(g.board().segment_tile(s.at).0).placement {
                v["corner"] = json!(c.name());
            }
            v
        }
    }
}

/// One meeple: `{"player", "kind", "space", "tile", "segment"}`, plus `"fairy": true` for the fairy's and
/// `"corner"` on a triangle.
pub fn meeple_json(g: &Game, m: &PlacedMeeple) -> Value {
    let (space, tile, segment) = g.describe_segment(m.segment);
    let mut v = json!({ "player": m.player.to_string(), "kind": m.kind.name(), "space": space.to_string(), "tile": tile,
                        "segment": segment });
    if m.fairy {
        v["fairy"] = json!(true);
    }
    if let crate::board::Placement::Triangle(c) = g.board().tile(g.board().segment_tile(m.segment).0).placement {
        v["corner"] = json!(c.name());
    }
    v
}

/// The meeples on the board.
pub fn meeples_json(g: &Game) -> Value {
    Value::Array(g.meeples().iter().map(|m| meeple_json(g, m)).collect())
}

/// The neutral figures: `{"dragon": "x,y" | null, "dragon_path": ["x,y", …], "fairy": "x,y" | null, "set_aside":
/// [tile ids]}`; `dragon_path` lists the spaces of the dragon's current movement so far, its start first (empty when
/// it is not moving).
pub fn figures_json(g: &Game) -> Value {
    json!({
        "dragon": g.dragon().map(|s| s.to_string()),
        "dragon_path": g.dragon_path().iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        "fairy": g.fairy().map(|s| s.to_string()),
        "set_aside": g.set_aside().iter().map(|k| g.catalogue().def(*k).id.clone()).collect::<Vec<_>>(),
    })
}

/// What one player may see of a game (for a server or a bot that must not cheat): everything on the table, their own
/// triangles, the other players' triangle counts, the face-up draft, and their legal actions when it is their turn
/// to decide. Hidden: the order of the stack, other players' triangles, tiles out of play (undealt triangles, tiles
/// under a hill).
pub fn view_json(g: &Game, viewer: Player) -> Value {
    view_json_for(g, Some(viewer))
}

/// What a seat sees ([`view_json`]), or with `None` what a spectator sees: the same table with no triangles named
/// and no legal actions (`"viewer": null`).
pub fn view_json_for(g: &Game, viewer: Option<Player>) -> Value {
    let n = g.players();
    let ids = |ks: &[crate::catalogue::TileKind]| -> Vec<String> {
        ks.iter().map(|k| g.catalogue().def(*k).id.clone()).collect()
    };
    let seats: Vec<Value> = (0..n)
        .map(|p| {
            let pl = Player(p as u8);
            let mut v = json!({
                "player": pl.to_string(),
                "score": g.scores()[p],
                "meeples": g.supply_of(pl, MeepleKind::Normal),
                "mayor": g.supply_of(pl, MeepleKind::Mayor),
                "wagon": g.supply_of(pl, MeepleKind::Wagon),
                "barns": g.barns_left(pl),
                "abbeys": g.abbeys_left(pl),
                "triangles": g.hand(pl).len(),
            });
            if Some(pl) == viewer {
                v["hand"] = json!(ids(g.hand(pl)));
            }
            v
        })
        .collect();
    let board: Vec<Value> = g
        .board()
        .tiles()
        .iter()
        .map(|t| {
            let mut v = json!({ "tile": g.catalogue().def(t.kind).id, "space": t.space.to_string() });
            match t.placement {
                crate::board::Placement::Square(r) => v["rotation"] = json!(r.to_string()),
                crate::board::Placement::Triangle(c) => v["corner"] = json!(c.name()),
            }
            v
        })
        .collect();
    let mine = viewer.is_some_and(|p| g.decision().actor == Actor::Player(p));
    // Whether another player's turn starts with a phase-1 choice or straight with the draw depends on whether their
    // hidden triangles fit the board: others see only that the turn is starting.
    let mut pending = pending_json(g);
    if !mine && matches!(g.decision().kind, DecisionKind::Phase1 | DecisionKind::Draw) {
        pending = json!({ "actor": g.active_player().to_string(), "player": g.active_player().to_string(),
                          "kind": "start_of_turn", "tile": Value::Null });
    }
    let legal: Vec<String> =
        if mine { g.legal_actions().into_iter().map(|a| g.action_text(a)).collect() } else { Vec::new() };
    json!({
        "viewer": viewer.map(|p| p.to_string()),
        "players": seats,
        "active": g.active_player().to_string(),
        "turn": g.turn(),
        "stack": g.stack_len(),
        "game_over": g.is_over(),
        "pending": pending,
        "legal": legal,
        "draft": ids(g.draft_pool()),
        "board": board,
        "meeples": meeples_json(g),
        "barns": g.barns().iter().map(|b| json!({
            "player": b.player.to_string(), "space": b.space.to_string(), "corner": b.corner.name(),
        })).collect::<Vec<_>>(),
        "figures": figures_json(g),
    })
}

/// What a road that stops on its tile ends at, as the tile format writes it (`monastery`, `city:A`, …).
fn road_end_name(d: &crate::catalogue::TileDef, e: crate::catalogue::RoadEnd) -> String {
    use crate::catalogue::RoadEnd;
    match e {
        RoadEnd::Monastery => "monastery".into(),
        RoadEnd::CityGate(i) => {
            let label = d.segments.get(i as usize).and_then(|s| s.label.clone()).unwrap_or_else(|| i.to_string());
            format!("city:{label}")
        }
        RoadEnd::Junction => "junction".into(),
        RoadEnd::Village => "village".into(),
        RoadEnd::Volcano => "volcano".into(),
        RoadEnd::Crop => "crop".into(),
        RoadEnd::House => "house".into(),
        RoadEnd::Garden => "garden".into(),
        RoadEnd::Dead => "dead".into(),
    }
}

/// A tile kind as a drawing needs it: its shape, symbols and segments in the canonical orientation (each with the
/// positions it touches, docs/tile-format.md), and `names`: each segment's name in the notation (`road@W`) for each
/// of the four orientations `r0`..`r270` (a triangle's corners `NE`..`NW` in that order), so that an action naming a
/// segment of a placed tile can be matched to the segment drawn.
pub fn tile_json(c: &crate::Catalogue, k: crate::TileKind) -> Value {
    use crate::catalogue::Shape;
    use crate::geom::{Pos, Rotation};
    let d = c.def(k);
    let segments: Vec<Value> = d
        .segments
        .iter()
        .map(|s| {
            let positions: Vec<&str> =
                (0..Pos::COUNT as u8).map(Pos).filter(|p| s.touches(*p)).map(|p| p.name()).collect();
            let mut v = json!({ "kind": s.kind.name(), "positions": positions });
            if let Some(l) = &s.label {
                v["label"] = json!(l);
            }
            if s.pennants > 0 {
                v["pennants"] = json!(s.pennants);
            }
            if s.princess {
                v["princess"] = json!(true);
            }
            if !s.cities.is_empty() {
                v["cities"] = json!(s.cities);
            }
            if let Some(e) = s.end {
                v["end"] = json!(road_end_name(d, e));
            }
            if s.tunnel {
                v["tunnel"] = json!(true);
            }
            if let Some(i) = s.inside {
                v["inside"] = json!(i);
            }
            v
        })
        .collect();
    let names: Vec<Vec<String>> =
        Rotation::ALL.iter().map(|&r| (0..d.segments.len()).map(|i| c.segment_name(k, r, i as u8)).collect()).collect();
    json!({
        "id": d.id,
        "name": d.name,
        "shape": match d.shape { Shape::Square => "square", Shape::Triangle => "triangle", Shape::Abbey => "abbey" },
        "count": d.count,
        "gardens": d.gardens,
        "edges": d.edge_letters(),
        "symbols": d.symbols.iter().map(|s| s.name()).collect::<Vec<_>>(),
        "segments": segments,
        "names": names,
    })
}

/// Every tile kind of a game's catalogue ([`tile_json`]), in catalogue order.
pub fn tiles_json(c: &crate::Catalogue) -> Value {
    Value::Array(c.kinds().map(|k| tile_json(c, k)).collect())
}

/// Every rule option, then every module switch: `{"key", "rule" (its VAR id, or null), "default", "values" (the
/// default first), "doc"}`, as `carc rules --json` prints them and the server's `GET /api/rules` sends them.
pub fn rule_options_json() -> Value {
    let mut rows: Vec<Value> = crate::rules::options()
        .iter()
        .map(|o| {
            json!({ "key": o.key, "rule": if o.var.is_empty() { None } else { Some(o.var) },
                    "default": o.values.first(), "values": o.values, "doc": o.doc })
        })
        .collect();
    for m in crate::rules::Modules::NAMES {
        rows.push(json!({ "key": format!("modules.{m}"), "rule": null, "default": "false",
                          "values": ["false", "true"], "doc": "module switch" }));
    }
    Value::Array(rows)
}

/// The features that hold figures, for an ownership overlay: each with its `kind`, whether it is `complete`, the
/// `holders` who would score it now ([`Game::holders`]) and every segment in it (`{space, segment}`, with `corner` on
/// a triangle).
pub fn features_json(g: &Game) -> Value {
    let b = g.board();
    let mut roots: Vec<crate::SegmentId> = g.meeples().iter().map(|m| b.root(m.segment)).collect();
    roots.sort_unstable();
    roots.dedup();
    Value::Array(
        roots
            .into_iter()
            .map(|r| {
                let info = b.feature(r);
                let members: Vec<Value> = b
                    .members(r)
                    .map(|s| {
                        let (space, _, segment) = g.describe_segment(s);
                        let mut v = json!({ "space": space.to_string(), "segment": segment });
                        if let crate::board::Placement::Triangle(c) = b.tile(b.segment_tile(s).0).placement {
                            v["corner"] = json!(c.name());
                        }
                        v
                    })
                    .collect();
                json!({
                    "kind": info.kind.name(),
                    "complete": info.complete,
                    "holders": g.holders(r).iter().map(|p| p.to_string()).collect::<Vec<_>>(),
                    "segments": members,
                })
            })
            .collect(),
    )
}

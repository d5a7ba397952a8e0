//! Machine-readable reports of a game: the pending decision, events and meeples as JSON values, in the shape
//! `carc replay --json` prints (docs/record-format.md). Scenario tests read the same shape. A player is always named as
//! in the notation and the text, `"P1"` to `"P6"`; lists by seat (scores, supplies) start with P1.

use serde_json::{Value, json};

use crate::action::{Action, MeepleKind, Player};
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
    let legal_actions = if mine { g.legal_actions() } else { Vec::new() };
    let legal: Vec<String> = legal_actions.iter().map(|a| g.action_text(*a)).collect();
    let mut actions: Vec<ActionView> = legal_actions.iter().map(|a| action_view(g, *a)).collect();
    // The features the legal actions act on, once each: a table outlines the one a spot would join.
    let mut roots: Vec<crate::SegmentId> = Vec::new();
    for (v, a) in actions.iter_mut().zip(&legal_actions) {
        if let Some(seg) = action_segment(g, *a) {
            let r = g.board().root(seg);
            v.feature = Some(roots.iter().position(|x| *x == r).unwrap_or_else(|| {
                roots.push(r);
                roots.len() - 1
            }));
        }
    }
    let spot_features: Vec<Value> = roots.iter().map(|r| feature_json(g, *r)).collect();
    json!({
        "viewer": viewer.map(|p| p.to_string()),
        "players": seats,
        "active": g.active_player().to_string(),
        "turn": g.turn(),
        "stack": g.stack_len(),
        "game_over": g.is_over(),
        "pending": pending,
        "legal": legal,
        "actions": actions,
        "spot_features": spot_features,
        "draft": ids(g.draft_pool()),
        "board": board,
        "meeples": meeples_json(g),
        "barns": g.barns().iter().map(|b| json!({
            "player": b.player.to_string(), "space": b.space.to_string(), "corner": b.corner.name(),
        })).collect::<Vec<_>>(),
        "figures": figures_json(g),
    })
}

/// One action with its parts named, beside its notation: what a client needs to show it where it belongs without
/// reading the notation (the table, a script). Fields that do not apply to the action's kind are left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ActionView {
    /// The action in record notation (what to send back to take it).
    pub text: String,
    /// `draw`, `place` (a tile or a triangle), `pick`, `deploy` (a follower, the wagon included, on the tile just
    /// placed), `barn`, `wagon-move`, `portal`, `princess`, `fairy` (next to a follower, or onto a space), `dragon`,
    /// `crop` (the crop-circle choice), `crop-add`, `crop-remove` or `pass`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The tile's id (`place`, `pick`, `draw`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tile: Option<String>,
    /// The space (`1,0`): where the tile goes, or where the segment acted on lies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space: Option<String>,
    /// A placement's orientation: `r0`..`r270` for a square tile, the right angle's corner (`NE`, …) for a triangle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orient: Option<String>,
    /// A corner: the barn's (`barn`), or the triangle on `space` whose segment is meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corner: Option<String>,
    /// The follower: `meeple`, `mayor` or `wagon`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub figure: Option<&'static str>,
    /// The segment, by its name on its tile (`road@E`, `monastery`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
    /// The owner of the follower acted on (`princess`, `fairy`, `crop-remove`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// Whether that follower is the one the fairy stands next to.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub with_fairy: bool,
    /// The dragon's step: `N`, `E`, `S` or `W`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
    /// A crop-circle choice: its action `A` or `B`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crop: Option<char>,
    /// A crop-circle choice's role after the triangular crop circle (`knight`, `highwayman`, `farmer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    /// The feature the action acts on, as an index into the view's `spot_features` (only in a view's legal
    /// actions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feature: Option<usize>,
}

/// `a`, an action of `g`'s pending decision (or one just taken), with its parts named.
pub fn action_view(g: &Game, a: Action) -> ActionView {
    let c = g.catalogue();
    let id = |k: crate::TileKind| (k.0 as usize) < c.len();
    let mut v = ActionView { text: g.action_text(a), ..ActionView::default() };
    // Where a segment of the board lies: its space, its triangle's corner, its name.
    let at = |v: &mut ActionView, seg: crate::board::SegmentId| {
        if (seg.0 as usize) < g.board().segment_count() {
            let (space, _, name) = g.describe_segment(seg);
            v.space = Some(space.to_string());
            v.segment = Some(name);
            let (t, _) = g.board().segment_tile(seg);
            if let crate::board::Placement::Triangle(corner) = g.board().tile(t).placement {
                v.corner = Some(corner.name().to_string());
            }
        }
    };
    let follower = |v: &mut ActionView, r: crate::action::MeepleRef| {
        v.player = Some(r.player.to_string());
        v.figure = Some(r.kind.name());
        v.with_fairy = r.fairy;
        at(v, r.segment);
    };
    match a {
        Action::Draw(k) => {
            v.kind = "draw";
            v.tile = id(k).then(|| c.def(k).id.clone());
        }
        Action::Place { tile, space, rotation } => {
            v.kind = "place";
            v.tile = id(tile).then(|| c.def(tile).id.clone());
            v.space = Some(space.to_string());
            v.orient = Some(rotation.to_string());
        }
        Action::PlaceTriangle { tile, space, corner } => {
            v.kind = "place";
            v.tile = id(tile).then(|| c.def(tile).id.clone());
            v.space = Some(space.to_string());
            v.orient = Some(corner.name().to_string());
        }
        Action::Pick(tile) => {
            v.kind = "pick";
            v.tile = id(tile).then(|| c.def(tile).id.clone());
        }
        Action::Deploy { meeple, segment } => {
            v.kind = "deploy";
            v.figure = Some(meeple.name());
            if let Some(t) = g.placed_tile() {
                let pt = g.board().tile(t);
                if (segment as usize) < c.def(pt.kind).segments.len() {
                    v.segment = Some(c.segment_name(pt.kind, pt.placement.rotation(), segment));
                }
            }
        }
        Action::PlaceBarn { corner } => {
            v.kind = "barn";
            v.corner = Some(corner.name().to_string());
        }
        Action::MoveWagon { segment } => {
            v.kind = "wagon-move";
            v.figure = Some(MeepleKind::Wagon.name());
            at(&mut v, segment);
        }
        Action::Portal { meeple, segment } => {
            v.kind = "portal";
            v.figure = Some(meeple.name());
            at(&mut v, segment);
        }
        Action::RemoveKnight(r) => {
            v.kind = "princess";
            follower(&mut v, r);
        }
        Action::MoveFairy(r) => {
            v.kind = "fairy";
            follower(&mut v, r);
        }
        Action::MoveFairyTo(space) => {
            v.kind = "fairy";
            v.space = Some(space.to_string());
        }
        Action::MoveDragon(side) => {
            v.kind = "dragon";
            v.dir = Some(side.letter().to_string());
        }
        Action::ChooseCrop(choice) => {
            v.kind = "crop";
            v.crop = Some(choice.letter());
        }
        Action::ChooseCropRole(role, choice) => {
            v.kind = "crop";
            v.role = Some(role.role_name());
            v.crop = choice.map(|c| c.letter());
        }
        Action::CropAdd { meeple, segment } => {
            v.kind = "crop-add";
            v.figure = Some(meeple.name());
            at(&mut v, segment);
        }
        Action::CropRemove(r) => {
            v.kind = "crop-remove";
            follower(&mut v, r);
        }
        Action::Pass => v.kind = "pass",
    }
    v
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
    Value::Array(roots.into_iter().map(|r| feature_json(g, r)).collect())
}

/// One feature, the one segment `s` belongs to: its `kind`, whether it is `complete`, its `tiles` and `pennants`,
/// the `holders` who would score it now, the `points` it is worth now ([`Game::feature_points`]; `null` for a crop
/// area) and every `segment` in it (`{space, segment}`, with `corner` on a triangle).
pub fn feature_json(g: &Game, s: crate::SegmentId) -> Value {
    let b = g.board();
    let r = b.root(s);
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
        "tiles": info.tiles,
        "pennants": info.pennants,
        "holders": g.holders(r).iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        "points": g.feature_points(r),
        "segments": members,
    })
}

/// The segment of the board an action puts a figure on or acts on (a deployment, the portal, a wagon's move, a
/// crop circle's addition, or the follower the princess, the fairy or a crop circle's removal names), if any.
pub fn action_segment(g: &Game, a: Action) -> Option<crate::SegmentId> {
    let seg = match a {
        Action::Deploy { segment, .. } => g.board().segment_of(g.placed_tile()?, segment),
        Action::MoveWagon { segment } | Action::Portal { segment, .. } | Action::CropAdd { segment, .. } => segment,
        Action::RemoveKnight(r) | Action::MoveFairy(r) | Action::CropRemove(r) => r.segment,
        _ => return None,
    };
    ((seg.0 as usize) < g.board().segment_count()).then_some(seg)
}

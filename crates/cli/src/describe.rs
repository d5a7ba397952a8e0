//! `carc replay` and `carc legal`: a game's state and events as text or JSON (the JSON shape is documented in
//! docs/record-format.md).

use std::path::Path;

use anyhow::Result;
use serde_json::{Value, json};

use carcassonne::game::ScoreReason;
use carcassonne::report::{event_json, figures_json, meeples_json, pending_json};
use carcassonne::{Actor, DecisionKind, Event, Game, MeepleKind, Player, ScoreTime};

use crate::read_record;

pub(crate) fn pending_text(g: &Game) -> String {
    let d = g.decision();
    match (d.actor, d.kind) {
        (_, DecisionKind::GameOver) => "game over".into(),
        (_, DecisionKind::Draw) => format!("chance: draw a tile for {} ({} left)", g.active_player(), g.stack_len()),
        (Actor::Player(p), DecisionKind::PlaceTile { tile }) => {
            format!("{p} to place {}", g.catalogue().def(tile).id)
        }
        (Actor::Player(p), DecisionKind::Phase2) => format!("{p} to deploy a meeple or pass"),
        (Actor::Player(p), DecisionKind::Phase1) => {
            format!("{p} to place their abbey or a triangle, or pass (draw; with the stack empty, pass the turn)")
        }
        (Actor::Player(p), DecisionKind::MoveWagon) => format!("{p} to move their wagon or pass"),
        (Actor::Player(p), DecisionKind::Princess) => format!("{p} to remove a knight with the princess"),
        (Actor::Player(p), DecisionKind::MoveDragon { step }) => format!("{p} to choose dragon step {step} of 6"),
        (Actor::Player(p), DecisionKind::CropChoice) => format!("{p} to choose crop-circle action A or B"),
        (Actor::Player(p), DecisionKind::CropAnswer { action: Some(carcassonne::action::CropAction::A) }) => {
            format!("{p} to add a meeple next to one of theirs (crop circle A), or pass")
        }
        (Actor::Player(p), DecisionKind::CropAnswer { action: Some(carcassonne::action::CropAction::B) }) => {
            format!("{p} to return one of their meeples (crop circle B)")
        }
        (Actor::Player(p), DecisionKind::CropAnswer { action: None }) => {
            format!("{p} to add a meeple next to one of theirs, or return one (triangular crop circle)")
        }
        (Actor::Player(p), DecisionKind::Draft) => format!("{p} to pick a triangle"),
        (a, k) => format!("{a:?} {k:?}"),
    }
}

fn event_text(g: &Game, action: usize, e: &Event) -> String {
    match e {
        Event::Discarded { player, tile } => {
            format!("#{action:<4} {player} discards {} (no legal place)", g.catalogue().def(*tile).id)
        }
        Event::GameEnded => format!("#{action:<4} game ends; final scoring"),
        Event::UnderHill { tile } => {
            format!("#{action:<4} {} goes under the hill, out of play", g.catalogue().def(*tile).id)
        }
        Event::SetAside { player, tile } => {
            format!("#{action:<4} {player} sets {} aside (the dragon is not in play yet)", g.catalogue().def(*tile).id)
        }
        Event::PutBack { player, tile } => {
            format!("#{action:<4} {player} puts {} back into the stack", g.catalogue().def(*tile).id)
        }
        Event::Volcano { space, reshuffled } => {
            format!("#{action:<4} the dragon flies to the volcano at {space} ({reshuffled} tiles shuffled back)")
        }
        Event::DragonMoved { player, to } => format!("#{action:<4} {player} moves the dragon to {to}"),
        Event::MeepleReturned { meeple, cause } => {
            let (space, _, segment) = g.describe_segment(meeple.segment);
            let why = match cause {
                carcassonne::game::ReturnCause::Dragon => "eaten by the dragon",
                carcassonne::game::ReturnCause::Princess => "sent home by the princess",
                carcassonne::game::ReturnCause::CropCircle => "back to the supply (crop circle B)",
            };
            format!("#{action:<4} {} {} at {space} {segment} {why}", meeple.player, meeple.kind.name())
        }
        Event::FairyMoved { player, space } => format!("#{action:<4} {player} moves the fairy to {space}"),
        Event::FairyPoints { player, points, at: None } => format!("#{action:<4} {player} +{points} fairy (turn)"),
        Event::FairyPoints { player, points, at: Some(at) } => {
            let (space, _, segment) = g.describe_segment(*at);
            format!("#{action:<4} {player} +{points} fairy bonus at {space} {segment}")
        }
        Event::Scored(s) => {
            let (space, _, segment) = g.describe_segment(s.at);
            let who = if s.winners.is_empty() {
                "nobody".to_string()
            } else {
                s.winners.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("+")
            };
            let size = match s.feature {
                carcassonne::SegmentKind::Field => plural(s.cities as usize, "completed city"),
                carcassonne::SegmentKind::City => {
                    format!("{}, {}", plural(s.tiles as usize, "tile"), plural(s.pennants as usize, "pennant"))
                }
                carcassonne::SegmentKind::Road => plural(s.tiles as usize, "tile"),
                _ => String::new(),
            };
            let when = match (s.when, s.reason) {
                (_, ScoreReason::BarnPlaced) => "barn-placed ",
                (_, ScoreReason::BarnConnected) => "barn-connected ",
                (_, ScoreReason::Barns) => "final barn ",
                (ScoreTime::Turn, _) => "",
                (ScoreTime::Final, _) => "final ",
            };
            let state = if s.complete { "complete" } else { "incomplete" };
            format!(
                "#{action:<4} {who} +{} {when}{} ({state}{}{size}) at {space} {segment}",
                s.points,
                s.feature.name(),
                if size.is_empty() { "" } else { ", " }
            )
        }
    }
}

pub(crate) fn replay(file: &Path, as_json: bool) -> Result<String> {
    let mut out = String::new();
    let record = read_record(file)?;
    let r = record.replay()?;
    let g = &r.game;
    let n = g.players();
    let on_board: Vec<usize> = (0..n).map(|p| g.meeples().iter().filter(|m| m.player.index() == p).count()).collect();
    if as_json {
        let value = json!({
            "players": n,
            "actions": record.actions.len(),
            "scores": g.scores(),
            "supply": g.supply(),
            "on_board": on_board,
            "game_over": g.is_over(),
            "winners": if g.is_over() { json!(g.leaders().iter().map(|p| p.to_string()).collect::<Vec<_>>()) } else { Value::Null },
            "turn": g.turn(),
            "stack": g.stack_len(),
            "discarded": g.discarded(),
            "tiles_placed": g.board().tiles().len(),
            "pending": pending_json(g),
            "meeples": meeples_json(g),
            "figures": figures_json(g),
            "hands": (0..n).map(|p| g.hand(Player(p as u8)).iter().map(|k| g.catalogue().def(*k).id.clone())
                .collect::<Vec<_>>()).collect::<Vec<_>>(),
            "events": r.events.iter().map(|(i, e)| event_json(g, *i, e)).collect::<Vec<_>>(),
        });
        outln!(out, "{}", serde_json::to_string_pretty(&value)?);
        return Ok(out);
    }
    outln!(
        out,
        "{}: {}, sets {}, {} replayed, all legal",
        crate::input::name(file),
        plural(n, "player"),
        record.setup.sets.join(","),
        plural(record.actions.len(), "action")
    );
    let nd = record.setup.rules.non_defaults();
    if !nd.is_empty() {
        outln!(out, "rules: {}", nd.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "));
    }
    outln!(
        out,
        "turn {}, {} placed, {} in the stack, {} discarded",
        g.turn(),
        plural(g.board().tiles().len(), "tile"),
        g.stack_len(),
        g.discarded()
    );
    outln!(out, "pending: {}", pending_text(g));
    if g.is_over() {
        let w: Vec<String> = g.leaders().iter().map(|p| p.to_string()).collect();
        outln!(out, "{} {} (BASE-17)", w.join(" and "), if w.len() > 1 { "share the victory" } else { "wins" });
    }
    let m = g.rules().modules;
    outln!(
        out,
        "player  score  meeples  on board{}{}{}{}",
        if m.mayor { "  mayor" } else { "" },
        if m.wagon { "  wagon" } else { "" },
        if m.barn { "  barn" } else { "" },
        if m.abbey { "  abbey" } else { "" }
    );
    for (p, on) in on_board.iter().enumerate() {
        let pl = Player(p as u8);
        let mut extra = String::new();
        if m.mayor {
            extra += &format!("{:>7}", g.supply_of(pl, MeepleKind::Mayor));
        }
        if m.wagon {
            extra += &format!("{:>7}", g.supply_of(pl, MeepleKind::Wagon));
        }
        if m.barn {
            extra += &format!("{:>6}", g.barns_left(pl));
        }
        if m.abbey {
            extra += &format!("{:>7}", g.abbeys_left(pl));
        }
        outln!(out, "P{:<6}{:>6}{:>9}{:>10}{extra}", p + 1, g.scores()[p], g.supply()[p], on);
    }
    if !g.barns().is_empty() {
        outln!(out, "barns on the board:");
        for b in g.barns() {
            outln!(out, "  {} barn at the {} corner of the tile at {}", b.player, b.corner, b.space);
        }
    }
    if !g.meeples().is_empty() {
        outln!(out, "meeples on the board:");
        for m in g.meeples() {
            let (_, tile, segment) = g.describe_segment(m.segment);
            let at = g.tile_locator(g.board().segment_tile(m.segment).0);
            let fairy = if m.fairy { " (with the fairy)" } else { "" };
            outln!(out, "  {} {} on {segment} of {tile} at {at}{fairy}", m.player, m.kind.name());
        }
    }
    if let Some(d) = g.dragon() {
        outln!(out, "dragon at {d}");
    } else if !g.set_aside().is_empty() {
        outln!(out, "dragon not in play; {} tiles set aside", g.set_aside().len());
    }
    if let Some(f) = g.fairy() {
        outln!(out, "fairy at {f}");
    }
    for p in 0..n {
        let hand = g.hand(Player(p as u8));
        if !hand.is_empty() {
            let ids: Vec<&str> = hand.iter().map(|k| g.catalogue().def(*k).id.as_str()).collect();
            outln!(out, "P{} holds {}", p + 1, ids.join(" "));
        }
    }
    outln!(out, "events:");
    for (i, e) in &r.events {
        outln!(out, "  {}", event_text(g, *i, e));
    }
    Ok(out)
}

pub(crate) fn view(file: &Path, player: u8, as_json: bool) -> Result<String> {
    let record = read_record(file)?;
    let r = record.replay()?;
    let g = &r.game;
    anyhow::ensure!(
        (1..=g.players() as u8).contains(&player),
        "--player {player}: this game has players 1 to {}",
        g.players()
    );
    let v = carcassonne::report::view_json(g, Player(player - 1));
    if as_json {
        return Ok(format!("{}\n", serde_json::to_string_pretty(&v)?));
    }
    Ok(view_text(g, &v))
}

/// The text form of a player's view, drawn from the same JSON value, so it can show nothing the JSON hides.
fn view_text(g: &Game, v: &Value) -> String {
    let mut out = String::new();
    let s = |x: &Value| x.as_str().unwrap_or("").to_string();
    let viewer = s(&v["viewer"]);
    let pending = &v["pending"];
    let stack = v["stack"].as_u64().unwrap_or(0) as usize;
    outln!(out, "what {viewer} sees: turn {}, {} in the stack", v["turn"], plural(stack, "tile"));
    let waiting = match s(&pending["kind"]).as_str() {
        "start_of_turn" => format!("{}'s turn is starting", s(&pending["actor"])),
        _ => pending_text(g),
    };
    outln!(out, "pending: {waiting}");
    let m = g.rules().modules;
    let mut head = String::from("player  score  meeples");
    for (on, name) in
        [(m.mayor, "mayor"), (m.wagon, "wagon"), (m.barn, "barns"), (m.abbey, "abbeys"), (m.halflings, "triangles")]
    {
        if on {
            head += &format!("  {name}");
        }
    }
    outln!(out, "{head}");
    for p in v["players"].as_array().into_iter().flatten() {
        let mut line = format!("{:<6}{:>7}{:>9}", s(&p["player"]), p["score"].to_string(), p["meeples"].to_string());
        for (on, key, w) in [
            (m.mayor, "mayor", 7),
            (m.wagon, "wagon", 7),
            (m.barn, "barns", 7),
            (m.abbey, "abbeys", 8),
            (m.halflings, "triangles", 11),
        ] {
            if on {
                line += &format!("{:>w$}", p[key].to_string());
            }
        }
        if s(&p["player"]) == viewer {
            line += "   (you)";
        }
        outln!(out, "{line}");
    }
    for p in v["players"].as_array().into_iter().flatten() {
        if let Some(hand) = p["hand"].as_array().filter(|h| !h.is_empty()) {
            let ids: Vec<String> = hand.iter().map(s).collect();
            outln!(out, "your triangles: {}", ids.join(" "));
        }
    }
    let draft: Vec<String> = v["draft"].as_array().into_iter().flatten().map(s).collect();
    if !draft.is_empty() {
        outln!(out, "face-up triangles to draft: {}", draft.join(" "));
    }
    out += &board_map(v);
    let meeples = v["meeples"].as_array().map_or(&[][..], Vec::as_slice);
    if !meeples.is_empty() {
        outln!(out, "meeples on the board:");
        for x in meeples {
            let fairy = if x["fairy"] == true { " (with the fairy)" } else { "" };
            outln!(
                out,
                "  {} {} on {} of {} at {}{fairy}",
                s(&x["player"]),
                s(&x["kind"]),
                s(&x["segment"]),
                s(&x["tile"]),
                s(&x["space"])
            );
        }
    }
    for b in v["barns"].as_array().into_iter().flatten() {
        outln!(out, "  {} barn at the {} corner of {}", s(&b["player"]), s(&b["corner"]), s(&b["space"]));
    }
    for (key, name) in [("dragon", "dragon"), ("fairy", "fairy")] {
        if let Some(at) = v["figures"][key].as_str() {
            outln!(out, "{name} at {at}");
        }
    }
    let legal: Vec<String> = v["legal"].as_array().into_iter().flatten().map(s).collect();
    if !legal.is_empty() {
        outln!(out, "your legal actions ({}):", legal.len());
        for a in legal {
            outln!(out, "  {a}");
        }
    }
    out
}

/// The board as a map of tile letters (the part of each id after its set), north at the top; `+` marks a space
/// holding two triangles.
fn board_map(v: &Value) -> String {
    let mut cells: std::collections::BTreeMap<(i64, i64), String> = std::collections::BTreeMap::new();
    for t in v["board"].as_array().into_iter().flatten() {
        let space = t["space"].as_str().unwrap_or("0,0");
        let Some((x, y)) = space.split_once(',').and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?))) else {
            continue;
        };
        let id = t["tile"].as_str().unwrap_or("?");
        let short = id.rsplit('/').next().unwrap_or(id).to_string();
        cells.entry((x, y)).and_modify(|c| c.push('+')).or_insert(short);
    }
    let mut out = String::new();
    if cells.is_empty() {
        return out;
    }
    let (x0, x1) = (cells.keys().map(|k| k.0).min().unwrap_or(0), cells.keys().map(|k| k.0).max().unwrap_or(0));
    let (y0, y1) = (cells.keys().map(|k| k.1).min().unwrap_or(0), cells.keys().map(|k| k.1).max().unwrap_or(0));
    let w = cells.values().map(|c| c.chars().count()).max().unwrap_or(1).max(x0.to_string().len()).max(2) + 1;
    if (x1 - x0 + 1) as usize * w > 160 {
        outln!(out, "board: {} spaces filled, x {x0}..{x1}, y {y0}..{y1} (too wide to draw)", cells.len());
        return out;
    }
    outln!(out, "board ({} spaces filled; x grows east, y north):", cells.len());
    let mut line = format!("{:>5} ", "");
    for x in x0..=x1 {
        line += &format!("{x:>w$}");
    }
    outln!(out, "{line}");
    for y in (y0..=y1).rev() {
        let mut line = format!("{y:>5} ");
        for x in x0..=x1 {
            line += &format!("{:>w$}", cells.get(&(x, y)).map_or(".", String::as_str));
        }
        outln!(out, "{}", line.trim_end());
    }
    out
}

pub(crate) fn legal(file: &Path, as_json: bool) -> Result<String> {
    let mut out = String::new();
    let record = read_record(file)?;
    let r = record.replay()?;
    let g = &r.game;
    let actions: Vec<String> = g.legal_actions().into_iter().map(|a| g.action_text(a)).collect();
    // At a draw, each kind is one action: how many copies are left makes the chances.
    let chances: Vec<(String, u32)> = if g.decision().kind == DecisionKind::Draw {
        g.chance_outcomes().into_iter().map(|(k, n)| (g.action_text(carcassonne::Action::Draw(k)), n)).collect()
    } else {
        Vec::new()
    };
    if as_json {
        let mut v = json!({ "pending": pending_json(g), "actions": actions });
        if !chances.is_empty() {
            let total: u32 = chances.iter().map(|c| c.1).sum();
            v["chances"] = chances
                .iter()
                .map(|(a, n)| json!({ "action": a, "copies": n, "probability": f64::from(*n) / f64::from(total) }))
                .collect();
        }
        outln!(out, "{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!(out, "# {}: {}", pending_text(g), plural(actions.len(), "legal action"));
        if chances.is_empty() {
            for a in actions {
                outln!(out, "{a}");
            }
        } else {
            let w = chances.iter().map(|c| c.0.len()).max().unwrap_or(0);
            for (a, n) in chances {
                outln!(out, "{a:<w$}  # {}", plural(n as usize, "copy"));
            }
        }
    }
    Ok(out)
}

/// `1 tile`, `2 tiles`, `2 completed cities`.
fn plural(n: usize, what: &str) -> String {
    crate::input::plural(n as u64, what)
}

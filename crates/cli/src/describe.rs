//! `carc replay` and `carc legal`: a game's state and events as text or JSON (the JSON shape is documented in
//! docs/record-format.md).

use std::path::PathBuf;

use anyhow::Result;
use serde_json::{Value, json};

use carcassonne::{Actor, DecisionKind, Event, Game, ScoreTime};

use crate::read_record;

pub(crate) fn pending_json(g: &Game) -> Value {
    let d = g.decision();
    let (actor, player) = match d.actor {
        Actor::Chance => ("chance".to_string(), Value::Null),
        Actor::Player(p) => (p.to_string(), json!(p.0)),
        Actor::Nobody => ("nobody".to_string(), Value::Null),
    };
    let (kind, tile) = match d.kind {
        DecisionKind::Draw => ("draw", Value::Null),
        DecisionKind::PlaceTile { tile } => ("place_tile", json!(g.catalogue().def(tile).id)),
        DecisionKind::Phase2 => ("phase2", Value::Null),
        DecisionKind::GameOver => ("game_over", Value::Null),
    };
    json!({ "actor": actor, "player": player, "kind": kind, "tile": tile })
}

fn pending_text(g: &Game) -> String {
    let d = g.decision();
    match (d.actor, d.kind) {
        (_, DecisionKind::GameOver) => "game over".into(),
        (_, DecisionKind::Draw) => format!("chance: draw a tile for {} ({} left)", g.active_player(), g.stack_len()),
        (Actor::Player(p), DecisionKind::PlaceTile { tile }) => {
            format!("{p} to place {}", g.catalogue().def(tile).id)
        }
        (Actor::Player(p), DecisionKind::Phase2) => format!("{p} to deploy a meeple or pass"),
        (a, k) => format!("{a:?} {k:?}"),
    }
}

fn event_json(g: &Game, action: usize, e: &Event) -> Value {
    match e {
        Event::Discarded { player, tile } => json!({
            "action": action, "type": "discarded", "player": player.0, "tile": g.catalogue().def(*tile).id,
        }),
        Event::GameEnded => json!({ "action": action, "type": "game_ended" }),
        Event::Scored(s) => {
            let (space, tile, segment) = g.describe_segment(s.at);
            json!({
                "action": action,
                "type": "scored",
                "when": match s.when { ScoreTime::Turn => "turn", ScoreTime::Final => "final" },
                "feature": s.feature.name(),
                "complete": s.complete,
                "points": s.points,
                "winners": s.winners.iter().map(|p| p.0).collect::<Vec<_>>(),
                "tiles": s.tiles,
                "pennants": s.pennants,
                "cities": s.cities,
                "returned": s.returned,
                "space": space.to_string(),
                "tile": tile,
                "segment": segment,
            })
        }
    }
}

fn event_text(g: &Game, action: usize, e: &Event) -> String {
    match e {
        Event::Discarded { player, tile } => {
            format!("#{action:<4} {player} discards {} (no legal place)", g.catalogue().def(*tile).id)
        }
        Event::GameEnded => format!("#{action:<4} game ends; final scoring"),
        Event::Scored(s) => {
            let (space, _, segment) = g.describe_segment(s.at);
            let who = if s.winners.is_empty() {
                "nobody".to_string()
            } else {
                s.winners.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("+")
            };
            let size = match s.feature {
                carcassonne::SegmentKind::Field => format!("{} completed cities", s.cities),
                carcassonne::SegmentKind::City => {
                    format!("{} tiles, {} pennants", s.tiles, s.pennants)
                }
                carcassonne::SegmentKind::Road => format!("{} tiles", s.tiles),
                _ => String::new(),
            };
            let when = match s.when {
                ScoreTime::Turn => "",
                ScoreTime::Final => "final ",
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

fn meeples_json(g: &Game) -> Value {
    Value::Array(
        g.meeples()
            .iter()
            .map(|m| {
                let (space, tile, segment) = g.describe_segment(m.segment);
                json!({ "player": m.player.0, "kind": m.kind.name(), "space": space.to_string(), "tile": tile,
                        "segment": segment })
            })
            .collect(),
    )
}

pub(crate) fn replay(file: &PathBuf, as_json: bool) -> Result<()> {
    let record = read_record(file)?;
    let r = record.replay()?;
    let g = &r.game;
    let n = g.players();
    let on_board: Vec<usize> = (0..n).map(|p| g.meeples().iter().filter(|m| m.player.index() == p).count()).collect();
    if as_json {
        let out = json!({
            "players": n,
            "actions": record.actions.len(),
            "scores": g.scores(),
            "supply": g.supply(),
            "on_board": on_board,
            "game_over": g.is_over(),
            "turn": g.turn(),
            "stack": g.stack_len(),
            "discarded": g.discarded(),
            "tiles_placed": g.board().tiles().len(),
            "pending": pending_json(g),
            "meeples": meeples_json(g),
            "events": r.events.iter().map(|(i, e)| event_json(g, *i, e)).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!(
        "{}: {} players, sets {}, {} actions replayed, all legal",
        file.display(),
        n,
        record.setup.sets.join(","),
        record.actions.len()
    );
    let nd = record.setup.rules.non_defaults();
    if !nd.is_empty() {
        println!("rules: {}", nd.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "));
    }
    println!(
        "turn {}, {} tiles placed, {} in the stack, {} discarded",
        g.turn(),
        g.board().tiles().len(),
        g.stack_len(),
        g.discarded()
    );
    println!("pending: {}", pending_text(g));
    println!("player  score  supply  on board");
    for p in 0..n {
        println!("P{:<6}{:>6}{:>8}{:>10}", p + 1, g.scores()[p], g.supply()[p], on_board[p]);
    }
    if !g.meeples().is_empty() {
        println!("meeples on the board:");
        for m in g.meeples() {
            let (space, tile, segment) = g.describe_segment(m.segment);
            println!("  {} {} on {segment} of {tile} at {space}", m.player, m.kind.name());
        }
    }
    println!("scoring events:");
    for (i, e) in &r.events {
        println!("  {}", event_text(g, *i, e));
    }
    Ok(())
}

pub(crate) fn legal(file: &PathBuf, as_json: bool) -> Result<()> {
    let record = read_record(file)?;
    let r = record.replay()?;
    let g = &r.game;
    let actions: Vec<String> = g.legal_actions().into_iter().map(|a| g.action_text(a)).collect();
    if as_json {
        println!("{}", serde_json::to_string_pretty(&json!({ "pending": pending_json(g), "actions": actions }))?);
    } else {
        println!("# {} ({} legal actions)", pending_text(g), actions.len());
        for a in actions {
            println!("{a}");
        }
    }
    Ok(())
}

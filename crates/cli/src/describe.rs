//! `carc replay` and `carc legal`: a game's state and events as text or JSON (the JSON shape is documented in
//! docs/record-format.md).

use std::path::PathBuf;

use anyhow::Result;
use serde_json::json;

use carcassonne::report::{event_json, meeples_json, pending_json};
use carcassonne::{Actor, DecisionKind, Event, Game, ScoreTime};

use crate::read_record;

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
                carcassonne::SegmentKind::Field => plural(s.cities as usize, "completed city"),
                carcassonne::SegmentKind::City => {
                    format!("{} tiles, {} pennants", s.tiles, s.pennants)
                }
                carcassonne::SegmentKind::Road => plural(s.tiles as usize, "tile"),
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

pub(crate) fn replay(file: &PathBuf, as_json: bool) -> Result<String> {
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
            "turn": g.turn(),
            "stack": g.stack_len(),
            "discarded": g.discarded(),
            "tiles_placed": g.board().tiles().len(),
            "pending": pending_json(g),
            "meeples": meeples_json(g),
            "events": r.events.iter().map(|(i, e)| event_json(g, *i, e)).collect::<Vec<_>>(),
        });
        outln!(out, "{}", serde_json::to_string_pretty(&value)?);
        return Ok(out);
    }
    outln!(
        out,
        "{}: {} players, sets {}, {} actions replayed, all legal",
        file.display(),
        n,
        record.setup.sets.join(","),
        record.actions.len()
    );
    let nd = record.setup.rules.non_defaults();
    if !nd.is_empty() {
        outln!(out, "rules: {}", nd.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "));
    }
    outln!(
        out,
        "turn {}, {} tiles placed, {} in the stack, {} discarded",
        g.turn(),
        g.board().tiles().len(),
        g.stack_len(),
        g.discarded()
    );
    outln!(out, "pending: {}", pending_text(g));
    outln!(out, "player  score  supply  on board");
    for (p, on) in on_board.iter().enumerate() {
        outln!(out, "P{:<6}{:>6}{:>8}{:>10}", p + 1, g.scores()[p], g.supply()[p], on);
    }
    if !g.meeples().is_empty() {
        outln!(out, "meeples on the board:");
        for m in g.meeples() {
            let (space, tile, segment) = g.describe_segment(m.segment);
            outln!(out, "  {} {} on {segment} of {tile} at {space}", m.player, m.kind.name());
        }
    }
    outln!(out, "scoring events:");
    for (i, e) in &r.events {
        outln!(out, "  {}", event_text(g, *i, e));
    }
    Ok(out)
}

pub(crate) fn legal(file: &PathBuf, as_json: bool) -> Result<String> {
    let mut out = String::new();
    let record = read_record(file)?;
    let r = record.replay()?;
    let g = &r.game;
    let actions: Vec<String> = g.legal_actions().into_iter().map(|a| g.action_text(a)).collect();
    if as_json {
        outln!(out, "{}", serde_json::to_string_pretty(&json!({ "pending": pending_json(g), "actions": actions }))?);
    } else {
        outln!(out, "# {} ({} legal actions)", pending_text(g), actions.len());
        for a in actions {
            outln!(out, "{a}");
        }
    }
    Ok(out)
}

fn plural(n: usize, what: &str) -> String {
    match (n, what.strip_suffix('y')) {
        (1, _) => format!("1 {what}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {what}s"),
    }
}

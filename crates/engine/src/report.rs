//! Machine-readable reports of a game: the pending decision, events and meeples as JSON values, in the shape
//! `carc replay --json` prints (docs/record-format.md). Scenario tests read the same shape.

use serde_json::{Value, json};

use crate::game::{Actor, DecisionKind, Event, Game, ScoreTime};

/// The pending decision: `{"actor", "player", "kind", "tile"}`.
pub fn pending_json(g: &Game) -> Value {
    let d = g.decision();
    let (actor, player) = match d.actor {
        Actor::Chance => ("chance".to_string(), Value::Null),
        Actor::Player(p) => (p.to_string(), json!(p.0)),
        Actor::Nobody => ("nobody".to_string(), Value::Null),
    };
    let (kind, tile) = match d.kind {
        DecisionKind::Phase1 => ("phase1", Value::Null),
        DecisionKind::MoveWagon => ("move_wagon", Value::Null),
        DecisionKind::Draw => ("draw", Value::Null),
        DecisionKind::PlaceTile { tile } => ("place_tile", json!(g.catalogue().def(tile).id)),
        DecisionKind::Phase2 => ("phase2", Value::Null),
        DecisionKind::GameOver => ("game_over", Value::Null),
    };
    json!({ "actor": actor, "player": player, "kind": kind, "tile": tile })
}

/// One event, numbered by the 1-based action that caused it.
pub fn event_json(g: &Game, action: usize, e: &Event) -> Value {
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
                "reason": s.reason.name(),
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

/// The meeples on the board.
pub fn meeples_json(g: &Game) -> Value {
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

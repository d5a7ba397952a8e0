//! Scenario tests: each file in `tests/scenarios/` is a record plus the outcome a careful player expects, worked out
//! by hand from the SPEC rules it cites (the `explanation` field shows the arithmetic). See
//! `tests/scenarios/README.md` for the format.

use carcassonne::Record;
use carcassonne::report::{event_json, pending_json};
use serde_json::Value;

use crate::util::files;

fn check(path: &std::path::Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let rules = doc["rules"].as_array().ok_or("missing `rules` (the SPEC ids it checks)")?;
    if rules.is_empty() {
        return Err("`rules` is empty".into());
    }
    let record: Record = serde_json::from_value(doc["record"].clone()).map_err(|e| format!("bad record: {e}"))?;
    let expect = &doc["expect"];
    let replay = record.replay();
    if let Some(err) = expect.get("error") {
        let e = match replay {
            Ok(_) => return Err("expected the replay to fail, but it succeeded".into()),
            Err(e) => e.to_string(),
        };
        let number = err["action"].as_u64().ok_or("error.action missing")?;
        if !e.starts_with(&format!("action {number} ")) {
            return Err(format!("expected a failure at action {number}, got: {e}"));
        }
        if let Some(c) = err["contains"].as_str()
            && !e.contains(c)
        {
            return Err(format!("error `{e}` does not contain `{c}`"));
        }
        return Ok(());
    }
    let r = replay.map_err(|e| format!("replay failed: {e}"))?;
    let g = &r.game;
    let cmp = |what: &str, got: Value| compare(expect, what, got);
    cmp("scores", serde_json::json!(g.scores()))?;
    cmp("supply", serde_json::json!(g.supply()))?;
    cmp("game_over", Value::Bool(g.is_over()))?;
    if g.is_over() {
        cmp("winners", serde_json::json!(g.leaders().iter().map(|p| p.to_string()).collect::<Vec<_>>()))?;
    }
    if let Some(want) = expect.get("events") {
        let want = want.as_array().ok_or("events must be a list")?;
        let got: Vec<Value> =
            r.events.iter().map(|(i, e)| event_json(g, *i, e)).filter(|e| e["type"] != "game_ended").collect();
        if want.len() != got.len() {
            return Err(format!(
                "expected {} events, got {}:\n{}",
                want.len(),
                got.len(),
                serde_json::to_string_pretty(&got).unwrap_or_default()
            ));
        }
        for (i, (w, e)) in want.iter().zip(&got).enumerate() {
            let w = w.as_object().ok_or("each event must be an object")?;
            for (k, v) in w {
                if e.get(k) != Some(v) {
                    return Err(format!("event {}: {k} expected {v}, got {}\nfull event: {e}", i + 1, e[k]));
                }
            }
        }
    }
    if let Some(legal) = expect.get("legal") {
        check_legal(g, legal)?;
    }
    if let Some(cps) = expect.get("checkpoints") {
        for (i, cp) in cps.as_array().ok_or("checkpoints must be a list")?.iter().enumerate() {
            checkpoint(&record, cp).map_err(|e| format!("checkpoint {} (after {}): {e}", i + 1, cp["after"]))?;
        }
    }
    Ok(())
}

/// A checkpoint: the state after the first `after` actions: `pending` (fields of the pending decision), `legal`,
/// `scores`, `supply`, `meeples` (how many on the board), `dragon` and `fairy` (spaces or null).
fn checkpoint(record: &Record, cp: &Value) -> Result<(), String> {
    let n = cp["after"].as_u64().ok_or("`after` (a number of actions) is missing")? as usize;
    if n > record.actions.len() {
        return Err(format!("the record has only {} actions", record.actions.len()));
    }
    let mut prefix = record.clone();
    prefix.actions.truncate(n);
    let r = prefix.replay().map_err(|e| format!("replay failed: {e}"))?;
    let g = &r.game;
    if let Some(want) = cp.get("pending") {
        let got = pending_json(g);
        for (k, v) in want.as_object().ok_or("pending must be an object")? {
            if got.get(k) != Some(v) {
                return Err(format!("pending.{k}: expected {v}, got {}", got[k]));
            }
        }
    }
    let cmp = |what: &str, got: Value| compare(cp, what, got);
    cmp("scores", serde_json::json!(g.scores()))?;
    cmp("supply", serde_json::json!(g.supply()))?;
    cmp("meeples", serde_json::json!(g.meeples().len()))?;
    cmp("barns", serde_json::json!(g.barns().len()))?;
    cmp("dragon", serde_json::json!(g.dragon().map(|s| s.to_string())))?;
    cmp("fairy", serde_json::json!(g.fairy().map(|s| s.to_string())))?;
    if let Some(legal) = cp.get("legal") {
        check_legal(g, legal)?;
    }
    Ok(())
}

/// Compare one value with the expectation's key `what`, if the expectation gives it.
fn compare(expect: &Value, what: &str, got: Value) -> Result<(), String> {
    match expect.get(what) {
        Some(want) if *want != got => Err(format!("{what}: expected {want}, got {got}")),
        _ => Ok(()),
    }
}

fn check_legal(g: &carcassonne::Game, legal: &Value) -> Result<(), String> {
    {
        let actions: Vec<String> = g.legal_actions().into_iter().map(|a| g.action_text(a)).collect();
        if let Some(n) = legal.get("count")
            && *n != serde_json::json!(actions.len())
        {
            return Err(format!("legal count: expected {n}, got {} ({actions:?})", actions.len()));
        }
        for a in legal.get("includes").and_then(Value::as_array).into_iter().flatten() {
            if !actions.iter().any(|x| Some(x.as_str()) == a.as_str()) {
                return Err(format!("legal actions lack {a}: {actions:?}"));
            }
        }
        for a in legal.get("excludes").and_then(Value::as_array).into_iter().flatten() {
            if actions.iter().any(|x| Some(x.as_str()) == a.as_str()) {
                return Err(format!("legal actions include {a}"));
            }
        }
    }
    Ok(())
}

#[test]
fn every_scenario_holds() {
    let paths = files("scenarios", "json");
    assert!(!paths.is_empty(), "no scenario files found");
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|p| check(p).err().map(|e| format!("{}: {e}", p.file_name().unwrap().to_string_lossy())))
        .collect();
    assert!(failures.is_empty(), "{} of {} scenarios failed:\n{}", failures.len(), paths.len(), failures.join("\n\n"));
}

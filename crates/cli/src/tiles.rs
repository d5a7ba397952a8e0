//! `carc tiles`: the catalogue with counts.

use std::path::Path;

use anyhow::Result;
use serde_json::json;

use carcassonne::catalogue::{SegmentKind, Shape, TileSet, builtin_set, builtin_set_ids};

fn segment_summary(t: &carcassonne::TileDef) -> String {
    let count = |k| t.segments.iter().filter(|s| s.kind == k).count();
    let mut parts = vec![];
    for k in [SegmentKind::City, SegmentKind::Road, SegmentKind::Field, SegmentKind::Monastery, SegmentKind::Crop] {
        let n = count(k);
        if n > 0 {
            parts.push(crate::input::plural(n as u64, k.name()));
        }
    }
    parts.join(", ")
}

fn print_set(out: &mut String, set: &TileSet) {
    let pennants: u32 = set.tiles.iter().map(|t| t.pennants() * t.count as u32).sum();
    let monasteries: u32 = set.tiles.iter().filter(|t| t.has_monastery()).map(|t| t.count as u32).sum();
    let gardens: u32 = set.tiles.iter().map(|t| t.gardens as u32).sum();
    let held: u32 = set.tiles.iter().filter(|t| t.shape != Shape::Square).map(|t| t.count as u32).sum();
    let held_text = if held > 0 { format!(" + {held} held in hand (abbeys, triangles)") } else { String::new() };
    use crate::input::count;
    outln!(
        out,
        "{} — {}: {}{held_text} in {}; {}, {}, {}{}",
        set.id,
        set.name,
        count(set.tile_count() - held, "land tile", "land tiles"),
        count(set.tiles.len() as u64, "kind", "kinds"),
        count(pennants, "pennant", "pennants"),
        count(monasteries, "monastery tile", "monastery tiles"),
        count(gardens, "garden", "gardens"),
        set.start.as_ref().map(|s| format!("; start tile {s}")).unwrap_or_default()
    );
    if let Some(n) = &set.notice {
        for line in n.lines() {
            outln!(out, "  NOTE: {line}");
        }
    }
    outln!(
        out,
        "  {:<12} {:>5} {:>7}  {:<5} {:<34} {:<30} {}",
        "id",
        "count",
        "gardens",
        "edges",
        "segments",
        "symbols / notes",
        "name"
    );
    for t in &set.tiles {
        let mut notes: Vec<String> = t.symbols.iter().map(|s| s.name().to_string()).collect();
        if t.pennants() > 0 {
            notes.push(count(t.pennants(), "pennant", "pennants"));
        }
        if t.segments.iter().any(|s| s.princess) {
            notes.push("princess".into());
        }
        if t.segments.iter().any(|s| s.tunnel) {
            notes.push("tunnel".into());
        }
        outln!(
            out,
            "  {:<12} {:>5} {:>7}  {:<5} {:<34} {:<30} {}",
            t.id,
            t.count,
            t.gardens,
            t.edge_letters(),
            segment_summary(t),
            notes.join(", "),
            t.name
        );
    }
}

fn set_json(set: &TileSet) -> serde_json::Value {
    json!({
        "set": set.id,
        "name": set.name,
        "start": set.start,
        "notice": set.notice,
        "tiles_total": set.tile_count(),
        "kinds": set.tiles.len(),
        "tiles": set.tiles.iter().map(|t| json!({
            "id": t.id,
            "name": t.name,
            "count": t.count,
            "gardens": t.gardens,
            "edges": t.edge_letters(),
            "pennants": t.pennants(),
            "symbols": t.symbols.iter().map(|s| s.name()).collect::<Vec<_>>(),
            "segments": t.segments.iter().map(|s| s.kind.name()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

pub(crate) fn tiles(set: Option<&str>, file: Option<&Path>, as_json: bool) -> Result<String> {
    let mut out = String::new();
    let sets: Vec<TileSet> = if let Some(path) = file {
        let text = crate::input::read_text(path)?;
        vec![TileSet::from_toml(&text, &crate::input::name(path))?]
    } else if let Some(s) = set {
        vec![builtin_set(s)?]
    } else {
        builtin_set_ids().map(builtin_set).collect::<Result<_, _>>()?
    };
    if as_json {
        outln!(out, "{}", serde_json::to_string_pretty(&sets.iter().map(set_json).collect::<Vec<_>>())?);
    } else {
        for (i, s) in sets.iter().enumerate() {
            if i > 0 {
                outln!(out,);
            }
            print_set(&mut out, s);
        }
    }
    Ok(out)
}

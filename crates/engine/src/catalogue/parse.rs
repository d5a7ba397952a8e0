//! Reading and validating one tile entry (docs/tile-format.md).

use thiserror::Error;

use super::{CropType, RoadEnd, Segment, SegmentKind, Shape, Symbol, TileDef, TileEntry, terrain_of};
use crate::geom::{Edge, Pos, Side, Terrain};

/// Why a tile set could not be loaded.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CatalogueError {
    /// The file is not valid TOML, or has unknown keys.
    #[error("{origin}: {message}")]
    Syntax {
        /// File or source name.
        origin: String,
        /// The parser's message.
        message: String,
    },
    /// A tile is wrong.
    #[error("{origin}: tile {tile}: {message}")]
    Tile {
        /// File or source name.
        origin: String,
        /// Full tile id.
        tile: String,
        /// What is wrong.
        message: String,
    },
    /// The set as a whole is wrong.
    #[error("{origin}: {message}")]
    Set {
        /// File or source name.
        origin: String,
        /// What is wrong.
        message: String,
    },
    /// No built-in set has this name.
    #[error("unknown tile set `{0}` (built-in sets: base, am, pd, cc, half)")]
    UnknownSet(String),
}

struct Raw {
    kind: SegmentKind,
    label: Option<String>,
    positions: u16,
    pennants: u8,
    princess: bool,
    cities: Vec<String>,
    end: Option<String>,
    tunnel: bool,
    /// A city bridging over another feature (`bridge`): it may cross it.
    bridge: bool,
    inside: Option<String>,
}

const SIDE_NAMES: [&str; 5] = ["N", "E", "S", "W", "L"];

fn parse_segment(line: &str, shape: Shape) -> Result<Raw, String> {
    let mut words = line.split_whitespace();
    let head = words.next().ok_or("an empty segment line")?;
    let (kind_name, label) = match head.split_once(':') {
        Some((k, l)) if !l.is_empty() => (k, Some(l.to_string())),
        Some(_) => return Err(format!("segment `{line}`: empty label after `:`")),
        None => (head, None),
    };
    let kind = SegmentKind::from_name(kind_name)
        .ok_or_else(|| format!("segment `{line}`: unknown kind `{kind_name}` (road, city, field, monastery, crop)"))?;
    let mut raw = Raw {
        kind,
        label,
        positions: 0,
        pennants: 0,
        princess: false,
        cities: vec![],
        end: None,
        tunnel: false,
        bridge: false,
        inside: None,
    };
    let mut inner = false;
    for w in words {
        if let Some((key, value)) = w.split_once('=') {
            match (kind, key) {
                (SegmentKind::City, "pennants") => {
                    raw.pennants =
                        value.parse().map_err(|_| format!("segment `{line}`: pennants must be a small number"))?
                }
                (SegmentKind::Field, "cities") => raw.cities = value.split(',').map(str::to_string).collect(),
                (SegmentKind::Road, "end") => raw.end = Some(value.to_string()),
                (SegmentKind::Monastery, "in") => raw.inside = Some(value.to_string()),
                _ => {
                    return Err(format!("segment `{line}`: a {} has no option `{key}`", kind.name()));
                }
            }
            continue;
        }
        match (kind, w) {
            (SegmentKind::City, "princess") => raw.princess = true,
            (SegmentKind::Road, "tunnel") => raw.tunnel = true,
            (SegmentKind::City, "bridge") => raw.bridge = true,
            (SegmentKind::Field, "inner") => inner = true,
            (SegmentKind::Road | SegmentKind::City, s) if SIDE_NAMES.contains(&s) => {
                let side = SIDE_NAMES.iter().position(|n| *n == s).expect("checked");
                let range = if kind == SegmentKind::City { 0..3 } else { 1..2 };
                for k in range {
                    let p = if side == 4 { Pos::on_long(k) } else { Pos::on_side(Side::from_index(side), k) };
                    raw.positions |= p.bit();
                }
            }
            (SegmentKind::Field, s) => match Pos::from_name(s) {
                Some(p) if !p.is_centre() => raw.positions |= p.bit(),
                _ => {
                    return Err(format!(
                        "segment `{line}`: `{s}` is not a half position (Nw Ne En Es Se Sw Ws Wn La Lb) or `inner`"
                    ));
                }
            },
            _ => {
                return Err(format!("segment `{line}`: `{w}` is not a side or option of a {}", kind.name()));
            }
        }
    }
    match kind {
        SegmentKind::Road | SegmentKind::City if raw.positions == 0 => {
            return Err(format!("segment `{line}`: a {} must touch at least one side", kind.name()));
        }
        SegmentKind::Field if raw.positions == 0 && !inner => {
            return Err(format!("segment `{line}`: a field must name its half positions, or be `inner`"));
        }
        SegmentKind::Field if raw.positions != 0 && inner => {
            return Err(format!("segment `{line}`: an `inner` field touches no position"));
        }
        _ => {}
    }
    if shape != Shape::Triangle && raw.positions >> 12 != 0 {
        return Err(format!("segment `{line}`: only a triangle has a long side (L, La, Lb)"));
    }
    if shape == Shape::Triangle {
        let legs_and_long = Side::N.index() * 3..Side::E.index() * 3 + 3;
        for p in 0..12 {
            if raw.positions & (1 << p) != 0 && !legs_and_long.contains(&p) {
                return Err(format!(
                    "segment `{line}`: a triangle is written with its legs on N and E; `{}` is not on it",
                    Pos(p as u8).name()
                ));
            }
        }
    }
    Ok(raw)
}

/// Segments are areas of a flat tile: two that both touch its rim cannot alternate round it (`a … b … a … b`),
/// since one would have to pass over the other, unless it does: a road marked `tunnel`, a city marked `bridge`.
/// This refuses, say, one field on both sides of a straight road, or a city and a road crossing without a tunnel.
fn crossing(raws: &[Raw], owner: &[u8; Pos::COUNT], shape: Shape, lines: &[String]) -> Result<(), String> {
    // The rim clockwise from the north-west corner; a triangle's long side runs from its E leg's end back to Nw.
    const SQUARE: [usize; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    const TRIANGLE: [usize; 9] = [0, 1, 2, 3, 4, 5, 12, 13, 14];
    let rim: &[usize] = if shape == Shape::Triangle { &TRIANGLE } else { &SQUARE };
    let round: Vec<u8> = rim.iter().map(|&p| owner[p]).filter(|&o| o != u8::MAX).collect();
    for a in 0..raws.len() {
        for b in a + 1..raws.len() {
            if raws[a].tunnel || raws[b].tunnel || raws[a].bridge || raws[b].bridge {
                continue;
            }
            let (a8, b8) = (a as u8, b as u8);
            let seen: Vec<u8> = round.iter().copied().filter(|&o| o == a8 || o == b8).collect();
            let changes = (0..seen.len()).filter(|&i| seen[i] != seen[(i + 1) % seen.len()]).count();
            if changes >= 4 {
                let names = |i: usize| -> String {
                    rim.iter()
                        .filter(|&&p| owner[p] as usize == i)
                        .map(|&p| Pos(p as u8).name())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                return Err(format!(
                    "segments {} (`{}`, at {}) and {} (`{}`, at {}) cross: they alternate round the tile's edge, \
                     which no flat tile can show (a road passing under is written `tunnel`, a city bridging \
                     another `bridge`)",
                    a + 1,
                    lines[a],
                    names(a),
                    b + 1,
                    lines[b],
                    names(b)
                ));
            }
        }
    }
    Ok(())
}

fn parse_symbol(s: &str) -> Result<Symbol, String> {
    Ok(match s {
        "dragon" => Symbol::Dragon,
        "volcano" => Symbol::Volcano,
        "portal" => Symbol::Portal,
        "crop:pitchfork" => Symbol::CropCircle(CropType::Pitchfork),
        "crop:club" => Symbol::CropCircle(CropType::Club),
        "crop:shield" => Symbol::CropCircle(CropType::Shield),
        "crop" => Symbol::CropAnyRole,
        "vineyard" => Symbol::Vineyard,
        "hill" => Symbol::Hill,
        "sheep" => Symbol::Sheep,
        other => {
            return Err(format!(
                "unknown symbol `{other}` (dragon, volcano, portal, crop:pitchfork, crop:club, crop:shield, crop, \
                 vineyard, hill, sheep)"
            ));
        }
    })
}

/// Validate one entry of set `set`.
pub(super) fn tile(set: &str, e: &TileEntry) -> Result<TileDef, String> {
    if e.id.is_empty() || e.id.contains(char::is_whitespace) || e.id.contains('/') {
        return Err("a tile id must be non-empty, without spaces or `/`".into());
    }
    if e.count == 0 {
        return Err("count must be at least 1".into());
    }
    if e.gardens > e.count {
        return Err(format!("{} gardens on {} copies", e.gardens, e.count));
    }
    let shape = match e.shape.as_deref() {
        None | Some("square") => Shape::Square,
        Some("triangle") => Shape::Triangle,
        Some("abbey") => Shape::Abbey,
        Some(o) => return Err(format!("unknown shape `{o}` (square, triangle, abbey)")),
    };
    let symbols = e.symbols.iter().map(|s| parse_symbol(s)).collect::<Result<Vec<_>, _>>()?;
    let raws = e.segments.iter().map(|l| parse_segment(l, shape)).collect::<Result<Vec<_>, _>>()?;
    if raws.is_empty() {
        return Err("a tile needs at least one segment".into());
    }
    if raws.len() > super::MAX_SEGMENTS {
        return Err(format!("{} segments; a tile may have at most {}", raws.len(), super::MAX_SEGMENTS));
    }

    // Labels.
    let mut labels: Vec<(String, usize)> = vec![];
    for (i, r) in raws.iter().enumerate() {
        if let Some(l) = &r.label {
            if labels.iter().any(|(m, _)| m == l) {
                return Err(format!("label `{l}` is used twice"));
            }
            labels.push((l.clone(), i));
        }
    }
    let city = |l: &str, what: &str| -> Result<u8, String> {
        let (_, i) = labels
            .iter()
            .find(|(m, _)| m == l)
            .ok_or_else(|| format!("{what} refers to `{l}`, which labels no segment"))?;
        if raws[*i].kind != SegmentKind::City {
            return Err(format!("{what} refers to `{l}`, which is not a city"));
        }
        Ok(*i as u8)
    };

    // Positions: each claimed once.
    let mut owner = [u8::MAX; Pos::COUNT];
    for (i, r) in raws.iter().enumerate() {
        for (p, slot) in owner.iter_mut().enumerate() {
            if r.positions & (1 << p) != 0 {
                if *slot != u8::MAX {
                    return Err(format!(
                        "position {} is claimed by segments {} and {}",
                        Pos(p as u8).name(),
                        *slot + 1,
                        i + 1
                    ));
                }
                *slot = i as u8;
            }
        }
    }

    crossing(&raws, &owner, shape, &e.segments)?;

    let mut segments: Vec<Segment> = Vec::with_capacity(raws.len());
    for (i, r) in raws.iter().enumerate() {
        let what = format!("segment {} ({})", i + 1, e.segments[i]);
        let cities = r.cities.iter().map(|c| city(c, &what)).collect::<Result<Vec<_>, _>>()?;
        let end = match r.end.as_deref() {
            None => None,
            Some("monastery") => Some(RoadEnd::Monastery),
            Some("junction") => Some(RoadEnd::Junction),
            Some("village") => Some(RoadEnd::Village),
            Some("volcano") => Some(RoadEnd::Volcano),
            Some("crop") => Some(RoadEnd::Crop),
            Some("house") => Some(RoadEnd::House),
            Some("garden") => Some(RoadEnd::Garden),
            Some("dead") => Some(RoadEnd::Dead),
            Some(s) => match s.strip_prefix("city:") {
                Some(l) => Some(RoadEnd::CityGate(city(l, &what)?)),
                None => return Err(format!("{what}: unknown road end `{s}`")),
            },
        };
        let inside = r.inside.as_deref().map(|l| city(l, &what)).transpose()?;
        let sides = (0..5).filter(|s| r.positions & (7 << (3 * s)) != 0).count();
        if r.kind == SegmentKind::Road && sides == 1 && end.is_none() {
            return Err(format!("{what}: a road touching one side must say where it ends (end=…)"));
        }
        if r.kind == SegmentKind::Road
            && end == Some(RoadEnd::Monastery)
            && !raws.iter().any(|x| x.kind == SegmentKind::Monastery)
        {
            return Err(format!("{what}: the road ends at a monastery, but the tile has none"));
        }
        segments.push(Segment {
            kind: r.kind,
            label: r.label.clone(),
            positions: r.positions,
            pennants: r.pennants,
            princess: r.princess,
            cities,
            end,
            tunnel: r.tunnel,
            inside,
        });
    }

    // Sides: coverage and edges.
    let mut edges = [Edge::NONE; 4];
    let mut long_edge = Edge::NONE;
    if shape == Shape::Abbey {
        if segments.len() != 1 || segments[0].kind != SegmentKind::Monastery {
            return Err("an abbey has exactly one segment, `monastery`".into());
        }
        edges = [Edge::ANY; 4];
    } else {
        let sides: &[usize] = if shape == Shape::Triangle { &[0, 1, 4] } else { &[0, 1, 2, 3] };
        for &s in sides {
            let at = |k: usize| -> usize { s * 3 + k };
            let name = SIDE_NAMES[s];
            let centre = owner[at(1)];
            if centre == u8::MAX {
                // A field side: both halves must be fields; the centre belongs to the first half's field.
                let (a, b) = (owner[at(0)], owner[at(2)]);
                if a == u8::MAX || b == u8::MAX {
                    return Err(format!("side {name} is not fully covered: every half needs a field, road or city"));
                }
                if segments[a as usize].kind != SegmentKind::Field || segments[b as usize].kind != SegmentKind::Field {
                    return Err(format!(
                        "side {name}: a side without a road or city centre must be field on both halves"
                    ));
                }
                owner[at(1)] = a;
                segments[a as usize].positions |= 1 << at(1);
            } else {
                let c = segments[centre as usize].kind;
                for k in [0, 2] {
                    let o = owner[at(k)];
                    if o == u8::MAX {
                        return Err(format!("side {name}: half {} is not covered", Pos(at(k) as u8).name()));
                    }
                    let ok = match c {
                        SegmentKind::City => o == centre,
                        _ => segments[o as usize].kind == SegmentKind::Field,
                    };
                    if !ok {
                        return Err(format!(
                            "side {name}: a {} centre needs {} on both halves",
                            c.name(),
                            if c == SegmentKind::City { "the same city" } else { "fields" }
                        ));
                    }
                }
            }
            let t = |k: usize| terrain_of(segments[owner[at(k)] as usize].kind).unwrap_or(Terrain::Field);
            let edge = Edge::new(t(0), t(1), t(2));
            if s == 4 {
                long_edge = edge;
            } else {
                edges[s] = edge;
            }
        }
        // Positions on sides a triangle does not have were rejected while parsing; a square has no long side.
    }
    for (i, s) in segments.iter().enumerate() {
        if s.kind == SegmentKind::Monastery && s.positions != 0 {
            return Err(format!("segment {}: a monastery touches no side", i + 1));
        }
    }
    let letters: String = edges.iter().map(|e| e.letter()).collect();
    if let Some(decl) = &e.edges {
        let decl_cmp: String = decl.chars().filter(|c| !c.is_whitespace()).collect();
        let ours: String = match shape {
            Shape::Triangle => letters[..2].to_string() + &long_edge.letter().to_string(),
            _ => letters.clone(),
        };
        if decl_cmp != ours {
            return Err(format!("declared edges `{decl}` but the segments give `{ours}`"));
        }
    }
    Ok(TileDef {
        id: format!("{set}/{}", e.id),
        set: set.to_string(),
        name: e.name.clone(),
        count: e.count,
        gardens: e.gardens,
        shape,
        symbols,
        segments,
        edges,
        long_edge,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(segs: &[&str]) -> TileEntry {
        TileEntry {
            id: "T".into(),
            count: 1,
            gardens: 0,
            name: String::new(),
            shape: None,
            edges: None,
            symbols: vec![],
            segments: segs.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn a_good_tile_loads() {
        let d = tile("t", &entry(&["city:A N", "road E W", "field En Wn cities=A", "field Es Se Sw Ws"])).unwrap();
        assert_eq!(d.edge_letters(), "CRFR");
        assert_eq!(d.segments[2].cities, vec![0]);
    }

    #[test]
    fn errors_name_the_problem() {
        let err = |segs: &[&str]| tile("t", &entry(segs)).unwrap_err();
        assert!(err(&["city:A N", "road E W", "field En Wn cities=A"]).contains("Es is not covered"));
        assert!(err(&["city:A N E S W", "road N"]).contains("claimed"));
        assert!(err(&["town N E S W"]).contains("unknown kind"));
        assert!(err(&["city:A N E S W", "field inner cities=B"]).contains("labels no segment"));
        assert!(err(&["road", "field Nw Ne En Es Se Sw Ws Wn"]).contains("at least one side"));
        assert!(err(&["road S", "field Nw Ne En Es Se Sw Ws Wn"]).contains("where it ends"));
        assert!(err(&["city:A N E S W", "field"]).contains("half positions"));
        // One field on both sides of a straight road, and a road crossing a city without a tunnel.
        assert!(err(&["road N S", "field Nw Ne En Es Se Sw Ws Wn"]).contains("cross"));
        assert!(err(&["road N S", "city:A E W", "field Nw", "field Ne", "field Se", "field Sw"]).contains("cross"));
        assert!(err(&["city:A N S", "city:B E W", "field inner", "field inner"]).contains("cross"));
        assert!(tile("t", &entry(&["city:A N S bridge", "city:B E W", "field inner", "field inner"])).is_ok());
        assert!(tile("t", &entry(&["road N S tunnel", "city:A E W", "field Nw", "field Ne", "field Se Sw"])).is_ok());
        assert!(err(&["city:A N E S W pennants=x"]).contains("pennants"));
    }

    #[test]
    fn declared_edges_are_checked() {
        let mut e = entry(&["city:A N E S W"]);
        e.edges = Some("CCCF".into());
        assert!(tile("t", &e).unwrap_err().contains("declared edges"));
    }

    #[test]
    fn triangles_use_legs_and_long_side() {
        let mut e = entry(&["city:A N", "field En Lb", "field Es La", "road L E"]);
        e.shape = Some("triangle".into());
        // E has a road centre and field halves; L has a road centre and field halves.
        let d = tile("t", &e).unwrap();
        assert_eq!(d.edges[0].letter(), 'C');
        assert_eq!(d.edges[1].letter(), 'R');
        assert_eq!(d.long_edge.letter(), 'R');
        assert_eq!(d.edges[2], Edge::NONE);
        let mut bad = entry(&["city:A N S", "field En Lb", "field Es La", "road L E"]);
        bad.shape = Some("triangle".into());
        assert!(tile("t", &bad).unwrap_err().contains("legs on N and E"));
    }
}

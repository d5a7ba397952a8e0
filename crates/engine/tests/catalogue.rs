//! The built-in tile sets against the totals in docs/tiles.md.

use carcassonne::catalogue::{CropType, SegmentKind, Shape, Symbol, TileSet, builtin_set};

fn sum(set: &TileSet, f: impl Fn(&carcassonne::TileDef) -> u32) -> u32 {
    set.tiles.iter().map(f).sum()
}

#[test]
fn base_set_totals() {
    let s = builtin_set("base").unwrap();
    assert_eq!(s.tiles.len(), 24, "24 kinds");
    assert_eq!(s.tile_count(), 72, "72 tiles");
    assert_eq!(sum(&s, |t| t.pennants() * t.count as u32), 10, "10 pennants");
    assert_eq!(sum(&s, |t| if t.has_monastery() { t.count as u32 } else { 0 }), 6, "6 monasteries");
    assert_eq!(sum(&s, |t| t.gardens as u32), 8, "8 gardens");
    assert_eq!(s.start.as_deref(), Some("base/D"));
    let d = s.tiles.iter().find(|t| t.id == "base/D").unwrap();
    assert_eq!(d.edge_letters(), "CRFR");
    assert_eq!(d.count, 4);
}

#[test]
fn princess_and_dragon_totals() {
    let s = builtin_set("pd").unwrap();
    assert_eq!(s.tile_count(), 30);
    let with = |sym: Symbol| sum(&s, |t| if t.has_symbol(sym) { t.count as u32 } else { 0 });
    assert_eq!(with(Symbol::Volcano), 6);
    assert_eq!(with(Symbol::Dragon), 12);
    assert_eq!(with(Symbol::Portal), 6);
    assert_eq!(sum(&s, |t| if t.segments.iter().any(|x| x.princess) { t.count as u32 } else { 0 }), 6);
    // The monastery inside a city (tile O) and the tunnel (tile Q), BASE-18.
    let o = s.tiles.iter().find(|t| t.id == "pd/O").unwrap();
    assert!(o.segments.iter().any(|x| x.kind == SegmentKind::Monastery && x.inside.is_some()));
    let q = s.tiles.iter().find(|t| t.id == "pd/Q").unwrap();
    assert_eq!(q.segments.iter().filter(|x| x.kind == SegmentKind::Road).count(), 1);
}

#[test]
fn crop_circle_totals() {
    let s = builtin_set("crop-circles").unwrap();
    assert_eq!(s.tile_count(), 6);
    for ty in [CropType::Pitchfork, CropType::Club, CropType::Shield] {
        assert_eq!(sum(&s, |t| if t.has_symbol(Symbol::CropCircle(ty)) { t.count as u32 } else { 0 }), 2, "{ty:?}");
    }
    assert!(s.tiles.iter().all(|t| t.segments.iter().filter(|x| x.kind == SegmentKind::Crop).count() == 1));
}

#[test]
fn abbey_and_mayor_totals() {
    let s = builtin_set("am").unwrap();
    let land: Vec<_> = s.tiles.iter().filter(|t| t.shape == Shape::Square).collect();
    assert_eq!(land.iter().map(|t| t.count as u32).sum::<u32>(), 12, "12 land tiles");
    assert_eq!(land.iter().map(|t| t.pennants() * t.count as u32).sum::<u32>(), 6, "6 pennants");
    assert_eq!(land.iter().filter(|t| t.pennants() > 0).count(), 5, "on 5 tiles");
    let abbey = s.tiles.iter().find(|t| t.shape == Shape::Abbey).unwrap();
    assert_eq!(abbey.count, 6);
    assert_eq!(abbey.edge_letters(), "****");
}

#[test]
fn a_users_file_loads_and_bad_data_is_named() {
    let good = "set = \"mine\"\nname = \"Mine\"\n[[tile]]\nid = \"X\"\nsegments = [\"city:A N E S W pennants=1\"]\n";
    let s = TileSet::from_toml(good, "mine.toml").unwrap();
    assert_eq!(s.tiles[0].id, "mine/X");
    let bad = good.replace("N E S W", "N E S");
    let e = TileSet::from_toml(&bad, "mine.toml").unwrap_err().to_string();
    assert!(e.contains("mine.toml") && e.contains("mine/X") && e.contains("side W"), "{e}");
    let unknown = good.replace("segments", "segmentz");
    assert!(TileSet::from_toml(&unknown, "mine.toml").unwrap_err().to_string().contains("segmentz"));
    assert!(builtin_set("nope").is_err());
}

/// `n` custom kinds, each a monastery in open fields.
fn many_kinds(n: usize) -> TileSet {
    let entries: Vec<carcassonne::catalogue::TileEntry> = (0..n)
        .map(|i| carcassonne::catalogue::TileEntry {
            id: format!("K{i}"),
            count: 1,
            gardens: 0,
            name: String::new(),
            shape: None,
            edges: None,
            symbols: vec![],
            segments: vec!["monastery".into(), "field Nw Ne En Es Se Sw Ws Wn".into()],
        })
        .collect();
    TileSet::from_entries("custom", "Custom tiles", None, &entries, "test").expect("valid tiles")
}

#[test]
fn a_catalogue_too_big_to_number_is_refused() {
    // With the base game's 24 kinds these fill every number a kind can have; one more is refused rather than
    // wrapping round to `base/A`.
    let room = carcassonne::Catalogue::MAX_KINDS - 24;
    let mut big = many_kinds(room + 1);
    let sets = |big: &TileSet| vec![builtin_set("base").unwrap(), big.clone()];
    let err = carcassonne::Catalogue::new(&sets(&big)).expect_err("one kind too many");
    assert!(err.to_string().contains("at most 65536 tile kinds"), "{err}");
    big.tiles.pop();
    let cat = carcassonne::Catalogue::new(&sets(&big)).expect("exactly as many kinds as there are numbers");
    let last = cat.kinds().last().expect("kinds");
    assert_eq!(cat.def(last).id, format!("custom/K{}", room - 1));
    assert_eq!(cat.kinds().count(), carcassonne::Catalogue::MAX_KINDS);
}

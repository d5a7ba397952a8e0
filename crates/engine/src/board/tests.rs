//! Board and feature-graph tests, triangles included (SPEC HALF-02, HALF-05..08, HALF-11), with hand-made tiles.

use super::*;
use crate::catalogue::{TileSet, builtin_set};

/// Hand-made triangles, written with the right angle at the north-east (legs N and E, long side L).
const TRIANGLES: &str = r#"
set = "tri"
name = "test triangles"

# A road from the N leg to the long side; fields on either side of it.
[[tile]]
id = "road"
shape = "triangle"
edges = "RFR"
segments = ["road N L", "field Nw Lb", "field Ne En Es La"]

# A city on the N leg that reaches the long side.
[[tile]]
id = "city"
shape = "triangle"
edges = "CFC"
segments = ["city:A N L", "field En Es cities=A"]

# A city cap on the long side only.
[[tile]]
id = "cap"
shape = "triangle"
edges = "FFC"
segments = ["city:A L", "field Nw Ne En Es cities=A"]

# All field.
[[tile]]
id = "grass"
shape = "triangle"
edges = "FFF"
segments = ["field Nw Ne En Es La Lb"]
"#;

fn setup() -> (Catalogue, Board) {
    let base = builtin_set("base").unwrap();
    let tri = TileSet::from_toml(TRIANGLES, "triangles").unwrap();
    let cat = Catalogue::new(&[base, tri]).unwrap();
    let mut board = Board::new();
    let d = cat.by_id("base/D").unwrap();
    board.place_start(&cat, d, Space::new(0, 0), Placement::Square(Rotation::R0), &mut vec![]).unwrap();
    (cat, board)
}

fn k(cat: &Catalogue, id: &str) -> TileKind {
    cat.by_id(id).unwrap()
}

fn tri(c: Corner) -> Placement {
    Placement::Triangle(c)
}

#[test]
fn a_lone_triangle_half_fills_its_space() {
    let (cat, mut b) = setup();
    let road = k(&cat, "tri/road");
    let s = Space::new(1, 0);
    // Turned to NW, the road runs from the W leg (facing the start tile's road) to the long side.
    b.place(&cat, road, s, tri(Corner::NW), &mut vec![]).unwrap();
    assert!(b.is_filled(s));
    assert!(!b.is_full(s));
    assert_eq!(b.tiles_in(s).count(), 1);
    // A square never goes into a half-filled space (HALF-07); nor does a triangle overlapping the first one.
    let u = k(&cat, "base/U");
    assert_eq!(b.check(&cat, u, s, Placement::Square(Rotation::R0)), Err(PlaceError::Occupied));
    assert_eq!(b.check(&cat, road, s, tri(Corner::NE)), Err(PlaceError::Occupied));
    // The half-filled space is no longer in the square-tile frontier.
    assert!(!b.frontier().any(|f| f == s));
    // The start tile's road now runs into the triangle and ends at its open long side: two open ends.
    let start_road = b.segment_of(0, 1);
    assert_eq!(b.kind(start_road), SegmentKind::Road);
    let f = b.feature(start_road);
    assert_eq!((f.tiles, f.spaces, f.open), (2, 2, 2));
}

#[test]
fn complementary_triangles_meet_on_matching_long_sides_and_a_road_crosses_both() {
    let (cat, mut b) = setup();
    let road = k(&cat, "tri/road");
    let s = Space::new(1, 0);
    b.place(&cat, road, s, tri(Corner::NW), &mut vec![]).unwrap();
    // The complement (SE) has the road from its E leg to its long side: the long sides match (road to road).
    b.place(&cat, road, s, tri(Corner::SE), &mut vec![]).unwrap();
    assert!(b.is_full(s));
    assert_eq!(b.tiles_in(s).count(), 2);
    let f = b.feature(b.segment_of(0, 1));
    // Three tiles (the start tile and two triangles), but only two spaces (HALF-11 counts spaces).
    assert_eq!((f.tiles, f.spaces), (3, 2));
    // Open ends: the start tile's W end and the SE triangle's E end.
    assert_eq!(f.open, 2);
    // A third triangle cannot go into a full space.
    assert_eq!(b.check(&cat, road, s, tri(Corner::NE)), Err(PlaceError::Occupied));
}

#[test]
fn a_non_matching_pair_is_refused() {
    let (cat, mut b) = setup();
    let city = k(&cat, "tri/city");
    let grass = k(&cat, "tri/grass");
    let s = Space::new(0, 1);
    // Turned to SW, the city's S leg faces the start tile's city.
    b.place(&cat, city, s, tri(Corner::SW), &mut vec![]).unwrap();
    // An all-field triangle would put field against the city's long side.
    assert_eq!(b.check(&cat, grass, s, tri(Corner::NE)), Err(PlaceError::LongSideMismatch));
    // Legs are checked too: the field triangle as SW elsewhere would put field against the start tile's road.
    assert_eq!(b.check(&cat, grass, Space::new(1, 0), tri(Corner::SW)), Err(PlaceError::Mismatch(Side::W)));
    // A triangle touching nothing is refused.
    assert_eq!(b.check(&cat, grass, Space::new(5, 5), tri(Corner::NE)), Err(PlaceError::NotAdjacent));
}

#[test]
fn a_gap_leaves_a_city_open_until_the_complement_closes_it() {
    let (cat, mut b) = setup();
    let city = k(&cat, "tri/city");
    let cap = k(&cat, "tri/cap");
    let s = Space::new(0, 1);
    let mut done = vec![];
    b.place(&cat, city, s, tri(Corner::SW), &mut done).unwrap();
    // The start tile's city and the triangle's city join; the triangle's long side faces an empty half: a gap
    // (HALF-08), so the city is still open.
    let start_city = b.segment_of(0, 0);
    let f = b.feature(start_city);
    assert_eq!(f.kind, SegmentKind::City);
    assert!(!f.complete);
    assert_eq!(f.open, 1);
    assert!(done.is_empty());
    // Its W leg (the printed E leg) is field, facing an empty space: no open city end there.
    // The complement with a city cap on its long side closes the gap.
    b.place(&cat, cap, s, tri(Corner::NE), &mut done).unwrap();
    let f = b.feature(start_city);
    assert!(f.complete);
    assert_eq!(done, vec![f.root]);
    assert_eq!((f.tiles, f.spaces), (3, 2));
}

#[test]
fn fields_join_only_across_matched_edges() {
    let (cat, mut b) = setup();
    let road = k(&cat, "tri/road");
    b.place(&cat, road, Space::new(1, 0), tri(Corner::NW), &mut vec![]).unwrap();
    // The start tile's north field (En Wn, bordering its city) meets the triangle's field on the W leg's upper half.
    let north = b.segment_of(0, 2);
    assert_eq!(b.kind(north), SegmentKind::Field);
    assert_eq!(b.members(north).count(), 2);
    // The start tile's south field faces the W leg's lower half, which is the triangle's other field.
    let south = b.segment_of(0, 3);
    assert_eq!(b.members(south).count(), 2);
    assert_ne!(b.root(north), b.root(south));
}

#[test]
fn square_tiles_join_features_and_complete_cities() {
    let (cat, mut b) = setup();
    let e = k(&cat, "base/E");
    let mut done = vec![];
    // A city cap turned to face south, on the start tile's city: a two-tile city, complete.
    b.place(&cat, e, Space::new(0, 1), Placement::Square(Rotation::R180), &mut done).unwrap();
    assert_eq!(done.len(), 1);
    let f = b.feature(done[0]);
    assert_eq!((f.kind, f.tiles, f.spaces, f.open, f.complete), (SegmentKind::City, 2, 2, 0, true));
    // Mismatch: a city cap facing the start tile's road.
    assert_eq!(
        b.check(&cat, e, Space::new(1, 0), Placement::Square(Rotation::R270)),
        Err(PlaceError::Mismatch(Side::W))
    );
}

#[test]
fn monasteries_complete_with_eight_filled_neighbours_triangles_included() {
    let (cat, mut b) = setup();
    let m = k(&cat, "base/B");
    let grass = k(&cat, "tri/grass");
    let sq = Placement::Square(Rotation::R0);
    let mut done = vec![];
    b.place(&cat, m, Space::new(0, -1), sq, &mut done).unwrap();
    let mon = b.segment_of(1, 0);
    assert_eq!(b.kind(mon), SegmentKind::Monastery);
    // Fill the 8 neighbours, three of them with a single triangle: a half-filled space counts (HALF-12).
    let steps: [(i16, i16, Placement); 7] = [
        (-1, -1, tri(Corner::NE)),
        (1, -1, tri(Corner::NW)),
        (0, -2, sq),
        (-1, -2, sq),
        (1, -2, sq),
        (-1, 0, tri(Corner::SW)),
        (1, 0, tri(Corner::SE)),
    ];
    for (i, (x, y, p)) in steps.into_iter().enumerate() {
        let kind = if matches!(p, Placement::Square(_)) { m } else { grass };
        done.clear();
        b.place(&cat, kind, Space::new(x, y), p, &mut done).unwrap_or_else(|e| panic!("step {i}: {e}"));
        assert_eq!(b.is_complete(mon), i == 6, "after step {i}");
    }
    assert_eq!(done, vec![mon]);
    assert_eq!(b.filled_neighbours(Space::new(0, -1)), 8);
}

#[test]
fn a_root_set_holds_each_root_once_inline_and_beyond() {
    let mut set = RootSet::default();
    assert!(set.is_empty());
    // More than the inline room, in a scrambled order, each twice.
    let ids: Vec<u16> = (0..80u16).map(|i| (i * 37) % 80).collect();
    for &i in ids.iter().chain(&ids) {
        set.insert(SegmentId(i));
    }
    assert_eq!(set.len(), 80);
    let sorted: Vec<u16> = set.sorted().iter().map(|s| s.0).collect();
    assert_eq!(sorted, (0..80).collect::<Vec<_>>());
    let mut small = RootSet::default();
    for i in [5u16, 3, 5, 9, 3] {
        small.insert(SegmentId(i));
    }
    assert_eq!(small.sorted(), &[SegmentId(3), SegmentId(5), SegmentId(9)]);
}

/// Play random games of `setup` under seeds `0..games`, calling `each` after every action.
fn random_positions(mut setup: crate::Setup, games: u64, rng_seed: u64, mut each: impl FnMut(&crate::Game)) {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(rng_seed);
    let mut buf = Vec::new();
    for seed in 0..games {
        setup.seed = seed;
        let mut g = crate::Game::new(&setup).unwrap();
        while let Some(a) = g.random_action(&mut rng, &mut buf) {
            g.apply_unchecked(a);
            each(&g);
        }
    }
}

/// Counting a space's filled neighbours by grid index agrees with looking up each of the 8 spaces, at the grid's
/// edges too.
#[test]
fn filled_neighbours_by_index_agree_with_lookups() {
    let mut checked = 0;
    random_positions(crate::Setup::new(2), 4, 11, |g| {
        let b = g.board();
        for t in b.tiles() {
            for dx in -2..=2 {
                for dy in -2..=2 {
                    let q = Space::new(t.space.x + dx, t.space.y + dy);
                    let slow = q.neighbourhood().iter().filter(|&&n| b.grid.get(n).is_filled()).count() as u32;
                    assert_eq!(b.filled_neighbours(q), slow, "{q:?}");
                    checked += 1;
                }
            }
        }
    });
    assert!(checked > 10_000);
}

/// A feature's tile count alone is the first half of its tiles and spaces, triangles included.
#[test]
fn tile_counts_agree_with_tiles_and_spaces() {
    let mut s = crate::Setup::new(3);
    s.sets = ["base", "half"].map(String::from).to_vec();
    s.rules.set("modules.halflings", "true").unwrap();
    let mut triangles = 0;
    random_positions(s, 3, 5, |g| {
        let b = g.board();
        if g.is_over() {
            triangles += b.tiles().iter().filter(|t| matches!(t.placement, Placement::Triangle(_))).count();
        }
        for i in 0..b.segment_count() {
            let seg = SegmentId(i as u16);
            assert_eq!(b.tile_count(seg), b.tiles_and_spaces(seg).0);
        }
    });
    assert!(triangles > 0, "no triangle was placed");
}

#[test]
fn a_node_keeps_its_kind_and_completion_in_one_byte() {
    assert_eq!(std::mem::size_of::<Node>(), 12, "a node is 12 bytes (the mid-game state's largest part)");
    for kind in SegmentKind::ALL {
        assert_eq!(SegmentKind::ALL[kind as usize], kind);
        let mut n = Node {
            parent: 0,
            next: 0,
            tile: 0,
            local: 0,
            kind_complete: kind as u8,
            pennants: 0,
            meeples: 0,
            barns: 0,
            open: 0,
        };
        assert_eq!((n.kind(), n.complete()), (kind, false));
        n.set_complete();
        assert_eq!((n.kind(), n.complete()), (kind, true));
    }
}

#[test]
fn a_frontier_space_counts_exactly_the_sides_that_hold_an_edge() {
    // Every 6-bit edge in every side, alone and beside others: the bytes that count are those not 0.
    for v in 0..64u32 {
        for side in 0..4 {
            for other in [0u32, 0x15, 0x3F] {
                let other_side = (side + 1) % 4;
                let want = v << (8 * side) | other << (8 * other_side);
                let fs = FrontierSpace { space: Space::new(0, 0), want, sides: 0 };
                let expect =
                    if v != 0 { 0xFF << (8 * side) } else { 0 } | if other != 0 { 0xFF << (8 * other_side) } else { 0 };
                assert_eq!(fs.mask(), expect, "want {want:#010x}");
            }
        }
    }
    assert_eq!(std::mem::size_of::<FrontierSpace>(), 12);
}

/// Which kinds fit a space, and whether any does, agree with the full legality check of each orientation, on and
/// off the frontier, with every module's tiles.
#[test]
fn kinds_fitting_a_space_agree_with_checking_each_placement() {
    let mut s = crate::Setup::new(2);
    s.sets = ["base", "am", "pd", "cc"].map(String::from).to_vec();
    s.switch_on_set_modules(false);
    let (mut fits, mut none) = (0, 0);
    let mut edges = SquareEdges::new();
    random_positions(s, 2, 3, |g| {
        let (b, cat) = (g.board(), g.catalogue());
        let kinds = (0..cat.len()).map(|k| TileKind(k as u16));
        edges.set(cat, kinds.clone());
        let spaces: Vec<Space> = b.frontier().chain(b.tiles().iter().map(|t| t.space)).collect();
        for q in spaces {
            let found: Vec<TileKind> = b.kinds_fitting(&edges, q).collect();
            let expect: Vec<TileKind> = (kinds.clone())
                .filter(|&k| cat.def(k).shape == Shape::Square)
                .filter(|&k| Rotation::ALL.iter().any(|&r| b.check(cat, k, q, Placement::Square(r)).is_ok()))
                .collect();
            assert_eq!(found, expect, "{q:?}");
            assert_eq!(b.square_fits(&edges, q), !expect.is_empty());
            if expect.is_empty() { none += 1 } else { fits += 1 }
        }
    });
    assert!(fits > 1000 && none > 100, "{fits} spaces something fits, {none} none");
}

//! Perft: counts of legal action paths along fixed draw orders, stored in `tests/perft/*.perft`.
//!
//! Each count is checked twice: by the engine's `perft` (frontier masks, `legal_actions`) and by a brute-force
//! reference here that tries every rotation on every space around the board with `Board::check` and every segment
//! with `is_legal`, and asserts both give the same action set at every node. The file format:
//!
//! ```text
//! # comment
//! setup {"players": 2, "draw_order": ["base/U", "base/E"]}
//! perft 1 3
//! perft 2 12
//! ```

use std::collections::BTreeSet;

use carcassonne::action::{CropAction, MeepleRef};
use carcassonne::catalogue::{CropType, Shape};
use carcassonne::perft::{perft, resolve_chance};
use carcassonne::{
    Action, Corner, DecisionKind, Game, MeepleKind, Placement, Player, Rotation, SegmentId, Setup, Side, Space,
};

use crate::util::files;

/// The legal actions found the slow way, as notation.
fn reference_actions(g: &Game) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    match g.decision().kind {
        DecisionKind::PlaceTile { tile } => {
            let tiles = g.board().tiles();
            let (mut x0, mut x1, mut y0, mut y1) = (0, 0, 0, 0);
            for t in tiles {
                x0 = x0.min(t.space.x);
                x1 = x1.max(t.space.x);
                y0 = y0.min(t.space.y);
                y1 = y1.max(t.space.y);
            }
            for x in x0 - 1..=x1 + 1 {
                for y in y0 - 1..=y1 + 1 {
                    for r in Rotation::ALL {
                        let s = Space::new(x, y);
                        if g.board().check(g.catalogue(), tile, s, Placement::Square(r)).is_ok() {
                            let r = g.catalogue().canonical_rotation(tile, r);
                            out.insert(g.action_text(Action::Place { tile, space: s, rotation: r }));
                        }
                    }
                }
            }
        }
        DecisionKind::Phase2 => {
            for segment in 0..16 {
                for meeple in MeepleKind::ALL {
                    let a = Action::Deploy { meeple, segment };
                    if g.is_legal(a) {
                        out.insert(g.action_text(a));
                    }
                }
            }
            for corner in Corner::ALL {
                let a = Action::PlaceBarn { corner };
                if g.is_legal(a) {
                    out.insert(g.action_text(a));
                }
            }
            // Through the portal: every segment on the board with every follower.
            for i in 0..g.board().segment_count() {
                for meeple in MeepleKind::ALL {
                    let a = Action::Portal { meeple, segment: SegmentId(i as u16) };
                    if g.is_legal(a) {
                        out.insert(g.action_text(a));
                    }
                }
            }
            // The fairy next to any meeple of anyone, with or without the flag, or onto any space.
            for a in
                every_meeple_ref(g).into_iter().map(Action::MoveFairy).chain(every_space(g).map(Action::MoveFairyTo))
            {
                if g.is_legal(a) {
                    out.insert(g.action_text(a));
                }
            }
            out.insert("pass".into());
        }
        DecisionKind::Princess => {
            for a in every_meeple_ref(g).into_iter().map(Action::RemoveKnight).chain([Action::Pass]) {
                if g.is_legal(a) {
                    out.insert(g.action_text(a));
                }
            }
        }
        DecisionKind::CropChoice => {
            let plain = [CropAction::A, CropAction::B].map(Action::ChooseCrop);
            let roles = CropType::ALL.into_iter().flat_map(|r| {
                [None, Some(CropAction::A), Some(CropAction::B)].map(move |a| Action::ChooseCropRole(r, a))
            });
            for a in plain.into_iter().chain(roles) {
                if g.is_legal(a) {
                    out.insert(g.action_text(a));
                }
            }
        }
        DecisionKind::CropAnswer { .. } => {
            // Every follower onto every segment, every meeple reference, and pass.
            let adds = (0..g.board().segment_count())
                .flat_map(|i| MeepleKind::ALL.map(|meeple| Action::CropAdd { meeple, segment: SegmentId(i as u16) }));
            let removes = every_meeple_ref(g).into_iter().map(Action::CropRemove);
            for a in adds.chain(removes).chain([Action::Pass]) {
                if g.is_legal(a) {
                    out.insert(g.action_text(a));
                }
            }
        }
        DecisionKind::MoveDragon { .. } => {
            for side in Side::ALL {
                if g.is_legal(Action::MoveDragon(side)) {
                    out.insert(g.action_text(Action::MoveDragon(side)));
                }
            }
        }
        DecisionKind::Phase1 => {
            // Every space around the board, tried as an abbey spot and for every triangle kind at every corner.
            let abbey = g.catalogue().kinds().find(|&k| g.catalogue().def(k).id == "am/abbey");
            let triangles: Vec<_> =
                g.catalogue().kinds().filter(|&k| g.catalogue().def(k).shape == Shape::Triangle).collect();
            let tiles = g.board().tiles();
            let xs = tiles.iter().map(|t| t.space.x);
            let ys = tiles.iter().map(|t| t.space.y);
            let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
            let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
            for x in x0 - 1..=x1 + 1 {
                for y in y0 - 1..=y1 + 1 {
                    let space = Space::new(x, y);
                    let abbeys = abbey.map(|tile| Action::Place { tile, space, rotation: Rotation::R0 });
                    let tris = triangles
                        .iter()
                        .flat_map(|&tile| Corner::ALL.map(|corner| Action::PlaceTriangle { tile, space, corner }));
                    for a in abbeys.into_iter().chain(tris) {
                        if g.is_legal(a) {
                            out.insert(g.action_text(a));
                        }
                    }
                }
            }
            out.insert("pass".into());
        }
        DecisionKind::Draft => {
            for k in g.catalogue().kinds() {
                if g.is_legal(Action::Pick(k)) {
                    out.insert(g.action_text(Action::Pick(k)));
                }
            }
        }
        DecisionKind::MoveWagon => {
            for i in 0..g.board().segment_count() {
                let a = Action::MoveWagon { segment: SegmentId(i as u16) };
                if g.is_legal(a) {
                    out.insert(g.action_text(a));
                }
            }
            out.insert("pass".into());
        }
        DecisionKind::Draw | DecisionKind::GameOver => {}
    }
    out
}

/// Every (player, kind, segment, fairy) a meeple could be named by, whether or not one stands there.
fn every_meeple_ref(g: &Game) -> Vec<MeepleRef> {
    let mut v = Vec::new();
    for p in 0..g.players() {
        for kind in MeepleKind::ALL {
            for i in 0..g.board().segment_count() {
                for fairy in [false, true] {
                    v.push(MeepleRef { player: Player(p as u8), kind, segment: SegmentId(i as u16), fairy });
                }
            }
        }
    }
    v
}

/// Every space of the board's bounding box.
fn every_space(g: &Game) -> impl Iterator<Item = Space> {
    let tiles = g.board().tiles();
    let xs = tiles.iter().map(|t| t.space.x);
    let ys = tiles.iter().map(|t| t.space.y);
    let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
    let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
    (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| Space::new(x, y)))
}

fn reference_perft(game: &Game, depth: u32) -> u64 {
    let mut g = game.clone();
    resolve_chance(&mut g);
    if depth == 0 {
        return 1;
    }
    if g.is_over() {
        return 0;
    }
    let fast: BTreeSet<String> = g.legal_actions().into_iter().map(|a| g.action_text(a)).collect();
    let slow = reference_actions(&g);
    assert_eq!(fast, slow, "legal actions differ from the brute-force reference");
    slow.iter()
        .map(|text| {
            let mut next = g.clone();
            next.apply(next.parse_action(text).unwrap()).unwrap();
            reference_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_counts_match_the_data_files() {
    let paths = files("perft", "perft");
    assert!(!paths.is_empty());
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let mut game: Option<Game> = None;
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            if let Some(json) = line.strip_prefix("setup ") {
                let setup: Setup = serde_json::from_str(json).unwrap_or_else(|e| panic!("{name}: {e}"));
                game = Some(Game::new(&setup).unwrap());
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let (d, n) = rest.split_once(' ').unwrap();
                let (d, n): (u32, u64) = (d.parse().unwrap(), n.trim().parse().unwrap());
                let g = game.as_ref().expect("setup before perft");
                assert_eq!(perft(g, d), n, "{name}: perft {d}");
                if n <= 50_000 {
                    assert_eq!(reference_perft(g, d), n, "{name}: reference perft {d}");
                }
            } else {
                panic!("{name}: cannot read `{line}`");
            }
        }
    }
}

#[test]
fn hand_counted_first_plies() {
    // The start tile (city N, road E-W) and a straight road drawn first. The road fits east and west of the start
    // tile (road to road) and south of it turned with its road east-west (field to field): 3 placements, each
    // orientation counted once since the tile looks the same turned 180°. North is refused (the city).
    // Each placement then offers the road, both fields, or a pass: 4 ways. 3 × 4 = 12.
    let mut s = Setup::new(2);
    s.draw_order = Some(vec!["base/U".into()]);
    let g = Game::new(&s).unwrap();
    assert_eq!(perft(&g, 1), 3);
    assert_eq!(perft(&g, 2), 12);
    // The game ends after that one tile: no path is three decisions long.
    assert_eq!(perft(&g, 3), 0);
    assert_eq!(perft(&g, 0), 1);
}

#[test]
fn a_finished_game_has_no_paths() {
    let mut s = Setup::new(2);
    s.draw_order = Some(vec!["base/U".into()]);
    let mut g = Game::new(&s).unwrap();
    while !g.is_over() {
        resolve_chance(&mut g);
        if let Some(&a) = g.legal_actions().first() {
            g.apply(a).unwrap();
        }
    }
    assert!(g.legal_actions().is_empty());
    assert_eq!(perft(&g, 0), 1);
    for d in [1, 2, 1_000, u32::MAX] {
        assert_eq!(perft(&g, d), 0, "depth {d}");
    }
}

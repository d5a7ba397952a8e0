//! What each player starts with, and the turn order: rules that every game relies on but no single scenario shows.

use carcassonne::catalogue::{SegmentKind, builtin_set};
use carcassonne::{Action, Actor, Game, MeepleKind, Player, Rotation, Setup};

fn setup(players: u8, sets: &[&str], modules: &[&str]) -> Setup {
    let mut s = Setup::new(players);
    s.sets = sets.iter().map(|x| x.to_string()).collect();
    for m in modules {
        s.rules.set(&format!("modules.{m}"), "true").unwrap();
    }
    s
}

#[test]
fn each_player_starts_with_one_mayor_one_wagon_and_one_barn() {
    // BASE-01, MAYOR-01, WAGON-01, BARN-01.
    let g = Game::new(&setup(4, &["base", "am"], &["mayor", "wagon", "barn"])).unwrap();
    for p in 0..4 {
        let p = Player(p);
        assert_eq!(g.supply_of(p, MeepleKind::Normal), 7, "{p}");
        assert_eq!(g.supply_of(p, MeepleKind::Mayor), 1, "{p}");
        assert_eq!(g.supply_of(p, MeepleKind::Wagon), 1, "{p}");
        assert_eq!(g.barns_left(p), 1, "{p}");
    }
    // Without the modules there are none.
    let g = Game::new(&setup(2, &["base"], &[])).unwrap();
    assert_eq!(g.supply_of(Player(0), MeepleKind::Mayor), 0);
    assert_eq!(g.barns_left(Player(0)), 0);
}

#[test]
fn the_fairy_starts_off_the_board() {
    // FAIRY-01.
    let g = Game::new(&setup(2, &["base", "pd"], &["fairy"])).unwrap();
    assert_eq!(g.fairy(), None);
}

#[test]
fn six_princess_tiles_each_mark_one_city() {
    // PRINCESS-01.
    let pd = builtin_set("pd").unwrap();
    let princess: Vec<_> = pd.tiles.iter().filter(|t| t.segments.iter().any(|s| s.princess)).collect();
    assert_eq!(princess.iter().map(|t| t.count as u32).sum::<u32>(), 6);
    for t in princess {
        let marked: Vec<_> = t.segments.iter().filter(|s| s.princess).collect();
        assert_eq!(marked.len(), 1, "{}", t.id);
        assert_eq!(marked[0].kind, SegmentKind::City, "{}", t.id);
    }
}

#[test]
fn tiles_turn_in_quarter_turns_and_are_never_mirrored() {
    // BASE-03: four orientations, named r0..r270; anything else is refused.
    let mut s = Setup::new(2);
    s.draw_order = Some(vec!["base/V".into()]);
    let mut g = Game::new(&s).unwrap();
    let k = g.next_draw().unwrap();
    g.apply(Action::Draw(k)).unwrap();
    for a in g.legal_actions() {
        match a {
            Action::Place { rotation, .. } => assert!(Rotation::ALL.contains(&rotation)),
            other => panic!("not a placement: {other:?}"),
        }
    }
    for bad in ["place base/V -1,0 r45", "place base/V -1,0 m0", "place base/V -1,0 r360", "place base/V -1,0 -r90"] {
        assert!(g.parse_action(bad).is_err(), "{bad}");
    }
}

#[test]
fn turns_pass_clockwise() {
    // TURN-08: after each turn the next player clockwise starts one.
    let mut g = Game::new(&setup(3, &["base"], &[])).unwrap();
    let mut order = Vec::new();
    let mut last = None;
    while !g.is_over() && order.len() < 7 {
        match g.decision().actor {
            Actor::Chance => {
                if last != Some(g.active_player()) {
                    order.push(g.active_player().0);
                    last = Some(g.active_player());
                }
                g.apply(Action::Draw(g.next_draw().unwrap())).unwrap();
            }
            Actor::Player(_) => {
                let a = *g.legal_actions().last().unwrap();
                g.apply(a).unwrap();
            }
            Actor::Nobody => break,
        }
    }
    assert_eq!(order, [0, 1, 2, 0, 1, 2, 0]);
}

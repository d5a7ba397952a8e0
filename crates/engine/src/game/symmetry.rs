//! The game turned about the start space: the board has no preferred direction, so a game whose start tile is turned
//! by a quarter turn, played with every action turned the same way, is the same game seen from another side
//! (`Setup::start_rotation`). Learning programs use it to see each position four ways (docs/python.md, "Symmetry").
//!
//! Turning is [`Action::rotate`] but for one thing: a tile that looks the same in two rotations is always placed in
//! the smaller (legal actions list each orientation once), so in the turned game a symmetric tile may sit at another
//! rotation than this game's turned by `r`, and its segments, numbered in the tile's own frame, are then numbered
//! differently. [`Game::rotate_action`] follows that through every action that names a segment.

use super::Game;
use crate::action::{Action, MeepleRef};
use crate::board::{Placement, SegmentId};
use crate::geom::Rotation;

impl Game {
    /// `a`, an action of this game, as it is in the same game turned by `r` (its start tile turned by `r` more):
    /// applying the turned actions of a game to its turned twin plays the same game.
    pub fn rotate_action(&self, a: Action, r: Rotation) -> Action {
        let segment = |s: SegmentId| {
            let (t, local) = self.board.segment_tile(s);
            self.board.segment_of(t, self.rotate_segment(t, local, r))
        };
        let figure = |m: MeepleRef| MeepleRef { segment: segment(m.segment), ..m };
        match a {
            Action::Place { tile, space, rotation } => Action::Place {
                tile,
                space: space.rotate(r),
                rotation: self.catalogue().canonical_rotation(tile, rotation.then(r)),
            },
            Action::Deploy { meeple, segment: local } => match self.placed {
                Some(t) => Action::Deploy { meeple, segment: self.rotate_segment(t as usize, local, r) },
                None => a,
            },
            Action::MoveWagon { segment: s } => Action::MoveWagon { segment: segment(s) },
            Action::Portal { meeple, segment: s } => Action::Portal { meeple, segment: segment(s) },
            Action::CropAdd { meeple, segment: s } => Action::CropAdd { meeple, segment: segment(s) },
            Action::RemoveKnight(m) => Action::RemoveKnight(figure(m)),
            Action::MoveFairy(m) => Action::MoveFairy(figure(m)),
            Action::CropRemove(m) => Action::CropRemove(figure(m)),
            a => a.rotate(r),
        }
    }

    /// The number, in the turned game, of segment `local` of board tile `t` (its own numbering): the same unless the
    /// tile is symmetric and sits there at another rotation, when it is the segment on the same turned positions.
    pub fn rotate_segment(&self, t: usize, local: u8, r: Rotation) -> u8 {
        let placed = self.board.tile(t);
        let Placement::Square(here) = placed.placement else { return local };
        let cat = self.catalogue();
        let turned = here.then(r);
        let there = cat.canonical_rotation(placed.kind, turned);
        if there == turned {
            return local;
        }
        let positions = cat.segment_positions(placed.kind, turned, local);
        if positions == 0 {
            return local;
        }
        let segments = cat.def(placed.kind).segments.len() as u8;
        (0..segments).find(|&s| cat.segment_positions(placed.kind, there, s) == positions).unwrap_or(local)
    }
}

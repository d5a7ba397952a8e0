//! Reading and writing actions in record notation (see [`crate::action`]). Both need the game: tile ids come from
//! its catalogue and segment names from the tile placed this turn.

use super::{Game, Step};
use crate::action::{Action, MeepleKind, ParseActionError};
use crate::geom::{Rotation, Space};

impl Game {
    /// Write an action in record notation.
    pub fn action_text(&self, a: Action) -> String {
        let c = self.catalogue();
        let unknown = |k: crate::catalogue::TileKind| k.0 as usize >= c.len();
        match a {
            Action::Draw(k) | Action::Place { tile: k, .. } if unknown(k) => format!("unknown tile #{}", k.0),
            Action::Draw(k) => format!("draw {}", c.def(k).id),
            Action::Place { tile, space, rotation } => format!("place {} {} {}", c.def(tile).id, space, rotation),
            Action::Deploy { meeple, segment } => {
                let name = match self.placed {
                    Some(t) if (segment as usize) < c.def(self.board.tile(t as usize).kind).segments.len() => {
                        let pt = self.board.tile(t as usize);
                        c.segment_name(pt.kind, pt.placement.rotation(), segment)
                    }
                    _ => format!("#{segment}"),
                };
                format!("{} {}", meeple.name(), name)
            }
            Action::PlaceBarn { corner } => format!("barn {corner}"),
            Action::MoveWagon { segment } if (segment.0 as usize) < self.board.segment_count() => {
                let (space, _, name) = self.describe_segment(segment);
                format!("wagon {space} {name}")
            }
            Action::MoveWagon { segment } => format!("wagon #{}", segment.0),
            Action::Pass => "pass".to_string(),
        }
    }

    /// Read an action in record notation.
    ///
    /// # Errors
    /// A [`ParseActionError`] saying what could not be read. Reading does not check legality beyond naming: use
    /// [`Game::apply`] for that.
    pub fn parse_action(&self, text: &str) -> Result<Action, ParseActionError> {
        let err = |reason: String| ParseActionError { text: text.to_string(), reason };
        let words: Vec<&str> = text.split_whitespace().collect();
        let tile = |id: &str| {
            self.catalogue().by_id(id).ok_or_else(|| err(format!("no tile `{id}` in this game's tile sets")))
        };
        match words.as_slice() {
            ["draw", id] => Ok(Action::Draw(tile(id)?)),
            ["place", id, space, rot] => Ok(Action::Place {
                tile: tile(id)?,
                space: space.parse::<Space>().map_err(err)?,
                rotation: rot.parse::<Rotation>().map_err(err)?,
            }),
            ["pass"] => Ok(Action::Pass),
            ["barn", corner] => Ok(Action::PlaceBarn { corner: corner.parse().map_err(err)? }),
            ["wagon", space, seg] => {
                let space: Space = space.parse().map_err(err)?;
                let t = self
                    .board
                    .square_at(space)
                    .ok_or_else(|| err(format!("no tile on space {space} to move the wagon to")))?;
                let pt = self.board.tile(t);
                let local = self
                    .catalogue()
                    .find_segment(pt.kind, pt.placement.rotation(), seg)
                    .ok_or_else(|| err(format!("the tile on {space} has no segment `{seg}`")))?;
                Ok(Action::MoveWagon { segment: self.board.segment_of(t, local) })
            }
            [kind, seg] if MeepleKind::ALL.iter().any(|m| m.name() == *kind) => {
                let meeple = MeepleKind::ALL.into_iter().find(|m| m.name() == *kind).expect("checked");
                let (Some(t), Some(Step::Phase2)) = (self.placed, self.steps.last()) else {
                    return Err(err("there is no tile placed this turn to deploy on".into()));
                };
                let pt = self.board.tile(t as usize);
                let segment = self
                    .catalogue()
                    .find_segment(pt.kind, pt.placement.rotation(), seg)
                    .ok_or_else(|| err(format!("the placed tile has no segment `{seg}`")))?;
                Ok(Action::Deploy { meeple, segment })
            }
            _ => Err(err("expected `draw TILE`, `place TILE X,Y rN`, `meeple|mayor|wagon SEGMENT`, `barn CORNER`, \
                 `wagon X,Y SEGMENT` or `pass`"
                .into())),
        }
    }
}

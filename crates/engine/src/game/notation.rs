//! Reading and writing actions in record notation (see [`crate::action`]). Both need the game: tile ids come from
//! its catalogue and segment names from the tile placed this turn or the tile on a named space.

use super::{Game, Step};
use crate::action::{Action, CropAction, MeepleKind, MeepleRef, ParseActionError, Player};
use crate::board::Placement;
use crate::board::SegmentId;
use crate::catalogue::CropType;
use crate::geom::{Corner, Rotation, Side, Space};

impl Game {
    /// Where a board tile is, for people: its space, and for a triangle its corner (`1,0/NE`).
    pub fn tile_locator(&self, t: usize) -> String {
        let pt = self.board.tile(t);
        match pt.placement {
            Placement::Square(_) => pt.space.to_string(),
            Placement::Triangle(c) => format!("{}/{c}", pt.space),
        }
    }

    /// A segment anywhere on the board, for people: `1,0 road@W` (`1,0/NE road@N` on a triangle).
    fn segment_text(&self, seg: SegmentId) -> String {
        if (seg.0 as usize) < self.board.segment_count() {
            let (_, _, name) = self.describe_segment(seg);
            format!("{} {name}", self.tile_locator(self.board.segment_tile(seg).0))
        } else {
            format!("#{}", seg.0)
        }
    }

    /// A meeple on the board: `P2 meeple 0,1 city@N`, with ` +fairy` for the one the fairy is attached to.
    fn meeple_text(&self, r: MeepleRef) -> String {
        let fairy = if r.fairy { " +fairy" } else { "" };
        format!("{} {} {}{fairy}", r.player, r.kind.name(), self.segment_text(r.segment))
    }

    /// Write an action in record notation.
    pub fn action_text(&self, a: Action) -> String {
        let c = self.catalogue();
        let unknown = |k: crate::catalogue::TileKind| k.0 as usize >= c.len();
        match a {
            Action::Draw(k) | Action::Place { tile: k, .. } if unknown(k) => format!("unknown tile #{}", k.0),
            Action::Draw(k) => format!("draw {}", c.def(k).id),
            Action::Place { tile, space, rotation } => format!("place {} {} {}", c.def(tile).id, space, rotation),
            Action::PlaceTriangle { tile, .. } | Action::Pick(tile) if unknown(tile) => {
                format!("unknown tile #{}", tile.0)
            }
            Action::PlaceTriangle { tile, space, corner } => format!("place {} {space} {corner}", c.def(tile).id),
            Action::Pick(tile) => format!("pick {}", c.def(tile).id),
            Action::ChooseCropRole(role, Some(a)) => format!("crop {} {}", role.role_name(), a.letter()),
            Action::ChooseCropRole(role, None) => format!("crop {}", role.role_name()),
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
            Action::MoveWagon { segment } => format!("wagon {}", self.segment_text(segment)),
            Action::Portal { meeple, segment } => format!("portal {} {}", meeple.name(), self.segment_text(segment)),
            Action::RemoveKnight(r) => format!("princess {}", self.meeple_text(r)),
            Action::MoveFairy(r) => format!("fairy {}", self.meeple_text(r)),
            Action::MoveFairyTo(space) => format!("fairy {space}"),
            Action::MoveDragon(side) => format!("dragon {}", side.letter()),
            Action::ChooseCrop(c) => format!("crop {}", c.letter()),
            Action::CropAdd { meeple, segment } => format!("add {} {}", meeple.name(), self.segment_text(segment)),
            Action::CropRemove(r) => format!("remove {}", self.meeple_text(r)),
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
        let meeple_kind = |w: &str| {
            MeepleKind::ALL
                .into_iter()
                .find(|m| m.name() == w)
                .ok_or_else(|| err(format!("`{w}` is not a follower: use meeple, mayor or wagon")))
        };
        // A segment of the tile on a space: `1,0 road@W`, or of a triangle: `1,0/NE road@N`.
        let segment_at = |place: &str, seg: &str| -> Result<SegmentId, ParseActionError> {
            let (space, corner) = match place.split_once('/') {
                Some((s, c)) => (s.parse::<Space>().map_err(err)?, Some(c.parse::<Corner>().map_err(err)?)),
                None => (place.parse::<Space>().map_err(err)?, None),
            };
            let t = match corner {
                None => self.board.square_at(space).ok_or_else(|| {
                    err(format!("no square tile on space {space} (name a triangle as {space}/NE, …)"))
                })?,
                Some(c) => self
                    .board
                    .tile_numbers_in(space)
                    .find(|&t| self.board.tile(t).placement == Placement::Triangle(c))
                    .ok_or_else(|| err(format!("no {c} triangle on space {space}")))?,
            };
            let pt = self.board.tile(t);
            let local = self
                .catalogue()
                .find_segment(pt.kind, pt.placement.rotation(), seg)
                .ok_or_else(|| err(format!("the tile on {space} has no segment `{seg}`")))?;
            Ok(self.board.segment_of(t, local))
        };
        // A meeple: `P2 meeple 0,1 city@N [+fairy]`.
        let meeple_ref = |w: &[&str]| -> Result<MeepleRef, ParseActionError> {
            let (player, kind, space, seg, fairy) = match w {
                [p, k, sp, sg] => (p, k, sp, sg, false),
                [p, k, sp, sg, "+fairy"] => (p, k, sp, sg, true),
                _ => return Err(err("write a meeple as `P2 meeple 0,1 city@N` (add `+fairy` for the fairy's)".into())),
            };
            let n = player
                .strip_prefix('P')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| (1..=self.players() as u8).contains(n))
                .ok_or_else(|| err(format!("`{player}` is not a player here (P1..P{})", self.players())))?;
            Ok(MeepleRef { player: Player(n - 1), kind: meeple_kind(kind)?, segment: segment_at(space, seg)?, fairy })
        };
        match words.as_slice() {
            ["draw", id] => Ok(Action::Draw(tile(id)?)),
            ["place", id, space, rot] => {
                let tile = tile(id)?;
                let space = space.parse::<Space>().map_err(err)?;
                if self.catalogue().def(tile).shape == crate::catalogue::Shape::Triangle {
                    Ok(Action::PlaceTriangle { tile, space, corner: rot.parse::<Corner>().map_err(err)? })
                } else {
                    Ok(Action::Place { tile, space, rotation: rot.parse::<Rotation>().map_err(err)? })
                }
            }
            ["pick", id] => Ok(Action::Pick(tile(id)?)),
            ["crop", role, rest @ ..] if CropType::from_role_name(role).is_some() => {
                let role = CropType::from_role_name(role).expect("checked");
                match rest {
                    [] => Ok(Action::ChooseCropRole(role, None)),
                    ["A"] => Ok(Action::ChooseCropRole(role, Some(CropAction::A))),
                    ["B"] => Ok(Action::ChooseCropRole(role, Some(CropAction::B))),
                    _ => Err(err("write the triangle's crop choice as `crop knight A` (or `crop knight`)".into())),
                }
            }
            ["pass"] => Ok(Action::Pass),
            ["barn", corner] => Ok(Action::PlaceBarn { corner: corner.parse().map_err(err)? }),
            ["wagon", space, seg] => Ok(Action::MoveWagon { segment: segment_at(space, seg)? }),
            ["portal", kind, space, seg] => {
                Ok(Action::Portal { meeple: meeple_kind(kind)?, segment: segment_at(space, seg)? })
            }
            ["crop", "A"] => Ok(Action::ChooseCrop(CropAction::A)),
            ["crop", "B"] => Ok(Action::ChooseCrop(CropAction::B)),
            ["crop", other] => Err(err(format!(
                "`{other}` is not a crop-circle action: use A or B (after the triangle: knight, highwayman or farmer, \
                 then A or B)"
            ))),
            ["add", kind, space, seg] => {
                Ok(Action::CropAdd { meeple: meeple_kind(kind)?, segment: segment_at(space, seg)? })
            }
            ["remove", rest @ ..] => Ok(Action::CropRemove(meeple_ref(rest)?)),
            ["princess", rest @ ..] => Ok(Action::RemoveKnight(meeple_ref(rest)?)),
            ["fairy", space] => Ok(Action::MoveFairyTo(space.parse::<Space>().map_err(err)?)),
            ["fairy", rest @ ..] => Ok(Action::MoveFairy(meeple_ref(rest)?)),
            ["dragon", side] => {
                let side = Side::ALL
                    .into_iter()
                    .find(|s| s.letter().to_string() == *side)
                    .ok_or_else(|| err(format!("`{side}` is not a side: use N, E, S or W")))?;
                Ok(Action::MoveDragon(side))
            }
            [kind, seg] if MeepleKind::ALL.iter().any(|m| m.name() == *kind) => {
                let meeple = meeple_kind(kind)?;
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
            _ => Err(err("expected `draw TILE`, `place TILE X,Y rN|CORNER`, `pick TILE`, `meeple|mayor|wagon SEGMENT`, `barn CORNER`, \
                 `wagon X,Y SEGMENT`, `portal KIND X,Y SEGMENT`, `princess MEEPLE`, `fairy MEEPLE`, `fairy X,Y`, \
                 `dragon SIDE`, `crop A|B`, `crop ROLE [A|B]`, `add KIND X,Y SEGMENT`, `remove MEEPLE` or `pass`"
                .into())),
        }
    }
}

//! Actions and their notation.
//!
//! | action | notation | meaning |
//! |---|---|---|
//! | [`Action::Draw`] | `draw base/U` | the chance step: this tile comes off the stack |
//! | [`Action::Place`] | `place base/U 1,0 r90` | put the drawn tile on space (1,0), turned 90° clockwise |
//! | [`Action::PlaceTriangle`] | `place half/I3 1,0 SW` | place a held triangle with its right angle at that corner of the space |
//! | [`Action::Pick`] | `pick half/I3` | take that triangle in the draft |
//! | [`Action::Deploy`] | `meeple road@E` | put a meeple on the segment of the tile just placed that touches the east side's centre |
//! | [`Action::PlaceBarn`] | `barn NE` | the barn on that corner of the tile just placed |
//! | [`Action::MoveWagon`] | `wagon 1,0 road@W` | a scored wagon moves to that segment of the tile on (1,0) |
//! | [`Action::Portal`] | `portal meeple 1,0 city@N` | through the magic portal, onto that segment of an earlier tile |
//! | [`Action::RemoveKnight`] | `princess P2 meeple 0,1 city@N` | the princess sends that knight home |
//! | [`Action::MoveFairy`] | `fairy P1 meeple 0,1 city@N` | the fairy goes next to that meeple |
//! | [`Action::MoveFairyTo`] | `fairy 0,1` | the fairy goes onto that space (VAR-08 `on_tile`) |
//! | [`Action::MoveDragon`] | `dragon N` | the dragon steps one space north |
//! | [`Action::ChooseCrop`] | `crop A` | the crop-circle action for everyone |
//! | [`Action::ChooseCropRole`] | `crop knight A` | after the triangular crop circle: role and action (`crop knight` under VAR-15 `english`) |
//! | [`Action::CropAdd`] | `add meeple 0,1 city@N` | crop action A: a meeple onto that segment |
//! | [`Action::CropRemove`] | `remove P2 meeple 0,1 city@N` | crop action B: that meeple goes home |
//! | [`Action::Pass`] | `pass` | deploy nothing, decline a wagon move, a princess removal or crop action A |
//!
//! Segments are named by their kind and any position they touch in the placed (turned) tile: sides `N E S W` for
//! roads and cities, halves `Nw Ne En Es Se Sw Ws Wn` for fields; `monastery` and `field@inner` for segments that touch
//! no side (docs/record-format.md).
//!
//! A meeple on the board is written `P2 meeple 0,1 city@N` (owner, kind, space, segment), with ` +fairy` when it is
//! the one the fairy stands next to.

use std::fmt;

use thiserror::Error;

use crate::catalogue::TileKind;
use crate::geom::{Rotation, Space};

/// A seat at the table, 0-based in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Player(pub u8);

impl Player {
    /// The seat index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}

/// The kinds of follower (SPEC §0: normal meeple, mayor, wagon).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum MeepleKind {
    /// A normal meeple (7 per player, SPEC BASE-01).
    #[default]
    Normal = 0,
    /// The mayor: cities only, strength = the city's pennants (SPEC MAYOR-01..05).
    Mayor = 1,
    /// The wagon: roads, cities, monasteries; may move after scoring (SPEC WAGON-01..10).
    Wagon = 2,
}

impl MeepleKind {
    /// Every kind.
    pub const ALL: [MeepleKind; 3] = [MeepleKind::Normal, MeepleKind::Mayor, MeepleKind::Wagon];
    /// Number of kinds.
    pub const COUNT: usize = 3;

    /// Notation name.
    pub const fn name(self) -> &'static str {
        match self {
            MeepleKind::Normal => "meeple",
            MeepleKind::Mayor => "mayor",
            MeepleKind::Wagon => "wagon",
        }
    }

    /// Index 0..3.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this follower may stand on a segment of this kind (BASE-06, MAYOR-02, WAGON-02; never a crop circle).
    pub const fn may_stand_on(self, k: crate::catalogue::SegmentKind) -> bool {
        use crate::catalogue::SegmentKind as S;
        match self {
            MeepleKind::Normal => !matches!(k, S::Crop),
            MeepleKind::Mayor => matches!(k, S::City),
            MeepleKind::Wagon => matches!(k, S::Road | S::City | S::Monastery),
        }
    }
}

/// A meeple on the board, named the way a player would point at it: whose, what kind, on which segment, and (when
/// two identical meeples share a segment) whether it is the one the fairy stands next to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MeepleRef {
    /// Its owner.
    pub player: Player,
    /// Its kind.
    pub kind: MeepleKind,
    /// The segment it stands on.
    pub segment: crate::board::SegmentId,
    /// Whether the fairy is attached to it (SPEC FAIRY-03).
    pub fairy: bool,
}

/// The crop-circle action the active player names for everyone (SPEC CROP-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CropAction {
    /// Each player may add a meeple next to one of theirs of the circle's role (CROP-06).
    A,
    /// Each player returns one of their meeples of the circle's role (CROP-07).
    B,
}

impl CropAction {
    /// `A` or `B`.
    pub const fn letter(self) -> char {
        match self {
            CropAction::A => 'A',
            CropAction::B => 'B',
        }
    }
}

/// One decision's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Chance: this tile comes off the stack.
    Draw(TileKind),
    /// Place the drawn tile.
    Place {
        /// The drawn tile.
        tile: TileKind,
        /// Where.
        space: Space,
        /// Turned how far clockwise.
        rotation: Rotation,
    },
    /// Place one of the player's triangles instead of drawing (SPEC HALF-04, HALF-05).
    PlaceTriangle {
        /// The triangle's kind.
        tile: TileKind,
        /// Where.
        space: Space,
        /// Its right-angle corner.
        corner: crate::geom::Corner,
    },
    /// Take this triangle in the Halflings draft (VAR-20 `draft`).
    Pick(TileKind),
    /// Deploy a meeple on a segment (by its number on the tile placed this turn).
    Deploy {
        /// Which kind of follower.
        meeple: MeepleKind,
        /// The segment's index on the placed tile.
        segment: u8,
    },
    /// Put the barn on a corner of the tile placed this turn (SPEC BARN-02).
    PlaceBarn {
        /// The corner of the placed tile, in world directions.
        corner: crate::geom::Corner,
    },
    /// Move a wagon that was just scored onto a segment (SPEC WAGON-04..07).
    MoveWagon {
        /// The segment it goes to.
        segment: crate::board::SegmentId,
    },
    /// Deploy a meeple through the magic portal onto a segment of an earlier tile (SPEC PORTAL-02).
    Portal {
        /// Which kind of follower.
        meeple: MeepleKind,
        /// The segment, anywhere on the board.
        segment: crate::board::SegmentId,
    },
    /// The princess sends this knight home (SPEC PRINCESS-02).
    RemoveKnight(MeepleRef),
    /// Put the fairy next to one of the active player's meeples (SPEC FAIRY-02).
    MoveFairy(MeepleRef),
    /// Put the fairy on a space holding a meeple of the active player (VAR-08 `on_tile`).
    MoveFairyTo(Space),
    /// One step of the dragon, towards a side (SPEC DRAGON-07).
    MoveDragon(crate::geom::Side),
    /// The active player names the crop-circle action for everyone (SPEC CROP-04).
    ChooseCrop(CropAction),
    /// After the triangular crop circle, the active player names the role and (HALF-20) the action, or under VAR-15
    /// `english` only the role (each player then chooses).
    ChooseCropRole(crate::catalogue::CropType, Option<CropAction>),
    /// Crop action A: a meeple from the supply onto this segment, next to one of the player's meeples of the role
    /// (SPEC CROP-06, VAR-13).
    CropAdd {
        /// Which kind of follower.
        meeple: MeepleKind,
        /// The segment.
        segment: crate::board::SegmentId,
    },
    /// Crop action B: this meeple of the role goes back to its owner's supply (SPEC CROP-07).
    CropRemove(MeepleRef),
    /// Decline: deploy nothing in phase 2, draw instead of placing an abbey (or pass the turn once the stack is
    /// empty), or leave a scored wagon in the supply.
    Pass,
}

impl Action {
    /// The same action in a game whose whole board is turned by `r` about the start space (see
    /// [`Setup::start_rotation`](crate::Setup::start_rotation)): spaces, tile rotations, triangle and barn corners and
    /// the dragon's step turn with it; figures and segments, named by tile number and the tile's own segment, stay.
    pub fn rotate(self, r: Rotation) -> Action {
        match self {
            Action::Place { tile, space, rotation } => {
                Action::Place { tile, space: space.rotate(r), rotation: rotation.then(r) }
            }
            Action::PlaceTriangle { tile, space, corner } => {
                Action::PlaceTriangle { tile, space: space.rotate(r), corner: corner.rotate(r) }
            }
            Action::PlaceBarn { corner } => Action::PlaceBarn { corner: corner.rotate(r) },
            Action::MoveFairyTo(space) => Action::MoveFairyTo(space.rotate(r)),
            Action::MoveDragon(side) => Action::MoveDragon(side.rotate(r)),
            a @ (Action::Draw(_)
            | Action::Pick(_)
            | Action::Deploy { .. }
            | Action::MoveWagon { .. }
            | Action::Portal { .. }
            | Action::RemoveKnight(_)
            | Action::MoveFairy(_)
            | Action::ChooseCrop(_)
            | Action::ChooseCropRole(..)
            | Action::CropAdd { .. }
            | Action::CropRemove(_)
            | Action::Pass) => a,
        }
    }
}

/// Why a text is not an action here.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("cannot read action `{text}`: {reason}")]
pub struct ParseActionError {
    /// The text.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

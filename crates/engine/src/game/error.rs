//! Why an action is refused.

use thiserror::Error;

use crate::action::Action;
use crate::board::PlaceError;

/// Why an action was refused. The game is unchanged.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum IllegalReason {
    /// The action answers a different kind of decision.
    #[error("the game is waiting for {expected}, not this action")]
    WrongDecision {
        /// What the game waits for.
        expected: &'static str,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The tile kind is not in this game's catalogue.
    #[error("no such tile kind in this game")]
    UnknownTile,
    /// The drawn tile is not in the stack.
    #[error("that tile is not in the draw stack")]
    NotInStack,
    /// The tile named is not the one drawn.
    #[error("the tile to place is {expected}, not {given}")]
    WrongTile {
        /// The drawn tile's id.
        expected: String,
        /// The id given.
        given: String,
    },
    /// The placement breaks BASE-04.
    #[error("illegal placement: {0}")]
    Placement(PlaceError),
    /// No such segment on the placed tile.
    #[error("the placed tile has no segment {0}")]
    NoSuchSegment(u8),
    /// Crop-circle areas never take meeples (CROP-02).
    #[error("a crop circle cannot be occupied")]
    CropCircle,
    /// The feature already has a meeple (BASE-06).
    #[error("that feature is already occupied")]
    Occupied,
    /// No meeple of that kind left in the supply.
    #[error("no {0} left in the supply")]
    EmptySupply(&'static str),
    /// That follower cannot stand on that kind of segment (MAYOR-02, WAGON-02).
    #[error("a {0} cannot stand on a {1}")]
    NotAllowedOn(&'static str, &'static str),
    /// A field with a barn takes no farmer (BARN-03).
    #[error("that field has a barn")]
    FieldHasBarn,
    /// The module that action needs is switched off.
    #[error("the {0} module is not in play")]
    ModuleOff(&'static str),
    /// The player holds no abbey (ABBEY-01).
    #[error("no abbey left to place")]
    NoAbbey,
    /// An abbey goes only into a hole (ABBEY-02).
    #[error("the abbey must go into a hole: an empty space with a tile on all four sides")]
    NotAHole,
    /// The barn's corner breaks BARN-02 or VAR-05.
    #[error("no barn can stand at that corner: {0}")]
    BarnCorner(&'static str),
    /// Not a legal destination for the wagon (WAGON-05..07).
    #[error("the wagon cannot move there")]
    WagonTarget,
    /// No meeple may stand on the dragon's space (DRAGON-05).
    #[error("the dragon stands on that space")]
    DragonSpace,
    /// Not a segment the portal reaches (PORTAL-02..06).
    #[error("the portal cannot send a meeple there: {0}")]
    PortalTarget(&'static str),
    /// No such meeple on the board.
    #[error("there is no such meeple on the board")]
    NoSuchMeeple,
    /// The princess removes only a knight of her own city (PRINCESS-02, AMB-07).
    #[error("that meeple is not a knight in the princess's city")]
    NotInPrincessCity,
    /// Under `princess.removal=mandatory` a knight must be removed (VAR-07).
    #[error("a knight must be removed (princess.removal=mandatory)")]
    RemovalRequired,
    /// The fairy goes next to one of the mover's own meeples (FAIRY-02, VAR-08).
    #[error(
        "the fairy can only go next to one of your own meeples (with fairy.placement=on_tile: onto a space holding one)"
    )]
    FairyTarget,
    /// That triangle is not face up in the draft.
    #[error("that triangle is not in the draft")]
    NotInDraft,
    /// The tile named is not a triangle.
    #[error("that tile is not a triangle")]
    NotATriangle,
    /// The player does not hold that triangle (HALF-03).
    #[error("you do not hold that triangle")]
    NotInHand,
    /// Held triangles left play when the stack ran out (VAR-18 `end_after_last_regular_tile`).
    #[error("triangles can no longer be placed (halflings.endgame=end_after_last_regular_tile)")]
    TrianglesLost,
    /// Not a legal answer to the crop-circle action (CROP-06..09).
    #[error("crop circle: {0}")]
    CropAnswer(&'static str),
    /// Not a legal dragon step (DRAGON-07).
    #[error("the dragon cannot step there: {0}")]
    DragonStep(&'static str),
}

impl From<PlaceError> for IllegalReason {
    fn from(e: PlaceError) -> Self {
        IllegalReason::Placement(e)
    }
}

/// An action that was refused.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{reason}")]
pub struct IllegalAction {
    /// The action.
    pub action: Action,
    /// Why.
    pub reason: IllegalReason,
}

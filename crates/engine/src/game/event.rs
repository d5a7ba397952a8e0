//! What happened: scorings and the other events an action causes, as a report or a UI shows them.

use crate::action::Player;
use crate::board::SegmentId;
use crate::catalogue::{SegmentKind, TileKind};
use crate::geom::Space;

use super::PlacedMeeple;

/// When a scoring happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreTime {
    /// During the game (phase 3).
    Turn,
    /// Final scoring (BASE-16).
    Final,
}

/// A set of players as a bit mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Players(pub u8);

impl Players {
    /// Whether `p` is in the set.
    pub const fn contains(self, p: Player) -> bool {
        self.0 & (1 << p.0) != 0
    }

    /// The players, in seat order.
    pub fn iter(self) -> impl Iterator<Item = Player> {
        (0..8u8).filter(move |i| self.0 & (1 << i) != 0).map(Player)
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Why a feature was scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreReason {
    /// It was completed (BASE-11).
    Completed,
    /// Final scoring of meeples on it (BASE-16).
    Final,
    /// A barn was placed in this field with farmers in it (BARN-04).
    BarnPlaced,
    /// This turn's tile joined a field with farmers to a field with a barn (BARN-05).
    BarnConnected,
    /// Final scoring of the barns in this field (BARN-07).
    Barns,
}

impl ScoreReason {
    /// Name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            ScoreReason::Completed => "completed",
            ScoreReason::Final => "final",
            ScoreReason::BarnPlaced => "barn_placed",
            ScoreReason::BarnConnected => "barn_connected",
            ScoreReason::Barns => "barns",
        }
    }
}

/// One feature scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scoring {
    /// During the game or at the end.
    pub when: ScoreTime,
    /// Why.
    pub reason: ScoreReason,
    /// The kind of feature.
    pub feature: SegmentKind,
    /// A segment of the feature (its root when scored), to name where it is.
    pub at: SegmentId,
    /// Whether the feature was complete.
    pub complete: bool,
    /// Points each winner scored.
    pub points: u32,
    /// The players with the most strength there (BASE-10); empty when nobody was there.
    pub winners: Players,
    /// Tiles counted (roads, cities).
    pub tiles: u16,
    /// Pennants counted (cities).
    pub pennants: u8,
    /// Completed cities counted (fields).
    pub cities: u8,
    /// Meeples that went back to their owners' supplies (wagons that then move included).
    pub returned: u8,
}

/// Why a meeple went home other than by scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReturnCause {
    /// The dragon entered its space (DRAGON-08).
    Dragon,
    /// The princess sent it home (PRINCESS-02).
    Princess,
    /// Crop-circle action B (CROP-07).
    CropCircle,
}

impl ReturnCause {
    /// Name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            ReturnCause::Dragon => "dragon",
            ReturnCause::Princess => "princess",
            ReturnCause::CropCircle => "crop_circle",
        }
    }
}

/// Something that happened while an action was applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A drawn tile could not be placed anywhere and left the game (BASE-05).
    Discarded {
        /// The active player.
        player: Player,
        /// The tile.
        tile: TileKind,
    },
    /// A feature was scored.
    Scored(Scoring),
    /// A dragon tile drawn before the dragon is in play was set aside (DRAGON-02).
    SetAside {
        /// The active player.
        player: Player,
        /// The tile.
        tile: TileKind,
    },
    /// A dragon tile drawn before the dragon is in play went back into the stack (VAR-09 `return_and_redraw`).
    PutBack {
        /// The active player.
        player: Player,
        /// The tile.
        tile: TileKind,
    },
    /// A volcano was placed: the dragon flew onto it (DRAGON-03). On the first volcano, the tiles set aside were
    /// shuffled back into the stack.
    Volcano {
        /// The volcano's space.
        space: Space,
        /// How many set-aside tiles went back into the stack.
        reshuffled: u8,
    },
    /// The dragon took one step (DRAGON-07).
    DragonMoved {
        /// Who chose the step.
        player: Player,
        /// The space it entered.
        to: Space,
    },
    /// A meeple went home without being scored.
    MeepleReturned {
        /// The meeple, as it stood.
        meeple: PlacedMeeple,
        /// Why.
        cause: ReturnCause,
    },
    /// The fairy moved (FAIRY-02).
    FairyMoved {
        /// Who moved it.
        player: Player,
        /// The space it now lies on.
        space: Space,
    },
    /// The fairy earned points: the turn point (FAIRY-04, `at` is `None`) or the scoring bonus of the feature at
    /// `at` (FAIRY-06).
    FairyPoints {
        /// Who scored.
        player: Player,
        /// How many points.
        points: u32,
        /// The scored feature, for a bonus.
        at: Option<SegmentId>,
    },
    /// The game ended (END-01); final scoring follows in the same action's events.
    GameEnded,
    /// The hill took the top tile of the stack out of play (HALF-18).
    UnderHill {
        /// The tile.
        tile: TileKind,
    },
}

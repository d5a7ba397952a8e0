//! Who decides what: the pending decision as the outside world sees it, and the turn's steps inside.

use crate::action::{CropAction, Player};
use crate::catalogue::TileKind;

/// Who must decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    /// Chance: the next tile comes off the stack.
    Chance,
    /// A player.
    Player(Player),
    /// Nobody: the game is over.
    Nobody,
}

/// The kind of decision pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// Phase 1 choice of a player holding an abbey while a hole exists, or a placeable triangle: place it, or pass
    /// (to draw; once the stack is empty, to pass the turn) (ABBEY-02, HALF-04, END-02).
    Phase1,
    /// A pick in the Halflings draft (VAR-20).
    Draft,
    /// Draw a tile (chance, TURN-02).
    Draw,
    /// Place the drawn tile (BASE-04).
    PlaceTile {
        /// The drawn tile.
        tile: TileKind,
    },
    /// Phase 2: deploy a meeple on the tile just placed (or through the portal), place the barn, move the fairy, or
    /// pass (TURN-03).
    Phase2,
    /// Phase 1 after a princess tile: send one knight of her city home, or pass (PRINCESS-02, VAR-07).
    Princess,
    /// One step of the dragon's movement, chosen by the player at offset `step - 1` from the active player
    /// (DRAGON-07).
    MoveDragon {
        /// Which step, 1 to 6.
        step: u8,
    },
    /// Phase 3b: the owner of a wagon just scored moves it or leaves it in the supply (WAGON-04).
    MoveWagon,
    /// Phase 4: the active player names crop-circle action A or B (CROP-04).
    CropChoice,
    /// Phase 4: one player's answer to the crop-circle action (CROP-06..09).
    CropAnswer {
        /// The action named; `None` when each player chooses their own (VAR-15 `english`).
        action: Option<CropAction>,
    },
    /// The game is over.
    GameOver,
}

/// Who decides what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// Who.
    pub actor: Actor,
    /// What.
    pub kind: DecisionKind,
}

/// One step of the turn (SPEC §T).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Step {
    /// The active player may place a held abbey instead of drawing.
    Phase1,
    /// Chance: draw a tile.
    Draw,
    /// The active player places the drawn tile.
    PlaceTile(TileKind),
    /// Phase 2 (TURN-03).
    Phase2,
    /// The princess's removal (PRINCESS-02).
    Princess,
    /// Dragon step 1..=6 (DRAGON-07).
    Dragon(u8),
    /// Phase 4: the crop-circle action (CROP-04).
    CropChoice,
    /// Phase 4: the answer of the player `k` seats to the active player's left, `k` = 1..=n (CROP-08).
    CropAnswer(u8),
    /// Phase 3, automatic (TURN-05).
    Score,
    /// Phase 3b: the first pending wagon's owner decides (TURN-06).
    Wagon,
    /// End of turn, automatic (TURN-08).
    EndTurn,
    /// Draft pick number `k` (0-based, VAR-20).
    Draft(u8),
    /// Nothing more.
    GameOver,
}

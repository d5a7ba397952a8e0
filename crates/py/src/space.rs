//! The fixed-size integer action space (docs/python.md, "Action ids").
//!
//! Every legal action of a game maps to one id in `0..size`; the size depends only on the game's configuration
//! (players, tile sets, rules), never on the position, and no game can outgrow it. Tiles go onto the *open spaces*:
//! every space that is not full (no square tile, not two triangles) and holds a tile or lies beside one, numbered in
//! row-major order from the south-west (by `y`, then `x`) at each decision ([`Frontier`]). A board of `n` filled
//! spaces has at most `2n + 2` empty spaces beside it, so `2·T + 2` slots (T: the tiles the configuration can place)
//! hold them all whatever the shape of the board. Board tiles are named by their number (the order they were
//! placed); figures already on the board by their owner and their place in that owner's list of figures, sorted.
//!
//! | block | ids | the action |
//! |---|---|---|
//! | pass | 1 | `pass` |
//! | place | S·4 | a square tile (or an abbey) on open space k, turned 0/90/180/270° |
//! | triangle | H·S·4 | the triangle in hand slot h on open space k, right angle at NE/SE/SW/NW |
//! | pick | K | take that triangle kind in the draft |
//! | onto | 3·T·16 | a follower (meeple, mayor, wagon) onto segment s of board tile t: deploy, portal, wagon move, crop add |
//! | barn | 4 | the barn on that corner of the tile just placed |
//! | figure | P·F | the figure at slot f of player p: the princess's removal, the fairy's move, crop action B |
//! | fairy tile | T | the fairy onto board tile t (VAR-08 `on_tile`) |
//! | dragon | 4 | one dragon step N/E/S/W |
//! | crop | 2 | crop-circle action A or B |
//! | crop role | 9 | the role (pitchfork, club, shield) with action none/A/B |
//!
//! Draws are chance outcomes, numbered by tile kind (`0..K`), apart from the players' actions. The board window
//! ([`Window`]) is only the observation's: it is centred on the tiles played and crops what lies beyond it.

use carcassonne::action::{CropAction, MeepleRef};
use carcassonne::catalogue::{CropType, Shape};
use carcassonne::geom::{Corner, Side};
use carcassonne::{Action, Game, MeepleKind, Player, Space};

/// Segments a tile may have (the engine's limit).
const SEGMENTS: usize = carcassonne::catalogue::MAX_SEGMENTS;

/// The board window: `width` × `width` spaces from (`x0`, `y0`), its south-west corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// West edge.
    pub(crate) x0: i16,
    /// South edge.
    pub(crate) y0: i16,
    /// Spaces across.
    pub(crate) width: i16,
}

impl Window {
    /// The window of this width centred on the tiles played so far.
    pub(crate) fn of(game: &Game, width: i16) -> Window {
        let mut b = Bounds::default();
        b.update(game);
        b.window(width)
    }

    /// The space's index in the window (row-major from the south-west corner: `(y - y0) * width + (x - x0)`).
    #[inline]
    pub(crate) fn index(self, s: Space) -> Option<usize> {
        let (dx, dy) = (s.x - self.x0, s.y - self.y0);
        (0..self.width).contains(&dx).then_some(())?;
        (0..self.width).contains(&dy).then_some(())?;
        Some(dy as usize * self.width as usize + dx as usize)
    }

    /// Spaces in the window.
    pub(crate) fn area(self) -> usize {
        self.width as usize * self.width as usize
    }
}

/// The played area's extent (with the start space), kept up to date one new tile at a time: a board never loses a
/// tile, so only the tiles added since the last update are looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// Tiles looked at so far.
    seen: usize,
    x_min: i16,
    x_max: i16,
    y_min: i16,
    y_max: i16,
}

impl Bounds {
    /// Take in the tiles placed since the last update (from scratch if the board has fewer tiles than seen: a
    /// different game).
    pub(crate) fn update(&mut self, game: &Game) {
        let tiles = game.board().tiles();
        if tiles.len() < self.seen {
            *self = Bounds::default();
        }
        for t in &tiles[self.seen..] {
            self.x_min = self.x_min.min(t.space.x);
            self.x_max = self.x_max.max(t.space.x);
            self.y_min = self.y_min.min(t.space.y);
            self.y_max = self.y_max.max(t.space.y);
        }
        self.seen = tiles.len();
    }

    /// The window of this width centred on the extent.
    pub(crate) fn window(self, width: i16) -> Window {
        let centre = |lo: i16, hi: i16| (lo + hi).div_euclid(2);
        Window { x0: centre(self.x_min, self.x_max) - width / 2, y0: centre(self.y_min, self.y_max) - width / 2, width }
    }
}

/// The open spaces of a board (every space that is not full and holds a tile or lies beside one), in row-major order
/// from the south-west, kept up to date one new tile at a time: a board never loses a tile, so only the tiles added
/// since the last update are looked at. Every tile placement (square, abbey or triangle) lies on one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Frontier {
    /// Tiles looked at so far.
    seen: usize,
    /// The open spaces, sorted by `(y, x)`.
    open: Vec<Space>,
}

impl Frontier {
    /// Take in the tiles placed since the last update (from scratch if the board has fewer tiles than seen: a
    /// different game).
    pub(crate) fn update(&mut self, game: &Game) {
        let board = game.board();
        let tiles = board.tiles();
        if tiles.len() < self.seen {
            self.seen = 0;
            self.open.clear();
        }
        for t in &tiles[self.seen..] {
            let s = t.space;
            if board.is_full(s) {
                if let Ok(i) = self.find(s) {
                    self.open.remove(i);
                }
            } else {
                self.insert(s);
            }
            for side in Side::ALL {
                let n = s.step(side);
                if !board.is_full(n) {
                    self.insert(n);
                }
            }
        }
        self.seen = tiles.len();
    }

    fn find(&self, s: Space) -> Result<usize, usize> {
        self.open.binary_search_by_key(&(s.y, s.x), |o| (o.y, o.x))
    }

    fn insert(&mut self, s: Space) {
        if let Err(i) = self.find(s) {
            self.open.insert(i, s);
        }
    }

    /// The slot of an open space.
    #[inline]
    pub(crate) fn slot(&self, s: Space) -> Option<usize> {
        self.find(s).ok()
    }

    /// The open spaces, by slot.
    pub(crate) fn spaces(&self) -> &[Space] {
        &self.open
    }
}

/// Narrowest and widest board windows accepted.
const WIDTHS: std::ops::RangeInclusive<i16> = 4..=200;

/// Check a window width asked for from Python.
pub(crate) fn check_width(width: i16) -> Result<(), String> {
    if WIDTHS.contains(&width) {
        Ok(())
    } else {
        Err(format!("window must be {} to {} spaces wide, not {width}", WIDTHS.start(), WIDTHS.end()))
    }
}

/// Why an action has no id: a number beyond what the configuration allowed for (a hand or a figure count beyond the
/// rules). The bounds are chosen so that this does not happen; it is reported, never hidden, if it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unencodable(pub(crate) &'static str);

impl std::fmt::Display for Unencodable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "more {} than the action space allows for", self.0)
    }
}

/// The sizes of one configuration's action space and where each block starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ActionSpace {
    /// The observation window's width.
    pub(crate) width: i16,
    /// Open-space slots (S): `2·T + 2`, more than a board of T tiles can have.
    pub(crate) open: usize,
    /// Players.
    pub(crate) players: usize,
    /// Tile kinds in the catalogue (K).
    pub(crate) kinds: usize,
    /// Tile numbers the board can reach (T).
    pub(crate) tiles: usize,
    /// Hand slots (H, 0 without Halflings).
    pub(crate) hand: usize,
    /// Figures per player (F).
    pub(crate) figures: usize,
    /// Whether triangles can be picked (the Halflings module).
    pub(crate) picks: bool,
    offsets: [usize; 12],
}

/// Block numbers, in id order.
const PASS: usize = 0;
const PLACE: usize = 1;
const TRIANGLE: usize = 2;
const PICK: usize = 3;
const ONTO: usize = 4;
const BARN: usize = 5;
const FIGURE: usize = 6;
const FAIRY: usize = 7;
const DRAGON: usize = 8;
const CROP: usize = 9;
const ROLE: usize = 10;

/// Block names, for `describe`.
pub(crate) const BLOCK_NAMES: [&str; 11] =
    ["pass", "place", "triangle", "pick", "onto", "barn", "figure", "fairy_tile", "dragon", "crop", "crop_role"];

impl ActionSpace {
    /// The action space of a game's configuration, with an observation window of `width` spaces (read from the game
    /// as it starts).
    pub(crate) fn new(start: &Game, width: i16) -> ActionSpace {
        let cfg = start.config();
        let players = start.players();
        let halflings = start.rules().get("modules.halflings").as_deref() == Some("true");
        let hand = if halflings {
            let per = start.rules().get("halflings.tiles_per_player").and_then(|v| v.parse::<usize>().ok());
            let dealt = (0..players).map(|p| start.hand(Player(p as u8)).len()).max().unwrap_or(0);
            per.unwrap_or(3).max(dealt)
        } else {
            0
        };
        let all = |f: &dyn Fn(Player) -> usize| (0..players).map(|p| f(Player(p as u8))).sum::<usize>();
        let abbeys = all(&|p| start.abbeys_left(p) as usize);
        let tiles = 1 + cfg.stack.len() + cfg.triangles.len() + abbeys;
        let figures = (0..players)
            .map(|p| MeepleKind::ALL.iter().map(|k| start.supply_of(Player(p as u8), *k) as usize).sum::<usize>())
            .max()
            .unwrap_or(0)
            .max(1);
        let kinds = start.catalogue().len();
        let open = 2 * tiles + 2;
        let sizes = [
            1,
            open * 4,
            open * 4 * hand,
            if halflings { kinds } else { 0 },
            MeepleKind::COUNT * tiles * SEGMENTS,
            4,
            players * figures,
            tiles,
            4,
            2,
            9,
        ];
        let mut offsets = [0usize; 12];
        for (i, s) in sizes.iter().enumerate() {
            offsets[i + 1] = offsets[i] + s;
        }
        ActionSpace { width, open, players, kinds, tiles, hand, figures, picks: halflings, offsets }
    }

    /// Number of ids.
    pub(crate) fn size(&self) -> usize {
        self.offsets[11]
    }

    /// Each block's name, first id and size.
    pub(crate) fn blocks(&self) -> Vec<(&'static str, usize, usize)> {
        (0..11).map(|b| (BLOCK_NAMES[b], self.offsets[b], self.offsets[b + 1] - self.offsets[b])).collect()
    }

    /// The id of a legal action of `game`, with its open spaces in `frontier` (from [`Frontier::update`] on the same
    /// game) and the figures on the board sorted into their slots (`figures`, from [`Figures::fill`] on the same game).
    ///
    /// Tile placements, by far the most numerous actions, take a short path that is inlined into the caller's loop.
    #[inline]
    pub(crate) fn encode(
        &self,
        game: &Game,
        frontier: &Frontier,
        figures: &Figures,
        a: Action,
    ) -> Result<usize, Unencodable> {
        match a {
            Action::Place { space, rotation, .. } => match frontier.slot(space) {
                Some(i) if i < self.open => Ok(self.offsets[PLACE] + i * 4 + rotation as usize),
                _ => Err(Unencodable("open spaces")),
            },
            _ => self.encode_other(game, frontier, figures, a),
        }
    }

    /// [`ActionSpace::encode`] for everything but tile placements.
    #[inline(never)]
    fn encode_other(
        &self,
        game: &Game,
        frontier: &Frontier,
        figures: &Figures,
        a: Action,
    ) -> Result<usize, Unencodable> {
        let at = |s: Space| frontier.slot(s).filter(|i| *i < self.open).ok_or(Unencodable("open spaces"));
        let o = &self.offsets;
        Ok(match a {
            Action::Pass => o[PASS],
            Action::Place { space, rotation, .. } => o[PLACE] + at(space)? * 4 + rotation as usize,
            Action::PlaceTriangle { tile, space, corner } => {
                let me = game.active_player();
                let slot = game.hand(me).iter().position(|k| *k == tile).ok_or(Unencodable("triangles in hand"))?;
                if slot >= self.hand {
                    return Err(Unencodable("triangles in hand"));
                }
                o[TRIANGLE] + (slot * self.open + at(space)?) * 4 + corner_index(corner)
            }
            Action::Pick(k) => {
                if !self.picks {
                    return Err(Unencodable("draft picks"));
                }
                o[PICK] + k.0 as usize
            }
            Action::Deploy { meeple, segment } => {
                let t = game.placed_tile().ok_or(Unencodable("tiles"))?;
                self.onto(meeple, t, segment as usize)?
            }
            Action::Portal { meeple, segment } | Action::CropAdd { meeple, segment } => {
                let (t, s) = game.board().segment_tile(segment);
                self.onto(meeple, t, s as usize)?
            }
            Action::MoveWagon { segment } => {
                let (t, s) = game.board().segment_tile(segment);
                self.onto(MeepleKind::Wagon, t, s as usize)?
            }
            Action::PlaceBarn { corner } => o[BARN] + corner_index(corner),
            Action::RemoveKnight(m) | Action::MoveFairy(m) | Action::CropRemove(m) => {
                o[FIGURE] + m.player.index() * self.figures + self.figure_slot(figures, m)?
            }
            Action::MoveFairyTo(space) => {
                // The fairy goes onto a tile; the first tile on that space names it.
                let t = game.board().tile_numbers_in(space).min().ok_or(Unencodable("tiles"))?;
                if t >= self.tiles {
                    return Err(Unencodable("tiles"));
                }
                o[FAIRY] + t
            }
            Action::MoveDragon(side) => o[DRAGON] + side.index(),
            Action::ChooseCrop(c) => o[CROP] + crop_index(c),
            Action::ChooseCropRole(role, c) => {
                let r = match role {
                    CropType::Pitchfork => 0,
                    CropType::Club => 1,
                    CropType::Shield => 2,
                };
                o[ROLE] + r * 3 + c.map_or(0, |c| 1 + crop_index(c))
            }
            // Chance outcomes are numbered apart (by tile kind).
            Action::Draw(_) => return Err(Unencodable("draws (they are chance outcomes)")),
        })
    }

    fn onto(&self, meeple: MeepleKind, tile: usize, segment: usize) -> Result<usize, Unencodable> {
        if tile >= self.tiles {
            return Err(Unencodable("tiles"));
        }
        Ok(self.offsets[ONTO] + (meeple.index() * self.tiles + tile) * SEGMENTS + segment)
    }

    /// A figure's slot: its place among its owner's figures on the board, sorted by kind, segment and fairy.
    fn figure_slot(&self, figures: &Figures, m: MeepleRef) -> Result<usize, Unencodable> {
        let own = figures.sorted.get(m.player.index()).ok_or(Unencodable("players"))?;
        match own.iter().position(|r| *r == m) {
            Some(slot) if slot < self.figures => Ok(slot),
            _ => Err(Unencodable("figures")),
        }
    }

    /// Describe an id without a game: its block and the numbers it stands for.
    pub(crate) fn describe(&self, id: usize) -> Option<(&'static str, Vec<(&'static str, i64)>)> {
        let b = (0..11).find(|b| id >= self.offsets[*b] && id < self.offsets[*b + 1])?;
        let i = id - self.offsets[b];
        let open = self.open;
        let fields = match b {
            PLACE => vec![("space", (i / 4) as i64), ("rotation", (i % 4) as i64 * 90)],
            TRIANGLE => {
                vec![("slot", (i / 4 / open) as i64), ("space", (i / 4 % open) as i64), ("corner", (i % 4) as i64)]
            }
            PICK => vec![("kind", i as i64)],
            ONTO => vec![
                ("follower", (i / SEGMENTS / self.tiles) as i64),
                ("tile", (i / SEGMENTS % self.tiles) as i64),
                ("segment", (i % SEGMENTS) as i64),
            ],
            BARN => vec![("corner", i as i64)],
            FIGURE => vec![("player", (i / self.figures) as i64), ("slot", (i % self.figures) as i64)],
            FAIRY => vec![("tile", i as i64)],
            DRAGON => vec![("side", i as i64)],
            CROP => vec![("action", i as i64)],
            ROLE => vec![("role", (i / 3) as i64), ("action", (i % 3) as i64)],
            _ => vec![],
        };
        Some((BLOCK_NAMES[b], fields))
    }
}

/// NE, SE, SW, NW → 0..4 (the engine's corner order).
fn corner_index(c: Corner) -> usize {
    Corner::ALL.iter().position(|x| *x == c).unwrap_or(0)
}

fn crop_index(c: CropAction) -> usize {
    match c {
        CropAction::A => 0,
        CropAction::B => 1,
    }
}

/// Each player's figures on the board, sorted by kind, segment and fairy: a figure's slot is its place here.
#[derive(Clone, Debug, Default)]
pub(crate) struct Figures {
    sorted: Vec<Vec<MeepleRef>>,
}

impl Figures {
    /// Sort the game's figures (reusing the lists).
    pub(crate) fn fill(&mut self, game: &Game) {
        self.sorted.resize_with(game.players(), Vec::new);
        for own in &mut self.sorted {
            own.clear();
        }
        for m in game.meeples() {
            self.sorted[m.player.index()].push(m.reference());
        }
        for own in &mut self.sorted {
            own.sort_unstable_by_key(|r| (r.kind, r.segment, r.fairy));
        }
    }
}

/// A game's legal actions with their ids, computed together so that an id is looked up among what is legal.
#[derive(Clone, Debug, Default)]
pub(crate) struct Legal {
    /// The legal actions, in the engine's order.
    pub(crate) actions: Vec<Action>,
    /// Their ids, in the same order (empty at a chance node or at the end).
    pub(crate) ids: Vec<u32>,
    /// The game's open spaces, followed tile by tile.
    pub(crate) frontier: Frontier,
    figures: Figures,
}

impl Legal {
    /// Fill from the game's current decision (chance nodes and the end give no player ids).
    pub(crate) fn fill(&mut self, space: &ActionSpace, game: &Game) -> Result<(), Unencodable> {
        game.legal_actions_into(&mut self.actions);
        self.ids.clear();
        self.frontier.update(game);
        let decision = game.decision();
        if !matches!(decision.actor, carcassonne::Actor::Player(_)) {
            return Ok(());
        }
        let names_figures =
            |a: &Action| matches!(a, Action::RemoveKnight(_) | Action::MoveFairy(_) | Action::CropRemove(_));
        let placing = matches!(decision.kind, carcassonne::DecisionKind::PlaceTile { .. });
        if !placing && self.actions.iter().any(names_figures) {
            self.figures.fill(game);
        }
        self.ids.reserve(self.actions.len());
        for a in &self.actions {
            self.ids.push(space.encode(game, &self.frontier, &self.figures, *a)? as u32);
        }
        Ok(())
    }

    /// Forget the listed actions.
    pub(crate) fn clear(&mut self) {
        self.actions.clear();
        self.ids.clear();
    }

    /// The legal action with this id.
    pub(crate) fn find(&self, id: usize) -> Option<Action> {
        self.ids.iter().position(|x| *x as usize == id).map(|i| self.actions[i])
    }
}

/// Whether a tile kind is a triangle (for the observation's hand counts).
pub(crate) fn is_triangle(game: &Game, k: carcassonne::TileKind) -> bool {
    game.catalogue().def(k).shape == Shape::Triangle
}

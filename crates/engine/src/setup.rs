//! Game setup: players, tile sets, rule options, a seed or a forced draw order, custom tiles. A [`Setup`] is plain
//! data (it is what a record stores); [`Setup::prepare`] validates it into a shared [`GameConfig`] from which games
//! start.

use std::sync::Arc;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::catalogue::{
    Catalogue, CatalogueError, CropType, Shape, Symbol, TileDef, TileEntry, TileKind, TileSet, builtin_set,
};
use crate::rules::Rules;

/// The modules this build implements. Asking for another is a setup error, never a silent no-op.
const IMPLEMENTED_MODULES: &[&str] =
    &["abbey", "mayor", "wagon", "barn", "dragon", "fairy", "princess", "portal", "crop_circles", "halflings"];

/// Everything needed to start a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Number of players, 2 to 6 (SPEC BASE-01), seated in turn order.
    pub players: u8,
    /// Tile sets in play (`base`, `am`, …). Default: `["base"]`.
    #[serde(default = "default_sets")]
    pub sets: Vec<String>,
    /// Rule options by key; missing keys keep their defaults.
    #[serde(default, skip_serializing_if = "is_default_rules")]
    pub rules: Rules,
    /// Seed of the shuffle of the draw stack.
    #[serde(default)]
    pub seed: u64,
    /// A forced draw stack, first drawn first (tile ids such as `base/U`). When given, the stack is exactly this list
    /// and the sets only supply the tile kinds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_order: Option<Vec<String>>,
    /// Extra tile kinds for this game, in the tile-file format (set id `custom`: `custom/<id>`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub custom_tiles: Vec<TileEntry>,
    /// The start tile (default: the first set's start tile, `base/D`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_tile: Option<String>,
    /// How far the start tile is turned, clockwise (`0`, `90`, `180` or `270` degrees; default 0). Turning it turns
    /// the whole game: a game started turned by 90° and played with every action turned by 90° ([`Action::rotate`])
    /// is the same game with the board turned, which is how observations are augmented by symmetry.
    ///
    /// [`Action::rotate`]: crate::Action::rotate
    #[serde(default, skip_serializing_if = "is_unturned")]
    pub start_rotation: crate::geom::Rotation,
    /// Forced Halflings hands, one list of triangle ids per player in seat order (instead of the deal or the draft).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hands: Option<Vec<Vec<String>>>,
}

fn default_sets() -> Vec<String> {
    vec!["base".into()]
}

fn is_unturned(r: &crate::geom::Rotation) -> bool {
    *r == crate::geom::Rotation::R0
}

fn is_default_rules(r: &Rules) -> bool {
    *r == Rules::default()
}

impl Default for Setup {
    fn default() -> Self {
        Setup::new(2)
    }
}

/// Why a setup cannot start a game.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// Fewer than 2 or more than 6 players.
    #[error("{0} players: a game has 2 to 6 players")]
    Players(u8),
    /// A tile set could not be loaded.
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
    /// A set was named twice.
    #[error("tile set `{0}` is listed twice")]
    DuplicateSet(String),
    /// A module this build does not implement was switched on.
    #[error("module `{0}` is not implemented yet; switch it off (modules.{0}=false)")]
    ModuleNotImplemented(String),
    /// A set whose rules this build does not implement.
    #[error("tile set `{set}` needs the {rules} rules, which are not implemented yet")]
    SetNotPlayable {
        /// The set.
        set: String,
        /// What is missing.
        rules: &'static str,
    },
    /// A tile id that no set in play defines.
    #[error("{what}: no tile `{id}` in the sets in play")]
    UnknownTile {
        /// Where it was named.
        what: &'static str,
        /// The id.
        id: String,
    },
    /// The abbey module needs the abbey tile, which comes with the `am` set.
    #[error("modules.abbey needs the Abbey & Mayor tile set: add `am` to the sets")]
    AbbeyWithoutSet,
    /// A tile named in the setup belongs to a module that is switched off.
    #[error("{what}: `{id}` is a {module} tile, but modules.{module} is off")]
    TileNeedsModule {
        /// Where it was named.
        what: &'static str,
        /// The id.
        id: String,
        /// The module.
        module: &'static str,
    },
    /// A module is on but no tile in play brings it into the game.
    #[error("modules.{module} needs tiles with {symbol}: add the `{set}` tile set")]
    ModuleWithoutTiles {
        /// The module.
        module: &'static str,
        /// What the tiles show.
        symbol: &'static str,
        /// The set that has them.
        set: &'static str,
    },
    /// Forced hands given without the Halflings module.
    #[error("`hands` needs modules.halflings")]
    HandsWithoutHalflings,
    /// Forced hands that do not fit the game.
    #[error("hands: {0}")]
    Hands(String),
    /// More tiles than a board can number.
    #[error(
        "{tiles} tiles{}: a game holds at most {} tiles",
        if *abbeys > 0 { format!(" (with the {abbeys} abbeys the players hold)") } else { String::new() },
        Setup::MAX_TILES
    )]
    TooManyTiles {
        /// The tiles the game would hold: the start tile, the stack, the triangles and the abbeys.
        tiles: usize,
        /// Of those, the abbeys (one a player with the abbey module).
        abbeys: usize,
    },
    /// No start tile could be found.
    #[error("no start tile: name one with `start_tile`, or include the base set")]
    NoStartTile,
    /// The start tile or a drawn tile is not a square land tile.
    #[error("{what}: `{id}` is not a square land tile")]
    NotLandTile {
        /// Where it was named.
        what: &'static str,
        /// The id.
        id: String,
    },
}

/// The switched-off module whose tile this is, if any: such tiles leave the game (SPEC §V module switches).
fn needed_module(d: &TileDef, m: crate::rules::Modules) -> Option<&'static str> {
    let checks = [
        ("dragon", m.dragon, d.has_symbol(Symbol::Volcano) || d.has_symbol(Symbol::Dragon)),
        ("princess", m.princess, d.segments.iter().any(|s| s.princess)),
        ("portal", m.portal, d.has_symbol(Symbol::Portal)),
        ("crop_circles", m.crop_circles, CropType::of(d).is_some()),
    ];
    checks.into_iter().find(|&(_, on, has)| has && !on).map(|(name, _, _)| name)
}

/// Triangles per player, in seat order.
pub type Hands = Vec<Vec<TileKind>>;

/// A validated setup, shared by every game started from it.
#[derive(Debug)]
pub struct GameConfig {
    /// The setup it came from.
    pub setup: Setup,
    /// The tile kinds in play.
    pub catalogue: Catalogue,
    /// Rule options.
    pub rules: Rules,
    /// Number of players.
    pub players: u8,
    /// The start tile.
    pub start: TileKind,
    /// The tiles of the draw stack before shuffling (or the forced order, first drawn first).
    pub stack: Vec<TileKind>,
    /// Whether `stack` is a forced order.
    pub forced: bool,
    /// The abbey tile kind, when the abbey module is on (ABBEY-01).
    pub abbey: Option<TileKind>,
    /// The triangles handed out with the Halflings module (HALF-03, VAR-17), one entry per copy, before the deal.
    pub triangles: Vec<TileKind>,
    /// Forced hands (`Setup::hands`), resolved.
    pub hands: Option<Hands>,
}

impl Setup {
    /// Most tiles one game holds, everything counted: the start tile, the stack, the triangles and the abbeys.
    pub const MAX_TILES: usize = 250;

    /// A base-game setup for `players` players with seed 0.
    pub fn new(players: u8) -> Setup {
        Setup {
            players,
            sets: default_sets(),
            rules: Rules::default(),
            seed: 0,
            draw_order: None,
            custom_tiles: vec![],
            start_tile: None,
            start_rotation: crate::geom::Rotation::R0,
            hands: None,
        }
    }

    /// Switch on the modules of the expansion sets in play, as a player expects from choosing an expansion: `am`
    /// gives the abbey, mayor, wagon and barn, `pd` the dragon, fairy, princess and portal, `cc` the crop circles
    /// and `half` the Halflings (D-34). Nothing changes if a `modules.*` rule was already set by hand.
    pub fn switch_on_set_modules(&mut self, explicit_modules: bool) {
        if explicit_modules {
            return;
        }
        let has = |id| self.sets.iter().any(|x| crate::catalogue::canonical_set_id(x) == Some(id));
        let mut on: Vec<&str> = Vec::new();
        if has("am") {
            on.extend(["abbey", "mayor", "wagon", "barn"]);
        }
        if has("pd") {
            on.extend(["dragon", "fairy", "princess", "portal"]);
        }
        if has("cc") {
            on.push("crop_circles");
        }
        if has("half") {
            on.push("halflings");
        }
        for m in on {
            // Every name above is a module key, so this cannot fail.
            let _ = self.rules.set(&format!("modules.{m}"), "true");
        }
    }

    /// Validate and load the tile sets.
    ///
    /// # Errors
    /// A [`SetupError`] saying what is wrong.
    pub fn prepare(&self) -> Result<Arc<GameConfig>, SetupError> {
        if !(2..=6).contains(&self.players) {
            return Err(SetupError::Players(self.players));
        }
        for m in self.rules.modules.enabled() {
            if !IMPLEMENTED_MODULES.contains(&m) {
                return Err(SetupError::ModuleNotImplemented(m.into()));
            }
        }
        let mut sets: Vec<TileSet> = Vec::new();
        for name in &self.sets {
            let mut set = builtin_set(name)?;
            if sets.iter().any(|s| s.id == set.id) {
                return Err(SetupError::DuplicateSet(set.id));
            }
            if set.id == "pd" && self.rules.pd_tile_s_pennant == crate::rules::TileSPennant::C1 {
                // VAR-23 (D-10): the 1st-edition art of pd/S shows a pennant on its city.
                if let Some(s) = set.tiles.iter_mut().find(|t| t.id == "pd/S")
                    && let Some(city) = s.segments.iter_mut().find(|g| g.kind == crate::SegmentKind::City)
                {
                    city.pennants = 1;
                }
            }
            sets.push(set);
        }
        if !self.custom_tiles.is_empty() {
            sets.push(TileSet::from_entries("custom", "Custom tiles", None, &self.custom_tiles, "custom_tiles")?);
        }
        let catalogue = Catalogue::new(&sets)?;
        let modules = self.rules.modules;
        let lookup = |what: &'static str, id: &str| -> Result<TileKind, SetupError> {
            let k = catalogue.by_id(id).ok_or_else(|| SetupError::UnknownTile { what, id: id.into() })?;
            if catalogue.def(k).shape != Shape::Square {
                return Err(SetupError::NotLandTile { what, id: id.into() });
            }
            if let Some(module) = needed_module(catalogue.def(k), modules) {
                return Err(SetupError::TileNeedsModule { what, id: id.into(), module });
            }
            Ok(k)
        };
        let start_id = match &self.start_tile {
            Some(s) => s.clone(),
            None => sets.iter().find_map(|s| s.start.clone()).ok_or(SetupError::NoStartTile)?,
        };
        let start = lookup("start_tile", &start_id)?;
        let (stack, forced) = match &self.draw_order {
            Some(order) => (order.iter().map(|id| lookup("draw_order", id)).collect::<Result<Vec<_>, _>>()?, true),
            None => {
                let mut stack = Vec::new();
                let mut start_taken = false;
                for k in catalogue.kinds() {
                    let d = catalogue.def(k);
                    // Abbeys are held, not shuffled in (ABBEY-01); triangles are dealt (HALF-03). A module switched
                    // off drops its tiles (SPEC §V).
                    if d.shape != Shape::Square || needed_module(d, modules).is_some() {
                        continue;
                    }
                    for _ in 0..d.count {
                        if k == start && !start_taken {
                            start_taken = true;
                        } else {
                            stack.push(k);
                        }
                    }
                }
                (stack, false)
            }
        };
        type Shows = fn(&TileDef) -> bool;
        let needs: [(&str, bool, &str, &str, Shows); 4] = [
            ("dragon", modules.dragon, "a volcano", "pd", |d| d.has_symbol(Symbol::Volcano)),
            ("princess", modules.princess, "a princess", "pd", |d| d.segments.iter().any(|s| s.princess)),
            ("portal", modules.portal, "a magic portal", "pd", |d| d.has_symbol(Symbol::Portal)),
            ("crop_circles", modules.crop_circles, "a crop circle", "cc", |d| CropType::of(d).is_some()),
        ];
        for (module, on, symbol, set, shows) in needs {
            if on && !catalogue.kinds().any(|k| shows(catalogue.def(k))) {
                return Err(SetupError::ModuleWithoutTiles { module, symbol, set });
            }
        }
        let (triangles, hands) = self.triangles(&catalogue)?;
        let abbeys = if self.rules.modules.abbey { self.players as usize } else { 0 };
        let tiles = stack.len() + 1 + triangles.len() + abbeys;
        if tiles > Setup::MAX_TILES {
            return Err(SetupError::TooManyTiles { tiles, abbeys });
        }
        let abbey = if self.rules.modules.abbey {
            let k = catalogue
                .kinds()
                .find(|&k| catalogue.def(k).shape == Shape::Abbey)
                .ok_or(SetupError::AbbeyWithoutSet)?;
            Some(k)
        } else {
            None
        };
        Ok(Arc::new(GameConfig {
            abbey,
            setup: self.clone(),
            catalogue,
            rules: self.rules,
            players: self.players,
            start,
            stack,
            forced,
            triangles,
            hands,
        }))
    }

    /// The triangles of the Halflings module: every triangle copy of the sets in play, without the symbol triangles
    /// unless VAR-17 says so (HALF-03); and the forced hands, if any.
    fn triangles(&self, catalogue: &Catalogue) -> Result<(Vec<TileKind>, Option<Hands>), SetupError> {
        let on = self.rules.modules.halflings;
        let is_triangle = |k: TileKind| catalogue.def(k).shape == Shape::Triangle;
        if !on {
            if self.hands.is_some() {
                return Err(SetupError::HandsWithoutHalflings);
            }
            return Ok((Vec::new(), None));
        }
        let mut pool = Vec::new();
        for k in catalogue.kinds().filter(|&k| is_triangle(k)) {
            let d = catalogue.def(k);
            if !d.symbols.is_empty() && !self.rules.halflings_include_symbol_tiles {
                continue;
            }
            pool.extend(std::iter::repeat_n(k, d.count as usize));
        }
        if !catalogue.kinds().any(is_triangle) {
            return Err(SetupError::ModuleWithoutTiles { module: "halflings", symbol: "triangles", set: "half" });
        }
        let hands = match &self.hands {
            None => None,
            Some(h) => {
                if h.len() != self.players as usize {
                    return Err(SetupError::Hands(format!("{} hands for {} players", h.len(), self.players)));
                }
                let mut out = Vec::new();
                for (p, hand) in h.iter().enumerate() {
                    let mut v = Vec::new();
                    for id in hand {
                        let k = catalogue.by_id(id).filter(|&k| is_triangle(k)).ok_or_else(|| {
                            SetupError::Hands(format!("P{}: `{id}` is not a triangle of the sets in play", p + 1))
                        })?;
                        v.push(k);
                    }
                    out.push(v);
                }
                // No triangle in more copies than the sets have.
                for k in catalogue.kinds().filter(|&k| is_triangle(k)) {
                    let dealt = out.iter().flatten().filter(|&&x| x == k).count();
                    if dealt > catalogue.def(k).count as usize {
                        return Err(SetupError::Hands(format!(
                            "`{}` is dealt {dealt} times but the sets have {} of it",
                            catalogue.def(k).id,
                            catalogue.def(k).count
                        )));
                    }
                }
                Some(out)
            }
        };
        Ok((pool, hands))
    }
}

impl GameConfig {
    /// Fill `s` with the draw stack for a game with this seed, stored so that the next tile drawn is the last element.
    pub(crate) fn shuffle_into(&self, seed: u64, s: &mut Vec<TileKind>) {
        s.clear();
        s.extend_from_slice(&self.stack);
        if self.forced {
            s.reverse();
        } else {
            s.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        }
    }
}

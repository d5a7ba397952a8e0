//! The tile catalogue: tile kinds as data (docs/tile-format.md), validated on load, with every rotation precomputed.
//!
//! The built-in sets are embedded TOML files ([`builtin_set`]); a user's set loads with [`TileSet::from_toml`], and a
//! record can bring its own tile kinds as JSON ([`TileEntry`]).

mod parse;

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::geom::{Edge, Pos, Rotation, Side, Terrain};

pub use parse::CatalogueError;

/// The kinds of segment a tile can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SegmentKind {
    /// A piece of road.
    Road,
    /// A piece of city.
    City,
    /// A piece of field.
    Field,
    /// A monastery (or the abbey).
    Monastery,
    /// A crop-circle area: never joins, never scores, never taken (SPEC CROP-02).
    Crop,
}

impl SegmentKind {
    /// Every kind, in declaration order: `ALL[k as usize] == k`.
    pub const ALL: [SegmentKind; 5] =
        [SegmentKind::Road, SegmentKind::City, SegmentKind::Field, SegmentKind::Monastery, SegmentKind::Crop];

    /// Notation name.
    pub const fn name(self) -> &'static str {
        match self {
            SegmentKind::Road => "road",
            SegmentKind::City => "city",
            SegmentKind::Field => "field",
            SegmentKind::Monastery => "monastery",
            SegmentKind::Crop => "crop",
        }
    }

    /// Inverse of [`SegmentKind::name`].
    pub fn from_name(s: &str) -> Option<SegmentKind> {
        [Self::Road, Self::City, Self::Field, Self::Monastery, Self::Crop].into_iter().find(|k| k.name() == s)
    }
}

/// What a road that stops inside its tile ends at (SPEC BASE-18; the C1 wagon needs it, WAGON-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoadEnd {
    /// At a monastery on the same tile.
    Monastery,
    /// At a gate of the city segment with this index on the same tile.
    CityGate(u8),
    /// At a junction where several roads of the tile meet.
    Junction,
    /// At a village (a junction with houses).
    Village,
    /// At a volcano.
    Volcano,
    /// At a crop circle.
    Crop,
    /// At a house.
    House,
    /// At a garden.
    Garden,
    /// Nowhere in particular (a dead end).
    Dead,
}

/// The shape of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A square land tile, filling a space.
    Square,
    /// A triangle, half a space (Halflings, SPEC HALF-02); written with its right angle at the north-east.
    Triangle,
    /// The abbey: a square whose sides match anything and close what faces them (SPEC ABBEY-03).
    Abbey,
}

/// The three crop-circle types (SPEC CROP-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CropType {
    /// Farmers.
    Pitchfork,
    /// Highwaymen.
    Club,
    /// Knights.
    Shield,
}

impl CropType {
    /// The kind of feature whose meeples the circle concerns (CROP-01, CROP-05): fields for the pitchfork, roads for
    /// the club, cities for the shield.
    pub const fn role(self) -> SegmentKind {
        match self {
            CropType::Pitchfork => SegmentKind::Field,
            CropType::Club => SegmentKind::Road,
            CropType::Shield => SegmentKind::City,
        }
    }

    /// Every type, in the order the roles are named.
    pub const ALL: [CropType; 3] = [CropType::Shield, CropType::Club, CropType::Pitchfork];

    /// The role's name, as the triangular crop circle's choice is written (`knight`, `highwayman`, `farmer`).
    pub const fn role_name(self) -> &'static str {
        match self {
            CropType::Shield => "knight",
            CropType::Club => "highwayman",
            CropType::Pitchfork => "farmer",
        }
    }

    /// The type whose role has this name.
    pub fn from_role_name(s: &str) -> Option<CropType> {
        CropType::ALL.into_iter().find(|t| t.role_name() == s)
    }

    /// The crop type on a tile, if it shows a crop circle.
    pub fn of(def: &TileDef) -> Option<CropType> {
        def.symbols.iter().find_map(|s| match s {
            Symbol::CropCircle(t) => Some(*t),
            _ => None,
        })
    }
}

/// A symbol printed on a tile that some expansion gives a meaning to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// The dragon moves when this tile is placed (SPEC DRAGON-06).
    Dragon,
    /// The dragon flies here (SPEC DRAGON-03).
    Volcano,
    /// A magic portal (SPEC PORTAL-02).
    Portal,
    /// A crop circle of the given type (SPEC CROP-01).
    CropCircle(CropType),
    /// The Halflings' triangular crop circle: the active player names the role as well (SPEC HALF-20).
    CropAnyRole,
    /// A vineyard (Halflings, HALF-17).
    Vineyard,
    /// A hill (HALF-18).
    Hill,
    /// Sheep (HALF-19).
    Sheep,
}

impl Symbol {
    /// Notation name.
    pub const fn name(self) -> &'static str {
        match self {
            Symbol::Dragon => "dragon",
            Symbol::Volcano => "volcano",
            Symbol::Portal => "portal",
            Symbol::CropCircle(CropType::Pitchfork) => "crop:pitchfork",
            Symbol::CropCircle(CropType::Club) => "crop:club",
            Symbol::CropCircle(CropType::Shield) => "crop:shield",
            Symbol::CropAnyRole => "crop",
            Symbol::Vineyard => "vineyard",
            Symbol::Hill => "hill",
            Symbol::Sheep => "sheep",
        }
    }
}

/// One segment of a tile kind, in the kind's canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// What it is.
    pub kind: SegmentKind,
    /// The label given in the data (`A`, `B`, …), if any.
    pub label: Option<String>,
    /// The positions it touches, as a bit set over [`Pos`] (bit `p` for position `p`). For a field side, the centre
    /// position belongs to the field holding its first half.
    pub positions: u16,
    /// Pennants (coats of arms) on a city segment.
    pub pennants: u8,
    /// A princess marks this city segment (SPEC PRINCESS-01).
    pub princess: bool,
    /// For a field: the city segments (by index on this tile) it borders.
    pub cities: Vec<u8>,
    /// For a road that stops on this tile: what it ends at.
    pub end: Option<RoadEnd>,
    /// The road passes under a city (informative: tunnels join nothing).
    pub tunnel: bool,
    /// For a monastery inside a city: that city segment's index.
    pub inside: Option<u8>,
}

impl Segment {
    /// Whether the segment touches position `p`.
    pub fn touches(&self, p: Pos) -> bool {
        self.positions & p.bit() != 0
    }
}

/// A tile kind: everything printed on one tile, in one canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileDef {
    /// Full id, `set/id`.
    pub id: String,
    /// The set it belongs to.
    pub set: String,
    /// A short description.
    pub name: String,
    /// Copies in the set.
    pub count: u16,
    /// How many copies show a garden (C2/C3).
    pub gardens: u16,
    /// Square, triangle or abbey.
    pub shape: Shape,
    /// Symbols on the tile (the princess is on a segment, [`Segment::princess`]).
    pub symbols: Vec<Symbol>,
    /// The segments, in data order; a segment's index is its number on the tile.
    pub segments: Vec<Segment>,
    /// The edge on each side, N E S W (triangles: only the legs N and E; abbey: [`Edge::ANY`]).
    pub edges: [Edge; 4],
    /// A triangle's long side.
    pub long_edge: Edge,
}

impl TileDef {
    /// Whether the tile shows `s`.
    pub fn has_symbol(&self, s: Symbol) -> bool {
        self.symbols.contains(&s)
    }

    /// Pennants on the whole tile.
    pub fn pennants(&self) -> u32 {
        self.segments.iter().map(|s| s.pennants as u32).sum()
    }

    /// Whether the tile has a monastery (or is an abbey).
    pub fn has_monastery(&self) -> bool {
        self.segments.iter().any(|s| s.kind == SegmentKind::Monastery)
    }

    /// The edge letters N E S W (`C`, `R`, `F`, `*`), for display.
    pub fn edge_letters(&self) -> String {
        match self.shape {
            // A triangle's legs N and E, then its long side.
            Shape::Triangle => [self.edges[0], self.edges[1], self.long_edge].iter().map(|e| e.letter()).collect(),
            _ => self.edges.iter().map(|e| e.letter()).collect(),
        }
    }
}

/// One tile entry as written in a set file or a record (docs/tile-format.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileEntry {
    /// Id, unique within the set.
    pub id: String,
    /// Copies (default 1).
    #[serde(default = "one")]
    pub count: u16,
    /// Copies showing a garden.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gardens: u16,
    /// Optional description.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `square` (default), `triangle` or `abbey`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// Optional check of the N E S W edge centres (`C`, `R`, `F`, `*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edges: Option<String>,
    /// Symbols.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<String>,
    /// Segment lines.
    pub segments: Vec<String>,
}

fn one() -> u16 {
    1
}
fn is_zero(v: &u16) -> bool {
    *v == 0
}

/// A set file as written on disk.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetFile {
    set: String,
    name: String,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    notice: Option<String>,
    #[serde(default)]
    tile: Vec<TileEntry>,
}

/// A validated tile set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSet {
    /// Short id (`base`, `pd`, `cc`, `am`, …), the prefix of its tile ids.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The full id of the kind one of whose copies is the start tile.
    pub start: Option<String>,
    /// A notice shown wherever the set is listed (the Halflings set says it is provisional).
    pub notice: Option<String>,
    /// The tile kinds.
    pub tiles: Vec<TileDef>,
}

impl TileSet {
    /// Parse and validate a set file (docs/tile-format.md). `origin` names the file in error messages.
    ///
    /// # Errors
    /// A [`CatalogueError`] naming the tile and the problem.
    pub fn from_toml(text: &str, origin: &str) -> Result<TileSet, CatalogueError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let file: SetFile = toml::from_str(text)
            .map_err(|e| CatalogueError::Syntax { origin: origin.to_string(), message: e.to_string() })?;
        let mut set = TileSet::from_entries(&file.set, &file.name, file.start.as_deref(), &file.tile, origin)?;
        set.notice = file.notice;
        Ok(set)
    }

    /// Validate a list of entries as a set.
    ///
    /// # Errors
    /// A [`CatalogueError`] naming the tile and the problem.
    pub fn from_entries(
        set: &str,
        name: &str,
        start: Option<&str>,
        entries: &[TileEntry],
        origin: &str,
    ) -> Result<TileSet, CatalogueError> {
        if set.is_empty() || !set.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(CatalogueError::Set {
                origin: origin.into(),
                message: format!("set id `{set}` must be non-empty letters, digits, `-` or `_`"),
            });
        }
        let mut tiles = Vec::with_capacity(entries.len());
        let mut ids = std::collections::HashSet::with_capacity(entries.len());
        for e in entries {
            let def = parse::tile(set, e).map_err(|message| CatalogueError::Tile {
                origin: origin.into(),
                tile: format!("{set}/{}", e.id),
                message,
            })?;
            if !ids.insert(def.id.clone()) {
                return Err(CatalogueError::Tile {
                    origin: origin.into(),
                    tile: def.id,
                    message: "the id is used twice in this set".into(),
                });
            }
            tiles.push(def);
        }
        let start = match start {
            None => None,
            Some(s) => {
                let full = format!("{set}/{s}");
                if !tiles.iter().any(|t| t.id == full && t.shape == Shape::Square) {
                    return Err(CatalogueError::Set {
                        origin: origin.into(),
                        message: format!("start tile `{s}` is not a square tile of this set"),
                    });
                }
                Some(full)
            }
        };
        Ok(TileSet { id: set.into(), name: name.into(), start, notice: None, tiles })
    }

    /// Number of tiles (copies) in the set.
    pub fn tile_count(&self) -> u32 {
        self.tiles.iter().map(|t| t.count as u32).sum()
    }
}

/// The tile entries of a set file, checked as a set first: what a record's `custom_tiles` takes, so a user's own
/// tiles (an exact Halflings set, say) can go into a game and its record.
///
/// # Errors
/// A [`CatalogueError`] naming the file, the tile and the problem.
pub fn tile_entries_from_toml(text: &str, origin: &str) -> Result<Vec<TileEntry>, CatalogueError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file: SetFile = toml::from_str(text)
        .map_err(|e| CatalogueError::Syntax { origin: origin.to_string(), message: e.to_string() })?;
    TileSet::from_entries(&file.set, &file.name, file.start.as_deref(), &file.tile, origin)?;
    Ok(file.tile)
}

/// The embedded sets: `(id, file name, text)`.
const BUILTIN: [(&str, &str, &str); 5] = [
    ("base", "base.toml", include_str!("../../tiles/base.toml")),
    ("pd", "pd.toml", include_str!("../../tiles/pd.toml")),
    ("cc", "cc.toml", include_str!("../../tiles/cc.toml")),
    ("am", "am.toml", include_str!("../../tiles/am.toml")),
    ("half", "half.toml", include_str!("../../tiles/half.toml")),
];

/// Long names accepted for the built-in sets.
const ALIASES: [(&str, &str); 10] = [
    ("halflings", "half"),
    ("halb-so-wild", "half"),
    ("princess-dragon", "pd"),
    ("princess-and-dragon", "pd"),
    ("crop-circles", "cc"),
    ("crop", "cc"),
    ("abbey-mayor", "am"),
    ("abbey-and-mayor", "am"),
    ("basic", "base"),
    ("base-game", "base"),
];

/// The ids of the built-in sets.
pub fn builtin_set_ids() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|b| b.0)
}

/// Resolve a set name or alias to a built-in set id.
pub fn canonical_set_id(name: &str) -> Option<&'static str> {
    let n = name.trim().to_ascii_lowercase();
    BUILTIN.iter().map(|b| b.0).find(|id| *id == n).or_else(|| ALIASES.iter().find(|a| a.0 == n).map(|a| a.1))
}

/// Load a built-in set by id or alias (`base`, `pd`/`princess-dragon`, `cc`/`crop-circles`, `am`/`abbey-mayor`).
///
/// # Errors
/// [`CatalogueError::UnknownSet`] for an unknown name; a data error would be a bug caught by the tests.
pub fn builtin_set(name: &str) -> Result<TileSet, CatalogueError> {
    let id = canonical_set_id(name).ok_or_else(|| CatalogueError::UnknownSet(name.to_string()))?;
    let (_, file, text) = BUILTIN.iter().find(|b| b.0 == id).expect("id comes from the table");
    TileSet::from_toml(text, file)
}

/// A tile kind's number in a game's catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TileKind(pub u16);

/// A tile kind turned by a rotation, with everything the board needs already in world orientation.
#[derive(Clone, Debug)]
pub(crate) struct Oriented {
    /// Edge on each world side (triangles: only on their legs; [`Edge::NONE`] elsewhere).
    pub edges: [Edge; 4],
    /// The four edges packed one per byte, N in the low byte (squares only).
    pub signature: u32,
    /// The long side's edge (triangles).
    pub long_edge: Edge,
    /// World position → segment index on the tile, `NO_SEGMENT` where none.
    pub pos_segment: [u8; Pos::COUNT],
    /// Each segment's world positions.
    pub seg_positions: Vec<u16>,
    /// Smallest rotation giving the same layout.
    pub canonical: Rotation,
    /// Number of segments.
    pub n_segments: u8,
    /// Each segment's kind (a compact copy of the definition, for the hot path).
    pub seg_kind: [SegmentKind; MAX_SEGMENTS],
    /// Each segment's pennants.
    pub seg_pennants: [u8; MAX_SEGMENTS],
    /// Whether this is an abbey.
    pub abbey: bool,
}

/// Most segments a tile may have.
pub const MAX_SEGMENTS: usize = 16;

/// No segment at this position.
pub(crate) const NO_SEGMENT: u8 = 0xFF;

/// The tile kinds of one game, numbered, with their rotations precomputed.
#[derive(Clone, Debug)]
pub struct Catalogue {
    defs: Vec<TileDef>,
    oriented: Vec<Oriented>,
    by_id: HashMap<String, TileKind>,
}

impl Catalogue {
    /// Most tile kinds one game's catalogue can hold (every set and custom tile together).
    pub const MAX_KINDS: usize = u16::MAX as usize + 1;

    /// Number the tiles of these sets (in order) and precompute their rotations.
    ///
    /// # Errors
    /// A tile id present in two sets, or more kinds than a [`TileKind`] can number ([`Catalogue::MAX_KINDS`]).
    pub fn new(sets: &[TileSet]) -> Result<Catalogue, CatalogueError> {
        let kinds: usize = sets.iter().map(|s| s.tiles.len()).sum();
        if kinds > Catalogue::MAX_KINDS {
            let biggest = sets.iter().max_by_key(|s| s.tiles.len()).map_or("", |s| s.id.as_str());
            return Err(CatalogueError::Set {
                origin: biggest.to_string(),
                message: format!(
                    "a game can hold at most {} tile kinds; these sets have {kinds}",
                    Catalogue::MAX_KINDS
                ),
            });
        }
        let mut defs = Vec::new();
        let mut by_id = HashMap::new();
        for set in sets {
            for t in &set.tiles {
                if by_id.insert(t.id.clone(), TileKind(defs.len() as u16)).is_some() {
                    return Err(CatalogueError::Set {
                        origin: set.id.clone(),
                        message: format!("tile id `{}` appears in two sets", t.id),
                    });
                }
                defs.push(t.clone());
            }
        }
        let mut oriented = Vec::with_capacity(defs.len() * 4);
        for d in &defs {
            let rots: Vec<Oriented> = Rotation::ALL.iter().map(|&r| orient(d, r)).collect();
            for (i, mut o) in rots.clone().into_iter().enumerate() {
                o.canonical = Rotation::from_index((0..=i).find(|&j| same_layout(d, &rots[j], &rots[i])).unwrap_or(i));
                oriented.push(o);
            }
        }
        Ok(Catalogue { defs, oriented, by_id })
    }

    /// The definition of a kind.
    ///
    /// # Panics
    /// If the kind is not from this catalogue.
    #[inline]
    pub fn def(&self, k: TileKind) -> &TileDef {
        &self.defs[k.0 as usize]
    }

    /// All kinds, in catalogue order.
    pub fn kinds(&self) -> impl Iterator<Item = TileKind> + '_ {
        (0..self.defs.len()).map(|k| TileKind(k as u16))
    }

    /// Number of kinds.
    pub fn len(&self) -> usize {
        self.defs.len()
    }

    /// Whether there are no kinds.
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }

    /// Look a kind up by its full id (`base/D`).
    pub fn by_id(&self, id: &str) -> Option<TileKind> {
        self.by_id.get(id).copied()
    }

    #[inline]
    pub(crate) fn oriented(&self, k: TileKind, r: Rotation) -> &Oriented {
        &self.oriented[k.0 as usize * 4 + r as usize]
    }

    /// The smallest rotation of `k` that looks exactly like rotation `r` (symmetric tiles have fewer than four
    /// distinct orientations; legal actions list each orientation once).
    pub fn canonical_rotation(&self, k: TileKind, r: Rotation) -> Rotation {
        self.oriented(k, r).canonical
    }

    /// The world positions of segment `seg` of kind `k` turned by `r`.
    pub fn segment_positions(&self, k: TileKind, r: Rotation, seg: u8) -> u16 {
        self.oriented(k, r).seg_positions[seg as usize]
    }

    /// The notation name of a segment of a placed tile: its kind and a position it touches in world orientation
    /// (`road@E`, `field@Nw`, `city@N`), or the kind alone when it touches no side (`monastery`, `field@inner`,
    /// numbered `#2`… when a tile has several such segments of one kind).
    pub fn segment_name(&self, k: TileKind, r: Rotation, seg: u8) -> String {
        let def = self.def(k);
        let s = &def.segments[seg as usize];
        let mask = self.segment_positions(k, r, seg);
        if mask != 0 {
            // Prefer a centre for roads and cities, a half for fields; always the first clockwise from north.
            let want_centre = s.kind != SegmentKind::Field;
            let pick = (0..Pos::COUNT as u8)
                .map(Pos)
                .filter(|p| mask & p.bit() != 0)
                .find(|p| p.is_centre() == want_centre)
                .or_else(|| (0..Pos::COUNT as u8).map(Pos).find(|p| mask & p.bit() != 0))
                .expect("mask is not empty");
            return format!("{}@{}", s.kind.name(), pick.name());
        }
        let same: Vec<usize> = def
            .segments
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == s.kind && o.positions == 0)
            .map(|(i, _)| i)
            .collect();
        let base = match s.kind {
            SegmentKind::Field => "field@inner".to_string(),
            k => k.name().to_string(),
        };
        if same.len() > 1 {
            let n = same.iter().position(|&i| i == seg as usize).unwrap_or(0) + 1;
            format!("{base}#{n}")
        } else {
            base
        }
    }

    /// Find a segment of a placed tile by its notation name (any position it touches may be used).
    pub fn find_segment(&self, k: TileKind, r: Rotation, name: &str) -> Option<u8> {
        let def = self.def(k);
        let (kind, rest) = match name.split_once('@') {
            Some((a, b)) => (a, Some(b)),
            None => (name, None),
        };
        let (kind, number) = match kind.split_once('#') {
            Some((a, n)) => (a, n.parse::<usize>().ok()),
            None => (kind, None),
        };
        let kind = SegmentKind::from_name(kind)?;
        let (rest, number) = match rest.map(|r| r.split_once('#')) {
            Some(Some((a, n))) => (Some(a), n.parse::<usize>().ok()),
            _ => (rest, number),
        };
        match rest {
            Some(p) if p != "inner" => {
                let pos = Pos::from_name(p)?;
                let seg = self.oriented(k, r).pos_segment[pos.0 as usize];
                (seg != NO_SEGMENT && def.segments[seg as usize].kind == kind).then_some(seg)
            }
            _ => {
                let cands: Vec<u8> = def
                    .segments
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.kind == kind && s.positions == 0)
                    .map(|(i, _)| i as u8)
                    .collect();
                match (cands.len(), number) {
                    (1, None | Some(1)) => Some(cands[0]),
                    (_, Some(n)) if n >= 1 => cands.get(n - 1).copied(),
                    _ => None,
                }
            }
        }
    }
}

fn orient(d: &TileDef, r: Rotation) -> Oriented {
    let mut edges = [Edge::NONE; 4];
    for s in Side::ALL {
        edges[s.rotate(r).index()] = d.edges[s.index()];
    }
    let mut pos_segment = [NO_SEGMENT; Pos::COUNT];
    let mut seg_positions = Vec::with_capacity(d.segments.len());
    for (i, seg) in d.segments.iter().enumerate() {
        let mut m = 0u16;
        for p in 0..Pos::COUNT as u8 {
            if seg.positions & (1 << p) != 0 {
                let q = Pos(p).rotate(r);
                m |= q.bit();
                pos_segment[q.0 as usize] = i as u8;
            }
        }
        seg_positions.push(m);
    }
    let signature = edges.iter().enumerate().fold(0u32, |acc, (i, e)| acc | (e.0 as u32) << (8 * i));
    let mut seg_kind = [SegmentKind::Crop; MAX_SEGMENTS];
    let mut seg_pennants = [0; MAX_SEGMENTS];
    for (i, seg) in d.segments.iter().enumerate() {
        seg_kind[i] = seg.kind;
        seg_pennants[i] = seg.pennants;
    }
    Oriented {
        edges,
        signature,
        long_edge: d.long_edge,
        pos_segment,
        seg_positions,
        canonical: r,
        n_segments: d.segments.len() as u8,
        seg_kind,
        seg_pennants,
        abbey: d.shape == Shape::Abbey,
    }
}

/// Whether two orientations of one kind are indistinguishable: same edges and the same segments at the same world
/// positions with the same properties.
fn same_layout(d: &TileDef, a: &Oriented, b: &Oriented) -> bool {
    if a.edges != b.edges {
        return false;
    }
    // Map each segment of `a` to the segment of `b` with the same world positions.
    let n = d.segments.len();
    let mut map = vec![u8::MAX; n];
    for (i, slot) in map.iter_mut().enumerate() {
        if a.seg_positions[i] == 0 {
            *slot = i as u8; // positionless segments map to themselves
            continue;
        }
        match (0..n).find(|&j| b.seg_positions[j] == a.seg_positions[i]) {
            Some(j) => *slot = j as u8,
            None => return false,
        }
    }
    (0..n).all(|i| {
        let (s, t) = (&d.segments[i], &d.segments[map[i] as usize]);
        let mut cs: Vec<u8> = s.cities.iter().map(|&c| map[c as usize]).collect();
        cs.sort_unstable();
        let mut ct = t.cities.clone();
        ct.sort_unstable();
        s.kind == t.kind
            && s.pennants == t.pennants
            && s.princess == t.princess
            && cs == ct
            && s.end.map(|e| matches!(e, RoadEnd::CityGate(_))) == t.end.map(|e| matches!(e, RoadEnd::CityGate(_)))
            && s.inside.map(|c| map[c as usize]) == t.inside
    })
}

impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The terrain code for a segment kind at an edge position.
pub(crate) fn terrain_of(kind: SegmentKind) -> Option<Terrain> {
    match kind {
        SegmentKind::Road => Some(Terrain::Road),
        SegmentKind::City => Some(Terrain::City),
        SegmentKind::Field => Some(Terrain::Field),
        _ => None,
    }
}

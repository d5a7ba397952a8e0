//! Geometry of the square grid: spaces, sides, rotations, triangle corners and the positions along a tile's sides.
//!
//! A space `(x, y)` holds nothing, one square tile, or one or two triangles (SPEC HALF-02). Every side of a tile has
//! three positions (first half, centre, second half, going clockwise round the tile); a triangle has two legs on two
//! sides of its space and a long side on the diagonal, which also has three positions.

use std::fmt;
use std::str::FromStr;

/// A cell of the square grid. `x` grows east, `y` grows north; the start tile lies on `(0, 0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Space {
    /// Column, growing east.
    pub x: i16,
    /// Row, growing north.
    pub y: i16,
}

impl Space {
    /// The space at `(x, y)`.
    pub const fn new(x: i16, y: i16) -> Space {
        Space { x, y }
    }

    /// The orthogonal neighbour across `side`.
    #[inline]
    pub const fn step(self, side: Side) -> Space {
        match side {
            Side::N => Space::new(self.x, self.y + 1),
            Side::E => Space::new(self.x + 1, self.y),
            Side::S => Space::new(self.x, self.y - 1),
            Side::W => Space::new(self.x - 1, self.y),
        }
    }

    /// The 8 spaces around this one (its neighbourhood), in a fixed order.
    pub fn neighbourhood(self) -> [Space; 8] {
        let Space { x, y } = self;
        [
            Space::new(x - 1, y + 1),
            Space::new(x, y + 1),
            Space::new(x + 1, y + 1),
            Space::new(x + 1, y),
            Space::new(x + 1, y - 1),
            Space::new(x, y - 1),
            Space::new(x - 1, y - 1),
            Space::new(x - 1, y),
        ]
    }

    /// This space after turning the whole board by `r` about the start space `(0, 0)`, clockwise as a tile turns
    /// (a quarter turn takes `(x, y)` to `(y, -x)`: what lay north lies east).
    #[inline]
    pub const fn rotate(self, r: Rotation) -> Space {
        let Space { x, y } = self;
        match r {
            Rotation::R0 => Space::new(x, y),
            Rotation::R90 => Space::new(y, -x),
            Rotation::R180 => Space::new(-x, -y),
            Rotation::R270 => Space::new(-y, x),
        }
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl FromStr for Space {
    type Err = String;
    fn from_str(s: &str) -> Result<Space, String> {
        let t = s.trim().trim_start_matches('(').trim_end_matches(')');
        let (a, b) =
            t.split_once(',').ok_or_else(|| format!("`{s}` is not a space; write it as x,y (for example 1,-2)"))?;
        let p = |v: &str| {
            v.trim().parse::<i16>().map_err(|_| format!("`{s}` is not a space: `{}` is not a whole number", v.trim()))
        };
        Ok(Space::new(p(a)?, p(b)?))
    }
}

/// One of the four sides of a space or of a square tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Side {
    /// North.
    N = 0,
    /// East.
    E = 1,
    /// South.
    S = 2,
    /// West.
    W = 3,
}

impl Side {
    /// All sides, clockwise from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side with index `i & 3`.
    #[inline]
    pub const fn from_index(i: usize) -> Side {
        Side::ALL[i & 3]
    }

    /// Index 0..4, clockwise from north.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side facing this one across the boundary.
    #[inline]
    pub const fn opposite(self) -> Side {
        Side::from_index(self as usize + 2)
    }

    /// This side after turning the tile by `r`.
    #[inline]
    pub const fn rotate(self, r: Rotation) -> Side {
        Side::from_index(self as usize + r as usize)
    }

    /// The letter used in notation.
    pub const fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self as usize]
    }
}

/// A clockwise quarter-turn count (SPEC BASE-03: tiles turn, never mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Rotation {
    /// As printed.
    #[default]
    R0 = 0,
    /// A quarter turn clockwise.
    R90 = 1,
    /// A half turn.
    R180 = 2,
    /// Three quarter turns clockwise.
    R270 = 3,
}

impl Rotation {
    /// All four rotations.
    pub const ALL: [Rotation; 4] = [Rotation::R0, Rotation::R90, Rotation::R180, Rotation::R270];

    /// The rotation with index `i & 3`.
    pub const fn from_index(i: usize) -> Rotation {
        Rotation::ALL[i & 3]
    }

    /// Degrees clockwise.
    pub const fn degrees(self) -> u16 {
        self as u16 * 90
    }

    /// This rotation followed by `r`.
    #[inline]
    pub const fn then(self, r: Rotation) -> Rotation {
        Rotation::from_index(self as usize + r as usize)
    }

    /// The rotation that undoes this one.
    pub const fn inverse(self) -> Rotation {
        Rotation::from_index(4 - self as usize)
    }

    /// The rotation of `degrees` clockwise (0, 90, 180 or 270), if it is one.
    pub const fn from_degrees(degrees: u16) -> Option<Rotation> {
        match degrees {
            0 => Some(Rotation::R0),
            90 => Some(Rotation::R90),
            180 => Some(Rotation::R180),
            270 => Some(Rotation::R270),
            _ => None,
        }
    }
}

/// A rotation is written as its degrees clockwise (`0`, `90`, `180`, `270`) in setups and records.
impl serde::Serialize for Rotation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u16(self.degrees())
    }
}

impl<'de> serde::Deserialize<'de> for Rotation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rotation, D::Error> {
        let degrees = <u16 as serde::Deserialize>::deserialize(d)?;
        Rotation::from_degrees(degrees).ok_or_else(|| {
            serde::de::Error::custom(format!("{degrees} is not a rotation: use 0, 90, 180 or 270 (degrees clockwise)"))
        })
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.degrees())
    }
}

impl FromStr for Rotation {
    type Err = String;
    fn from_str(s: &str) -> Result<Rotation, String> {
        match s.trim().trim_start_matches(['r', 'R']) {
            "0" => Ok(Rotation::R0),
            "90" => Ok(Rotation::R90),
            "180" => Ok(Rotation::R180),
            "270" => Ok(Rotation::R270),
            _ => Err(format!("`{s}` is not a rotation; use r0, r90, r180 or r270 (clockwise)")),
        }
    }
}

/// The right-angle corner of a triangle, which names it (SPEC HALF-02). A `NE` triangle has its legs on the N and E
/// sides of its space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Corner {
    /// North-east.
    NE = 0,
    /// South-east.
    SE = 1,
    /// South-west.
    SW = 2,
    /// North-west.
    NW = 3,
}

impl Corner {
    /// All corners, clockwise from north-east.
    pub const ALL: [Corner; 4] = [Corner::NE, Corner::SE, Corner::SW, Corner::NW];

    /// The corner with index `i & 3`.
    pub const fn from_index(i: usize) -> Corner {
        Corner::ALL[i & 3]
    }

    /// The two legs: the sides of the space the triangle's short sides lie on, clockwise.
    pub const fn legs(self) -> [Side; 2] {
        [Side::from_index(self as usize), Side::from_index(self as usize + 1)]
    }

    /// The triangle that completes the space with this one.
    pub const fn complement(self) -> Corner {
        Corner::from_index(self as usize + 2)
    }

    /// The corner a `NE` triangle reaches when turned by `r`.
    pub const fn from_rotation(r: Rotation) -> Corner {
        Corner::from_index(r as usize)
    }

    /// The rotation that turns a `NE` triangle into this one.
    pub const fn rotation(self) -> Rotation {
        Rotation::from_index(self as usize)
    }

    /// This corner after turning by `r` (a quarter turn takes `NE` to `SE`).
    #[inline]
    pub const fn rotate(self, r: Rotation) -> Corner {
        Corner::from_index(self as usize + r as usize)
    }

    /// Notation name.
    pub const fn name(self) -> &'static str {
        ["NE", "SE", "SW", "NW"][self as usize]
    }
}

impl fmt::Display for Corner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Corner {
    type Err = String;
    fn from_str(s: &str) -> Result<Corner, String> {
        Corner::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("`{s}` is not a triangle corner; use NE, SE, SW or NW"))
    }
}

/// A position along a tile's boundary: three per side of the space (`0..12`, clockwise from the north-west corner:
/// `Nw N Ne En E Es Se S Sw Ws W Wn`) and three on a triangle's long side (`12..15`: `La L Lb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(pub u8);

impl Pos {
    /// Number of positions (12 round the square plus 3 on the long side).
    pub const COUNT: usize = 15;
    const NAMES: [&'static str; 15] =
        ["Nw", "N", "Ne", "En", "E", "Es", "Se", "S", "Sw", "Ws", "W", "Wn", "La", "L", "Lb"];

    /// Position `k` (0 first half, 1 centre, 2 second half) of a side of the space.
    #[inline]
    pub const fn on_side(side: Side, k: usize) -> Pos {
        Pos((side as usize * 3 + k) as u8)
    }

    /// Position `k` of a triangle's long side.
    pub const fn on_long(k: usize) -> Pos {
        Pos(12 + k as u8)
    }

    /// The side of the space this position lies on, or `None` for the long side.
    pub const fn side(self) -> Option<Side> {
        if self.0 < 12 { Some(Side::from_index(self.0 as usize / 3)) } else { None }
    }

    /// 0 first half, 1 centre, 2 second half.
    pub const fn k(self) -> usize {
        self.0 as usize % 3
    }

    /// Whether this is a centre position.
    pub const fn is_centre(self) -> bool {
        self.0 % 3 == 1
    }

    /// The position after turning the tile by `r`: positions on the sides move with them, the long side stays the
    /// long side.
    #[inline]
    pub const fn rotate(self, r: Rotation) -> Pos {
        if self.0 < 12 { Pos((self.0 + 3 * r as u8) % 12) } else { self }
    }

    /// Notation name (`Nw`, `N`, …, `Lb`).
    pub const fn name(self) -> &'static str {
        Pos::NAMES[self.0 as usize]
    }

    /// Parse a notation name (case-sensitive, as in [`Pos::name`]).
    pub fn from_name(s: &str) -> Option<Pos> {
        Pos::NAMES.iter().position(|n| *n == s).map(|i| Pos(i as u8))
    }

    /// Bit for this position in a 16-bit position set.
    pub const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What lies at one position of an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Terrain {
    /// Field (grass).
    Field = 1,
    /// Road.
    Road = 2,
    /// City.
    City = 3,
}

/// One edge's three positions packed in 6 bits (2 bits each, first half in the low bits); `0` means "no edge" and
/// [`Edge::ANY`] an abbey's edge, which matches everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Edge(pub u8);

impl Edge {
    /// No edge here.
    pub const NONE: Edge = Edge(0);
    /// An abbey edge: matches any edge and closes what faces it (SPEC ABBEY-03).
    pub const ANY: Edge = Edge(0xC0);

    /// An edge from its three positions.
    pub const fn new(a: Terrain, b: Terrain, c: Terrain) -> Edge {
        Edge(a as u8 | (b as u8) << 2 | (c as u8) << 4)
    }

    /// The same edge seen from the other side of the boundary (first and second halves swap).
    #[inline]
    pub const fn reversed(self) -> Edge {
        if self.0 & 0xC0 != 0 {
            return self;
        }
        Edge((self.0 & 0x0C) | (self.0 & 3) << 4 | (self.0 >> 4) & 3)
    }

    /// Whether an edge placed against `other` (both read clockwise round their own tiles) matches it in all three
    /// positions. Abbey edges match everything.
    #[inline]
    pub const fn matches(self, other: Edge) -> bool {
        self.0 & 0xC0 != 0 || other.0 & 0xC0 != 0 || self.0 == other.reversed().0
    }

    /// The terrain at the centre, if this is a real edge.
    pub const fn centre(self) -> Option<Terrain> {
        match (self.0 >> 2) & 3 {
            1 => Some(Terrain::Field),
            2 => Some(Terrain::Road),
            3 => Some(Terrain::City),
            _ => None,
        }
    }

    /// A one-letter summary (`C`, `R`, `F`, `*` for an abbey edge, `.` for none).
    pub const fn letter(self) -> char {
        if self.0 & 0xC0 != 0 {
            return '*';
        }
        match self.centre() {
            Some(Terrain::City) => 'C',
            Some(Terrain::Road) => 'R',
            Some(Terrain::Field) => 'F',
            None => '.',
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_rotate_and_oppose() {
        assert_eq!(Side::N.rotate(Rotation::R90), Side::E);
        assert_eq!(Side::W.rotate(Rotation::R90), Side::N);
        assert_eq!(Side::E.opposite(), Side::W);
        assert_eq!(Space::new(0, 0).step(Side::N), Space::new(0, 1));
        assert_eq!(Space::new(0, 0).step(Side::W), Space::new(-1, 0));
    }

    #[test]
    fn positions_rotate_with_their_side() {
        let nw = Pos::from_name("Nw").unwrap();
        assert_eq!(nw.rotate(Rotation::R90).name(), "En");
        assert_eq!(nw.rotate(Rotation::R270).name(), "Ws");
        assert_eq!(Pos::from_name("La").unwrap().rotate(Rotation::R90).name(), "La");
        assert_eq!(Pos::on_side(Side::S, 1).name(), "S");
    }

    #[test]
    fn the_board_turns_as_a_tile_does() {
        for r in Rotation::ALL {
            for side in Side::ALL {
                // The neighbour across a side lies, after the turn, across the turned side.
                let s = Space::new(3, -2);
                assert_eq!(s.step(side).rotate(r), s.rotate(r).step(side.rotate(r)));
            }
            assert_eq!(r.then(r.inverse()), Rotation::R0);
            assert_eq!(Rotation::from_degrees(r.degrees()), Some(r));
            for c in Corner::ALL {
                assert_eq!(c.rotate(r).legs(), c.legs().map(|l| l.rotate(r)));
            }
        }
        assert_eq!(Space::new(0, 1).rotate(Rotation::R90), Space::new(1, 0));
        assert_eq!(Space::new(2, 5).rotate(Rotation::R90).rotate(Rotation::R270), Space::new(2, 5));
        assert_eq!(Rotation::from_degrees(45), None);
        assert_eq!(serde_json::to_string(&Rotation::R270).unwrap(), "270");
        assert!(serde_json::from_str::<Rotation>("45").unwrap_err().to_string().contains("not a rotation"));
    }

    #[test]
    fn triangle_corners() {
        assert_eq!(Corner::NE.legs(), [Side::N, Side::E]);
        assert_eq!(Corner::NW.legs(), [Side::W, Side::N]);
        assert_eq!(Corner::NE.complement(), Corner::SW);
        assert_eq!(Corner::from_rotation(Rotation::R180), Corner::SW);
    }

    #[test]
    fn edges_match_mirrored() {
        use Terrain::*;
        let road = Edge::new(Field, Road, Field);
        let city = Edge::new(City, City, City);
        assert!(road.matches(road));
        assert!(!road.matches(city));
        // An asymmetric edge matches its mirror image only.
        let odd = Edge::new(City, Road, Field);
        assert!(odd.matches(Edge::new(Field, Road, City)));
        assert!(!odd.matches(odd));
        assert!(Edge::ANY.matches(city));
        assert_eq!(road.letter(), 'R');
    }

    #[test]
    fn spaces_parse() {
        assert_eq!("1,-2".parse::<Space>().unwrap(), Space::new(1, -2));
        assert_eq!("(3, 4)".parse::<Space>().unwrap(), Space::new(3, 4));
        assert!("3".parse::<Space>().is_err());
        assert_eq!("r270".parse::<Rotation>().unwrap(), Rotation::R270);
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        fn terrain() -> impl Strategy<Value = Terrain> {
            prop_oneof![Just(Terrain::Field), Just(Terrain::Road), Just(Terrain::City)]
        }

        proptest! {
            #[test]
            fn matching_is_symmetric_and_reversal_an_involution(a in terrain(), b in terrain(), c in terrain(),
                                                                 d in terrain(), e in terrain(), f in terrain()) {
                let x = Edge::new(a, b, c);
                let y = Edge::new(d, e, f);
                prop_assert_eq!(x.reversed().reversed(), x);
                prop_assert_eq!(x.matches(y), y.matches(x));
                prop_assert!(x.matches(x.reversed()));
            }

            #[test]
            fn four_quarter_turns_are_the_identity(p in 0u8..15, r in 0usize..4) {
                let pos = Pos(p);
                let r = Rotation::from_index(r);
                let mut q = pos;
                for _ in 0..4 {
                    q = q.rotate(r);
                }
                prop_assert_eq!(q, pos);
                prop_assert_eq!(pos.rotate(r).side().map(|s| s.index()), pos.side().map(|s| s.rotate(r).index()));
            }

            #[test]
            fn spaces_round_trip_through_text(x in -300i16..300, y in -300i16..300) {
                let s = Space::new(x, y);
                prop_assert_eq!(s.to_string().parse::<Space>(), Ok(s));
                prop_assert_eq!(s.step(Side::N).step(Side::S), s);
            }
        }
    }
}

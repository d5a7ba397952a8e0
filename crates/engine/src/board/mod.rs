//! The board: placed tiles on the grid, the frontier of spaces a square tile can go to, and the feature graph.
//!
//! Every segment of every placed tile is a node; nodes joined across matching edges form a **feature** (union-find
//! with a circular member list, so joining is near-constant time and a feature's members can be walked when it is
//! scored). Each feature's root keeps what scoring needs: open ends, pennants and the number of meeples on it.
//! "How many tiles" and "how many spaces" a feature covers are different questions once triangles exist (SPEC
//! BASE-09, HALF-11); [`Board::feature`] answers both.

mod grid;

use crate::catalogue::{Catalogue, NO_SEGMENT, SegmentKind, Shape, TileKind};
use crate::geom::{Corner, Edge, Pos, Rotation, Side, Space};
use grid::{EMPTY, Grid};

/// A segment of a placed tile, numbered across the whole board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SegmentId(pub u16);

/// How a tile sits in its space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// A square tile (or abbey) turned by a rotation.
    Square(Rotation),
    /// A triangle with its right angle at this corner (the `NE` form turned to reach it).
    Triangle(Corner),
}

impl Placement {
    /// The rotation applied to the tile's canonical form.
    pub const fn rotation(self) -> Rotation {
        match self {
            Placement::Square(r) => r,
            Placement::Triangle(c) => c.rotation(),
        }
    }
}

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    /// Its kind.
    pub kind: TileKind,
    /// Its space.
    pub space: Space,
    /// How it sits there.
    pub placement: Placement,
    /// Its first segment's id; segment `i` of the tile is `SegmentId(first_segment + i)`.
    pub first_segment: u16,
}

/// Why a tile cannot go where asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// The space (or that half of it) is taken.
    #[error("the space is already taken")]
    Occupied,
    /// No side faces a placed tile.
    #[error("the tile would touch no placed tile")]
    NotAdjacent,
    /// An edge does not match the tile it faces.
    #[error("the {0:?} side does not match the tile it faces")]
    Mismatch(Side),
    /// The long side does not match the complementary triangle.
    #[error("the long side does not match the triangle it faces")]
    LongSideMismatch,
    /// A square tile or abbey into a half-filled space, or a triangle shape mix-up.
    #[error("that shape of tile cannot go there")]
    WrongShape,
    /// Too many tiles for the board's tile numbering (255).
    #[error("the board is full")]
    Full,
}

/// The feature-graph node of one segment. Only a root's `open`, `meeples`, `pennants` and `complete` are meaningful.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    parent: u16,
    next: u16,
    tile: u8,
    local: u8,
    /// The segment's kind (`SegmentKind as u8`), with [`Node::COMPLETE`] added once the feature is complete: one
    /// byte, so that a node takes 12 bytes.
    kind_complete: u8,
    pennants: u8,
    meeples: u8,
    barns: u8,
    open: u16,
}

impl Node {
    const COMPLETE: u8 = 0x80;

    #[inline]
    fn kind(&self) -> SegmentKind {
        SegmentKind::ALL[(self.kind_complete & !Node::COMPLETE) as usize]
    }

    #[inline]
    fn complete(&self) -> bool {
        self.kind_complete & Node::COMPLETE != 0
    }

    #[inline]
    fn set_complete(&mut self) {
        self.kind_complete |= Node::COMPLETE;
    }
}

/// An empty space with at least one placed edge facing it, and what those edges demand of a square tile there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FrontierSpace {
    space: Space,
    /// For each side (one byte each, N low): the edge a tile must show there, or 0 where any will do (no edge faces
    /// that side, or an abbey's, which matches everything). A real edge is never 0 (its positions' terrains are not),
    /// so the bytes that count follow from `want` itself ([`FrontierSpace::mask`]) and a frontier space takes 12
    /// bytes.
    want: u32,
    /// Which sides face a placed edge (an abbey's included), one bit per side: all four make a hole.
    sides: u8,
}

impl FrontierSpace {
    /// `0xFF` in each byte of `want` that holds an edge, `0` in the others.
    #[inline]
    fn mask(&self) -> u32 {
        // An edge takes 6 bits: adding 0x3F to each byte sets its bit 6 exactly when it is not 0, with no carry into
        // the next byte.
        ((((self.want & 0x3F3F_3F3F) + 0x3F3F_3F3F) & 0x4040_4040) >> 6) * 0xFF
    }
}

/// The edges of some square tile kinds in each of their orientations: what [`Board::square_fits`] and
/// [`Board::kinds_fitting`] compare with a space's neighbours. Built once for a set of kinds and asked about many
/// spaces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SquareEdges {
    /// Every orientation's packed edges, without repeats.
    all: Vec<u32>,
    /// Each kind's distinct orientations' packed edges (the first `n`).
    kinds: Vec<(TileKind, [u32; 4], u8)>,
}

impl SquareEdges {
    /// No kinds: nothing fits.
    pub fn new() -> SquareEdges {
        SquareEdges::default()
    }

    /// Replace the kinds with these (square kinds; other shapes are left out).
    pub fn set(&mut self, cat: &Catalogue, kinds: impl IntoIterator<Item = TileKind>) {
        self.all.clear();
        self.kinds.clear();
        for k in kinds {
            if cat.def(k).shape != Shape::Square {
                continue;
            }
            let (_, sigs, n) = distinct_orientations(cat, k);
            self.all.extend_from_slice(&sigs[..n]);
            self.kinds.push((k, sigs, n as u8));
        }
        self.all.sort_unstable();
        self.all.dedup();
    }

    /// How many kinds there are.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }
}

/// A summary of one feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureInfo {
    /// Its root segment (stable until the feature is joined to another).
    pub root: SegmentId,
    /// Road, city, monastery, field or crop area.
    pub kind: SegmentKind,
    /// Closed (roads, cities: no open end; monasteries: all 8 neighbours filled). Fields never are.
    pub complete: bool,
    /// Open ends (roads and cities).
    pub open: u16,
    /// Distinct tiles with a segment in it (SPEC BASE-09).
    pub tiles: u16,
    /// Distinct spaces with a segment in it (SPEC HALF-11).
    pub spaces: u16,
    /// Pennants, counted one by one.
    pub pennants: u8,
    /// Meeples standing on it.
    pub meeples: u8,
}

/// The board.
#[derive(Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    tiles: Vec<PlacedTile>,
    nodes: Vec<Node>,
    frontier: Vec<FrontierSpace>,
    /// Monasteries not yet complete: their space and segment.
    open_monasteries: Vec<(Space, u16)>,
    /// Whether any triangle has been placed (spaces and tiles then count differently).
    has_triangles: bool,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let mut b = Board {
            grid: self.grid.clone(),
            tiles: Vec::new(),
            nodes: Vec::new(),
            frontier: Vec::new(),
            open_monasteries: Vec::new(),
            has_triangles: false,
        };
        b.clone_from(self);
        b
    }

    /// Into the memory already held. Every field is named (no `..`), so a new one cannot be forgotten here.
    fn clone_from(&mut self, o: &Board) {
        let Board { grid, tiles, nodes, frontier, open_monasteries, has_triangles } = self;
        grid.clone_from(&o.grid);
        tiles.clone_from(&o.tiles);
        nodes.clone_from(&o.nodes);
        frontier.clone_from(&o.frontier);
        open_monasteries.clone_from(&o.open_monasteries);
        *has_triangles = o.has_triangles;
    }
}

impl Board {
    /// An empty board.
    pub fn new() -> Board {
        Board {
            grid: Grid::new(),
            tiles: Vec::with_capacity(80),
            nodes: Vec::with_capacity(320),
            frontier: Vec::with_capacity(64),
            open_monasteries: Vec::new(),
            has_triangles: false,
        }
    }

    /// Empty the board, keeping its memory.
    pub fn clear(&mut self) {
        self.grid.clear();
        self.tiles.clear();
        self.nodes.clear();
        self.frontier.clear();
        self.open_monasteries.clear();
        self.has_triangles = false;
    }

    /// The placed tiles, in placement order.
    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    /// The tile with this number (placement order).
    pub fn tile(&self, i: usize) -> &PlacedTile {
        &self.tiles[i]
    }

    /// The tiles in a space (none, one square, or one or two triangles), in placement order.
    pub fn tiles_in(&self, s: Space) -> impl Iterator<Item = &PlacedTile> + '_ {
        let c = self.grid.get(s).by_side;
        let mut seen = [EMPTY; 4];
        let mut n = 0;
        for t in c {
            if t != EMPTY && !seen[..n].contains(&t) {
                seen[n] = t;
                n += 1;
            }
        }
        seen[..n].sort_unstable();
        (0..n).map(move |i| &self.tiles[seen[i] as usize])
    }

    /// Whether the space holds at least one tile.
    pub fn is_filled(&self, s: Space) -> bool {
        self.grid.get(s).is_filled()
    }

    /// Whether the space holds a square tile, or two triangles.
    pub fn is_full(&self, s: Space) -> bool {
        !self.grid.get(s).by_side.contains(&EMPTY)
    }

    /// Whether the space is on the frontier: empty, and facing at least one placed edge.
    pub fn on_frontier(&self, s: Space) -> bool {
        self.grid.get(s).frontier != 0
    }

    /// The empty spaces that face at least one placed edge, in a deterministic order.
    pub fn frontier(&self) -> impl Iterator<Item = Space> + '_ {
        self.frontier.iter().map(|f| f.space)
    }

    /// How many spaces [`Board::frontier`] lists.
    pub fn frontier_len(&self) -> usize {
        self.frontier.len()
    }

    /// The `i`-th space [`Board::frontier`] lists (`i < frontier_len()`), for sampling without listing.
    pub fn frontier_space(&self, i: usize) -> Space {
        self.frontier[i].space
    }

    /// The edge shown towards side `side` of space `s` by the tile on the far side of that boundary.
    fn facing_edge(&self, cat: &Catalogue, s: Space, side: Side) -> Option<Edge> {
        let q = s.step(side);
        let t = self.grid.tile_at_side(q, side.opposite());
        (t != EMPTY).then(|| {
            let pt = &self.tiles[t as usize];
            cat.oriented(pt.kind, pt.placement.rotation()).edges[side.opposite().index()]
        })
    }

    /// Call `f` with every rotation (one per distinct orientation) and space where a square tile of kind `k` can go
    /// (SPEC BASE-04). Stops early if `f` returns `true`. Returns whether it stopped early.
    #[inline]
    pub fn for_each_square_placement(
        &self,
        cat: &Catalogue,
        k: TileKind,
        mut f: impl FnMut(Space, Rotation) -> bool,
    ) -> bool {
        let (rots, sigs, n) = distinct_orientations(cat, k);
        for fs in &self.frontier {
            let mask = fs.mask();
            for i in 0..n {
                if (sigs[i] ^ fs.want) & mask == 0 && f(fs.space, rots[i]) {
                    return true;
                }
            }
        }
        false
    }

    /// A uniformly random legal placement of a square tile of kind `k`, one per distinct orientation, or `None` if
    /// there is none. It samples (frontier space, orientation) pairs and keeps the first that fits; after a few misses
    /// it falls back to listing them all, so the choice is exactly uniform either way, and fast when many fit.
    pub fn random_square_placement(
        &self,
        cat: &Catalogue,
        k: TileKind,
        rng: &mut impl rand::Rng,
    ) -> Option<(Space, Rotation)> {
        let (rots, sigs, n) = distinct_orientations(cat, k);
        let total = self.frontier.len() * n;
        if total == 0 {
            return None;
        }
        for _ in 0..12 {
            let i = rng.random_range(0..total);
            let fs = &self.frontier[i / n];
            if (sigs[i % n] ^ fs.want) & fs.mask() == 0 {
                return Some((fs.space, rots[i % n]));
            }
        }
        let mut count = 0usize;
        self.for_each_square_placement(cat, k, |_, _| {
            count += 1;
            false
        });
        if count == 0 {
            return None;
        }
        let mut pick = rng.random_range(0..count);
        let mut found = None;
        self.for_each_square_placement(cat, k, |s, r| {
            if pick == 0 {
                found = Some((s, r));
                return true;
            }
            pick -= 1;
            false
        });
        found
    }

    /// Whether some square tile of `kinds` fits space `s` in some orientation (SPEC BASE-04): `false` unless `s` is
    /// on the frontier (empty, beside a tile).
    pub fn square_fits(&self, kinds: &SquareEdges, s: Space) -> bool {
        self.frontier_want(s).is_some_and(|(want, mask)| kinds.all.iter().any(|sig| sig & mask == want))
    }

    /// The kinds of `kinds` that fit space `s` in some orientation (SPEC BASE-04): none unless `s` is on the
    /// frontier.
    pub fn kinds_fitting<'a>(&self, kinds: &'a SquareEdges, s: Space) -> impl Iterator<Item = TileKind> + 'a {
        let (want, mask) = self.frontier_want(s).unwrap_or((0, 0));
        let on_frontier = mask != 0;
        (kinds.kinds.iter())
            .filter(move |(_, sigs, n)| on_frontier && sigs[..*n as usize].iter().any(|sig| sig & mask == want))
            .map(|k| k.0)
    }

    /// The edges a square tile must show at frontier space `s` (masked) and the mask of the sides that count.
    #[inline]
    fn frontier_want(&self, s: Space) -> Option<(u32, u32)> {
        let slot = self.grid.get(s).frontier;
        if slot == 0 {
            return None;
        }
        let fs = &self.frontier[slot as usize - 1];
        let mask = fs.mask();
        Some((fs.want & mask, mask))
    }

    /// Whether a square tile of kind `k` has any legal placement.
    pub fn has_square_placement(&self, cat: &Catalogue, k: TileKind) -> bool {
        self.for_each_square_placement(cat, k, |_, _| true)
    }

    /// Check a placement without making it (SPEC BASE-04, HALF-05..07).
    ///
    /// # Errors
    /// The first reason found.
    pub fn check(&self, cat: &Catalogue, k: TileKind, s: Space, p: Placement) -> Result<(), PlaceError> {
        if self.tiles.len() >= EMPTY as usize {
            return Err(PlaceError::Full);
        }
        let def = cat.def(k);
        let cell = self.grid.get(s);
        let o = cat.oriented(k, p.rotation());
        let sides: &[Side] = match (def.shape, p) {
            (Shape::Square | Shape::Abbey, Placement::Square(_)) => {
                if cell.is_filled() {
                    return Err(PlaceError::Occupied);
                }
                &Side::ALL
            }
            (Shape::Triangle, Placement::Triangle(c)) => {
                let legs = c.legs();
                if legs.iter().any(|l| cell.by_side[l.index()] != EMPTY) {
                    return Err(PlaceError::Occupied);
                }
                if cell.is_filled() {
                    // The other half must hold exactly the complement (HALF-05).
                    let comp = c.complement().legs();
                    if comp.iter().any(|l| cell.by_side[l.index()] == EMPTY) {
                        return Err(PlaceError::WrongShape);
                    }
                }
                return self.check_triangle(cat, o, s, c);
            }
            _ => return Err(PlaceError::WrongShape),
        };
        let mut touching = false;
        for &side in sides {
            if let Some(e) = self.facing_edge(cat, s, side) {
                touching = true;
                if !o.edges[side.index()].matches(e) {
                    return Err(PlaceError::Mismatch(side));
                }
            }
        }
        if touching { Ok(()) } else { Err(PlaceError::NotAdjacent) }
    }

    fn check_triangle(
        &self,
        cat: &Catalogue,
        o: &crate::catalogue::Oriented,
        s: Space,
        c: Corner,
    ) -> Result<(), PlaceError> {
        let mut touching = false;
        for side in c.legs() {
            if let Some(e) = self.facing_edge(cat, s, side) {
                touching = true;
                if !o.edges[side.index()].matches(e) {
                    return Err(PlaceError::Mismatch(side));
                }
            }
        }
        let other = self.grid.tile_at_side(s, c.complement().legs()[0]);
        if other != EMPTY {
            touching = true;
            let pt = &self.tiles[other as usize];
            let theirs = cat.oriented(pt.kind, pt.placement.rotation()).long_edge;
            if !o.long_edge.matches(theirs) {
                return Err(PlaceError::LongSideMismatch);
            }
        }
        if touching { Ok(()) } else { Err(PlaceError::NotAdjacent) }
    }

    /// Put the first tile on the board without any adjacency check (the start tile, SPEC BASE-02).
    ///
    /// # Errors
    /// If the space is taken or the shape does not fit the placement.
    pub fn place_start(
        &mut self,
        cat: &Catalogue,
        k: TileKind,
        s: Space,
        p: Placement,
        completed: &mut Vec<SegmentId>,
    ) -> Result<(), PlaceError> {
        match self.check(cat, k, s, p) {
            Ok(()) | Err(PlaceError::NotAdjacent) => {
                self.place_unchecked(cat, k, s, p, completed);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Place a tile after checking it.
    ///
    /// # Errors
    /// As [`Board::check`]; the board is unchanged on error.
    pub fn place(
        &mut self,
        cat: &Catalogue,
        k: TileKind,
        s: Space,
        p: Placement,
        completed: &mut Vec<SegmentId>,
    ) -> Result<(), PlaceError> {
        self.check(cat, k, s, p)?;
        self.place_unchecked(cat, k, s, p, completed);
        Ok(())
    }

    /// Place a tile known to be legal, joining its segments into features. The roots of the features this placement
    /// completed are appended to `completed`: roads and cities first (in the order the tile's segments meet them),
    /// then monasteries ordered by space.
    pub fn place_unchecked(
        &mut self,
        cat: &Catalogue,
        k: TileKind,
        s: Space,
        p: Placement,
        completed: &mut Vec<SegmentId>,
    ) {
        let rot = p.rotation();
        let o = cat.oriented(k, rot);
        let abbey = o.abbey;
        let t = self.tiles.len();
        let first = self.nodes.len() as u16;
        self.has_triangles |= matches!(p, Placement::Triangle(_));
        self.tiles.push(PlacedTile { kind: k, space: s, placement: p, first_segment: first });
        for i in 0..o.n_segments as usize {
            let id = first + i as u16;
            let kind = o.seg_kind[i];
            self.nodes.push(Node {
                parent: id,
                next: id,
                tile: t as u8,
                local: i as u8,
                kind_complete: kind as u8,
                pennants: o.seg_pennants[i],
                meeples: 0,
                barns: 0,
                open: 0,
            });
            if kind == SegmentKind::Monastery {
                self.open_monasteries.push((s, id));
            }
        }
        let (sides, long): (&[Side], Option<Corner>) = match p {
            Placement::Square(_) => (&Side::ALL, None),
            Placement::Triangle(c) => (sides_of(c), Some(c)),
        };
        let start_len = completed.len();
        // Features an abbey closed without joining them (SPEC ABBEY-03).
        let mut closed = [0u16; 4];
        let mut n_closed = 0;
        let si = self.grid.reserve_around(s);
        for &side in sides {
            let q = s.step(side);
            let qi = self.grid.step_index(si, side);
            let qcell = self.grid.at(qi);
            let other = qcell.by_side[side.opposite().index()];
            if other == EMPTY {
                if !abbey {
                    let c = o.pos_segment[Pos::on_side(side, 1).0 as usize];
                    if c != NO_SEGMENT && is_linear(o.seg_kind[c as usize]) {
                        let r = self.find(first + c as u16);
                        self.nodes[r as usize].open += 1;
                    }
                }
                if qcell.is_empty() {
                    self.add_frontier_edge(qi, q, side.opposite(), o.edges[side.index()].reversed());
                }
                continue;
            }
            let pt = self.tiles[other as usize];
            let oo = cat.oriented(pt.kind, pt.placement.rotation());
            let opp = side.opposite();
            if abbey || oo.abbey {
                // The abbey closes what faces it; nothing joins across.
                if abbey {
                    let seg = oo.pos_segment[Pos::on_side(opp, 1).0 as usize];
                    if seg != NO_SEGMENT && is_linear(oo.seg_kind[seg as usize]) {
                        let r = self.find(pt.first_segment + seg as u16);
                        self.nodes[r as usize].open -= 1;
                        closed[n_closed] = r;
                        n_closed += 1;
                    }
                }
                continue;
            }
            let mine = |k: usize| o.pos_segment[Pos::on_side(side, k).0 as usize];
            let theirs = |k: usize| oo.pos_segment[Pos::on_side(opp, 2 - k).0 as usize];
            self.join_edge(first, mine, pt.first_segment, theirs);
        }
        if let Some(c) = long {
            let other = self.grid.tile_at_side(s, c.complement().legs()[0]);
            let mine = |k: usize| o.pos_segment[Pos::on_long(k).0 as usize];
            if other == EMPTY {
                let cseg = mine(1);
                if cseg != NO_SEGMENT && is_linear(o.seg_kind[cseg as usize]) {
                    let r = self.find(first + cseg as u16);
                    self.nodes[r as usize].open += 1;
                }
            } else {
                let pt = self.tiles[other as usize];
                let oo = cat.oriented(pt.kind, pt.placement.rotation());
                let theirs = |k: usize| oo.pos_segment[Pos::on_long(2 - k).0 as usize];
                self.join_edge(first, mine, pt.first_segment, theirs);
            }
        }
        // The space itself.
        let cell = self.grid.at_mut(si);
        for &side in sides {
            cell.by_side[side.index()] = t as u8;
        }
        let slot = cell.frontier;
        cell.frontier = 0;
        if slot != 0 {
            self.remove_frontier(slot as usize - 1);
        }
        // Completed roads and cities. Every feature whose open ends changed was joined to one of this tile's
        // segments, except those an abbey closed.
        for i in 0..o.n_segments as usize {
            if is_linear(o.seg_kind[i]) {
                let r = self.find(first + i as u16);
                self.mark_if_complete(r, completed, start_len);
            }
        }
        for &r in &closed[..n_closed] {
            let r = self.find(r);
            self.mark_if_complete(r, completed, start_len);
        }
        // Monasteries in the 3x3 block around the new tile (SPEC BASE-08, HALF-12), ordered by space.
        if !self.open_monasteries.is_empty() {
            let from = completed.len();
            let mut i = 0;
            while i < self.open_monasteries.len() {
                let (ms, m) = self.open_monasteries[i];
                if (ms.x - s.x).abs() <= 1 && (ms.y - s.y).abs() <= 1 && self.filled_neighbours(ms) == 8 {
                    self.open_monasteries.swap_remove(i);
                    self.nodes[m as usize].set_complete();
                    completed.push(SegmentId(m));
                } else {
                    i += 1;
                }
            }
            if completed.len() - from > 1 {
                let (tiles, nodes) = (&self.tiles, &self.nodes);
                completed[from..].sort_by_key(|c| {
                    let n = nodes[c.0 as usize];
                    (tiles[n.tile as usize].space, n.tile)
                });
            }
        }
    }

    #[inline]
    fn mark_if_complete(&mut self, r: u16, completed: &mut Vec<SegmentId>, start_len: usize) {
        let n = &mut self.nodes[r as usize];
        if !n.complete() && n.open == 0 && !completed[start_len..].contains(&SegmentId(r)) {
            n.set_complete();
            completed.push(SegmentId(r));
        }
    }

    /// Record that the empty space `q` (grid index `qi`) now faces an edge on its side `side` that demands `want` of a
    /// square tile.
    #[inline]
    fn add_frontier_edge(&mut self, qi: usize, q: Space, side: Side, want: Edge) {
        let back = side.index() as u32 * 8;
        let cell = self.grid.at_mut(qi);
        let fs = if cell.frontier == 0 {
            self.frontier.push(FrontierSpace { space: q, want: 0, sides: 0 });
            cell.frontier = self.frontier.len() as u16;
            self.frontier.last_mut().expect("just pushed")
        } else {
            &mut self.frontier[cell.frontier as usize - 1]
        };
        fs.sides |= 1 << side.index();
        if want != Edge::ANY {
            debug_assert!(want.0 != 0 && want.0 & !0x3F == 0, "a real edge is 6 bits, never 0 ({want:?})");
            fs.want |= (want.0 as u32) << back;
        }
    }

    /// Join the three positions of an edge with the three positions of the edge it faces: halves for fields,
    /// centres for roads and cities (a city side is one join). The facing feature's open end there is closed.
    fn join_edge(&mut self, first: u16, mine: impl Fn(usize) -> u8, their_first: u16, theirs: impl Fn(usize) -> u8) {
        for k in 0..3 {
            let (a, b) = (mine(k), theirs(k));
            if a == NO_SEGMENT || b == NO_SEGMENT {
                continue;
            }
            let (a, b) = (first + a as u16, their_first + b as u16);
            let kind = self.nodes[a as usize].kind();
            let is_field = kind == SegmentKind::Field;
            if is_field == (k == 1) {
                continue;
            }
            if k == 1 {
                let rb = self.find(b);
                self.nodes[rb as usize].open -= 1;
            }
            self.union(a, b);
        }
    }

    fn remove_frontier(&mut self, i: usize) {
        self.frontier.swap_remove(i);
        if i < self.frontier.len() {
            let moved = self.frontier[i].space;
            self.grid.get_mut(moved).frontier = i as u16 + 1;
        }
    }

    /// Number of the 8 spaces around `s` that hold at least one tile.
    pub fn filled_neighbours(&self, s: Space) -> u32 {
        self.grid.filled_around(s)
    }

    /// The root of a segment's feature.
    #[inline]
    pub(crate) fn find(&mut self, mut a: u16) -> u16 {
        while self.nodes[a as usize].parent != a {
            let p = self.nodes[a as usize].parent;
            let gp = self.nodes[p as usize].parent;
            self.nodes[a as usize].parent = gp;
            a = gp;
        }
        a
    }

    /// The root of a segment's feature, without path compression.
    #[inline]
    pub fn root(&self, s: SegmentId) -> SegmentId {
        let mut a = s.0;
        while self.nodes[a as usize].parent != a {
            a = self.nodes[a as usize].parent;
        }
        SegmentId(a)
    }

    fn union(&mut self, a: u16, b: u16) -> u16 {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        // Join the smaller-numbered root under the larger-numbered one? Keep the older (smaller) root: stable ids.
        let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
        let g = self.nodes[gone as usize];
        let kn = &mut self.nodes[keep as usize];
        kn.open += g.open;
        kn.pennants = kn.pennants.saturating_add(g.pennants);
        kn.meeples += g.meeples;
        kn.barns += g.barns;
        kn.kind_complete |= g.kind_complete & Node::COMPLETE;
        // Splice the circular member lists.
        let kn_next = kn.next;
        kn.next = g.next;
        self.nodes[gone as usize].next = kn_next;
        self.nodes[gone as usize].parent = keep;
        keep
    }

    /// The kind of a segment.
    pub fn kind(&self, s: SegmentId) -> SegmentKind {
        self.nodes[s.0 as usize].kind()
    }

    /// The tile number and local segment index of a segment.
    pub fn segment_tile(&self, s: SegmentId) -> (usize, u8) {
        let n = &self.nodes[s.0 as usize];
        (n.tile as usize, n.local)
    }

    /// The segment `local` of tile number `tile`.
    pub fn segment_of(&self, tile: usize, local: u8) -> SegmentId {
        SegmentId(self.tiles[tile].first_segment + local as u16)
    }

    /// Number of segments on the board.
    pub fn segment_count(&self) -> usize {
        self.nodes.len()
    }

    /// The members of a feature (any of its segments may be given).
    pub fn members(&self, s: SegmentId) -> impl Iterator<Item = SegmentId> + '_ {
        let start = self.root(s).0;
        let mut cur = Some(start);
        std::iter::from_fn(move || {
            let c = cur?;
            let n = self.nodes[c as usize].next;
            cur = (n != start).then_some(n);
            Some(SegmentId(c))
        })
    }

    /// Whether the feature is complete.
    pub fn is_complete(&self, s: SegmentId) -> bool {
        self.nodes[self.root(s).0 as usize].complete()
    }

    /// Meeples on the feature.
    #[inline]
    pub fn meeples_on(&self, s: SegmentId) -> u8 {
        self.nodes[self.root(s).0 as usize].meeples
    }

    /// Record a meeple arriving on (`+1`) or leaving (`-1`) a feature.
    pub(crate) fn add_meeples(&mut self, s: SegmentId, delta: i8) {
        let r = self.find(s.0) as usize;
        self.nodes[r].meeples = self.nodes[r].meeples.wrapping_add_signed(delta);
    }

    /// Meeples and barns on the feature of `s`, with one walk to its root.
    #[inline]
    pub fn occupancy(&self, s: SegmentId) -> (u8, u8) {
        let n = &self.nodes[self.root(s).0 as usize];
        (n.meeples, n.barns)
    }

    /// Whether the feature of `s` is incomplete and holds neither meeple nor barn, with one walk to its root (what
    /// the portal and a wagon's move need).
    #[inline]
    pub fn is_free_and_open(&self, s: SegmentId) -> bool {
        let n = &self.nodes[self.root(s).0 as usize];
        n.meeples == 0 && n.barns == 0 && !n.complete()
    }

    /// Open ends of the road or city of `s` (0 once it is complete), with one walk to its root.
    #[inline]
    pub fn open_ends(&self, s: SegmentId) -> u16 {
        self.nodes[self.root(s).0 as usize].open
    }

    /// Pennants in the city of `s` (SPEC MAYOR-03).
    #[inline]
    pub fn pennants_of(&self, s: SegmentId) -> u8 {
        self.nodes[self.root(s).0 as usize].pennants
    }

    /// Barns in the field of `s` (SPEC BARN-03).
    #[inline]
    pub fn barns_on(&self, s: SegmentId) -> u8 {
        self.nodes[self.root(s).0 as usize].barns
    }

    /// Record a barn put in the field of `s`.
    pub(crate) fn add_barn(&mut self, s: SegmentId) {
        let r = self.find(s.0) as usize;
        self.nodes[r].barns += 1;
    }

    /// The tile number of the square tile (or abbey) on space `s`, if it holds one.
    pub fn square_at(&self, s: Space) -> Option<usize> {
        let c = self.grid.get(s).by_side;
        (c[0] != EMPTY && c.iter().all(|&t| t == c[0])).then_some(c[0] as usize)
    }

    /// The tile on the neighbouring space across side `side` of `s` that presents its edge towards `s`, if any (a
    /// triangle there only if one of its legs lies on that shared side).
    pub fn tile_facing(&self, s: Space, side: Side) -> Option<usize> {
        let t = self.grid.tile_at_side(s.step(side), side.opposite());
        (t != EMPTY).then_some(t as usize)
    }

    /// Tile numbers of the tiles on space `s`.
    pub fn tile_numbers_in(&self, s: Space) -> impl Iterator<Item = usize> + '_ {
        let c = self.grid.get(s).by_side;
        (0..4).filter(move |&i| c[i] != EMPTY && !c[..i].contains(&c[i])).map(move |i| c[i] as usize)
    }

    /// Whether `s` is a hole: empty, and each of its four orthogonal neighbours presents an edge towards it
    /// (SPEC ABBEY-02; a neighbour whose half facing the hole is empty does not count, AMB-17).
    pub fn is_hole(&self, s: Space) -> bool {
        let cell = self.grid.get(s);
        cell.is_empty() && cell.frontier != 0 && self.frontier[cell.frontier as usize - 1].sides == 0b1111
    }

    /// Every hole on the board, in frontier order.
    pub fn holes(&self) -> impl Iterator<Item = Space> + '_ {
        self.frontier.iter().filter(|f| f.sides == 0b1111).map(|f| f.space)
    }

    /// Whether tile `t` reaches corner `c` of its space: a square reaches all four, a triangle the three its sides
    /// meet at (HALF-02: a `NE` triangle covers NW, NE and SE).
    pub fn covers_corner(&self, t: usize, c: Corner) -> bool {
        match self.tiles[t].placement {
            Placement::Square(_) => true,
            Placement::Triangle(r) => c != r.complement(),
        }
    }

    /// The field segment of tile `t` that fills its corner `c` (both positions beside the corner belong to it), if
    /// the corner is a field corner (docs/tiles.md §0, the barn's test). On a triangle, the corners at the ends of the long
    /// side pair a leg's half with the long side's end (HALF-15).
    pub fn field_corner(&self, cat: &Catalogue, t: usize, c: Corner) -> Option<SegmentId> {
        let pt = &self.tiles[t];
        let o = cat.oriented(pt.kind, pt.placement.rotation());
        // The halves on either side of corner c: NE = Ne, En; SE = Es, Se; SW = Sw, Ws; NW = Wn, Nw.
        let right_angle = || ((3 * c as usize + 2) % 12, (3 * c as usize + 3) % 12);
        let (a, b) = match pt.placement {
            Placement::Square(_) => right_angle(),
            Placement::Triangle(r) if r == c => right_angle(),
            Placement::Triangle(r) => {
                let [leg0, leg1] = r.legs();
                if c == Corner::from_index(r as usize + 3) {
                    // The corner at the start of the first leg and the long side's `Lb` end.
                    (Pos::on_side(leg0, 0).0 as usize, Pos::on_long(2).0 as usize)
                } else if c == Corner::from_index(r as usize + 1) {
                    // The corner at the end of the second leg and the long side's `La` end.
                    (Pos::on_side(leg1, 2).0 as usize, Pos::on_long(0).0 as usize)
                } else {
                    return None;
                }
            }
        };
        let (sa, sb) = (o.pos_segment[a], o.pos_segment[b]);
        (sa != NO_SEGMENT && sa == sb && o.seg_kind[sa as usize] == SegmentKind::Field)
            .then(|| SegmentId(pt.first_segment + sa as u16))
    }

    /// The four (space, corner) pairs meeting at corner `c` of space `s`.
    pub fn corner_point(s: Space, c: Corner) -> [(Space, Corner); 4] {
        let [a, b] = c.legs();
        let (sa, sab, sb) = (s.step(a), s.step(a).step(b), s.step(b));
        // Seen from a neighbour across leg `a`, the point is the corner mirrored across that leg, and so on.
        let mirror = |c: Corner, across: Side| -> Corner {
            let [l0, l1] = c.legs();
            let keep = if l0 == across { l1 } else { l0 };
            let flipped = across.opposite();
            Corner::ALL
                .into_iter()
                .find(|k| {
                    let legs = k.legs();
                    legs.contains(&keep) && legs.contains(&flipped)
                })
                .expect("two perpendicular sides name a corner")
        };
        let ca = mirror(c, a);
        let cb = mirror(c, b);
        let cab = c.complement();
        [(s, c), (sa, ca), (sab, cab), (sb, cb)]
    }

    /// Distinct tiles covered by a feature (the first half of [`Board::tiles_and_spaces`], without its walk over
    /// the board for triangles sharing a space: an evaluation that needs only the tiles asks this).
    pub fn tile_count(&self, s: SegmentId) -> u16 {
        self.member_tiles(s).1
    }

    /// The set of tiles a feature's members lie on (a bit per tile number) and how many there are.
    #[inline]
    fn member_tiles(&self, s: SegmentId) -> ([u64; 4], u16) {
        let mut tiles = [0u64; 4];
        let mut nt = 0u16;
        for m in self.members(s) {
            let t = self.nodes[m.0 as usize].tile as usize;
            if tiles[t / 64] & (1 << (t % 64)) == 0 {
                tiles[t / 64] |= 1 << (t % 64);
                nt += 1;
            }
        }
        (tiles, nt)
    }

    /// Distinct tiles and distinct spaces covered by a feature.
    pub fn tiles_and_spaces(&self, s: SegmentId) -> (u16, u16) {
        let (tiles, nt) = self.member_tiles(s);
        if !self.has_triangles {
            return (nt, nt);
        }
        // Two triangles of one space count once: count each tile whose space no lower-numbered member tile shares.
        let mut ns = 0u16;
        for t in 0..self.tiles.len() {
            if tiles[t / 64] & (1 << (t % 64)) == 0 {
                continue;
            }
            let sp = self.tiles[t].space;
            let shared = self.grid.get(sp).by_side.iter().any(|&u| {
                let u = u as usize;
                u != EMPTY as usize && u < t && tiles[u / 64] & (1 << (u % 64)) != 0
            });
            if !shared {
                ns += 1;
            }
        }
        (nt, ns)
    }

    /// A summary of the feature containing `s`.
    pub fn feature(&self, s: SegmentId) -> FeatureInfo {
        let r = self.root(s);
        let n = self.nodes[r.0 as usize];
        let (tiles, spaces) = self.tiles_and_spaces(r);
        FeatureInfo {
            root: r,
            kind: n.kind(),
            complete: n.complete(),
            open: n.open,
            tiles,
            spaces,
            pennants: n.pennants,
            meeples: n.meeples,
        }
    }

    /// The roots of the completed cities a field borders, each once (SPEC BASE-16).
    pub fn completed_cities_of_field(&self, cat: &Catalogue, field: SegmentId, out: &mut Vec<SegmentId>) {
        out.clear();
        self.for_each_completed_city_of_field(cat, field, |r| {
            if !out.contains(&r) {
                out.push(r);
            }
        });
    }

    /// How many completed cities a field borders (SPEC BASE-16), without allocating unless it borders more than
    /// [`RootSet`] holds inline: scorings in a search's playouts count them often.
    pub fn completed_city_count(&self, cat: &Catalogue, field: SegmentId) -> usize {
        let mut set = RootSet::default();
        self.for_each_completed_city_of_field(cat, field, |r| {
            set.insert(r);
        });
        set.len()
    }

    /// Call `f` with the root of every completed city the field borders, once for each place it borders it.
    fn for_each_completed_city_of_field(&self, cat: &Catalogue, field: SegmentId, mut f: impl FnMut(SegmentId)) {
        for m in self.members(field) {
            let n = self.nodes[m.0 as usize];
            let pt = &self.tiles[n.tile as usize];
            for &c in &cat.def(pt.kind).segments[n.local as usize].cities {
                let r = self.root(SegmentId(pt.first_segment + c as u16));
                if self.nodes[r.0 as usize].complete() {
                    f(r);
                }
            }
        }
    }

    /// The roots of every feature, each once, in segment order.
    pub fn roots(&self) -> impl Iterator<Item = SegmentId> + '_ {
        (0..self.nodes.len() as u16).filter(|&i| self.nodes[i as usize].parent == i).map(SegmentId)
    }

    /// Recompute what the feature graph keeps incrementally and compare: every feature has one kind, its member list
    /// holds exactly its segments, and its open ends are the road and city sides facing an empty space or gap. For
    /// tests; slow.
    ///
    /// # Errors
    /// A description of the first inconsistency.
    pub fn audit(&self, cat: &Catalogue) -> Result<(), String> {
        // The frontier: each entry an empty space, its sides those facing a placed edge.
        for (i, f) in self.frontier.iter().enumerate() {
            let cell = self.grid.get(f.space);
            if !cell.is_empty() || cell.frontier as usize != i + 1 {
                return Err(format!("frontier entry {} is stale", f.space));
            }
            let sides = Side::ALL
                .iter()
                .filter(|&&d| self.grid.tile_at_side(f.space.step(d), d.opposite()) != EMPTY)
                .fold(0u8, |acc, d| acc | 1 << d.index());
            if sides != f.sides {
                return Err(format!("frontier {} records sides {:04b}, the board shows {sides:04b}", f.space, f.sides));
            }
        }
        let n = self.nodes.len();
        let mut open = vec![0u32; n];
        for (t, pt) in self.tiles.iter().enumerate() {
            let o = cat.oriented(pt.kind, pt.placement.rotation());
            if o.abbey {
                continue;
            }
            let (sides, long) = match pt.placement {
                Placement::Square(_) => (&Side::ALL[..], None),
                Placement::Triangle(c) => (sides_of(c), Some(c)),
            };
            let mut check = |pos: Pos, facing_empty: bool| {
                let seg = o.pos_segment[pos.0 as usize];
                if facing_empty && seg != NO_SEGMENT && is_linear(o.seg_kind[seg as usize]) {
                    open[self.root(SegmentId(pt.first_segment + seg as u16)).0 as usize] += 1;
                }
            };
            for &side in sides {
                let other = self.grid.tile_at_side(pt.space.step(side), side.opposite());
                check(Pos::on_side(side, 1), other == EMPTY);
            }
            if let Some(c) = long {
                let other = self.grid.tile_at_side(pt.space, c.complement().legs()[0]);
                check(Pos::on_long(1), other == EMPTY);
            }
            if self.grid.get(pt.space).by_side.iter().filter(|&&x| x == t as u8).count() != sides.len() {
                return Err(format!("tile {t} is not recorded on its {} sides", sides.len()));
            }
        }
        let mut member_count = vec![0usize; n];
        for i in 0..n {
            let r = self.root(SegmentId(i as u16));
            member_count[r.0 as usize] += 1;
            if self.nodes[i].kind() != self.nodes[r.0 as usize].kind() {
                return Err(format!(
                    "segment {i} is a {:?} in a {:?} feature",
                    self.nodes[i].kind(),
                    self.nodes[r.0 as usize].kind()
                ));
            }
        }
        for r in self.roots() {
            let members: Vec<SegmentId> = self.members(r).collect();
            if members.len() != member_count[r.0 as usize] || members.iter().any(|m| self.root(*m) != r) {
                return Err(format!("feature {} has a broken member list", r.0));
            }
            let node = &self.nodes[r.0 as usize];
            if is_linear(node.kind()) && node.open as u32 != open[r.0 as usize] {
                return Err(format!("feature {} keeps {} open ends but has {}", r.0, node.open, open[r.0 as usize]));
            }
            if is_linear(node.kind()) && node.complete() != (node.open == 0) {
                return Err(format!("feature {} complete={} with {} open ends", r.0, node.complete(), node.open));
            }
        }
        Ok(())
    }

    /// Rough heap bytes held, or with `in_use` only those of the elements present (for the state-size report).
    pub fn heap_bytes(&self, in_use: bool) -> usize {
        self.grid.heap_bytes(in_use)
            + vec_bytes(&self.tiles, in_use)
            + vec_bytes(&self.nodes, in_use)
            + vec_bytes(&self.frontier, in_use)
            + vec_bytes(&self.open_monasteries, in_use)
    }
}

/// Bytes of a vector's elements: the room it holds, or with `in_use` only the elements present.
pub(crate) fn vec_bytes<T>(v: &Vec<T>, in_use: bool) -> usize {
    (if in_use { v.len() } else { v.capacity() }) * std::mem::size_of::<T>()
}

/// The distinct orientations of a square tile kind (smallest rotation of each) and their packed edges.
#[inline]
fn distinct_orientations(cat: &Catalogue, k: TileKind) -> ([Rotation; 4], [u32; 4], usize) {
    let mut rots = [Rotation::R0; 4];
    let mut sigs = [0u32; 4];
    let mut n = 0;
    for r in Rotation::ALL {
        let o = cat.oriented(k, r);
        if o.canonical == r {
            rots[n] = r;
            sigs[n] = o.signature;
            n += 1;
        }
    }
    (rots, sigs, n)
}

/// Roads and cities have open ends; other kinds do not.
#[inline]
fn is_linear(k: SegmentKind) -> bool {
    matches!(k, SegmentKind::Road | SegmentKind::City)
}

fn sides_of(c: Corner) -> &'static [Side] {
    match c {
        Corner::NE => &[Side::N, Side::E],
        Corner::SE => &[Side::E, Side::S],
        Corner::SW => &[Side::S, Side::W],
        Corner::NW => &[Side::W, Side::N],
    }
}

#[cfg(test)]
mod tests;

/// A small set of feature roots, held inline up to [`RootSet::INLINE`] and on the heap only beyond: the scorings'
/// lists of features (the meeples' features, a field's cities) are nearly always short, and a search scores in every
/// playout.
#[derive(Clone, Debug)]
pub struct RootSet {
    inline: [SegmentId; RootSet::INLINE],
    len: usize,
    more: Vec<SegmentId>,
}

impl Default for RootSet {
    fn default() -> Self {
        RootSet { inline: [SegmentId(0); RootSet::INLINE], len: 0, more: Vec::new() }
    }
}

impl RootSet {
    /// Roots held without allocating.
    pub const INLINE: usize = 32;

    /// Add `r`; whether it was new.
    pub fn insert(&mut self, r: SegmentId) -> bool {
        if self.inline[..self.len].contains(&r) || self.more.contains(&r) {
            return false;
        }
        if self.len < Self::INLINE {
            self.inline[self.len] = r;
            self.len += 1;
        } else {
            self.more.push(r);
        }
        true
    }

    /// How many roots it holds.
    pub fn len(&self) -> usize {
        self.len + self.more.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its roots, sorted.
    pub fn sorted(&mut self) -> &[SegmentId] {
        if self.more.is_empty() {
            self.inline[..self.len].sort_unstable();
            return &self.inline[..self.len];
        }
        self.more.extend_from_slice(&self.inline[..self.len]);
        self.len = 0;
        self.more.sort_unstable();
        &self.more
    }
}

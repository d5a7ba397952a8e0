//! A growable dense grid over the spaces that matter, recording which placed tile presents its edge on each side of
//! each space.

use crate::geom::{Side, Space};

/// No tile.
pub(crate) const EMPTY: u8 = 0xFF;

/// One space: the tile whose edge lies on each side (a square fills all four; a triangle two, its legs), and the
/// space's slot in the frontier list (0 = not in it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    pub(super) by_side: [u8; 4],
    pub(super) frontier: u16,
}

impl Cell {
    const BLANK: Cell = Cell { by_side: [EMPTY; 4], frontier: 0 };

    /// Holds at least one tile.
    #[inline]
    pub(super) fn is_filled(&self) -> bool {
        self.by_side != [EMPTY; 4]
    }

    /// Holds no tile.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        !self.is_filled()
    }
}

/// The grid covers a rectangle of spaces and grows (with a margin) when a tile goes outside it. Two grids are equal
/// when every space holds the same thing, whatever rectangle each happens to cover.
#[derive(Debug, Eq)]
pub(crate) struct Grid {
    x0: i16,
    y0: i16,
    w: i16,
    h: i16,
    cells: Vec<Cell>,
}

const MARGIN: i16 = 6;

impl Clone for Grid {
    fn clone(&self) -> Grid {
        Grid { x0: self.x0, y0: self.y0, w: self.w, h: self.h, cells: self.cells.clone() }
    }

    /// Into the memory already held (searches copy a game into the same scratch game every iteration).
    fn clone_from(&mut self, o: &Grid) {
        let Grid { x0, y0, w, h, cells } = self;
        (*x0, *y0, *w, *h) = (o.x0, o.y0, o.w, o.h);
        cells.clone_from(&o.cells);
    }
}

impl PartialEq for Grid {
    fn eq(&self, o: &Grid) -> bool {
        let covers_same = |a: &Grid, b: &Grid| {
            (0..a.h).all(|y| {
                (0..a.w).all(|x| {
                    let s = Space::new(a.x0 + x, a.y0 + y);
                    a.get(s) == b.get(s)
                })
            })
        };
        covers_same(self, o) && covers_same(o, self)
    }
}

impl Grid {
    pub(super) fn new() -> Grid {
        let w = 2 * MARGIN + 1;
        Grid { x0: -MARGIN, y0: -MARGIN, w, h: w, cells: vec![Cell::BLANK; (w * w) as usize] }
    }

    #[inline]
    fn index(&self, s: Space) -> Option<usize> {
        let dx = s.x.wrapping_sub(self.x0);
        let dy = s.y.wrapping_sub(self.y0);
        if (0..self.w).contains(&dx) && (0..self.h).contains(&dy) {
            Some(dy as usize * self.w as usize + dx as usize)
        } else {
            None
        }
    }

    /// The cell at `s` (blank outside the covered rectangle).
    #[inline]
    pub(super) fn get(&self, s: Space) -> Cell {
        match self.index(s) {
            Some(i) => self.cells[i],
            None => Cell::BLANK,
        }
    }

    /// The tile presenting its edge on `side` of space `s`.
    #[inline]
    pub(super) fn tile_at_side(&self, s: Space, side: Side) -> u8 {
        self.get(s).by_side[side.index()]
    }

    /// The cell at `s`, growing the grid to cover it.
    #[inline]
    pub(super) fn get_mut(&mut self, s: Space) -> &mut Cell {
        if self.index(s).is_none() {
            self.grow_to(s);
        }
        let i = self.index(s).expect("grid was grown to cover the space");
        &mut self.cells[i]
    }

    #[cold]
    fn grow_to(&mut self, s: Space) {
        // Grow by at least half the current size on the side that overflowed, so growth is rare.
        let (mx, my) = (MARGIN.max(self.w / 2), MARGIN.max(self.h / 2));
        let x0 = self.x0.min(s.x - mx);
        let y0 = self.y0.min(s.y - my);
        let x1 = (self.x0 + self.w).max(s.x + mx + 1);
        let y1 = (self.y0 + self.h).max(s.y + my + 1);
        let (w, h) = (x1 - x0, y1 - y0);
        // In place, in the memory already held when there is enough (a search's scratch game grows the same way
        // again and again): each old row moves to its new place, last row first, since no cell moves backwards
        // (the new rectangle contains the old one and is at least as wide); then every cell outside the old rectangle's
        // new place is blanked.
        let (ow, oh) = (self.w as usize, self.h as usize);
        let (dx, dy) = ((self.x0 - x0) as usize, (self.y0 - y0) as usize);
        let w_ = w as usize;
        self.cells.resize(w_ * h as usize, Cell::BLANK);
        for y in (0..oh).rev() {
            let from = y * ow;
            let to = (y + dy) * w_ + dx;
            self.cells.copy_within(from..from + ow, to);
        }
        for y in 0..h as usize {
            let row = &mut self.cells[y * w_..(y + 1) * w_];
            if y < dy || y >= dy + oh {
                row.fill(Cell::BLANK);
            } else {
                row[..dx].fill(Cell::BLANK);
                row[dx + ow..].fill(Cell::BLANK);
            }
        }
        (self.x0, self.y0, self.w, self.h) = (x0, y0, w, h);
    }

    /// Make sure `s` and its four neighbours are inside the grid (growing it if not) and return the index of `s`.
    #[inline]
    pub(super) fn reserve_around(&mut self, s: Space) -> usize {
        let (dx, dy) = (s.x.wrapping_sub(self.x0), s.y.wrapping_sub(self.y0));
        if dx < 1 || dy < 1 || dx >= self.w - 1 || dy >= self.h - 1 {
            self.grow_to(s);
        }
        self.index(s).expect("the grid covers the space after growing")
    }

    /// How many of the 8 spaces around `s` hold at least one tile: by index when the block lies inside the grid (a
    /// monastery's neighbours are counted at every placement near it and in every evaluation).
    #[inline]
    pub(super) fn filled_around(&self, s: Space) -> u32 {
        let (dx, dy) = (s.x.wrapping_sub(self.x0), s.y.wrapping_sub(self.y0));
        if dx < 1 || dy < 1 || dx >= self.w - 1 || dy >= self.h - 1 {
            return s.neighbourhood().iter().filter(|&&q| self.get(q).is_filled()).count() as u32;
        }
        let w = self.w as usize;
        let i = dy as usize * w + dx as usize;
        let filled = |j: usize| self.cells[j].is_filled() as u32;
        filled(i - w - 1)
            + filled(i - w)
            + filled(i - w + 1)
            + filled(i - 1)
            + filled(i + 1)
            + filled(i + w - 1)
            + filled(i + w)
            + filled(i + w + 1)
    }

    /// The index of the neighbour across `side` of the cell at index `i` (which must not be on the grid's border).
    #[inline]
    pub(super) fn step_index(&self, i: usize, side: Side) -> usize {
        match side {
            Side::N => i + self.w as usize,
            Side::E => i + 1,
            Side::S => i - self.w as usize,
            Side::W => i - 1,
        }
    }

    /// The cell at an index from [`Grid::reserve_around`] or [`Grid::step_index`].
    #[inline]
    pub(super) fn at(&self, i: usize) -> Cell {
        self.cells[i]
    }

    /// The cell at an index, to change it.
    #[inline]
    pub(super) fn at_mut(&mut self, i: usize) -> &mut Cell {
        &mut self.cells[i]
    }

    /// Empty every cell, keeping the covered rectangle.
    pub(super) fn clear(&mut self) {
        self.cells.fill(Cell::BLANK);
    }

    /// Bytes held by the cells (all of them in use: the grid is the rectangle it covers).
    pub(super) fn heap_bytes(&self, in_use: bool) -> usize {
        super::vec_bytes(&self.cells, in_use)
    }
}

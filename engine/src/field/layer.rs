//! [`Layer`]: one real value per cell, the currency of every tactical analysis.

use glam::IVec2;

/// A `width × height` grid of `f32`, row-major (`y * width + x`, `(0, 0)` top left), the same
/// layout as [`crate::grid::Map`].
///
/// Every analysis in [`crate::field`] reads and writes layers, and a renderer needs nothing but
/// [`Layer::values`], [`Layer::width`] and [`Layer::height`] to draw one as a heat map.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    width: u32,
    height: u32,
    values: Vec<f32>,
}

/// How two layers are merged cell by cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combine {
    /// `a + b`: the chapter's per-side influence (a side's influence is the sum of its units').
    Sum,
    /// `max(a, b)`: the map-flooding view (a cell's influence is its strongest contributor's).
    Max,
    /// `min(a, b)`: fuzzy AND of two memberships.
    Min,
    /// `a − b`: one side's influence against another's.
    Difference,
    /// `a · b`: compound analyses such as the radar-site quality (security × visibility × distance).
    Product,
}

impl Combine {
    /// Applies the operation to one pair of values.
    pub fn apply(self, a: f32, b: f32) -> f32 {
        match self {
            Combine::Sum => a + b,
            Combine::Max => a.max(b),
            Combine::Min => a.min(b),
            Combine::Difference => a - b,
            Combine::Product => a * b,
        }
    }
}

impl Layer {
    /// A layer of `width × height` cells, all `value`.
    pub fn filled(width: u32, height: u32, value: f32) -> Self {
        Layer { width, height, values: vec![value; width as usize * height as usize] }
    }

    /// A layer of zeros.
    pub fn new(width: u32, height: u32) -> Self {
        Self::filled(width, height, 0.0)
    }

    /// A layer from row-major values; `None` when `values.len() != width × height`.
    pub fn from_values(width: u32, height: u32, values: Vec<f32>) -> Option<Self> {
        (values.len() == width as usize * height as usize).then_some(Layer { width, height, values })
    }

    /// A layer from rows of equal length; `None` when the rows are ragged.
    pub fn from_rows(rows: &[&[f32]]) -> Option<Self> {
        let width = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != width) {
            return None;
        }
        let values = rows.iter().flat_map(|r| r.iter().copied()).collect();
        Self::from_values(u32::try_from(width).ok()?, u32::try_from(rows.len()).ok()?, values)
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The values, row-major.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The values, row-major, for writing.
    pub fn values_mut(&mut self) -> &mut [f32] {
        &mut self.values
    }

    /// One row.
    pub fn row(&self, y: u32) -> &[f32] {
        let w = self.width as usize;
        &self.values[y as usize * w..(y as usize + 1) * w]
    }

    /// Whether `cell` is inside the layer.
    pub fn contains(&self, cell: IVec2) -> bool {
        cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < self.width && (cell.y as u32) < self.height
    }

    /// The flat index of `cell`, if inside.
    pub fn index(&self, cell: IVec2) -> Option<usize> {
        self.contains(cell).then(|| cell.y as usize * self.width as usize + cell.x as usize)
    }

    /// The cell at flat index `i`.
    pub fn cell_at(&self, i: usize) -> IVec2 {
        let w = self.width.max(1) as usize;
        IVec2::new((i % w) as i32, (i / w) as i32)
    }

    /// The value at `cell`, or `None` outside.
    pub fn get(&self, cell: IVec2) -> Option<f32> {
        self.index(cell).map(|i| self.values[i])
    }

    /// The value at `cell`, or `0` outside (influence is zero off the map).
    pub fn at(&self, cell: IVec2) -> f32 {
        self.get(cell).unwrap_or(0.0)
    }

    /// Sets the value at `cell`; returns `false` outside.
    pub fn set(&mut self, cell: IVec2, value: f32) -> bool {
        let Some(i) = self.index(cell) else { return false };
        self.values[i] = value;
        true
    }

    /// Adds to the value at `cell`; returns `false` outside.
    pub fn add(&mut self, cell: IVec2, amount: f32) -> bool {
        let Some(i) = self.index(cell) else { return false };
        self.values[i] += amount;
        true
    }

    /// Sets every cell to `value`.
    pub fn fill(&mut self, value: f32) {
        self.values.fill(value);
    }

    /// Multiplies every cell by `factor` (the frag map's forgetting).
    pub fn scale(&mut self, factor: f32) {
        self.values.iter_mut().for_each(|v| *v *= factor);
    }

    /// Applies `f` to every cell.
    pub fn map_in_place(&mut self, f: impl Fn(f32) -> f32) {
        self.values.iter_mut().for_each(|v| *v = f(*v));
    }

    /// Whether `other` has the same width and height.
    pub fn same_shape(&self, other: &Layer) -> bool {
        self.width == other.width && self.height == other.height
    }

    /// Merges `other` into `self` cell by cell; returns `false` (and changes nothing) when the
    /// shapes differ.
    pub fn combine_with(&mut self, other: &Layer, op: Combine) -> bool {
        if !self.same_shape(other) {
            return false;
        }
        self.values.iter_mut().zip(&other.values).for_each(|(a, &b)| *a = op.apply(*a, b));
        true
    }

    /// `weight × other` added to `self` (weighted linear combinations, the tactical analysis
    /// server's one combination kind); returns `false` when the shapes differ.
    pub fn add_weighted(&mut self, other: &Layer, weight: f32) -> bool {
        if !self.same_shape(other) {
            return false;
        }
        self.values.iter_mut().zip(&other.values).for_each(|(a, &b)| *a += weight * b);
        true
    }

    /// The sum of all cells (in `f64`, so large maps do not lose the small values).
    pub fn total(&self) -> f64 {
        self.values.iter().map(|&v| f64::from(v)).sum()
    }

    /// The smallest and largest finite values, or `None` if there are none.
    pub fn range(&self) -> Option<(f32, f32)> {
        self.values.iter().filter(|v| v.is_finite()).fold(None, |acc, &v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
    }

    /// The cell with the largest value among those inside the rectangle `min..=max` (clipped to
    /// the layer) for which `accept` holds; ties go to the first in row-major order.
    pub fn best_in(&self, min: IVec2, max: IVec2, accept: impl Fn(IVec2) -> bool) -> Option<(IVec2, f32)> {
        let lo = min.max(IVec2::ZERO);
        let hi = max.min(IVec2::new(self.width as i32 - 1, self.height as i32 - 1));
        let mut best: Option<(IVec2, f32)> = None;
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let c = IVec2::new(x, y);
                let v = self.at(c);
                if accept(c) && best.is_none_or(|(_, b)| v > b) {
                    best = Some((c, v));
                }
            }
        }
        best
    }

    /// The layer as text, one row a line, each value with `decimals` decimals (for tests and the
    /// `dump influence` command).
    pub fn to_text(&self, decimals: usize) -> String {
        let mut s = String::new();
        for y in 0..self.height {
            let row: Vec<String> = self.row(y).iter().map(|v| format!("{v:.decimals$}")).collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combine_sum_max_min_difference_product() {
        let a = Layer::from_rows(&[&[1.0, 5.0], &[-2.0, 0.5]]).unwrap();
        let b = Layer::from_rows(&[&[2.0, 3.0], &[-1.0, 4.0]]).unwrap();
        let run = |op| {
            let mut c = a.clone();
            assert!(c.combine_with(&b, op));
            c.values().to_vec()
        };
        assert_eq!(run(Combine::Sum), [3.0, 8.0, -3.0, 4.5]);
        assert_eq!(run(Combine::Max), [2.0, 5.0, -1.0, 4.0]);
        assert_eq!(run(Combine::Min), [1.0, 3.0, -2.0, 0.5]);
        assert_eq!(run(Combine::Difference), [-1.0, 2.0, -1.0, -3.5]);
        assert_eq!(run(Combine::Product), [2.0, 15.0, 2.0, 2.0]);
        let mut wrong = Layer::new(3, 1);
        assert!(!wrong.combine_with(&a, Combine::Sum), "shape mismatch is refused");
        assert!(!wrong.add_weighted(&a, 1.0));
    }

    #[test]
    fn indexing_best_cell_and_text() {
        let mut l = Layer::new(3, 2);
        assert!(l.set(IVec2::new(2, 1), 7.0));
        assert!(!l.set(IVec2::new(3, 0), 1.0));
        assert_eq!(l.at(IVec2::new(-1, 0)), 0.0);
        assert_eq!(l.index(IVec2::new(2, 1)), Some(5));
        assert_eq!(l.cell_at(5), IVec2::new(2, 1));
        assert!(l.add(IVec2::new(0, 0), 2.0));
        assert_eq!(l.best_in(IVec2::new(-5, -5), IVec2::new(9, 9), |_| true), Some((IVec2::new(2, 1), 7.0)));
        assert_eq!(l.best_in(IVec2::ZERO, IVec2::new(1, 1), |_| true), Some((IVec2::new(0, 0), 2.0)));
        assert_eq!(l.best_in(IVec2::ZERO, IVec2::new(9, 9), |c| c.x == 1), Some((IVec2::new(1, 0), 0.0)));
        assert_eq!(l.range(), Some((0.0, 7.0)));
        assert_eq!(l.total(), 9.0);
        assert_eq!(l.to_text(1), "2.0 0.0 0.0\n0.0 0.0 7.0\n");
        assert!(Layer::from_rows(&[&[1.0], &[1.0, 2.0]]).is_none());
        assert!(Layer::from_values(2, 2, vec![0.0; 3]).is_none());
    }
}

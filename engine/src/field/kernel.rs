//! Convolution kernels: Gaussian (binomial), box blur, sharpen, edge detection, and separable
//! pairs of vectors (000 §6.2.7).

use super::error::FieldError;

/// A square convolution matrix of odd side `2·half + 1`, row-major; entry `(kx, ky)` weighs the
/// source cell at offset `(kx − half, ky − half)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    side: usize,
    weights: Vec<f32>,
}

impl Kernel {
    /// A kernel from its side and row-major weights. The side must be odd and the weights finite
    /// and `side²` long.
    pub fn new(side: usize, weights: Vec<f32>) -> Result<Self, FieldError> {
        if side == 0 || side.is_multiple_of(2) {
            return Err(FieldError::BadKernel("the side must be odd"));
        }
        if weights.len() != side * side {
            return Err(FieldError::BadKernel("a kernel needs side × side weights"));
        }
        if weights.iter().any(|w| !w.is_finite()) {
            return Err(FieldError::BadKernel("weights must be finite"));
        }
        Ok(Kernel { side, weights })
    }

    /// The Gaussian of size `half` (side `2·half + 1`): the outer product of the binomial row with
    /// itself divided by the sum of its elements (16 for size 1, 256 for size 2; L1306-1316).
    pub fn gaussian(half: usize) -> Self {
        Separable::gaussian(half).to_kernel()
    }

    /// A box blur: every cell of the `(2·half + 1)²` window weighs the same.
    pub fn box_blur(half: usize) -> Self {
        let side = 2 * half + 1;
        Kernel { side, weights: vec![1.0 / (side * side) as f32; side * side] }
    }

    /// The 3×3 sharpening matrix of L1494-1497: a positive centre surrounded by negatives, `−b` on
    /// the four sides and `−c` on the corners (the chapter asks for positive `b`, `c` with usually
    /// `c < b`). The centre is `1 + 4b + 4c`, so the weights sum to 1 and the average level of the
    /// map is kept.
    pub fn sharpen(b: f32, c: f32) -> Result<Self, FieldError> {
        let a = 1.0 + 4.0 * b + 4.0 * c;
        Kernel::new(3, vec![-c, -b, -c, -b, a, -b, -c, -b, -c])
    }

    /// Edge detection (the 8-neighbour Laplacian): zero on flat areas, large where values change.
    pub fn edge_detect() -> Self {
        Kernel { side: 3, weights: vec![-1.0, -1.0, -1.0, -1.0, 8.0, -1.0, -1.0, -1.0, -1.0] }
    }

    /// The side length.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The half-size (the chapter's "size": 1 for 3×3, 2 for 5×5).
    pub fn half(&self) -> usize {
        self.side / 2
    }

    /// The weights, row-major.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The weight at kernel column `kx`, row `ky`.
    pub fn weight(&self, kx: usize, ky: usize) -> f32 {
        self.weights[ky * self.side + kx]
    }

    /// The sum of all weights.
    pub fn sum(&self) -> f32 {
        self.weights.iter().sum()
    }
}

/// A kernel that is the outer product of a horizontal and a vertical vector, applied as a vertical
/// pass then a horizontal pass: `O(s)` instead of `O(s²)` work per cell (L1323-1489).
#[derive(Debug, Clone, PartialEq)]
pub struct Separable {
    horizontal: Vec<f32>,
    vertical: Vec<f32>,
}

impl Separable {
    /// A separable kernel from its two vectors, which must have the same odd length and finite
    /// weights (the chapter allows them to differ).
    pub fn new(horizontal: Vec<f32>, vertical: Vec<f32>) -> Result<Self, FieldError> {
        if horizontal.len() != vertical.len() || horizontal.len().is_multiple_of(2) {
            return Err(FieldError::BadKernel("separable vectors need the same odd length"));
        }
        if horizontal.iter().chain(&vertical).any(|w| !w.is_finite()) {
            return Err(FieldError::BadKernel("weights must be finite"));
        }
        Ok(Separable { horizontal, vertical })
    }

    /// The Gaussian of size `half`: both vectors are the binomial row `2·half` normalised to sum 1,
    /// so their outer product is [`Kernel::gaussian`].
    pub fn gaussian(half: usize) -> Self {
        let row = binomial_row(2 * half);
        let sum: f32 = row.iter().sum();
        let v: Vec<f32> = row.iter().map(|x| x / sum).collect();
        Separable { horizontal: v.clone(), vertical: v }
    }

    /// The horizontal vector.
    pub fn horizontal(&self) -> &[f32] {
        &self.horizontal
    }

    /// The vertical vector.
    pub fn vertical(&self) -> &[f32] {
        &self.vertical
    }

    /// The half-size.
    pub fn half(&self) -> usize {
        self.horizontal.len() / 2
    }

    /// The equivalent full matrix: entry `(kx, ky)` is `horizontal[kx] · vertical[ky]`.
    pub fn to_kernel(&self) -> Kernel {
        let side = self.horizontal.len();
        let weights = self.vertical.iter().flat_map(|&v| self.horizontal.iter().map(move |&h| h * v)).collect();
        Kernel { side, weights }
    }
}

/// Row `n` of Pascal's triangle as floats: `[1 2 1]`, `[1 4 6 4 1]`, `[1 6 15 20 15 6 1]` … (L1306-1313).
pub fn binomial_row(n: usize) -> Vec<f32> {
    let mut row = vec![1.0f64];
    for _ in 0..n {
        let mut next = vec![1.0; row.len() + 1];
        for i in 1..row.len() {
            next[i] = row[i - 1] + row[i];
        }
        row = next;
    }
    row.into_iter().map(|x| x as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_rows_are_the_chapters() {
        assert_eq!(binomial_row(2), [1.0, 2.0, 1.0]);
        assert_eq!(binomial_row(4), [1.0, 4.0, 6.0, 4.0, 1.0]);
        assert_eq!(binomial_row(6), [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0]);
        assert_eq!(binomial_row(8), [1.0, 8.0, 28.0, 56.0, 70.0, 56.0, 28.0, 8.0, 1.0]);
    }

    #[test]
    fn gaussian_5x5_is_the_outer_product_over_256() {
        let k = Kernel::gaussian(2);
        let raw = [1.0, 4.0, 6.0, 4.0, 1.0];
        for ky in 0..5 {
            for kx in 0..5 {
                assert_eq!(k.weight(kx, ky), raw[kx] * raw[ky] / 256.0);
            }
        }
        assert_eq!(k.weight(2, 2), 36.0 / 256.0);
        assert_eq!(k.sum(), 1.0);
        let k3 = Kernel::gaussian(1);
        assert_eq!(k3.weights(), &[1.0, 2.0, 1.0, 2.0, 4.0, 2.0, 1.0, 2.0, 1.0].map(|x| x / 16.0));
    }

    #[test]
    fn sharpen_edge_and_bad_kernels() {
        let s = Kernel::sharpen(0.5, 0.25).unwrap();
        assert_eq!(s.weight(1, 1), 4.0);
        assert_eq!(s.weight(0, 0), -0.25);
        assert_eq!(s.weight(1, 0), -0.5);
        assert_eq!(s.sum(), 1.0);
        assert_eq!(Kernel::edge_detect().sum(), 0.0);
        assert_eq!(Kernel::box_blur(1).sum(), 1.0);
        assert!(Kernel::new(2, vec![0.0; 4]).is_err());
        assert!(Kernel::new(3, vec![0.0; 8]).is_err());
        assert!(Kernel::new(1, vec![f32::NAN]).is_err());
        assert!(Separable::new(vec![1.0, 2.0, 1.0], vec![1.0]).is_err());
        assert!(Separable::new(vec![1.0, 1.0], vec![1.0, 1.0]).is_err());
    }
}

//! Membership functions and fuzzy operators (chapter 10).
//!
//! The book's `FuzzyTriangle` and `FuzzyTrapezoid` have no branch for inputs right of the shape
//! and return negative values there (e.g. `FuzzyTrapezoid(33, -40, -25, -15, 0)` = −2.2, while
//! Table 10-1 prints 0.0). Every function here is clamped: 0 outside the support, never below 0
//! or above 1.

use serde::{Deserialize, Serialize};

/// The shape of a fuzzy set: maps a crisp input to a degree of membership in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case", deny_unknown_fields)]
pub enum Membership {
    /// Crisp (Boolean) membership: 0 up to and including `x0`, 1 above it (Fig. 10-2).
    Crisp {
        /// The threshold.
        x0: f64,
    },
    /// Rises from 0 at `x0` to 1 at `x1` (Fig. 10-3).
    Grade {
        /// Last input with degree 0.
        x0: f64,
        /// First input with degree 1.
        x1: f64,
    },
    /// Falls from 1 at `x0` to 0 at `x1` (Fig. 10-6).
    ReverseGrade {
        /// Last input with degree 1.
        x0: f64,
        /// First input with degree 0.
        x1: f64,
    },
    /// 0 at `x0`, 1 at `x1`, 0 at `x2` (Fig. 10-5).
    Triangle {
        /// Left foot.
        x0: f64,
        /// Peak.
        x1: f64,
        /// Right foot.
        x2: f64,
    },
    /// 0 at `x0`, 1 from `x1` to `x2`, 0 at `x3` (Fig. 10-7).
    Trapezoid {
        /// Left foot.
        x0: f64,
        /// Left shoulder.
        x1: f64,
        /// Right shoulder.
        x2: f64,
        /// Right foot.
        x3: f64,
    },
}

impl Membership {
    /// The degree of membership of `x`, in `[0, 1]`.
    pub fn degree(&self, x: f64) -> f64 {
        match *self {
            Membership::Crisp { x0 } => f64::from(u8::from(x > x0)),
            Membership::Grade { x0, x1 } => grade(x, x0, x1),
            Membership::ReverseGrade { x0, x1 } => reverse_grade(x, x0, x1),
            Membership::Triangle { x0, x1, x2 } => triangle(x, x0, x1, x2),
            Membership::Trapezoid { x0, x1, x2, x3 } => trapezoid(x, x0, x1, x2, x3),
        }
    }

    /// The input range outside which the degree is constant (used to sample centroids).
    pub fn support(&self) -> (f64, f64) {
        match *self {
            Membership::Crisp { x0 } => (x0, x0),
            Membership::Grade { x0, x1 } | Membership::ReverseGrade { x0, x1 } => (x0, x1),
            Membership::Triangle { x0, x2, .. } => (x0, x2),
            Membership::Trapezoid { x0, x3, .. } => (x0, x3),
        }
    }
}

/// `FuzzyGrade`: 0 for `x ≤ x0`, 1 for `x ≥ x1`, linear between.
pub fn grade(x: f64, x0: f64, x1: f64) -> f64 {
    if x <= x0 {
        0.0
    } else if x >= x1 {
        1.0
    } else {
        (x - x0) / (x1 - x0)
    }
}

/// `FuzzyReverseGrade`: 1 for `x ≤ x0`, 0 for `x ≥ x1`, linear between.
pub fn reverse_grade(x: f64, x0: f64, x1: f64) -> f64 {
    if x <= x0 {
        1.0
    } else if x >= x1 {
        0.0
    } else {
        (x1 - x) / (x1 - x0)
    }
}

/// `FuzzyTriangle`, clamped to 0 right of `x2` (the book's version goes negative there).
pub fn triangle(x: f64, x0: f64, x1: f64, x2: f64) -> f64 {
    if x <= x0 || x >= x2 {
        0.0
    } else if x == x1 {
        1.0
    } else if x < x1 {
        (x - x0) / (x1 - x0)
    } else {
        (x2 - x) / (x2 - x1)
    }
}

/// `FuzzyTrapezoid`, clamped to 0 right of `x3` (the book's version goes negative there).
pub fn trapezoid(x: f64, x0: f64, x1: f64, x2: f64, x3: f64) -> f64 {
    if x <= x0 || x >= x3 {
        0.0
    } else if x >= x1 && x <= x2 {
        1.0
    } else if x < x1 {
        (x - x0) / (x1 - x0)
    } else {
        (x3 - x) / (x3 - x2)
    }
}

/// Fuzzy AND: the minimum (the book's `FuzzyAND`).
pub fn and(a: f64, b: f64) -> f64 {
    a.min(b)
}

/// Fuzzy OR: the maximum (`FuzzyOR`).
pub fn or(a: f64, b: f64) -> f64 {
    a.max(b)
}

/// Fuzzy NOT: `1 − a` (`FuzzyNOT`).
pub fn not(a: f64) -> f64 {
    1.0 - a
}

/// The hedge VERY: `a²`.
pub fn very(a: f64) -> f64 {
    a * a
}

/// The hedge NOT_VERY (somewhat): `√a`.
pub fn not_very(a: f64) -> f64 {
    a.max(0.0).sqrt()
}

/// Which AND and OR a rule base uses (L5170–5174).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Operators {
    /// AND = min, OR = max (the default, Zadeh's).
    #[default]
    MinMax,
    /// AND = product, OR = probabilistic sum `a + b − ab`.
    ProductProbabilistic,
}

impl Operators {
    /// AND under these operators.
    pub fn and(self, a: f64, b: f64) -> f64 {
        match self {
            Operators::MinMax => and(a, b),
            Operators::ProductProbabilistic => a * b,
        }
    }

    /// OR under these operators.
    pub fn or(self, a: f64, b: f64) -> f64 {
        match self {
            Operators::MinMax => or(a, b),
            Operators::ProductProbabilistic => a + b - a * b,
        }
    }
}

/// Singleton defuzzification, `Σ μᵢxᵢ / Σ μᵢ` (L5241–5247); `None` when every degree is 0 (the
/// book divides by zero there).
pub fn weighted_average(pairs: impl IntoIterator<Item = (f64, f64)>) -> Option<f64> {
    let (num, den) = pairs.into_iter().fold((0.0, 0.0), |(n, d), (mu, x)| (n + mu * x, d + mu));
    (den > 0.0).then(|| num / den)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn crisp_and_grade_weight_examples() {
        // WE-04: crisp at 170 lb; grade overweight from 175 to 195.
        let crisp = Membership::Crisp { x0: 170.0 };
        assert_eq!(crisp.degree(169.9), 0.0);
        assert_eq!(crisp.degree(170.5), 1.0);
        assert_eq!(grade(170.0, 175.0, 195.0), 0.0);
        assert_eq!(grade(185.0, 175.0, 195.0), 0.5);
    }

    #[test]
    fn steering_bearing_example_is_clamped() {
        // WE-08: relative bearing +33°.
        let far_left = reverse_grade(33.0, -40.0, -30.0);
        let left = trapezoid(33.0, -40.0, -25.0, -15.0, 0.0);
        let ahead = triangle(33.0, -10.0, 0.0, 10.0); // the book prints (-10, 10): a misprint.
        let right = trapezoid(33.0, 0.0, 15.0, 25.0, 40.0);
        let far_right = grade(33.0, 30.0, 40.0);
        assert_eq!((far_left, left, ahead), (0.0, 0.0, 0.0));
        assert!(close(right, 7.0 / 15.0, 1e-12));
        assert!(close(far_right, 0.3, 1e-12));
        let force = (far_left + left) * -100.0 + (right + far_right) * 100.0;
        assert!(close(force, 77.0, 0.5), "{force}");
    }

    #[test]
    fn operators_and_hedges() {
        // WE-06: overweight 0.7, tall 0.3.
        assert_eq!(and(0.7, 0.3), 0.3);
        assert_eq!(or(0.7, 0.3), 0.7);
        assert!(close(not(0.7), 0.3, 1e-12));
        assert!(close(not(and(0.7, 0.3)), 0.7, 1e-12));
        let p = Operators::ProductProbabilistic;
        assert!(close(p.and(0.7, 0.3), 0.21, 1e-12));
        assert!(close(p.or(0.7, 0.3), 0.79, 1e-12));
        assert!(close(very(0.7), 0.49, 1e-12));
        assert!(close(not_very(0.7), 0.83666, 1e-5));
    }

    #[test]
    fn weighted_average_examples() {
        // WE-07: the printed aggregate uses 0.3 for attack (a misprint of 0.2); both are checked.
        let printed = weighted_average([(0.7, -10.0), (0.4, 1.0), (0.3, 10.0)]).unwrap();
        assert!(close(printed, -2.5714, 1e-4));
        let fixed = weighted_average([(0.7, -10.0), (0.4, 1.0), (0.2, 10.0)]).unwrap();
        assert!(close(fixed, -3.5385, 1e-4));
        assert_eq!(weighted_average([(0.0, 5.0)]), None);
    }

    proptest::proptest! {
        #[test]
        fn every_shape_stays_in_unit_interval(x in -1e3..1e3f64, a in -100.0..100.0f64, d1 in 0.0..50.0f64,
                                              d2 in 0.0..50.0f64, d3 in 0.0..50.0f64) {
            let shapes = [
                Membership::Grade { x0: a, x1: a + d1 },
                Membership::ReverseGrade { x0: a, x1: a + d1 },
                Membership::Triangle { x0: a, x1: a + d1, x2: a + d1 + d2 },
                Membership::Trapezoid { x0: a, x1: a + d1, x2: a + d1 + d2, x3: a + d1 + d2 + d3 },
            ];
            for s in shapes {
                let m = s.degree(x);
                proptest::prop_assert!((0.0..=1.0).contains(&m), "{s:?} at {x} gave {m}");
                let (lo, hi) = s.support();
                if x < lo || x > hi {
                    proptest::prop_assert!(m == 0.0 || m == 1.0);
                }
            }
        }
    }
}

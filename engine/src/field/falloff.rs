//! How a unit's influence fades with distance (000 §6.2.2).

use glam::IVec2;

/// The shape of a source's influence over distance `d`, from its intrinsic strength `I₀` at
/// `d = 0`. Every source also has a radius beyond which it has no influence at all (the chapter's
/// first speed-up, "limited radius of influence").
///
/// The chapter's formulas were images that did not survive (000 digest §0, L591-593); the shapes
/// here follow its prose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Falloff {
    /// `I₀ · (1 − d / radius)`: a straight ramp that reaches zero at the radius.
    Linear,
    /// `I₀ / (1 + d)`: "distance doubles → influence halves", the chapter's default "linear
    /// drop-off" (L590-591), which it recommends as fast and good enough.
    Inverse,
    /// `I₀ · e^(−rate · d)`: a faster initial drop with a longer tail (L591-592).
    Exponential {
        /// Decay per unit distance; larger fades faster.
        rate: f32,
    },
    /// `I₀` everywhere inside the radius: flat, then a sudden drop (the limit of L592-593's
    /// "flat at first, then dropping quickly").
    Constant,
}

impl Falloff {
    /// The influence at distance `d` of a source of strength `strength` and radius `radius`
    /// (zero at or beyond the radius, and for negative or NaN distances treated as zero).
    pub fn at(self, strength: f32, radius: f32, d: f32) -> f32 {
        let d = if d.is_nan() { 0.0 } else { d.max(0.0) };
        if d > radius {
            return 0.0;
        }
        match self {
            Falloff::Linear if radius > 0.0 => strength * (1.0 - d / radius),
            Falloff::Linear => strength,
            Falloff::Inverse => strength / (1.0 + d),
            Falloff::Exponential { rate } => strength * (-rate.max(0.0) * d).exp(),
            Falloff::Constant => strength,
        }
    }

    /// The falloff a scenario or attribute names: `linear`, `inverse`, `constant`, or
    /// `exponential(RATE)` (`exponential` alone is rate 0.5). `None` for anything else.
    pub fn parse(text: &str) -> Option<Falloff> {
        match text.trim() {
            "linear" => Some(Falloff::Linear),
            "inverse" => Some(Falloff::Inverse),
            "constant" => Some(Falloff::Constant),
            "exponential" => Some(Falloff::Exponential { rate: 0.5 }),
            t => {
                let rate = t.strip_prefix("exponential(")?.strip_suffix(')')?.trim().parse::<f32>().ok()?;
                (rate.is_finite() && rate >= 0.0).then_some(Falloff::Exponential { rate })
            }
        }
    }

    /// The radius at which this falloff drops below `threshold` for a source of `strength`: the
    /// chapter derives a unit's radius of influence from its falloff and an influence threshold
    /// (L605-607, formula lost). `None` for [`Falloff::Linear`] and [`Falloff::Constant`], whose
    /// radius is a free parameter, and for a non-positive threshold or strength.
    pub fn radius_for_threshold(self, strength: f32, threshold: f32) -> Option<f32> {
        let (s, t) = (strength.abs(), threshold);
        if t <= 0.0 || s <= 0.0 || !s.is_finite() {
            return None;
        }
        match self {
            // s / (1 + r) = t  ⇒  r = s / t − 1
            Falloff::Inverse => Some((s / t - 1.0).max(0.0)),
            // s · e^(−k r) = t  ⇒  r = ln(s / t) / k
            Falloff::Exponential { rate } if rate > 0.0 => Some(((s / t).ln() / rate).max(0.0)),
            _ => None,
        }
    }
}

/// How distance between two cells is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// Straight-line distance between cell centres.
    #[default]
    Euclidean,
    /// `|dx| + |dy|` (the chapter's exercise 8 uses it).
    Manhattan,
    /// `max(|dx|, |dy|)`.
    Chebyshev,
}

impl Metric {
    /// The distance between cells `a` and `b`.
    pub fn distance(self, a: IVec2, b: IVec2) -> f32 {
        let d = (a - b).abs();
        match self {
            Metric::Euclidean => d.as_vec2().length(),
            Metric::Manhattan => (d.x + d.y) as f32,
            Metric::Chebyshev => d.max_element() as f32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_match_their_formulas() {
        assert_eq!(Falloff::Linear.at(8.0, 4.0, 1.0), 6.0);
        assert_eq!(Falloff::Linear.at(8.0, 4.0, 4.5), 0.0, "nothing beyond the radius");
        // "distance doubles → influence halves", measured as 1 + d.
        assert_eq!(Falloff::Inverse.at(12.0, 99.0, 1.0), 6.0);
        assert_eq!(Falloff::Inverse.at(12.0, 99.0, 3.0), 3.0);
        let e = Falloff::Exponential { rate: 0.5 }.at(2.0, 10.0, 2.0);
        assert!((e - 2.0 * (-1.0f32).exp()).abs() < 1e-6);
        assert_eq!(Falloff::Constant.at(3.0, 2.0, 2.0), 3.0);
        assert_eq!(Falloff::Constant.at(3.0, 2.0, f32::NAN), 3.0);
    }

    #[test]
    fn names_parse() {
        assert_eq!(Falloff::parse("linear"), Some(Falloff::Linear));
        assert_eq!(Falloff::parse(" inverse "), Some(Falloff::Inverse));
        assert_eq!(Falloff::parse("constant"), Some(Falloff::Constant));
        assert_eq!(Falloff::parse("exponential"), Some(Falloff::Exponential { rate: 0.5 }));
        assert_eq!(Falloff::parse("exponential( 0.25)"), Some(Falloff::Exponential { rate: 0.25 }));
        for bad in ["exponential(-1)", "exponential(nan)", "exponential(x)", "cubic", ""] {
            assert_eq!(Falloff::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn radius_from_threshold_is_where_influence_reaches_it() {
        let r = Falloff::Inverse.radius_for_threshold(10.0, 0.5).unwrap();
        assert_eq!(r, 19.0);
        assert!((Falloff::Inverse.at(10.0, r, r) - 0.5).abs() < 1e-6);
        let k = Falloff::Exponential { rate: 0.25 };
        let r = k.radius_for_threshold(10.0, 0.5).unwrap();
        assert!((k.at(10.0, r, r) - 0.5).abs() < 1e-5);
        assert_eq!(Falloff::Linear.radius_for_threshold(10.0, 0.5), None);
        assert_eq!(Falloff::Inverse.radius_for_threshold(10.0, 0.0), None);
    }

    #[test]
    fn metrics() {
        let (a, b) = (IVec2::new(0, 0), IVec2::new(3, -4));
        assert_eq!(Metric::Euclidean.distance(a, b), 5.0);
        assert_eq!(Metric::Manhattan.distance(a, b), 7.0);
        assert_eq!(Metric::Chebyshev.distance(a, b), 4.0);
    }
}

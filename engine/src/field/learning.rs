//! Learning maps: start blank and change values when interesting things happen (000 §6.2.4).

use glam::IVec2;

use super::layer::Layer;

/// A frag map: where fighting went well (positive) and badly (negative), learned from what the AI
/// sees, with optional forgetting so that it adapts to the player.
///
/// On every recorded hit, all values are first multiplied by `decay` (the chapter's 0.9 in Fig
/// 6.13; 1 means never forget), then the attacker's cell gains and the victim's cell loses. Blur
/// it ([`crate::field::convolve_separable`]) to spread what was learned to cells not yet
/// experienced (L661).
#[derive(Debug, Clone, PartialEq)]
pub struct FragMap {
    layer: Layer,
    decay: f32,
}

impl FragMap {
    /// A blank map (all zero) that multiplies by `decay` before each record (clamped to `[0, 1]`).
    pub fn new(width: u32, height: u32, decay: f32) -> Self {
        FragMap { layer: Layer::new(width, height), decay: if decay.is_nan() { 1.0 } else { decay.clamp(0.0, 1.0) } }
    }

    /// A map that starts from a pre-learned layer (compiled in testing, L663).
    pub fn from_layer(layer: Layer, decay: f32) -> Self {
        FragMap { layer, ..Self::new(0, 0, decay) }
    }

    /// The learned values.
    pub fn layer(&self) -> &Layer {
        &self.layer
    }

    /// The forgetting factor.
    pub fn decay(&self) -> f32 {
        self.decay
    }

    /// A kill seen by the AI: +1 at the attacker's cell, −1 at the victim's (the fixed value per
    /// kill most implementations use, L658-659), after forgetting.
    pub fn record_frag(&mut self, attacker: IVec2, victim: IVec2) {
        self.record_hit(attacker, victim, 1.0);
    }

    /// A hit of weight `amount` (a smaller value for a non-lethal hit, or one proportional to the
    /// damage seen): `+amount` at the attacker, `−amount` at the victim, after forgetting.
    /// Cells off the map are ignored; a non-finite amount records nothing.
    pub fn record_hit(&mut self, attacker: IVec2, victim: IVec2, amount: f32) {
        if !amount.is_finite() {
            return;
        }
        if self.decay != 1.0 {
            self.layer.scale(self.decay);
        }
        self.layer.add(attacker, amount);
        self.layer.add(victim, -amount);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fig 6.13: A is the best ambush spot from testing; in play the AI is killed at A ten times,
    /// five times each from B and from C (alternating).
    fn fig_6_13(decay: f32) -> FragMap {
        let (a, b, c) = (IVec2::new(0, 0), IVec2::new(1, 0), IVec2::new(2, 0));
        let mut m = FragMap::from_layer(Layer::from_rows(&[&[20.0, 0.0, 0.0]]).unwrap(), decay);
        for k in 0..10 {
            m.record_frag(if k % 2 == 0 { b } else { c }, a);
        }
        m
    }

    #[test]
    fn plus_one_at_attacker_minus_one_at_victim() {
        let mut m = FragMap::new(3, 1, 1.0);
        m.record_frag(IVec2::new(2, 0), IVec2::new(0, 0));
        assert_eq!(m.layer().values(), &[-1.0, 0.0, 1.0]);
        m.record_hit(IVec2::new(1, 0), IVec2::new(2, 0), 0.25);
        assert_eq!(m.layer().values(), &[-1.0, 0.25, 0.75]);
        m.record_hit(IVec2::new(9, 9), IVec2::new(0, 0), f32::NAN);
        assert_eq!(m.layer().values(), &[-1.0, 0.25, 0.75]);
    }

    #[test]
    fn without_forgetting_a_stays_the_best_spot() {
        let m = fig_6_13(1.0);
        assert_eq!(m.layer().values(), &[10.0, 5.0, 5.0]);
    }

    #[test]
    fn forgetting_by_0_9_before_each_frag_drops_a() {
        let m = fig_6_13(0.9);
        // Independent arithmetic: A = 20·0.9¹⁰ − Σ_{k<10} 0.9^k; B's frags came at k = 0, 2, … 8,
        // C's at 1, 3, … 9, each decayed by the frags after it.
        let p = |n: i32| 0.9f64.powi(n);
        let a = 20.0 * p(10) - (0..10).map(p).sum::<f64>();
        let b: f64 = [0, 2, 4, 6, 8].iter().map(|k| p(9 - k)).sum();
        let c: f64 = [1, 3, 5, 7, 9].iter().map(|k| p(9 - k)).sum();
        let v = m.layer().values();
        assert!((f64::from(v[0]) - a).abs() < 1e-5, "{} vs {a}", v[0]);
        assert!((f64::from(v[1]) - b).abs() < 1e-5);
        assert!((f64::from(v[2]) - c).abs() < 1e-5);
        assert!(v[0] < v[1] && v[0] < v[2], "the AI no longer picks A: {v:?}");
        assert!((a - 0.4604).abs() < 1e-3 && (b - 3.0852).abs() < 1e-3 && (c - 3.4280).abs() < 1e-3);
    }
}

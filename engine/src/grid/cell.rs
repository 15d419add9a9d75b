//! The cell a point is in, without a call into the C library.

use glam::{IVec2, Vec2};

/// The cell that covers `p`: exactly `p.floor().as_ivec2()` for every `p` (NaN, infinities and
/// points beyond `i32`'s range saturate alike). Every walker, every tick, asks for its cell and
/// its line's cells several times; on the baseline x86-64 target `f32::floor` is a call to
/// `floorf`, while a truncating conversion is one instruction.
#[inline]
pub fn cell_of(p: Vec2) -> IVec2 {
    IVec2::new(floor_to_i32(p.x), floor_to_i32(p.y))
}

/// `v.floor() as i32`. The conversion truncates toward zero (saturating; NaN gives 0); below
/// zero a dropped fraction means one less. `t as f32` is exact here: a float with a fraction is
/// below 2²³ in magnitude, and one without converts back to itself.
#[inline]
fn floor_to_i32(v: f32) -> i32 {
    let t = v as i32;
    if (t as f32) > v { t.saturating_sub(1) } else { t }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn edges_saturate_as_floor_does() {
        for v in [
            0.0,
            -0.0,
            -0.5,
            0.5,
            -1.0,
            1.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            2_147_483_648.0,
            -2_147_483_648.0,
            -2_147_483_904.0,
            8_388_607.5,
            -8_388_607.5,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            -1e-45,
        ] {
            assert_eq!(floor_to_i32(v), v.floor() as i32, "{v}");
        }
    }

    proptest! {
        /// Any bit pattern at all: the same cell as the library's floor.
        #[test]
        fn agrees_with_floor(x in any::<u32>(), y in any::<u32>()) {
            let p = Vec2::new(f32::from_bits(x), f32::from_bits(y));
            prop_assert_eq!(cell_of(p), p.floor().as_ivec2());
        }

        /// Points on and near a map, where walkers are.
        #[test]
        fn agrees_with_floor_near_maps(x in -300.0f32..300.0, y in -300.0f32..300.0) {
            let p = Vec2::new(x, y);
            prop_assert_eq!(cell_of(p), p.floor().as_ivec2());
        }
    }
}

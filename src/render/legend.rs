//! A heat map with its legend: the scene as [`super::draw`] draws it, plus a strip underneath with
//! the colour ramp from the lowest to the highest value and both numbers written at its ends.
//!
//! The numbers are drawn with a 3×5 pixel font of the few characters a number needs, so no font
//! file or font crate is involved.

use image::{Rgb, RgbImage};

use super::{Scene, Style, blend, draw};

/// Height of the legend strip in pixels.
pub const LEGEND_PX: u32 = 28;
/// Rows of the colour ramp inside the strip.
const RAMP: std::ops::Range<u32> = 4..14;
/// Top row of the numbers inside the strip.
const TEXT_TOP: u32 = 16;
/// Pixels per font pixel.
const FONT_SCALE: u32 = 2;

/// Draws `scene` with its heat layer and a legend strip of [`LEGEND_PX`] pixels below the map:
/// the ramp spans the whole width (left = `heat.low`, right = `heat.high`, blended over the floor
/// colour exactly as the cells are), the low value is written at the left end and the high value at
/// the right. Without a heat layer this is [`draw`] with an empty strip.
pub fn draw_with_legend(scene: &Scene<'_>, style: &Style) -> RgbImage {
    let map_img = draw(scene, style);
    let (w, h) = map_img.dimensions();
    let mut img = RgbImage::from_pixel(w, h + LEGEND_PX, Rgb([255, 255, 255]));
    image::imageops::replace(&mut img, &map_img, 0, 0);
    let Some(heat) = scene.heat else { return img };
    for x in 0..w {
        let t = if w > 1 { x as f32 / (w - 1) as f32 } else { 0.0 };
        let c = blend(style.floor, heat.colour(t), style.heat_alpha);
        for y in RAMP {
            img.put_pixel(x, h + y, Rgb(c));
        }
    }
    let (low, high) = (number_text(heat.low), number_text(heat.high));
    write_text(&mut img, 1, h + TEXT_TOP, &low);
    let high_x = w.saturating_sub(text_width(&high) + 1);
    write_text(&mut img, high_x, h + TEXT_TOP, &high);
    img
}

/// A value as the legend writes it: up to three decimals without trailing zeros, or scientific
/// notation for very large and very small magnitudes.
pub fn number_text(v: f32) -> String {
    if !v.is_finite() {
        return "-".to_owned();
    }
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e5).contains(&a) {
        return format!("{v:.2e}");
    }
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_owned() } else { s.to_owned() }
}

/// Rows of a 3×5 glyph, top first, 3 bits each (high bit = left pixel).
fn glyph(c: char) -> [u8; 5] {
    match c {
        '0' => [7, 5, 5, 5, 7],
        '1' => [2, 6, 2, 2, 7],
        '2' => [7, 1, 7, 4, 7],
        '3' => [7, 1, 7, 1, 7],
        '4' => [5, 5, 7, 1, 1],
        '5' => [7, 4, 7, 1, 7],
        '6' => [7, 4, 7, 5, 7],
        '7' => [7, 1, 1, 1, 1],
        '8' => [7, 5, 7, 5, 7],
        '9' => [7, 5, 7, 1, 7],
        '-' => [0, 0, 7, 0, 0],
        '.' => [0, 0, 0, 0, 2],
        'e' => [7, 4, 7, 4, 7],
        '+' => [0, 2, 7, 2, 0],
        _ => [0; 5],
    }
}

/// Width in pixels of `text` (each glyph 3 font pixels plus one of space).
pub fn text_width(text: &str) -> u32 {
    (text.chars().count() as u32 * 4).saturating_sub(1) * FONT_SCALE
}

fn write_text(img: &mut RgbImage, x0: u32, y0: u32, text: &str) {
    for (k, ch) in text.chars().enumerate() {
        let gx = x0 + k as u32 * 4 * FONT_SCALE;
        for (row, bits) in glyph(ch).iter().enumerate() {
            for col in 0..3u32 {
                if bits & (4 >> col) == 0 {
                    continue;
                }
                for dy in 0..FONT_SCALE {
                    for dx in 0..FONT_SCALE {
                        let (x, y) = (gx + col * FONT_SCALE + dx, y0 + row as u32 * FONT_SCALE + dy);
                        if x < img.width() && y < img.height() {
                            img.put_pixel(x, y, Rgb([0, 0, 0]));
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{HeatLayer, heat_rgb};
    use tactica_engine::grid::Map;

    #[test]
    fn numbers_are_short() {
        assert_eq!(number_text(2.5), "2.5");
        assert_eq!(number_text(-0.0001), "-1.00e-4");
        assert_eq!(number_text(3.0), "3");
        assert_eq!(number_text(-0.0), "0");
        assert_eq!(number_text(123456.0), "1.23e5");
        assert_eq!(number_text(0.33333), "0.333");
        assert_eq!(number_text(f32::NAN), "-");
    }

    #[test]
    fn the_strip_ramps_from_low_to_high_and_writes_both_ends() {
        let map = Map::open(8, 2);
        let values = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0];
        let heat = HeatLayer { values: &values, low: 0.0, high: 7.0, hue: None };
        let style = Style { cell_px: 10, ..Style::default() };
        let img = draw_with_legend(&Scene { heat: Some(heat), ..Scene::empty(&map) }, &style);
        assert_eq!(img.dimensions(), (80, 20 + LEGEND_PX));
        let ramp_y = 20 + RAMP.start;
        assert_eq!(img.get_pixel(0, ramp_y).0, blend(style.floor, heat_rgb(0.0), style.heat_alpha));
        assert_eq!(img.get_pixel(79, ramp_y).0, blend(style.floor, heat_rgb(1.0), style.heat_alpha));
        // The ramp's right end is the colour of the hottest cell (7,0).
        assert_eq!(img.get_pixel(79, ramp_y).0, img.get_pixel(75, 5).0);
        // "0" at the left: its top-left font pixel is black, the glyph's hollow centre is not.
        assert_eq!(img.get_pixel(1, 20 + TEXT_TOP).0, [0, 0, 0]);
        assert_eq!(img.get_pixel(1 + FONT_SCALE, 20 + TEXT_TOP + 2 * FONT_SCALE).0, [255, 255, 255]);
        // "7" at the right ends one pixel before the edge: its top row is black there.
        assert_eq!(img.get_pixel(78, 20 + TEXT_TOP).0, [0, 0, 0]);
        assert_eq!(img.get_pixel(79, 20 + TEXT_TOP).0, [255, 255, 255]);
    }
}

//! PNG pictures of a run: the map, agents as arrows, paths, circles and (optionally) a heat map.
//!
//! The engine exposes plain data and never draws (see ARCHITECTURE.md); this module turns that
//! data into an [`image::RgbImage`] and writes numbered PNG frames, so `tactica run --render DIR`
//! and the examples stay thin. Everything here takes plain values — a [`Map`], a list of
//! [`Arrow`]s, polylines, an optional [`HeatLayer`] — and knows nothing of the runtime.
//!
//! ```
//! use glam::Vec2;
//! use tactica::render::{Arrow, Scene, Style, draw};
//! use tactica_engine::grid::Map;
//!
//! let map = Map::open(4, 3);
//! let agents = [Arrow { position: Vec2::new(1.5, 1.5), heading: Vec2::X, color: [255, 0, 0] }];
//! let image = draw(&Scene { map: &map, agents: &agents, ..Scene::empty(&map) }, &Style::default());
//! assert_eq!(image.dimensions(), (4 * 16, 3 * 16));
//! ```

mod frame;
mod legend;
mod world;

pub use frame::{FrameWriter, RenderError};
pub use legend::{LEGEND_PX, draw_with_legend, number_text};
pub use world::{draw_world, team_colour};

use glam::Vec2;
use image::{Rgb, RgbImage};
use tactica_engine::grid::Map;

/// An agent drawn as an arrow from its position along its heading.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Arrow {
    /// Position in map units (cell `(x, y)` covers `[x, x+1) × [y, y+1)`).
    pub position: Vec2,
    /// Direction it faces (need not be unit length; zero draws a dot).
    pub heading: Vec2,
    /// Colour.
    pub color: [u8; 3],
}

/// A polyline (a path, a patrol route, a trail).
#[derive(Debug, Clone, PartialEq)]
pub struct Polyline {
    /// Points in map units.
    pub points: Vec<Vec2>,
    /// Colour.
    pub color: [u8; 3],
}

/// A circle outline (an obstacle, a view radius).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ring {
    /// Centre in map units.
    pub center: Vec2,
    /// Radius in map units.
    pub radius: f32,
    /// Colour.
    pub color: [u8; 3],
}

/// A scalar per cell (influence, danger, …), blended over the map from blue (low) to red (high),
/// or, with a `hue`, from pale to that colour (a team's influence in the team's own colour).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeatLayer<'a> {
    /// Row-major values, one per map cell; non-finite values are not drawn.
    pub values: &'a [f32],
    /// The value drawn fully blue (or pale).
    pub low: f32,
    /// The value drawn fully red (or in the hue).
    pub high: f32,
    /// The colour of the high end, for a one-colour ramp; `None`: blue to red.
    pub hue: Option<[u8; 3]>,
}

impl HeatLayer<'_> {
    /// The colour of `t` in `[0, 1]` along this layer's ramp.
    pub fn colour(&self, t: f32) -> [u8; 3] {
        match self.hue {
            Some(hue) => blend(PALE, hue, t),
            None => heat_rgb(t),
        }
    }
}

/// The low end of a one-colour ramp.
const PALE: [u8; 3] = [250, 250, 250];

/// Everything one frame shows.
#[derive(Debug, Clone, Copy)]
pub struct Scene<'a> {
    /// The map underneath.
    pub map: &'a Map,
    /// Optional heat map over the passable cells.
    pub heat: Option<HeatLayer<'a>>,
    /// Paths, drawn over the map.
    pub paths: &'a [Polyline],
    /// Circles, drawn over the paths.
    pub rings: &'a [Ring],
    /// Agents, drawn last.
    pub agents: &'a [Arrow],
}

impl<'a> Scene<'a> {
    /// A scene with only the map.
    pub fn empty(map: &'a Map) -> Self {
        Scene { map, heat: None, paths: &[], rings: &[], agents: &[] }
    }
}

/// Sizes and colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Pixels per map cell.
    pub cell_px: u32,
    /// Arrow length in map units.
    pub arrow_len: f32,
    /// Colour of passable cells.
    pub floor: [u8; 3],
    /// Colour of blocked cells.
    pub wall: [u8; 3],
    /// How strongly the heat map covers the floor, 0–1.
    pub heat_alpha: f32,
}

impl Default for Style {
    fn default() -> Self {
        Style { cell_px: 16, arrow_len: 0.8, floor: [235, 232, 222], wall: [60, 60, 70], heat_alpha: 0.6 }
    }
}

/// Draws `scene` into a new image of `map.width() × cell_px` by `map.height() × cell_px` pixels.
/// Pixel `(0, 0)` is the map's top-left corner. Costlier passable cells are drawn darker.
pub fn draw(scene: &Scene<'_>, style: &Style) -> RgbImage {
    let map = scene.map;
    let px = style.cell_px.max(1);
    let (w, h) = (map.width().saturating_mul(px).max(1), map.height().saturating_mul(px).max(1));
    let mut img = RgbImage::new(w, h);
    for (i, &cost) in map.costs().iter().enumerate() {
        let cell = map.cell_at(i);
        let mut color = if cost.is_finite() { shade(style.floor, 1.0 / cost.max(1.0).sqrt()) } else { style.wall };
        if let Some(heat) = scene.heat.filter(|_| cost.is_finite())
            && let Some(&v) = heat.values.get(i).filter(|v| v.is_finite())
        {
            let t = ((v - heat.low) / (heat.high - heat.low)).clamp(0.0, 1.0);
            let t = if t.is_finite() { t } else { 0.0 };
            color = blend(color, heat.colour(t), style.heat_alpha);
        }
        fill_rect(&mut img, cell.x as u32 * px, cell.y as u32 * px, px, px, color);
    }
    let to_px = |p: Vec2| p * px as f32;
    for path in scene.paths {
        for seg in path.points.windows(2) {
            draw_line(&mut img, to_px(seg[0]), to_px(seg[1]), path.color);
        }
    }
    for ring in scene.rings {
        draw_ring(&mut img, to_px(ring.center), ring.radius * px as f32, ring.color);
    }
    for a in scene.agents {
        let tip_dir = a.heading.try_normalize().unwrap_or(Vec2::ZERO);
        let (base, tip) = (to_px(a.position), to_px(a.position + tip_dir * style.arrow_len * 0.5));
        let tail = to_px(a.position - tip_dir * style.arrow_len * 0.5);
        draw_line(&mut img, tail, tip, a.color);
        let head = style.arrow_len * 0.35 * px as f32;
        for side in [-1.0f32, 1.0] {
            let back = Vec2::from_angle(side * 2.6).rotate(tip_dir) * head;
            draw_line(&mut img, tip, tip + back, a.color);
        }
        put(&mut img, base, a.color);
    }
    img
}

/// The heat colour of `t` in `[0, 1]`: blue (low) to red (high).
fn heat_rgb(t: f32) -> [u8; 3] {
    [(255.0 * t) as u8, 40, (255.0 * (1.0 - t)) as u8]
}

fn shade(c: [u8; 3], f: f32) -> [u8; 3] {
    c.map(|v| (f32::from(v) * f.clamp(0.0, 1.0)) as u8)
}

fn blend(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    let t = t.clamp(0.0, 1.0);
    [0, 1, 2].map(|k| (f32::from(a[k]) * (1.0 - t) + f32::from(b[k]) * t).round() as u8)
}

fn fill_rect(img: &mut RgbImage, x0: u32, y0: u32, w: u32, h: u32, c: [u8; 3]) {
    for y in y0..(y0 + h).min(img.height()) {
        for x in x0..(x0 + w).min(img.width()) {
            img.put_pixel(x, y, Rgb(c));
        }
    }
}

fn put(img: &mut RgbImage, p: Vec2, c: [u8; 3]) {
    if p.x >= 0.0 && p.y >= 0.0 && (p.x as u32) < img.width() && (p.y as u32) < img.height() {
        img.put_pixel(p.x as u32, p.y as u32, Rgb(c));
    }
}

/// A one-pixel line by uniform sampling (at least one sample per pixel along the longer axis).
fn draw_line(img: &mut RgbImage, a: Vec2, b: Vec2, c: [u8; 3]) {
    if !a.is_finite() || !b.is_finite() {
        return;
    }
    let steps = (b - a).abs().max_element().ceil().min(1e5) as usize;
    for s in 0..=steps {
        let t = if steps == 0 { 0.0 } else { s as f32 / steps as f32 };
        put(img, a.lerp(b, t), c);
    }
}

fn draw_ring(img: &mut RgbImage, center: Vec2, r: f32, c: [u8; 3]) {
    if !center.is_finite() || !r.is_finite() || r <= 0.0 {
        return;
    }
    let steps = ((r * std::f32::consts::TAU).ceil() as usize).clamp(8, 100_000);
    for s in 0..steps {
        let a = s as f32 / steps as f32 * std::f32::consts::TAU;
        put(img, center + Vec2::from_angle(a) * r, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::IVec2;

    fn pixel(img: &RgbImage, x: u32, y: u32) -> [u8; 3] {
        img.get_pixel(x, y).0
    }

    #[test]
    fn map_cells_walls_heat_and_arrows_land_on_their_pixels() {
        let mut map = Map::open(3, 2);
        map.set(IVec2::new(1, 0), b'#', f32::INFINITY);
        let style = Style { cell_px: 10, ..Style::default() };
        let img = draw(&Scene::empty(&map), &style);
        assert_eq!(img.dimensions(), (30, 20));
        assert_eq!(pixel(&img, 15, 5), style.wall, "cell (1,0) is a wall");
        assert_eq!(pixel(&img, 5, 5), style.floor);
        assert_eq!(pixel(&img, 25, 15), style.floor);

        // Heat: cell (2,1) at the top of the range is red-blended, (0,0) at the bottom blue-blended.
        let values = [0.0, 0.0, 0.0, 0.0, 0.0, 10.0];
        let heat = HeatLayer { values: &values, low: 0.0, high: 10.0, hue: None };
        let img = draw(&Scene { heat: Some(heat), ..Scene::empty(&map) }, &style);
        assert_eq!(pixel(&img, 25, 15), blend(style.floor, [255, 40, 0], style.heat_alpha));
        assert_eq!(pixel(&img, 5, 5), blend(style.floor, [0, 40, 255], style.heat_alpha));
        assert_eq!(pixel(&img, 15, 5), style.wall, "walls get no heat");

        // An arrow in cell (0,1) facing +x: its centre pixel and a pixel toward its tip are red;
        // a path along row 0's centre line is drawn in its colour.
        let agents = [Arrow { position: Vec2::new(0.5, 1.5), heading: Vec2::X, color: [255, 0, 0] }];
        let paths = [Polyline { points: vec![Vec2::new(0.0, 0.55), Vec2::new(3.0, 0.55)], color: [0, 0, 255] }];
        let img = draw(&Scene { agents: &agents, paths: &paths, ..Scene::empty(&map) }, &style);
        assert_eq!(pixel(&img, 5, 15), [255, 0, 0]);
        assert_eq!(pixel(&img, 8, 15), [255, 0, 0]);
        assert_eq!(pixel(&img, 5, 12), style.floor, "nothing above the shaft");
        assert_eq!(pixel(&img, 25, 5), [0, 0, 255]);
    }

    #[test]
    fn bad_values_do_not_panic() {
        let map = Map::open(2, 2);
        let agents = [Arrow { position: Vec2::NAN, heading: Vec2::ZERO, color: [1, 2, 3] }];
        let rings = [Ring { center: Vec2::new(1.0, 1.0), radius: f32::INFINITY, color: [1, 1, 1] }];
        let values = [f32::NAN];
        let heat = HeatLayer { values: &values, low: 1.0, high: 1.0, hue: None };
        let img =
            draw(&Scene { agents: &agents, rings: &rings, heat: Some(heat), ..Scene::empty(&map) }, &Style::default());
        assert_eq!(img.dimensions(), (32, 32));
    }
}

//! Draws three tactical maps of a small skirmish as PNG heat maps: the influence balance between
//! two teams, the cover every cell offers, and the front line between the areas each team
//! controls, with cover points condensed from every covered cell.
//!
//! ```text
//! cargo run --example tactical_maps -- docs/img
//! ```
//!
//! writes `influence.png`, `cover.png` and `frontier.png` into the folder given.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use glam::IVec2;
use image::{Rgb, RgbImage};
use tactica_engine::field::{
    CoverParams, Falloff, InfluenceMap, Metric, Source, balance, control, cover_layers, frontier,
};
use tactica_engine::grid::{Map, TerrainCosts, line_of_sight, parse_ascii};
use tactica_engine::tactics::{Candidate, condense};
use tactica_engine::world::WorldRng;

/// The battlefield: `#` walls, `b` blue units, `r` red units (units stand on open ground).
const LEVEL: &str = "\
################################################
#..............#...............................#
#..b...........#..........##...........r.......#
#..............#..........##...................#
#.....b........#...............................#
#..............######..........#####...........#
#...........................................r..#
#..b.....##..........................##........#
#........##.......#......................r.....#
#.................#.........#..................#
#######...........#.........#.........##########
#.................#.........#..................#
#....b............####..#####..................#
#..........................................r...#
#.......##.........................##..........#
#.......##.....b...........................r...#
#..............................................#
#.........#######...........#######............#
#..............................................#
#..b....................##.....................#
#.......................##.............r.......#
#..............................................#
################################################
";

/// Pixels per cell.
const SCALE: u32 = 10;

fn main() -> ExitCode {
    let out = std::env::args_os().nth(1).map_or_else(|| PathBuf::from("."), PathBuf::from);
    match run(&out) {
        Ok(files) => {
            for f in files {
                println!("wrote {}", f.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tactical_maps: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(out: &Path) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    // Made if missing, and never written through a link (`tactica::output`).
    let dir = tactica::output::OutputDir::create(out)?;
    // Unit letters are open ground for the map; their positions become influence sources.
    let width = LEVEL.lines().map(str::len).max().unwrap_or(0);
    let text: String = LEVEL.lines().map(|l| format!("{:<width$}\n", l.replace(['b', 'r'], "."))).collect();
    let map = parse_ascii(text.as_bytes(), Path::new("tactical_maps"), &TerrainCosts::ascii())?;
    let mut influence = InfluenceMap::new(map.width(), map.height(), 2, Metric::Euclidean);
    for (y, line) in LEVEL.lines().enumerate() {
        for (x, ch) in line.chars().enumerate() {
            let team = match ch {
                'b' => 0,
                'r' => 1,
                _ => continue,
            };
            influence.add(Source::new(team, IVec2::new(x as i32, y as i32), 6.0, 14.0, Falloff::Linear))?;
        }
    }

    let balance = balance(influence.layers(), 0)?;
    let control = control(influence.layers())?;
    let front = frontier(&control);
    let mut rng = WorldRng::new(2024);
    let cover_params = CoverParams { radius: 4.0, jitter: 0.6, directions: 16, repeats: 3, room_reach: 3.0 };
    let (cover, _) = cover_layers(&map, &cover_params, &mut rng)?;
    // Cover points: every cell with some cover is a candidate; condensation keeps the best few
    // per area, and a wall between two candidates keeps both.
    let cells: Vec<IVec2> = (0..map.len()).map(|i| map.cell_at(i)).filter(|&c| cover.at(c) >= 0.25).collect();
    let candidates: Vec<Candidate> =
        cells.iter().map(|&c| Candidate { position: c.as_vec2(), value: cover.at(c) }).collect();
    let spots: Vec<IVec2> = condense(&candidates, 0.01, 6.0, |a, b| line_of_sight(&map, cells[a], cells[b]))
        .into_iter()
        .map(|i| cells[i])
        .collect();

    let mut files = Vec::new();
    let mut save = |name: &str, img: RgbImage| -> Result<(), Box<dyn std::error::Error>> {
        let mut bytes = std::io::Cursor::new(Vec::new());
        img.write_to(&mut bytes, image::ImageFormat::Png)?;
        files.push(dir.write_file(name, bytes.get_ref())?);
        Ok(())
    };

    // Influence: blue where blue dominates, red where red does, white where they balance.
    let span = balance.range().map_or(1.0, |(lo, hi)| lo.abs().max(hi.abs()).max(1e-6));
    save("influence.png", draw(&map, |c| diverging(balance.at(c) / span)))?;

    // Cover: black (open) through orange to yellow (full cover).
    save("cover.png", draw(&map, |c| heat(cover.at(c))))?;

    // Frontier: each team's area tinted, the front line in yellow, condensed cover points as
    // white dots.
    let mut img = draw(&map, |c| {
        if front.at(c) > 0.0 {
            return Rgb([255, 220, 40]);
        }
        match control.owner_at(c) {
            Some(0) => Rgb([150, 180, 255]),
            Some(_) => Rgb([255, 160, 150]),
            None => Rgb([235, 235, 235]),
        }
    });
    for s in &spots {
        dot(&mut img, *s, Rgb([255, 255, 255]));
    }
    save("frontier.png", img)?;
    Ok(files)
}

/// One `SCALE × SCALE` block per cell; walls dark grey.
fn draw(map: &Map, colour: impl Fn(IVec2) -> Rgb<u8>) -> RgbImage {
    let mut img = RgbImage::new(map.width() * SCALE, map.height() * SCALE);
    for y in 0..map.height() {
        for x in 0..map.width() {
            let c = IVec2::new(x as i32, y as i32);
            let px = if map.passable(c) { colour(c) } else { Rgb([50, 50, 56]) };
            for dy in 0..SCALE {
                for dx in 0..SCALE {
                    img.put_pixel(x * SCALE + dx, y * SCALE + dy, px);
                }
            }
        }
    }
    img
}

/// A small dot in the middle of a cell, with a dark rim so it shows on any colour.
fn dot(img: &mut RgbImage, cell: IVec2, colour: Rgb<u8>) {
    let (cx, cy) = (cell.x as u32 * SCALE + SCALE / 2, cell.y as u32 * SCALE + SCALE / 2);
    for dy in -3i32..=3 {
        for dx in -3i32..=3 {
            let d2 = dx * dx + dy * dy;
            if d2 > 9 {
                continue;
            }
            let px = if d2 > 4 { Rgb([30, 30, 30]) } else { colour };
            img.put_pixel((cx as i32 + dx) as u32, (cy as i32 + dy) as u32, px);
        }
    }
}

/// +1 (blue's side) → blue, 0 → white, −1 (red's side) → red.
fn diverging(t: f32) -> Rgb<u8> {
    let t = t.clamp(-1.0, 1.0);
    let mix = |a: f32, b: f32, k: f32| (a + (b - a) * k).round() as u8;
    if t >= 0.0 {
        Rgb([mix(255.0, 40.0, t), mix(255.0, 90.0, t), mix(255.0, 220.0, t)])
    } else {
        let k = -t;
        Rgb([mix(255.0, 215.0, k), mix(255.0, 50.0, k), mix(255.0, 40.0, k)])
    }
}

/// 0 → black, 0.5 → orange, 1 → pale yellow.
fn heat(t: f32) -> Rgb<u8> {
    let t = t.clamp(0.0, 1.0);
    let stops = [(0.0, [20.0, 20.0, 30.0]), (0.5, [230.0, 110.0, 20.0]), (1.0, [255.0, 245.0, 160.0])];
    let (a, b) = if t <= 0.5 { (stops[0], stops[1]) } else { (stops[1], stops[2]) };
    let k = (t - a.0) / (b.0 - a.0);
    Rgb([0, 1, 2].map(|i| (a.1[i] + (b.1[i] - a.1[i]) * k).round() as u8))
}

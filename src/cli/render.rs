//! `tactica render`: one tactical layer of a scenario as a PNG heat map over its map, with the
//! entities as arrows and a legend of the value range underneath.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use glam::Vec2;
use tactica_engine::field::TacticalMaps;

use crate::render::{Arrow, HeatLayer, Scene, Style, draw_with_legend, number_text};

/// Arguments of `tactica render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The scenario file (TOML), or a folder holding `scenario.toml`.
    pub scenario: PathBuf,
    /// The layer to draw (`influence.blue`, `cover`, `frontier` …), or `list` to list them.
    #[arg(long)]
    pub layer: String,
    /// Play this many ticks first (scripts included) and draw the layer as it then stands.
    #[arg(long, default_value_t = 0)]
    pub tick: u64,
    /// Pixels per map cell.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub cell_px: u32,
    /// The PNG file to write (required unless `--layer list`).
    #[arg(short, long, value_name = "FILE.png")]
    pub output: Option<PathBuf>,
}

/// Plays the scenario to the tick asked for, then draws or lists its layers.
pub fn render(args: &RenderArgs) -> anyhow::Result<ExitCode> {
    let scenario = match super::load_scenario(&args.scenario) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    let mut rt = match super::start(scenario) {
        Ok(rt) => rt,
        Err(code) => return Ok(code),
    };
    rt.run(args.tick);
    let world = rt.world();
    let Some(maps) = world.tactical() else {
        eprintln!(
            "error: {} keeps no tactical layers\n  hint: add a [field] section (docs/scenario.md)",
            rt.file().display()
        );
        return Ok(ExitCode::from(1));
    };
    if args.layer == "list" {
        for name in maps.layer_names() {
            let (low, high) = range(maps, world, &name);
            println!("{name}\t{}..{}", number_text(low), number_text(high));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if maps.layer(&args.layer).is_none() {
        eprintln!("error: {} keeps no layer `{}`", rt.file().display(), args.layer);
        eprintln!("  hint: {}", suggestion(&args.layer, &maps.layer_names()));
        return Ok(ExitCode::from(1));
    }
    let Some(out) = &args.output else {
        eprintln!("error: say where to write the picture with -o FILE.png");
        return Ok(ExitCode::from(2));
    };
    let values = cell_values(maps, world, &args.layer);
    let (low, high) = range(maps, world, &args.layer);
    let agents: Vec<Arrow> = world
        .entities()
        .map(|(_, e)| Arrow { position: e.position, heading: Vec2::from_angle(e.heading), color: [0, 0, 0] })
        .collect();
    // A flat layer still gets a legend: widen the range so every cell is its low end.
    let high_drawn = if high > low { high } else { low + 1.0 };
    let heat = HeatLayer { values: &values, low, high: high_drawn };
    let scene = Scene { heat: Some(heat), agents: &agents, ..Scene::empty(world.map()) };
    let img = draw_with_legend(&scene, &Style { cell_px: args.cell_px, ..Style::default() });
    write(&img, out)?;
    println!(
        "wrote {} ({} at tick {}, {}..{})",
        out.display(),
        args.layer,
        args.tick,
        number_text(low),
        number_text(high)
    );
    Ok(ExitCode::SUCCESS)
}

fn write(img: &image::RgbImage, out: &Path) -> anyhow::Result<()> {
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    img.save_with_format(out, image::ImageFormat::Png).with_context(|| format!("cannot write {}", out.display()))
}

/// The layer's value at every map cell (decision layers are per area: each cell gets its area's).
pub(crate) fn cell_values(maps: &TacticalMaps, world: &tactica_engine::world::World, name: &str) -> Vec<f32> {
    let map = world.map();
    (0..map.len()).map(|i| maps.value_at(name, map.cell_at(i)).unwrap_or(0.0)).collect()
}

/// The smallest and largest finite value over the open cells (walls are not drawn).
fn range(maps: &TacticalMaps, world: &tactica_engine::world::World, name: &str) -> (f32, f32) {
    let map = world.map();
    let values = cell_values(maps, world, name);
    let open = values.iter().enumerate().filter(|&(i, v)| v.is_finite() && map.passable(map.cell_at(i)));
    open.fold(None, |acc: Option<(f32, f32)>, (_, &v)| Some(acc.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v)))))
        .unwrap_or((0.0, 0.0))
}

fn suggestion(wrong: &str, names: &[String]) -> String {
    let best = names.iter().map(|n| (strsim::damerau_levenshtein(wrong, n), n)).min();
    match best {
        Some((d, n)) if d <= (n.len() / 3).max(2) => format!("did you mean `{n}`?"),
        _ => format!("the layers are: {}", names.join(", ")),
    }
}

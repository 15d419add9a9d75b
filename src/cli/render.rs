//! `tactica render`: one tactical layer of a scenario as a PNG heat map over its map, with the
//! entities as arrows and a legend of the value range underneath; or, with `--query`, the record of
//! a position query: every candidate it generated, coloured by its fate.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use glam::Vec2;
use tactica_engine::field::TacticalMaps;

use tactica_engine::tactics::query::{CandidateStatus, Outcome, describe_failure};
use tactica_engine::world::World;

use super::query::{TargetArg, ask};

use crate::render::{Arrow, HeatLayer, Ring, Scene, Style, draw, draw_with_legend, number_text};

/// Arguments of `tactica render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The scenario file (TOML), or a folder holding `scenario.toml`.
    pub scenario: PathBuf,
    /// The layer to draw (`influence.blue`, `cover`, `frontier` …), or `list` to list them.
    #[arg(long, required_unless_present = "query", conflicts_with = "query")]
    pub layer: Option<String>,
    /// Instead of a layer, run a position query of the scenario's `[queries]` for `--entity` and
    /// draw every candidate coloured by its fate.
    #[arg(long, requires = "entity")]
    pub query: Option<String>,
    /// The entity that asks the query.
    #[arg(long)]
    pub entity: Option<String>,
    /// With `--query`: the target, an entity's name or a point `x,y` (what a script's
    /// `FindPosition(query, {target = …})` passes; default the asker's blackboard `target`, else
    /// the player).
    #[arg(long, requires = "query", value_parser = super::query::parse_target)]
    pub target: Option<TargetArg>,
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
    let rt = match super::play_to(&args.scenario, args.tick) {
        Ok(rt) => rt,
        Err(code) => return Ok(code),
    };
    if let Some(query) = &args.query {
        // The query is asked as the tick's scripts ask it.
        return render_query(args, &rt.world_as_next_tick_sees(), query);
    }
    let world = rt.world();
    let layer = args.layer.clone().unwrap_or_default();
    let Some(maps) = world.tactical() else {
        eprintln!(
            "error: {} keeps no tactical layers\n  hint: add a [field] section (docs/scenario.md)",
            rt.file().display()
        );
        return Ok(ExitCode::from(1));
    };
    if layer == "list" {
        for name in maps.layer_names() {
            let (low, high) = range(maps, world, &name);
            println!("{name}\t{}..{}", number_text(low), number_text(high));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if maps.layer(&layer).is_none() {
        eprintln!("error: {} keeps no layer `{layer}`", rt.file().display());
        eprintln!("  hint: {}", suggestion(&layer, &maps.layer_names()));
        return Ok(ExitCode::from(1));
    }
    let Some(out) = &args.output else {
        eprintln!("error: say where to write the picture with -o FILE.png");
        return Ok(ExitCode::from(2));
    };
    let values = cell_values(maps, world, &layer);
    let (low, high) = range(maps, world, &layer);
    let agents: Vec<Arrow> = world
        .entities()
        .map(|(_, e)| Arrow { position: e.position, heading: Vec2::from_angle(e.heading), color: [0, 0, 0] })
        .collect();
    // A flat layer still gets a legend: widen the range so every cell is its low end.
    let high_drawn = if high > low { high } else { low + 1.0 };
    // A team's influence is drawn in the team's colour: its strongest area is the deepest.
    let hue = layer.strip_prefix("influence.").map(|team| crate::render::team_colour(world, team));
    let heat = HeatLayer { values: &values, low, high: high_drawn, hue };
    let scene = Scene { heat: Some(heat), agents: &agents, ..Scene::empty(world.map()) };
    let img = draw_with_legend(&scene, &Style { cell_px: args.cell_px, ..Style::default() });
    write(&img, out)?;
    println!("wrote {} ({} at tick {}, {}..{})", out.display(), layer, args.tick, number_text(low), number_text(high));
    Ok(ExitCode::SUCCESS)
}

/// The colour of a candidate's fate: the chosen point blue, valid points green, points a
/// condition rejected red, blocked or reserved points grey, points left half-evaluated (they
/// could not beat the winner) orange.
fn fate_colour(status: &CandidateStatus) -> [u8; 3] {
    match status {
        CandidateStatus::Chosen(_) => [20, 90, 230],
        CandidateStatus::Passed => [30, 160, 60],
        CandidateStatus::Failed(_) => [210, 40, 40],
        CandidateStatus::Blocked | CandidateStatus::Reserved(_) => [130, 130, 130],
        CandidateStatus::Partial => [240, 150, 20],
    }
}

/// `--query`: evaluates the query for the entity on the world as it stands and draws its record.
fn render_query(args: &RenderArgs, world: &World, name: &str) -> anyhow::Result<ExitCode> {
    let entity = args.entity.as_deref().unwrap_or_default();
    let Some(id) = world.find(entity) else {
        eprintln!("error: no entity is named `{entity}`");
        return Ok(ExitCode::from(1));
    };
    let target = args.target.as_ref();
    let Some(query) = world.queries.get(name) else {
        let names: Vec<String> = world.queries.names().map(str::to_owned).collect();
        eprintln!("error: the scenario's [queries] declare no query `{name}`");
        eprintln!("  hint: {}", suggestion(name, &names).replace("layers", "queries"));
        return Ok(ExitCode::from(1));
    };
    let Some(out) = &args.output else {
        eprintln!("error: say where to write the picture with -o FILE.png");
        return Ok(ExitCode::from(2));
    };
    let eval = match ask(world, entity, query, target) {
        Ok(eval) => eval,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let mut rings = Vec::new();
    let mut counts = [0usize; 5];
    for option in &eval.record().options {
        for c in &option.candidates {
            let chosen = matches!(c.status, CandidateStatus::Chosen(_));
            let k = match c.status {
                CandidateStatus::Chosen(_) => 0,
                CandidateStatus::Passed => 1,
                CandidateStatus::Failed(_) => 2,
                CandidateStatus::Blocked | CandidateStatus::Reserved(_) => 3,
                CandidateStatus::Partial => 4,
            };
            counts[k] += 1;
            let color = fate_colour(&c.status);
            rings.push(Ring { center: c.position, radius: if chosen { 0.45 } else { 0.22 }, color });
            if chosen {
                rings.push(Ring { center: c.position, radius: 0.3, color });
                rings.push(Ring { center: c.position, radius: 0.15, color });
            }
        }
    }
    let agents: Vec<Arrow> = world
        .entities()
        .map(|(eid, e)| {
            let color = if eid == id { [0, 0, 0] } else { [120, 40, 120] };
            Arrow { position: e.position, heading: Vec2::from_angle(e.heading), color }
        })
        .collect();
    let scene = Scene { rings: &rings, agents: &agents, ..Scene::empty(world.map()) };
    let img = draw(&scene, &Style { cell_px: args.cell_px, ..Style::default() });
    write(&img, out)?;
    let best = match eval.outcome() {
        Some(Outcome::Found(r)) => r.first().map_or_else(String::new, |r| {
            format!("chose ({:.2}, {:.2})", r.candidate.position.x, r.candidate.position.y)
        }),
        Some(Outcome::Failed(f)) => format!("found nothing: {}", describe_failure(f)),
        None => String::new(),
    };
    println!(
        "wrote {} (query {name} for {entity} at tick {}: {best}; {} chosen (blue), {} valid (green), {} rejected by a condition (red), {} blocked or reserved (grey), {} left half-evaluated (orange))",
        out.display(),
        args.tick,
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4]
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes `img` as a PNG at `out`, never through a link a downloaded folder could hold.
fn write(img: &image::RgbImage, out: &Path) -> anyhow::Result<()> {
    let file = crate::output::create_file(out)?;
    let mut buffered = std::io::BufWriter::new(file);
    img.write_with_encoder(image::codecs::png::PngEncoder::new(&mut buffered))
        .with_context(|| format!("cannot write {}", out.display()))?;
    let file =
        buffered.into_inner().map_err(|e| e.into_error()).with_context(|| format!("cannot write {}", out.display()))?;
    file.finish()?;
    Ok(())
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

//! `tactica query`: evaluate a tactical position query and print the parsed query and the record
//! of every candidate (status, failed condition, each weight's contribution).
//!
//! Given a scenario (a `.toml` file or a folder), the scenario is replayed for `--tick` ticks and
//! the query is asked for one of its entities exactly as that tick's `FindPosition` asks it: on the
//! world as the tick's scripts see it, with the asker's blackboard objects, the points the other
//! characters hold and the tick as the `random` seed, through the same request and evaluation
//! the game uses ([`PositionService::request`], [`PositionService::evaluate`]). `--target` stands
//! for the `target` option a script passes. Given a bare map and a query file, the objects are the
//! points passed on the command line and the map is all there is.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;
use glam::Vec2;
use tactica_engine::grid;
use tactica_engine::tactics::query::{CandidateStatus, TestEffect};
use tactica_engine::tactics::query::{
    Evaluation, ObjectKind, ObjectState, Objects, Outcome, PositionService, Query, QueryConfig, QueryEnv, QueryRequest,
    Reservations, describe_failure, format_query, format_record, parse_queries,
};
use tactica_engine::world::{EntityId, World};

use super::output::{self, Format};

/// Arguments of `tactica query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// A scenario (`.toml` or a folder with `scenario.toml`), or a bare map (.map MovingAI,
    /// anything else an ASCII grid).
    pub map: PathBuf,
    /// A file of queries in the block syntax (docs/tps.md); with a scenario, optional (its
    /// `[queries]` are used).
    pub queries: Option<PathBuf>,
    /// With a scenario: the entity that asks.
    #[arg(long)]
    pub entity: Option<String>,
    /// With a scenario: play this many ticks first.
    #[arg(long, default_value_t = 0)]
    pub tick: u64,
    /// Which query of the file (default: the first).
    #[arg(long)]
    pub name: Option<String>,
    /// The asking agent's position, `x,y` in map units (bare maps only).
    #[arg(long, value_parser = parse_vec2)]
    pub puppet: Option<Vec2>,
    /// The target: an entity's name or a point `x,y` (with a scenario, what a script's
    /// `FindPosition(query, {target = …})` passes; default the asker's blackboard `target`, else
    /// the player). On a bare map, a point.
    #[arg(long, value_parser = parse_target)]
    pub target: Option<TargetArg>,
    /// The reference point.
    #[arg(long, value_parser = parse_vec2)]
    pub reference: Option<Vec2>,
    /// The player's position.
    #[arg(long, value_parser = parse_vec2)]
    pub player: Option<Vec2>,
    /// The leader's position.
    #[arg(long, value_parser = parse_vec2)]
    pub leader: Option<Vec2>,
    /// The squad centre.
    #[arg(long, value_parser = parse_vec2)]
    pub squad_center: Option<Vec2>,
    /// How many results to return.
    #[arg(long, default_value_t = 1)]
    pub results: usize,
    /// Seed of the `random` criterion (bare maps only: in a scenario it is the tick's, as in
    /// play).
    #[arg(long)]
    pub seed: Option<u64>,
    /// `text` for people, `json` for programs: one object per candidate, then one for the
    /// outcome (docs/json.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn parse_vec2(s: &str) -> Result<Vec2, String> {
    let (x, y) = s.split_once(',').ok_or_else(|| format!("`{s}` is not `x,y`"))?;
    let p = |t: &str| t.trim().parse::<f32>().map_err(|e| format!("`{t}`: {e}"));
    Ok(Vec2::new(p(x)?, p(y)?))
}

/// `--target`: an entity by name, or a point.
#[derive(Debug, Clone, PartialEq)]
pub enum TargetArg {
    /// The entity of this name, where it stands at the tick.
    Entity(String),
    /// A point in map units.
    Point(Vec2),
}

pub(crate) fn parse_target(s: &str) -> Result<TargetArg, String> {
    if s.contains(',') {
        return parse_vec2(s).map(TargetArg::Point);
    }
    if s.trim().is_empty() {
        return Err("give an entity's name or a point `x,y`".to_owned());
    }
    Ok(TargetArg::Entity(s.trim().to_owned()))
}

/// Asks `query` for the entity `asker` on `world` (the world a tick's scripts see:
/// [`crate::Runtime::world_as_next_tick_sees`]) as that tick's `FindPosition` asks it, with its
/// candidates recorded. `target` replaces the asker's own, as a script's `target` option does.
/// `Err` says what is wrong with a name.
pub(crate) fn ask(
    world: &World,
    asker: &str,
    query: Arc<Query>,
    target: Option<&TargetArg>,
) -> Result<Evaluation, String> {
    let id = world.find(asker).ok_or_else(|| format!("no entity is named `{asker}`"))?;
    let mut request = PositionService::request(world, id);
    match target {
        None => {}
        Some(TargetArg::Point(p)) => request.objects.set(ObjectKind::Target, ObjectState::at(*p)),
        Some(TargetArg::Entity(name)) => {
            let e = world
                .find(name)
                .and_then(|t| world.entity(t))
                .ok_or_else(|| format!("--target: no entity is named `{name}` at tick {}", world.clock().tick()))?;
            request.objects.set(ObjectKind::Target, ObjectState::of(e));
        }
    }
    request.record = true;
    Ok(world.positions().evaluate(world, query, request))
}

/// Whether `path` names a scenario rather than a map.
fn is_scenario(path: &Path) -> bool {
    path.is_dir() || path.extension().is_some_and(|e| e == "toml")
}

/// Prints the record and the result; exit 1 when no point was found.
fn report(eval: &Evaluation, format: Format) -> ExitCode {
    if format == Format::Json {
        return report_json(eval);
    }
    print!("{}", format_record(eval.record()));
    match eval.outcome() {
        Some(Outcome::Found(results)) => {
            for (i, r) in results.iter().enumerate() {
                let p = r.candidate.position;
                println!("result {}: ({:.2}, {:.2}) score {:.3} option {}", i + 1, p.x, p.y, r.score, r.option + 1);
            }
            ExitCode::SUCCESS
        }
        Some(Outcome::Failed(f)) => {
            println!("no point: {}", describe_failure(f));
            ExitCode::from(1)
        }
        None => ExitCode::from(1),
    }
}

/// The record as JSON Lines: every candidate of every option tried, then the outcome.
fn report_json(eval: &Evaluation) -> ExitCode {
    let record = eval.record();
    for o in &record.options {
        for c in &o.candidates {
            let (status, rank, failed) = match &c.status {
                CandidateStatus::Chosen(k) => ("chosen", Some(k + 1), None),
                CandidateStatus::Passed => ("passed", None, None),
                CandidateStatus::Failed(k) => ("failed", None, Some(k.as_str())),
                CandidateStatus::Reserved(_) => ("reserved", None, None),
                CandidateStatus::Blocked => ("blocked", None, None),
                CandidateStatus::Partial => ("partial", None, None),
            };
            let tests: Vec<serde_json::Value> = c
                .tests
                .iter()
                .map(|t| {
                    let (effect, add) = match t.effect {
                        TestEffect::Pass => ("pass", None),
                        TestEffect::Fail => ("fail", None),
                        TestEffect::Add(a) => ("weight", Some(a)),
                    };
                    // JSON has no infinity: an unreachable path distance is null.
                    let raw = t.raw.is_finite().then_some(t.raw);
                    serde_json::json!({ "key": t.key, "raw": raw, "effect": effect, "add": add })
                })
                .collect();
            output::json_line(&serde_json::json!({
                "type": "candidate",
                "query": record.query,
                "option": o.option + 1,
                "x": c.position.x,
                "y": c.position.y,
                "status": status,
                "rank": rank,
                "failed": failed,
                "score": c.score,
                "max_score": c.max_score,
                "tests": tests,
            }));
        }
    }
    let found = matches!(eval.outcome(), Some(Outcome::Found(_)));
    let failure = match eval.outcome() {
        Some(Outcome::Failed(f)) => Some(describe_failure(f)),
        _ => None,
    };
    output::json_line(&serde_json::json!({
        "type": "outcome",
        "query": record.query,
        "found": found,
        "outcome": record.outcome,
        "failure": failure,
    }));
    if found { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// A query for a scenario's entity, on the world the scenario plays.
fn query_in_scenario(args: &QueryArgs) -> anyhow::Result<ExitCode> {
    if args.seed.is_some() || args.puppet.is_some() || args.results != 1 {
        eprintln!(
            "error: --seed, --puppet and --results are for bare maps: in a scenario the query is asked as the game asks it (the asker where it stands, one result, the tick as the seed)"
        );
        return Ok(ExitCode::from(2));
    }
    let rt = match super::play_to(&args.map, args.tick) {
        Ok(rt) => rt,
        Err(code) => return Ok(code),
    };
    let mut world = rt.world_as_next_tick_sees();
    if let Some(file) = &args.queries {
        let src = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        if let Err(errors) = world.queries.load_text(&file.display().to_string(), &src) {
            for e in &errors.0 {
                eprintln!("error: {e}");
            }
            return Ok(ExitCode::from(1));
        }
    }
    let Some(entity) = &args.entity else {
        eprintln!("error: say which entity asks with --entity NAME");
        return Ok(ExitCode::from(2));
    };
    let names: Vec<String> = world.queries.names().map(str::to_owned).collect();
    let name = args.name.clone().or_else(|| names.first().cloned()).unwrap_or_default();
    let Some(q) = world.queries.get(&name) else {
        eprintln!("error: no query named `{name}` (the scenario's queries: {})", names.join(", "));
        return Ok(ExitCode::from(1));
    };
    let eval = match ask(&world, entity, Arc::clone(&q), args.target.as_ref()) {
        Ok(eval) => eval,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    if args.format == Format::Text {
        print!("{}", format_query(&q));
    }
    Ok(report(&eval, args.format))
}

/// Runs the query and prints its record. Exit 1 when the map or the query file does not load, or
/// when the query finds no point.
pub fn query(args: &QueryArgs) -> anyhow::Result<ExitCode> {
    if is_scenario(&args.map) {
        return query_in_scenario(args);
    }
    let (Some(queries_file), Some(puppet)) = (&args.queries, args.puppet) else {
        eprintln!("error: on a bare map, give a query file and --puppet x,y (or pass a scenario instead)");
        return Ok(ExitCode::from(2));
    };
    let map = load_map(&args.map)?;
    let src = std::fs::read_to_string(queries_file).with_context(|| format!("reading {}", queries_file.display()))?;
    let queries = match parse_queries(&queries_file.display().to_string(), &src, QueryConfig::default()) {
        Ok(q) => q,
        Err(errors) => {
            let name = queries_file.display().to_string();
            for e in &errors.0 {
                match e.diagnostic(&src) {
                    Some(d) => eprint!("{}", tactica_script::render(&name, &src, &[d], output::color())),
                    None => eprintln!("error: {e}"),
                }
            }
            return Ok(ExitCode::from(1));
        }
    };
    let q = match &args.name {
        Some(n) => queries.into_iter().find(|q| &q.name == n).with_context(|| format!("no query named `{n}`"))?,
        None => queries.into_iter().next().context("the file holds no query")?,
    };
    let target = match &args.target {
        None => None,
        Some(TargetArg::Point(p)) => Some(*p),
        Some(TargetArg::Entity(name)) => {
            eprintln!("error: --target `{name}`: a bare map has no entities; give a point x,y");
            return Ok(ExitCode::from(2));
        }
    };
    let mut objects = Objects::new().with(ObjectKind::Puppet, ObjectState::at(puppet));
    for (kind, p) in [
        (ObjectKind::Target, target),
        (ObjectKind::ReferencePoint, args.reference),
        (ObjectKind::Player, args.player),
        (ObjectKind::Leader, args.leader),
        (ObjectKind::SquadCenter, args.squad_center),
    ] {
        if let Some(p) = p {
            objects.set(kind, ObjectState::at(p));
        }
    }
    let mut req = QueryRequest::new(EntityId::default(), objects);
    req.results = args.results;
    req.seed = args.seed.unwrap_or(0);
    req.record = true;
    let reservations = Reservations::new();
    let env = QueryEnv::new(&map, &reservations);
    if args.format == Format::Text {
        print!("{}", format_query(&q));
    }
    let mut eval = Evaluation::new(Arc::new(q), req);
    while eval.step(&env, &tactica_engine::tactics::query::WallClock::new(), u64::MAX)
        == tactica_engine::tactics::query::Status::InProgress
    {}
    Ok(report(&eval, args.format))
}

fn load_map(path: &Path) -> anyhow::Result<grid::Map> {
    let map =
        if path.extension().is_some_and(|e| e == "map") { grid::load_movingai(path)? } else { grid::load_ascii(path)? };
    Ok(map)
}

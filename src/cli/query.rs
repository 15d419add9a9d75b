//! `tactica query`: evaluate a tactical position query over a map and print the parsed query and
//! the record of every candidate (status, failed condition, each weight's contribution).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;
use glam::Vec2;
use tactica_engine::grid;
use tactica_engine::tactics::query::{
    Evaluation, ObjectKind, ObjectState, Objects, Outcome, QueryConfig, QueryEnv, QueryRequest, Reservations,
    describe_failure, format_query, format_record, parse_queries,
};
use tactica_engine::world::EntityId;

/// Arguments of `tactica query`.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// The map (.map MovingAI, anything else an ASCII grid).
    pub map: PathBuf,
    /// A file of queries in the block syntax (docs/tps.md).
    pub queries: PathBuf,
    /// Which query of the file (default: the first).
    #[arg(long)]
    pub name: Option<String>,
    /// The asking agent's position, `x,y` in map units.
    #[arg(long, value_parser = parse_vec2)]
    pub puppet: Vec2,
    /// The target's position.
    #[arg(long, value_parser = parse_vec2)]
    pub target: Option<Vec2>,
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
    /// Seed of the `random` criterion.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

fn parse_vec2(s: &str) -> Result<Vec2, String> {
    let (x, y) = s.split_once(',').ok_or_else(|| format!("`{s}` is not `x,y`"))?;
    let p = |t: &str| t.trim().parse::<f32>().map_err(|e| format!("`{t}`: {e}"));
    Ok(Vec2::new(p(x)?, p(y)?))
}

/// Runs the query and prints its record. Exit 1 when the map or the query file does not load.
pub fn query(args: &QueryArgs) -> anyhow::Result<ExitCode> {
    let map = load_map(&args.map)?;
    let src = std::fs::read_to_string(&args.queries).with_context(|| format!("reading {}", args.queries.display()))?;
    let queries = match parse_queries(&args.queries.display().to_string(), &src, QueryConfig::default()) {
        Ok(q) => q,
        Err(errors) => {
            for e in &errors.0 {
                eprintln!("error: {e}");
            }
            return Ok(ExitCode::from(1));
        }
    };
    let q = match &args.name {
        Some(n) => queries.into_iter().find(|q| &q.name == n).with_context(|| format!("no query named `{n}`"))?,
        None => queries.into_iter().next().context("the file holds no query")?,
    };
    let mut objects = Objects::new().with(ObjectKind::Puppet, ObjectState::at(args.puppet));
    for (kind, p) in [
        (ObjectKind::Target, args.target),
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
    req.seed = args.seed;
    req.record = true;
    let reservations = Reservations::new();
    let env = QueryEnv::new(&map, &reservations);
    print!("{}", format_query(&q));
    let mut eval = Evaluation::new(Arc::new(q), req);
    while eval.step(&env, &tactica_engine::tactics::query::WallClock::new(), u64::MAX)
        == tactica_engine::tactics::query::Status::InProgress
    {}
    print!("{}", format_record(eval.record()));
    match eval.outcome() {
        Some(Outcome::Found(results)) => {
            for (i, r) in results.iter().enumerate() {
                let p = r.candidate.position;
                println!("result {}: ({:.2}, {:.2}) score {:.3} option {}", i + 1, p.x, p.y, r.score, r.option + 1);
            }
        }
        Some(Outcome::Failed(f)) => println!("no point: {}", describe_failure(f)),
        None => {}
    }
    Ok(ExitCode::SUCCESS)
}

fn load_map(path: &Path) -> anyhow::Result<grid::Map> {
    let map =
        if path.extension().is_some_and(|e| e == "map") { grid::load_movingai(path)? } else { grid::load_ascii(path)? };
    Ok(map)
}

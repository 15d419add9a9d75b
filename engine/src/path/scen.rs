//! MovingAI scenario files (`.scen`): parsing, solving every query, and the report.
//!
//! A scenario file is `version 1` followed by one query a line, tab-separated:
//! `bucket  map  width  height  start_x  start_y  goal_x  goal_y  optimal_length`. The solver runs
//! every query with the chosen algorithm and compares the length with the file's; the CLI
//! (`tactica path`) is a thin shell over [`solve`] and [`format_path_line`].

use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

use glam::IVec2;

use super::{AStar, Jps, PathError};
use crate::grid::Map;

/// One query of a scenario file.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// 1-based line in the file.
    pub line: usize,
    /// The difficulty bucket.
    pub bucket: u32,
    /// The map file named on the line.
    pub map: String,
    /// The map width the query was made for.
    pub width: u32,
    /// The map height the query was made for.
    pub height: u32,
    /// Start cell (x = column, y = row, from the top left).
    pub start: IVec2,
    /// Goal cell.
    pub goal: IVec2,
    /// The optimal path length the file gives.
    pub optimal: f64,
}

/// A parsed scenario file.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The file it came from (or the name given to text parsed from memory).
    pub file: PathBuf,
    /// The queries, in file order.
    pub queries: Vec<Query>,
}

/// A scenario file that could not be read or does not fit its map.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{}: {kind}", file.display(), if *line > 0 { format!(":{line}") } else { String::new() })]
pub struct ScenError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line; 0 for the file as a whole.
    pub line: usize,
    /// What was wrong.
    pub kind: ScenErrorKind,
}

/// The ways a scenario file can be wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScenErrorKind {
    /// The file could not be read.
    #[error("cannot read the scenario: {0}")]
    Io(String),
    /// Not UTF-8 text.
    #[error("this is not a text scenario file; hint: a MovingAI scenario starts with `version 1`")]
    Binary,
    /// The first line is not `version N`.
    #[error("the first line must be `version 1`, found `{0}`")]
    BadVersion(String),
    /// A query line without the nine fields.
    #[error(
        "a query has 9 tab-separated fields (bucket, map, width, height, start x, start y, goal x, goal y, optimal length), this line has {0}"
    )]
    FieldCount(usize),
    /// A field that is not a number of the right kind.
    #[error("field `{field}` must be {expected}, found `{found}`")]
    BadField {
        /// The field's name.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
        /// What stood there.
        found: String,
    },
    /// The query was made for a map of another size.
    #[error("the query is for a {width}×{height} map but the map is {map_width}×{map_height}")]
    MapSize {
        /// Width on the line.
        width: u32,
        /// Height on the line.
        height: u32,
        /// The map's width.
        map_width: u32,
        /// The map's height.
        map_height: u32,
    },
    /// A start or goal off the map.
    #[error("the {which} ({x}, {y}) is off the {width}×{height} map")]
    OffMap {
        /// `start` or `goal`.
        which: &'static str,
        /// Column.
        x: i64,
        /// Row.
        y: i64,
        /// Map width.
        width: u32,
        /// Map height.
        height: u32,
    },
}

/// Reads and parses a scenario file.
pub fn load_scen(path: &Path) -> Result<Scenario, ScenError> {
    let bytes = std::fs::read(path).map_err(|e| ScenError {
        file: path.to_path_buf(),
        line: 0,
        kind: ScenErrorKind::Io(e.to_string()),
    })?;
    parse_scen(&bytes, path)
}

/// Parses the bytes of a scenario file; `file` names it in errors. Coordinates are checked
/// against the width and height on their own line; [`Scenario::check_map`] checks them against
/// the map.
pub fn parse_scen(bytes: &[u8], file: &Path) -> Result<Scenario, ScenError> {
    let err = |line, kind| ScenError { file: file.to_path_buf(), line, kind };
    let text = std::str::from_utf8(bytes).map_err(|_| err(0, ScenErrorKind::Binary))?;
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((i, first)) = lines.next() else {
        return Err(err(1, ScenErrorKind::BadVersion(String::new())));
    };
    let mut words = first.split_whitespace();
    if words.next() != Some("version") || words.next().and_then(|v| v.parse::<f64>().ok()).is_none() {
        return Err(err(i + 1, ScenErrorKind::BadVersion(first.chars().take(40).collect())));
    }
    let mut queries = Vec::new();
    for (i, l) in lines {
        let line = i + 1;
        let fields: Vec<&str> =
            if l.contains('\t') { l.split('\t').map(str::trim).collect() } else { l.split_whitespace().collect() };
        if fields.len() != 9 {
            return Err(err(line, ScenErrorKind::FieldCount(fields.len())));
        }
        let bad = |field, expected, found: &str| {
            err(line, ScenErrorKind::BadField { field, expected, found: found.chars().take(40).collect() })
        };
        let uint = |k: usize, name| fields[k].parse::<u32>().map_err(|_| bad(name, "a whole number ≥ 0", fields[k]));
        let int = |k: usize, name| fields[k].parse::<i64>().map_err(|_| bad(name, "a whole number", fields[k]));
        let bucket = uint(0, "bucket")?;
        let (width, height) = (uint(2, "width")?, uint(3, "height")?);
        let (sx, sy, gx, gy) = (int(4, "start x")?, int(5, "start y")?, int(6, "goal x")?, int(7, "goal y")?);
        let optimal = fields[8]
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| bad("optimal length", "a number ≥ 0", fields[8]))?;
        for (which, x, y) in [("start", sx, sy), ("goal", gx, gy)] {
            if x < 0 || y < 0 || x >= i64::from(width) || y >= i64::from(height) {
                return Err(err(line, ScenErrorKind::OffMap { which, x, y, width, height }));
            }
        }
        queries.push(Query {
            line,
            bucket,
            map: fields[1].to_owned(),
            width,
            height,
            start: IVec2::new(sx as i32, sy as i32),
            goal: IVec2::new(gx as i32, gy as i32),
            optimal,
        });
    }
    Ok(Scenario { file: file.to_path_buf(), queries })
}

impl Scenario {
    /// Checks that every query was made for `map`'s size (so no coordinate is off it).
    pub fn check_map(&self, map: &Map) -> Result<(), ScenError> {
        for q in &self.queries {
            if (q.width, q.height) != (map.width(), map.height()) {
                let kind = ScenErrorKind::MapSize {
                    width: q.width,
                    height: q.height,
                    map_width: map.width(),
                    map_height: map.height(),
                };
                return Err(ScenError { file: self.file.clone(), line: q.line, kind });
            }
        }
        Ok(())
    }

    /// The tolerance lengths are compared with: 1e-2 for the benchmark suites' own
    /// `*.official.scen` files (their lengths are rounded), 1e-6 otherwise.
    pub fn tolerance(&self) -> f64 {
        let name = self.file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.ends_with(".official.scen") { 1e-2 } else { 1e-6 }
    }
}

/// A search method the solver can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Grid A* ([`AStar`]).
    AStar,
    /// Jump point search ([`Jps`]); needs a uniform-cost map.
    #[default]
    Jps,
}

impl Algorithm {
    /// Every algorithm, with the name the CLI knows it by.
    pub const ALL: [(&'static str, Algorithm); 2] = [("astar", Algorithm::AStar), ("jps", Algorithm::Jps)];
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL.iter().find(|(n, _)| n.eq_ignore_ascii_case(s)).map(|&(_, a)| a).ok_or_else(|| {
            let names: Vec<&str> = Algorithm::ALL.iter().map(|(n, _)| *n).collect();
            format!("unknown algorithm `{s}`; expected one of {}", names.join(", "))
        })
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = Algorithm::ALL.iter().find(|(_, a)| a == self).map_or("?", |(n, _)| n);
        f.write_str(name)
    }
}

/// What one query gave.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryResult {
    /// 0-based index of the query in the file.
    pub index: usize,
    /// Its line in the file.
    pub line: usize,
    /// The length found; `None` when no path was found.
    pub length: Option<f64>,
    /// The file's optimal length.
    pub optimal: f64,
    /// Nodes expanded.
    pub expanded: usize,
    /// Wall-clock time of the search, in nanoseconds.
    pub nanos: u64,
    /// Whether the length matches the optimal one within the tolerance.
    pub matches: bool,
}

/// Every query's result and the totals.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// The tolerance lengths were compared with.
    pub tolerance: f64,
    /// One entry per query, in file order.
    pub results: Vec<QueryResult>,
}

impl Report {
    /// How many queries ran.
    pub fn queries(&self) -> usize {
        self.results.len()
    }

    /// The queries whose length differs from the optimal one.
    pub fn mismatches(&self) -> impl Iterator<Item = &QueryResult> {
        self.results.iter().filter(|r| !r.matches)
    }

    /// Total nodes expanded.
    pub fn expanded(&self) -> usize {
        self.results.iter().map(|r| r.expanded).sum()
    }

    /// Total search time in seconds.
    pub fn seconds(&self) -> f64 {
        self.results.iter().map(|r| r.nanos as f64).sum::<f64>() / 1e9
    }

    /// Mean time per query in microseconds.
    pub fn micros_per_query(&self) -> f64 {
        if self.results.is_empty() { 0.0 } else { self.seconds() * 1e6 / self.results.len() as f64 }
    }

    /// The per-query table (one line each) followed by the totals.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "query  line  found        optimal      diff        expanded  µs");
        for r in &self.results {
            let found = r.length.map_or("none".to_owned(), |l| format!("{l:.6}"));
            let diff = r.length.map_or(String::from("-"), |l| format!("{:+.2e}", l - r.optimal));
            let mark = if r.matches { "" } else { "  MISMATCH" };
            let _ = writeln!(
                s,
                "{:<6} {:<5} {found:<12} {:<12.6} {diff:<11} {:<9} {:.1}{mark}",
                r.index,
                r.line,
                r.optimal,
                r.expanded,
                r.nanos as f64 / 1e3
            );
        }
        s.push_str(&self.summary());
        s.push('\n');
        s
    }

    /// One line of totals.
    pub fn summary(&self) -> String {
        format!(
            "{}: {} queries, {} mismatches (tolerance {:e}), {:.2} µs per query, {} nodes expanded ({:.1} per query)",
            self.algorithm,
            self.queries(),
            self.mismatches().count(),
            self.tolerance,
            self.micros_per_query(),
            self.expanded(),
            self.expanded() as f64 / self.queries().max(1) as f64
        )
    }
}

/// Solves every query of `scen` on `map` with `algorithm`, calling `on_query` after each with
/// its result and path (empty when none), so a caller can write paths or move a progress bar.
///
/// Errors before solving anything when the scenario does not fit the map, or JPS is asked for on
/// a map with terrain costs; a query without a path is a result (`length: None`), not an error.
pub fn solve(
    map: &Map,
    scen: &Scenario,
    algorithm: Algorithm,
    mut on_query: impl FnMut(&QueryResult, &[IVec2]),
) -> Result<Report, SolveError> {
    scen.check_map(map)?;
    let mut jps = match algorithm {
        Algorithm::Jps => Some(Jps::new(map)?),
        Algorithm::AStar => None,
    };
    let mut astar = AStar::new();
    let mut cells = Vec::new();
    let tolerance = scen.tolerance();
    let mut results = Vec::with_capacity(scen.queries.len());
    for (index, q) in scen.queries.iter().enumerate() {
        let t = Instant::now();
        let outcome = match jps.as_mut() {
            Some(j) => j.find(q.start, q.goal, &mut cells),
            None => astar.find(map, q.start, q.goal, &mut cells),
        };
        let nanos = t.elapsed().as_nanos() as u64;
        let (length, expanded) = match outcome {
            Ok(f) => (Some(f.cost), f.expanded),
            Err(PathError::NoPath { expanded }) => (None, expanded),
            Err(_) => (None, 0), // a blocked endpoint: no path
        };
        let matches = length.is_some_and(|l| (l - q.optimal).abs() <= tolerance);
        let r = QueryResult { index, line: q.line, length, optimal: q.optimal, expanded, nanos, matches };
        on_query(&r, &cells);
        results.push(r);
    }
    Ok(Report { algorithm, tolerance, results })
}

/// Why [`solve`] could not start.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The scenario does not fit the map.
    #[error(transparent)]
    Scenario(#[from] ScenError),
    /// The algorithm cannot run on this map.
    #[error(transparent)]
    Path(#[from] PathError),
}

/// One line of a `--paths` file: the query's index, then the path's cells as `x,y` separated by
/// spaces, start first — or `none` when there is no path.
pub fn format_path_line(index: usize, path: &[IVec2]) -> String {
    let mut s = index.to_string();
    if path.is_empty() {
        s.push_str(" none");
    }
    for c in path {
        let _ = write!(s, " {},{}", c.x, c.y);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Scenario, ScenError> {
        parse_scen(text.as_bytes(), Path::new("t.scen"))
    }

    #[test]
    fn reads_queries() {
        let s = parse("version 1\n3\tm.map\t4\t2\t0\t0\t3\t1\t3.41421356\n\n").unwrap();
        assert_eq!(s.queries.len(), 1);
        let q = &s.queries[0];
        assert_eq!((q.line, q.bucket, q.map.as_str(), q.start, q.goal), (2, 3, "m.map", IVec2::ZERO, IVec2::new(3, 1)));
        assert_eq!(q.optimal, 3.41421356);
        assert_eq!(s.tolerance(), 1e-6);
    }

    #[test]
    fn every_bad_field_names_its_line_and_field() {
        let cases: &[(&str, usize, &str)] = &[
            ("", 1, "version 1"),
            ("vers 1\n", 1, "version 1"),
            ("version 1\n0\tm.map\t4\t2\t0\t0\t3\n", 2, "this line has 7"),
            ("version 1\n0\tm.map\t4\t2\t0\t0\t3\t1\t1\n0\tm.map\tfour\t2\t0\t0\t3\t1\t1\n", 3, "field `width`"),
            ("version 1\n0\tm.map\t4\t2\tx\t0\t3\t1\t1\n", 2, "field `start x` must be a whole number, found `x`"),
            ("version 1\n0\tm.map\t4\t2\t0\t0\t3\t1\t-2\n", 2, "field `optimal length`"),
            ("version 1\n0\tm.map\t4\t2\t0\t0\t3\t1\tnan\n", 2, "field `optimal length`"),
            ("version 1\n0\tm.map\t4\t2\t0\t0\t4\t1\t1\n", 2, "the goal (4, 1) is off the 4×2 map"),
            ("version 1\n0\tm.map\t4\t2\t0\t-1\t3\t1\t1\n", 2, "the start (0, -1) is off"),
        ];
        for &(text, line, needle) in cases {
            let e = parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text:?} → {e}");
            assert!(e.to_string().contains(needle), "{text:?} → {e}");
            assert!(e.to_string().starts_with(&format!("t.scen:{line}: ")), "{e}");
        }
        assert_eq!(parse_scen(&[0xff, 0xfe], Path::new("b.scen")).unwrap_err().kind, ScenErrorKind::Binary);
    }

    #[test]
    fn a_scenario_for_another_map_size_is_refused_at_its_line() {
        let s = parse("version 1\n0\tm.map\t4\t2\t0\t0\t3\t1\t3\n0\tm.map\t5\t2\t0\t0\t3\t1\t3\n").unwrap();
        let e = s.check_map(&Map::open(4, 2)).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().contains("for a 5×2 map but the map is 4×2"), "{e}");
        let e = solve(&Map::open(4, 2), &s, Algorithm::AStar, |_, _| {}).unwrap_err();
        assert!(matches!(e, SolveError::Scenario(_)));
    }

    #[test]
    fn solving_reports_lengths_mismatches_and_paths() {
        let mut map = Map::open(4, 2);
        map.set(IVec2::new(1, 0), b'@', f32::INFINITY);
        let s = parse_scen(
            b"version 1\n0\tm\t4\t2\t0\t0\t3\t0\t4.41421356\n0\tm\t4\t2\t0\t0\t3\t0\t3\n0\tm\t4\t2\t0\t0\t1\t0\t0\n",
            Path::new("x.map.official.scen"),
        )
        .unwrap();
        for algorithm in [Algorithm::AStar, Algorithm::Jps] {
            let mut lines = Vec::new();
            let report = solve(&map, &s, algorithm, |r, p| lines.push(format_path_line(r.index, p))).unwrap();
            assert_eq!(report.queries(), 3);
            assert_eq!(report.tolerance, 1e-2);
            let bad: Vec<usize> = report.mismatches().map(|r| r.index).collect();
            assert_eq!(bad, [1, 2], "{algorithm}: the second length is wrong, the third goal is a wall");
            assert!((report.results[0].length.unwrap() - (3.0 + 2f64.sqrt())).abs() < 1e-12);
            assert_eq!(lines[0], "0 0,0 0,1 1,1 2,1 3,0");
            assert_eq!(lines[2], "2 none");
            assert!(report.summary().contains("3 queries, 2 mismatches"), "{}", report.summary());
            assert_eq!(report.to_text().lines().count(), 5);
        }
        assert_eq!("JPS".parse::<Algorithm>(), Ok(Algorithm::Jps));
        assert!("bfs".parse::<Algorithm>().unwrap_err().contains("astar, jps"));
    }
}

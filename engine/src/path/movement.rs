//! The simplest movers: a step straight at the target (002b Example 6-1), collide-and-turn (the
//! design article, 001_003 §2.8), and tracing round obstacles with the book's two exit rules
//! (002b §2.3). Each moves one cell a call and never cuts a wall corner.

use glam::IVec2;

use super::bresenham::{BresenhamVariant, bresenham_line};
use super::wall_trace::{Facing, WallTracer};
use crate::grid::{Map, line_of_sight, walk_supercover};
use crate::world::WorldRng;

/// Example 6-1: each axis moves one cell towards `to` (diagonally until one coordinate matches,
/// then straight).
pub fn step_toward(from: IVec2, to: IVec2) -> IVec2 {
    from + (to - from).signum()
}

/// Whether one step from `from` by `d` (each axis −1, 0 or +1) is legal: the cell is passable and
/// a diagonal step does not cut a corner.
fn legal(map: &Map, from: IVec2, d: IVec2) -> bool {
    map.passable(from + d)
        && (d.x == 0
            || d.y == 0
            || (map.passable(from + IVec2::new(d.x, 0)) && map.passable(from + IVec2::new(0, d.y))))
}

/// Collide-and-turn: move towards the target; if a wall is in the way, turn to the legal step that
/// ends closest to the target, choosing at random among equally close ones. `came_from` (the cell
/// of the previous step) is not turned back to, which is what lets the mover slide along a flat
/// wall instead of bouncing in front of it; going back is the last resort in a dead end. Stays put
/// when no step is legal. Cheap, and it gets stuck in concave corners, as the article warns.
pub fn collide_and_turn(map: &Map, cell: IVec2, came_from: Option<IVec2>, target: IVec2, rng: &mut WorldRng) -> IVec2 {
    if cell == target {
        return cell;
    }
    let ahead = (target - cell).signum();
    if legal(map, cell, ahead) {
        return cell + ahead;
    }
    let mut best: [IVec2; 8] = [IVec2::ZERO; 8];
    let (mut n, mut best_d) = (0, i32::MAX);
    for d in NEIGHBOURS {
        if !legal(map, cell, d) || Some(cell + d) == came_from {
            continue;
        }
        let dist = (target - cell - d).length_squared();
        if dist < best_d {
            (best_d, n) = (dist, 0);
        }
        if dist == best_d {
            best[n] = d;
            n += 1;
        }
    }
    match (n, came_from) {
        (0, Some(back)) if legal(map, cell, back - cell) => back,
        (0, _) => cell,
        _ => cell + best[rng.below(n)],
    }
}

const NEIGHBOURS: [IVec2; 8] = [
    IVec2::new(1, 0),
    IVec2::new(1, 1),
    IVec2::new(0, 1),
    IVec2::new(-1, 1),
    IVec2::new(-1, 0),
    IVec2::new(-1, -1),
    IVec2::new(0, -1),
    IVec2::new(1, -1),
];

/// When an obstacle tracer stops tracing and heads straight for the goal again (002b §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceExit {
    /// Fig. 6-6: when it crosses the line from where tracing began to the goal, nearer the goal.
    CrossStartLine,
    /// Fig. 6-7: as soon as it can see the goal.
    LineOfSight,
}

/// A mover that walks the book's line-of-sight line to its goal and, when a wall blocks it,
/// traces round the obstacle (wall on its left) until its exit rule says to head straight again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObstacleTracer {
    /// The exit rule.
    pub exit: TraceExit,
    tracing: Option<Trace>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Trace {
    hit: IVec2,
    tracer: WallTracer,
}

impl ObstacleTracer {
    /// A tracer heading straight for its goal.
    pub fn new(exit: TraceExit) -> Self {
        ObstacleTracer { exit, tracing: None }
    }

    /// Whether it is following an obstacle's edge.
    pub fn is_tracing(&self) -> bool {
        self.tracing.is_some()
    }

    /// One step from `cell` towards `goal`; returns the new cell (the same when stuck).
    pub fn step(&mut self, map: &Map, cell: IVec2, goal: IVec2) -> IVec2 {
        if cell == goal {
            self.tracing = None;
            return cell;
        }
        if let Some(trace) = self.tracing
            && self.may_leave(map, cell, goal, trace.hit)
        {
            self.tracing = None;
        }
        if self.tracing.is_none() {
            let line = bresenham_line(cell, goal, BresenhamVariant::Book);
            let d = line[1] - cell;
            if legal(map, cell, d) {
                return cell + d;
            }
            // Blocked: put the obstacle on the left hand and follow its edge.
            let towards = if d.x.abs() >= d.y.abs() {
                if d.x > 0 { Facing::Right } else { Facing::Left }
            } else if d.y > 0 {
                Facing::Down
            } else {
                Facing::Up
            };
            self.tracing = Some(Trace { hit: cell, tracer: WallTracer { cell, facing: towards.right() } });
        }
        let Some(trace) = self.tracing.as_mut() else { return cell };
        trace.tracer.cell = cell;
        trace.tracer.step(map).unwrap_or(cell)
    }

    fn may_leave(&self, map: &Map, cell: IVec2, goal: IVec2, hit: IVec2) -> bool {
        match self.exit {
            TraceExit::LineOfSight => line_of_sight(map, cell, goal),
            TraceExit::CrossStartLine => {
                let nearer = (goal - cell).length_squared() < (goal - hit).length_squared();
                nearer && !walk_supercover(hit, goal, |c| c != cell)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{TerrainCosts, parse_ascii};
    use std::path::Path;

    fn map(text: &str) -> Map {
        parse_ascii(text.as_bytes(), Path::new("t"), &TerrainCosts::ascii()).unwrap()
    }

    #[test]
    fn the_basic_step_goes_diagonal_then_straight() {
        // 002a §6.1 / 002b Example 6-1: from (0,0) to row 3, column 5.
        let mut at = IVec2::ZERO;
        let goal = IVec2::new(5, 3);
        let mut cells = Vec::new();
        while at != goal {
            at = step_toward(at, goal);
            cells.push(at);
        }
        let expected: Vec<IVec2> =
            [(1, 1), (2, 2), (3, 3), (4, 3), (5, 3)].iter().map(|&(x, y)| IVec2::new(x, y)).collect();
        assert_eq!(cells, expected);
    }

    #[test]
    fn collide_and_turn_slides_along_a_wall_and_gets_stuck_in_a_cup() {
        let m = map(".......\n.......\n..###..\n.......\n.......\n");
        let mut rng = WorldRng::new(3);
        let (mut at, goal) = (IVec2::new(3, 4), IVec2::new(3, 0));
        let mut came_from = None;
        for _ in 0..12 {
            let next = collide_and_turn(&m, at, came_from, goal, &mut rng);
            assert!(legal(&m, at, next - at) || next == at);
            (came_from, at) = (Some(at), next);
        }
        assert_eq!(at, goal, "a flat wall is slid round");
        // A cup open away from the goal: every way out first leads away, so it stays inside.
        let cup = map(".......\n.#####.\n.#...#.\n.#...#.\n.......\n");
        let (mut at, mut came_from) = (IVec2::new(3, 3), None);
        for _ in 0..50 {
            let next = collide_and_turn(&cup, at, came_from, IVec2::new(3, 0), &mut rng);
            (came_from, at) = (Some(at), next);
            assert!(at.y >= 2, "left the cup at {at}");
        }
    }

    fn run(m: &Map, exit: TraceExit, start: IVec2, goal: IVec2) -> Vec<IVec2> {
        let mut t = ObstacleTracer::new(exit);
        let mut at = start;
        let mut cells = vec![at];
        for _ in 0..200 {
            let next = t.step(m, at, goal);
            assert!(next == at || legal(m, at, next - at), "{at} → {next}");
            at = next;
            cells.push(at);
            if at == goal {
                break;
            }
        }
        cells
    }

    #[test]
    fn obstacle_tracing_reaches_the_goal_with_either_exit_rule() {
        let m = map("..........\n..........\n...#####..\n...#......\n...#......\n..........\n");
        let (start, goal) = (IVec2::new(5, 5), IVec2::new(5, 0));
        for exit in [TraceExit::CrossStartLine, TraceExit::LineOfSight] {
            let cells = run(&m, exit, start, goal);
            assert_eq!(cells.last(), Some(&goal), "{exit:?}: {cells:?}");
        }
        let los = run(&m, TraceExit::LineOfSight, start, goal).len();
        let cross = run(&m, TraceExit::CrossStartLine, start, goal).len();
        assert!(los <= cross, "sight ends tracing no later than the line does: {los} vs {cross}");
    }
}

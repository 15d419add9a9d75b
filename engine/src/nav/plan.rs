//! One character's plan: the search it waits for, or the smoothed route it walks.

use glam::{IVec2, Vec2};

use crate::path::{NodeId, RequestId};

/// Where a character's plan stands.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanState {
    /// Waiting for the path queue.
    Pending(RequestId),
    /// Walking the smoothed route.
    Following {
        /// The corners to walk through, the last one the move's exact target.
        points: Vec<Vec2>,
        /// The corner walked to now.
        next: usize,
        /// The grid path's cost.
        cost: f64,
    },
}

/// A character's route to the cell its running move aims at.
// In declaration order, what every tick reads first: the checks of who needs a search and the
// walk read `goal`, `version` and `state` of ten thousand plans, each in its own heap block.
// Left to the compiler, `goal` and `version` came last, 96 bytes in, on another cache line
// than `state`; here they share [`Plan::HOT`] bytes at the front.
#[repr(C)]
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The cell it leads to.
    pub goal: IVec2,
    /// The map's edit count when it was made: a later edit makes it stale.
    pub version: u64,
    /// Searching or walking.
    pub state: PlanState,
    /// The cell the search started from.
    pub start: IVec2,
    /// The waypoint nodes the route passes, in order, when it was routed over the waypoint graph.
    pub via: Option<Vec<NodeId>>,
    /// Who stood where when the route was planned round standing characters (for the report
    /// when there is no way round).
    pub around: Option<String>,
}

impl Plan {
    /// How many bytes at the front of a plan the per-tick passes read: `goal`, `version` and
    /// `state` (a block's start is not aligned to a cache line, so they may span two).
    pub(crate) const HOT: usize = std::mem::offset_of!(Plan, start);

    pub(crate) fn pending(start: IVec2, goal: IVec2, request: RequestId, version: u64) -> Self {
        Plan { start, goal, version, state: PlanState::Pending(request), via: None, around: None }
    }
}

// The walk prefetches a plan's hot part as at most two cache lines.
const _: () = assert!(Plan::HOT <= 64, "the hot part of a plan must fit in one cache line");

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
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The cell the search started from.
    pub start: IVec2,
    /// The cell it leads to.
    pub goal: IVec2,
    /// The map's edit count when it was made: a later edit makes it stale.
    pub version: u64,
    /// Searching or walking.
    pub state: PlanState,
    /// The waypoint nodes the route passes, in order, when it was routed over the waypoint graph.
    pub via: Option<Vec<NodeId>>,
    /// Who stood where when the route was planned round standing characters (for the report
    /// when there is no way round).
    pub around: Option<String>,
}

impl Plan {
    pub(crate) fn pending(start: IVec2, goal: IVec2, request: RequestId, version: u64) -> Self {
        Plan { start, goal, version, state: PlanState::Pending(request), via: None, around: None }
    }
}

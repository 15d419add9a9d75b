//! What a walk left in the event log, summed up the same way by the engine's instant-action tests
//! (`engine/tests/instants.rs`, commands applied by hand) and the runtime's
//! (`tests/instant_actions.rs`, the same walk from scripts in three languages).

use tactica_engine::world::{Event, EventKind};

/// What a walk did: the ticks its searches were made on, the tick it arrived, the cells it
/// crossed, and how many events the instant actions left.
#[derive(Debug, PartialEq)]
pub struct Walk {
    pub searches: Vec<u64>,
    pub arrived: Option<u64>,
    pub cells: Vec<[i32; 2]>,
    pub instants: usize,
}

impl Walk {
    /// The summary of `events` (a log with one walker in it).
    pub fn from_events(events: &[Event]) -> Walk {
        Walk {
            searches: events.iter().filter(|e| matches!(e.kind, EventKind::Path { .. })).map(|e| e.tick).collect(),
            arrived: events.iter().find(|e| matches!(e.kind, EventKind::Arrive { .. })).map(|e| e.tick),
            cells: events
                .iter()
                .filter_map(|e| match e.kind {
                    EventKind::Move { to, .. } => Some(to),
                    _ => None,
                })
                .collect(),
            instants: events
                .iter()
                .filter(|e| {
                    matches!(
                        e.kind,
                        EventKind::Say { .. }
                            | EventKind::Sound { .. }
                            | EventKind::Trigger { .. }
                            | EventKind::Signal { .. }
                    )
                })
                .count(),
        }
    }
}

//! Schedules and plans for crowds ("1000 NPCs at 60 FPS"): daily schedules, a script library
//! expanded with working memory, open-loop action queues with fail → flush → fallback, the
//! crowd that ties them together, and a propositional planner with plan caching.

mod planner;
mod queue;
mod schedule;
mod script;
#[cfg(test)]
mod tests;
mod village;

pub use planner::{DomainSpec, Literals, PlanRuleSpec, Planner};
pub use queue::OpenLoopQueue;
pub use schedule::{Block, OneShot, Schedule};
pub use script::{Abort, LibrarySpec, Places, ScriptLibrary, ScriptSpec, StepSpec, Task};
pub use village::{Crowd, CrowdEvent, CrowdEventKind, Villager};

/// The book's office-worker schedule (S4:744–758) in its own notation.
pub const OFFICE_SCHEDULE: &str = r#"
name "schedule-office.7"
blocks [
    { from 8 to 20 tasks [ go-work-at-workstation ] }
    { from 20 to 8 tasks [ go-stay-offsite ] }
]
oneshots [
    { at 8 prob 1 tasks [ go-get-coffee ] }
    { at 12 prob 1 tasks [ go-get-lunch ] }
    { at 15 prob 0.5 tasks [ go-get-coffee ] }
    { at 17.5 prob 0.25 tasks [ go-visit-retail ] }
    { at 20 prob 0.5 tasks [ go-get-dinner ] }
    { at 20 prob 0.25 tasks [ go-get-drink ] }
]
"#;

/// A script library for [`OFFICE_SCHEDULE`]: every activity moves somewhere, does something and
/// (for the errands) goes back; errands complain when their shop is closed.
pub const OFFICE_SCRIPTS: &str = r#"
[scripts.go-work-at-workstation]
steps = [ { move_to = "$work" }, { emit = "type" }, { wait = 6 } ]

[scripts.go-stay-offsite]
steps = [ { move_to = "$home" }, { wait = 12 } ]

[scripts.go-get-coffee]
steps = [ { move_to = "cafe" }, { emit = "buy-coffee" }, { wait = 2 }, { move_to = "$work" } ]
fallback = "complain"

[scripts.go-get-lunch]
steps = [ { move_to = "restaurant" }, { emit = "buy-lunch" }, { wait = 8 }, { move_to = "$work" } ]
fallback = "complain"

[scripts.go-visit-retail]
steps = [ { move_to = "shop" }, { emit = "browse" }, { wait = 4 }, { move_to = "$work" } ]
fallback = "complain"

[scripts.go-get-dinner]
steps = [ { move_to = "restaurant" }, { emit = "buy-dinner" }, { wait = 8 }, { move_to = "$home" } ]
fallback = "complain"

[scripts.go-get-drink]
steps = [ { move_to = "tavern" }, { emit = "buy-drink" }, { wait = 6 }, { move_to = "$home" } ]
fallback = "complain"

[scripts.complain]
steps = [ { emit = "turn-to-camera" }, { say = "What kind of place is this?" }, { wait = 2 } ]
"#;

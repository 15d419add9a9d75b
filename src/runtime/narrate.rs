//! Trace events as sentences for people.

use tactica_engine::world::{Event, EventKind};

/// One readable line for an event, with its tick: `[   43] lookout says: "Lock's open. Go!"`.
pub fn narrate(e: &Event) -> String {
    format!("[{:>5}] {}", e.tick, sentence(e))
}

/// The sentence for an event, without its tick: `lookout says: "Lock's open. Go!"`.
pub fn sentence(e: &Event) -> String {
    let who = e.entity.as_deref().unwrap_or("the world");
    match &e.kind {
        EventKind::Spawn { of, team, cell } => {
            let team = if team.is_empty() { String::new() } else { format!(", team {team}") };
            format!("{who} ({of}{team}) appears at {}", cell_str(*cell))
        }
        EventKind::Despawn => format!("{who} leaves the world"),
        EventKind::Move { from, to } => format!("{who} moves {} → {}", cell_str(*from), cell_str(*to)),
        EventKind::Arrive { cell } => format!("{who} arrives at {}", cell_str(*cell)),
        EventKind::Blocked { cell, reason } => format!("{who} is stopped at {}: {reason}", cell_str(*cell)),
        EventKind::Path { from, to, cost } => {
            format!("{who} plans a way {} → {} (cost {cost:.2})", cell_str(*from), cell_str(*to))
        }
        EventKind::Cell { cell, blocked } => {
            format!("{} is now {}", cell_str(*cell), if *blocked { "blocked" } else { "open" })
        }
        EventKind::Door { name, open } => format!("door {name} {}", if *open { "opens" } else { "closes" }),
        EventKind::Say { text } => format!("{who} says: \"{text}\""),
        EventKind::Trigger { name } => format!("{who} sets off {name}"),
        EventKind::Sound { name } => format!("{who} plays sound {name}"),
        EventKind::Signal { scope, id } => format!("{who} signals `{id}` (scope {scope})"),
        EventKind::Wait { scope, id } => format!("{who} waits for `{id}` (scope {scope})"),
        EventKind::Release { scope, id } => format!("{who} is released by `{id}` (scope {scope})"),
        EventKind::Enter { region } => format!("{who} enters {region}"),
        EventKind::Exit { region } => format!("{who} leaves {region}"),
        EventKind::Attribute { key, value } => format!("{who}: {key} = {value}"),
        EventKind::Global { key, value } => format!("global {key} = {value}"),
        // A machine's first state has none before it (the trace's `from` is empty).
        EventKind::State { machine, from, to } if from.is_empty() => format!("{who}: {machine} starts in {to}"),
        EventKind::State { machine, from, to } => format!("{who}: {machine} {from} → {to}"),
        EventKind::Action { action, detail } => format!("{who} starts {action} {detail}"),
        EventKind::ScriptError { file, line, column, message } => {
            format!("script error in {file}:{line}:{column} ({who}): {message}")
        }
        EventKind::ScriptErrorRepeated { file, line, column, message, count, last, .. } => {
            let times = if *count == 1 { "once more".to_owned() } else { format!("{count} more times") };
            format!("script error in {file}:{line}:{column} ({who}) repeated {times}, up to tick {last}: {message}")
        }
        EventKind::Reload { file, entities, ok, message } => {
            let verdict = if *ok { "reloaded".to_owned() } else { format!("NOT reloaded: {message}") };
            format!(
                "{file} {verdict} for {}",
                if entities.is_empty() { "the world".into() } else { entities.join(", ") }
            )
        }
        EventKind::Note { name, value } => format!("{who} notes {name} = {value}"),
        EventKind::Print { file, line, text } => format!("{who} prints ({file}:{line}): {text}"),
        EventKind::Node { tree, name, status, .. } => format!("{who}: {tree} {name} {status}"),
        _ => e.to_json_line(),
    }
}

fn cell_str(c: [i32; 2]) -> String {
    format!("({}, {})", c[0], c[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_name_who_and_what() {
        let e = Event { tick: 7, entity: Some("troll".into()), kind: EventKind::Say { text: "Grr".into() } };
        assert_eq!(narrate(&e), "[    7] troll says: \"Grr\"");
        let e = Event {
            tick: 12,
            entity: None,
            kind: EventKind::Global { key: "GameTime".into(), value: "kNight".into() },
        };
        assert_eq!(narrate(&e), "[   12] global GameTime = kNight");
        let state = |from: &str| Event {
            tick: 3,
            entity: Some("guard".into()),
            kind: EventKind::State { machine: "Guard".into(), from: from.into(), to: "kChase".into() },
        };
        assert_eq!(narrate(&state("")), "[    3] guard: Guard starts in kChase");
        assert_eq!(narrate(&state("kPatrol")), "[    3] guard: Guard kPatrol → kChase");
    }
}

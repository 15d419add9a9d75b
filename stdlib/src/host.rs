//! The standard host functions: the action vocabulary and queries of the classic scripts
//! (reference 002b §4.10), each one plain Rust over a [`ScriptCtx`].

use std::ops::Bound;

use glam::{IVec2, Vec2};
use tactica_engine::Value;
use tactica_engine::coord::Action;

use crate::api::{HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

/// How far `DoFlee` runs from the player, in cells, when the way is free.
pub const FLEE_DISTANCE: i32 = 4;

fn p(name: &'static str, ty: Type) -> Param {
    Param { name, ty }
}

/// Every standard function, in the order the API reference lists them.
pub(crate) fn standard_functions() -> Vec<HostFn> {
    let place = || Type::symbol("place");
    vec![
        HostFn {
            name: "Say",
            params: vec![p("text", Type::Str)],
            ret: Type::Nil,
            doc: "Says a line now (`Say(\"I am Merlin.\");`). The same line is not repeated by the same speaker within the say cooldown.",
            imp: HostImpl::Fn(say),
        },
        HostFn {
            name: "DoFlee",
            params: vec![],
            ret: Type::Nil,
            doc: "Runs away from the player (`DoFlee();`). Asked again while fleeing, the flight goes on.",
            imp: HostImpl::Fn(do_flee),
        },
        HostFn {
            name: "DoAttack",
            params: vec![],
            ret: Type::Nil,
            doc: "Closes in on the player to attack (`DoAttack();`).",
            imp: HostImpl::Fn(do_attack),
        },
        HostFn {
            name: "move",
            params: vec![p("dx", Type::Int), p("dy", Type::Int)],
            ret: Type::Nil,
            doc: "One step of a movement pattern, one cell relative to the previous step (`move(0,1);`).",
            imp: HostImpl::Fn(move_step),
        },
        HostFn {
            name: "MoveTo",
            params: vec![p("place", place())],
            ret: Type::Nil,
            doc: "Walks to a named place or region (`MoveTo(xDoorway);`).",
            imp: HostImpl::Fn(move_to_place),
        },
        HostFn {
            name: "MoveTo",
            params: vec![p("x", Type::Int), p("y", Type::Int)],
            ret: Type::Nil,
            doc: "Walks to a cell (`MoveTo(4, 2);`).",
            imp: HostImpl::Fn(move_to_cell),
        },
        HostFn {
            name: "Trigger",
            params: vec![p("trap", Type::symbol("trap"))],
            ret: Type::Nil,
            doc: "Fires a trap or event (`Trigger(kPoisonTrap);`).",
            imp: HostImpl::Fn(trigger),
        },
        HostFn {
            name: "PlaySound",
            params: vec![p("sound", Type::symbol("sound"))],
            ret: Type::Nil,
            doc: "Plays a sound (`PlaySound(kSeagullSnd);`).",
            imp: HostImpl::Fn(play_sound),
        },
        HostFn {
            name: "PlayerLocation",
            params: vec![p("place", place())],
            ret: Type::Bool,
            doc: "Whether the player stands in a named region or on a named place's cell (`PlayerLocation(kDock)`).",
            imp: HostImpl::Fn(player_at_place),
        },
        HostFn {
            name: "PlayerLocation",
            params: vec![p("x", Type::Int), p("y", Type::Int)],
            ret: Type::Bool,
            doc: "Whether the player stands on cell (x, y) (`PlayerLocation(120,76)`).",
            imp: HostImpl::Fn(player_at_cell),
        },
        HostFn {
            name: "Ask",
            params: vec![p("keyword", Type::Str)],
            ret: Type::Bool,
            doc: "Whether the player's typed text contains the keyword, ignoring case (`Ask(\"name\")`); false outside a `hear` event.",
            imp: HostImpl::Fn(ask),
        },
        HostFn {
            name: "Sleep",
            params: vec![p("ticks", Type::Int)],
            ret: Type::Nil,
            doc: "Does nothing for a number of ticks (`Sleep(10);`).",
            imp: HostImpl::Fn(sleep),
        },
        HostFn {
            name: "Signal",
            params: vec![p("id", Type::Str)],
            ret: Type::Nil,
            doc: "Sends a signal in the current scope: in a `.tac` sequence, that run of it (two squads running one \
                  sequence stay apart); elsewhere the character's squad, else its team (`signal ready;` in `.tac`). A \
                  scope keeps up to 4,096 different signals; a new one past that is an error.",
            imp: HostImpl::Fn(signal),
        },
        HostFn {
            name: "Signal",
            params: vec![p("id", Type::Str), p("scope", Type::Str)],
            ret: Type::Nil,
            doc: "Sends a signal to `\"squad\"` (the current scope, as `Signal(id)`), the whole `\"team\"` or the \
                  whole `\"world\"` (`signal team ready;` in `.tac`).",
            imp: HostImpl::Fn(signal_in),
        },
        HostFn {
            name: "Wait",
            params: vec![p("id", Type::Str)],
            ret: Type::Nil,
            doc: "Waits until a signal is sent in the current scope; one sent earlier releases at once (`wait ready;`).",
            imp: HostImpl::Fn(wait),
        },
        HostFn {
            name: "Wait",
            params: vec![p("id", Type::Str), p("scope", Type::Str)],
            ret: Type::Nil,
            doc: "Waits for a signal of `\"squad\"`, `\"team\"` or `\"world\"` scope (`wait world dawn;` in `.tac`).",
            imp: HostImpl::Fn(wait_in),
        },
        HostFn {
            name: "Build",
            params: vec![p("structure", Type::symbol("structure"))],
            ret: Type::Nil,
            doc: "Orders a structure built: fires the trigger `build <structure>` (`Build(kBarracks);`).",
            imp: HostImpl::Fn(build),
        },
        HostFn {
            name: "Random",
            params: vec![p("n", Type::Int)],
            ret: Type::Int,
            doc: "A whole number in 0..n from the world's generator (`Random(6)`); 0 when n ≤ 0.",
            imp: HostImpl::Fn(random),
        },
        HostFn {
            name: "DistanceToPlayer",
            params: vec![],
            ret: Type::Number,
            doc: "The distance to the player in map units; a large number when there is no player.",
            imp: HostImpl::Fn(distance_to_player),
        },
    ]
}

fn text_arg(f: &'static str, args: &[Value], i: usize, expected: &str) -> Result<String, HostError> {
    match args.get(i) {
        Some(Value::Str(s)) => Ok(s.clone()),
        Some(Value::Int(n)) => Ok(n.to_string()),
        other => Err(HostError::BadArgument {
            function: f,
            index: i + 1,
            expected: expected.to_owned(),
            got: other.map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string()),
        }),
    }
}

fn int_arg(f: &'static str, args: &[Value], i: usize) -> Result<i64, HostError> {
    args.get(i).and_then(Value::as_i64).ok_or_else(|| HostError::BadArgument {
        function: f,
        index: i + 1,
        expected: "int".to_owned(),
        got: args.get(i).map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string()),
    })
}

fn cell_arg(f: &'static str, args: &[Value]) -> Result<IVec2, HostError> {
    let x = int_arg(f, args, 0)?;
    let y = int_arg(f, args, 1)?;
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    Ok(IVec2::new(clamp(x), clamp(y)))
}

/// `Say(text)`: an instant line, subject to the per-speaker cooldown of repeated lines.
pub fn say(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let text = text_arg("Say", args, 0, "string")?;
    let key = format!("{SAID}{text}");
    let now = ctx.tick();
    let cooldown = ctx.say_cooldown;
    let cooling = |last: &Value| match last {
        Value::Int(last) => now.saturating_sub(u64::try_from(*last).unwrap_or(0)) < cooldown,
        _ => false,
    };
    if ctx.state.get(&key).is_some_and(cooling) {
        return Ok(Value::Nil);
    }
    // Only lines still cooling down need remembering. Kept for good, every line a speaker ever
    // said (a line with a number in it, a taunt file reloaded with new text) stayed in its state,
    // which every call copies: a thousand goblins slowed by a tenth of a millisecond per reload.
    let expired: Vec<String> = ctx
        .state
        .range::<str, _>((Bound::Included(SAID), Bound::Excluded(SAID_END)))
        .filter(|(_, last)| !cooling(last))
        .map(|(k, _)| k.clone())
        .collect();
    for k in expired {
        ctx.state.remove(&k);
    }
    ctx.state.insert(key, Value::Int(i64::try_from(now).unwrap_or(i64::MAX)));
    ctx.perform(Action::Say { text });
    Ok(Value::Nil)
}

/// The state keys of lines said recently: `__said:` and the line (private: scripts never see it).
const SAID: &str = "__said:";
/// The first key after every `__said:` key (`;` follows `:`).
const SAID_END: &str = "__said;";

/// `DoFlee()`: a move to the passable cell up to [`FLEE_DISTANCE`] cells straight away from the
/// player, along the open axis when the diagonal is blocked. The target depends only on the two cells, so asking again continues the same move.
pub fn do_flee(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let Some(player) = ctx.player() else { return Ok(Value::Nil) };
    let (here, there) = (me.cell(), player.cell());
    let away = (here - there).clamp(IVec2::splat(-1), IVec2::ONE);
    let away = if away == IVec2::ZERO { IVec2::X } else { away };
    let map = ctx.world.map();
    // Straight away first; pinned against a wall or the map's edge on a diagonal, along the
    // one axis still open (a goblin in a corner used to stand still and only shout).
    let directions = [away, IVec2::new(away.x, 0), IVec2::new(0, away.y)];
    let target = directions
        .into_iter()
        .filter(|d| *d != IVec2::ZERO)
        .find_map(|d| (1..=FLEE_DISTANCE).rev().map(|k| here + d * k).find(|&c| map.passable(c)));
    if let Some(cell) = target {
        ctx.act(Action::MoveTo { target: cell.as_vec2() + Vec2::splat(0.5) });
    }
    Ok(Value::Nil)
}

/// `DoAttack()`: a move onto the player's cell.
pub fn do_attack(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    ctx.me().ok_or(HostError::NoSelf)?;
    if let Some(player) = ctx.player() {
        let target = player.cell().as_vec2() + Vec2::splat(0.5);
        ctx.act(Action::MoveTo { target });
    }
    Ok(Value::Nil)
}

/// `move(dx, dy)`: one pattern step.
pub fn move_step(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let d = cell_arg("move", args)?;
    ctx.push_move(d);
    Ok(Value::Nil)
}

/// The centre of a named region or the named place.
fn place_point(ctx: &ScriptCtx<'_>, name: &str) -> Option<Vec2> {
    if let Some(r) = ctx.world.region(name) {
        return Some((r.min + r.max).as_vec2() * 0.5 + Vec2::splat(0.5));
    }
    ctx.world.place(name)
}

fn go_to(ctx: &mut ScriptCtx<'_>, target: Vec2) {
    ctx.act(Action::MoveTo { target });
    ctx.set_cursor(target);
}

/// `MoveTo(place)`: a name the world does not know is an error, not a silent stand-still, so a
/// typo shows where it was written.
pub fn move_to_place(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = text_arg("MoveTo", args, 0, "place")?;
    let target = place_point(ctx, &name).ok_or_else(|| unknown_place(ctx, "MoveTo", &name))?;
    go_to(ctx, target);
    Ok(Value::Nil)
}

/// The error for a place or region name the world does not declare, with the nearest name.
fn unknown_place(ctx: &ScriptCtx<'_>, function: &'static str, name: &str) -> HostError {
    let world = ctx.world;
    let names = world.places().keys().chain(world.regions().keys());
    let nearest = names
        .map(|n| (strsim::damerau_levenshtein(&n.to_lowercase(), &name.to_lowercase()), n))
        .filter(|&(d, n)| d <= (n.len() / 3).max(2))
        .min();
    let expected = match nearest {
        Some((_, n)) => format!("a place or region the scenario declares (did you mean `{n}`?)"),
        None => "a place or region the scenario declares".to_owned(),
    };
    HostError::BadArgument { function, index: 1, expected, got: format!("`{name}`") }
}

/// `MoveTo(x, y)`.
pub fn move_to_cell(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let c = cell_arg("MoveTo", args)?;
    go_to(ctx, c.as_vec2() + Vec2::splat(0.5));
    Ok(Value::Nil)
}

/// `Trigger(trap)`.
pub fn trigger(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = text_arg("Trigger", args, 0, "trap")?;
    ctx.perform(Action::Trigger { name });
    Ok(Value::Nil)
}

/// `PlaySound(sound)`.
pub fn play_sound(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = text_arg("PlaySound", args, 0, "sound")?;
    ctx.perform(Action::PlaySound { name });
    Ok(Value::Nil)
}

/// `PlayerLocation(place)`: inside the named region, or on the named place's cell. A name the
/// world does not declare is an error (with the nearest name), not a silent `false`.
pub fn player_at_place(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = text_arg("PlayerLocation", args, 0, "place")?;
    if ctx.world.region(&name).is_none() && ctx.world.place(&name).is_none() {
        return Err(unknown_place(ctx, "PlayerLocation", &name));
    }
    let Some(cell) = ctx.player().map(tactica_engine::world::Entity::cell) else { return Ok(Value::Bool(false)) };
    let inside = match ctx.world.region(&name) {
        Some(r) => r.contains(cell),
        None => ctx.world.place(&name).is_some_and(|p| p.floor().as_ivec2() == cell),
    };
    Ok(Value::Bool(inside))
}

/// `PlayerLocation(x, y)`: the player's cell equals (x, y) (reference 002b §4.7).
pub fn player_at_cell(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let c = cell_arg("PlayerLocation", args)?;
    Ok(Value::Bool(ctx.player().is_some_and(|p| p.cell() == c)))
}

/// The book's `FoundKeyword` (reference 002b Example 8-15): both strings lower-cased (ASCII only,
/// as printed), then a substring search.
pub fn found_keyword(input: &str, keyword: &str) -> bool {
    input.to_ascii_lowercase().contains(&keyword.to_ascii_lowercase())
}

/// `Ask(keyword)`.
pub fn ask(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let keyword = text_arg("Ask", args, 0, "string")?;
    Ok(Value::Bool(ctx.heard.is_some_and(|text| found_keyword(text, &keyword))))
}

/// `Sleep(ticks)`.
pub fn sleep(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let n = int_arg("Sleep", args, 0)?;
    ctx.act(Action::Sleep { ticks: u32::try_from(n.max(0)).unwrap_or(u32::MAX) });
    Ok(Value::Nil)
}

/// `Signal(id)`.
pub fn signal(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let id = text_arg("Signal", args, 0, "signal id")?;
    let scope = ctx.scope();
    send_signal(ctx, scope, id)
}

/// Performs the signal, unless its scope is full of other ids.
fn send_signal(ctx: &mut ScriptCtx<'_>, scope: String, id: String) -> Result<Value, HostError> {
    if ctx.world.signals().is_full_for(&scope, &id) {
        return Err(HostError::OverAllowance {
            function: "Signal",
            reason: format!(
                "this scope holds {} different signals already, the most it keeps; a signal stays sent \
                 until its sequence starts again, so reuse ids (`leg1`, `leg2` …) rather than making a new one \
                 each call",
                tactica_engine::coord::MAX_SIGNALS_PER_SCOPE
            ),
        });
    }
    ctx.perform(Action::Signal { scope, id });
    Ok(Value::Nil)
}

/// The scope `Signal(id, scope)` and `Wait(id, scope)` name.
fn named_scope(f: &'static str, ctx: &ScriptCtx<'_>, args: &[Value]) -> Result<String, HostError> {
    let word = text_arg(f, args, 1, "\"squad\", \"team\" or \"world\"")?;
    match word.to_ascii_lowercase().as_str() {
        "squad" => Ok(ctx.scope()),
        "team" => Ok(ctx.me().map_or_else(String::new, |e| {
            if e.team.is_empty() { e.signal_scope() } else { format!("team:{}", e.team) }
        })),
        "world" => Ok("world".to_owned()),
        _ => Err(HostError::BadArgument {
            function: f,
            index: 2,
            expected: "\"squad\", \"team\" or \"world\"".to_owned(),
            got: format!("\"{word}\""),
        }),
    }
}

/// `Signal(id, scope)`.
pub fn signal_in(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let id = text_arg("Signal", args, 0, "signal id")?;
    let scope = named_scope("Signal", ctx, args)?;
    send_signal(ctx, scope, id)
}

/// `Wait(id, scope)`.
pub fn wait_in(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let id = text_arg("Wait", args, 0, "signal id")?;
    let scope = named_scope("Wait", ctx, args)?;
    ctx.act(Action::Wait { scope, id, logged: false });
    Ok(Value::Nil)
}

/// `Wait(id)`.
pub fn wait(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let id = text_arg("Wait", args, 0, "signal id")?;
    let scope = ctx.scope();
    ctx.act(Action::Wait { scope, id, logged: false });
    Ok(Value::Nil)
}

/// `Build(structure)`.
pub fn build(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let what = text_arg("Build", args, 0, "structure")?;
    ctx.perform(Action::Trigger { name: format!("build {what}") });
    Ok(Value::Nil)
}

/// `Random(n)`.
pub fn random(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let n = int_arg("Random", args, 0)?;
    let n = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
    Ok(Value::Int(i64::try_from(ctx.rng.below(n)).unwrap_or(0)))
}

/// `DistanceToPlayer()`.
pub fn distance_to_player(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let d = ctx.player().map_or(1.0e9, |p| f64::from(p.position.distance(me.position)));
    Ok(Value::Float(d))
}

#[cfg(test)]
mod tests {
    use tactica_engine::Table;
    use tactica_engine::grid::Map;
    use tactica_engine::world::{CommandBuffer, Entity, EntityId, World, WorldRng};

    use super::*;
    use crate::SAY_COOLDOWN_TICKS;

    #[test]
    fn found_keyword_is_the_books_case_blind_substring() {
        assert!(found_keyword("WHAT IS YOUR NAME", "name"));
        assert!(!found_keyword("Who are you?", "what"));
        assert!(found_keyword("Hello, what is your name?", "What"));
        assert!(found_keyword("renamed", "name"), "substring, no word boundaries (P32)");
    }

    /// Says `line` as the goblin at the world's current tick; whether it was said.
    fn say_now(world: &World, goblin: EntityId, state: &mut Table, line: &str) -> bool {
        let (mut commands, mut rng) = (CommandBuffer::default(), WorldRng::new(0));
        let mut ctx = ScriptCtx::new(world, goblin, &mut commands, &mut rng, state);
        say(&mut ctx, &[Value::from(line)]).unwrap();
        !commands.is_empty()
    }

    #[test]
    fn a_repeated_line_waits_out_the_cooldown_and_only_cooling_lines_are_remembered() {
        let mut world = World::new(Map::open(4, 4), 10, 0);
        let goblin = world.spawn(Entity::new("grub", "goblin", IVec2::ZERO)).unwrap();
        let mut state = Table::new();
        state.insert("mood".into(), Value::from("cross"));
        assert!(say_now(&world, goblin, &mut state, "Grr! v0"));
        assert!(!say_now(&world, goblin, &mut state, "Grr! v0"), "the same tick");
        for tick in 1..SAY_COOLDOWN_TICKS {
            world.step(|_, _| {});
            assert!(!say_now(&world, goblin, &mut state, "Grr! v0"), "tick {tick} is inside the cooldown");
            assert!(say_now(&world, goblin, &mut state, &format!("Grr! v{tick}")), "a new line is said at once");
        }
        let said = |state: &Table| state.keys().filter(|k| k.starts_with(SAID)).count();
        assert_eq!(said(&state), SAY_COOLDOWN_TICKS as usize, "every line is still cooling down");
        world.step(|_, _| {});
        assert!(say_now(&world, goblin, &mut state, "Grr! v0"), "tick 50: the cooldown is over");
        // The lines of ticks 0 and 1 are 50 and 49 ticks old: only the first has cooled down.
        assert_eq!(said(&state), SAY_COOLDOWN_TICKS as usize);
        for _ in 0..SAY_COOLDOWN_TICKS {
            world.step(|_, _| {});
        }
        assert!(say_now(&world, goblin, &mut state, "Hello"));
        assert_eq!(said(&state), 1, "everything else cooled down and was forgotten");
        assert_eq!(state.get("mood"), Some(&Value::from("cross")), "the script's own keys are left alone");
    }
}

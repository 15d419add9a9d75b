//! State machines written by hand in Lua or Rhai: `ChangeState` records a change of state exactly
//! as a `.tac` `machine` does (the entity's `state` attribute, then a `state` event), so a guard
//! moved from one language to another leaves the same trace.

use tactica_engine::Value;
use tactica_engine::world::{Command, EventKind};

use crate::api::{HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

/// The entity attribute a machine's current state lives in (`creature.state` in `.tac`).
pub const STATE_ATTRIBUTE: &str = "state";

/// The functions of this package.
pub(crate) fn functions() -> Vec<HostFn> {
    vec![HostFn {
        name: "ChangeState",
        params: vec![Param { name: "machine", ty: Type::Str }, Param { name: "state", ty: Type::Str }],
        ret: Type::Nil,
        doc: "Moves the scripted entity's state machine to a state, as a `.tac` `machine` transition does: \
              sets the `state` attribute and records a `state` event from the state the entity was in \
              when the tick began (`ChangeState(\"Guard\", \"kChase\")`). Changing to the current state does nothing.",
        imp: HostImpl::Fn(change_state),
    }]
}

/// `ChangeState(machine, state)`.
pub fn change_state(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let text = |i: usize, expected: &str| match args.get(i) {
        Some(Value::Str(s)) if !s.is_empty() => Ok(s.clone()),
        other => Err(HostError::BadArgument {
            function: "ChangeState",
            index: i + 1,
            expected: expected.to_owned(),
            got: other.map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string()),
        }),
    };
    let machine = text(0, "a machine name")?;
    let to = text(1, "a state name")?;
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let from = me.attribute(STATE_ATTRIBUTE).as_str().unwrap_or_default().to_owned();
    if from == to {
        return Ok(Value::Nil);
    }
    let entity = ctx.me;
    ctx.commands.push(Command::SetAttribute { entity, key: STATE_ATTRIBUTE.to_owned(), value: Value::Str(to.clone()) });
    ctx.commands.push(Command::Emit { entity: Some(entity), event: EventKind::State { machine, from, to } });
    Ok(Value::Nil)
}

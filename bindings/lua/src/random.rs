//! `math.random` and `math.randomseed` for scripts: one source of randomness.
//!
//! Lua's own generator is seeded per state (the vendored Lua seeds it with a constant, not the
//! time and an address), and it is not the world's: a script that drew from it would give the
//! same rolls whatever the scenario's seed. So `math.random` draws from the world's generator
//! (the one `Random` draws from, lent with the call), with Lua's meaning of its arguments. A
//! script that wants a stream of its own — the same rolls whatever else happens in the world —
//! calls `math.randomseed(x [, y])`: from then on this file's `math.random` draws from Lua's
//! generator seeded with `x` and `y` only. `math.randomseed()` with no seed goes back to the
//! world's generator. Nothing a script does reseeds the world's generator.
//!
//! While the file loads (its top level) no generator is lent: `math.random` draws from the
//! file's own stream then.

use std::cell::Cell;
use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Value as LuaValue};
use tactica_engine::world::WorldRng;
use tactica_stdlib::lend::with_lent;

/// Replaces `math.random` and `math.randomseed` in `lua` (see the module documentation).
pub(crate) fn install(lua: &Lua) -> mlua::Result<()> {
    let math: mlua::Table = lua.globals().raw_get("math")?;
    let own_random: Function = math.raw_get("random")?;
    let own_seed: Function = math.raw_get("randomseed")?;
    // Whether the script seeded a stream of its own.
    let seeded = Rc::new(Cell::new(false));
    let uses_own = Rc::clone(&seeded);
    let random = lua.create_function(move |lua, args: MultiValue| {
        // A call from Lua into Rust, as an API call is charged (`host::HOST_CALL_WORK`); at the
        // next instruction, since a Rust callback may not raise the budget's error itself.
        crate::patched::charge_later(lua, crate::host::HOST_CALL_WORK);
        if !uses_own.get()
            && let Some(drawn) = with_lent(|ctx| draw(ctx.rng, &args))
        {
            return drawn.map(|v| MultiValue::from_iter([v])).map_err(mlua::Error::runtime);
        }
        own_random.call::<MultiValue>(args)
    })?;
    let randomseed = lua.create_function(move |lua, args: MultiValue| {
        crate::patched::charge_later(lua, crate::host::HOST_CALL_WORK);
        if args.is_empty() {
            seeded.set(false);
            return Ok(MultiValue::new());
        }
        let seeds = own_seed.call::<MultiValue>(args)?;
        seeded.set(true);
        Ok(seeds)
    })?;
    math.raw_set("random", random)?;
    math.raw_set("randomseed", randomseed)
}

/// `math.random(args…)` drawn from `rng`, as Lua 5.4 defines it: no argument, a float in
/// `[0, 1)`; `m`, an integer in `[1, m]` (`m == 0`: any integer); `m, n`, an integer in `[m, n]`.
fn draw(rng: &mut WorldRng, args: &MultiValue) -> Result<LuaValue, String> {
    let (low, up) = match args.len() {
        0 => {
            // The top 53 bits, as Lua's own `I2d` makes a float of a draw.
            #[expect(clippy::cast_precision_loss, reason = "53 bits are exact in an f64")]
            let x = (rng.next_u64() >> 11) as f64 * (0.5f64).powi(53);
            return Ok(LuaValue::Number(x));
        }
        1 => {
            let up = integer(args, 0)?;
            if up == 0 {
                return Ok(LuaValue::Integer(i64::from_ne_bytes(rng.next_u64().to_ne_bytes())));
            }
            (1, up)
        }
        2 => (integer(args, 0)?, integer(args, 1)?),
        _ => return Err("wrong number of arguments to 'random'".to_owned()),
    };
    if low > up {
        return Err("bad argument #1 to 'random' (interval is empty)".to_owned());
    }
    let span = up.wrapping_sub(low).cast_unsigned();
    Ok(LuaValue::Integer(low.wrapping_add(project(rng, span).cast_signed())))
}

/// A draw in `[0, n]` without bias, as Lua's `project`: masked to the smallest `2^b - 1` not
/// below `n`, drawn again while over `n`.
fn project(rng: &mut WorldRng, n: u64) -> u64 {
    let mut ran = rng.next_u64();
    if n & n.wrapping_add(1) == 0 {
        return ran & n;
    }
    let lim = u64::MAX >> n.leading_zeros();
    loop {
        ran &= lim;
        if ran <= n {
            return ran;
        }
        ran = rng.next_u64();
    }
}

/// Argument `i` as an integer, as `luaL_checkinteger` reads it (a float with an integral value
/// counts).
fn integer(args: &MultiValue, i: usize) -> Result<i64, String> {
    let bad = |what: &str| format!("bad argument #{} to 'random' ({what})", i + 1);
    match args.get(i) {
        Some(LuaValue::Integer(n)) => Ok(*n),
        #[expect(clippy::cast_possible_truncation, reason = "checked to be integral and in range")]
        Some(LuaValue::Number(x)) if x.fract() == 0.0 && (-(2f64.powi(63))..2f64.powi(63)).contains(x) => Ok(*x as i64),
        Some(LuaValue::Number(_)) => Err(bad("number has no integer representation")),
        Some(other) => Err(bad(&format!("number expected, got {}", other.type_name()))),
        None => Err(bad("number expected, got no value")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_keep_to_their_interval_and_empty_ones_are_refused() {
        let mut rng = WorldRng::new(7);
        let args = |v: &[i64]| MultiValue::from_iter(v.iter().map(|&n| LuaValue::Integer(n)));
        for _ in 0..2_000 {
            let LuaValue::Integer(n) = draw(&mut rng, &args(&[6])).unwrap() else { panic!() };
            assert!((1..=6).contains(&n));
            let LuaValue::Integer(n) = draw(&mut rng, &args(&[-3, 3])).unwrap() else { panic!() };
            assert!((-3..=3).contains(&n));
            let LuaValue::Number(x) = draw(&mut rng, &args(&[])).unwrap() else { panic!() };
            assert!((0.0..1.0).contains(&x));
            let LuaValue::Integer(n) = draw(&mut rng, &args(&[i64::MIN, i64::MAX])).unwrap() else { panic!() };
            let _ = n;
        }
        assert!(draw(&mut rng, &args(&[3, 1])).unwrap_err().contains("interval is empty"));
        assert!(draw(&mut rng, &args(&[1, 2, 3])).unwrap_err().contains("wrong number"));
        let half = MultiValue::from_iter([LuaValue::Number(2.5)]);
        assert!(draw(&mut rng, &half).unwrap_err().contains("no integer representation"));
    }

    #[test]
    fn every_value_of_a_small_interval_comes_up_evenly() {
        let mut rng = WorldRng::new(1);
        let mut counts = [0u32; 5];
        let five = MultiValue::from_iter([LuaValue::Integer(5)]);
        for _ in 0..50_000 {
            let LuaValue::Integer(n) = draw(&mut rng, &five).unwrap() else { panic!() };
            counts[usize::try_from(n - 1).unwrap()] += 1;
        }
        // 10,000 expected each; five standard deviations is about 450.
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
    }
}

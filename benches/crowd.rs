//! A whole game tick of a crowd: `examples/crowd`, 10,000 characters a third each in `.tac`, Lua
//! and Rhai (perception, taunts, walks planned under the navigation budget, squads that signal
//! and wait, the watch's rule system), on the town map and — when the shared benchmark data is
//! present — on a real city map (`Berlin_1_256`, 256 × 256) with the scenario's map replaced.
//!
//! Reported: the tick's median, its split (scripts per language, path queue, walking, steering,
//! field, trace; from the runtime's profiler), and the same tick with the behaviours written as
//! native Rust closures calling the same stdlib functions (the floor), as one summary line
//! (`cargo bench --bench crowd`), and a second line for a long run (1,000 ticks), whose later
//! ticks cost more as the squads spread out. The trace is hashed as it goes and the log bounded,
//! as a game running for hours would have it.

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use tactica::host::{ScriptCall, Trigger};
use tactica::runtime::{Phase, Runtime};
use tactica::scenario::{self, Scenario};
use tactica_engine::Value;
use tactica_engine::grid::{load_movingai, shared_data_dir};
use tactica_stdlib::{Api, HostFnPtr, ScriptCtx};

// As the `tactica` binary does, so the Rhai figures include the allocation accounting.
#[global_allocator]
static ALLOCATOR: tactica::memory::CountingAllocator = tactica::memory::CountingAllocator;

const CROWD: &str = "examples/crowd/scenario.toml";
/// The same crowd with everyone thinking every tick (`think_every = 1`).
const EVERYONE: &str = "examples/crowd/everyone.toml";
/// Ticks played before timing: the spawn calls of tick 0 and the first wave of walks.
const WARM: u64 = 30;
/// Ticks timed for the medians.
const TIMED: usize = 60;
/// Ticks of the long run (from tick 30), timed in blocks: the town gets busier as squads spread.
const LONG: usize = 1_000;
const BLOCK: usize = 250;
const TARGET_MS: f64 = 8.0;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn scripted(s: Scenario) -> Runtime {
    let mut rt = Runtime::new(s, tactica::languages()).unwrap_or_else(|e| panic!("{e:?}"));
    rt.keep_events(Some(50_000));
    rt
}

/// The stdlib functions the native peer calls, as the scripts do.
#[derive(Clone, Copy)]
struct Fns {
    distance: HostFnPtr,
    player: HostFnPtr,
    can_see: HostFnPtr,
    say: HostFnPtr,
    random: HostFnPtr,
    idle: HostFnPtr,
    attribute_of: HostFnPtr,
    me: HostFnPtr,
    position_of: HostFnPtr,
    move_to: HostFnPtr,
    reachable: HostFnPtr,
    step: HostFnPtr,
    signal: HostFnPtr,
    wait: HostFnPtr,
}

impl Fns {
    fn new() -> Self {
        let api = Api::standard();
        let f = |n: &str, arity: usize| {
            api.functions(n)
                .find(|f| f.params.len() == arity)
                .and_then(|f| f.imp.as_fn())
                .unwrap_or_else(|| panic!("{n}/{arity}"))
        };
        Fns {
            distance: f("DistanceToPlayer", 0),
            player: f("Player", 0),
            can_see: f("CanSee", 1),
            say: f("Say", 1),
            random: f("Random", 1),
            idle: f("IsIdle", 0),
            attribute_of: f("AttributeOf", 2),
            me: f("Me", 0),
            position_of: f("PositionOf", 1),
            move_to: f("MoveTo", 2),
            reachable: f("Reachable", 2),
            step: f("move", 2),
            signal: f("Signal", 1),
            wait: f("Wait", 1),
        }
    }
}

/// The crowd's behaviour in Rust: what `townsfolk.lua` and `dockers.rhai` do (walks by `MoveTo` to
/// a reachable cell), or the watch's rules (`watch.tac`: walks by a `move` step, one challenge per
/// leg).
fn native_behaviour(f: Fns, taunts: &'static [&'static str], watch: bool) -> tactica::host::NativeFn {
    let mut leg: i64 = 0;
    let mut waiting = false;
    let mut challenged = -1;
    Box::new(move |call: &mut ScriptCall<'_>| {
        if *call.trigger != Trigger::Think {
            return Ok(());
        }
        let Some(me) = call.entity else { return Ok(()) };
        let mut ctx = ScriptCtx::new(call.world, me, call.commands, call.rng, call.state.reborrow());
        let c = &mut ctx;
        let run = |h: HostFnPtr, c: &mut ScriptCtx<'_>, args: &[Value]| h(c, args).map_err(|e| e.to_string());
        let near = run(f.distance, c, &[])?.as_f64().is_some_and(|d| d < 8.0) && {
            let p = run(f.player, c, &[])?;
            matches!(run(f.can_see, c, &[p])?, Value::Bool(true))
        };
        if near && (!watch || challenged != leg) {
            challenged = leg;
            let n = run(f.random, c, &[Value::Int(taunts.len() as i64)])?.as_i64().unwrap_or(0) as usize;
            run(f.say, c, &[Value::from(taunts[n.min(taunts.len() - 1)])])?;
        }
        if !matches!(run(f.idle, c, &[])?, Value::Bool(true)) {
            c.finish();
            return Ok(());
        }
        let me_v = run(f.me, c, &[])?;
        let leader = matches!(run(f.attribute_of, c, &[me_v.clone(), Value::from("leader")])?, Value::Bool(true));
        let wander = |c: &mut ScriptCtx<'_>| -> Result<(), String> {
            let dx = run(f.random, c, &[Value::Int(25)])?.as_i64().unwrap_or(0) - 12;
            let dy = run(f.random, c, &[Value::Int(25)])?.as_i64().unwrap_or(0) - 12;
            if watch {
                run(f.step, c, &[Value::Int(dx), Value::Int(dy)])?;
            } else {
                let Value::Vec2(at) = run(f.position_of, c, std::slice::from_ref(&me_v))? else { return Ok(()) };
                let to = [Value::Int(at.x.floor() as i64 + dx), Value::Int(at.y.floor() as i64 + dy)];
                if matches!(run(f.reachable, c, &to)?, Value::Bool(true)) {
                    run(f.move_to, c, &to)?;
                }
            }
            Ok(())
        };
        if leader {
            leg += 1;
            run(f.signal, c, &[Value::from(format!("leg{leg}"))])?;
            wander(c)?;
        } else if waiting {
            waiting = false;
            wander(c)?;
        } else {
            leg += 1;
            waiting = true;
            run(f.wait, c, &[Value::from(format!("leg{leg}"))])?;
        }
        c.finish();
        Ok(())
    })
}

/// The same crowd with every script replaced by its native behaviour, on the same think ticks.
fn native(mut s: Scenario) -> Runtime {
    let plan: Vec<_> = std::mem::take(&mut s.entity_scripts);
    let mut rt = Runtime::new(s, Vec::new()).unwrap_or_else(|e| panic!("{e:?}"));
    rt.keep_events(Some(50_000));
    let f = Fns::new();
    for es in plan {
        let file = es.files[0].to_string_lossy().into_owned();
        let (taunts, watch): (&'static [&'static str], bool) = if file.ends_with(".lua") {
            (&["Move along, stranger.", "Mind your purse.", "We want no trouble here."], false)
        } else if file.ends_with(".rhai") {
            (&["Out of the way, landlubber.", "Nothing to see here.", "The harbour's closed to you."], false)
        } else {
            (&["Halt! Who goes there?"], true)
        };
        rt.attach_native(Some(es.entity), "crowd", es.think_every, native_behaviour(f, taunts, watch));
        let last = rt.host_mut().instances().len() - 1;
        rt.host_mut().set_think_phase(last, es.think_phase);
    }
    rt
}

/// Plays `TIMED` ticks and returns their durations.
fn time_ticks(rt: &mut Runtime, ticks: usize) -> Vec<Duration> {
    (0..ticks)
        .map(|_| {
            let t = Instant::now();
            rt.tick();
            t.elapsed()
        })
        .collect()
}

struct Split {
    total: f64,
    languages: Vec<(String, f64)>,
    phases: Vec<(Phase, f64)>,
}

/// The tick's median with the profiler off, then the split with it on.
fn measure(rt: &mut Runtime) -> Split {
    let total = ms(median(time_ticks(rt, TIMED)));
    rt.enable_profile();
    let _ = time_ticks(rt, TIMED);
    let p = rt.disable_profile().expect("profiled");
    let languages = ["lua", "rhai", "tac", "native"]
        .iter()
        .filter_map(|l| p.language(l).map(|s| ((*l).to_owned(), ms(s.median()))))
        .collect();
    let phases = Phase::ALL.iter().map(|&ph| (ph, p.phase(ph).map_or(0.0, |s| ms(s.median())))).collect();
    Split { total, languages, phases }
}

fn describe(s: &Split) -> String {
    let mut parts: Vec<String> = s.languages.iter().map(|(l, m)| format!("{l} {m:.2}")).collect();
    for (ph, m) in &s.phases {
        let name = match ph {
            Phase::Path => "path",
            Phase::Walk => "walk",
            Phase::Steer => "steer",
            Phase::Field => "field",
            Phase::Trace => "trace",
            Phase::Apply => "apply",
            Phase::Perceive => "perceive",
            _ => continue,
        };
        parts.push(format!("{name} {m:.2}"));
    }
    parts.join(", ")
}

/// The median tick over a long stretch of play, fresh crowds from tick 30, with the medians of
/// its blocks: what a game sees after the first minutes, not only the opening ticks.
fn long_run(town: impl Fn() -> Scenario) {
    let play = |mut rt: Runtime| -> (f64, Vec<f64>) {
        rt.run(WARM);
        let times = time_ticks(&mut rt, LONG);
        let blocks = times.chunks(BLOCK).map(|b| ms(median(b.to_vec()))).collect();
        (ms(median(times)), blocks)
    };
    let (scripted_ms, blocks) = play(scripted(town()));
    let (native_ms, _) = play(native(town()));
    let blocks: Vec<String> = blocks.iter().map(|b| format!("{b:.2}")).collect();
    let met = if scripted_ms <= TARGET_MS { "met" } else { "not met" };
    eprintln!(
        "crowd tick over a long run (ticks {WARM}–{}): median {scripted_ms:.2} ms (blocks of {BLOCK}: {}), native peer \
         {native_ms:.2} ms, ratio {:.1}×; target ≤ {TARGET_MS} ms: {met}",
        WARM as usize + LONG,
        blocks.join(", "),
        scripted_ms / native_ms
    );
}

fn counts(rt: &Runtime) -> (usize, usize) {
    let log = rt.world().log();
    let recent = log.range(log.first_kept()..log.len());
    let paths = recent.iter().filter(|e| matches!(e.kind, tactica_engine::world::EventKind::Path { .. })).count();
    let says = recent.iter().filter(|e| matches!(e.kind, tactica_engine::world::EventKind::Say { .. })).count();
    (paths, says)
}

/// Both crowds at 1 thread and at every core, ticks timed alternately so a busy machine weighs
/// on both alike; the traces must agree. One line per crowd: the medians, the speed-up, the
/// scripts phase's share at one thread (what the threads divide) and the native peer's tick.
fn threads(c: &mut Criterion) {
    let _ = c;
    let cores = tactica::runtime::default_threads();
    for (name, file) in [("staggered (think_every = 10)", CROWD), ("everyone thinks (think_every = 1)", EVERYONE)] {
        let load = || scenario::load(Path::new(file)).unwrap_or_else(|e| panic!("{e}"));
        let mut one = scripted(load());
        one.set_threads(1);
        let mut all = scripted(load());
        all.set_threads(cores);
        let mut peer = native(load());
        peer.set_threads(cores);
        for rt in [&mut one, &mut all, &mut peer] {
            rt.run(WARM);
        }
        let (mut t1, mut tn, mut tp) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..TIMED {
            t1.extend(time_ticks(&mut one, 1));
            tn.extend(time_ticks(&mut all, 1));
            tp.extend(time_ticks(&mut peer, 1));
        }
        assert_eq!(one.trace_hash(), all.trace_hash(), "{name}: 1 and {cores} threads play the same trace");
        one.enable_profile();
        let _ = time_ticks(&mut one, 20);
        let p = one.disable_profile().expect("profiled");
        let total: f64 = Phase::ALL.iter().map(|&ph| p.phase(ph).map_or(0.0, |s| ms(s.median()))).sum();
        let scripts = p.phase(Phase::Scripts).map_or(0.0, |s| ms(s.median()));
        let (m1, mn, mp) = (ms(median(t1)), ms(median(tn)), ms(median(tp)));
        eprintln!(
            "crowd {name}: 1 thread {m1:.2} ms, {cores} threads {mn:.2} ms, speed-up {:.2}×; scripts phase \
             {:.0}% of a 1-thread tick; native peer ({cores} threads) {mp:.2} ms",
            m1 / mn,
            100.0 * scripts / total.max(1e-9)
        );
    }
}

fn crowd(c: &mut Criterion) {
    threads(c);
    // `CROWD_THREADS_ONLY=1 cargo bench --bench crowd`: the thread comparison alone (a minute
    // instead of several), for work on the parallel tick.
    if std::env::var_os("CROWD_THREADS_ONLY").is_some() {
        return;
    }
    let town = || scenario::load(Path::new(CROWD)).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = scripted(town());
    rt.run(WARM);
    let mut peer = native(town());
    peer.run(WARM);
    // Validate: both crowds walk, plan paths and taunt, and no script failed.
    for (who, r) in [("scripted", &rt), ("native", &peer)] {
        let (paths, says) = counts(r);
        assert!(paths > 0 && says > 0, "the {who} crowd plans paths ({paths}) and taunts ({says})");
        let errors = r
            .world()
            .log()
            .events()
            .iter()
            .filter(|e| matches!(e.kind, tactica_engine::world::EventKind::ScriptError { .. }))
            .count();
        assert_eq!(errors, 0, "no {who} behaviour failed");
    }

    // The summary's ticks first (ticks 30–150 of both crowds, the same stretch of play), then
    // criterion's, which play on from there.
    let scripted_split = measure(&mut rt);
    let native_split = measure(&mut peer);
    let mut g = c.benchmark_group("crowd_tick");
    g.sample_size(20).measurement_time(Duration::from_secs(8));
    g.bench_function("town_10k_mixed", |b| b.iter(|| rt.tick()));
    g.bench_function("town_10k_native", |b| b.iter(|| peer.tick()));
    g.finish();

    let ratio = scripted_split.total / native_split.total;
    let met = if scripted_split.total <= TARGET_MS { "met" } else { "not met" };
    eprintln!(
        "crowd tick medians: total {:.2} ms ({}), native peer {:.2} ms, ratio {ratio:.1}×; target ≤ {TARGET_MS} ms: {met}",
        scripted_split.total,
        describe(&scripted_split),
        native_split.total
    );
    eprintln!("native peer split (ms): {}", describe(&native_split));
    long_run(town);

    let Some(dir) = shared_data_dir() else {
        eprintln!("crowd on a real map: skipped (no shared benchmark data; set TACTICA_DATA)");
        return;
    };
    let map_path = dir.join("maps").join("Berlin_1_256.map");
    let map = load_movingai(&map_path).unwrap_or_else(|e| panic!("{e}"));
    let berlin = || scenario::load_with_map(Path::new(CROWD), map.clone()).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = scripted(berlin());
    rt.run(WARM);
    let mut peer = native(berlin());
    peer.run(WARM);
    let s = measure(&mut rt);
    let n = measure(&mut peer);
    let mut g = c.benchmark_group("crowd_tick");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.bench_function("berlin_10k_mixed", |b| b.iter(|| rt.tick()));
    g.finish();
    eprintln!(
        "crowd tick medians on Berlin_1_256 (256×256): total {:.2} ms ({}), native peer {:.2} ms, ratio {:.1}×",
        s.total,
        describe(&s),
        n.total,
        s.total / n.total
    );
}

criterion_group!(benches, crowd);
criterion_main!(benches);

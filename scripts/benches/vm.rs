//! The VM running a typical behaviour script — conditions on globals, three host calls — once per
//! entity per tick, against a native Rust closure doing the same through the same host functions.
//! Prints ns per entity-tick for both and the ratio.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::IVec2;
use tactica_engine::Value;
use tactica_engine::grid::Map;
use tactica_engine::world::{CommandBuffer, Entity, EntityId, World, WorldRng};
use tactica_script::{Api, Instance, Script, ScriptCtx, ScriptKind, ScriptLimits, Trigger, check, values_equal};
use tactica_stdlib::HostFnPtr;

const ENTITIES: usize = 100;

const SCRIPT: &str = r"
If (PlayerArmed == TRUE and LEVEL > 2)
    DoFlee();
ELSE
    DoAttack();
if (GameTime == kNight) PlaySound(kCricketsSnd);
if (PlayerLocation(kDock)) Trigger(kPoisonTrap);
";

struct Setup {
    world: World,
    ids: Vec<EntityId>,
    script: Script,
    instances: Vec<Instance>,
}

fn setup() -> Setup {
    let mut world = World::new(Map::open(64, 64), 10, 1);
    let mut p = Entity::new("player", "Human", IVec2::new(32, 32));
    p.tags.insert("player".into());
    world.spawn(p).unwrap();
    let ids: Vec<EntityId> = (0..ENTITIES)
        .map(|i| {
            world
                .spawn(Entity::new(format!("t{i}"), "Troll", IVec2::new((i % 60) as i32 + 2, (i / 60) as i32 + 2)))
                .unwrap()
        })
        .collect();
    world.globals.insert("PlayerArmed".into(), Value::from("Dagger"));
    world.globals.insert("LEVEL".into(), Value::Int(5));
    world.globals.insert("GameTime".into(), Value::from("kNight"));
    let (script, diags) = check("bench.tac", SCRIPT, &Api::standard());
    let script = script.unwrap_or_else(|| panic!("{diags:?}"));
    let instances = ids.iter().map(|_| script.instantiate()).collect();
    Setup { world, ids, script, instances }
}

fn run_vm(s: &mut Setup, commands: &mut CommandBuffer, rng: &mut WorldRng) {
    let (limits, mut report) = (ScriptLimits::new(), tactica_script::RunReport::default());
    for (id, inst) in s.ids.iter().zip(s.instances.iter_mut()) {
        let r = s.script.run_entity(
            inst,
            ScriptKind::Behaviour,
            Trigger::Think,
            &s.world,
            *id,
            commands,
            rng,
            None,
            &limits,
            &mut report,
        );
        black_box(r.is_ok());
    }
}

struct Native {
    flee: HostFnPtr,
    attack: HostFnPtr,
    sound: HostFnPtr,
    location: HostFnPtr,
    trigger: HostFnPtr,
}

fn native() -> Native {
    let api = Api::standard();
    let f = |name: &str, arity: usize| {
        api.functions(name).find(|f| f.params.len() == arity).and_then(|f| f.imp.as_fn()).unwrap()
    };
    Native {
        flee: f("DoFlee", 0),
        attack: f("DoAttack", 0),
        sound: f("PlaySound", 1),
        location: f("PlayerLocation", 1),
        trigger: f("Trigger", 1),
    }
}

/// The same script written in Rust against the same host functions.
fn run_native(s: &mut Setup, n: &Native, commands: &mut CommandBuffer, rng: &mut WorldRng) {
    let night = Value::from("kNight");
    let dock = [Value::from("kDock")];
    let crickets = [Value::from("kCricketsSnd")];
    let poison = [Value::from("kPoisonTrap")];
    for (id, inst) in s.ids.iter().zip(s.instances.iter_mut()) {
        let mut ctx = ScriptCtx::new(&s.world, *id, commands, rng, &mut inst.table);
        let armed = ctx.world.global("PlayerArmed").truthy();
        let level = ctx.world.global("LEVEL").as_i64().unwrap_or(0);
        let _ = if armed && level > 2 { (n.flee)(&mut ctx, &[]) } else { (n.attack)(&mut ctx, &[]) };
        if values_equal(ctx.world.global("GameTime"), &night) {
            let _ = (n.sound)(&mut ctx, &crickets);
        }
        if (n.location)(&mut ctx, &dock).is_ok_and(|v| v.truthy()) {
            let _ = (n.trigger)(&mut ctx, &poison);
        }
        ctx.finish();
        black_box(&ctx);
    }
}

fn ns_per_entity_tick(mut f: impl FnMut()) -> f64 {
    for _ in 0..50 {
        f();
    }
    let mut samples: Vec<f64> = (0..31)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..20 {
                f();
            }
            t.elapsed().as_nanos() as f64 / (20 * ENTITIES) as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn bench(c: &mut Criterion) {
    let mut s = setup();
    let n = native();
    let mut rng = WorldRng::new(1);
    // Validate before timing: both issue the same commands (a flee and a sound per entity).
    let (mut a, mut b) = (CommandBuffer::default(), CommandBuffer::default());
    run_vm(&mut s, &mut a, &mut rng);
    let mut s2 = setup();
    run_native(&mut s2, &n, &mut b, &mut rng);
    assert_eq!(a.as_slice(), b.as_slice(), "the VM and the native peer must do the same");
    assert_eq!(a.len(), 2 * ENTITIES);

    let mut commands = CommandBuffer::default();
    let vm = ns_per_entity_tick(|| {
        commands.truncate(0);
        run_vm(&mut s, &mut commands, &mut rng);
    });
    let native_ns = ns_per_entity_tick(|| {
        commands.truncate(0);
        run_native(&mut s2, &n, &mut commands, &mut rng);
    });
    eprintln!("vm: {vm:.0} ns/entity-tick, native closure: {native_ns:.0} ns/entity-tick, ratio {:.2}", vm / native_ns);

    let mut g = c.benchmark_group("behaviour_100_entities");
    g.bench_function("tac_vm", |bch| {
        bch.iter(|| {
            commands.truncate(0);
            run_vm(&mut s, &mut commands, &mut rng);
        });
    });
    g.bench_function("native_closure", |bch| {
        bch.iter(|| {
            commands.truncate(0);
            run_native(&mut s2, &n, &mut commands, &mut rng);
        });
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

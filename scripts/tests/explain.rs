//! `tactica explain`'s examples are held to their word: every code has a long explanation, its
//! `right` script checks with no diagnostic at all, and its `wrong` script produces exactly that
//! code — from the checker, or, for the run-time codes, when it runs.

mod common;

use common::{Harness, compile};
use glam::IVec2;
use tactica_script::{
    Api, Code, Explanation, RuntimeError, ScriptCtx, ScriptKind, ScriptLimits, TextKind, Trigger, check, explanation,
};

/// Runs `src` as a behaviour script on one think tick under a small budget.
fn run(src: &str) -> Result<(), RuntimeError> {
    let mut h = Harness::with_script(
        compile(src),
        ScriptKind::Behaviour,
        "Troll",
        IVec2::ONE,
        IVec2::splat(3),
        IVec2::splat(8),
    );
    let mut rng = h.world.rng().clone();
    let Harness { world, script, inst, me, kind, .. } = &mut h;
    let mut result = Ok(());
    world.step(|w, commands| {
        let mut table = std::mem::take(&mut inst.table);
        let mut ctx = ScriptCtx::new(w, *me, commands, &mut rng, &mut table);
        result = script.run(inst, *kind, Trigger::Think, &mut ctx, ScriptLimits::new().set_max_ops(5_000)).map(|_| ());
        inst.table = table;
    });
    result
}

/// The codes `src` gets as the kind of text its code's examples are: a `.tac` script, a model's
/// condition, or a query file. A first line `// scenario: tags = ["a", "b"]` checks it as in a scenario
/// whose characters carry those tags.
fn codes_of(kind: TextKind, src: &str) -> Vec<Code> {
    match kind {
        TextKind::Tac => codes(src),
        TextKind::Condition => {
            tactica_syntax::condition::parse(src).err().unwrap_or_default().iter().map(|d| d.code).collect()
        }
        TextKind::QueryBlocks => tactica_engine::tactics::query::parse_queries("explain.tps", src, Default::default())
            .err()
            .map(|e| e.0.iter().map(|e| e.kind.code()).collect())
            .unwrap_or_default(),
        TextKind::Tree => {
            // As `TextKind::Tree` says: leaf files defining these functions, a scenario with these places.
            let functions = ["investigate", "listen", "call_squad"].map(str::to_owned);
            let places = ["post_a", "post_b", "gate"].map(str::to_owned);
            let catalog = tactica_engine::decide::bt::Catalog { functions: Some(&functions), places: Some(&places) };
            tactica_engine::decide::bt::parse(src, &catalog).1.iter().map(|d| d.code).collect()
        }
        TextKind::Lua => unreachable!("the Lua examples are held to their word by the Lua linter's own tests"),
        TextKind::TestFile => unreachable!("the test-file examples are held to their word by tests/testing.rs"),
    }
}

/// The codes whose examples this crate can check: all but the Lua linter's, which
/// `bindings/lua/tests/lint.rs` checks with the linter that gives them, and the test files',
/// which need a scenario loaded (`tests/testing.rs` checks them beside examples/harbour).
fn tac_front_end_codes() -> impl Iterator<Item = Code> {
    Code::ALL.iter().copied().filter(|&c| !matches!(explanation(c).text_kind, TextKind::Lua | TextKind::TestFile))
}

fn codes(src: &str) -> Vec<Code> {
    let mut api = Api::standard();
    if let Some(list) = src.lines().next().and_then(|l| l.strip_prefix("// scenario: tags = ")) {
        let tags: Vec<&str> = list.trim_matches(['[', ']']).split(',').map(|t| t.trim().trim_matches('"')).collect();
        api.declare_tags(tags);
    }
    check("explain.tac", src, &api).1.iter().map(|d| d.code).collect()
}

#[test]
fn every_code_has_a_long_explanation() {
    for &code in Code::ALL {
        let e: Explanation = explanation(code);
        assert_eq!(e.code, code);
        assert!(e.text.len() > 60, "{code}: a paragraph, not a word");
        assert_ne!(e.wrong, e.right, "{code}");
        let text = e.render();
        assert!(text.starts_with(code.as_str()) && text.contains(e.wrong.lines().next().unwrap()), "{text}");
    }
}

#[test]
fn every_right_example_checks_clean() {
    for code in tac_front_end_codes() {
        let e = explanation(code);
        assert_eq!(codes_of(e.text_kind, e.right), [], "{code}'s right example:\n{}", e.right);
        if e.at_run_time() {
            assert!(run(e.right).is_ok(), "{code}'s right example must run: {:?}", run(e.right));
        }
    }
}

#[test]
fn every_wrong_example_produces_its_code() {
    for code in tac_front_end_codes() {
        let e = explanation(code);
        let found = codes_of(e.text_kind, e.wrong);
        if e.at_run_time() {
            assert!(found.iter().all(|c| c.level() != tactica_script::Level::Error), "{code}: {found:?}");
            let err = run(e.wrong).expect_err(e.wrong);
            assert_eq!(err.code, code, "{code}'s wrong example stopped with {err:?}");
        } else {
            assert!(found.contains(&code), "{code}'s wrong example gave {found:?}:\n{}", e.wrong);
        }
    }
}

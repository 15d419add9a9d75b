//! Genetic algorithms in play: a `genetic` model's population read, scored and evolved from
//! `.tac`, Lua and Rhai, round after round, equal to the engine's Rust API with the same seed.

mod common;
use tactica_engine::decide::learn::{GeneticRun, GeneticSpec};

const MODEL: &str = "genes = [[0, 1, 2], [0, 1], [1, 2, 3], [0, 4]]\nsize = 6\nmutation_percent = 20\nseed = 11\n";

/// Each round (every 2nd tick) the arena scores every creature by its genes — damage dealt is the
/// sum of its genes, damage taken is 1 + its first gene — and breeds the next generation.
fn script(ext: &str) -> &'static str {
    match ext {
        "lua" => {
            "function on_think()\n  for slot = 0, 5 do\n    local g = GeneticGenome(\"raiders\", slot)\n    \
             Note(\"g\" .. GeneticGeneration(\"raiders\") .. \"s\" .. slot, g)\n    \
             GeneticScore(\"raiders\", slot, g[1] + g[2] + g[3] + g[4], 1 + g[1])\n  end\n  GeneticEvolve(\"raiders\")\nend\n"
        }
        "rhai" => {
            "fn on_think() {\n  for slot in 0..6 {\n    let g = genetic_genome(\"raiders\", slot);\n    \
             note(\"g\" + genetic_generation(\"raiders\") + \"s\" + slot, g);\n    \
             genetic_score(\"raiders\", slot, g[0] + g[1] + g[2] + g[3], 1 + g[0]);\n  }\n  genetic_evolve(\"raiders\");\n}\n"
        }
        // `.tac` has no list indexing: the arena scores slot k with k damage dealt, 1 taken.
        _ => {
            "on think {\n  Note(\"g\", GeneticGenome(\"raiders\", 0));\n  Note(\"g\", GeneticGenome(\"raiders\", 5));\n  \
             GeneticScore(\"raiders\", 0, 0, 1);\n  GeneticScore(\"raiders\", 1, 1, 1);\n  GeneticScore(\"raiders\", 2, 2, 1);\n  \
             GeneticScore(\"raiders\", 3, 3, 1);\n  GeneticScore(\"raiders\", 4, 4, 1);\n  GeneticScore(\"raiders\", 5, 5, 1);\n  \
             Note(\"generation\", GeneticGeneration(\"raiders\"));\n  GeneticEvolve(\"raiders\");\n}\n"
        }
    }
}

fn play(ext: &str) -> String {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-genetics-{ext}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "....\n").unwrap();
    std::fs::write(dir.join("raiders.toml"), MODEL).unwrap();
    std::fs::write(dir.join(format!("arena.{ext}")), script(ext)).unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        format!(
            "map = \"map.txt\"\n[models]\nraiders = {{ genetic = \"raiders.toml\" }}\n\n\
             [[entities]]\nname = \"arena\"\nkind = \"marker\"\nat = [0, 0]\nthink_every = 2\nscripts = [\"arena.{ext}\"]\n"
        ),
    )
    .unwrap();
    let trace = common::run_ticks(&dir.join("scenario.toml"), 8).trace();
    assert!(!trace.contains("script_error"), "{ext}: {trace}");
    trace
}

#[test]
fn scripts_evolve_a_population_as_the_engine_does_and_every_language_agrees() {
    let lua = play("lua");
    let rhai = play("rhai");
    assert_eq!(lua, rhai, "Lua and Rhai breed the same generations");

    // The same four rounds through the engine's Rust API.
    let spec = GeneticSpec::from_toml(MODEL).unwrap();
    let mut run = GeneticRun::new(&spec);
    for generation in 0..4 {
        for slot in 0..6 {
            let g = run.population.individuals[slot].genes.clone();
            let line = format!(
                "\"name\":\"g{generation}s{slot}\",\"value\":[{}]",
                g.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
            );
            assert!(lua.contains(&line), "generation {generation}, slot {slot}: expected {line} in\n{lua}");
            let sum: u32 = g.iter().map(|&x| u32::from(x)).sum();
            run.score(slot, f64::from(sum), 1.0 + f64::from(g[0]));
        }
        let best = run.evolve();
        let note = format!(
            "\"kind\":\"note\",\"name\":\"generation\",\"value\":{{\"best\":{best:?},\"generation\":{},\"model\":\"raiders\"}}",
            generation + 1
        );
        assert!(lua.contains(&note), "{note}\n{lua}");
    }
    // Evolution did something: the last generation is not the first.
    let spec_run = GeneticRun::new(&spec);
    assert_ne!(spec_run.population.individuals, run.population.individuals);
}

#[test]
fn a_tac_script_drives_the_same_population() {
    let tac = play("tac");
    let spec = GeneticSpec::from_toml(MODEL).unwrap();
    let mut run = GeneticRun::new(&spec);
    let genes = |run: &GeneticRun, slot: usize| {
        run.population.individuals[slot].genes.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
    };
    let mut expected = Vec::new();
    for generation in 0..4 {
        expected.push(format!("[{}]", genes(&run, 0)));
        expected.push(format!("[{}]", genes(&run, 5)));
        expected.push(generation.to_string());
        for slot in 0..6 {
            run.score(slot, slot as f64, 1.0);
        }
        run.evolve();
    }
    let notes: Vec<String> = tac
        .lines()
        .filter(|l| l.contains("\"entity\":\"arena\"") && l.contains("\"kind\":\"note\""))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["value"].to_string())
        .collect();
    assert_eq!(notes, expected, "{tac}");
}

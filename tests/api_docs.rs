//! The API files under `docs/` — the Markdown reference, the LuaLS definitions and the Rhai
//! definitions — are what `tactica docs -o docs` writes from the one API table; this test runs
//! that command and fails when a copy is stale. Regenerate them with
//! `UPDATE_API_DOCS=1 cargo test --test api_docs` (or `cargo run -- docs -o docs`).

use std::path::Path;
use std::process::Command;

fn tactica(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().unwrap();
    assert!(out.status.success(), "tactica {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_api_files_are_generated_from_the_table_and_up_to_date() {
    let dir = tempfile::Builder::new().prefix("tactica-api-docs-").tempdir().unwrap().keep();
    let printed = tactica(&["docs", "-o", dir.to_str().unwrap()]);
    for name in ["tactica.lua", "tactica.d.rhai", "api.md"] {
        assert!(printed.contains(&format!("wrote {}", dir.join(name).display())), "{printed}");
        let generated = std::fs::read_to_string(dir.join(name)).unwrap();
        let path = Path::new("docs").join(name);
        if std::env::var_os("UPDATE_API_DOCS").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == generated,
            "{} is stale: regenerate it with `UPDATE_API_DOCS=1 cargo test --test api_docs`",
            path.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_lua_definitions_document_every_function_and_alias() {
    let lua = std::fs::read_to_string("docs/tactica.lua").unwrap();
    assert!(lua.starts_with("---@meta tactica\n"));
    // A function with overloads: the first as the signature, the rest as `---@overload`.
    assert!(lua.contains(
        "---Walks to a named place or region (`MoveTo(xDoorway);`).\n---Walks to a cell (`MoveTo(4, 2);`).\n\
         ---@param place tactica.place\n---@overload fun(x: integer, y: integer)\nfunction MoveTo(place) end\n"
    ));
    assert!(lua.contains("---@overload fun(x: integer, y: integer)\nfunction move_to(place) end\n"));
    assert!(lua.contains(
        "---@param place tactica.place\n---@return boolean\n---@overload fun(x: integer, y: integer): boolean\n\
         function PlayerLocation(place) end\n"
    ));
    // Handlers and the state table.
    assert!(lua.contains("---@param text string\nfunction on_hear(text) end\n"));
    assert!(lua.contains("---@type table<string, any>\nstate = {}\n"));
    let rhai = std::fs::read_to_string("docs/tactica.d.rhai").unwrap();
    assert!(rhai.starts_with("module static;\n"));
    assert!(rhai.contains("fn MoveTo(x: int, y: int) -> ();\n"));
    assert!(rhai.contains("fn move_to(place: String) -> ();\n"));
    assert!(rhai.contains("fn PlayerLocation(place: String) -> bool;\n"));
}

#[test]
fn a_scenario_adds_its_places_globals_and_signals() {
    let dir = tempfile::Builder::new().prefix("tactica-castle-docs-").tempdir().unwrap().keep();
    tactica(&["docs", "examples/castle", "-o", dir.to_str().unwrap()]);
    let lua = std::fs::read_to_string(dir.join("tactica.lua")).unwrap();
    // examples/castle/scripts/squad.tac sends `ready` and waits for `go`.
    assert!(lua.contains("---@alias tactica.signal\n---| \"go\"\n---| \"ready\"\n---| string\n"), "{lua}");
    assert!(lua.contains("---@param id tactica.signal\n---@overload fun(id: tactica.signal, scope: tactica.scope)\nfunction Signal(id) end"));
    let md = std::fs::read_to_string(dir.join("api.md")).unwrap();
    assert!(md.contains("## Signals\n\nThe signals the scenario's scripts send and wait for.\n\n`go`, `ready`\n"));
    // examples/harbour declares regions: they join the places editors complete.
    tactica(&["docs", "examples/harbour", "-o", dir.to_str().unwrap()]);
    let lua = std::fs::read_to_string(dir.join("tactica.lua")).unwrap();
    assert!(lua.contains("---@alias tactica.place\n---| \"kDock\"\n---| \"kBoat\"\n---| \"xDoorway\"\n"), "{lua}");
    assert!(lua.contains("---| \"kGate\"\n---| \"kTavern\"\n---| \"kWarehouseDoor\"\n---| \"tavern\"\n---| \"trapdoor\"\n---| \"warehouse\"\n"), "{lua}");
    let standard = std::fs::read_to_string("docs/tactica.lua").unwrap();
    assert!(!standard.contains("\"ready\""), "the standard file names no scenario's signals");
    std::fs::remove_dir_all(&dir).unwrap();
}

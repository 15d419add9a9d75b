//! UI tests: every `tests/ui/*.tac` file is checked and its rendered diagnostics are pinned with an
//! insta snapshot. Each file is named after the code it must produce (`e0013_…` → `E0013`).

use tactica_script::{Api, check, render};

#[test]
fn rendered_diagnostics() {
    let api = Api::standard();
    insta::glob!("ui/*.tac", |path| {
        let src = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (script, diags) = check(&name, &src, &api);
        let want = name.split('_').next().unwrap().to_ascii_uppercase();
        assert!(diags.iter().any(|d| d.code.as_str() == want), "{name}: expected {want}, got {diags:?}");
        if diags.iter().any(|d| d.is_error()) {
            assert!(script.is_none(), "{name}: a script with errors must be refused");
        }
        insta::assert_snapshot!(render(&name, &src, &diags, false));
    });
}

#[test]
fn enough_distinct_codes_are_pinned() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ui");
    let mut codes: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.split('_').next().map(str::to_owned))
        .filter(|c| c.starts_with('e'))
        .collect();
    codes.sort();
    codes.dedup();
    assert!(codes.len() >= 25, "{codes:?}");
}

//! `docs/api.md` is generated from the one API table; this test fails when the file is stale.
//! Regenerate it with `UPDATE_API_DOCS=1 cargo test --test api_docs`.

use tactica_stdlib::{Api, api_markdown};

#[test]
fn the_api_reference_is_generated_from_the_table_and_up_to_date() {
    let generated = api_markdown(&Api::standard());
    let path = std::path::Path::new("docs/api.md");
    if std::env::var_os("UPDATE_API_DOCS").is_some() {
        std::fs::write(path, &generated).unwrap();
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "docs/api.md is stale: regenerate it with `UPDATE_API_DOCS=1 cargo test --test api_docs`"
    );
}

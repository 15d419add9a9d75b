//! Rhai's library functions that Tactica replaces to charge their work (see
//! `bindings/rhai/src/work.rs`) still answer as Rhai's own do.

mod common;

#[test]
fn the_charged_library_functions_answer_as_rhai_does() {
    let script = r#"
fn on_spawn() {
    let a = [3, 1, 2];
    note("contains", a.contains(2));
    note("contains other type", a.contains("2"));
    note("index_of", a.index_of(1));
    note("index_of from", [5, 6, 5].index_of(5, 1));
    note("missing", a.index_of(9));
    a.sort();
    note("sorted ints", a);
    let words = ["pear", "apple", "fig"];
    words.sort();
    note("sorted words", words);
    let f = [2.5, -1.0, 0.5];
    f.sort();
    note("sorted floats", f);
    a.reverse();
    note("reversed", a);
    note("string contains", "héllo".contains("ll"));
    note("string index_of", "héllo".index_of("l"));
    note("char index_of", "héllo".index_of('o'));
    let s = "ab";
    s.pad(5, "-");
    note("padded", s);
    note("maps", [#{x: 1}, #{x: 2}].contains(#{x: 2}));
}
"#;
    let scenario = "map = \"map.txt\"\nticks = 1\n[[entities]]\nname = \"r\"\nkind = \"imp\"\nat = [1, 1]\nscripts = [\"lib.rhai\"]\n";
    let rt = common::play(&common::folder("rhai-library", scenario, &[("lib.rhai", script)]));
    let values: Vec<String> = common::note_values(&rt.trace()).iter().map(ToString::to_string).collect();
    assert_eq!(
        values,
        [
            "true",
            "false",
            "1",
            "2",
            "-1",
            "[1,2,3]",
            "[\"apple\",\"fig\",\"pear\"]",
            "[-1.0,0.5,2.5]",
            "[3,2,1]",
            "true",
            "2",
            "4",
            "\"ab---\"",
            "true"
        ]
    );
    // Mixed types cannot be sorted without a comparison function: a clear error.
    let bad = "fn on_spawn() {\n    let a = [1, \"x\"];\n    a.sort();\n}\n";
    let rt = common::play(&common::folder(
        "rhai-sort-mixed",
        scenario.replace("lib.rhai", "bad.rhai").as_str(),
        &[("bad.rhai", bad)],
    ));
    assert!(rt.trace().contains("sort() needs elements all of one type"), "{}", rt.trace());
}

//! `cargo run -p tactica-script --example dump -- FILE`: parses a file and prints the tree and diagnostics.
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let src = std::fs::read_to_string(&path).unwrap_or_default();
    let (ast, diags) = tactica_script::parse(&src);
    println!("{ast:#?}");
    print!("{}", tactica_script::render(&path, &src, &diags, false));
}

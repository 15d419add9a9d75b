// The Lua sources are compiled by the build script of `mlua-sys`, which reruns only when this
// crate is rebuilt; a path crate is otherwise rebuilt only when its Rust files change. Watching
// the C sources here carries an edit to a patch through to the linked Lua.
fn main() {
    println!("cargo:rerun-if-changed=lua-5.4.9");
}

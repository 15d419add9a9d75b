// TACTICA: tells dependents (through `links`) that this rhai has `Engine::call_fn_with_caches`,
// so tactica-rhai uses it here and falls back to `call_fn_with_options` on an upstream rhai.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:kept_caches=1");
}

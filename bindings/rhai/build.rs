//! Uses rhai's kept-cache call when the rhai being built has it (the workspace's patched copy in
//! `vendor/rhai` announces it through `links`); an upstream rhai gets the plain call.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=DEP_TACTICA_RHAI_KEPT_CACHES");
    println!("cargo::rustc-check-cfg=cfg(rhai_kept_caches)");
    if std::env::var_os("DEP_TACTICA_RHAI_KEPT_CACHES").is_some() {
        println!("cargo::rustc-cfg=rhai_kept_caches");
    }
}

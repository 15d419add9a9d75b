//! Compiles the patched Lua 5.4.9 in `lua-5.4.9/` into a static library and tells cargo to link
//! it, as the `lua-src` crate does for mlua's `vendored` mode (the defines per target are its).
use std::env;
use std::path::Path;

fn main() {
    let manifest_dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let source_dir = Path::new(&manifest_dir).join("lua-5.4.9");
    let target = env::var("TARGET").expect("cargo sets TARGET");
    println!("cargo::rerun-if-changed=lua-5.4.9");
    println!("cargo::rerun-if-changed=build.rs");

    let mut build = cc::Build::new();
    if target.contains("linux") {
        build.define("LUA_USE_LINUX", None);
    } else if target.contains("apple-darwin") {
        build.define("LUA_USE_MACOSX", None);
    } else if target.contains("apple-ios") {
        build.define("LUA_USE_IOS", None);
    } else if target.contains("windows") {
        build.define("LUA_USE_WINDOWS", None);
    } else if target.ends_with("bsd")
        || target.contains("netbsd")
        || target.contains("dragonfly")
        || target.ends_with("solaris")
    {
        build.define("LUA_USE_POSIX", None);
    } else if target.ends_with("emscripten") {
        build.define("LUA_USE_POSIX", None).flag("-sSUPPORT_LONGJMP=wasm");
    } else {
        panic!("tactica-lua-src does not know how to build Lua for the target {target}");
    }
    build.define("LUA_COMPAT_5_3", None);
    if env::var("DEBUG").is_ok_and(|debug| debug != "false") {
        // Lua's own API checks, as lua-src enables them in debug builds.
        build.define("LUA_USE_APICHECK", None);
    }
    let mut sources: Vec<_> = std::fs::read_dir(&source_dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", source_dir.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    // The same object order on every build (read_dir's order is the file system's).
    sources.sort();
    build
        .include(&source_dir)
        .warnings(false)
        .flag_if_supported("-fno-common")
        .files(&sources)
        // `cargo:rustc-link-lib=static=tactica_lua5.4` and its search path.
        .compile("tactica_lua5.4");
    // For a dependent's build script (DEP_TACTICA_LUA_INCLUDE), as lua-src offers it.
    println!("cargo::metadata=include={}", source_dir.display());
}

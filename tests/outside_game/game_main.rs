//! A game of its own, outside Tactica's workspace: the embed example's game loop and the sandbox
//! cases, with everything they depend on printed (`tests/outside_game.rs` builds and runs it).

#[allow(dead_code)] // the example's own `main` is not this program's
mod embed;
mod sandbox;
mod summary;

fn main() {
    print!("{}", summary::summary());
}

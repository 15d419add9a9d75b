//! Decision-model benchmarks (filled in below).
fn main() {}

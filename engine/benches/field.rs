//! Tactical-map benchmarks on a 1024 × 1024 grid: incremental influence updates for 1,000 moving
//! sources, and one 5 × 5 Gaussian pass (separable, row-buffered) against the chapter's naive
//! 2-D convolution and our full 2-D pass, on the same input in the same run.
//!
//! Before timing, the results are checked against each other. A quick timing loop prints the
//! medians and ratios on one line each (`cargo bench -p tactica-engine --bench field`).

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::IVec2;
use tactica_engine::field::{
    Boundary, Falloff, InfluenceMap, Kernel, Layer, Metric, Separable, SeparableScratch, Source, SourceId, convolve,
    convolve_separable,
};
use tactica_engine::world::WorldRng;

const SIDE: u32 = 1024;
const SOURCES: usize = 1000;

/// The chapter's `convolve` (L1107-1199) as written: four nested loops over a flat array, the border
/// as wide as the matrix size left untouched.
fn naive_convolve(kernel: &Kernel, src: &[f32], dst: &mut [f32], w: usize, h: usize) {
    let side = kernel.side();
    let size = side / 2;
    for j in size..h - size {
        for i in size..w - size {
            let mut acc = 0.0;
            for k in 0..side {
                for m in 0..side {
                    acc += src[(j + k - size) * w + (i + m - size)] * kernel.weight(m, k);
                }
            }
            dst[j * w + i] = acc;
        }
    }
}

fn random_layer(rng: &mut WorldRng) -> Layer {
    let values = (0..SIDE * SIDE).map(|_| rng.range(0.0, 10.0) as f32).collect();
    Layer::from_values(SIDE, SIDE, values).expect("size")
}

struct Moving {
    map: InfluenceMap,
    ids: Vec<SourceId>,
    cells: Vec<IVec2>,
    steps: Vec<IVec2>,
    tick: usize,
}

impl Moving {
    fn new() -> Self {
        let mut rng = WorldRng::new(42);
        let mut map = InfluenceMap::new(SIDE, SIDE, 2, Metric::Euclidean);
        let mut ids = Vec::new();
        let mut cells = Vec::new();
        for k in 0..SOURCES {
            let cell = IVec2::new(rng.below(SIDE as usize) as i32, rng.below(SIDE as usize) as i32);
            let falloff = if k % 2 == 0 { Falloff::Linear } else { Falloff::Inverse };
            let s = Source::new(k % 2, cell, rng.range(1.0, 10.0) as f32, 8.0, falloff);
            ids.push(map.add(s).expect("source"));
            cells.push(cell);
        }
        let dirs = [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y, IVec2::ONE, IVec2::NEG_ONE];
        let steps = (0..SOURCES * 16).map(|_| dirs[rng.below(dirs.len())]).collect();
        Moving { map, ids, cells, steps, tick: 0 }
    }

    /// Every source steps one cell (staying on the map): one frame of a battle.
    fn update(&mut self) {
        self.update_first(SOURCES);
    }

    /// The first `count` sources step one cell.
    fn update_first(&mut self, count: usize) {
        let t = self.tick % 16;
        for (k, id) in self.ids.iter().enumerate().take(count) {
            let next = (self.cells[k] + self.steps[t * SOURCES + k]).clamp(IVec2::ZERO, IVec2::splat(SIDE as i32 - 1));
            self.cells[k] = next;
            self.map.move_to(*id, next).expect("live source");
        }
        self.tick += 1;
    }
}

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn check_and_report(src: &Layer) {
    let (w, h) = (SIDE as usize, SIDE as usize);
    let sep = Separable::gaussian(2);
    let kernel = Kernel::gaussian(2);
    let mut fast = Layer::new(SIDE, SIDE);
    let mut full = Layer::new(SIDE, SIDE);
    let mut naive = src.values().to_vec();
    let mut scratch = SeparableScratch::default();
    convolve_separable(&sep, src, &mut fast, Boundary::Keep, &mut scratch).expect("shape");
    convolve(&kernel, src, &mut full, Boundary::Keep).expect("shape");
    naive_convolve(&kernel, src.values(), &mut naive, w, h);
    for ((a, b), c) in fast.values().iter().zip(full.values()).zip(&naive) {
        assert!((a - c).abs() < 1e-4 && (b - c).abs() < 1e-4, "passes disagree: {a} {b} {c}");
    }
    let t_sep = median_ms(15, || {
        convolve_separable(&sep, src, &mut fast, Boundary::Renormalize, &mut scratch).expect("shape");
    });
    let t_full = median_ms(7, || convolve(&kernel, src, &mut full, Boundary::Renormalize).expect("shape"));
    let t_naive = median_ms(5, || naive_convolve(&kernel, src.values(), &mut naive, w, h));
    eprintln!(
        "field/gaussian5x5 1024²: separable {t_sep:.3} ms, full 2-D {t_full:.3} ms, naive 2-D {t_naive:.3} ms; naive/separable = {:.1}×, full/separable = {:.1}×",
        t_naive / t_sep,
        t_full / t_sep
    );
    let mut moving = Moving::new();
    let t_move = median_ms(15, || moving.update());
    let t_move_10 = median_ms(31, || moving.update_first(10));
    let mut rebuild = Moving::new();
    let t_rebuild = median_ms(7, || rebuild.map.rebuild());
    // Check: after all those moves the incremental layers still match a full recompute.
    let mut fresh = moving.map.clone();
    fresh.rebuild();
    for (a, b) in moving.map.layers().iter().zip(fresh.layers()) {
        for (x, y) in a.values().iter().zip(b.values()) {
            assert!((x - y).abs() < 1e-3, "incremental drifted: {x} vs {y}");
        }
    }
    eprintln!(
        "field/influence 1024², {SOURCES} sources r=8: all move {t_move:.3} ms, 10 move {t_move_10:.4} ms, full rebuild {t_rebuild:.3} ms; rebuild/all-move = {:.1}×, rebuild/10-move = {:.0}×",
        t_rebuild / t_move,
        t_rebuild / t_move_10
    );
}

fn benches(c: &mut Criterion) {
    let mut rng = WorldRng::new(7);
    let src = random_layer(&mut rng);
    check_and_report(&src);

    let mut g = c.benchmark_group("field");
    g.sample_size(20);
    let sep = Separable::gaussian(2);
    let kernel = Kernel::gaussian(2);
    let mut dst = Layer::new(SIDE, SIDE);
    let mut scratch = SeparableScratch::default();
    g.bench_function("gaussian5x5_separable_1024", |b| {
        b.iter(|| convolve_separable(&sep, black_box(&src), &mut dst, Boundary::Renormalize, &mut scratch))
    });
    g.bench_function("gaussian5x5_full2d_1024", |b| {
        b.iter(|| convolve(&kernel, black_box(&src), &mut dst, Boundary::Renormalize))
    });
    let mut naive = src.values().to_vec();
    g.bench_function("gaussian5x5_naive2d_1024", |b| {
        b.iter(|| naive_convolve(&kernel, black_box(src.values()), &mut naive, SIDE as usize, SIDE as usize))
    });
    let mut moving = Moving::new();
    g.bench_function("influence_1000_moving_sources_1024", |b| b.iter(|| moving.update()));
    g.finish();
}

criterion_group!(field, benches);
criterion_main!(field);

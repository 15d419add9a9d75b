//! After warm-up, a query allocates nothing: A* and JPS reuse their node arrays, heap and the
//! caller's path buffer. Proven with a counting global allocator around a second pass over the
//! same queries (only allocations made on this test's thread are counted).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::IVec2;
use tactica_engine::grid::{Map, load_movingai, shared_data_dir};
use tactica_engine::path::{AStar, Jps};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches no memory
// the allocator manages.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which we pass on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as for `dealloc`; the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

/// A 96 × 96 map with a deterministic scatter of walls, and queries corner to corner.
fn own_map() -> (Map, Vec<(IVec2, IVec2)>) {
    let mut map = Map::open(96, 96);
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in 0..map.len() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        if s.is_multiple_of(4) {
            map.set(map.cell_at(i), b'@', f32::INFINITY);
        }
    }
    let queries: Vec<(IVec2, IVec2)> = (0..20)
        .map(|k| {
            let a = IVec2::new(k % 5, (k * 7) % 96);
            let b = IVec2::new(95 - k % 7, 95 - (k * 5) % 96);
            for c in [a, b] {
                map.set(c, b'.', 1.0);
            }
            (a, b)
        })
        .collect();
    (map, queries)
}

fn check(map: &Map, queries: &[(IVec2, IVec2)]) {
    let mut astar = AStar::new();
    let mut jps = Jps::new(map).expect("uniform");
    let mut cells = Vec::new();
    let mut run = |found: &mut usize| {
        for &(a, b) in queries {
            *found += usize::from(astar.find(map, a, b, &mut cells).is_ok());
            *found += usize::from(jps.find(a, b, &mut cells).is_ok());
        }
    };
    let mut warm = 0;
    run(&mut warm);
    let mut found = 0;
    let n = allocations(|| run(&mut found));
    assert_eq!(found, warm);
    assert!(found > 0, "some queries must have paths for the check to mean anything");
    assert_eq!(n, 0, "{n} allocations in {} warm queries", queries.len() * 2);
}

#[test]
fn warm_queries_do_not_allocate() {
    // The counter itself works.
    assert_eq!(allocations(|| drop(std::hint::black_box(vec![1u8; 10]))), 1);
    let (map, queries) = own_map();
    check(&map, &queries);
    let Some(dir) = shared_data_dir() else {
        println!("shared benchmark data not found; checked the project's own map only");
        return;
    };
    let map = load_movingai(&dir.join("maps/den520d.map")).expect("den520d");
    let scen = tactica_engine::path::scen::load_scen(&dir.join("scen/den520d.map.scen")).expect("scen");
    let queries: Vec<(IVec2, IVec2)> = scen.queries.iter().step_by(10).map(|q| (q.start, q.goal)).collect();
    check(&map, &queries);
}

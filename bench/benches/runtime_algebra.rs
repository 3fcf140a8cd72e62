//! The algebra at run time against CuTe: composition, divide, the decision
//! of a composite and inverse on run-time layouts. The CuTe side, with run-time integers, is
//! `bench/cpp/algebra.cpp`, and pycute's is `bench/pycute_algebra.py`; the operands are the
//! same:
//!
//! * `compose_small`: CuTe's documented composition `(6,2):(8,2) ∘ (4,3):(3,1)`, in seed order
//!   `(2,6):(2,8) ∘ (3,4):(1,3)`;
//! * `compose_partition`: the 128×128 partition of corpus `big_tv_partition_128x128`
//!   (`zipped_divide(A, <64,32>)` after `<layout_tv, _>`);
//! * `divide`: the 128×128 row-major tile in 64×32 tiles (CuTe `zipped_divide`);
//! * `decide_small`, `decide_partition`: the decision (Theorem 1) of those two compositions:
//!   the result layout, which is what CuTe's `composition` returns (CuTe:
//!   `coalesce(composition(A, B))`). They call `decide_composition`, which runs every check of
//!   `compose` and decides the composite without building it where it can (the same
//!   `Decision` and errors as `compose` and then `decide`);
//! * `decide_small_built`, `decide_partition_built`: the same through the built composite,
//!   `compose` and then `decide`, kept measured beside them;
//! * `inverse_sm80`, `inverse_partition`: `inverse` of the SM80 16×8 C fragment and of the
//!   partition's thread-value layout (CuTe has no inverse of a run-time layout).
//!
//! Every operand is parsed once, outside the timed loop; the timed work is the operation
//! (checks, result construction, allocation). `cargo bench -p layout-bench --bench
//! runtime_algebra` runs the criterion group `runtime_algebra`; `--table` prints operations per
//! second (fastest of 31 rounds) for `bench/run.sh`; `--loop NAME SECONDS` runs one operation
//! for a profiler.
//!
//! The group `check` is the regression guard of item 1 (compile-time checking): the work the
//! `layout!` proc-macro does with `layout-core` for one declaration of `bench/gen_check.py`'s
//! kinds (an MMA atom as `thread-value -> logical`, a swizzled tile as `logical -> physical`)
//! and for one composition (`compose` and `decide` of a 64×16 tile after the SM80 A fragment
//! tiled 4×1). rustc's own share of `cargo check` is measured by `bench/run.sh` only.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use layout_core::{
    Annotated, Layout, Map, Space, Swizzle, compose, decide, decide_composition, divide, inverse,
};

fn map(text: &str, domain: Space, codomain: Space, cute: bool) -> Map {
    let l = if cute {
        Layout::from_cute(text).expect("layout")
    } else {
        text.parse().expect("layout")
    };
    Annotated::new(l, domain, codomain)
        .expect("annotation")
        .into()
}

/// A timed operation: a closure over its operands.
type Operation = (&'static str, Box<dyn Fn() -> usize>);

/// The operations, each a closure over its operands.
fn operations() -> Vec<Operation> {
    let small_a = map("(6,2):(8,2)", Space::Logical, Space::Physical, true);
    let small_b = map("(4,3):(3,1)", Space::ThreadValue, Space::Logical, true);
    let part_a = map(
        "((64,32),(2,4)):((128,1),(8192,32))",
        Space::Logical,
        Space::Physical,
        true,
    );
    let part_b = map(
        "(((16,16),(4,2)),(2,4)):(((128,4),(1,64)),(2048,4096))",
        Space::ThreadValue,
        Space::Logical,
        true,
    );
    let tile: Layout = Layout::from_cute("(128,128):(128,1)").expect("tile");
    let sm80 = Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))").expect("sm80");
    let tv = Layout::from_cute("((16,16),(4,2)):((128,4),(1,64))").expect("tv");
    let (sa, sb, pa, pb) = (
        small_a.clone(),
        small_b.clone(),
        part_a.clone(),
        part_b.clone(),
    );
    let (small_a2, small_b2, part_a2, part_b2) = (
        small_a.clone(),
        small_b.clone(),
        part_a.clone(),
        part_b.clone(),
    );
    vec![
        (
            "compose_small",
            Box::new(move || {
                compose(black_box(&small_a), black_box(&small_b)).map_or(0, |m| m.size() as usize)
            }),
        ),
        (
            "compose_partition",
            Box::new(move || {
                compose(black_box(&part_a), black_box(&part_b)).map_or(0, |m| m.size() as usize)
            }),
        ),
        (
            "divide",
            // Seed order: the tile of CuTe's <64,32> is (32, 64).
            Box::new(move || divide(black_box(&tile), &[32, 64]).map_or(0, |l| l.rank())),
        ),
        (
            "decide_small",
            Box::new(move || {
                decide_composition(black_box(&small_a2), black_box(&small_b2), false)
                    .map_or(0, |d| usize::from(d.is_layout()))
            }),
        ),
        (
            "decide_partition",
            Box::new(move || {
                decide_composition(black_box(&part_a2), black_box(&part_b2), false)
                    .map_or(0, |d| usize::from(d.is_layout()))
            }),
        ),
        (
            "decide_small_built",
            Box::new(move || {
                let m = compose(black_box(&sa), black_box(&sb)).expect("composable");
                decide(&m, false).map_or(0, |d| usize::from(d.is_layout()))
            }),
        ),
        (
            "decide_partition_built",
            Box::new(move || {
                let m = compose(black_box(&pa), black_box(&pb)).expect("composable");
                decide(&m, false).map_or(0, |d| usize::from(d.is_layout()))
            }),
        ),
        (
            "inverse_sm80",
            Box::new(move || inverse(black_box(&sm80)).map_or(0, |l| l.rank())),
        ),
        (
            "inverse_partition",
            Box::new(move || inverse(black_box(&tv)).map_or(0, |l| l.rank())),
        ),
    ]
}

/// Operations per second: the fastest of 31 rounds of about 20 ms each.
fn table() {
    for (name, f) in operations() {
        let start = Instant::now();
        let mut calls = 0u64;
        while start.elapsed().as_secs_f64() < 0.02 {
            black_box(f());
            calls += 1;
        }
        let mut best = f64::INFINITY;
        for _ in 0..31 {
            let start = Instant::now();
            for _ in 0..calls {
                black_box(f());
            }
            best = best.min(start.elapsed().as_secs_f64() / calls as f64);
        }
        println!("{name} {:.0}", 1.0 / best);
    }
}

fn runtime_algebra(c: &mut Criterion) {
    let mut g = c.benchmark_group("runtime_algebra");
    for (name, f) in operations() {
        assert!(f() > 0, "{name} failed");
        g.bench_function(name, |b| b.iter(&f));
    }
    g.finish();
}

fn check(c: &mut Criterion) {
    let mut g = c.benchmark_group("check");
    g.bench_function("atom_tv", |b| {
        b.iter(|| {
            let l = Layout::from_cute(black_box("((4,8),(2,2,2)):((32,1),(16,8,128))"))?;
            Annotated::new(l, Space::ThreadValue, Space::Logical)?
                .with_tiles(None, Some(vec![16, 16]))
        })
    });
    g.bench_function("smem_swizzled", |b| {
        b.iter(|| {
            let l = Layout::from_cute(black_box("(64,64):(64,1)"))?;
            Map::from(Annotated::new(l, Space::Logical, Space::Physical)?)
                .swizzle(Swizzle::new(3, 6, 3)?)
        })
    });
    let smem = map("(64,16):(16,1)", Space::Logical, Space::Physical, true);
    let tv = map(
        "(((4,8),4),(2,2,2)):(((128,1),16),(64,8,512))",
        Space::ThreadValue,
        Space::Logical,
        true,
    );
    assert!(
        decide(&compose(&smem, &tv).expect("sizes"), false)
            .expect("small")
            .is_layout()
    );
    g.bench_function("compose_decide", |b| {
        b.iter(|| decide(&compose(black_box(&smem), black_box(&tv))?, false))
    });
    g.finish();
}

/// Runs one operation for about `seconds`, for a profiler (`perf record`, callgrind):
/// `--loop NAME SECONDS`.
fn run_one(name: &str, seconds: f64) {
    let ops = operations();
    let (_, f) = ops
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no operation {name}"));
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed().as_secs_f64() < seconds {
        for _ in 0..1000 {
            black_box(f());
        }
        calls += 1000;
    }
    println!("{name} {calls} calls");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--loop") {
        let name = args.get(i + 1).expect("--loop NAME SECONDS");
        let seconds = args.get(i + 2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
        run_one(name, seconds);
    } else if args.iter().any(|a| a == "--table") {
        table();
    } else {
        let mut c = Criterion::default().configure_from_args();
        runtime_algebra(&mut c);
        check(&mut c);
        c.final_summary();
    }
}

//! The decision procedure of Theorem 1 (spec: Theorem 1).
//!
//! `cargo bench -p layout-bench --bench decide` (add `-- --warm-up-time 1 --measurement-time 3`
//! for a quick run).
//!
//! * `scan/N`, N = 2^10, 2^12, …, 2^24: the scan on a `g : [0, N) → ℤ` that is a layout with a
//!   long chain: the digit sum of `v` in the mixed radix 2, 4, 2, 4, … (fastest first), i.e.
//!   the layout `(…, 4, 2):(…, 1, 1)`. Every stride is 1 and every radix at least 2, so no two
//!   pieces merge (`a_w = 1 − m ≠ 0`) and the chain has ⌈2·log₄ N⌉-ish elements: the scan records
//!   every one and subtracts along every multiple. Throughput is in elements, so criterion's
//!   time per element is the ns/element figure; it must not grow with N (O(N), fewer than 2N
//!   subtractions).
//! * `decide/*`: a 16384-coordinate composite, the 256-thread × 8-value partition of a 128×128
//!   tile. The thread-value map is CuTe's `partition_S` of the corpus case
//!   `big_tv_partition_128x128`: `composition(zipped_divide(A, <64,32>), <layout_tv, _>)` with
//!   `layout_tv = ((16,16),(4,2)):((128,4),(1,64))` (CuTe order), i.e. each of 256 threads holds
//!   a 4-row × 2-column block of each 64×32 sub-tile (threads 16 × 16 over the sub-tile, column
//!   blocks fastest), over 2 × 4 sub-tiles. As a `thread-value -> logical` map onto the
//!   row-major index `128·m + n` it is, in seed order,
//!   `((4,2),((2,4),(16,16))):((32,8192),((1,128),(512,2)))` (tiles, then (values, threads)).
//!   It is composed after the storage `(128,128):(128,1)` (`rowmajor`) or the padded
//!   `(128,128):(136,1)` (`padded`, +8 elements per row against bank conflicts); both composites
//!   are layouts. `leaves` decides over the 6 leaves, `by_mode` over the 2 top-level modes;
//!   `tabulate` is the 16384 evaluations alone and `decide_values` the decision on the
//!   tabulated values alone.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use layout_core::{Annotated, Map, Space, compose, decide, decide_values, scan};

/// The digit sum of every `v < n` in the radix 2, 4, 2, 4, … (fastest first), and the length of
/// its chain.
fn digit_sum(n: usize) -> (Vec<i64>, usize) {
    let mut radices = Vec::new();
    let mut w = 1;
    while w < n {
        let m = if radices.len() % 2 == 0 { 2 } else { 4 }.min(n / w);
        radices.push(m);
        w *= m;
    }
    assert_eq!(w, n, "n must be a power of two");
    let g = (0..n)
        .map(|v| {
            let (mut rest, mut sum) = (v, 0i64);
            for &m in &radices {
                sum += (rest % m) as i64;
                rest /= m;
            }
            sum
        })
        .collect();
    (g, radices.len())
}

fn bench_scan(c: &mut Criterion) {
    let mut group = c.benchmark_group("scan");
    for k in (10..=24).step_by(2) {
        let n = 1usize << k;
        let (g, pieces) = digit_sum(n);
        let chain = scan(&g).expect("a layout");
        assert_eq!(
            chain.chain().len(),
            pieces,
            "every piece is its own chain element"
        );
        group.throughput(Throughput::Elements(n as u64));
        group.sample_size(if n >= 1 << 20 { 10 } else { 50 });
        group.bench_with_input(BenchmarkId::from_parameter(n), &g, |b, g| {
            b.iter(|| scan(black_box(g)));
        });
    }
    group.finish();
}

/// The partition composite over the storage `(128,128):(ld,1)`.
fn partition(ld: i64) -> Map {
    let tv = Annotated::new(
        "((4,2),((2,4),(16,16))):((32,8192),((1,128),(512,2)))"
            .parse()
            .expect("tv"),
        Space::ThreadValue,
        Space::Logical,
    )
    .expect("a dense bijection");
    let storage = Annotated::new(
        format!("(128,128):({ld},1)").parse().expect("storage"),
        Space::Logical,
        Space::Physical,
    )
    .expect("alias-free");
    compose(&storage.into(), &tv.into()).expect("sizes agree")
}

fn bench_decide(c: &mut Criterion) {
    let mut group = c.benchmark_group("decide");
    group.throughput(Throughput::Elements(16384));
    for (name, ld) in [("rowmajor", 128), ("padded", 136)] {
        let map = partition(ld);
        assert_eq!(map.size(), 16384);
        assert!(decide(&map, false).expect("small").is_layout());
        assert!(decide(&map, true).expect("small").is_layout());
        group.bench_function(BenchmarkId::new("leaves", name), |b| {
            b.iter(|| decide(black_box(&map), false));
        });
        group.bench_function(BenchmarkId::new("by_mode", name), |b| {
            b.iter(|| decide(black_box(&map), true));
        });
        group.bench_function(BenchmarkId::new("tabulate", name), |b| {
            b.iter(|| {
                (0..16384)
                    .map(|i| black_box(&map).eval_index(i))
                    .collect::<Result<Vec<i64>, _>>()
            });
        });
        let values: Vec<i64> = (0..16384)
            .map(|i| map.eval_index(i).expect("in range"))
            .collect();
        let leaves = decide(&map, false).expect("small").coordinate_shape;
        group.bench_function(BenchmarkId::new("decide_values", name), |b| {
            b.iter(|| decide_values(black_box(&leaves), black_box(&values)));
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scan, bench_decide);
criterion_main!(benches);

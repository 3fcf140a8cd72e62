//! The cost of the offset code that `layout!` algebra expressions emit (spec: Cost) against
//! hand-written index arithmetic for the same maps (target: emitted / hand ≤ 1.05).
//!
//! `cargo bench -p layout-bench --bench algebra -- --warm-up-time 1 --measurement-time 3`.
//!
//! Each kernel walks every coordinate of its map and writes the offsets to a buffer; kernels
//! are `#[inline(never)]` and take their bounds through `black_box`, so neither side is folded
//! into a table. Before anything is timed, both sides of every pair are run and compared at
//! every coordinate. After criterion's estimates, each pair is also timed paired (see
//! [`paired`]) and the bench prints `paired <name>: emitted … ns, hand … ns, ratio …`: on a
//! shared machine two separate estimates of identical code differ by 10–30 %, the paired
//! minimum by about 1 %. The maps:
//!
//! * `partition_128x128`: the 256-thread × 8-value partition of a 128×128 row-major tile in
//!   64×32 sub-tiles (corpus case `big_tv_partition_128x128`: `A` is CuTe's
//!   `zipped_divide(128x128 row-major, <64,32>)`, the TV layout is applied to its tile mode and
//!   the identity to its rest mode), 16384 coordinates; the composite is a layout (Theorem 1),
//!   so `layout!` emits one weighted sum. Compared twice: with the arithmetic one writes first
//!   (row and column, then `128·row + col`), and with every constant folded by hand into one
//!   stride per digit (`partition_128x128_folded`), which is what the emitted sum is.
//! * `padded_composite`: a padded row-major 32×64 tile (ld 72) read by 256 threads × 8 values,
//!   threads down the rows; a layout of the same leaves.
//! * `swizzled_composite`: the same tile unpadded under CuTe's `Swizzle<3,3,3>` (128-byte rows of
//!   16-bit elements); not separable, so not a layout, and emitted as written.
//! * `restrict_thread_layout`: that swizzled composite restricted to a run-time thread `t`;
//!   every slice is `constant(t) + v`, so `layout!` emits the constant (computed once per
//!   thread, when the value is built) plus the layout.
//! * `restrict_thread_written`: under `Swizzle<3,0,6>`, which also permutes the value bits,
//!   the slices are layouts that differ between threads, so `layout!` emits the composite as
//!   written with `t` substituted.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use layout_typed::prelude::*;

layout! {
    // big_tv_partition_128x128: inputs A and B (B = <TV, _> with the identity on A's rest mode).
    const A128 = cute ((64,32),(2,4)):((128,1),(8192,32)), logical -> physical;
    const TV128 = cute (((16,16),(4,2)),(2,4)):(((128,4),(1,64)),(2048,4096)), thread-value -> logical;
    // A 32×64 tile, row-major, read by thread t = (t_hi, t_lo): row t_lo, columns 8·t_hi + v.
    const TV = (thread: (8,32), value: 8):((8,64),1), thread-value -> logical;
    const PADDED = (32,64):(72,1), logical -> physical;
    const SW = (32,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements;
    const SW_VALUES = (32,64):(64,1), logical -> physical, Swizzle<3,0,6> over elements;
}

/// `x ^ (((x >> src) & mask) << dst)`, written out.
#[inline(always)]
fn xor_swizzle(x: usize, src: u32, mask: usize, dst: u32) -> usize {
    x ^ (((x >> src) & mask) << dst)
}

#[inline(never)]
fn emitted_partition(tiles: usize, values: usize, threads: usize, out: &mut [i64]) {
    let addr = layout!(compose(A128, TV128));
    for r in 0..tiles {
        for v in 0..values {
            for t in 0..threads {
                out[(r * values + v) * threads + t] = addr.offset((r, (v, t)));
            }
        }
    }
}

/// Thread t = (t0, t1) = (t % 16, t / 16), value v = (v0, v1) = (v % 4, v / 4), tile
/// r = (r0, r1) = (r % 2, r / 2): the TV layout's tile index `128·t0 + 4·t1 + v0 + 64·v1` is
/// row `4·t1 + v0`, column `2·t0 + v1` of the 64×32 sub-tile (CuTe's column-major tile order).
#[inline(never)]
fn hand_partition(tiles: usize, values: usize, threads: usize, out: &mut [i64]) {
    for r in 0..tiles {
        for v in 0..values {
            for t in 0..threads {
                let m = 4 * (t / 16) + v % 4 + 64 * (r % 2);
                let n = 2 * (t % 16) + v / 4 + 32 * (r / 2);
                out[(r * values + v) * threads + t] = (128 * m + n) as i64;
            }
        }
    }
}

/// The same with every constant folded into one stride per digit, as a careful hand writes
/// it: `512·(t / 16) + 2·(t % 16) + 128·(v % 4) + (v / 4) + 8192·(r % 2) + 32·(r / 2)`.
#[inline(never)]
fn hand_partition_folded(tiles: usize, values: usize, threads: usize, out: &mut [i64]) {
    for r in 0..tiles {
        for v in 0..values {
            for t in 0..threads {
                let x = 512 * (t / 16) + 2 * (t % 16) + 128 * (v % 4) + v / 4;
                out[(r * values + v) * threads + t] = (x + 8192 * (r % 2) + 32 * (r / 2)) as i64;
            }
        }
    }
}

#[inline(never)]
fn emitted_padded(threads: usize, values: usize, out: &mut [i64]) {
    let addr = layout!(compose(PADDED, TV));
    for t in 0..threads {
        for v in 0..values {
            out[t * values + v] = addr.offset((t, v));
        }
    }
}

#[inline(never)]
fn hand_padded(threads: usize, values: usize, out: &mut [i64]) {
    for t in 0..threads {
        for v in 0..values {
            let (m, n) = (t % 32, 8 * (t / 32) + v);
            out[t * values + v] = (72 * m + n) as i64;
        }
    }
}

#[inline(never)]
fn emitted_swizzled(threads: usize, values: usize, out: &mut [i64]) {
    let addr = layout!(compose(SW, TV));
    for t in 0..threads {
        for v in 0..values {
            out[t * values + v] = addr.offset((t, v));
        }
    }
}

#[inline(never)]
fn hand_swizzled(threads: usize, values: usize, out: &mut [i64]) {
    for t in 0..threads {
        for v in 0..values {
            let (m, n) = (t % 32, 8 * (t / 32) + v);
            out[t * values + v] = xor_swizzle(64 * m + n, 6, 7, 3) as i64;
        }
    }
}

#[inline(never)]
fn emitted_restrict(threads: usize, values: usize, out: &mut [i64]) {
    for t in 0..threads {
        let slice = layout!(restrict(compose(SW, TV), thread = t));
        for v in 0..values {
            out[t * values + v] = slice.offset(v);
        }
    }
}

#[inline(never)]
fn emitted_restrict_written(threads: usize, values: usize, out: &mut [i64]) {
    for t in 0..threads {
        let slice = layout!(restrict(compose(SW_VALUES, TV), thread = t));
        for v in 0..values {
            out[t * values + v] = slice.offset(v);
        }
    }
}

#[inline(never)]
fn hand_restrict_written(threads: usize, values: usize, out: &mut [i64]) {
    for t in 0..threads {
        for v in 0..values {
            let (m, n) = (t % 32, 8 * (t / 32) + v);
            out[t * values + v] = xor_swizzle(64 * m + n, 6, 7, 0) as i64;
        }
    }
}

/// A kernel over its bounds, writing every offset.
type Kernel = fn(&[usize], &mut [i64]);

fn algebra(c: &mut Criterion) {
    // (name, bounds, emitted, hand).
    let pairs: [(&str, &[usize], Kernel, Kernel); 6] = [
        (
            "partition_128x128",
            &[8, 8, 256],
            |b, o| emitted_partition(b[0], b[1], b[2], o),
            |b, o| hand_partition(b[0], b[1], b[2], o),
        ),
        (
            "partition_128x128_folded",
            &[8, 8, 256],
            |b, o| emitted_partition(b[0], b[1], b[2], o),
            |b, o| hand_partition_folded(b[0], b[1], b[2], o),
        ),
        (
            "padded_composite",
            &[256, 8],
            |b, o| emitted_padded(b[0], b[1], o),
            |b, o| hand_padded(b[0], b[1], o),
        ),
        (
            "swizzled_composite",
            &[256, 8],
            |b, o| emitted_swizzled(b[0], b[1], o),
            |b, o| hand_swizzled(b[0], b[1], o),
        ),
        (
            "restrict_thread_layout",
            &[256, 8],
            |b, o| emitted_restrict(b[0], b[1], o),
            |b, o| hand_swizzled(b[0], b[1], o),
        ),
        (
            "restrict_thread_written",
            &[256, 8],
            |b, o| emitted_restrict_written(b[0], b[1], o),
            |b, o| hand_restrict_written(b[0], b[1], o),
        ),
    ];

    // Both sides agree at every coordinate before anything is timed.
    for (name, bounds, emitted, hand) in &pairs {
        let n: usize = bounds.iter().product();
        let (mut x, mut y) = (vec![-1i64; n], vec![-2i64; n]);
        emitted(bounds, &mut x);
        hand(bounds, &mut y);
        assert_eq!(x, y, "{name}: emitted and hand-written offsets differ");
    }

    let mut g = c.benchmark_group("algebra_offsets");
    for (name, bounds, emitted, hand) in &pairs {
        let mut out = vec![0i64; bounds.iter().product()];
        g.bench_function(format!("{name}/emitted"), |b| {
            b.iter(|| emitted(black_box(bounds), black_box(&mut out)));
        });
        g.bench_function(format!("{name}/hand"), |b| {
            b.iter(|| hand(black_box(bounds), black_box(&mut out)));
        });
    }
    g.finish();

    if std::env::args().any(|a| a == "--bench") {
        for (name, bounds, emitted, hand) in &pairs {
            let (e, h) = paired(bounds, *emitted, *hand);
            println!(
                "paired {name}: emitted {e:.0} ns, hand {h:.0} ns, ratio {:.3}",
                e / h
            );
        }
    }
}

/// The fastest time per call (ns) of each side of a pair over 101 interleaved rounds of 200
/// calls a side, alternating which side goes first: a ratio that a busy machine disturbs far
/// less than two separate estimates.
fn paired(bounds: &[usize], emitted: Kernel, hand: Kernel) -> (f64, f64) {
    const ROUNDS: usize = 101;
    const CALLS: u32 = 200;
    let mut out = vec![0i64; bounds.iter().product()];
    let mut best = [f64::INFINITY; 2];
    for round in 0..ROUNDS {
        for k in 0..2 {
            let side = (round + k) % 2;
            let f = if side == 0 { emitted } else { hand };
            let start = Instant::now();
            for _ in 0..CALLS {
                f(black_box(bounds), black_box(&mut out));
            }
            let per_call = start.elapsed().as_secs_f64() * 1e9 / f64::from(CALLS);
            best[side] = best[side].min(per_call);
        }
    }
    (best[0], best[1])
}

criterion_group!(benches, algebra);
criterion_main!(benches);

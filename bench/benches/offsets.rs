//! Reading every offset of the demo's composed layouts (`compose(GA, TV_A)` etc. of the SM80
//! 16x8x16 atom) against hand-written index arithmetic for the same tiles.
//!
//! `cargo bench -p layout-bench --bench offsets`. The kernels are `#[inline(never)]` so that
//! their assembly can be compared (`objdump -d --no-show-raw-insn` on the bench binary, or
//! `cargo rustc --release -p layout-bench --bench offsets -- --emit asm`).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use layout_typed::prelude::*;

layout! {
    const TV_A = cute ((4,8),(2,2,2)):((32,1),(16,8,128)), thread-value -> logical(16,16);
    const TV_C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    const GA = cute (16,16):(512,1), logical(16,16) -> physical;
    const GC = cute (16,8):(1,512), logical(16,8) -> physical;
}

/// Every offset of A's fragments, (value, lane) order, through the composed layout.
#[inline(never)]
fn composed_a(values: usize, lanes: usize, out: &mut [i64]) {
    let addr = compose(GA, TV_A);
    for v in 0..values {
        for lane in 0..lanes {
            out[v * 32 + lane] = addr.offset((v, lane));
        }
    }
}

/// The same, written by hand: lane = (t0, t1) with t0 = lane % 4, value = (v0, v1, v2);
/// row m = t1 + 8·v1, column k = 2·t0 + v0 + 8·v2, A row-major with ld = 512.
#[inline(never)]
fn hand_a(values: usize, lanes: usize, out: &mut [i64]) {
    for v in 0..values {
        for lane in 0..lanes {
            let m = lane / 4 + 8 * ((v / 2) % 2);
            let k = 2 * (lane % 4) + v % 2 + 8 * (v / 4);
            out[v * 32 + lane] = (m * 512 + k) as i64;
        }
    }
}

/// Every offset of C's fragments through the composed layout.
#[inline(never)]
fn composed_c(values: usize, lanes: usize, out: &mut [i64]) {
    let addr = compose(GC, TV_C);
    for v in 0..values {
        for lane in 0..lanes {
            out[v * 32 + lane] = addr.offset((v, lane));
        }
    }
}

/// The same by hand: m = lane / 4 + 8·v1, n = 2·(lane % 4) + v0; C column-major, ld = 512.
#[inline(never)]
fn hand_c(values: usize, lanes: usize, out: &mut [i64]) {
    for v in 0..values {
        for lane in 0..lanes {
            let m = lane / 4 + 8 * (v / 2);
            let n = 2 * (lane % 4) + v % 2;
            out[v * 32 + lane] = (m + n * 512) as i64;
        }
    }
}

fn offsets(c: &mut Criterion) {
    // Both versions agree at every coordinate before anything is timed.
    let (mut x, mut y) = (vec![0i64; 256], vec![0i64; 256]);
    composed_a(8, 32, &mut x);
    hand_a(8, 32, &mut y);
    assert_eq!(x, y, "A offsets differ");
    composed_c(4, 32, &mut x[..128]);
    hand_c(4, 32, &mut y[..128]);
    assert_eq!(x[..128], y[..128], "C offsets differ");

    let mut g = c.benchmark_group("sm80_fragment_offsets");
    let mut out = vec![0i64; 256];
    g.bench_function("A composed", |b| {
        b.iter(|| composed_a(black_box(8), black_box(32), black_box(&mut out)))
    });
    g.bench_function("A hand-written", |b| {
        b.iter(|| hand_a(black_box(8), black_box(32), black_box(&mut out)))
    });
    g.bench_function("C composed", |b| {
        b.iter(|| composed_c(black_box(4), black_box(32), black_box(&mut out)))
    });
    g.bench_function("C hand-written", |b| {
        b.iter(|| hand_c(black_box(4), black_box(32), black_box(&mut out)))
    });
    g.finish();
}

criterion_group!(benches, offsets);
criterion_main!(benches);

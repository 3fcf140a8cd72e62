//! Run-time addressing against CuTe: every offset of four layouts computed by
//! (a) the code `layout!` emits, through `offset`, and (b) hand-written index arithmetic. The
//! CuTe side, (c) static and (d) run-time layouts, is `bench/cpp/addressing.cpp`; both walk the
//! same coordinates in the same loop order and write every offset to a buffer.
//!
//! * `tiled`: the 128×128 row-major tile in 64×32 tiles, `divide` (CuTe `zipped_divide`),
//!   coordinates (tile < 2048, rest < 8);
//! * `partition`: the 256-thread × 8-value partition of a 128×128 tile, corpus
//!   `big_tv_partition_128x128`, coordinates (rest, (value, thread));
//! * `swizzled`: a 64×64 shared-memory tile under `Swizzle<3,3,3>`, coordinates (k, m);
//! * `slice`: that tile read through a 256-thread × 16-value partition and restricted to a
//!   run-time thread, `restrict(compose(SW64, TV64), thread = t)`, then every value.
//!
//! (a′) The same four layouts declared with `index = i32`, the width of CuTe's `int`
//! coordinates (`rust_narrow_*`): `offset` then computes in `i32` (`Layout::NARROW`).
//!
//! Reads through a `View` (`view_*`): every element of the `tiled` and `swizzled` layouts read
//! from a buffer holding its own offsets, (e) with `View::get` (the domain check, in every
//! profile), (f) with `View::get_unchecked`, and (g) hand-written slice indexing.
//!
//! (a′) writes `i32` offsets, as CuTe's (c″) writes its `int` offsets (`-DCOORD=int -DOUT=int`);
//! (c′) computes in `int` and widens to `int64_t` when it stores.
//!
//! `cargo bench -p layout-bench --bench addressing` runs the criterion group `addressing`.
//! `bench/run.sh` runs the binary with `--table` (ns per offset, fastest of 51 rounds) and
//! with `--callgrind KERNEL CALLS` under `valgrind --tool=callgrind --toggle-collect=*KERNEL*`
//! (instructions); `--dump KERNEL` prints the offsets for the cross-check against CuTe.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use layout_typed::prelude::*;

layout! {
    /// CuTe `(128,128):(128,1)`: a 128×128 row-major tile.
    const A128 = (128,128):(1,128), logical -> physical;
    /// CuTe `zipped_divide(A128, <64,32>)`, the partition's left operand.
    const Z128 = cute ((64,32),(2,4)):((128,1),(8192,32)), logical -> physical;
    /// `<layout_tv, _>` of `big_tv_partition_128x128`.
    const TV128 = cute (((16,16),(4,2)),(2,4)):(((128,4),(1,64)),(2048,4096)), thread-value -> logical;
    /// CuTe `Swizzle<3,3,3> o (64,64):(64,1)`.
    const SW64 = cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements;
    /// CuTe `((32,8),(8,2)):((1,512),(64,32))`: thread t reads rows t % 32 and t % 32 + 32,
    /// eight consecutive columns from 8·(t / 32).
    const TV64 = (value: (2,8), thread: (8,32)):((32,64),(512,1)), thread-value -> logical;
    /// `A128` with 32-bit offsets.
    const A128_32 = (128,128):(1,128), logical -> physical, index = i32;
    /// `Z128` with 32-bit offsets.
    const Z128_32 = cute ((64,32),(2,4)):((128,1),(8192,32)), logical -> physical, index = i32;
    /// `SW64` with 32-bit offsets.
    const SW64_32 = cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements, index = i32;
}

/// `x ^ (((x >> 6) & 7) << 3)`: `Swizzle<3,3,3>`.
#[inline(always)]
fn swizzle333(x: usize) -> usize {
    x ^ (((x >> 6) & 7) << 3)
}

#[inline(never)]
fn rust_emitted_tiled(tiles: usize, out: &mut [i64]) {
    let l = layout!(divide(A128, (32, 64)));
    for (r, row) in out.chunks_exact_mut(tiles).enumerate() {
        for (t, o) in row.iter_mut().enumerate() {
            *o = l.offset((t, r));
        }
    }
}

#[inline(never)]
fn rust_hand_tiled(tiles: usize, out: &mut [i64]) {
    for (r, row) in out.chunks_exact_mut(tiles).enumerate() {
        for (t, o) in row.iter_mut().enumerate() {
            let m = t % 64 + 64 * (r % 2);
            let n = t / 64 + 32 * (r / 2);
            *o = (128 * m + n) as i64;
        }
    }
}

#[inline(never)]
fn rust_emitted_partition(values: usize, threads: usize, out: &mut [i64]) {
    let l = layout!(compose(Z128, TV128));
    for (r, tile) in out.chunks_exact_mut(values * threads).enumerate() {
        for (v, row) in tile.chunks_exact_mut(threads).enumerate() {
            for (t, o) in row.iter_mut().enumerate() {
                *o = l.offset((r, (v, t)));
            }
        }
    }
}

/// Thread t = (t % 16, t / 16), value v = (v % 4, v / 4), tile r = (r % 2, r / 2): row
/// `4·(t / 16) + v % 4 + 64·(r % 2)`, column `2·(t % 16) + v / 4 + 32·(r / 2)`.
#[inline(never)]
fn rust_hand_partition(values: usize, threads: usize, out: &mut [i64]) {
    for (r, tile) in out.chunks_exact_mut(values * threads).enumerate() {
        for (v, row) in tile.chunks_exact_mut(threads).enumerate() {
            for (t, o) in row.iter_mut().enumerate() {
                let m = 4 * (t / 16) + v % 4 + 64 * (r % 2);
                let n = 2 * (t % 16) + v / 4 + 32 * (r / 2);
                *o = (128 * m + n) as i64;
            }
        }
    }
}

#[inline(never)]
fn rust_emitted_swizzled(cols: usize, out: &mut [i64]) {
    for (m, row) in out.chunks_exact_mut(cols).enumerate() {
        for (k, o) in row.iter_mut().enumerate() {
            *o = SW64.offset((k, m));
        }
    }
}

#[inline(never)]
fn rust_hand_swizzled(cols: usize, out: &mut [i64]) {
    for (m, row) in out.chunks_exact_mut(cols).enumerate() {
        for (k, o) in row.iter_mut().enumerate() {
            *o = swizzle333(64 * m + k) as i64;
        }
    }
}

#[inline(never)]
fn rust_emitted_slice(values: usize, out: &mut [i64]) {
    for (t, row) in out.chunks_exact_mut(values).enumerate() {
        let slice = layout!(restrict(compose(SW64, TV64), thread = t));
        for (v, o) in row.iter_mut().enumerate() {
            *o = slice.offset(v);
        }
    }
}

#[inline(never)]
fn rust_hand_slice(values: usize, out: &mut [i64]) {
    for (t, row) in out.chunks_exact_mut(values).enumerate() {
        for (v, o) in row.iter_mut().enumerate() {
            let m = t % 32 + 32 * (v / 8);
            let k = v % 8 + 8 * (t / 32);
            *o = swizzle333(64 * m + k) as i64;
        }
    }
}

#[inline(never)]
fn rust_narrow_tiled(tiles: usize, out: &mut [i32]) {
    let l = layout!(divide(A128_32, (32, 64)));
    assert!(narrow(&l));
    for (r, row) in out.chunks_exact_mut(tiles).enumerate() {
        for (t, o) in row.iter_mut().enumerate() {
            *o = l.offset((t, r));
        }
    }
}

#[inline(never)]
fn rust_narrow_partition(values: usize, threads: usize, out: &mut [i32]) {
    let l = layout!(compose(Z128_32, TV128));
    assert!(narrow(&l));
    for (r, tile) in out.chunks_exact_mut(values * threads).enumerate() {
        for (v, row) in tile.chunks_exact_mut(threads).enumerate() {
            for (t, o) in row.iter_mut().enumerate() {
                *o = l.offset((r, (v, t)));
            }
        }
    }
}

#[inline(never)]
fn rust_narrow_swizzled(cols: usize, out: &mut [i32]) {
    assert!(narrow(&SW64_32));
    for (m, row) in out.chunks_exact_mut(cols).enumerate() {
        for (k, o) in row.iter_mut().enumerate() {
            *o = SW64_32.offset((k, m));
        }
    }
}

#[inline(never)]
fn rust_narrow_slice(values: usize, out: &mut [i32]) {
    for (t, row) in out.chunks_exact_mut(values).enumerate() {
        let slice = layout!(restrict(compose(SW64_32, TV64), thread = t));
        assert!(narrow(&slice));
        for (v, o) in row.iter_mut().enumerate() {
            *o = slice.offset(v);
        }
    }
}

/// Whether `l` computes in its 32-bit index type: a constant, folded away in the kernels.
fn narrow<L: Layout>(_: &L) -> bool {
    L::NARROW
}

/// A buffer whose element at offset `o` is `o`.
fn source() -> &'static [i64] {
    static SRC: std::sync::OnceLock<Vec<i64>> = std::sync::OnceLock::new();
    SRC.get_or_init(|| (0..16384).collect())
}

#[inline(never)]
fn view_checked_tiled(tiles: usize, out: &mut [i64]) {
    let v = View::new(source(), layout!(divide(A128, (32, 64))));
    for (r, row) in out.chunks_exact_mut(tiles).enumerate() {
        for (t, o) in row.iter_mut().enumerate() {
            *o = *v.get((t, r));
        }
    }
}

#[inline(never)]
fn view_unchecked_tiled(tiles: usize, out: &mut [i64]) {
    let v = View::new(source(), layout!(divide(A128, (32, 64))));
    for (r, row) in out.chunks_exact_mut(tiles).enumerate() {
        for (t, o) in row.iter_mut().enumerate() {
            *o = *v.get_unchecked((t, r));
        }
    }
}

#[inline(never)]
fn view_hand_tiled(tiles: usize, out: &mut [i64]) {
    let src = source();
    for (r, row) in out.chunks_exact_mut(tiles).enumerate() {
        for (t, o) in row.iter_mut().enumerate() {
            let m = t % 64 + 64 * (r % 2);
            let n = t / 64 + 32 * (r / 2);
            *o = src[128 * m + n];
        }
    }
}

#[inline(never)]
fn view_checked_swizzled(cols: usize, out: &mut [i64]) {
    let v = View::new(source(), SW64);
    for (m, row) in out.chunks_exact_mut(cols).enumerate() {
        for (k, o) in row.iter_mut().enumerate() {
            *o = *v.get((k, m));
        }
    }
}

#[inline(never)]
fn view_unchecked_swizzled(cols: usize, out: &mut [i64]) {
    let v = View::new(source(), SW64);
    for (m, row) in out.chunks_exact_mut(cols).enumerate() {
        for (k, o) in row.iter_mut().enumerate() {
            *o = *v.get_unchecked((k, m));
        }
    }
}

#[inline(never)]
fn view_hand_swizzled(cols: usize, out: &mut [i64]) {
    let src = source();
    for (m, row) in out.chunks_exact_mut(cols).enumerate() {
        for (k, o) in row.iter_mut().enumerate() {
            *o = src[swizzle333(64 * m + k)];
        }
    }
}

/// A kernel writing every offset of its layout into the buffer: 64-bit offsets, or (a′) the
/// 32-bit offsets of the `index = i32` layouts (as CuTe's (c′) writes its `int` offsets).
#[derive(Clone, Copy)]
enum Kernel {
    Wide(fn(&mut [i64])),
    Narrow(fn(&mut [i32])),
}

/// (name, number of offsets, kernel) for the view reads: checked, unchecked, hand-written.
const VIEW_KERNELS: [(&str, usize, Kernel); 6] = [
    (
        "view_checked_tiled",
        16384,
        Kernel::Wide(|o| view_checked_tiled(black_box(2048), o)),
    ),
    (
        "view_unchecked_tiled",
        16384,
        Kernel::Wide(|o| view_unchecked_tiled(black_box(2048), o)),
    ),
    (
        "view_hand_tiled",
        16384,
        Kernel::Wide(|o| view_hand_tiled(black_box(2048), o)),
    ),
    (
        "view_checked_swizzled",
        4096,
        Kernel::Wide(|o| view_checked_swizzled(black_box(64), o)),
    ),
    (
        "view_unchecked_swizzled",
        4096,
        Kernel::Wide(|o| view_unchecked_swizzled(black_box(64), o)),
    ),
    (
        "view_hand_swizzled",
        4096,
        Kernel::Wide(|o| view_hand_swizzled(black_box(64), o)),
    ),
];

/// (a′) (name, number of offsets, kernel), in the order of `KERNELS`' emitted ones.
const NARROW_KERNELS: [(&str, usize, Kernel); 4] = [
    (
        "rust_narrow_tiled",
        16384,
        Kernel::Narrow(|o| rust_narrow_tiled(black_box(2048), o)),
    ),
    (
        "rust_narrow_partition",
        16384,
        Kernel::Narrow(|o| rust_narrow_partition(black_box(8), black_box(256), o)),
    ),
    (
        "rust_narrow_swizzled",
        4096,
        Kernel::Narrow(|o| rust_narrow_swizzled(black_box(64), o)),
    ),
    (
        "rust_narrow_slice",
        4096,
        Kernel::Narrow(|o| rust_narrow_slice(black_box(16), o)),
    ),
];

/// (name, number of offsets, kernel); bounds pass through `black_box`.
const KERNELS: [(&str, usize, Kernel); 8] = [
    (
        "rust_emitted_tiled",
        16384,
        Kernel::Wide(|o| rust_emitted_tiled(black_box(2048), o)),
    ),
    (
        "rust_hand_tiled",
        16384,
        Kernel::Wide(|o| rust_hand_tiled(black_box(2048), o)),
    ),
    (
        "rust_emitted_partition",
        16384,
        Kernel::Wide(|o| rust_emitted_partition(black_box(8), black_box(256), o)),
    ),
    (
        "rust_hand_partition",
        16384,
        Kernel::Wide(|o| rust_hand_partition(black_box(8), black_box(256), o)),
    ),
    (
        "rust_emitted_swizzled",
        4096,
        Kernel::Wide(|o| rust_emitted_swizzled(black_box(64), o)),
    ),
    (
        "rust_hand_swizzled",
        4096,
        Kernel::Wide(|o| rust_hand_swizzled(black_box(64), o)),
    ),
    (
        "rust_emitted_slice",
        4096,
        Kernel::Wide(|o| rust_emitted_slice(black_box(16), o)),
    ),
    (
        "rust_hand_slice",
        4096,
        Kernel::Wide(|o| rust_hand_slice(black_box(16), o)),
    ),
];

fn run(name: &str, n: usize, f: Kernel) -> Vec<i64> {
    let out: Vec<i64> = match f {
        Kernel::Wide(f) => {
            let mut out = vec![-1; n];
            f(&mut out);
            out
        }
        Kernel::Narrow(f) => {
            let mut out = vec![-1i32; n];
            f(&mut out);
            out.into_iter().map(i64::from).collect()
        }
    };
    assert!(!out.contains(&-1), "{name} left offsets unwritten");
    out
}

/// Calls `f` `calls` times on a buffer of `n` offsets.
fn repeat(n: usize, f: Kernel, calls: usize) {
    fn go<T: Copy + Default>(n: usize, f: fn(&mut [T]), calls: usize) {
        let mut out = vec![T::default(); n];
        for _ in 0..calls {
            f(black_box(&mut out));
        }
    }
    match f {
        Kernel::Wide(f) => go(n, f, calls),
        Kernel::Narrow(f) => go(n, f, calls),
    }
}

/// ns per offset: the fastest of 51 rounds of about 2·10⁶ offsets.
fn fastest(n: usize, f: Kernel) -> f64 {
    fn go<T: Copy + Default>(n: usize, f: fn(&mut [T])) -> f64 {
        let calls = 2_000_000 / n;
        let mut out = vec![T::default(); n];
        let mut best = f64::INFINITY;
        for _ in 0..51 {
            let start = Instant::now();
            for _ in 0..calls {
                f(black_box(&mut out));
            }
            let ns = start.elapsed().as_secs_f64() * 1e9;
            best = best.min(ns / (calls * n) as f64);
        }
        best
    }
    match f {
        Kernel::Wide(f) => go(n, f),
        Kernel::Narrow(f) => go(n, f),
    }
}

/// The emitted (64- and 32-bit) and hand-written kernels agree at every coordinate, and the
/// view reads with the offsets.
fn cross_check() {
    for (pair, narrow) in KERNELS.chunks(2).zip(NARROW_KERNELS) {
        let (a, b) = (&pair[0], &pair[1]);
        let want = run(b.0, b.1, b.2);
        assert_eq!(run(a.0, a.1, a.2), want, "{} vs {}", a.0, b.0);
        assert_eq!(
            run(narrow.0, narrow.1, narrow.2),
            want,
            "{} vs {}",
            narrow.0,
            b.0
        );
    }
    for (triple, offsets) in VIEW_KERNELS.chunks(3).zip([&KERNELS[1], &KERNELS[5]]) {
        let want = run(offsets.0, offsets.1, offsets.2);
        for k in triple {
            assert_eq!(run(k.0, k.1, k.2), want, "{} vs {}", k.0, offsets.0);
        }
    }
}

/// ns per offset of every kernel, as the C++ side measures them.
fn table() {
    for (name, n, f) in KERNELS
        .into_iter()
        .chain(NARROW_KERNELS)
        .chain(VIEW_KERNELS)
    {
        println!("{name} {:.4}", fastest(n, f));
    }
}

fn addressing(c: &mut Criterion) {
    let mut g = c.benchmark_group("addressing");
    for (name, n, f) in KERNELS
        .into_iter()
        .chain(NARROW_KERNELS)
        .chain(VIEW_KERNELS)
    {
        match f {
            Kernel::Wide(f) => {
                let mut out = vec![0i64; n];
                g.bench_function(name, |b| b.iter(|| f(black_box(&mut out))));
            }
            Kernel::Narrow(f) => {
                let mut out = vec![0i32; n];
                g.bench_function(name, |b| b.iter(|| f(black_box(&mut out))));
            }
        }
    }
    g.finish();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // Callgrind counts every call of the kernel it collects, so under `--callgrind` the kernel
    // runs exactly the calls asked for: the cross-check, which calls it too, runs in the other
    // modes (`bench/run.sh` dumps every kernel's offsets first).
    if args.get(1).map(String::as_str) != Some("--callgrind") {
        cross_check();
    }
    let kernel = |name: &str| {
        KERNELS
            .iter()
            .chain(&NARROW_KERNELS)
            .chain(&VIEW_KERNELS)
            .find(|k| k.0 == name)
            .unwrap_or_else(|| panic!("no kernel {name}"))
    };
    match args.get(1).map(String::as_str) {
        Some("--table") => table(),
        Some("--callgrind") => {
            let (_, n, f) = kernel(&args[2]);
            let calls: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
            repeat(*n, *f, calls);
        }
        Some("--dump") => {
            let (name, n, f) = kernel(&args[2]);
            for v in run(name, *n, *f) {
                println!("{v}");
            }
        }
        _ => {
            let mut c = Criterion::default().configure_from_args();
            addressing(&mut c);
            c.final_summary();
        }
    }
}

//! Hostile checks of algebra expressions with run-time operands (`DynamicMap`): every offset
//! against a brute-force evaluator written here, every rule on a run-time value an `Err`, and
//! no spurious error for valid values. A test marked `ignore` reproduces a known defect.

use std::cell::Cell;

use layout_typed::core_algebra::Error;
use layout_typed::prelude::*;

/// Whether a flat layout maps distinct indices to distinct offsets.
fn injective(sizes: &[i64], strides: &[i64]) -> bool {
    let n: i64 = sizes.iter().product();
    let mut seen = std::collections::HashSet::new();
    (0..n).all(|mut i| {
        let mut off = 0i128;
        for k in (0..sizes.len()).rev() {
            off += i128::from(i % sizes[k]) * i128::from(strides[k]);
            i /= sizes[k];
        }
        seen.insert(off)
    })
}

mod inner {
    use layout_typed::prelude::*;
    layout! {
        /// A doc comment with operand-like text: `[({m}, {k}):({ld}, 1)]`, rest = (i, j) ] ) "
        pub const TV_PATH = (thread: 32, value: 4):(4, 1), thread-value -> logical;
    }
}

layout! {
    /// 32 threads × 4 values over an 8×16 tile, row-major positions.
    const TV = (thread: 32, value: 4):(4, 1), thread-value -> logical;
}

#[test]
fn alias_freedom_of_run_time_strides_matches_injectivity() {
    let mut accepted_aliasing = Vec::new();
    for a in 1..=3i64 {
        for b in 1..=3i64 {
            for s in -4..=4i64 {
                for t in -4..=4i64 {
                    let r = layout!(repeat([({a}, {b}):({s}, {t}), logical -> physical], (1):(1)));
                    let inj = injective(&[a, b], &[s, t]);
                    match r {
                        Ok(d) => {
                            if !inj {
                                accepted_aliasing.push((a, b, s, t));
                                continue;
                            }
                            for x in 0..a {
                                for y in 0..b {
                                    let got = d.offset((x * b + y) as usize);
                                    assert_eq!(got, x * s + y * t, "{a} {b} {s} {t}");
                                }
                            }
                        }
                        Err(e) => assert!(!inj, "{a}x{b}:{s},{t} injective but {e}"),
                    }
                }
            }
        }
    }
    assert!(
        accepted_aliasing.is_empty(),
        "aliasing accepted: {accepted_aliasing:?}"
    );
}

#[test]
fn column_major_with_leading_dimension_every_offset() {
    for (m, k, ld) in [(16usize, 8usize, 16usize), (32, 16, 40), (16, 24, 17)] {
        for i in 0..m / 8 {
            for j in 0..k / 4 {
                let t = layout!(restrict(
                    divide([({m}, {k}):(1, {ld}), logical -> physical], (8, 4)),
                    rest = (i, j)
                ))
                .expect("valid");
                for r in 0..8usize {
                    for c in 0..4usize {
                        let want = ((8 * i + r) + (4 * j + c) * ld) as i64;
                        assert_eq!(t.offset((r, c)), want);
                        assert_eq!(t.offset(r * 4 + c), want);
                    }
                }
            }
        }
    }
}

#[test]
fn cute_order_nested_every_offset() {
    // CuTe (M, (K0, K1)):(1, (ld, K0*ld)): seed order ((K1, K0), M):((K0*ld, ld), 1).
    let (m, k0, k1, ld) = (8usize, 4usize, 3usize, 10usize);
    let s = k0 * ld;
    let d =
        layout!(repeat([cute ({m}, ({k0}, {k1})):(1, ({ld}, {s})), logical -> physical], (1):(1)))
            .expect("valid");
    for c1 in 0..k1 {
        for c0 in 0..k0 {
            for r in 0..m {
                let want = (r + c0 * ld + c1 * s) as i64;
                let flat = (c1 * k0 + c0) * m + r;
                assert_eq!(d.offset(flat), want, "({c1},{c0},{r})");
            }
        }
    }
}

#[test]
fn negative_strides_every_offset() {
    for (m, n, ld) in [(4usize, 8usize, 8i64), (8, 4, 5)] {
        let neg = -ld;
        let d =
            layout!(divide([({m}, {n}):({neg}, -1), logical -> physical], (2, 2))).expect("valid");
        for flat in 0..(m * n) {
            // ((t0, t1), (r0, r1)), last fastest.
            let r1 = flat % (n / 2);
            let r0 = (flat / (n / 2)) % (m / 2);
            let t1 = (flat / (n / 2 * (m / 2))) % 2;
            let t0 = flat / (n / 2 * (m / 2) * 2);
            let (row, col) = (r0 * 2 + t0, r1 * 2 + t1);
            assert_eq!(d.offset(flat), -(row as i64) * ld - col as i64);
        }
        let lo = -((m as i64 - 1) * ld) - (n as i64 - 1);
        assert_eq!(d.offset_range(), (lo, 0));
    }
}

#[test]
fn broadcast_run_time_size_is_read_only_only_when_above_one() {
    for m in [1usize, 3] {
        let n = 4usize;
        let d =
            layout!(divide_modes([({m}, {n}):(_, 1), logical -> physical], (1, 1))).expect("valid");
        assert_eq!(d.is_read_only(), m > 1, "m = {m}");
        for x in 0..m {
            for y in 0..n {
                assert_eq!(d.offset(((x, 0usize), (y, 0usize))), y as i64);
            }
        }
    }
}

#[test]
fn store_through_run_time_broadcast_is_refused() {
    let (m, n) = (3usize, 4usize);
    let d = layout!(divide_modes([({m}, {n}):(_, 1), logical -> physical], (1, 1))).expect("valid");
    let mut data = [0i32; 4];
    let mut t = Tensor::new(&mut data[..], &d);
    assert_eq!(t.try_set(((0usize, 0usize), (1usize, 0usize)), 5), Err(5));
    assert_eq!(data, [0; 4]);
}

#[test]
fn compose_with_thread_value_every_offset() {
    let (m, k, ld) = (16usize, 32usize, 40usize);
    for (i, j) in [(0usize, 0usize), (1, 1)] {
        let p = layout!(compose(
            restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)),
            TV
        ))
        .expect("valid");
        for t in 0..32usize {
            for v in 0..4usize {
                let q = 4 * t + v;
                let want = ((8 * i + q / 16) * ld + 16 * j + q % 16) as i64;
                assert_eq!(p.offset((t, v)), want);
            }
        }
    }
}

#[test]
fn restrict_by_position_name_tuple_and_flat_agree() {
    let (m, k, ld) = (32usize, 48usize, 50usize);
    for i in 0..4usize {
        for j in 0..3usize {
            let f = i * 3 + j;
            let a = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j))).expect("a");
            let b = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), 1 = (i, j))).expect("b");
            let c = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = f)).expect("c");
            for r in 0..8usize {
                for cc in 0..16usize {
                    let want = ((8 * i + r) * ld + 16 * j + cc) as i64;
                    assert_eq!(a.offset((r, cc)), want);
                    assert_eq!(b.offset((r, cc)), want);
                    assert_eq!(c.offset((r, cc)), want);
                }
            }
        }
    }
}

#[test]
fn restrict_the_tile_leaves_the_rest() {
    let (m, k, ld) = (32usize, 48usize, 50usize);
    for (r, c) in [(0usize, 0usize), (7, 15), (3, 9)] {
        let d = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), tile = (r, c))).expect("valid");
        for i in 0..4usize {
            for j in 0..3usize {
                assert_eq!(d.offset((i, j)), ((8 * i + r) * ld + 16 * j + c) as i64);
            }
        }
    }
}

#[test]
fn several_run_time_values_all_leaves() {
    for (a, b, sa, sb) in [
        (4usize, 6usize, 7i64, 1i64),
        (6, 4, 1, 6),
        (2, 8, 9, 1),
        (8, 2, 1, 8),
    ] {
        let d =
            layout!(divide([({a}, {b}):({sa}, {sb}), logical -> physical], (2, 2))).expect("valid");
        for x in 0..a {
            for y in 0..b {
                let want = x as i64 * sa + y as i64 * sb;
                assert_eq!(
                    d.offset(((x % 2, y % 2), (x / 2, y / 2))),
                    want,
                    "{a} {b} {sa} {sb}"
                );
            }
        }
    }
}

#[test]
fn repeat_of_run_time_operand_every_offset() {
    // repeat(L, 3:1): (3, S_L):(M, D_L), M = cosize(L).
    for (m, n, ld) in [(2usize, 4usize, 6usize), (4, 2, 2)] {
        let d =
            layout!(repeat([({m}, {n}):({ld}, 1), logical -> physical], (3):(1))).expect("valid");
        let cos = ((m - 1) * ld + n) as i64;
        for a in 0..3usize {
            for x in 0..m {
                for y in 0..n {
                    let flat = (a * m + x) * n + y;
                    assert_eq!(d.offset(flat), a as i64 * cos + (x * ld + y) as i64);
                }
            }
        }
    }
}

#[test]
fn interleave_of_run_time_operand_every_offset() {
    // interleave(L, 3:1): (S_L, 3):(3·D_L, 1).
    for (m, n, ld) in [(2usize, 4usize, 6usize), (4, 2, 2)] {
        let d = layout!(interleave([({m}, {n}):({ld}, 1), logical -> physical], (3):(1)))
            .expect("valid");
        for x in 0..m {
            for y in 0..n {
                for a in 0..3usize {
                    let flat = (x * n + y) * 3 + a;
                    assert_eq!(d.offset(flat), 3 * (x * ld + y) as i64 + a as i64);
                }
            }
        }
    }
}

#[test]
fn broadcast_op_of_run_time_operand() {
    let (m, n, ld) = (3usize, 4usize, 5usize);
    let d = layout!(broadcast([({m}, {n}):({ld}, 1), logical -> physical], (2))).expect("valid");
    assert!(d.is_read_only());
    for s in 0..2usize {
        for x in 0..m {
            for y in 0..n {
                assert_eq!(d.offset((s * m + x) * n + y), (x * ld + y) as i64);
            }
        }
    }
}

#[test]
fn inverse_of_run_time_operand() {
    for (t, v) in [(4usize, 8usize), (8, 4)] {
        // Column-major thread-value: (thread, value):(1, t).
        let d = layout!(inverse([({t}, {v}):(1, {t}), thread-value -> logical])).expect("valid");
        for x in 0..t {
            for y in 0..v {
                let o = x + y * t;
                assert_eq!(d.offset(o), (x * v + y) as i64);
            }
        }
    }
}

#[test]
fn swizzle_of_run_time_operand() {
    let (m, n) = (8usize, 16usize);
    let d = layout!(swizzle([({m}, {n}):({n}, 1), logical -> physical], b = 2, src = 4, dst = 0))
        .expect("valid");
    for x in 0..m {
        for y in 0..n {
            let o = (x * n + y) as i64;
            let want = swz(o, 2, 4, 0);
            assert_eq!(d.offset((x, y)), want);
        }
    }
}

#[test]
fn run_time_leaf_evaluated_once() {
    let calls = Cell::new(0u32);
    let next = |v: usize| {
        calls.set(calls.get() + 1);
        v
    };
    let d = layout!(divide([({next(16)}, 8):({next(8)}, 1), logical -> physical], (4, 4)))
        .expect("valid");
    assert_eq!(calls.get(), 2);
    let _ = d;
    calls.set(0);
    let i = 1usize;
    let e =
        layout!(restrict(divide([(16, 8):(8, 1), logical -> physical], (4, 4)), rest = next(i)));
    let _ = e;
    assert_eq!(calls.get(), 1);
    calls.set(0);
    let e = layout!(restrict(divide([({next(16)}, 8):(8, 1), logical -> physical], (4, 4)), rest = (next(i), next(0)))).expect("valid");
    assert_eq!(calls.get(), 3);
    assert_eq!(e.offset((1usize, 2usize)), ((4 + 1) * 8 + 2) as i64);
}

#[test]
fn zero_and_negative_sizes_are_errors() {
    for m in [0i64, -4] {
        let r = layout!(divide([({m}, 8):(8, 1), logical -> physical], (4, 4)));
        assert!(r.is_err(), "m = {m}: {r:?}");
    }
    for m in [0i32, -4] {
        let r = layout!(divide([({m}, 8):(8, 1), logical -> physical], (1, 4)));
        assert!(r.is_err(), "m = {m}: {r:?}");
    }
}

#[test]
fn aliasing_small_leading_dimension_every_form() {
    let (m, k) = (16usize, 8usize);
    for ld in [0usize, 1, 7] {
        let r = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (4, 4)));
        assert!(r.is_err(), "row {ld}");
    }
    for ld in [0usize, 1, 15] {
        assert!(
            layout!(divide([({m}, {k}):(1, {ld}), logical -> physical], (4, 4))).is_err(),
            "col {ld}"
        );
    }
    for ld in [-1i64, -7, 0] {
        assert!(
            layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (4, 4))).is_err(),
            "neg {ld}"
        );
        assert!(
            layout!(divide([({m}, {k}):({ld}, -1), logical -> physical], (4, 4))).is_err(),
            "neg2 {ld}"
        );
    }
    // Nested: ((a, b), c):((s, t), 1)
    let (a, b, c) = (2usize, 4usize, 4usize);
    for (s, t) in [(4usize, 4usize), (16, 2), (8, 4)] {
        let r = layout!(repeat([(({a}, {b}), {c}):(({s}, {t}), 1), logical -> physical], (1):(1)));
        let inj = injective(&[a as i64, b as i64, c as i64], &[s as i64, t as i64, 1]);
        assert_eq!(r.is_ok(), inj, "{s} {t}: {r:?}");
    }
}

#[test]
fn index_type_range_unsigned_and_narrow() {
    let (m, k) = (4usize, 4usize);
    let neg = -4i64;
    let r = layout!(divide([({m}, {k}):({neg}, 1), logical -> physical, index = u32], (2, 2)));
    assert!(matches!(r, Err(Error::IndexTypeRange { .. })), "{r:?}");
    let ld = (i32::MAX as usize) / 3;
    let r = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical, index = i32], (2, 2)));
    let max = 3 * ld + 3;
    assert_eq!(r.is_ok(), max <= i32::MAX as usize, "{r:?}");
    let ld = (u32::MAX as usize) / 3;
    let r = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical, index = u32], (2, 2)));
    let max = 3 * ld + 3;
    assert_eq!(r.is_ok(), max <= u32::MAX as usize, "{r:?}");
    if let Ok(d) = r {
        assert_eq!(
            d.offset(((1usize, 1usize), (1usize, 1usize))) as u64,
            max as u64
        );
    }
}

/// A tile of 8 that ends at the fast leaf's end (b = 8) drops the rest's size-1 part, so the
/// result's nesting differs from the stand-in's (b = 16): the documented `RuntimeProfile`,
/// never a value typed with the wrong coordinates. With b = 16 the same expression is a value.
#[test]
fn tile_equal_to_fast_leaf_is_a_runtime_profile() {
    let (a, b) = (4usize, 8usize);
    let d = layout!(divide([(({a}, {b})):(({b}, 1)), logical -> physical], 8));
    assert_eq!(
        d.unwrap_err(),
        Error::RuntimeProfile {
            expected: 3,
            found: 2
        }
    );
    let (a, b) = (4usize, 16usize);
    let d = layout!(divide([(({a}, {b})):(({b}, 1)), logical -> physical], 8)).expect("value");
    for t in 0..8usize {
        for r in 0..a {
            for h in 0..2usize {
                assert_eq!(d.offset((t * a + r) * 2 + h), (r * b + 8 * h + t) as i64);
            }
        }
    }
}

#[test]
fn cute_run_time_zero_stride_is_an_error() {
    let (m, k) = (16usize, 8usize);
    // The same operand in seed order, and as a `layout!` value in CuTe order, refuse it.
    let ld = 0usize;
    assert!(matches!(
        layout!(divide([({k}, {m}):({ld}, 1), logical -> physical], (4, 4))),
        Err(Error::ZeroStride { .. })
    ));
    assert!(matches!(
        layout!(cute ({m}, {k}):(1, {ld}), logical -> physical),
        Err(Error::ZeroStride { .. })
    ));
    let r = layout!(divide([cute ({m}, {k}):(1, {ld}), logical -> physical], (4, 4)));
    assert!(matches!(r, Err(Error::ZeroStride { .. })), "{r:?}");
}

#[test]
fn restrict_tuple_value_checks_each_component() {
    let (m, k, ld) = (32usize, 48usize, 50usize);
    // rest has shape (4, 3): (0, 5) has a flat index 5 < 12, but 5 is outside the second entry.
    for (i, j) in [(0usize, 5usize), (0, 3), (1, 4)] {
        let r = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)));
        assert!(
            matches!(r, Err(Error::CoordOutOfRange { .. })),
            "({i}, {j}): {r:?}"
        );
    }
    for (i, j) in [(1i64, -1i64), (-1, 3)] {
        let r = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)));
        assert!(
            matches!(r, Err(Error::CoordOutOfRange { .. })),
            "({i}, {j}): {r:?}"
        );
    }
    // A flat value past the entry.
    let f = 12usize;
    let r =
        layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = f));
    assert!(matches!(r, Err(Error::CoordOutOfRange { .. })), "{r:?}");
}

fn swz(o: i64, b: u32, src: u32, dst: u32) -> i64 {
    o ^ (((o >> src) & ((1 << b) - 1)) << dst)
}

#[test]
fn swizzle_then_restrict_every_offset() {
    let (m, n, ld) = (16usize, 32usize, 32usize);
    for (i, j) in [(0usize, 0usize), (1, 1), (3, 0)] {
        let d = layout!(restrict(
            swizzle(divide([({m}, {n}):({ld}, 1), logical -> physical], (4, 16)), b = 2, src = 5, dst = 2),
            rest = (i, j)
        ))
        .expect("valid");
        for r in 0..4usize {
            for c in 0..16usize {
                let o = ((4 * i + r) * ld + 16 * j + c) as i64;
                assert_eq!(d.offset((r, c)), swz(o, 2, 5, 2), "({i},{j}) ({r},{c})");
            }
        }
    }
}

#[test]
fn restrict_then_swizzle_every_offset() {
    let (m, n, ld) = (16usize, 32usize, 32usize);
    for (i, j) in [(0usize, 0usize), (1, 1), (3, 0)] {
        let d = layout!(swizzle(
            restrict(divide([({m}, {n}):({ld}, 1), logical -> physical], (4, 16)), rest = (i, j)),
            b = 2, src = 5, dst = 2
        ))
        .expect("valid");
        for r in 0..4usize {
            for c in 0..16usize {
                let o = ((4 * i + r) * ld + 16 * j + c) as i64;
                assert_eq!(d.offset((r, c)), swz(o, 2, 5, 2), "({i},{j}) ({r},{c})");
            }
        }
    }
}

#[test]
fn swizzled_tensor_every_in_domain_access_is_in_bounds() {
    // The swizzle moves offsets past the inner layout's range: bit 0 goes to bit 4.
    let n = 16usize;
    let d =
        layout!(swizzle([({n}):(1), logical -> physical], b = 1, src = 0, dst = 4)).expect("valid");
    let max = (0..n as i64).map(|o| swz(o, 1, 0, 4)).max().unwrap();
    assert_eq!(d.offset_range().1, max);
    let data: Vec<i64> = (0..64).collect();
    let t = Tensor::new(&data[..(max as usize + 1)], &d);
    for x in 0..n {
        assert_eq!(*t.get(x), swz(x as i64, 1, 0, 4));
    }
}

#[test]
fn restriction_of_a_broadcast_keeps_it_read_only() {
    let (m, k, ld) = (8usize, 8usize, 10usize);
    // broadcast(divide(A, (1, 4)), (3)) = (3, ((1, 4), (8, 2))); fix entry 1 to a flat index.
    for f in [0usize, 5, 63] {
        let p = layout!(restrict(
            broadcast(divide([({m}, {k}):({ld}, 1), logical -> physical], (1, 4)), (3)),
            1 = f
        ))
        .expect("valid");
        // f = ((t0, t1), (r0, r1)) over (1, 4, 8, 2): row r0, column 4·r1 + t1.
        let (t1, r0, r1) = ((f / 16) % 4, (f / 2) % 8, f % 2);
        for c in 0..3usize {
            assert_eq!(p.offset(c), (r0 * ld + 4 * r1 + t1) as i64);
        }
        assert!(p.is_read_only(), "copies share addresses: {p:?}");
        let mut data = [0i32; 80];
        let mut t = Tensor::new(&mut data[..], &p);
        assert_eq!(t.try_set(2usize, 9), Err(9));
        assert_eq!(data, [0; 80]);
    }
    // Fixing the broadcast entry leaves the whole divided matrix.
    let p = layout!(restrict(
        broadcast(divide([({m}, {k}):({ld}, 1), logical -> physical], (1, 4)), (3)),
        0 = 2
    ))
    .expect("valid");
    for f in 0..64usize {
        let (t1, r0, r1) = ((f / 16) % 4, (f / 2) % 8, f % 2);
        assert_eq!(p.offset(f), (r0 * ld + 4 * r1 + t1) as i64);
    }
}

#[test]
fn extreme_values_never_panic_and_offsets_are_exact() {
    let sizes = [1i64, 2, 3, i64::MAX];
    let strides = [i64::MIN, i64::MIN + 1, -3, -1, 1, 2, i64::MAX / 2, i64::MAX];
    for &a in &sizes {
        for &b in &[1i64, 2] {
            for &s in &strides {
                for &t in &[1i64, -1, 3] {
                    let check = |off: &dyn Fn(usize) -> i64, n: i64, tag: &str| {
                        for f in [0, n - 1, n / 2] {
                            let (x, y) = (f / b, f % b);
                            let want = (x as i128) * (s as i128) + (y as i128) * (t as i128);
                            assert_eq!(off(f as usize) as i128, want, "{tag} {a} {b} {s} {t} @{f}");
                        }
                    };
                    let inj = a.checked_mul(b).is_some() && (a <= 3) && injective(&[a, b], &[s, t]);
                    if let Ok(d) =
                        layout!(repeat([({a}, {b}):({s}, {t}), logical -> physical], (1):(1)))
                    {
                        assert!(inj || a > 3, "aliasing accepted {a} {b} {s} {t}");
                        check(&|f| d.offset(f), a * b, "repeat");
                    }
                    let _ = layout!(repeat([({a}, {b}):({s}, {t}), logical -> physical], (3):(1)));
                    let _ =
                        layout!(interleave([({a}, {b}):({s}, {t}), logical -> physical], (3):(1)));
                    let _ = layout!(broadcast([({a}, {b}):({s}, {t}), logical -> physical], (3)));
                    let _ = layout!(divide([({a}, {b}):({s}, {t}), logical -> physical], (1, 1)));
                    let _ = layout!(restrict(divide([({a}, {b}):({s}, {t}), logical -> physical], (1, 1)), rest = (0, 0)));
                    let _ = layout!(swizzle([({a}, {b}):({s}, {t}), logical -> physical], b = 2, src = 5, dst = 2));
                    let _ = layout!(inverse([({a}, {b}):({s}, {t}), thread-value -> logical]));
                }
            }
        }
    }
}

#[test]
fn integer_types_of_values() {
    let (m, k) = (16u8, 8i16);
    let ld = 8u64;
    let i = 1i8;
    let j = 0u128;
    let d = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (4, 4)), rest = (i, j))).expect("valid");
    assert_eq!(d.offset((1usize, 2usize)), (5 * 8 + 2) as i64);
    let m = i128::MAX;
    let r = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (4, 4)));
    assert!(
        matches!(
            r,
            Err(Error::LeafOutOfRange {
                leaf: 0,
                stride: false,
                ..
            })
        ),
        "{r:?}"
    );
    let m = i128::MIN;
    let r = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (4, 4)));
    assert!(
        matches!(
            r,
            Err(Error::LeafOutOfRange {
                leaf: 0,
                stride: false,
                negative: true,
                ..
            })
        ),
        "{r:?}"
    );
}

#[test]
fn size_one_run_time_leaves() {
    // Valid values of size 1 in every operation: not refused, offsets exact.
    let (one, n, ld) = (1usize, 4usize, 4usize);
    let d =
        layout!(repeat([({one}, {n}):({ld}, 1), logical -> physical], (2):(1))).expect("repeat");
    for a in 0..2usize {
        for y in 0..n {
            assert_eq!(d.offset(a * n + y), (a * n + y) as i64);
        }
    }
    let d = layout!(divide([({one}, {n}):({ld}, 1), logical -> physical], (1, 2))).expect("divide");
    assert_eq!(d.size(), 4);
    let d = layout!(restrict(divide([({n}, {n}):({ld}, 1), logical -> physical], (4, 4)), rest = (0, 0))).expect("whole tile");
    assert_eq!(d.offset((3usize, 1usize)), 13);
}

/// `inverse` drops size-1 leaves: a run-time size 1 gives the result another nesting than the
/// stand-in's, the documented `RuntimeProfile`; with a size > 1 the value is the inverse.
#[test]
fn inverse_with_a_size_one_run_time_leaf_is_a_runtime_profile() {
    let (one, n) = (1usize, 4usize);
    let d = layout!(inverse([({one}, {n}):({n}, 1), thread-value -> logical]));
    assert!(matches!(d, Err(Error::RuntimeProfile { .. })), "{d:?}");
    let (two, n) = (2usize, 4usize);
    let d = layout!(inverse([({two}, {n}):({n}, 1), thread-value -> logical])).expect("inverse");
    // (2, 4):(4, 1) is the identity on 8 positions; so is its inverse.
    for o in 0..8usize {
        assert_eq!(d.offset(o), o as i64);
    }
}

#[test]
fn divide_modes_of_run_time_operand_every_offset() {
    for (m, n, ld) in [(4usize, 8usize, 8usize), (6, 12, 13)] {
        let d = layout!(divide_modes([({m}, {n}):({ld}, 1), logical -> physical], (2, 4)))
            .expect("valid");
        for x in 0..m {
            for y in 0..n {
                let c = ((x / 2, x % 2), (y / 4, y % 4));
                assert_eq!(d.offset(c), (x * ld + y) as i64, "{m} {n} {ld} ({x}, {y})");
            }
        }
    }
}

#[test]
fn inverse_of_a_run_time_operand_with_gaps_is_an_error() {
    let (t, v) = (4usize, 8usize);
    for s in [9usize, 16, 0] {
        let r = layout!(inverse([({t}, {v}):({s}, 1), thread-value -> logical]));
        assert!(r.is_err(), "s = {s}: {r:?}");
    }
    let s = 8usize;
    let d = layout!(inverse([({t}, {v}):({s}, 1), thread-value -> logical])).expect("dense");
    for o in 0..t * v {
        assert_eq!(d.offset(o), o as i64);
    }
}

#[test]
fn compose_of_two_run_time_operands_every_offset() {
    // Left (m, k):(ld, 1), right (k, m):(1, k) into the left's flat positions.
    for (m, k, ld) in [(8usize, 4usize, 6usize), (4, 8, 8), (6, 2, 3)] {
        let d = layout!(compose(
            [({m}, {k}):({ld}, 1), logical -> physical],
            [({k}, {m}):(1, {k}), thread-value -> logical]
        ))
        .expect("same sizes");
        for x0 in 0..k {
            for x1 in 0..m {
                let f = x0 + k * x1; // the left's flat position
                assert_eq!(d.offset((x0, x1)), ((f / k) * ld + f % k) as i64);
            }
        }
    }
    // Sizes that disagree at run time are the value's error.
    let (m, k, ld, m2) = (8usize, 4usize, 4usize, 4usize);
    let r = layout!(compose(
        [({m}, {k}):({ld}, 1), logical -> physical],
        [({k}, {m2}):(1, {k}), thread-value -> logical]
    ));
    assert!(matches!(r, Err(Error::SizeMismatch { .. })), "{r:?}");
}

#[test]
fn contains_checks_every_leaf() {
    let (m, k, ld) = (32usize, 48usize, 50usize);
    let d = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16))).expect("valid");
    assert!(d.contains(&((7usize, 15usize), (3usize, 2usize))));
    assert!(!d.contains(&((8usize, 0usize), (0usize, 0usize))));
    assert!(!d.contains(&((0usize, 16usize), (0usize, 0usize))));
    assert!(!d.contains(&((0usize, 0usize), (4usize, 0usize))));
    assert!(!d.contains(&((0usize, 0usize), (0usize, 3usize))));
    assert!(d.contains(&(m * k - 1)));
    assert!(!d.contains(&(m * k)));
    assert_eq!(d.try_offset((0usize, 16usize)), None);
}

#[test]
fn restrict_named_mode_of_run_time_operand() {
    let (m, k, ld) = (8usize, 4usize, 6usize);
    for i in 0..m {
        let d = layout!(restrict([(row: {m}, col: {k}):({ld}, 1), logical -> physical], row = i))
            .expect("valid");
        for c in 0..k {
            assert_eq!(d.offset(c), (i * ld + c) as i64);
        }
    }
    let i = m;
    let r = layout!(restrict([(row: {m}, col: {k}):({ld}, 1), logical -> physical], row = i));
    assert!(matches!(r, Err(Error::CoordOutOfRange { .. })), "{r:?}");
}

#[test]
fn coarser_coordinates_unflatten_with_run_time_sizes() {
    for (m, k, ld) in [(32usize, 48usize, 50usize), (16, 16, 16)] {
        let d =
            layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16))).expect("valid");
        let (bm, bk) = (m / 8, k / 16);
        for tf in 0..128usize {
            for rf in 0..bm * bk {
                let (t0, t1, r0, r1) = (tf / 16, tf % 16, rf / bk, rf % bk);
                let want = ((8 * r0 + t0) * ld + 16 * r1 + t1) as i64;
                assert_eq!(d.offset((tf, rf)), want, "({tf}, {rf})");
                assert_eq!(d.offset(((t0, t1), rf)), want);
                assert_eq!(d.offset((tf, (r0, r1))), want);
                assert_eq!(d.offset(tf * bm * bk + rf), want);
            }
        }
        // Nested operand: ((a, b), c) with a coarse first mode.
        let (a, b, c) = (2usize, 3usize, 4usize);
        let s0 = 3 * c + 1;
        let n = layout!(repeat([(({a}, {b}), {c}):(({s0}, {c}), 1), logical -> physical], (1):(1)))
            .expect("valid");
        for x in 0..a * b {
            for z in 0..c {
                let want = ((x / b) * s0 + (x % b) * c + z) as i64;
                assert_eq!(n.offset((0usize, (x, z))), want, "({x}, {z})");
            }
        }
    }
}

#[test]
fn index_type_boundaries_are_exact() {
    let two = 2usize;
    let s = i64::from(i32::MIN);
    let d =
        layout!(repeat([({two}):({s}), logical -> physical, index = i32], (1):(1))).expect("fits");
    assert_eq!(d.offset(1usize), i32::MIN);
    let s = i64::from(i32::MIN) - 1;
    let r = layout!(repeat([({two}):({s}), logical -> physical, index = i32], (1):(1)));
    assert!(matches!(r, Err(Error::IndexTypeRange { .. })), "{r:?}");
    let s = i64::from(i32::MAX);
    let d =
        layout!(repeat([({two}):({s}), logical -> physical, index = i32], (1):(1))).expect("fits");
    assert_eq!(d.offset(1usize), i32::MAX);
    let s = i64::from(u32::MAX);
    let d =
        layout!(repeat([({two}):({s}), logical -> physical, index = u32], (1):(1))).expect("fits");
    assert_eq!(d.offset(1usize), u32::MAX);
    let s = i64::from(u32::MAX) + 1;
    let r = layout!(repeat([({two}):({s}), logical -> physical, index = u32], (1):(1)));
    assert!(matches!(r, Err(Error::IndexTypeRange { .. })), "{r:?}");
    // A tile of a matrix whose whole offsets leave i32 while the tile's own stay inside.
    let (m, k, ld) = (4usize, 4usize, 1usize << 30);
    let (i, j) = (1usize, 0usize);
    let r = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical, index = i32], (2, 4)), rest = (i, j)));
    // Rows 2 and 3: offsets 2^31 and more do not fit i32.
    assert!(matches!(r, Err(Error::IndexTypeRange { .. })), "{r:?}");
}

#[test]
fn items_by_path_with_tricky_doc_comments() {
    let (m, k, ld) = (16usize, 32usize, 40usize);
    for (i, j) in [(0usize, 0usize), (1, 1)] {
        let p = layout!(compose(
            restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)),
            inner::TV_PATH
        ))
        .expect("valid");
        for t in 0..32usize {
            let s = layout!(restrict(
                compose(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)), inner::TV_PATH),
                thread = t
            ))
            .expect("valid");
            for v in 0..4usize {
                let q = 4 * t + v;
                let want = ((8 * i + q / 16) * ld + 16 * j + q % 16) as i64;
                assert_eq!(p.offset((t, v)), want);
                assert_eq!(s.offset(v), want);
            }
        }
    }
}

macro_rules! swizzled_composite_case {
    ($b:literal, $src:literal, $dst:literal) => {{
        let (m, k, ld) = (16usize, 32usize, 32usize);
        for (i, j) in [(0usize, 0usize), (1, 1), (0, 1)] {
            let p = layout!(compose(
                swizzle(
                    restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)),
                    b = $b, src = $src, dst = $dst
                ),
                TV
            ))
            .expect("valid");
            let q = layout!(swizzle(
                compose(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)), TV),
                b = $b, src = $src, dst = $dst
            ))
            .expect("valid");
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            for t in 0..32usize {
                let r = layout!(restrict(
                    compose(
                        swizzle(
                            restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)),
                            b = $b, src = $src, dst = $dst
                        ),
                        TV
                    ),
                    thread = t
                ))
                .expect("valid");
                for v in 0..4usize {
                    let pos = 4 * t + v;
                    let o = ((8 * i + pos / 16) * ld + 16 * j + pos % 16) as i64;
                    let want = swz(o, $b, $src, $dst);
                    assert_eq!(p.offset((t, v)), want, "p ({i},{j}) ({t},{v})");
                    assert_eq!(q.offset((t, v)), want, "q");
                    assert_eq!(r.offset(v), want, "r");
                    lo = lo.min(want);
                    hi = hi.max(want);
                    let (a, z) = r.offset_range();
                    assert!(a <= want && want <= z, "r's range [{a}, {z}] misses {want}");
                }
                // A tensor on exactly the data the range asks for reads every coordinate.
                let data: Vec<i64> = (0..1024).collect();
                let tr = Tensor::new(&data[..r.offset_range().1 as usize + 1], &r);
                for v in 0..4usize {
                    let _ = tr.get(v);
                }
            }
            // The range bounds every offset, so a tensor made on it is never short.
            for (a, z) in [p.offset_range(), q.offset_range()] {
                assert!(a <= lo && z >= hi, "range [{a}, {z}] misses [{lo}, {hi}]");
            }
            let data: Vec<i64> = (0..1024).collect();
            let t = Tensor::new(&data[..(hi as usize + 1).max(p.offset_range().1 as usize + 1)], &p);
            for th in 0..32usize {
                for v in 0..4usize {
                    let _ = t.get((th, v));
                }
            }
        }
    }};
}

#[test]
fn swizzled_composites_every_offset_and_range() {
    swizzled_composite_case!(2, 4, 0);
    swizzled_composite_case!(1, 0, 4);
    swizzled_composite_case!(2, 0, 5);
    swizzled_composite_case!(3, 3, 6);
}

#[test]
fn out_of_range_error_names_the_value_that_broke_the_rule() {
    let (m, k, ld) = (256usize, 256usize, 264usize);
    let (t, huge) = (200usize, u128::MAX);
    // The tile has 128 rows: t = 200 is outside; the huge value is in another restriction.
    let r = layout!(restrict(
        restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)), tile = (t, 0)),
        rest = (0, huge)
    ));
    assert!(
        matches!(
            r,
            Err(Error::CoordOutOfRange {
                value: 200,
                size: 128,
                ..
            })
        ),
        "{r:?}"
    );
    // rest has shape (2, 4): 5 is outside the first entry, the huge value is for the second.
    let i = 5usize;
    let r = layout!(restrict(
        divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)),
        rest = (i, huge)
    ));
    match r {
        Err(Error::CoordOutOfRange {
            value: 5, size: 2, ..
        }) => {}
        Err(Error::RuntimeValueOutOfRange { size: 4, .. }) => {}
        r => panic!("{r:?}"),
    }
}

/// A small deterministic generator (no dependency): xorshift.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

layout! {
    /// 32 threads × 4 values, each thread a column of 4 rows apart (strided).
    const TV_STRIDED = (thread: 32, value: 4):(1, 32), thread-value -> logical;
}

#[test]
fn random_matrices_tiles_and_partitions_every_offset() {
    let mut g = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..150 {
        let (bm, bk) = (1 + g.below(4), 1 + g.below(4));
        let (m, k) = (8 * bm, 16 * bk);
        let row_major = g.below(2) == 0;
        let ld = if row_major { k } else { m } + g.below(5);
        let (i, j) = (g.below(bm), g.below(bk));
        // Element (r, c) of the matrix.
        let at = |r: usize, c: usize| -> i64 {
            if row_major {
                (r * ld + c) as i64
            } else {
                (r + c * ld) as i64
            }
        };
        let t = g.below(32);
        if row_major {
            let tile = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j))).expect("valid");
            let part = layout!(restrict(compose(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)), TV_STRIDED), thread = t)).expect("valid");
            let whole = layout!(divide_modes([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)))
                .expect("valid");
            for r in 0..8 {
                for c in 0..16 {
                    assert_eq!(tile.offset((r, c)), at(8 * i + r, 16 * j + c));
                }
            }
            for v in 0..4 {
                let q = t + 32 * v;
                assert_eq!(part.offset(v), at(8 * i + q / 16, 16 * j + q % 16));
            }
            for r in 0..m {
                for c in 0..k {
                    assert_eq!(whole.offset(((r / 8, r % 8), (c / 16, c % 16))), at(r, c));
                }
            }
        } else {
            let tile = layout!(restrict(divide([({m}, {k}):(1, {ld}), logical -> physical], (8, 16)), rest = (i, j))).expect("valid");
            let part = layout!(restrict(compose(restrict(divide([({m}, {k}):(1, {ld}), logical -> physical], (8, 16)), rest = (i, j)), TV_STRIDED), thread = t)).expect("valid");
            let cute = layout!(restrict(divide([cute ({k}, {m}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j))).expect("valid");
            for r in 0..8 {
                for c in 0..16 {
                    assert_eq!(tile.offset((r, c)), at(8 * i + r, 16 * j + c));
                    // The same matrix in CuTe order: (k, m):(ld, 1) reversed is (m, k):(1, ld).
                    assert_eq!(cute.offset((r, c)), at(8 * i + r, 16 * j + c));
                }
            }
            for v in 0..4 {
                let q = t + 32 * v;
                assert_eq!(part.offset(v), at(8 * i + q / 16, 16 * j + q % 16));
            }
        }
    }
}

#[test]
fn restrict_the_value_entry_or_every_entry() {
    let (m, k, ld, i, j) = (16usize, 32usize, 40usize, 1usize, 1usize);
    let at = |q: usize| ((8 * i + q / 16) * ld + 16 * j + q % 16) as i64;
    for v in 0..4usize {
        let d = layout!(restrict(
            compose(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)), TV_STRIDED),
            value = v
        ))
        .expect("valid");
        for t in 0..32usize {
            assert_eq!(d.offset(t), at(t + 32 * v));
        }
    }
    for (t, v) in [(5usize, 3usize), (31, 0), (0, 0)] {
        let d = layout!(restrict(
            compose(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j)), TV_STRIDED),
            thread = t,
            value = v
        ))
        .expect("valid");
        assert_eq!(d.size(), 1);
        assert_eq!(d.offset(0usize), at(t + 32 * v));
        let e = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (8, 16)), rest = (i, j), tile = (t % 8, v)))
            .expect("valid");
        assert_eq!(e.size(), 1);
        assert_eq!(e.offset(0usize), ((8 * i + t % 8) * ld + 16 * j + v) as i64);
    }
}

#[test]
fn runtime_profile_message_says_what_differs() {
    // (a, b) = (16, 4): the tile of 8 covers (2, 4), the rest is 8: three leaves, as the type's
    // (8, (16, 2)) has, but another nesting; the message must not contradict itself.
    let (a, b) = (16usize, 4usize);
    let e = layout!(divide([(({a}, {b})):(({b}, 1)), logical -> physical], 8)).unwrap_err();
    assert_eq!(
        e,
        Error::RuntimeProfile {
            expected: 3,
            found: 3
        }
    );
    assert_eq!(
        e.to_string(),
        "the run-time values nest the result's 3 domain leaves otherwise than its type, derived while compiling"
    );
}

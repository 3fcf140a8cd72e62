//! Algebra expressions whose operands have run-time leaves (`layout_typed::DynamicMap`): every
//! offset against a brute-force evaluator written here (row-major matrices with a leading
//! dimension, tiles, thread-value partitions), and every rule that involves a run-time value
//! an `Err` with that rule.

use layout_typed::core_algebra::{Error, Quantity};
use layout_typed::prelude::*;

/// Offset of element (row, col) of a row-major matrix with leading dimension `ld`.
fn rm(row: usize, col: usize, ld: usize) -> i64 {
    (row * ld + col) as i64
}

const CASES: [(usize, usize, usize); 4] = [
    (128, 64, 64),
    (256, 128, 136),
    (384, 192, 200),
    (128, 320, 1000),
];

#[test]
fn local_tile_every_coordinate() {
    for (m, k, ld) in CASES {
        for i in 0..m / 128 {
            for j in 0..k / 64 {
                let tile = layout!(restrict(
                    divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)),
                    rest = (i, j)
                ))
                .expect("in range");
                assert_eq!(tile.size(), 128 * 64);
                assert!(tile.is_layout());
                for r in 0..128 {
                    for c in 0..64 {
                        let want = rm(128 * i + r, 64 * j + c, ld);
                        assert_eq!(tile.offset((r, c)), want);
                        assert_eq!(tile.offset(r * 64 + c), want, "flat index");
                    }
                }
                assert_eq!(tile.try_offset((128usize, 0usize)), None);
            }
        }
    }
}

#[test]
fn divide_keeps_run_time_rest_sizes() {
    for (m, k, ld) in CASES {
        let d = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)))
            .expect("divides");
        assert_eq!(d.size(), m * k);
        let (bm, bk) = (m / 128, k / 64);
        assert!(d.contains(&((127usize, 63usize), (bm - 1, bk - 1))));
        assert!(!d.contains(&((0usize, 0usize), (bm, 0usize))));
        for i in 0..bm {
            for j in 0..bk {
                for (r, c) in [(0usize, 0usize), (1, 2), (127, 63), (64, 31)] {
                    assert_eq!(d.offset(((r, c), (i, j))), rm(128 * i + r, 64 * j + c, ld));
                }
            }
        }
        assert_eq!(d.offset_range(), (0, rm(m - 1, k - 1, ld)));
    }
}

#[test]
fn cute_order_operand() {
    // CuTe's (K, M):(1, ld), written in CuTe order: the same matrix.
    for (m, k, ld) in CASES {
        let t = layout!(restrict(
            divide([cute ({k}, {m}):(1, {ld}), logical -> physical], (128, 64)),
            rest = (1, 0)
        ));
        if m < 256 {
            assert!(
                matches!(t, Err(Error::CoordOutOfRange { value: 1, .. })),
                "{t:?}"
            );
            continue;
        }
        let t = t.expect("in range");
        for r in 0..128 {
            for c in 0..64 {
                assert_eq!(t.offset((r, c)), rm(128 + r, c, ld));
            }
        }
    }
}

layout! {
    /// 128 threads × 4 values over a 16×32 tile, four consecutive columns per thread.
    const TV = (thread: 128, value: 4):(4, 1), thread-value -> logical;
    /// The same tile, each thread one column of 4 rows apart... as a strided partition.
    const TV_COLS = (thread: 128, value: 4):(1, 128), thread-value -> logical;
}

#[test]
fn partition_of_a_run_time_tile() {
    for (m, k, ld) in CASES {
        let (i, j) = (m / 16 - 1, k / 32 - 1);
        for t in [0usize, 1, 7, 31, 127] {
            let slice = layout!(restrict(
                compose(
                    restrict(
                        divide([({m}, {k}):({ld}, 1), logical -> physical], (16, 32)),
                        rest = (i, j)
                    ),
                    TV
                ),
                thread = t
            ))
            .expect("in range");
            let cols = layout!(restrict(
                compose(
                    restrict(
                        divide([({m}, {k}):({ld}, 1), logical -> physical], (16, 32)),
                        rest = (i, j)
                    ),
                    TV_COLS
                ),
                thread = t
            ))
            .expect("in range");
            assert_eq!(slice.size(), 4);
            for v in 0..4usize {
                // TV: position 4t + v of the 16×32 tile, row-major.
                let p = 4 * t + v;
                assert_eq!(slice.offset(v), rm(16 * i + p / 32, 32 * j + p % 32, ld));
                let q = t + 128 * v;
                assert_eq!(cols.offset(v), rm(16 * i + q / 32, 32 * j + q % 32, ld));
            }
        }
    }
}

#[test]
fn whole_partition_every_coordinate() {
    let (m, k, ld) = (64usize, 96usize, 100usize);
    let p = layout!(compose(
        restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (16, 32)), rest = (3, 2)),
        TV_COLS
    ))
    .expect("in range");
    for t in 0..128usize {
        for v in 0..4usize {
            let q = t + 128 * v;
            assert_eq!(p.offset((t, v)), rm(48 + q / 32, 64 + q % 32, ld));
        }
    }
}

#[test]
fn rules_on_run_time_values_are_errors() {
    let (m, k, ld) = (300usize, 256usize, 264usize);
    let e = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64))).unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotDivisible {
                size: 300,
                tile: 128,
                ..
            }
        ),
        "{e:?}"
    );
    // A leading dimension below the row length aliases.
    let (m, ld) = (256usize, 32usize);
    let e = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64))).unwrap_err();
    assert!(matches!(e, Error::Aliasing { .. }), "{e:?}");
    // A restrict value outside its run-time entry.
    let (ld, i) = (264usize, 2usize);
    let e = layout!(restrict(
        divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)),
        rest = (i, 0)
    ))
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::CoordOutOfRange {
                value: 2,
                size: 2,
                ..
            }
        ),
        "{e:?}"
    );
    let neg = -1i32;
    let e = layout!(restrict(
        divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)),
        rest = neg
    ))
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::CoordOutOfRange {
                value: -1,
                size: 8,
                ..
            }
        ),
        "{e:?}"
    );
    let huge = u128::MAX;
    let e = layout!(restrict(
        divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)),
        rest = (0, huge)
    ))
    .unwrap_err();
    assert_eq!(
        e,
        Error::RuntimeValueOutOfRange {
            negative: false,
            magnitude: u128::MAX,
            size: 4
        }
    );
    // A leaf outside i64.
    let huge = u64::MAX;
    let e = layout!(divide([({m}, {k}):({huge}, 1), logical -> physical], (128, 64))).unwrap_err();
    assert!(
        matches!(
            e,
            Error::LeafOutOfRange {
                leaf: 0,
                stride: true,
                ..
            }
        ),
        "{e:?}"
    );
    // Offsets past the index type.
    let ld = 1usize << 24;
    let e = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical, index = i32], (128, 64)))
        .unwrap_err();
    assert!(matches!(e, Error::IndexTypeRange { .. }), "{e:?}");
    // Sizes whose product leaves i64.
    let big = 1usize << 40;
    let e =
        layout!(divide([({big}, {big}):({big}, 1), logical -> physical], (128, 64))).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Overflow {
                what: Quantity::Positions | Quantity::Offset,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn nesting_that_depends_on_a_run_time_value() {
    // The tile of 8 ends inside the fast leaf when it has 16 positions, but covers two leaves
    // when it has 4: the result's nesting is not the type's, an error rather than a guess.
    let (a, b) = (4usize, 16usize);
    let ok =
        layout!(divide([(({a}, {b})):(({b}, 1)), logical -> physical], 8)).expect("same nesting");
    // (tile: 8, rest: (a, 2)): the tile is the low 8 of the fast leaf, the rest the slow
    // leaf and the fast leaf's high half; the flat index is last fastest.
    for t in 0..8 {
        for r0 in 0..a {
            for r1 in 0..2 {
                let flat = (t * a + r0) * 2 + r1;
                assert_eq!(ok.offset(flat), (r0 * b + 8 * r1 + t) as i64);
            }
        }
    }
    let (a, b) = (16usize, 4usize);
    let e = layout!(divide([(({a}, {b})):(({b}, 1)), logical -> physical], 8)).unwrap_err();
    assert!(matches!(e, Error::RuntimeProfile { .. }), "{e:?}");
}

#[test]
fn tensor_through_a_run_time_tile() {
    // A 32×48 matrix with leading dimension 50, each element its own offset; tile (1, 2) of
    // 16×16 read and written through a tensor.
    let (m, k, ld) = (32usize, 48usize, 50usize);
    let mut data: Vec<i64> = (0..(m * ld) as i64).collect();
    let (i, j) = (1usize, 2usize);
    let tile = layout!(restrict(
        divide([({m}, {k}):({ld}, 1), logical -> physical], (16, 16)),
        rest = (i, j)
    ))
    .expect("in range");
    {
        let t = Tensor::new(&data[..], &tile);
        for r in 0..16usize {
            for c in 0..16usize {
                assert_eq!(*t.get((r, c)), rm(16 * i + r, 16 * j + c, ld));
            }
        }
        assert_eq!(t.try_get((16usize, 0usize)), None);
    }
    let mut t = Tensor::new(&mut data[..], &tile);
    t.set((3usize, 4usize), -1);
    assert_eq!(data[rm(16 * i + 3, 16 * j + 4, ld) as usize], -1);
    // A tile past the data's end is refused when the tensor is made.
    let short = [0i64; 10];
    assert!(Tensor::try_new(&short[..], &tile).is_err());
}

#[test]
fn regroupings_of_run_time_operands() {
    for (m, k, ld) in CASES {
        // The transpose of a run-time matrix, and its tiles regrouped into one mode.
        let t = layout!(permute([({m}, {k}):({ld}, 1), logical -> physical], (1, 0))).expect("ok");
        for (r, c) in [(0usize, 0usize), (m - 1, k - 1), (3, 5)] {
            assert_eq!(t.offset((c, r)), rm(r, c, ld));
        }
        // The divided matrix with every leaf a top-level mode: (r, c, i, j).
        let f = layout!(flatten(divide([({m}, {k}):({ld}, 1), logical -> physical], (16, 8))))
            .expect("ok");
        for (r, c, i, j) in [
            (0usize, 0usize, 0usize, 0usize),
            (15, 7, m / 16 - 1, k / 8 - 1),
            (3, 5, 1, 2),
        ] {
            assert_eq!(f.offset((r, c, i, j)), rm(16 * i + r, 8 * j + c, ld));
        }
    }
}

#[test]
fn leaves_written_as_blocks() {
    // A leaf of statements is a block, as in a `layout!` value.
    let (m, k) = (32usize, 16usize);
    let d = layout!(restrict(
        divide([({ let twice = 2 * m; twice / 2 }, {k}):({ let pad = 4; k + pad }, 1), logical -> physical], (8, 8)),
        rest = (1, 1)
    ))
    .expect("valid");
    assert_eq!(d.offset((2usize, 3usize)), rm(8 + 2, 8 + 3, k + 4));
}

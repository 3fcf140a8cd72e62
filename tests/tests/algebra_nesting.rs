//! Nested algebra expressions in `layout!`, left- and right-nested to depth 3 for every
//! operation, compared at every flat index with a brute-force evaluator written here (it shares
//! no code with `layout-core`): a layout is its leaves `(size, stride)`, the flat index is read
//! last leaf fastest, and every operation is its defining formula (spec: Composition; spec: Algebra).

use layout_typed::prelude::*;
use layout_typed::{IndexType, Layout};

/// A layout as its leaves `(size, stride)` (`None`: a broadcast) and the leaf count of each
/// top-level entry.
#[derive(Clone)]
struct Brute {
    leaves: Vec<(i64, Option<i64>)>,
    entries: Vec<usize>,
}

impl Brute {
    /// One leaf per top-level entry.
    fn flat(leaves: &[(i64, i64)]) -> Brute {
        Brute {
            leaves: leaves.iter().map(|&(n, d)| (n, Some(d))).collect(),
            entries: vec![1; leaves.len()],
        }
    }

    fn size(&self) -> i64 {
        self.leaves.iter().map(|l| l.0).product()
    }

    /// The coordinate of each leaf at flat index `i`, last leaf fastest.
    fn digits(&self, mut i: i64) -> Vec<i64> {
        let mut out = vec![0; self.leaves.len()];
        for k in (0..self.leaves.len()).rev() {
            out[k] = i % self.leaves[k].0;
            i /= self.leaves[k].0;
        }
        out
    }

    fn at(&self, i: i64) -> i64 {
        self.digits(i)
            .iter()
            .zip(&self.leaves)
            .map(|(c, (_, d))| c * d.unwrap_or(0))
            .sum()
    }
}

/// A map as a table of its values at every flat index.
fn table(f: impl Fn(i64) -> i64, n: i64) -> Vec<i64> {
    (0..n).map(f).collect()
}

fn of(b: &Brute) -> Vec<i64> {
    table(|i| b.at(i), b.size())
}

/// `(a ∘ b)(i) = a(b(i))`.
fn compose(a: &[i64], b: &[i64]) -> Vec<i64> {
    b.iter().map(|&x| a[x as usize]).collect()
}

/// The inverse of a bijection onto `[0, n)`.
fn inverse(a: &[i64]) -> Vec<i64> {
    let mut out = vec![-1; a.len()];
    for (i, &x) in a.iter().enumerate() {
        out[x as usize] = i as i64;
    }
    out
}

/// `x ^ (((x >> src) & (2^b − 1)) << dst)` at every value.
fn swizzle(a: &[i64], b: u32, src: u32, dst: u32) -> Vec<i64> {
    a.iter()
        .map(|&x| x ^ (((x >> src) & ((1 << b) - 1)) << dst))
        .collect()
}

/// `divide(L, k)` of a layout with one leaf per entry: the groups `(tile, rest)`, so at the
/// flat index of `(t_1..t_m, r_1..r_m)` the value is `L` at `(r_i·k_i + t_i)_i`.
fn divide(l: &Brute, k: &[i64]) -> Vec<i64> {
    let m = k.len();
    let mut shape: Vec<(i64, i64)> = k.iter().map(|&k| (k, 0)).collect();
    shape.extend(l.leaves.iter().zip(k).map(|(&(n, _), &k)| (n / k, 0)));
    let grid = Brute::flat(&shape);
    table(
        |i| {
            let c = grid.digits(i);
            l.leaves
                .iter()
                .enumerate()
                .map(|(j, (_, d))| (c[m + j] * k[j] + c[j]) * d.unwrap_or(0))
                .sum()
        },
        l.size(),
    )
}

/// `repeat(L, A)`: `(a, l) ↦ M·A(a) + L(l)`, `M = max − min + 1` over `L`.
fn repeat(l: &[i64], a: &[i64]) -> Vec<i64> {
    let m = l.iter().max().unwrap() - l.iter().min().unwrap() + 1;
    let n = l.len() as i64;
    table(
        |i| m * a[(i / n) as usize] + l[(i % n) as usize],
        n * a.len() as i64,
    )
}

/// `interleave(L, A)`: `(l, a) ↦ size(A)·L(l) + A(a)`.
fn interleave(l: &[i64], a: &[i64]) -> Vec<i64> {
    let s = a.len() as i64;
    table(
        |i| s * l[(i / s) as usize] + a[(i % s) as usize],
        l.len() as i64 * s,
    )
}

/// `broadcast(L, (n))`: `(s, l) ↦ L(l)`.
fn broadcast(l: &[i64], n: i64) -> Vec<i64> {
    let s = l.len() as i64;
    table(|i| l[(i % s) as usize], n * s)
}

/// `restrict(f, entry = v)` of a map whose domain is `domain` (leaves per entry): the remaining
/// entries' flat index, with entry `e` fixed to `v` (unflattened into it).
fn restrict(f: &[i64], domain: &Brute, e: usize, v: i64) -> Vec<i64> {
    let first: usize = domain.entries[..e].iter().sum();
    let count = domain.entries[e];
    let sizes: Vec<i64> = domain.leaves.iter().map(|l| l.0).collect();
    let fixed_size: i64 = sizes[first..first + count].iter().product();
    let free = domain.size() / fixed_size;
    let free_leaves: Vec<(i64, i64)> = sizes
        .iter()
        .enumerate()
        .filter(|(j, _)| *j < first || *j >= first + count)
        .map(|(_, &n)| (n, 0))
        .collect();
    let free_grid = Brute::flat(&free_leaves);
    let fixed_grid = Brute::flat(
        &sizes[first..first + count]
            .iter()
            .map(|&n| (n, 0))
            .collect::<Vec<_>>(),
    );
    table(
        |i| {
            let mut c = free_grid.digits(i);
            let fixed = fixed_grid.digits(v);
            for (j, x) in fixed.into_iter().enumerate() {
                c.insert(first + j, x);
            }
            let flat = c.iter().zip(&sizes).fold(0, |acc, (c, n)| acc * n + c);
            f[flat as usize]
        },
        free,
    )
}

fn values<T: Layout>(l: T) -> Vec<i64> {
    (0..T::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect()
}

mod defs {
    use layout_typed::layout;
    layout! {
        pub const S = (2,3):(3,1), logical -> physical;
        pub const T = (3,2):(1,3), logical -> logical;
        pub const I = (6):(1), thread-value -> logical;
        /// Padded row-major storage, 4×6 in 4×8.
        pub const P = (4,6):(8,1), logical -> physical;
        /// A transposed permutation of 24 positions.
        pub const Q = (6,4):(1,6), logical -> logical;
        /// A three-mode permutation of 24 positions.
        pub const R = (2,3,4):(12,1,3), logical -> logical;
        pub const V = (24):(1), thread-value -> logical;
        pub const W = (thread: 4, value: 6):(1,4), thread-value -> logical;
        /// 48 positions, for `repeat` and `interleave` by two.
        pub const P48 = (8,6):(8,1), logical -> physical;
        pub const V48 = (48):(1), thread-value -> logical;
    }
}

use defs::{I, P, P48, Q, R, S, T, V, V48, W};

fn p() -> Brute {
    Brute::flat(&[(4, 8), (6, 1)])
}
fn q() -> Brute {
    Brute::flat(&[(6, 1), (4, 6)])
}
fn r() -> Brute {
    Brute::flat(&[(2, 12), (3, 1), (4, 3)])
}
fn v() -> Vec<i64> {
    (0..24).collect()
}
fn w() -> Brute {
    Brute::flat(&[(4, 1), (6, 4)])
}

fn s_() -> Vec<i64> {
    of(&Brute::flat(&[(2, 3), (3, 1)]))
}
fn t_() -> Vec<i64> {
    of(&Brute::flat(&[(3, 1), (2, 3)]))
}
fn i_() -> Vec<i64> {
    (0..6).collect()
}

#[test]
fn right_nested_composite_of_the_report() {
    let (s, t, i) = (s_(), t_(), i_());
    let expected = compose(&s, &compose(&t, &i));
    assert_eq!(expected, [0, 3, 1, 4, 2, 5]);
    assert_eq!(values(layout!(compose(S, compose(T, I)))), expected);
    assert_eq!(values(layout!(compose(compose(S, T), I))), expected);
}

#[test]
fn compose_nested_left_and_right() {
    let (p, q, r, v) = (of(&p()), of(&q()), of(&r()), v());
    assert_eq!(
        values(layout!(compose(P, compose(Q, compose(R, V))))),
        compose(&p, &compose(&q, &compose(&r, &v)))
    );
    assert_eq!(
        values(layout!(compose(compose(compose(P, Q), R), V))),
        compose(&compose(&compose(&p, &q), &r), &v)
    );
    assert_eq!(
        values(layout!(compose(compose(P, compose(Q, R)), V))),
        compose(&compose(&p, &compose(&q, &r)), &v)
    );
    assert_eq!(
        values(layout!(compose(P, compose(compose(Q, R), V)))),
        compose(&p, &compose(&compose(&q, &r), &v))
    );
}

#[test]
fn swizzle_nested_left_and_right() {
    let (p, q, r, v) = (of(&p()), of(&q()), of(&r()), v());
    assert_eq!(
        values(layout!(swizzle(
            compose(P, compose(Q, compose(R, V))),
            b = 1,
            src = 3,
            dst = 0
        ))),
        swizzle(&compose(&p, &compose(&q, &compose(&r, &v))), 1, 3, 0)
    );
    assert_eq!(
        values(layout!(compose(
            swizzle(P, b = 1, src = 3, dst = 0),
            compose(Q, compose(R, V))
        ))),
        compose(&swizzle(&p, 1, 3, 0), &compose(&q, &compose(&r, &v)))
    );
    assert_eq!(
        values(layout!(compose(
            compose(swizzle(P, b = 1, src = 3, dst = 0), Q),
            compose(R, V)
        ))),
        compose(&compose(&swizzle(&p, 1, 3, 0), &q), &compose(&r, &v))
    );
}

#[test]
fn restrict_nested_left_and_right() {
    let (p, q, r, w) = (of(&p()), of(&q()), of(&r()), w());
    let right = compose(&p, &compose(&q, &compose(&r, &of(&w))));
    let left = compose(&compose(&compose(&p, &q), &r), &of(&w));
    for (t, got_r, got_l) in [
        (
            0,
            values(layout!(restrict(
                compose(P, compose(Q, compose(R, W))),
                0 = 0
            ))),
            values(layout!(restrict(
                compose(compose(compose(P, Q), R), W),
                0 = 0
            ))),
        ),
        (
            3,
            values(layout!(restrict(
                compose(P, compose(Q, compose(R, W))),
                thread = 3
            ))),
            values(layout!(restrict(
                compose(compose(compose(P, Q), R), W),
                thread = 3
            ))),
        ),
        (
            2,
            values(layout!(restrict(
                compose(P, compose(Q, compose(R, W))),
                1 = 2
            ))),
            values(layout!(restrict(
                compose(compose(compose(P, Q), R), W),
                1 = 2
            ))),
        ),
    ] {
        let entry = if got_r.len() == 6 { 0 } else { 1 };
        assert_eq!(
            got_r,
            restrict(&right, &w, entry, t),
            "right-nested, value {t}"
        );
        assert_eq!(
            got_l,
            restrict(&left, &w, entry, t),
            "left-nested, value {t}"
        );
    }
    // A run-time value: every thread.
    for t in 0..4usize {
        let got = values(layout!(restrict(
            compose(P, compose(Q, compose(R, W))),
            thread = t
        )));
        assert_eq!(
            got,
            restrict(&right, &w, 0, t as i64),
            "run-time thread {t}"
        );
        let got = values(layout!(restrict(
            compose(compose(compose(P, Q), R), W),
            thread = t
        )));
        assert_eq!(got, restrict(&left, &w, 0, t as i64), "run-time thread {t}");
    }
}

#[test]
fn inverse_nested_left_and_right() {
    let (p, q, r, v) = (of(&p()), of(&q()), of(&r()), v());
    assert_eq!(
        values(layout!(compose(P, compose(inverse(Q), compose(R, V))))),
        compose(&p, &compose(&inverse(&q), &compose(&r, &v)))
    );
    assert_eq!(
        values(layout!(compose(compose(compose(P, inverse(R)), Q), V))),
        compose(&compose(&compose(&p, &inverse(&r)), &q), &v)
    );
    assert_eq!(
        values(layout!(compose(P, inverse(inverse(compose(Q, V)))))),
        compose(&p, &compose(&q, &v))
    );
}

#[test]
fn divide_nested_left_and_right() {
    let (pl, q, r, v) = (of(&p()), of(&q()), of(&r()), v());
    let dp = divide(&p(), &[2, 3]);
    assert_eq!(
        values(layout!(compose(
            divide(P, (2, 3)),
            compose(Q, compose(R, V))
        ))),
        compose(&dp, &compose(&q, &compose(&r, &v)))
    );
    assert_eq!(
        values(layout!(compose(
            compose(compose(divide(P, (2, 3)), Q), R),
            V
        ))),
        compose(&compose(&compose(&dp, &q), &r), &v)
    );
    // `divide_modes` is `L` regrouped: equal on every flat index.
    assert_eq!(
        values(layout!(compose(
            P,
            compose(divide_modes(Q, (3, 2)), compose(R, V))
        ))),
        compose(&pl, &compose(&q, &compose(&r, &v)))
    );
    assert_eq!(
        values(layout!(compose(
            compose(compose(divide_modes(P, (2, 3)), Q), R),
            V
        ))),
        compose(&compose(&compose(&pl, &q), &r), &v)
    );
}

#[test]
fn repeat_and_interleave_nested_left_and_right() {
    let (q, r) = (of(&q()), of(&r()));
    let two: Vec<i64> = vec![0, 1];
    let p48 = of(&Brute::flat(&[(8, 8), (6, 1)]));
    let v48: Vec<i64> = (0..48).collect();
    assert_eq!(
        values(layout!(compose(P48, compose(repeat(Q, (2):(1)), V48)))),
        compose(&p48, &compose(&repeat(&q, &two), &v48))
    );
    assert_eq!(
        values(layout!(compose(compose(P48, interleave(R, (2):(1))), V48))),
        compose(&compose(&p48, &interleave(&r, &two)), &v48)
    );
    // A composite decided to be a layout, as the operand.
    let sti = compose(&s_(), &compose(&t_(), &i_()));
    assert_eq!(
        values(layout!(repeat(compose(S, compose(T, I)), (2):(1)))),
        repeat(&sti, &two)
    );
    assert_eq!(
        values(layout!(interleave(compose(compose(S, T), I), (2):(1)))),
        interleave(&sti, &two)
    );
    assert_eq!(
        values(layout!(repeat(compose(compose(S, T), I), (3):(1)))),
        repeat(&sti, &[0, 1, 2])
    );
    assert_eq!(
        values(layout!(interleave(compose(S, compose(T, I)), (3):(1)))),
        interleave(&sti, &[0, 1, 2])
    );
}

#[test]
fn broadcast_nested_left_and_right() {
    let sti = compose(&s_(), &compose(&t_(), &i_()));
    assert_eq!(
        values(layout!(broadcast(compose(S, compose(T, I)), (2)))),
        broadcast(&sti, 2)
    );
    assert_eq!(
        values(layout!(broadcast(compose(compose(S, T), I), (3)))),
        broadcast(&sti, 3)
    );
}

//! The per-mode products `repeat_modewise` (CuTe's `blocked_product`, `tile_to_shape`) and
//! `repeat_modewise_raked` (`raked_product`): at run time, in the expression language
//! (`evaluate_text`) and in `layout!`, against
//! - a brute-force evaluation written here from the definition (docs/algebra.md §4): with
//!   `M = max − min + 1` over `L`'s offsets, mode `i` of the result maps its flat index, split
//!   into a copy `x` (size `a_i`) and a position `y` (size `n_i`), slowest first for the blocked
//!   form and fastest first for the raked one, to `M·A_i(x) + L_i(y)`;
//! - CuTe C++ (`tests/cpp/modewise.cpp` over the CUTLASS 4.2 headers): `blocked_product`,
//!   `raked_product`, and `tile_to_shape` of the 128-byte swizzled K-major fp16 GMMA atom to
//!   128×64 with 4 stages, swizzle included, at every flat index.

use std::collections::BTreeMap;

use layout_core::expr::evaluate_text;
use layout_core::{Error, Layout, repeat_modewise, repeat_modewise_raked};
use layout_tests::{Rng, cute_cpp};
use layout_typed::atoms::gmma_layout_k_sw128_atom_half_t as sw128;
use layout_typed::prelude::*;

/// A layout as the test sees it: per top-level mode (seed order), its leaves `(size, stride)`,
/// slowest first.
#[derive(Clone, Debug)]
struct Model(Vec<Vec<(i64, i64)>>);

impl Model {
    fn mode_size(&self, i: usize) -> i64 {
        self.0[i].iter().map(|l| l.0).product()
    }

    fn size(&self) -> i64 {
        (0..self.0.len()).map(|i| self.mode_size(i)).product()
    }

    /// Mode `i` at its flat index `x` (the last leaf fastest).
    fn mode_at(&self, i: usize, mut x: i64) -> i64 {
        let mut off = 0;
        for &(n, d) in self.0[i].iter().rev() {
            off += (x % n) * d;
            x /= n;
        }
        off
    }

    /// The layout at flat index `x` (the last mode fastest).
    fn at(&self, mut x: i64) -> i64 {
        let mut off = 0;
        for i in (0..self.0.len()).rev() {
            let n = self.mode_size(i);
            off += self.mode_at(i, x % n);
            x /= n;
        }
        off
    }

    /// The notation, every top-level mode in parentheses when it has several leaves.
    fn text(&self) -> String {
        let part = |f: &dyn Fn(&(i64, i64)) -> String| {
            let modes: Vec<String> = self
                .0
                .iter()
                .map(|m| {
                    let v: Vec<String> = m.iter().map(f).collect();
                    if v.len() == 1 {
                        v[0].clone()
                    } else {
                        format!("({})", v.join(","))
                    }
                })
                .collect();
            format!("({})", modes.join(","))
        };
        // A zero stride is a broadcast, written `_`.
        let stride = |l: &(i64, i64)| {
            if l.1 == 0 {
                "_".into()
            } else {
                l.1.to_string()
            }
        };
        format!("{}:{}", part(&|l| l.0.to_string()), part(&stride))
    }
}

/// The per-mode product by its definition, at every flat index of the result.
fn brute(l: &Model, a: &Model, raked: bool) -> Vec<i64> {
    let offs: Vec<i64> = (0..l.size()).map(|x| l.at(x)).collect();
    let m = offs.iter().max().unwrap() - offs.iter().min().unwrap() + 1;
    let rank = l.0.len();
    let sizes: Vec<i64> = (0..rank).map(|i| l.mode_size(i) * a.mode_size(i)).collect();
    let total: i64 = sizes.iter().product();
    (0..total)
        .map(|mut x| {
            let mut off = 0;
            for i in (0..rank).rev() {
                let k = x % sizes[i];
                x /= sizes[i];
                let (n, c) = (l.mode_size(i), a.mode_size(i));
                let (copy, pos) = if raked {
                    (k % c, k / c)
                } else {
                    (k / n, k % n)
                };
                off += m * a.mode_at(i, copy) + l.mode_at(i, pos);
            }
            off
        })
        .collect()
}

fn values(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| l.eval_index(i).unwrap()).collect()
}

fn typed<L: layout_typed::Layout>(l: &L) -> Vec<i64>
where
    L::Index: TryInto<i64>,
{
    (0..L::SIZE)
        .map(|i| {
            l.offset_index(i)
                .try_into()
                .unwrap_or_else(|_| panic!("offset {i} fits i64"))
        })
        .collect()
}

/// A random layout of `rank` modes: 1–2 leaves of size 1–4 per mode, strides 0–12 (gaps,
/// broadcasts and overlaps included).
fn any_layout(rng: &mut Rng, rank: usize) -> Model {
    Model(
        (0..rank)
            .map(|_| {
                (0..rng.range(1, 2))
                    .map(|_| (rng.range(1, 4), rng.range(0, 12)))
                    .collect()
            })
            .collect(),
    )
}

/// A random dense bijection of `rank` modes: 1–2 leaves of size 1–3 per mode, the strides the
/// running products of the leaves in a random order.
fn dense(rng: &mut Rng, rank: usize) -> Model {
    let mut m: Vec<Vec<(i64, i64)>> = (0..rank)
        .map(|_| (0..rng.range(1, 2)).map(|_| (rng.range(1, 3), 0)).collect())
        .collect();
    let mut at: Vec<(usize, usize)> = m
        .iter()
        .enumerate()
        .flat_map(|(i, v)| (0..v.len()).map(move |j| (i, j)))
        .collect();
    rng.shuffle(&mut at);
    let mut d = 1;
    for (i, j) in at {
        m[i][j].1 = d;
        d *= m[i][j].0;
    }
    Model(m)
}

#[test]
fn run_time_and_expression_language_agree_with_the_definition() {
    let mut rng = Rng(0x6d6f_6465);
    let (mut checked, mut expressions) = (0, 0);
    for _ in 0..300 {
        let rank = rng.range(1, 3) as usize;
        let (l, a) = (any_layout(&mut rng, rank), dense(&mut rng, rank));
        let (lt, at) = (l.text(), a.text());
        let ll: Layout = lt.parse().unwrap();
        let al: Layout = at.parse().unwrap();
        for (raked, name) in [(false, "repeat_modewise"), (true, "repeat_modewise_raked")] {
            let want = brute(&l, &a, raked);
            let f = if raked {
                repeat_modewise_raked
            } else {
                repeat_modewise
            };
            let r = f(&ll, &al).unwrap();
            assert_eq!(values(&r), want, "{name}({lt}, {at})");
            checked += 1;
            // A storage declaration must be alias-free: the expression language is checked on
            // the injective samples. Both arrangement forms: a literal, and an expression (a
            // declared operand).
            let mut offs: Vec<i64> = (0..l.size()).map(|x| l.at(x)).collect();
            offs.sort_unstable();
            offs.dedup();
            if offs.len() as i64 != l.size() {
                continue;
            }
            expressions += 1;
            for text in [
                format!("[L = {lt}, logical -> physical] {name}(L, {at})"),
                format!(
                    "[L = {lt}, logical -> physical] [A = {at}, logical -> physical] {name}(L, A)"
                ),
            ] {
                let m = evaluate_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
                let got: Vec<i64> = (0..m.size()).map(|i| m.eval_index(i).unwrap()).collect();
                assert_eq!(got, want, "{text}");
            }
        }
    }
    assert_eq!(checked, 600);
    assert!(expressions >= 100, "{expressions} injective samples");
}

/// The errors of the per-mode forms, named after the operation written.
#[test]
fn rank_and_density_errors_name_the_operation() {
    for name in ["repeat_modewise", "repeat_modewise_raked"] {
        let rank = evaluate_text(&format!(
            "[L = (2,3):(3,1), logical -> physical] {name}(L, (4):(1))"
        ))
        .unwrap_err();
        assert_eq!(
            rank.to_string(),
            format!("{name}: the arrangement has 1 top-level modes but the layout has 2")
        );
        let not_dense = evaluate_text(&format!(
            "[L = (2,3):(3,1), logical -> physical] {name}(L, (2,2):(2,2))"
        ))
        .unwrap_err();
        assert!(
            matches!(not_dense, Error::ArrangementNotDense { op, .. } if op.as_str() == name),
            "{not_dense:?}"
        );
        // A swizzled operand is not a layout: swizzle the product instead.
        let swizzled = evaluate_text(&format!(
            "[L = (8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements] {name}(L, (2,1):(1,1))"
        ))
        .unwrap_err();
        assert!(
            matches!(swizzled, Error::NotALayout { op, .. } if op.as_str() == name),
            "{swizzled:?}"
        );
    }
}

/// Composite operands: one decided to be a layout is used as that layout (as for `repeat`).
#[test]
fn a_composite_that_is_a_layout_is_repeated_per_mode() {
    // compose(S, T), S = (6):(2) and T = (2,3):(3,1) over S's 6 positions: the layout
    // (2,3):(6,2), its strides read from the brute-force values.
    let s = Model(vec![vec![(6, 2)]]);
    let t = Model(vec![vec![(2, 3)], vec![(3, 1)]]);
    let st: Vec<i64> = (0..6).map(|x| s.at(t.at(x))).collect();
    let comp = Model(vec![vec![(2, st[3])], vec![(3, st[1])]]);
    assert_eq!((0..6).map(|x| comp.at(x)).collect::<Vec<_>>(), st);
    let a = Model(vec![vec![(2, 1)], vec![(2, 2)]]);
    for (raked, name) in [(false, "repeat_modewise"), (true, "repeat_modewise_raked")] {
        let text = format!(
            "[S = (6):(2), logical -> physical] [T = (2,3):(3,1), logical -> logical] {name}(compose(S, T), {})",
            a.text()
        );
        let m = evaluate_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let got: Vec<i64> = (0..m.size()).map(|i| m.eval_index(i).unwrap()).collect();
        assert_eq!(got, brute(&comp, &a, raked), "{text}");
    }
}

layout! {
    const L0 = cute (3,2):(1,3), logical -> physical;
    const L1 = cute ((2,2),4):((1,8),2), logical -> physical;
    const L2 = cute (2,4,2):(4,1,8), logical -> physical;
    const A1 = cute (3,2):(2,1), logical -> physical;
}

/// `layout!` against the definition, with literal and declared arrangements in both orders.
#[test]
fn layout_macro_agrees_with_the_definition() {
    let l0 = Model(vec![vec![(2, 3)], vec![(3, 1)]]);
    let a0 = Model(vec![vec![(2, 2)], vec![(2, 1)]]);
    let l1 = Model(vec![vec![(4, 2)], vec![(2, 8), (2, 1)]]);
    let a1 = Model(vec![vec![(2, 1)], vec![(3, 2)]]);
    let l2 = Model(vec![vec![(2, 8)], vec![(4, 1)], vec![(2, 4)]]);
    let a2 = Model(vec![vec![(2, 1)], vec![(1, 6)], vec![(3, 2)]]);
    assert_eq!(
        typed(&layout!(repeat_modewise(L0, cute (2,2):(1,2)))),
        brute(&l0, &a0, false)
    );
    assert_eq!(
        typed(&layout!(repeat_modewise_raked(L0, (2,2):(2,1)))),
        brute(&l0, &a0, true)
    );
    assert_eq!(
        typed(&layout!(repeat_modewise(L1, A1))),
        brute(&l1, &a1, false)
    );
    assert_eq!(
        typed(&layout!(repeat_modewise_raked(L1, A1))),
        brute(&l1, &a1, true)
    );
    assert_eq!(
        typed(&layout!(repeat_modewise(L2, (2,1,3):(1,6,2)))),
        brute(&l2, &a2, false)
    );
    assert_eq!(
        typed(&layout!(repeat_modewise_raked(L2, cute (3,1,2):(2,6,1)))),
        brute(&l2, &a2, true)
    );
}

/// CuTe's `Swizzle<3,4,3>` on the byte address of a 16-bit element at `off`.
fn sw128_bytes(off: i64) -> i64 {
    let b = 2 * off;
    (b ^ ((b & (0b111 << 7)) >> 3)) / 2
}

/// The Hopper GEMM's A buffer, unswizzled: the atom `cute (8,64):(64,1)` (seed `(64,8):(1,64)`,
/// 512 elements) repeated 16 times down M, then 4 stages.
fn smem_a_inner() -> Vec<i64> {
    let atom = Model(vec![vec![(64, 1)], vec![(8, 64)]]);
    let tiled = brute(&atom, &Model(vec![vec![(1, 1)], vec![(16, 1)]]), false);
    // 4 stages, each `M` = 8192 apart; the stage is the slowest index.
    (0..4 * 8192)
        .map(|x| 8192 * (x / 8192) + tiled[(x % 8192) as usize])
        .collect()
}

layout! {
    /// The example's shared memory, built from the atom's inner layout.
    const SMEM_A = swizzle(
        repeat(repeat_modewise(sw128::INNER, (1,16):(1,1)), (4):(1)),
        Swizzle<3,4,3> over bytes of 16-bit elements
    );
}

#[test]
fn tile_to_shape_of_a_gmma_atom_with_its_swizzle() {
    let inner = smem_a_inner();
    let want: Vec<i64> = inner.iter().map(|&o| sw128_bytes(o)).collect();
    assert_eq!(
        typed(&layout!(repeat(repeat_modewise(sw128::INNER, (1,16):(1,1)), (4):(1)))),
        inner
    );
    assert_eq!(typed(&SMEM_A), want);
    assert_eq!(
        typed(&layout!(swizzle(
            repeat(repeat_modewise(sw128::INNER, cute (16,1):(1,1)), (4):(1)),
            Swizzle<3,4,3> over bytes of 16-bit elements
        ))),
        want
    );
    // The same text at run time.
    let m = evaluate_text(
        "[I = cute (8,64):(64,1), logical(8,64) -> physical] \
         swizzle(repeat(repeat_modewise(I, (1,16):(1,1)), (4):(1)), Swizzle<3,4,3> over bytes of 16-bit elements)",
    )
    .unwrap();
    let got: Vec<i64> = (0..m.size()).map(|i| m.eval_index(i).unwrap()).collect();
    assert_eq!(got, want);
}

/// The domain tile: per mode, each extent times the arrangement's size in that mode.
#[test]
fn domain_tile_multiplies_per_mode() {
    let m = evaluate_text(
        "[I = cute (8,64):(64,1), logical(8,64) -> physical] repeat_modewise(I, cute (16,1):(1,1))",
    )
    .unwrap();
    assert_eq!(m.domain_tile(), Some(&[64, 128][..])); // seed order: CuTe (128, 64)
    let m = evaluate_text(
        "[I = cute (8,64):(64,1), logical(8,64) -> physical] repeat_modewise_raked(I, cute (16,2):(2,1))",
    )
    .unwrap();
    assert_eq!(m.domain_tile(), Some(&[128, 128][..]));
    // A tile that is not the top-level sizes: the result's tile is unknown.
    let err = evaluate_text("[I = (64):(1), logical(8,8) -> physical] repeat_modewise(I, (2):(1))")
        .unwrap_err();
    assert!(matches!(err, Error::RegroupTileUnknown { .. }), "{err:?}");
}

/// Every layout above against CuTe C++ at every flat index.
#[test]
fn agree_with_cute_cpp() {
    let Some(out) = cute_cpp::run("modewise", include_str!("../cpp/modewise.cpp")) else {
        return;
    };
    let cute: BTreeMap<&str, Vec<i64>> = out
        .lines()
        .map(|line| {
            let w: Vec<&str> = line.split_whitespace().collect();
            let n: usize = w[1].parse().unwrap();
            let v: Vec<i64> = w[2..].iter().map(|x| x.parse().unwrap()).collect();
            assert_eq!(v.len(), n, "{}", w[0]);
            (w[0], v)
        })
        .collect();
    let runtime = |l: &str, a: &str, raked: bool| {
        let (l, a) = (Layout::from_cute(l).unwrap(), Layout::from_cute(a).unwrap());
        let f = if raked {
            repeat_modewise_raked
        } else {
            repeat_modewise
        };
        values(&f(&l, &a).unwrap())
    };
    let cases = [
        ("(3,2):(1,3)", "(2,2):(1,2)"),
        ("((2,2),4):((1,8),2)", "(3,2):(2,1)"),
        ("(2,4,2):(4,1,8)", "(3,1,2):(2,6,1)"),
    ];
    for (k, (l, a)) in cases.iter().enumerate() {
        assert_eq!(
            runtime(l, a, false),
            cute[format!("blocked{k}").as_str()],
            "blocked_product({l}, {a})"
        );
        assert_eq!(
            runtime(l, a, true),
            cute[format!("raked{k}").as_str()],
            "raked_product({l}, {a})"
        );
    }
    assert_eq!(
        typed(&layout!(repeat_modewise(L0, cute (2,2):(1,2)))),
        cute["blocked0"]
    );
    assert_eq!(
        typed(&layout!(repeat_modewise_raked(L1, A1))),
        cute["raked1"]
    );
    assert_eq!(
        typed(&layout!(repeat_modewise_raked(L2, cute (3,1,2):(2,6,1)))),
        cute["raked2"]
    );
    assert_eq!(
        typed(&layout!(repeat(repeat_modewise(sw128::INNER, (1,16):(1,1)), (4):(1)))),
        cute["sA_inner"]
    );
    assert_eq!(typed(&SMEM_A), cute["sA"]);
}

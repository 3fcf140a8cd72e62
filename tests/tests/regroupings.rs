//! The regroupings `group`, `flatten`, `select`, `permute` and `coalesce`, in `layout!`
//! (checked while compiling), through the expression language the command uses, and at run
//! time (`layout_core::{group, flatten, select, permute, coalesce}`), compared at every flat
//! index with a brute-force evaluator written here (it shares no code with `layout-core`): a
//! map is the shapes of its domain's top-level modes and its table of values at every flat
//! index (last mode fastest), and every regrouping is its definition on that table
//! (spec: Regroupings). Operands of every form: a named item, a bracketed literal, a nested
//! regrouping, a composite (its right operand regrouped, or its coarsest layout for `select`),
//! a swizzled map, and regroupings as operands of `compose`, `divide` and each other.

use layout_core::expr::{self, Env, Options, Order};
use layout_core::{Error, Layout as CoreLayout, Tree};
use layout_typed::prelude::*;
use layout_typed::{IndexType, Layout};

/// A map as the brute force sees it: the shapes of the domain's top-level modes and the value
/// at every flat index.
#[derive(Clone, Debug, PartialEq)]
struct F {
    modes: Vec<Tree<i64>>,
    table: Vec<i64>,
}

fn tree_leaves(t: &Tree<i64>, out: &mut Vec<i64>) {
    match t {
        Tree::Leaf(n) => out.push(*n),
        Tree::Tuple(v) => v.iter().for_each(|c| tree_leaves(c, out)),
    }
}

fn tree_size(t: &Tree<i64>) -> i64 {
    let mut l = Vec::new();
    tree_leaves(t, &mut l);
    l.iter().product()
}

/// The digits of `i` over `sizes`, last fastest.
fn digits(mut i: i64, sizes: &[i64]) -> Vec<i64> {
    let mut out = vec![0; sizes.len()];
    for k in (0..sizes.len()).rev() {
        out[k] = i % sizes[k];
        i /= sizes[k];
    }
    out
}

impl F {
    /// A layout given as top-level modes, each a list of leaves `(size, stride)`; a mode of one
    /// leaf is that leaf.
    fn layout(modes: &[&[(i64, i64)]]) -> F {
        let leaves: Vec<(i64, i64)> = modes.iter().flat_map(|m| m.iter().copied()).collect();
        let sizes: Vec<i64> = leaves.iter().map(|l| l.0).collect();
        let n: i64 = sizes.iter().product();
        let table = (0..n)
            .map(|i| {
                digits(i, &sizes)
                    .iter()
                    .zip(&leaves)
                    .map(|(c, l)| c * l.1)
                    .sum()
            })
            .collect();
        let modes = modes
            .iter()
            .map(|m| match m {
                [(n, _)] => Tree::Leaf(*n),
                _ => Tree::Tuple(m.iter().map(|l| Tree::Leaf(l.0)).collect()),
            })
            .collect();
        F { modes, table }
    }

    /// The domain as a typed form writes it: a form has no tuple of one entry, so a domain
    /// whose one top-level mode is a tuple has that tuple's entries as its modes.
    fn normalised(mut self) -> F {
        while let [Tree::Tuple(v)] = self.modes.as_slice() {
            self.modes = v.clone();
        }
        self
    }

    /// The table and the domain's size only: the typed value of a composite that is a layout
    /// is its coarsest refinement, whose modes refine the composite's domain.
    fn coarse(&self) -> (usize, Vec<i64>) {
        (self.table.len(), self.table.clone())
    }

    /// `(self ∘ right)(i) = self(right(i))`, on `right`'s domain.
    fn after(&self, right: &F) -> F {
        F {
            modes: right.modes.clone(),
            table: right
                .table
                .iter()
                .map(|&x| self.table[x as usize])
                .collect(),
        }
    }

    fn group(&self, s: usize, e: usize) -> F {
        if e - s == 1 {
            return self.clone();
        }
        let mut modes = self.modes[..s].to_vec();
        modes.push(Tree::Tuple(self.modes[s..e].to_vec()));
        modes.extend_from_slice(&self.modes[e..]);
        F {
            modes,
            table: self.table.clone(),
        }
    }

    fn flatten(&self) -> F {
        let mut leaves = Vec::new();
        self.modes.iter().for_each(|m| tree_leaves(m, &mut leaves));
        F {
            modes: leaves.into_iter().map(Tree::Leaf).collect(),
            table: self.table.clone(),
        }
    }

    /// Coordinate `c_j` of the result is coordinate `c_{I_j}` of the operand, the others 0.
    fn select(&self, idx: &[usize]) -> F {
        let sizes: Vec<i64> = self.modes.iter().map(tree_size).collect();
        let picked: Vec<i64> = idx.iter().map(|&i| sizes[i]).collect();
        let n: i64 = picked.iter().product();
        let table = (0..n)
            .map(|j| {
                let c = digits(j, &picked);
                let mut full = vec![0; sizes.len()];
                for (k, &i) in idx.iter().enumerate() {
                    full[i] = c[k];
                }
                let flat = full.iter().zip(&sizes).fold(0, |a, (x, n)| a * n + x);
                self.table[flat as usize]
            })
            .collect();
        F {
            modes: idx.iter().map(|&i| self.modes[i].clone()).collect(),
            table,
        }
    }

    /// `x ^ (((x >> src) & (2^b − 1)) << dst)` at every value.
    fn swizzle(&self, b: u32, src: u32, dst: u32) -> F {
        F {
            modes: self.modes.clone(),
            table: self
                .table
                .iter()
                .map(|&x| x ^ (((x >> src) & ((1 << b) - 1)) << dst))
                .collect(),
        }
    }

    /// The same table over one flat mode of the given leaf sizes.
    fn with_leaves(&self, leaves: &[i64]) -> F {
        F {
            modes: leaves.iter().map(|&n| Tree::Leaf(n)).collect(),
            table: self.table.clone(),
        }
    }
}

/// A typed value equals the brute force, up to the form's writing of a tuple of one entry.
#[track_caller]
fn assert_typed(got: F, want: F) {
    assert_eq!(got, want.normalised());
}

/// A typed value at every flat index, with its domain's shape.
fn typed<T: Layout>(l: T) -> F {
    let table: Vec<i64> = (0..T::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect();
    let shape = l
        .to_map()
        .expect("the map of a checked value")
        .domain_shape();
    let modes = match shape {
        Tree::Tuple(v) => v,
        leaf => vec![leaf],
    };
    F { modes, table }
}

/// The expression language, as the command evaluates it (seed order), at every flat index.
fn text(e: &str) -> F {
    let opts = Options::default();
    let x = expr::parse_expr(e, &opts).unwrap_or_else(|l| panic!("{e}: {l}"));
    let v = expr::evaluate(&x, &Env::new(), &opts).unwrap_or_else(|l| panic!("{e}: {}", l[0]));
    let table = (0..v.map.size())
        .map(|i| v.map.eval_index(i).expect("in range"))
        .collect();
    let modes = match v.map.domain_shape() {
        Tree::Tuple(v) => v,
        leaf => vec![leaf],
    };
    F { modes, table }
}

/// The first error of an expression, with the text it points at.
fn text_error(e: &str, order: Order) -> (Error, String) {
    let opts = Options {
        order,
        ..Options::default()
    };
    let x = expr::parse_expr(e, &opts).unwrap_or_else(|l| panic!("{e}: {l}"));
    let errs = expr::evaluate(&x, &Env::new(), &opts).expect_err(e);
    (errs[0].error, e[errs[0].span.clone()].to_string())
}

mod defs {
    use layout_typed::layout;
    layout! {
        /// Padded row-major storage, 4×6 in 4×8.
        pub const P = (4,6):(8,1), logical -> physical;
        /// Three named modes, alias-free.
        pub const R3 = (a: 2, b: 3, c: 4):(1, 8, 2), logical -> physical;
        /// A nested permutation of 24 positions.
        pub const N = ((2,3),4):((12,1),3), logical -> logical;
        /// Threads and values over 24 positions.
        pub const Q = (thread: 4, value: 6):(1,4), thread-value -> logical;
        /// The identity of 4×6 positions, thread-value side.
        pub const IV = (4,6):(6,1), thread-value -> logical;
        /// 4×6 storage with its tile shape.
        pub const PT = (4,6):(8,1), logical(4, 6) -> physical;
        /// Three modes under a tile of two extents.
        pub const PT3 = (4,2,3):(8,3,1), logical(4, 6) -> physical;
        /// Leaves that coalesce to one, with size-1 leaves.
        pub const C = (1,(2,1,4),8):(7,(32,5,8),1), logical -> physical;
    }
}

use defs::{C, IV, N, P, PT, PT3, Q, R3};

fn p() -> F {
    F::layout(&[&[(4, 8)], &[(6, 1)]])
}
fn r3() -> F {
    F::layout(&[&[(2, 1)], &[(3, 8)], &[(4, 2)]])
}
fn n() -> F {
    F::layout(&[&[(2, 12), (3, 1)], &[(4, 3)]])
}
fn q() -> F {
    F::layout(&[&[(4, 1)], &[(6, 4)]])
}
fn iv() -> F {
    F::layout(&[&[(4, 6)], &[(6, 1)]])
}
fn c() -> F {
    F::layout(&[&[(1, 7)], &[(2, 32), (1, 5), (4, 8)], &[(8, 1)]])
}

#[test]
fn group_of_every_operand_form() {
    assert_typed(typed(layout!(group(R3, 0, 2))), r3().group(0, 2));
    assert_typed(typed(layout!(group(R3, 1, 3))), r3().group(1, 3));
    assert_typed(typed(layout!(group(R3, 0, 3))), r3().group(0, 3));
    assert_typed(typed(layout!(group(R3, 1, 2))), r3().group(1, 2));
    assert_typed(typed(layout!(group(N, 0, 2))), n().group(0, 2));
    assert_typed(
        typed(layout!(group([(2,3,4):(1,8,2), logical -> physical], 1, 3))),
        r3().group(1, 3),
    );
    // Nested regroupings, and a regrouping's operand a regrouping.
    assert_typed(
        typed(layout!(group(group(R3, 1, 3), 0, 2))),
        r3().group(1, 3).group(0, 2),
    );
    assert_typed(
        typed(layout!(group(flatten(N), 1, 3))),
        n().flatten().group(1, 3),
    );
    // A composite: its right operand's domain regrouped.
    assert_eq!(
        typed(layout!(group(compose(P, Q), 0, 2))).coarse(),
        p().after(&q()).group(0, 2).coarse()
    );
    assert_eq!(
        typed(layout!(compose(P, group(Q, 0, 2)))).coarse(),
        p().after(&q().group(0, 2)).coarse()
    );
    // A swizzled map: the swizzle acts on offsets only.
    assert_typed(
        typed(layout!(group(swizzle(R3, b = 1, src = 3, dst = 0), 0, 2))),
        r3().swizzle(1, 3, 0).group(0, 2),
    );
    assert_typed(
        typed(layout!(swizzle(group(R3, 0, 2), b = 1, src = 3, dst = 0))),
        r3().group(0, 2).swizzle(1, 3, 0),
    );
    // A nested coordinate reaches the grouped modes.
    let g = layout!(group(R3, 1, 3));
    assert_eq!(
        g.offset((1usize, (2usize, 3usize))).to_isize(),
        1 + 2 * 8 + 3 * 2
    );
}

#[test]
fn flatten_of_every_operand_form() {
    assert_typed(typed(layout!(flatten(N))), n().flatten());
    assert_typed(typed(layout!(flatten(R3))), r3().flatten());
    assert_typed(typed(layout!(flatten(C))), c().flatten());
    assert_typed(
        typed(layout!(flatten(group(R3, 1, 3)))),
        r3().group(1, 3).flatten(),
    );
    assert_typed(
        typed(layout!(flatten([((2,3),4):((12,1),3), logical -> logical]))),
        n().flatten(),
    );
    assert_eq!(
        typed(layout!(flatten(compose(P, compose(N, group(Q, 0, 2)))))).coarse(),
        p().after(&n().after(&q().group(0, 2))).flatten().coarse()
    );
    assert_eq!(
        typed(layout!(flatten(swizzle(
            compose(P, N),
            b = 1,
            src = 3,
            dst = 0
        ))))
        .coarse(),
        p().after(&n()).swizzle(1, 3, 0).flatten().coarse()
    );
    assert_eq!(
        typed(layout!(compose(P, flatten(N)))).coarse(),
        p().after(&n().flatten()).coarse()
    );
}

#[test]
fn select_of_every_operand_form() {
    for (got, idx) in [
        (typed(layout!(select(R3, (2, 0)))), &[2, 0][..]),
        (typed(layout!(select(R3, 1))), &[1][..]),
        (typed(layout!(select(R3, (0, 1, 2)))), &[0, 1, 2][..]),
        (typed(layout!(select(R3, (2, 1, 0)))), &[2, 1, 0][..]),
        (typed(layout!(select(R3, (1, 2)))), &[1, 2][..]),
    ] {
        assert_eq!(got, r3().select(idx).normalised(), "{idx:?}");
    }
    assert_typed(typed(layout!(select(P, 1))), p().select(&[1]));
    assert_typed(
        typed(layout!(select(group(R3, 1, 3), 1))),
        r3().group(1, 3).select(&[1]),
    );
    assert_typed(
        typed(layout!(select(flatten([((2,3),4):((12,1),3), logical -> physical]), (2, 0)))),
        n().flatten().select(&[2, 0]),
    );
    // A selection of every mode of a composite is a permutation of its right operand's
    // domain (the composite need not be a layout).
    assert_eq!(
        typed(layout!(select(compose(P, Q), (1, 0)))).coarse(),
        p().after(&q().select(&[1, 0])).coarse()
    );
    // A composite that is a layout (Theorem 1) is selected as that layout.
    assert_eq!(
        typed(layout!(select(compose(P, IV), (1, 0)))).coarse(),
        p().after(&iv()).select(&[1, 0]).coarse()
    );
    assert_eq!(
        typed(layout!(select(compose(P, IV), 0))).coarse(),
        p().after(&iv()).select(&[0]).coarse()
    );
    assert_typed(
        typed(layout!(select(
            swizzle(R3, b = 1, src = 3, dst = 0),
            (2, 0)
        ))),
        r3().swizzle(1, 3, 0).select(&[2, 0]),
    );
}

#[test]
fn permute_of_every_operand_form() {
    for (got, idx) in [
        (typed(layout!(permute(R3, (2, 0, 1)))), [2, 0, 1]),
        (typed(layout!(permute(R3, (1, 2, 0)))), [1, 2, 0]),
        (typed(layout!(permute(R3, (0, 2, 1)))), [0, 2, 1]),
        (typed(layout!(permute(R3, (0, 1, 2)))), [0, 1, 2]),
    ] {
        assert_eq!(got, r3().select(&idx).normalised(), "{idx:?}");
    }
    assert_typed(typed(layout!(permute(N, (1, 0)))), n().select(&[1, 0]));
    assert_eq!(
        typed(layout!(permute(compose(P, Q), (1, 0)))).coarse(),
        p().after(&q().select(&[1, 0])).coarse()
    );
    assert_eq!(
        typed(layout!(compose(P, permute(Q, (1, 0))))).coarse(),
        p().after(&q().select(&[1, 0])).coarse()
    );
    assert_eq!(
        typed(layout!(permute(
            swizzle(compose(P, N), b = 2, src = 3, dst = 0),
            (1, 0)
        )))
        .coarse(),
        p().after(&n()).swizzle(2, 3, 0).select(&[1, 0]).coarse()
    );
    assert_typed(
        typed(layout!(permute(permute(R3, (2, 0, 1)), (2, 0, 1)))),
        r3().select(&[2, 0, 1]).select(&[2, 0, 1]),
    );
    // Divide after a permutation.
    let d = typed(layout!(divide(permute(P, (1, 0)), (3, 2))));
    let t = p().select(&[1, 0]);
    let expect: Vec<i64> = (0..24)
        .map(|i| {
            let c = digits(i, &[3, 2, 2, 2]);
            let (r, col) = (c[2] * 3 + c[0], c[3] * 2 + c[1]);
            t.table[(r * 4 + col) as usize]
        })
        .collect();
    assert_eq!(d.table, expect);
}

#[test]
fn permuted_and_selected_tiles_follow_the_modes() {
    let m = layout!(permute(PT, (1, 0))).to_map().unwrap();
    assert_eq!(m.domain_tile(), Some(&[6, 4][..]));
    let m = layout!(select(PT, 1)).to_map().unwrap();
    assert_eq!(m.domain_tile(), Some(&[6][..]));
    // Same function on flat indices: the tile stays.
    let m = layout!(group(PT3, 1, 3)).to_map().unwrap();
    assert_eq!(m.domain_tile(), Some(&[4, 6][..]));
    let m = layout!(coalesce(PT3)).to_map().unwrap();
    assert_eq!(m.domain_tile(), Some(&[4, 6][..]));
    // A tile that is not the top-level sizes cannot follow a reordering.
    for op in ["permute(PT3, (2, 1, 0))", "select(PT3, (0, 2))"] {
        let e = op.replace("PT3", "[(4,2,3):(8,3,1), logical(4, 6) -> physical]");
        let (err, at) = text_error(&e, Order::Seed);
        assert_eq!(err.rule(), "tile-shape", "{e}");
        assert!(matches!(err, Error::RegroupTileUnknown { .. }), "{e}");
        assert_eq!(at, "[(4,2,3):(8,3,1), logical(4, 6) -> physical]");
    }
}

#[test]
fn coalesce_of_every_operand_form() {
    // (1,(2,1,4),8):(7,(32,5,8),1): size-1 leaves dropped, 2:32 4:8 8:1 merged.
    assert_typed(typed(layout!(coalesce(C))), c().with_leaves(&[64]));
    // (2,3,4):(1,8,2): 3:8 continues 4:2.
    assert_typed(typed(layout!(coalesce(R3))), r3().with_leaves(&[2, 12]));
    assert_typed(typed(layout!(coalesce(N))), n().with_leaves(&[2, 3, 4]));
    assert_typed(typed(layout!(coalesce(P))), p().with_leaves(&[4, 6]));
    assert_typed(
        typed(layout!(coalesce([(4,(2,4)):(8,(4,1)), logical -> physical]))),
        F::layout(&[&[(32, 1)]]),
    );
    // A composite: its right operand coalesced (the identity of 4×6 becomes 24).
    assert_eq!(
        typed(layout!(coalesce(compose(P, IV)))).coarse(),
        p().after(&iv()).with_leaves(&[24]).coarse()
    );
    assert_eq!(
        typed(layout!(compose(P, coalesce(IV)))).coarse(),
        p().after(&iv()).with_leaves(&[24]).coarse()
    );
    assert_typed(
        typed(layout!(coalesce(swizzle(C, b = 2, src = 4, dst = 0)))),
        c().swizzle(2, 4, 0).with_leaves(&[64]),
    );
    assert_typed(
        typed(layout!(coalesce(flatten(group(R3, 0, 2))))),
        r3().with_leaves(&[2, 12]),
    );
}

/// The command's path: the expression language with bracketed operands, every operation and
/// form, equal to the brute force.
#[test]
fn the_expression_language_agrees_with_the_brute_force() {
    let r3s = "[(a: 2, b: 3, c: 4):(1, 8, 2), logical -> physical]";
    let ns = "[((2,3),4):((12,1),3), logical -> logical]";
    let ps = "[(4,6):(8,1), logical -> physical]";
    let qs = "[(thread: 4, value: 6):(1,4), tv -> logical]";
    for s in 0..3 {
        for e in s + 1..=3 {
            assert_eq!(text(&format!("group({r3s}, {s}, {e})")), r3().group(s, e));
        }
    }
    let perms: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    for p3 in perms {
        let l = format!("({}, {}, {})", p3[0], p3[1], p3[2]);
        assert_eq!(text(&format!("permute({r3s}, {l})")), r3().select(&p3));
        assert_eq!(text(&format!("select({r3s}, {l})")), r3().select(&p3));
        assert_eq!(
            text(&format!("select({r3s}, ({}, {}))", p3[0], p3[1])),
            r3().select(&p3[..2])
        );
    }
    assert_eq!(text(&format!("flatten({ns})")), n().flatten());
    assert_eq!(
        text(&format!("permute(compose({ps}, {qs}), (1, 0))")),
        p().after(&q().select(&[1, 0]))
    );
    assert_eq!(
        text(&format!("select(compose({ps}, {qs}), (1, 0))")),
        p().after(&q().select(&[1, 0]))
    );
    assert_eq!(
        text(&format!("flatten(compose({ps}, {ns}))")),
        p().after(&n().flatten())
    );
    assert_eq!(
        text(&format!("coalesce({r3s})")),
        r3().with_leaves(&[2, 12])
    );
    // Names follow their modes, as the run-time functions give them.
    let names = |e: &str| {
        let opts = Options::default();
        let x = expr::parse_expr(e, &opts).unwrap();
        expr::evaluate(&x, &Env::new(), &opts)
            .unwrap()
            .map
            .domain_names()
    };
    let some = |v: &[Option<&str>]| v.iter().map(|n| n.map(str::to_string)).collect::<Vec<_>>();
    assert_eq!(
        names(&format!("select({r3s}, (2, 0))")),
        some(&[Some("c"), Some("a")])
    );
    assert_eq!(
        names(&format!("permute({r3s}, (1, 2, 0))")),
        some(&[Some("b"), Some("c"), Some("a")])
    );
    assert_eq!(
        names(&format!("group({r3s}, 1, 3)")),
        some(&[Some("a"), None])
    );
    assert_eq!(
        names(&format!("flatten(group({r3s}, 1, 3))")),
        some(&[Some("a"), None, None])
    );
    assert_eq!(names(&format!("coalesce({r3s})")), some(&[Some("a"), None]));
    assert_eq!(
        names(&format!("permute(compose({ps}, {qs}), (1, 0))")),
        some(&[Some("value"), Some("thread")])
    );
}

/// Every rule of the regroupings in the expression language: the run-time functions' error,
/// at the token that causes it, in seed and CuTe order.
#[test]
fn every_rule_is_the_run_time_error_at_its_token() {
    let r3s = "[(a: 2, b: 3, c: 4):(1, 8, 2), logical -> physical]";
    let l: CoreLayout = "(a: 2, b: 3, c: 4):(1, 8, 2)".parse().unwrap();
    let cases: [(String, Result<CoreLayout, Error>, &str); 8] = [
        (
            format!("group({r3s}, 1, 4)"),
            layout_core::group(&l, 1, 4),
            "4",
        ),
        (
            format!("group({r3s}, 2, 2)"),
            layout_core::group(&l, 2, 2),
            "2",
        ),
        (
            format!("select({r3s}, (0, 3))"),
            layout_core::select(&l, &[0, 3]),
            "3",
        ),
        (
            format!("select({r3s}, (1, 0, 1))"),
            layout_core::select(&l, &[1, 0, 1]),
            "1",
        ),
        (
            format!("select({r3s}, ())"),
            layout_core::select(&l, &[]),
            "()",
        ),
        (
            format!("permute({r3s}, (1, 0))"),
            layout_core::permute(&l, &[1, 0]),
            "(1, 0)",
        ),
        (
            format!("permute({r3s}, (1, 0, 5))"),
            layout_core::permute(&l, &[1, 0, 5]),
            "5",
        ),
        (
            format!("permute({r3s}, (2, 2, 0))"),
            layout_core::permute(&l, &[2, 2, 0]),
            "2",
        ),
    ];
    for (e, run_time, at) in &cases {
        let (err, token) = text_error(e, Order::Seed);
        assert_eq!(run_time.as_ref().err(), Some(&err), "{e}");
        assert_eq!(token, *at, "{e}");
        // The span of a repeated index is its second occurrence.
        if let Error::RepeatedMode { .. } = err {
            let x = expr::parse_expr(e, &Options::default()).unwrap();
            let errs = expr::evaluate(&x, &Env::new(), &Options::default()).unwrap_err();
            assert_eq!(errs[0].span.start, e.rfind(at).unwrap(), "{e}");
        }
    }
    // CuTe order counts modes from the fastest; the error names the index as written.
    let (err, token) = text_error(&format!("select({r3s}, (0, 3))"), Order::Cute);
    assert_eq!(err, Error::ModeIndex { index: 3, rank: 3 });
    assert_eq!(token, "3");
    // A run-time restriction is applied last: no regrouping after it.
    let (err, _) = text_error(
        "flatten(restrict([(4,6):(8,1), logical -> physical], 0 = t))",
        Order::Seed,
    );
    assert_eq!(
        err,
        Error::RuntimeNotLast {
            op: layout_core::expr::Op::Flatten
        }
    );
    // A restriction is not a layout: `select` of it, a precise error.
    let (err, _) = text_error(
        "select(restrict([(4,6,2):(16,2,1), logical -> physical], 0 = 1), 0)",
        Order::Seed,
    );
    assert!(matches!(err, Error::NotALayout { .. }), "{err:?}");
}

/// CuTe order: indices count from the fastest mode (CuTe's `select<i..>`, `group<b,e>`).
#[test]
fn cute_order_counts_from_the_fastest_mode() {
    let opts = Options {
        order: Order::Cute,
        ..Options::default()
    };
    let eval = |e: &str| {
        let x = expr::parse_expr(e, &opts).unwrap();
        let v = expr::evaluate(&x, &Env::new(), &opts).unwrap();
        (0..v.map.size())
            .map(|i| v.map.eval_index(i).unwrap())
            .collect::<Vec<_>>()
    };
    // CuTe (4,3,2):(2,8,1) is seed (2,3,4):(1,8,2).
    let l = "[(4,3,2):(2,8,1), logical -> physical]";
    assert_eq!(
        eval(&format!("select({l}, (0, 2))")),
        r3().select(&[0, 2]).table
    );
    assert_eq!(
        eval(&format!("permute({l}, (2, 0, 1))")),
        r3().select(&[1, 2, 0]).table
    );
    assert_eq!(eval(&format!("select({l}, 0)")), r3().select(&[2]).table);
    let x = expr::parse_expr(&format!("group({l}, 0, 2)"), &opts).unwrap();
    let v = expr::evaluate(&x, &Env::new(), &opts).unwrap();
    // CuTe's group<0,2> of (4,3,2) is ((4,3),2): seed (2,(3,4)).
    assert_eq!(
        v.map.domain_shape(),
        Tree::Tuple(vec![
            Tree::Leaf(2),
            Tree::Tuple(vec![Tree::Leaf(3), Tree::Leaf(4)])
        ])
    );
}

/// The run-time functions on layouts of every nesting, against the brute force, and past the
/// enumeration limits (sampled indices of a layout of 2^30 positions).
#[test]
fn run_time_functions_agree_with_the_brute_force() {
    let cases: [(&str, F); 4] = [
        ("(a: 2, b: 3, c: 4):(1, 8, 2)", r3()),
        ("((2,3),4):((12,1),3)", n()),
        ("(1,(2,1,4),8):(7,(32,5,8),1)", c()),
        ("(4,6):(8,1)", p()),
    ];
    let of = |l: &CoreLayout| F {
        modes: match l.shape() {
            Tree::Tuple(v) => v.clone(),
            leaf => vec![leaf.clone()],
        },
        table: (0..l.size()).map(|i| l.eval_index(i).unwrap()).collect(),
    };
    for (text, f) in &cases {
        let l: CoreLayout = text.parse().unwrap();
        let rank = f.modes.len();
        for s in 0..rank {
            for e in s + 1..=rank {
                assert_eq!(of(&layout_core::group(&l, s, e).unwrap()), f.group(s, e));
            }
            for t in 0..rank {
                if s != t {
                    let got = of(&layout_core::select(&l, &[t, s]).unwrap());
                    assert_eq!(got, f.select(&[t, s]), "{text} {t} {s}");
                }
            }
        }
        assert_eq!(of(&layout_core::flatten(&l).unwrap()), f.flatten());
        let c = layout_core::coalesce(&l).unwrap();
        assert_eq!(of(&c).table, f.table, "{text}");
    }
    // 2^30 positions: far past every enumeration limit.
    let big: CoreLayout = "((1024,1024),(2,512)):((1024,1),(536870912,1048576))"
        .parse()
        .unwrap();
    let c = layout_core::coalesce(&big).unwrap();
    assert_eq!(c.to_string(), "(1048576,1024):(1,1048576)");
    let p = layout_core::permute(&layout_core::flatten(&big).unwrap(), &[3, 2, 1, 0]).unwrap();
    for i in [0i64, 1, 511, 512, 1 << 20, (1 << 30) - 1, 123_456_789] {
        let d = digits(i, &[512, 2, 1024, 1024]);
        let expect = d[0] * (1 << 20) + d[1] * (1 << 29) + d[2] + d[3] * 1024;
        assert_eq!(p.eval_index(i).unwrap(), expect, "{i}");
        assert_eq!(c.eval_index(i).unwrap(), big.eval_index(i).unwrap());
    }
}

mod big {
    use layout_typed::layout;
    layout! {
        /// 2^30 positions, far past every enumeration limit.
        pub const BIG = ((1024,1024),(2,512)):((1024,1),(536870912,1048576)), logical -> physical;
        /// A permutation of 2^30 positions in four modes.
        pub const BIGV = (1024,1024,512,2):(1,1024,1048576,536870912), thread-value -> logical;
    }
}

/// Past the enumeration limits in `layout!`: sampled indices of regroupings of a layout and of
/// a composite of 2^30 positions, against the formula of each.
#[test]
fn regroupings_past_the_enumeration_limits_in_layout() {
    use big::{BIG, BIGV};
    // BIG at the digits (a, b, c, d) over (1024, 1024, 2, 512).
    let big = |a: i64, b: i64, c: i64, d: i64| a * 1024 + b + c * (1 << 29) + d * (1 << 20);
    let samples = [0usize, 1, 511, 512, 1 << 20, (1 << 30) - 1, 123_456_789];
    let p = layout!(permute(flatten(BIG), (3, 2, 1, 0)));
    let c = layout!(coalesce(BIG));
    let g = layout!(group(compose(BIG, BIGV), 1, 3));
    for &i in &samples {
        let x = digits(i as i64, &[512, 2, 1024, 1024]);
        assert_eq!(
            p.offset_index(i).to_isize() as i64,
            big(x[3], x[2], x[1], x[0])
        );
        let y = digits(i as i64, &[1024, 1024, 2, 512]);
        assert_eq!(
            c.offset_index(i).to_isize() as i64,
            big(y[0], y[1], y[2], y[3])
        );
        // BIGV(i): its digits over (1024, 1024, 512, 2), weighted by its strides, is BIG's
        // flat index.
        let z = digits(i as i64, &[1024, 1024, 512, 2]);
        let flat = z[0] + z[1] * 1024 + z[2] * (1 << 20) + z[3] * (1 << 29);
        let w = digits(flat, &[1024, 1024, 2, 512]);
        assert_eq!(
            g.offset_index(i).to_isize() as i64,
            big(w[0], w[1], w[2], w[3])
        );
    }
    let m = g.to_map().unwrap();
    assert_eq!(m.size(), 1 << 30);
}

//! Algebra expressions in `layout!` (spec: Algebra; spec: Typed surface): every result is compared, at every
//! coordinate, with the same map built independently at run time with `layout-core`
//! (`Annotated`, `compose`, `Map::restrict`, `divide`, …): `offset_index(i)`, `offset(i)`,
//! `offset` at the natural coordinate, and `to_map().eval_index(i)`. The layouts come from the
//! `decide`, `restrict` and `op` cases of `data/seed000_cases.json`, written as macro input
//! because `layout!` reads tokens; the expected values never come from the macro.

use layout_typed::core_algebra::{self as core, Annotated, Map, Space};
use layout_typed::prelude::*;
use layout_typed::{IndexType, SpaceMarker};

const L: Space = Space::Logical;
const TV: Space = Space::ThreadValue;
const P: Space = Space::Physical;

/// A checked layout as a run-time map.
fn ann(text: &str, domain: Space, codomain: Space) -> Map {
    let l: core::Layout = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    Annotated::new(l, domain, codomain)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .into()
}

fn compose_rt(a: &Map, b: &Map) -> Map {
    core::compose(a, b).expect("valid composite")
}

fn swizzle_rt(m: Map, b: u32, src: u32, dst: u32) -> Map {
    m.swizzle(core::Swizzle::new(b, src, dst).expect("fields"))
        .expect("into physical")
}

/// An operation's layout annotated like its operand.
fn op_rt(l: Result<core::Layout, core::Error>, domain: Space, codomain: Space) -> Map {
    Annotated::new(l.expect("operation"), domain, codomain)
        .expect("annotation")
        .into()
}

fn is_read_only<T: Layout>() -> bool {
    std::any::type_name::<T::Access>().ends_with("ReadOnly")
}

/// `l` equals `expected` everywhere: size, spaces, offset range, `offset_index`, `offset` at the
/// flat index, `offset` at the natural coordinate (`natural(i)` computes it), and `to_map`.
fn check<T: Layout>(l: T, expected: &Map, natural: impl Fn(T, usize) -> T::Index, id: &str) {
    let n = expected.size();
    assert_eq!(T::SIZE as i64, n, "{id}: size");
    assert_eq!(
        <T::Domain as SpaceMarker>::SPACE,
        expected.domain(),
        "{id}: domain"
    );
    assert_eq!(
        <T::Codomain as SpaceMarker>::SPACE,
        expected.codomain(),
        "{id}: codomain"
    );
    let rt = l.to_map().unwrap_or_else(|e| panic!("{id}: to_map: {e}"));
    assert_eq!(rt.size(), n, "{id}: to_map size");
    let (mut min, mut max) = (i64::MAX, i64::MIN);
    for i in 0..n {
        let e = expected.eval_index(i).expect("in range");
        (min, max) = (min.min(e), max.max(e));
        let u = i as usize;
        assert_eq!(
            l.offset_index(u).to_isize() as i64,
            e,
            "{id}: offset_index({i})"
        );
        assert_eq!(l.offset(u).to_isize() as i64, e, "{id}: offset({i})");
        assert_eq!(natural(l, u).to_isize() as i64, e, "{id}: natural {i}");
        assert_eq!(rt.eval_index(i), Ok(e), "{id}: to_map at {i}");
    }
    assert!(
        T::MIN_OFFSET <= min && T::MAX_OFFSET >= max,
        "{id}: offset range"
    );
    if T::LINEAR.is_some() {
        assert_eq!(
            (T::MIN_OFFSET, T::MAX_OFFSET),
            (min, max),
            "{id}: exact range"
        );
    }
}

/// Flat index → natural coordinate of a flat shape, last entry fastest.
fn digits<const K: usize>(mut i: usize, sizes: [usize; K]) -> [usize; K] {
    let mut out = [0; K];
    for k in (0..K).rev() {
        out[k] = i % sizes[k];
        i /= sizes[k];
    }
    out
}

fn c2(i: usize, s: [usize; 2]) -> (usize, usize) {
    let [a, b] = digits(i, s);
    (a, b)
}

/// `((a, b), (c, d))` for the shape `((s0, s1), (s2, s3))`.
fn c22(i: usize, s: [usize; 4]) -> ((usize, usize), (usize, usize)) {
    let [a, b, c, d] = digits(i, s);
    ((a, b), (c, d))
}

fn linear<T: Layout>(_: T) -> bool {
    T::LINEAR.is_some()
}

fn flat<T: Layout>(l: T, i: usize) -> T::Index {
    l.offset(i)
}

mod defs {
    use layout_typed::layout;
    layout! {
        /// A 16×32 row-major tile.
        pub const SMEM = (16,32):(32,1), logical -> physical;
        /// 128 threads × 4 values, named modes.
        pub const TVN = (thread: 128, value: 4):(4,1), thread-value -> logical;
        /// 32 threads × 4 values, thread fastest in the tile.
        pub const TV32 = (thread: 32, value: 4):(1,32), thread-value -> logical;
        /// A 2×3 stage with a gap (offsets 0..=6).
        pub const STAGE = (2,3):(4,1), logical -> physical;
        /// A 2×2 arrangement.
        pub const ARR = (2,2):(2,1), logical -> logical;
    }
}

use defs::{ARR, SMEM, STAGE, TV32, TVN};

fn smem() -> Map {
    ann("(16,32):(32,1)", L, P)
}

fn tvn() -> Map {
    ann("(thread: 128, value: 4):(4,1)", TV, L)
}

// ---------------------------------------------------------------------------------------------
// Composites that are layouts: the result is a `Static` (Theorem 1 decided at expansion).

#[test]
fn composites_that_are_layouts_are_static() {
    let left = ann("(4,6):(8,1)", L, P);

    // decide/padded_rowmajor_linear_bijection
    let a = layout!(compose([(4,6):(8,1), logical -> physical], [24:1, thread-value -> logical]));
    check(a, &compose_rt(&left, &ann("24:1", TV, L)), flat, "linear");
    assert!(linear(a));

    // decide/padded_affine
    let a = layout!(compose([(4,6):(8,1), logical -> physical], [(6,4):(1,6), thread-value -> logical]));
    let e = compose_rt(&left, &ann("(6,4):(1,6)", TV, L));
    check(a, &e, |l, i| l.offset(c2(i, [6, 4])), "padded_affine");
    assert!(linear(a));
    assert_eq!(a.notation().to_string(), "(6,4):(1,8)");

    // decide/padded_split_second: leaf 12 refines into (2,6):(8,1)
    let a = layout!(compose([(4,6):(8,1), logical -> physical], [(2,12):(12,1), thread-value -> logical]));
    let e = compose_rt(&left, &ann("(2,12):(12,1)", TV, L));
    check(
        a,
        &e,
        |l, i| l.offset(c2(i, [2, 12])),
        "padded_split_second",
    );
    assert_eq!(a.notation().to_string(), "(2,(2,6)):(16,(8,1))");

    // decide/cute_doc_composition_reversed (spec: Reference results)
    let a = layout!(compose([(2,6):(2,8), logical -> physical], [(3,4):(1,3), thread-value -> logical]));
    let e = compose_rt(&ann("(2,6):(2,8)", L, P), &ann("(3,4):(1,3)", TV, L));
    check(a, &e, |l, i| l.offset(c2(i, [3, 4])), "cute_doc");
    assert_eq!(a.notation().to_string(), "(3,(2,2)):(8,(2,24))");

    // decide/nested_right_operand_affine
    let a = layout!(compose(
        [(4,6):(8,1), logical -> physical],
        [((2,3),(2,2)):((12,1),(6,3)), thread-value -> logical]
    ));
    let e = compose_rt(&left, &ann("((2,3),(2,2)):((12,1),(6,3))", TV, L));
    check(
        a,
        &e,
        |l, i| l.offset(c22(i, [2, 3, 2, 2])),
        "nested_affine",
    );
    assert!(linear(a));

    // decide/chain_of_three: (A ∘ B) ∘ C with B logical -> logical
    let a = layout!(compose(
        compose([(4,8):(9,1), logical -> physical], [(8,4):(1,8), logical -> logical]),
        [32:1, thread-value -> logical]
    ));
    let ab = compose_rt(&ann("(4,8):(9,1)", L, P), &ann("(8,4):(1,8)", L, L));
    check(
        a,
        &compose_rt(&ab, &ann("32:1", TV, L)),
        flat,
        "chain_of_three",
    );
    assert!(linear(a));

    // A composite into logical that is a layout: a dense bijection again, composable.
    let a = layout!(compose([(8,64):(1,8), logical -> logical], TVN));
    let e = compose_rt(&ann("(8,64):(1,8)", L, L), &tvn());
    check(a, &e, |l, i| l.offset(c2(i, [128, 4])), "into_logical");
    assert!(linear(a));
}

#[test]
fn a_broadcast_in_a_decided_composite_is_read_only() {
    // decide/broadcast_zero_stride_in_refinement: g(v) = v mod 2, coarsest (2,2):(_,1).
    let a = layout!(compose([(2,2):(_,1), logical -> physical], [4:1, thread-value -> logical]));
    let e = compose_rt(&ann("(2,2):(_,1)", L, P), &ann("4:1", TV, L));
    check(a, &e, flat, "broadcast_refinement");
    assert!(linear(a));
    assert!(is_read_only_of(a));
    let data = [10, 11];
    let v = View::new(&data[..], a);
    assert_eq!(*v.get(3usize), 11);
}

fn is_read_only_of<T: Layout>(_: T) -> bool {
    is_read_only::<T>()
}

// ---------------------------------------------------------------------------------------------
// Composites that are not layouts: a generated type whose `offset` is the emitted program.

#[test]
fn composites_that_are_not_layouts_are_generated() {
    // decide/padded_not_separable
    let a = layout!(compose([(2,6):(7,1), logical -> physical], [(3,4):(4,1), thread-value -> logical]));
    let e = compose_rt(&ann("(2,6):(7,1)", L, P), &ann("(3,4):(4,1)", TV, L));
    check(
        a,
        &e,
        |l, i| l.offset(c2(i, [3, 4])),
        "padded_not_separable",
    );
    assert!(!linear(a));
    assert_eq!(a.notation().to_string(), "[(2,6):(7,1)] ∘ [(3,4):(4,1)]");

    // decide/nested_right_operand_not_separable
    let a = layout!(compose(
        [(4,6):(8,1), logical -> physical],
        [((2,2),(3,2)):((12,1),(4,2)), thread-value -> logical]
    ));
    let e = compose_rt(
        &ann("(4,6):(8,1)", L, P),
        &ann("((2,2),(3,2)):((12,1),(4,2))", TV, L),
    );
    check(
        a,
        &e,
        |l, i| l.offset(c22(i, [2, 2, 3, 2])),
        "nested_not_separable",
    );
    assert!(!linear(a));

    // A dense bijection logical -> logical composed into a permutation that is not a layout: the
    // result is still into logical, so the typed `compose` accepts it as a right operand.
    let perm =
        layout!(compose([(2,6):(1,2), logical -> logical], [(3,4):(4,1), thread-value -> logical]));
    let e = compose_rt(&ann("(2,6):(1,2)", L, L), &ann("(3,4):(4,1)", TV, L));
    check(perm, &e, |l, i| l.offset(c2(i, [3, 4])), "permutation");
    assert!(!linear(perm));
    let storage = layout!((3,4):(8,1), logical -> physical);
    let addr = compose(storage, perm);
    check(
        addr,
        &compose_rt(&ann("(3,4):(8,1)", L, P), &e),
        |l, i| l.offset(c2(i, [3, 4])),
        "typed_compose_of_generated",
    );
}

// ---------------------------------------------------------------------------------------------
// Swizzles: on a literal, on a composite (both spellings), and composites that are layouts.

#[test]
fn swizzled_composites() {
    let inner = ann("(4,8):(8,1)", L, P);
    let right = ann("(8,4):(1,8)", TV, L);
    let e = compose_rt(&swizzle_rt(inner.clone(), 2, 3, 0), &right);

    // decide/swizzle_128B_like, the swizzle on the left operand
    let a = layout!(compose(
        [(4,8):(8,1), logical -> physical, swizzle(b = 2, src = 3, dst = 0)],
        [(8,4):(1,8), thread-value -> logical]
    ));
    check(a, &e, |l, i| l.offset(c2(i, [8, 4])), "swizzle_128B_like");
    assert!(!linear(a));

    // the same as the last step of the expression, and in CuTe's spelling
    let b = layout!(swizzle(
        compose([(4,8):(8,1), logical -> physical], [(8,4):(1,8), thread-value -> logical]),
        b = 2, src = 3, dst = 0
    ));
    let e2 = swizzle_rt(compose_rt(&inner, &right), 2, 3, 0);
    check(b, &e2, |l, i| l.offset(c2(i, [8, 4])), "swizzle_last");
    let c = layout!(compose(
        [(4,8):(8,1), logical -> physical, Swizzle<2,0,3> over elements],
        [(8,4):(1,8), thread-value -> logical]
    ));
    check(c, &e, |l, i| l.offset(c2(i, [8, 4])), "swizzle_cute");

    // decide/degenerate_swizzle_is_layout and decide/swizzle_1d_scan_reject
    let a = layout!(compose(
        [(2,2):(6,1), logical -> physical, swizzle(b = 1, src = 2, dst = 1)],
        [(2,2):(2,1), thread-value -> logical]
    ));
    let e = compose_rt(
        &swizzle_rt(ann("(2,2):(6,1)", L, P), 1, 2, 1),
        &ann("(2,2):(2,1)", TV, L),
    );
    check(a, &e, |l, i| l.offset(c2(i, [2, 2])), "degenerate_swizzle");
    let a = layout!(compose(
        [4:1, logical -> physical, swizzle(b = 1, src = 1, dst = 0)],
        [4:1, thread-value -> logical]
    ));
    let e = compose_rt(&swizzle_rt(ann("4:1", L, P), 1, 1, 0), &ann("4:1", TV, L));
    check(a, &e, flat, "swizzle_1d");
    assert_eq!(
        (0..4).map(|i| a.offset_index(i)).collect::<Vec<_>>(),
        [0, 1, 3, 2]
    );

    // A swizzle on a plain layout in an expression is a swizzled `Static`.
    let s = layout!(swizzle([(8,64):(64,1), logical -> physical], b = 3, src = 7, dst = 4));
    let e = swizzle_rt(ann("(8,64):(64,1)", L, P), 3, 7, 4);
    check(s, &e, |l, i| l.offset(c2(i, [8, 64])), "swizzled_literal");
    assert_eq!(
        s.notation().to_string(),
        "swizzle(b = 3, src = 7, dst = 4) ∘ (8,64):(64,1)"
    );

    // A swizzle after a composite over named items.
    let s = layout!(swizzle(compose(SMEM, TVN), b = 3, src = 5, dst = 2));
    let e = swizzle_rt(compose_rt(&smem(), &tvn()), 3, 5, 2);
    check(s, &e, |l, i| l.offset(c2(i, [128, 4])), "swizzled_named");
}

// ---------------------------------------------------------------------------------------------
// Restriction by literal values (spec: Restriction).

#[test]
fn static_restriction() {
    // restrict/seed_example_4x8x4: 64 + r + 8·v
    let f = ann("(4,8,4):(32,1,8)", L, P);
    let a = layout!(restrict([(4,8,4):(32,1,8), logical -> physical], 0 = 2));
    check(
        a,
        &f.restrict(&[(0, 2)]).expect("slice"),
        |l, i| l.offset(c2(i, [8, 4])),
        "4x8x4",
    );
    for r in 0..8 {
        for v in 0..4 {
            assert_eq!(a.offset((r, v)), 64 + r as i64 + 8 * v as i64);
        }
    }

    // restrict/seed_example_swizzle: 3 − b
    let a = layout!(restrict(
        [(2,2):(2,1), logical -> physical, swizzle(b = 1, src = 1, dst = 0)],
        0 = 1
    ));
    let e = swizzle_rt(ann("(2,2):(2,1)", L, P), 1, 1, 0)
        .restrict(&[(0, 1)])
        .expect("slice");
    check(a, &e, flat, "seed_swizzle");
    assert_eq!([a.offset(0usize), a.offset(1usize)], [3, 2]);

    // restrict/swizzled_thread_slice_t0 and restrict/swizzled_warp_slice_not_layout
    let sw = swizzle_rt(ann("(4,8):(8,1)", L, P), 2, 3, 0);
    let a = layout!(restrict(
        compose(
            [(4,8):(8,1), logical -> physical, swizzle(b = 2, src = 3, dst = 0)],
            [(8,4):(1,8), thread-value -> logical]
        ),
        0 = 0
    ));
    let e = compose_rt(&sw, &ann("(8,4):(1,8)", TV, L))
        .restrict(&[(0, 0)])
        .expect("slice");
    check(a, &e, flat, "thread_slice_t0");
    assert_eq!(
        (0..4).map(|i| a.offset_index(i)).collect::<Vec<_>>(),
        [0, 9, 18, 27]
    );
    let a = layout!(restrict(
        compose(
            [(4,8):(8,1), logical -> physical, swizzle(b = 2, src = 3, dst = 0)],
            [(2,4,4):(16,1,4), thread-value -> logical]
        ),
        0 = 1
    ));
    let e = compose_rt(&sw, &ann("(2,4,4):(16,1,4)", TV, L))
        .restrict(&[(0, 1)])
        .expect("slice");
    check(a, &e, |l, i| l.offset(c2(i, [4, 4])), "warp_slice");

    // restrict/padded_slice: entry 1 of a composite
    let a = layout!(restrict(
        compose([(2,6):(7,1), logical -> physical], [(2,3,2):(6,2,1), thread-value -> logical]),
        1 = 2
    ));
    let e = compose_rt(&ann("(2,6):(7,1)", L, P), &ann("(2,3,2):(6,2,1)", TV, L))
        .restrict(&[(1, 2)])
        .expect("slice");
    check(a, &e, |l, i| l.offset(c2(i, [2, 2])), "padded_slice");
    assert_eq!(
        (0..4).map(|i| a.offset_index(i)).collect::<Vec<_>>(),
        [4, 5, 11, 12]
    );

    // by name, two entries at once, and a restriction of a restriction (later indices count
    // the remaining entries)
    let addr = compose_rt(&smem(), &tvn());
    let a = layout!(restrict(compose(SMEM, TVN), thread = 5));
    check(
        a,
        &addr.restrict(&[(0, 5)]).expect("slice"),
        flat,
        "by_name",
    );
    let a = layout!(restrict([(4,8,4):(32,1,8), logical -> physical], 0 = 2, 2 = 3));
    check(
        a,
        &f.restrict(&[(0, 2), (2, 3)]).expect("slice"),
        flat,
        "two_entries",
    );
    let a = layout!(restrict(restrict([(4,8,4):(32,1,8), logical -> physical], 0 = 2), 1 = 3));
    let e = f
        .restrict(&[(0, 2)])
        .and_then(|m| m.restrict(&[(1, 3)]))
        .expect("slice");
    check(a, &e, flat, "nested_restrict");
    assert_eq!(a.offset(1usize), 64 + 1 + 24);
}

// ---------------------------------------------------------------------------------------------
// Restriction by a run-time value: every slice decided at compile time.

#[test]
fn runtime_restriction_where_all_slices_agree() {
    // Every thread's slice of SMEM ∘ TV is `4·t + v`: constant + the layout 4:1.
    let addr = compose_rt(&smem(), &tvn());
    for t in 0..128usize {
        let a = layout!(restrict(compose(SMEM, TVN), thread = t));
        check(
            a,
            &addr.restrict(&[(0, t as i64)]).expect("slice"),
            flat,
            "thread",
        );
        // an expression as the value
        if t > 0 {
            let b = layout!(restrict(compose(SMEM, TVN), 0 = t - 1));
            let e = addr.restrict(&[(0, t as i64 - 1)]).expect("slice");
            check(b, &e, flat, "thread - 1");
        }
    }
    // The `rest` group of a divide: every tile is the same layout at its own origin.
    let d = op_rt(
        core::divide(&"(16,32):(32,1)".parse().expect("layout"), &[4, 8]),
        L,
        P,
    );
    for r in 0..16 {
        let a = layout!(restrict(divide(SMEM, (4, 8)), rest = r));
        let e = d.restrict(&[(1, r as i64)]).expect("slice");
        check(a, &e, |l, i| l.offset(c2(i, [4, 8])), "rest");
    }
}

#[test]
fn runtime_restriction_where_slices_differ() {
    // restrict/swizzled_warp_slice_not_layout with the warp a run-time value: slice 0 is a
    // layout, slice 1 is not, so the composite is evaluated as written with `w` substituted.
    let f = compose_rt(
        &swizzle_rt(ann("(4,8):(8,1)", L, P), 2, 3, 0),
        &ann("(2,4,4):(16,1,4)", TV, L),
    );
    for w in 0..2usize {
        let a = layout!(restrict(
            compose(
                [(4,8):(8,1), logical -> physical, swizzle(b = 2, src = 3, dst = 0)],
                [(2,4,4):(16,1,4), thread-value -> logical]
            ),
            0 = w
        ));
        let e = f.restrict(&[(0, w as i64)]).expect("slice");
        check(a, &e, |l, i| l.offset(c2(i, [4, 4])), "warp");
    }
    // A swizzled storage sliced by row: every slice is a layout, with different strides.
    let f = swizzle_rt(ann("(8,64):(64,1)", L, P), 3, 7, 4);
    for r in 0..8usize {
        let a = layout!(restrict(
            [(8,64):(64,1), logical -> physical, swizzle(b = 3, src = 7, dst = 4)],
            0 = r
        ));
        check(
            a,
            &f.restrict(&[(0, r as i64)]).expect("slice"),
            flat,
            "row",
        );
    }
    // A swizzle after the run-time restriction (it commutes with restriction).
    let g = swizzle_rt(ann("(8,64):(64,1)", L, P), 2, 6, 1);
    for r in 0..8usize {
        let a = layout!(swizzle(restrict([(8,64):(64,1), logical -> physical], 0 = r), b = 2, src = 6, dst = 1));
        check(
            a,
            &g.restrict(&[(0, r as i64)]).expect("slice"),
            flat,
            "swizzle after",
        );
    }
    // The column instead: 64 slices.
    for c in 0..64usize {
        let a = layout!(restrict(
            [(8,64):(64,1), logical -> physical, swizzle(b = 3, src = 7, dst = 4)],
            1 = c
        ));
        check(
            a,
            &f.restrict(&[(1, c as i64)]).expect("slice"),
            flat,
            "column",
        );
    }
}

#[test]
fn runtime_and_literal_values_together() {
    // (spec: Restriction): restricting a restriction fixes the union; later indices count the remaining
    // entries, whichever of the two values is known only at run time.
    let f = ann("(4,8,4):(32,1,8)", L, P);
    for t in 0..4usize {
        let e = f.restrict(&[(0, t as i64), (2, 3)]).expect("slice");
        let a = layout!(restrict(restrict([(4,8,4):(32,1,8), logical -> physical], 0 = t), 1 = 3));
        check(a, &e, flat, "run-time, then literal");
        let a = layout!(restrict(restrict([(4,8,4):(32,1,8), logical -> physical], 2 = 3), 0 = t));
        check(a, &e, flat, "literal, then run-time");
        let a = layout!(restrict([(4,8,4):(32,1,8), logical -> physical], 2 = 3, 0 = t));
        check(a, &e, flat, "both in one");
    }
    for v in 0..8usize {
        let e = f.restrict(&[(0, 1), (1, v as i64)]).expect("slice");
        let a = layout!(restrict(restrict([(4,8,4):(32,1,8), logical -> physical], 0 = 1), 0 = v));
        check(a, &e, flat, "middle entry at run time");
    }
}

/// The panic message of `f`, which must panic.
fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let p = std::panic::catch_unwind(f).expect_err("panics");
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn a_runtime_value_outside_its_entry_panics_in_every_profile() {
    // Checked when the value is built, like a slice index (not only under debug assertions),
    // for every integer type, on both emitted forms: constant + layout, and the composite as
    // written (a swizzled map, whose slices are not layouts).
    let msg = |v: &str| format!("restrict: the run-time value {v} is outside its entry [0, 128)");
    assert_eq!(
        panic_message(|| {
            let t = 128usize;
            let _ = layout!(restrict(compose(SMEM, TVN), thread = t));
        }),
        msg("128")
    );
    assert_eq!(
        panic_message(|| {
            let t = 200u32;
            let _ = layout!(restrict(compose(SMEM, TVN), thread = t));
        }),
        msg("200")
    );
    assert_eq!(
        panic_message(|| {
            let t = -1i32;
            let _ = layout!(restrict(compose(SMEM, TVN), 0 = t));
        }),
        msg("-1")
    );
    assert_eq!(
        panic_message(|| {
            let t = u64::MAX;
            let _ = layout!(restrict(compose(SMEM, TVN), thread = t));
        }),
        msg(&u64::MAX.to_string())
    );
    assert_eq!(
        panic_message(|| {
            let t = i64::MIN;
            let _ = layout!(restrict(
                swizzle(compose(SMEM, TVN), b = 2, src = 5, dst = 0),
                thread = t
            ));
        }),
        msg(&i64::MIN.to_string())
    );
    assert_eq!(
        panic_message(|| {
            let t = 128u8;
            let _ = layout!(restrict(
                swizzle(compose(SMEM, TVN), b = 2, src = 5, dst = 0),
                thread = t
            ));
        }),
        msg("128")
    );
    // Every value inside the entry is accepted, of any integer type.
    for t in 0..128u8 {
        let a = layout!(restrict(compose(SMEM, TVN), thread = t));
        let b = layout!(restrict(compose(SMEM, TVN), thread = i64::from(t)));
        assert_eq!(a.offset(3usize), b.offset(3usize));
    }
}

// ---------------------------------------------------------------------------------------------
// divide and divide_modes.

#[test]
fn divide_and_divide_modes() {
    // op/divide: ((2,3),(4,2)):((6,1),(12,3))
    let l: core::Layout = "(8,6):(6,1)".parse().expect("layout");
    let a = layout!(divide([(8,6):(6,1), logical -> physical], (2, 3)));
    let e = op_rt(core::divide(&l, &[2, 3]), L, P);
    check(a, &e, |x, i| x.offset(c22(i, [2, 3, 4, 2])), "divide");
    assert!(linear(a));
    assert_eq!(a.notation().to_string(), "((2,3),(4,2)):((6,1),(12,3))");
    // [divide equals L at every group coordinate]: (t, r) ↦ L(r·k + t) per mode
    for i in 0..48 {
        let ((t0, t1), (r0, r1)) = c22(i, [2, 3, 4, 2]);
        let want = l.eval(&core::Tree::Tuple(vec![
            core::Tree::Leaf((r0 * 2 + t0) as i64),
            core::Tree::Leaf((r1 * 3 + t1) as i64),
        ]));
        assert_eq!(Ok(a.offset(((t0, t1), (r0, r1)))), want);
    }

    // op/divide_modes: ((4,1),(2,4)):((9,9),(4,1)), L regrouped
    let l: core::Layout = "(4,8):(9,1)".parse().expect("layout");
    let a = layout!(divide_modes([(4,8):(9,1), logical -> physical], (1, 4)));
    let e = op_rt(core::divide_modes(&l, &[1, 4]), L, P);
    check(a, &e, |x, i| x.offset(c22(i, [4, 1, 2, 4])), "divide_modes");
    for i in 0..32 {
        assert_eq!(Ok(a.offset_index(i)), l.eval_index(i as i64));
    }
    // op/divide_modes rank 1: ((3,4)):((4,1)), a rank-1 tuple is its entry
    let a = layout!(divide_modes([12:1, logical -> physical], (4)));
    let e = op_rt(
        core::divide_modes(&"12:1".parse().expect("layout"), &[4]),
        L,
        P,
    );
    check(a, &e, |x, i| x.offset(c2(i, [3, 4])), "divide_modes_rank1");

    // Named operands, a dense operand (the result is dense again and composes), restriction
    // of a group by name.
    let d = op_rt(
        core::divide(&"(16,32):(32,1)".parse().expect("layout"), &[4, 8]),
        L,
        P,
    );
    let a = layout!(divide(SMEM, (4, 8)));
    check(a, &d, |x, i| x.offset(c22(i, [4, 8, 4, 4])), "divide_named");
    let tiles = layout!(divide([(128,4):(4,1), thread-value -> logical], (32, 2)));
    let et = op_rt(
        core::divide(&"(128,4):(4,1)".parse().expect("layout"), &[32, 2]),
        TV,
        L,
    );
    check(
        tiles,
        &et,
        |x, i| x.offset(c22(i, [32, 2, 4, 2])),
        "divide_dense",
    );
    let addr = compose(SMEM, tiles);
    check(
        addr,
        &compose_rt(&smem(), &et),
        flat,
        "typed_compose_of_divide",
    );
    let a = layout!(restrict(divide(SMEM, (4, 8)), rest = 5));
    check(
        a,
        &d.restrict(&[(1, 5)]).expect("slice"),
        |x, i| x.offset(c2(i, [4, 8])),
        "rest=5",
    );
    let a = layout!(restrict(divide(SMEM, (4, 8)), tile = 9));
    check(
        a,
        &d.restrict(&[(0, 9)]).expect("slice"),
        |x, i| x.offset(c2(i, [4, 4])),
        "tile=9",
    );

    // Stores through a divided storage layout.
    let mut buf = vec![0u16; 512];
    let mut v = View::new(&mut buf[..], layout!(divide(SMEM, (4, 8))));
    v.set(((1usize, 2usize), (3usize, 1usize)), 7);
    assert_eq!(buf[(3 * 4 + 1) * 32 + 8 + 2], 7);
}

// ---------------------------------------------------------------------------------------------
// repeat, interleave, broadcast.

#[test]
fn repeat_interleave_broadcast() {
    let l23: core::Layout = "(2,3):(3,1)".parse().expect("layout");
    let l23g: core::Layout = "(2,3):(4,1)".parse().expect("layout");
    let lay = |t: &str| -> core::Layout { t.parse().expect("layout") };

    // op/repeat
    let a = layout!(repeat([(2,3):(3,1), logical -> physical], 4:1));
    let e = op_rt(core::repeat(&l23, &lay("4:1")), L, P);
    check(a, &e, |x, i| x.offset((i / 6, c2(i % 6, [2, 3]))), "repeat");
    assert_eq!(a.notation().to_string(), "(4,(2,3)):(6,(3,1))");
    let a = layout!(repeat(STAGE, (3):(1)));
    let e = op_rt(core::repeat(&l23g, &lay("3:1")), L, P);
    check(
        a,
        &e,
        |x, i| x.offset((i / 6, c2(i % 6, [2, 3]))),
        "repeat_gap",
    );
    assert_eq!(a.notation().to_string(), "(3,(2,3)):(7,(4,1))");
    // a named arrangement, and a dense operand (k-stage buffer of a logical tile)
    let a = layout!(repeat(STAGE, ARR));
    let e = op_rt(core::repeat(&l23g, &lay("(2,2):(2,1)")), L, P);
    check(a, &e, flat, "repeat_named");
    let a = layout!(repeat([(2,3):(3,1), logical -> logical], 4:1));
    let e = op_rt(core::repeat(&l23, &lay("4:1")), L, L);
    check(a, &e, flat, "repeat_dense");

    // op/interleave (both)
    let a = layout!(interleave([(2,3):(4,1), logical -> physical], 3:1));
    let e = op_rt(core::interleave(&l23g, &lay("3:1")), L, P);
    check(
        a,
        &e,
        |x, i| x.offset((c2(i / 3, [2, 3]), i % 3)),
        "interleave",
    );
    assert_eq!(a.notation().to_string(), "((2,3),3):((12,3),1)");
    let a = layout!(interleave([(2,2):(1,2), logical -> physical], (3,2):(1,3)));
    let e = op_rt(
        core::interleave(&lay("(2,2):(1,2)"), &lay("(3,2):(1,3)")),
        L,
        P,
    );
    check(
        a,
        &e,
        |x, i| x.offset(c22(i, [2, 2, 3, 2])),
        "interleave_nested",
    );
    assert_eq!(a.notation().to_string(), "((2,2),(3,2)):((6,12),(1,3))");

    // broadcast: read-only
    let a = layout!(broadcast([(2,3):(3,1), logical -> physical], (4)));
    let e = op_rt(core::broadcast(&l23, &core::Tree::Leaf(4)), L, P);
    check(
        a,
        &e,
        |x, i| x.offset((i / 6, c2(i % 6, [2, 3]))),
        "broadcast",
    );
    assert_eq!(a.notation().to_string(), "(4,(2,3)):(_,(3,1))");
    assert!(is_read_only_of(a));
    let data: Vec<i32> = (0..6).collect();
    let v = View::new(&data[..], a);
    assert_eq!(*v.get((3usize, (1usize, 2usize))), 5);
    let a = layout!(broadcast(STAGE, (2, 2)));
    let shape = core::Tree::Tuple(vec![core::Tree::Leaf(2), core::Tree::Leaf(2)]);
    let e = op_rt(core::broadcast(&l23g, &shape), L, P);
    check(a, &e, flat, "broadcast_nested");
    assert!(is_read_only_of(a));
    // A composite after a broadcast stays read-only.
    let a = layout!(compose(broadcast(STAGE, (4)), [24:1, thread-value -> logical]));
    let e = compose_rt(&e_broadcast4(&l23g), &ann("24:1", TV, L));
    check(a, &e, flat, "compose_broadcast");
    assert!(is_read_only_of(a));
    let a = layout!(compose(broadcast(STAGE, (4)), [(6,4):(1,6), thread-value -> logical]));
    let e = compose_rt(&e_broadcast4(&l23g), &ann("(6,4):(1,6)", TV, L));
    check(
        a,
        &e,
        |x, i| x.offset(c2(i, [6, 4])),
        "compose_broadcast_not_layout",
    );
    assert!(is_read_only_of(a));
}

fn e_broadcast4(l: &core::Layout) -> Map {
    op_rt(core::broadcast(l, &core::Tree::Leaf(4)), L, P)
}

// ---------------------------------------------------------------------------------------------
// inverse.

#[test]
fn inverse_swaps_the_spaces_and_composes_to_the_identity() {
    // op/inverse
    let a = layout!(inverse([(4,8):(1,4), thread-value -> logical]));
    let e = op_rt(
        core::inverse(&"(4,8):(1,4)".parse().expect("layout")),
        L,
        TV,
    );
    check(a, &e, |x, i| x.offset(c2(i, [8, 4])), "inverse");
    assert_eq!(a.notation().to_string(), "(8,4):(1,8)");
    let a = layout!(inverse([(2,1,3):(3,5,1), logical -> logical]));
    let e = op_rt(
        core::inverse(&"(2,1,3):(3,5,1)".parse().expect("layout")),
        L,
        L,
    );
    check(a, &e, |x, i| x.offset(c2(i, [2, 3])), "inverse_size1");
    let a = layout!(inverse([6:1, logical -> logical]));
    check(a, &ann("6:1", L, L), flat, "inverse_identity");

    // [inverse(L) ∘ L = id]: thread-value -> thread-value, a layout, at every coordinate
    let id = layout!(compose(inverse(TV32), TV32));
    check(
        id,
        &ann("(32,4):(4,1)", TV, TV),
        |x, i| x.offset(c2(i, [32, 4])),
        "inv∘L",
    );
    assert!(linear(id));
    let typed = compose(layout!(inverse(TV32)), TV32);
    for i in 0..128 {
        assert_eq!(typed.offset_index(i), i as i64);
    }
    // [L ∘ inverse(L) = id] for L logical -> logical
    let id = layout!(compose([(4,8):(1,4), logical -> logical], inverse([(4,8):(1,4), logical -> logical])));
    check(
        id,
        &ann("(8,4):(4,1)", L, L),
        |x, i| x.offset(c2(i, [8, 4])),
        "L∘inv",
    );
    // [inverse(inverse(L)) = L]
    let a = layout!(inverse(inverse(TV32)));
    check(
        a,
        &ann("(32,4):(1,32)", TV, L),
        |x, i| x.offset(c2(i, [32, 4])),
        "inv∘inv",
    );
}

// ---------------------------------------------------------------------------------------------
// Nested expressions, named items by path, typed rules on results.

#[test]
fn nested_expressions() {
    let d = op_rt(
        core::divide(&"(16,32):(32,1)".parse().expect("layout"), &[4, 8]),
        L,
        P,
    );
    // compose(divide(..), ..): the tile group fastest, 16 threads × 32 values
    let a = layout!(compose(divide(SMEM, (4, 8)), [(thread: 16, value: 32):(32,1), thread-value -> logical]));
    let e = compose_rt(&d, &ann("(thread: 16, value: 32):(32,1)", TV, L));
    check(a, &e, |x, i| x.offset(c2(i, [16, 32])), "compose_divide");
    // ... restricted to one thread at run time
    for t in [0usize, 7, 15] {
        let a = layout!(restrict(
            compose(divide(SMEM, (4, 8)), [(thread: 16, value: 32):(32,1), thread-value -> logical]),
            thread = t
        ));
        check(
            a,
            &e.restrict(&[(0, t as i64)]).expect("slice"),
            flat,
            "thread of tile",
        );
    }
    // ... swizzled
    let a = layout!(swizzle(
        compose(divide(SMEM, (4, 8)), [(thread: 16, value: 32):(32,1), thread-value -> logical]),
        b = 2, src = 5, dst = 3
    ));
    check(
        a,
        &swizzle_rt(e.clone(), 2, 5, 3),
        |x, i| x.offset(c2(i, [16, 32])),
        "swizzled",
    );
    // divide of a composite that is a layout (thread-value -> physical)
    let a = layout!(divide(compose([(4,6):(8,1), logical -> physical], [(6,4):(1,6), thread-value -> logical]), (3, 2)));
    let composite = compose_rt(&ann("(4,6):(8,1)", L, P), &ann("(6,4):(1,6)", TV, L));
    let dv = core::divide(&"(6,4):(1,8)".parse().expect("layout"), &[3, 2]).expect("divide");
    for i in 0..24 {
        // divide(M)(t, r) = M(r·k + t) per mode, M the composite
        let ((t0, t1), (r0, r1)) = c22(i, [3, 2, 2, 2]);
        let m = composite.eval_index(((r0 * 3 + t0) * 4 + r1 * 2 + t1) as i64);
        assert_eq!(
            Ok(a.offset(((t0, t1), (r0, r1)))),
            m,
            "divide of composite {i}"
        );
    }
    let e = compose_rt(
        &op_rt(Ok(dv.clone()), L, P),
        &op_rt(core::canonical(dv.shape()), TV, L),
    );
    check(
        a,
        &e,
        |x, i| x.offset(c22(i, [3, 2, 2, 2])),
        "divide of composite",
    );
    // repeat of a divide: two copies of the 512-element tile
    let a = layout!(repeat(divide(SMEM, (4, 8)), 2:1));
    let e = op_rt(
        core::repeat(&d_layout(), &"2:1".parse().expect("layout")),
        L,
        P,
    );
    check(a, &e, flat, "repeat_divide");
    // index type carried from the left operand
    let n = layout!(compose([(16,32):(32,1), logical -> physical, index = u32], TVN));
    let x: u32 = n.offset((3usize, 1usize));
    assert_eq!(x, 13);
}

fn d_layout() -> core::Layout {
    core::divide(&"(16,32):(32,1)".parse().expect("layout"), &[4, 8]).expect("divide")
}

#[test]
fn named_items_by_path_and_typed_rules_on_results() {
    let addr = compose_rt(&smem(), &tvn());
    let a = layout!(compose(defs::SMEM, defs::TVN));
    check(a, &addr, |x, i| x.offset(c2(i, [128, 4])), "by_path");
    assert!(linear(a));
    // A result into logical is a right operand of the typed `compose` (function and method).
    let tv = layout!(compose([(8,64):(1,8), logical -> logical], TVN));
    let e = compose_rt(&smem(), &compose_rt(&ann("(8,64):(1,8)", L, L), &tvn()));
    check(
        compose(SMEM, tv),
        &e,
        |x, i| x.offset(c2(i, [128, 4])),
        "typed_fn",
    );
    check(
        SMEM.compose(tv),
        &e,
        |x, i| x.offset(c2(i, [128, 4])),
        "typed_method",
    );
    check(
        compose(
            SMEM,
            layout!(compose([(8,64):(1,8), logical -> logical], TVN)),
        ),
        &e,
        flat,
        "nested_macro",
    );
    // A result into physical is a view's layout.
    let mut buf = vec![0u8; 512];
    let mut v = View::new(&mut buf[..], layout!(compose(SMEM, TVN)));
    v.set((2usize, 3usize), 9);
    assert_eq!(buf[11], 9);
}

#[test]
fn private_items_in_a_function_body() {
    layout! {
        const ROWMAJOR = (4,6):(8,1), logical -> physical;
        const LANES = (lane: 6, value: 4):(1,6), thread-value -> logical;
    }
    let a = layout!(restrict(compose(ROWMAJOR, LANES), lane = 2));
    let e = compose_rt(
        &ann("(4,6):(8,1)", L, P),
        &ann("(lane: 6, value: 4):(1,6)", TV, L),
    )
    .restrict(&[(0, 2)])
    .expect("slice");
    check(a, &e, flat, "function-local items");
}

layout! {
    /// A map whose first entry is a nested mode, for restriction by a coordinate.
    const NESTED = ((2,4),8):((64,8),1), logical -> physical;
}

/// (spec: Restriction): a restriction value may be a coordinate of the entry's shape; it fixes the same
/// entry as its flat index (computed here with layout_core's canonical layout of the entry).
#[test]
fn restriction_by_a_coordinate_equals_restriction_by_its_index() {
    let by_coord = layout!(restrict(NESTED, 0 = (1, 3)));
    let by_index = layout!(restrict(NESTED, 0 = 7));
    let map = NESTED.to_map().expect("valid");
    let c = layout_typed::core_algebra::Tree::Tuple(vec![
        layout_typed::core_algebra::Tree::Leaf(1),
        layout_typed::core_algebra::Tree::Leaf(3),
    ]);
    let flat = map.entry_index(0, &c).expect("a coordinate of the entry");
    let expected = map.restrict(&[(0, flat)]).expect("restrictable");
    for i in 0..8usize {
        let want = expected.eval_index(i as i64).expect("in range");
        assert_eq!(by_coord.offset_index(i).to_isize() as i64, want);
        assert_eq!(by_index.offset_index(i).to_isize() as i64, want);
    }
}

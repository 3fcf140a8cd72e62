//! `Layout::to_map` gives the run-time map of every kind of typed value — a declared layout
//! (nested, broadcast, negative and size-1 strides, tiles, CuTe order), a swizzle, a typed
//! composite, and the algebra forms of `layout!` (composites, divides,
//! restrictions) — built from the value's own form, not from printed text.
//! Expected: the map written out here in seed notation with its spaces and tiles, and the map
//! evaluated at every flat index against the typed value's own `offset_index`.

use layout_typed::core_algebra::{Annotated, Map, Space, Swizzle, compose as core_compose};
use layout_typed::prelude::*;

fn annotated(text: &str, d: Space, c: Space, tiles: (Option<Vec<i64>>, Option<Vec<i64>>)) -> Map {
    Annotated::new(text.parse().expect("a layout"), d, c)
        .expect("annotation")
        .with_tiles(tiles.0, tiles.1)
        .expect("tiles")
        .into()
}

/// `m` evaluated at every flat index equals the typed value's offsets.
fn same_offsets<L: Layout>(l: L, m: &Map) {
    assert_eq!(i64::try_from(L::SIZE).unwrap(), m.size());
    for i in 0..L::SIZE {
        let want: i64 = format!("{}", l.offset_index(i)).parse().unwrap();
        assert_eq!(
            m.eval_index(i64::try_from(i).unwrap()).unwrap(),
            want,
            "index {i}"
        );
    }
}

use Space::{Logical, Physical, ThreadValue};

layout! {
    const NESTED = ((2,3),(4,5)):((1,2),(60,6)), logical -> physical;
    const BCAST = (3,(4,2)):(_,(1,4)), logical -> physical;
    const NEGATIVE = (4,1,3):(-3,7,1), logical -> physical;
    const TILED = (16,8):(8,1), logical(16,8) -> physical;
    const TV = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    const SMEM = (8,16):(1,8), logical(8,16) -> physical;
    const SWIZZLED = (8,16):(16,1), logical -> physical, swizzle(b = 2, src = 5, dst = 1);
    const PERM = (3,4):(1,3), logical -> logical;
}

#[test]
fn declared_layouts() {
    let none = (None, None);
    let cases: [(Map, Map); 6] = [
        (
            NESTED.to_map().unwrap(),
            annotated(
                "((2,3),(4,5)):((1,2),(60,6))",
                Logical,
                Physical,
                none.clone(),
            ),
        ),
        (
            BCAST.to_map().unwrap(),
            annotated("(3,(4,2)):(_,(1,4))", Logical, Physical, none.clone()),
        ),
        (
            NEGATIVE.to_map().unwrap(),
            annotated("(4,1,3):(-3,7,1)", Logical, Physical, none.clone()),
        ),
        (
            TILED.to_map().unwrap(),
            annotated("(16,8):(8,1)", Logical, Physical, (Some(vec![16, 8]), None)),
        ),
        (
            TV.to_map().unwrap(),
            annotated(
                "((2,2),(8,4)):((8,16),(1,32))",
                ThreadValue,
                Logical,
                (None, Some(vec![8, 16])),
            ),
        ),
        (
            PERM.to_map().unwrap(),
            annotated("(3,4):(1,3)", Logical, Logical, none.clone()),
        ),
    ];
    for (got, want) in &cases {
        assert_eq!(got, want);
    }
    same_offsets(NESTED, &cases[0].0);
    same_offsets(BCAST, &cases[1].0);
    same_offsets(NEGATIVE, &cases[2].0);
    same_offsets(TILED, &cases[3].0);
    same_offsets(TV, &cases[4].0);
    same_offsets(PERM, &cases[5].0);
}

#[test]
fn swizzles_and_composites() {
    let plain = annotated("(8,16):(16,1)", Logical, Physical, (None, None));
    let want = plain.swizzle(Swizzle::new(2, 5, 1).unwrap()).unwrap();
    let got = SWIZZLED.to_map().unwrap();
    assert_eq!(got, want);
    same_offsets(SWIZZLED, &got);

    let c = compose(SMEM, TV);
    let smem = annotated("(8,16):(1,8)", Logical, Physical, (Some(vec![8, 16]), None));
    let tv = annotated(
        "((2,2),(8,4)):((8,16),(1,32))",
        ThreadValue,
        Logical,
        (None, Some(vec![8, 16])),
    );
    let got = c.to_map().unwrap();
    assert_eq!(got, core_compose(&smem, &tv).unwrap());
    same_offsets(c, &got);
}

#[test]
fn algebra_forms() {
    let c = layout!(compose([(4,6):(8,1), logical -> physical], [(2,12):(12,1), thread-value -> logical]));
    let a = annotated("(4,6):(8,1)", Logical, Physical, (None, None));
    let b = annotated("(2,12):(12,1)", ThreadValue, Logical, (None, None));
    // `layout!` refines the operands of a composite to their common modes: the same function
    // (checked at every index) over the same spaces.
    let got = c.to_map().unwrap();
    let want = core_compose(&a, &b).unwrap();
    assert_eq!(
        (got.domain(), got.codomain()),
        (want.domain(), want.codomain())
    );
    same_offsets(c, &got);

    // A divide is a layout: its typed form keeps the modes (not the group names).
    let d = layout!(divide([(8,6):(6,1), logical -> physical], (2, 3)));
    let got = d.to_map().unwrap();
    let want = annotated(
        "((2,3),(4,2)):((6,1),(12,3))",
        Logical,
        Physical,
        (None, None),
    );
    assert_eq!(got, want);
    same_offsets(d, &got);

    let r = layout!(restrict(compose([(4,6):(8,1), logical -> physical], [(2,12):(12,1), thread-value -> logical]), 0 = 1));
    let got = r.to_map().unwrap();
    let want = core_compose(&a, &b).unwrap().restrict(&[(0, 1)]).unwrap();
    assert_eq!(got.size(), want.size());
    for i in 0..want.size() {
        assert_eq!(got.eval_index(i).unwrap(), want.eval_index(i).unwrap());
    }
    same_offsets(r, &got);
}

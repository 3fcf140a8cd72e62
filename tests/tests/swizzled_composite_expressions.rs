//! `layout!(compose(S, T))` of two named items whose composite is swizzled is the library's
//! typed `compose` of the two values (nothing of the operands' types is spelled again). Each
//! test compares it, offset by offset, with the formulas written out here (CuTe's
//! colexicographic evaluation, then the swizzle), with the same composite declared as an item
//! (a generated type) and with the typed `compose` called directly: offsets, notation, map,
//! size, offset range and index type.

use layout_typed::Layout;
use layout_typed::prelude::*;

/// `x ^ (((x >> src) & (2^b - 1)) << dst)`: CuTe's `Swizzle<B,M,S>` is `b = B`, `src = M + S`,
/// `dst = M`.
fn swizzle(x: i64, b: u32, src: u32, dst: u32) -> i64 {
    x ^ (((x >> src) & ((1 << b) - 1)) << dst)
}

/// A flat CuTe layout (first mode fastest) at flat index `i`.
fn cute_flat(shape: &[i64], stride: &[i64], mut i: i64) -> i64 {
    let mut acc = 0;
    for (&n, &d) in shape.iter().zip(stride) {
        acc += (i % n) * d;
        i /= n;
    }
    acc
}

layout! {
    const SW = cute (16,8):(8,1), logical(16,8) -> physical, Swizzle<2,2,3> over elements;
    const SW32 = cute (16,8):(8,1), logical(16,8) -> physical, Swizzle<2,2,3> over elements, index = i32;
    const TV = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
    const C = compose(SW, TV);
    const SW64 = cute (64,64):(64,1), logical(64,64) -> physical, Swizzle<3,3,3> over elements;
    const TV64 = cute (256,16):(16,1), thread-value -> logical(64,64);
    const C64 = compose(SW64, TV64);
}

/// The offset of `SW ∘ TV` at flat index `i`, from the formulas.
fn small(i: i64) -> i64 {
    let p = cute_flat(&[4, 8, 2, 2], &[32, 1, 16, 8], i);
    swizzle(cute_flat(&[16, 8], &[8, 1], p), 2, 5, 2)
}

/// The offset of `SW64 ∘ TV64` at flat index `i`, from the formulas.
fn large(i: i64) -> i64 {
    let p = cute_flat(&[256, 16], &[16, 1], i);
    swizzle(cute_flat(&[64, 64], &[64, 1], p), 3, 6, 3)
}

/// Everything a layout value reports about itself, offsets as `i64`.
fn report<L: Layout>(l: &L) -> (Vec<i64>, Vec<i64>, String, usize, i64, i64, usize)
where
    L::Index: Into<i64>,
{
    let map = l.to_map().expect("map");
    let n = l.size();
    let offsets = (0..n).map(|i| l.offset_index(i).into()).collect();
    let mapped = (0..n)
        .map(|i| {
            map.eval_index(i64::try_from(i).expect("index"))
                .expect("eval")
        })
        .collect();
    (
        offsets,
        mapped,
        l.notation().to_string(),
        L::SIZE,
        L::MIN_OFFSET,
        L::MAX_OFFSET,
        L::COSIZE,
    )
}

#[test]
fn expression_equals_the_item_the_typed_compose_and_the_formulas() {
    let want: Vec<i64> = (0..128).map(small).collect();
    let expr = report(&layout!(compose(SW, TV)));
    assert_eq!(expr.0, want);
    assert_eq!(expr.1, want);
    assert_eq!(
        expr.2,
        "[swizzle(b = 2, src = 5, dst = 2) ∘ (8,16):(1,8)] ∘ [((2,2),(8,4)):((8,16),(1,32))]"
    );
    assert_eq!((expr.3, expr.4, expr.5, expr.6), (128, 0, 127, 128));
    assert_eq!(report(&C), expr);
    assert_eq!(report(&compose(SW, TV)), expr);

    let want: Vec<i64> = (0..4096).map(large).collect();
    let expr = report(&layout!(compose(SW64, TV64)));
    assert_eq!(
        (expr.0.as_slice(), expr.1.as_slice()),
        (&want[..], &want[..])
    );
    assert_eq!((expr.3, expr.4, expr.5, expr.6), (4096, 0, 4095, 4096));
    assert_eq!(report(&C64), expr);
    // The maps themselves, not only their values.
    assert_eq!(layout!(compose(SW, TV)).to_map(), C.to_map());
    assert_eq!(layout!(compose(SW64, TV64)).to_map(), C64.to_map());
}

/// Whether a layout's offsets compute in its 32-bit index type.
fn narrow<L: Layout>(_: &L) -> bool {
    L::NARROW
}

#[test]
fn the_index_type_is_the_left_operands() {
    // A 32-bit left operand keeps the generated program, which computes in 32 bits.
    let c = layout!(compose(SW32, TV));
    assert!(narrow(&c));
    assert!(!narrow(&layout!(compose(SW, TV))));
    let first: i32 = c.offset_index(5);
    assert_eq!(i64::from(first), small(5));
    let want: Vec<i64> = (0..128).map(small).collect();
    assert_eq!(report(&c).0, want);
}

/// A glob import brings `a::S` (its declaration and its value); a `const` shadows only the
/// value with `b::S`, swizzled differently. The expression composes the values Rust resolves:
/// `b::S`'s offsets, never `a::S`'s.
mod shadowed {
    use layout_typed::prelude::*;
    pub mod a {
        layout_typed::layout! {
            pub const S = cute (16,8):(8,1), logical(16,8) -> physical, Swizzle<2,2,3> over elements;
        }
    }
    pub mod b {
        layout_typed::layout! {
            pub const S = cute (16,8):(8,1), logical(16,8) -> physical, Swizzle<1,3,3> over elements;
        }
    }
    use a::*;
    const S: b::S = b::S;

    pub fn offsets() -> Vec<i64> {
        let c = layout!(compose(S, crate::TV));
        (0..128).map(|i| c.offset_index(i)).collect()
    }
}

#[test]
fn a_shadowed_value_is_the_one_composed() {
    let want: Vec<i64> = (0..128)
        .map(|i| {
            let p = cute_flat(&[4, 8, 2, 2], &[32, 1, 16, 8], i);
            swizzle(cute_flat(&[16, 8], &[8, 1], p), 1, 6, 3)
        })
        .collect();
    assert_eq!(shadowed::offsets(), want);
    let unshadowed: Vec<i64> = (0..128).map(small).collect();
    assert_ne!(want, unshadowed);
}

layout! {
    const SW64_ROW5 = restrict(SW64, 0 = 5);
    const TV_LINE = (64):(1), thread-value -> logical;
    const C_ROW5 = compose(SW64_ROW5, TV_LINE);
    const TRANSPOSE = (64,64):(1,64), logical -> logical;
    const SW64_T = compose(SW64, TRANSPOSE);
    const C_T = compose(SW64_T, TV64);
}

/// Left operands defined by expressions (a restriction of a swizzled item, a swizzled
/// composite): the expression, the item and the formulas agree, offset by offset, with the
/// same notation, map, size, offset range and index type.
#[test]
fn left_operands_defined_by_expressions() {
    let want: Vec<i64> = (0..64)
        // Seed (64,64):(1,64): entry 0 (stride 1) fixed at 5, the free entry of stride 64.
        .map(|j| swizzle(5 + 64 * j, 3, 6, 3))
        .collect();
    let expr = report(&layout!(compose(SW64_ROW5, TV_LINE)));
    assert_eq!(
        (expr.0.as_slice(), expr.1.as_slice()),
        (&want[..], &want[..])
    );
    assert_eq!(report(&C_ROW5), expr);
    assert!(!narrow(&layout!(compose(SW64_ROW5, TV_LINE))));

    let want: Vec<i64> = (0..4096)
        .map(|i| {
            let q = cute_flat(&[256, 16], &[16, 1], i);
            // Seed (64,64):(1,64), last mode fastest: q = 64·a + b goes to a + 64·b.
            let p = q / 64 + 64 * (q % 64);
            swizzle(cute_flat(&[64, 64], &[64, 1], p), 3, 6, 3)
        })
        .collect();
    let expr = report(&layout!(compose(SW64_T, TV64)));
    assert_eq!(
        (expr.0.as_slice(), expr.1.as_slice()),
        (&want[..], &want[..])
    );
    assert_eq!((expr.3, expr.4, expr.5, expr.6), (4096, 0, 4095, 4096));
    assert_eq!(report(&C_T), expr);
}

/// The expression in constant contexts, where the generated value it replaces was accepted
/// (and the 32-bit form, still generated, is): a `const fn`, a `static`'s initializer and an
/// inline `const` block, each with the formulas' offsets.
const fn composed_in_const_fn() -> impl Layout<Index = i64> {
    layout!(compose(SW, TV))
}

static IN_STATIC: [i64; 2] = {
    let _narrow = layout!(compose(SW32, TV));
    let _wide = layout!(compose(SW, TV));
    [0, 1]
};

#[test]
fn the_expression_is_a_constant_expression() {
    let want: Vec<i64> = (0..128).map(small).collect();
    assert_eq!(report(&composed_in_const_fn()).0, want);
    let inline = const { layout!(compose(SW, TV)) };
    assert_eq!(report(&inline).0, want);
    let narrow = const { layout!(compose(SW32, TV)) };
    assert_eq!(report(&narrow).0, want);
    assert_eq!(IN_STATIC, [0, 1]);
}

layout! {
    const SW_BYTES = cute (8,64):(64,1), logical(8,64) -> physical, Swizzle<3,4,3> over bytes of 16-bit elements;
    const SW_NAMED = (row: 64, col: 8):(1,64), logical(64,8) -> physical, Swizzle<3,3,3> over elements;
    const TV_PLAIN = (4,128):(1,4), thread-value -> logical(64,8);
    const TV_NAMED = (value: 4, thread: 128):(1,4), thread-value -> logical(64,8);
    const C_RIGHT_NAMED = compose(SW_BYTES, TV_NAMED);
    const C_LEFT_NAMED = compose(SW_NAMED, TV_PLAIN);
    const C_BOTH_NAMED = compose(SW_NAMED, TV_NAMED);
}

/// The names of every layout's top-level modes in a map, left to right.
fn mode_names(m: &layout_core::Map) -> Vec<Vec<Option<String>>> {
    match m {
        layout_core::Map::Layout(a) => vec![a.layout().names().to_vec()],
        layout_core::Map::Swizzled { inner, .. } | layout_core::Map::Restricted { inner, .. } => {
            mode_names(inner)
        }
        layout_core::Map::Composite(c) => {
            let mut v = mode_names(&c.left());
            v.extend(mode_names(&c.right()));
            v
        }
    }
}

/// Operands with named modes, on either side or both: the expression keeps the names in its
/// notation and its map, as the item does; the offsets are the formulas'.
#[test]
fn named_modes_of_either_operand_are_kept() {
    let named = |a: &str, b: &str| vec![Some(a.to_string()), Some(b.to_string())];
    // Seed order, last mode fastest: TV's flat index `128·v + t` is `v + 4·t`, the storage's
    // `8·a + b` is `a + 64·b`, swizzled with b = 3, src = 6, dst = 3 (in elements).
    let want: Vec<i64> = (0..512)
        .map(|i| {
            let q = i / 128 + 4 * (i % 128);
            swizzle(q / 8 + 64 * (q % 8), 3, 6, 3)
        })
        .collect();

    let expr = report(&layout!(compose(SW_BYTES, TV_NAMED)));
    assert_eq!(
        (expr.0.as_slice(), expr.1.as_slice()),
        (&want[..], &want[..])
    );
    assert_eq!(
        expr.2,
        "[swizzle(b = 3, src = 6, dst = 3) ∘ (64,8):(1,64)] ∘ [(value:4,thread:128):(1,4)]"
    );
    let map = layout!(compose(SW_BYTES, TV_NAMED)).to_map().expect("map");
    assert_eq!(mode_names(&map), vec![vec![], named("value", "thread")]);
    assert_eq!(report(&C_RIGHT_NAMED), expr);

    let expr = report(&layout!(compose(SW_NAMED, TV_PLAIN)));
    assert_eq!(
        (expr.0.as_slice(), expr.1.as_slice()),
        (&want[..], &want[..])
    );
    assert_eq!(
        expr.2,
        "[swizzle(b = 3, src = 6, dst = 3) ∘ (row:64,col:8):(1,64)] ∘ [(4,128):(1,4)]"
    );
    let map = layout!(compose(SW_NAMED, TV_PLAIN)).to_map().expect("map");
    assert_eq!(mode_names(&map), vec![named("row", "col"), vec![]]);
    assert_eq!(report(&C_LEFT_NAMED), expr);

    let expr = report(&layout!(compose(SW_NAMED, TV_NAMED)));
    assert_eq!(
        (expr.0.as_slice(), expr.1.as_slice()),
        (&want[..], &want[..])
    );
    let map = layout!(compose(SW_NAMED, TV_NAMED)).to_map().expect("map");
    assert_eq!(
        mode_names(&map),
        vec![named("row", "col"), named("value", "thread")]
    );
    assert_eq!(report(&C_BOTH_NAMED), expr);
}

layout! {
    const TV_ATOM = cute (32,8):(8,1), thread-value -> logical(8,32);
    const C_ATOM = compose(layout_typed::atoms::gmma_layout_k_sw32_atom_uint8_t::ATOM, TV_ATOM);
}

/// `compose` written by a `macro_rules!` macro, its operands through `$crate`.
macro_rules! composed_through_crate {
    () => {
        layout!(compose($crate::SW, $crate::TV))
    };
}

/// Operands of every path form: an item of another crate (a GMMA atom of `layout_typed`, by
/// its full path and through a `use` rename), paths written by a `macro_rules!` macro
/// (`$crate`), and items declared in a function body; each against the formulas and, where
/// one exists, the item.
#[test]
fn operands_of_every_path_form() {
    use layout_typed::atoms::gmma_layout_k_sw32_atom_uint8_t as atom;
    // Swizzle<1,4,3> over bytes of 8-bit elements: b = 1, src = 7, dst = 4 in elements.
    let want: Vec<i64> = (0..256)
        .map(|i| {
            let p = cute_flat(&[32, 8], &[8, 1], i);
            swizzle(cute_flat(&[8, 32], &[32, 1], p), 1, 7, 4)
        })
        .collect();
    let full = report(&layout!(compose(
        layout_typed::atoms::gmma_layout_k_sw32_atom_uint8_t::ATOM,
        TV_ATOM
    )));
    assert_eq!(
        (full.0.as_slice(), full.1.as_slice()),
        (&want[..], &want[..])
    );
    assert_eq!(report(&layout!(compose(atom::ATOM, TV_ATOM))), full);
    assert_eq!(report(&C_ATOM), full);

    let want: Vec<i64> = (0..128).map(small).collect();
    assert_eq!(report(&composed_through_crate!()), report(&C));
    assert_eq!(report(&composed_through_crate!()).0, want);

    fn in_a_body() -> Vec<i64> {
        layout! {
            const LOCAL_SW = cute (16,8):(8,1), logical(16,8) -> physical, Swizzle<2,2,3> over elements;
            const LOCAL_TV = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
        }
        let c = layout!(compose(LOCAL_SW, LOCAL_TV));
        (0..128).map(|i| c.offset_index(i)).collect()
    }
    assert_eq!(in_a_body(), want);
}

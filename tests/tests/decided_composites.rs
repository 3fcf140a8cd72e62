//! Items defined as composites that `layout!` decides to be layouts: their type is the layout's
//! (`Static`), whose form keeps neither the names of the composite's domain nor its tree, so
//! the type carries a fingerprint of the composite (`Spec`'s `NAMES`). An expression naming
//! such an item evaluates the item's own definition: its values here are compared with a
//! brute-force evaluation of the declared texts. Definitions that are not the item's own
//! (written by hand, or another item's value shadowing it) are refused: the cases are
//! `ui-tests/ui_definitions/`.

use layout_typed::IndexType;

/// Every offset of a typed layout, by flat index.
fn vals<T: layout_typed::Layout>(l: T) -> Vec<i64> {
    (0..T::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect()
}

/// The flat layout `sizes:strides` (last mode fastest) at every flat index.
fn lay(sizes: &[i64], strides: &[i64]) -> Vec<i64> {
    let n: i64 = sizes.iter().product();
    (0..n)
        .map(|mut i| {
            let mut v = 0;
            for (s, d) in sizes.iter().zip(strides).rev() {
                v += (i % s) * d;
                i /= s;
            }
            v
        })
        .collect()
}

/// `(x ∘ y)(i) = x(y(i))`.
fn comp(x: &[i64], y: &[i64]) -> Vec<i64> {
    y.iter().map(|&i| x[i as usize]).collect()
}

/// A 4×4 map (flat, last fastest) with its first mode fixed at `t`.
fn first_fixed(m: &[i64], t: usize) -> Vec<i64> {
    m[4 * t..4 * t + 4].to_vec()
}

/// A 4×4 map (flat, last fastest) with its second mode fixed at `v`.
fn second_fixed(m: &[i64], v: usize) -> Vec<i64> {
    (0..4).map(|t| m[4 * t + v]).collect()
}

pub mod m {
    layout_typed::layout! {
        pub const A = (4,4):(4,1), logical -> physical;
        pub const AN = (4,4):(-4,1), logical -> physical;
        pub const A32 = (4,4):(4,1), logical -> physical, index = i32;
        pub const AB = (4,4):(_,1), logical -> physical;
        pub const P = (thread: 4, value: 4):(4,1), thread-value -> logical;
        pub const Q = (value: 4, thread: 4):(4,1), thread-value -> logical;
        /// `A ∘ P`: decided to be the layout `(4,4):(4,1)`; its modes are `thread`, `value`.
        pub const D = compose(A, P);
        pub(crate) const DN = compose(AN, P);
        pub const D32 = compose(A32, P);
        const DB = compose(AB, P);
        /// `A ∘ Q`: the same layout as `D`, its modes named the other way round.
        pub const E = compose(A, Q);
        /// An item of an item.
        pub const DD = compose(compose(A, [(4,4):(4,1), logical -> logical]), P);
        /// `(8,2):(1,8) ∘ (4,4):(4,1)` is `(4,(2,2)):(2,(1,8))`: its second mode is cut in two.
        pub const S = (8,2):(1,8), logical -> physical;
        pub const T = (4,4):(4,1), thread-value -> logical;
        pub const ST = compose(S, T);
        /// `A` written in CuTe order: the same layout, so the same composite as `D`.
        pub const AC = cute (4,4):(1,4), logical -> physical;
    }

    /// A private item named in its own module, thread 1.
    pub fn private_broadcast() -> Vec<i64> {
        super::vals(layout_typed::layout!(restrict(DB, thread = 1)))
    }
}

#[test]
fn an_expression_naming_a_decided_item_evaluates_its_definition() {
    let a = lay(&[4, 4], &[4, 1]);
    let p = lay(&[4, 4], &[4, 1]);
    let want = first_fixed(&comp(&a, &p), 1);
    assert_eq!(want, [4, 5, 6, 7]);
    assert_eq!(
        vals(layout_typed::layout!(restrict(m::D, thread = 1))),
        want
    );
    assert_eq!(
        vals(layout_typed::layout!(restrict(m::D32, thread = 1))),
        want
    );
    assert_eq!(
        vals(layout_typed::layout!(restrict(m::DD, thread = 1))),
        want
    );
    let an = lay(&[4, 4], &[-4, 1]);
    assert_eq!(
        vals(layout_typed::layout!(restrict(m::DN, thread = 1))),
        first_fixed(&comp(&an, &p), 1)
    );
    let ab = lay(&[4, 4], &[0, 1]);
    assert_eq!(m::private_broadcast(), first_fixed(&comp(&ab, &p), 1));
}

#[test]
fn two_items_decided_to_one_layout_keep_their_own_names() {
    // `E = A ∘ Q`: Q's `thread` is its second mode.
    let e = comp(&lay(&[4, 4], &[4, 1]), &lay(&[4, 4], &[4, 1]));
    assert_eq!(second_fixed(&e, 1), [1, 5, 9, 13]);
    assert_eq!(
        vals(layout_typed::layout!(restrict(m::E, thread = 1))),
        second_fixed(&e, 1)
    );
    assert_eq!(
        vals(layout_typed::layout!(restrict(m::D, thread = 1))),
        first_fixed(&e, 1)
    );
}

#[test]
fn a_decided_item_keeps_its_domain_tree() {
    let st = comp(&lay(&[8, 2], &[1, 8]), &lay(&[4, 4], &[4, 1]));
    // flatten(ST) is (4,4); entry 1 fixed at 1.
    let want = second_fixed(&st, 1);
    assert_eq!(want, [8, 10, 12, 14]);
    assert_eq!(
        vals(layout_typed::layout!(restrict(flatten(m::ST), 1 = 1))),
        want
    );
}

/// A glob import, not shadowed: the item's own value and definition.
mod glob {
    use super::m::*;
    pub fn thread_1() -> Vec<i64> {
        super::vals(layout_typed::layout!(restrict(D, thread = 1)))
    }
}

#[test]
fn a_glob_imported_decided_item() {
    let want = first_fixed(&comp(&lay(&[4, 4], &[4, 1]), &lay(&[4, 4], &[4, 1])), 1);
    assert_eq!(glob::thread_1(), want);
}

/// The same composite written again has the item's type; another composite decided to the same
/// layout has another.
#[test]
fn the_items_type_is_its_composites() {
    let d: m::D = layout_typed::layout!(compose(m::A, m::P));
    assert_eq!(vals(d), vals(m::D));
    let same = core::any::TypeId::of::<m::D>() == core::any::TypeId::of::<m::E>();
    assert!(
        !same,
        "D and E are decided to one layout but name their modes otherwise"
    );
}

/// `D`'s composite made in another module by a `macro_rules!`.
macro_rules! composite_in {
    ($name:ident) => {
        pub mod $name {
            layout_typed::layout! {
                pub const D = compose(super::m::A, super::m::P);
            }
        }
    };
}
composite_in!(again);

/// The same composite reached otherwise (a CuTe spelling of an operand, an operand written in
/// place, an item of a `macro_rules!`) has the item's type and its values.
#[test]
fn the_same_composite_reached_otherwise_is_the_item() {
    let want = first_fixed(&comp(&lay(&[4, 4], &[4, 1]), &lay(&[4, 4], &[4, 1])), 1);
    let cute: m::D = layout_typed::layout!(compose(m::AC, m::P));
    let in_place: m::D = layout_typed::layout!(compose(
        m::A,
        [(thread: 4, value: 4):(4,1), thread-value -> logical]
    ));
    let made: m::D = again::D;
    for v in [vals(cute), vals(in_place), vals(made)] {
        assert_eq!(v, vals(m::D));
    }
    assert_eq!(
        vals(layout_typed::layout!(restrict(again::D, thread = 1))),
        want
    );
}

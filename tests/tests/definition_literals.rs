//! A declared item hands its declaration on to later expressions as one string literal of its
//! text (`[PATH = "TEXT"]`, for `pub` and private items), or as its tokens (`pub(crate)`,
//! `pub(super)`, and items whose text would need an escape). Attacked here: declarations of
//! every form (named modes, a swizzle, a 32-bit index, a broadcast, a negative stride, hex,
//! binary and octal literals, `cute` order, a hardware operand clause, tiles) under each
//! visibility, written by hand and through a `macro_rules!` `vis` fragment, as operands of
//! `compose` in their own module and by path; and a definition written by the user as the
//! literal a definition macro writes. Every offset against a brute-force evaluator of the
//! declared text written here.

use layout_typed::IndexType;

/// The flat layout `shape:stride` (flat tuples, nesting ignored: the flat index runs over the
/// leaves, last fastest; `_` is a broadcast) at every flat index.
fn lay(text: &str) -> Vec<i64> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (s, d) = t.split_once(':').expect("shape:stride");
    let nums = |x: &str| -> Vec<i64> {
        x.split(['(', ')', ','])
            .filter(|p| !p.is_empty())
            .map(|p| {
                if p == "_" {
                    0
                } else {
                    p.parse().expect("an integer")
                }
            })
            .collect()
    };
    let (sizes, strides) = (nums(s), nums(d));
    assert_eq!(sizes.len(), strides.len(), "{text}");
    let n: i64 = sizes.iter().product();
    (0..n)
        .map(|mut i| {
            let mut v = 0;
            for (s, d) in sizes.iter().zip(&strides).rev() {
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

/// CuTe's `Swizzle<2,0,3>` over elements: bits 3 and 4 of the offset into bits 0 and 1.
fn swz(x: &[i64]) -> Vec<i64> {
    x.iter().map(|&v| v ^ ((v >> 3) & 3)).collect()
}

/// Every value of a typed layout, by flat index (`offset_index`) and by `offset` of the flat
/// index through the trait; both must agree.
fn vals<T: layout_typed::Layout>(l: T) -> Vec<i64> {
    (0..T::SIZE)
        .map(|i| {
            let a = l.offset_index(i).to_isize() as i64;
            let b = layout_typed::Layout::offset(&l, i).to_isize() as i64;
            assert_eq!(a, b, "offset_index vs offset at {i}");
            a
        })
        .collect()
}

/// The declarations, with the visibility `$v`, and a function of their values and of their
/// compositions, computed in the module (where private items are in scope).
macro_rules! decls {
    ($v:vis,) => {
        layout_typed::layout! {
            $v const NM = (row: 4, col: 8):(8,1), logical -> physical;
            $v const BO = (0x4,0b1000):(0o10,1), logical -> physical;
            $v const SW = (4,8):(8,1), logical -> physical, Swizzle<2,0,3> over elements;
            $v const I32 = (4,8):(8,1), logical -> physical, index = i32;
            $v const BC = (4,8):(_,1), logical -> physical;
            $v const NG = (4,8):(-8,1), logical -> physical;
            $v const CU = cute (8,4):(1,16), logical -> physical;
            $v const WG = cute ((8,8),(8,2)):((8,64),(1,512)), logical -> physical, wgmma K-major of 16-bit elements;
            $v const TI = (4,8):(8,1), logical(4,8) -> physical;
            $v const B = (8,4):(1,8), logical -> logical;
            $v const BT = (8,4):(1,8), logical -> logical(4,8);
        }
        pub(crate) fn values() -> Vec<Vec<i64>> {
            use super::vals;
            vec![
                vals(NM),
                vals(BO),
                vals(SW),
                vals(I32),
                vals(BC),
                vals(NG),
                vals(CU),
                vals(WG),
                vals(TI),
                vals(layout_typed::layout!(compose(NM, B))),
                vals(layout_typed::layout!(compose(BO, B))),
                vals(layout_typed::layout!(compose(SW, B))),
                vals(layout_typed::layout!(compose(I32, B))),
                vals(layout_typed::layout!(compose(BC, B))),
                vals(layout_typed::layout!(compose(NG, B))),
                vals(layout_typed::layout!(compose(CU, B))),
                vals(layout_typed::layout!(compose(WG, [(32,32):(1,32), logical -> logical]))),
                vals(layout_typed::layout!(compose(TI, BT))),
                vals(layout_typed::layout!(compose(compose(SW, B), B))),
            ]
        }
    };
}

/// What [`decls`]'s `values` must return, from the declared texts.
fn expected() -> Vec<Vec<i64>> {
    let id = lay("(4,8):(8,1)");
    let b = lay("(8,4):(1,8)");
    let bc = lay("(4,8):(_,1)");
    let ng = lay("(4,8):(-8,1)");
    let cu = lay("(4,8):(16,1)");
    let wg = lay("(2,8,8,8):(512,1,64,8)");
    let tr = lay("(32,32):(1,32)");
    vec![
        id.clone(),
        id.clone(),
        swz(&id),
        id.clone(),
        bc.clone(),
        ng.clone(),
        cu.clone(),
        wg.clone(),
        id.clone(),
        comp(&id, &b),
        comp(&id, &b),
        comp(&swz(&id), &b),
        comp(&id, &b),
        comp(&bc, &b),
        comp(&ng, &b),
        comp(&cu, &b),
        comp(&wg, &tr),
        comp(&id, &b),
        comp(&comp(&swz(&id), &b), &b),
    ]
}

pub mod by_pub {
    decls!(pub,);
}
pub mod by_crate {
    decls!(pub(crate),);
}
pub mod by_super {
    decls!(pub(super),);
}
pub mod by_private {
    decls!(,);
}

/// Items written without a fragment, one per visibility.
pub mod hand {
    layout_typed::layout! {
        pub const SW = (4,8):(8,1), logical -> physical, Swizzle<2,0,3> over elements;
        pub(crate) const NM = (row: 4, col: 8):(8,1), logical -> physical;
        pub(super) const WG = cute ((8,8),(8,2)):((8,64),(1,512)), logical -> physical, wgmma K-major of 16-bit elements;
        const I32 = (4,8):(-8,1), logical -> physical, index = i32;
        pub const B = (8,4):(1,8), logical -> logical;
    }
    pub(crate) fn private_values() -> Vec<Vec<i64>> {
        use super::vals;
        vec![vals(I32), vals(layout_typed::layout!(compose(I32, B)))]
    }
}

#[test]
fn every_visibility_through_a_fragment() {
    let want = expected();
    assert_eq!(by_pub::values(), want, "pub");
    assert_eq!(by_crate::values(), want, "pub(crate)");
    assert_eq!(by_super::values(), want, "pub(super)");
    assert_eq!(by_private::values(), want, "private");
}

#[test]
fn written_by_hand_and_named_by_path() {
    let id = lay("(4,8):(8,1)");
    let b = lay("(8,4):(1,8)");
    let ng = lay("(4,8):(-8,1)");
    let wg = lay("(2,8,8,8):(512,1,64,8)");
    let tr = lay("(32,32):(1,32)");
    assert_eq!(hand::private_values(), vec![ng.clone(), comp(&ng, &b)]);
    assert_eq!(vals(hand::SW), swz(&id));
    assert_eq!(vals(hand::NM), id);
    assert_eq!(vals(hand::WG), wg);
    assert_eq!(
        vals(layout_typed::layout!(compose(hand::SW, hand::B))),
        comp(&swz(&id), &b)
    );
    assert_eq!(
        vals(layout_typed::layout!(compose(hand::NM, hand::B))),
        comp(&id, &b)
    );
    assert_eq!(
        vals(layout_typed::layout!(compose(hand::WG, [(32,32):(1,32), logical -> logical]))),
        comp(&wg, &tr)
    );
    // Operands of every visibility, from the fragments' modules, in one expression.
    assert_eq!(
        vals(layout_typed::layout!(compose(
            by_super::SW,
            compose(by_crate::B, by_pub::B)
        ))),
        comp(&swz(&id), &comp(&b, &b))
    );
    assert_eq!(
        vals(layout_typed::layout!(compose(by_crate::NG, by_super::B))),
        comp(&ng, &b)
    );
    assert_eq!(
        vals(layout_typed::layout!(compose(by_pub::TI, by_crate::BT))),
        comp(&id, &b)
    );
}

/// A definition written by the user in the form a definition macro writes (one string literal
/// of the declaration's text, before the expression), for an item of that very declaration:
/// the same values as the item's own definition gives.
#[test]
fn a_definition_literal_written_by_the_user() {
    let id = lay("(4,8):(8,1)");
    let b = lay("(8,4):(1,8)");
    assert_eq!(
        vals(layout_typed::layout!(
            [hand::SW = "(4,8):(8,1), logical -> physical, Swizzle<2,0,3> over elements"]
            compose(hand::SW, hand::B)
        )),
        comp(&swz(&id), &b)
    );
    assert_eq!(
        vals(layout_typed::layout!(
            [by_pub::NM = "( row : 4 , col : 8 ) : ( 8 , 1 ) , logical -> physical"]
            [by_pub::B = "(8,4):(1,8), logical -> logical"]
            compose(by_pub::NM, by_pub::B)
        )),
        comp(&id, &b)
    );
}

/// Doc comments and `doc` attributes whose text reads like a definition (`[S = DECL]`, a string
/// literal after `=` inside brackets, the shape the macro reads back as text): they stay
/// attributes, and the items are the declared ones.
pub mod docs {
    layout_typed::layout! {
        pub const S = (4,8):(8,1), logical -> physical;
        /// [S = (4,8):(1,4), logical -> physical]
        pub const B = (8,4):(1,8), logical -> logical;
        /// [S = (4,8):(1,4), logical -> physical]
        pub const D = compose(S, B);
        #[doc = "[B = (32):(1), logical -> logical]"]
        pub const E = compose(S, B);
    }
}

#[test]
fn attributes_that_read_like_definitions() {
    let id = lay("(4,8):(8,1)");
    let b = lay("(8,4):(1,8)");
    assert_eq!(vals(docs::S), id);
    assert_eq!(vals(docs::B), b);
    assert_eq!(vals(docs::D), comp(&id, &b));
    assert_eq!(vals(docs::E), comp(&id, &b));
    assert_eq!(
        vals(layout_typed::layout!(compose(docs::D, docs::B))),
        comp(&comp(&id, &b), &b)
    );
    assert_eq!(
        vals(layout_typed::layout!(compose(docs::E, docs::B))),
        comp(&comp(&id, &b), &b)
    );
}

/// An item defined by an expression whose value is no layout (a swizzled composite: a
/// `Generated` type whose program is its own unit struct).
pub mod derived {
    layout_typed::layout! {
        pub const SW = (8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 2, src = 3, dst = 0);
        pub const P = (thread: 16, value: 4):(4,1), thread-value -> logical(8, 8);
        pub const D = compose(SW, P);
    }
}

/// `SW ∘ P` restricted to thread 5: `P` maps (5, v) to logical 20 + v, `SW` is the identity on
/// it, and the swizzle flips bit 1 by bits 3–4 of the offset (20..24 has them at 2).
fn derived_thread_5() -> Vec<i64> {
    let sw = lay("(8,8):(8,1)");
    let p = lay("(16,4):(4,1)");
    let d: Vec<i64> = comp(&sw, &p).iter().map(|&x| x ^ ((x >> 3) & 3)).collect();
    d[20..24].to_vec()
}

#[test]
fn a_derived_operand_by_its_own_definition() {
    let want = derived_thread_5();
    assert_eq!(want, [22, 23, 20, 21]);
    let got = vals(layout_typed::layout!(restrict(derived::D, thread = 5)));
    assert_eq!(got, want);
}

// A definition of `derived::D` written by hand with another swizzle (the same offset range)
// is refused at the item's path: `ui-tests/ui_definitions/` keeps that case, which compiles
// the item's own definition written out the same way.

/// CuTe's swizzle over the bytes of 16-bit elements (a text with `16-bit` in it), under each
/// visibility: `Swizzle<3,4,3>` moves byte-offset bits 7–9 onto bits 4–6, element-offset bits
/// 6–8 onto bits 3–5.
pub mod bytes {
    layout_typed::layout! {
        pub const SB = (8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements;
        pub(crate) const SC = (8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements;
        const SD = (8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements;
        pub const T = (64,8):(1,64), logical -> logical;
    }
    pub(crate) fn private_values() -> Vec<i64> {
        super::vals(layout_typed::layout!(compose(SD, T)))
    }
}

#[test]
fn a_swizzle_over_bytes_of_16_bit_elements() {
    let id = lay("(8,64):(64,1)");
    let t = lay("(64,8):(1,64)");
    let sw: Vec<i64> = id.iter().map(|&x| x ^ (((x >> 6) & 7) << 3)).collect();
    assert_eq!(vals(bytes::SB), sw);
    assert_eq!(vals(bytes::SC), sw);
    assert_eq!(
        vals(layout_typed::layout!(compose(bytes::SB, bytes::T))),
        comp(&sw, &t)
    );
    assert_eq!(
        vals(layout_typed::layout!(compose(bytes::SC, bytes::T))),
        comp(&sw, &t)
    );
    assert_eq!(bytes::private_values(), comp(&sw, &t));
}

//! `layout!`'s fast paths attacked from outside: `compose(P, Q)` of two identifiers (a form
//! a `macro_rules!` shortcut once routed past the procedural macro's first expansion), items whose
//! declarations are read from the token stream's printing, declarations remembered by their
//! text, and the inherent `offset` of `Static` and `Composed`. Every value is compared with a
//! brute-force evaluator of the declared `shape:stride` text written here; declarations that
//! differ only in spelling (spaces, `0x10`, `1_6`, `016`, fragments of `macro_rules!`) must give
//! the same values, and close texts that differ in value must not.

// No prelude: the `Layout` trait is named where a test wants it in scope.
use layout_typed::IndexType;

/// The flat layout `shape:stride` (flat tuples; last leaf fastest) at every flat index.
fn lay(text: &str) -> Vec<i64> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (s, d) = t.split_once(':').expect("shape:stride");
    let nums = |x: &str| -> Vec<i64> {
        x.split(['(', ')', ','])
            .filter(|p| !p.is_empty())
            .map(|p| p.parse().expect("an integer"))
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

/// One declaration spelled several ways, and close declarations of other values.
pub mod spell {
    layout_typed::layout! {
        pub const DEC = (4,8):(16,1), logical -> physical;
        pub const HEX = (0x4,0x8):(0x10,0x1), logical -> physical;
        pub const SEP = (4,8):(1_6,1), logical -> physical;
        // A leading zero is decimal in Rust: `016` is sixteen.
        pub const LZ = (04,8):(016,1), logical -> physical;
        pub const SPACED = ( 4 , 8 ) : ( 16 , 1 ) , logical->physical ;
        pub const U32 = (4,8):(16,1), logical -> physical, index = u32;
        pub const CUTE = cute (8,4):(1,16), logical -> physical;
        /// `0x10` is not `10`: a text that reads like the others, another value.
        pub const TEN = (4,8):(10,1), logical -> physical;
        /// `010` is ten, not eight.
        pub const LZ10 = (4,8):(010,1), logical -> physical;
        /// A bijection of 32 elements: the right operand of the compositions.
        pub const B = (8,4):(1,8), logical -> logical;
        /// Another one, the same text but its strides swapped.
        pub const C = (8,4):(4,1), logical -> logical;
    }
}

const DEC_T: &str = "(4,8):(16,1)";
const TEN_T: &str = "(4,8):(10,1)";
const B_T: &str = "(8,4):(1,8)";
const C_T: &str = "(8,4):(4,1)";

#[test]
fn spellings_of_one_declaration_are_one_layout() {
    use spell::*;
    let want = lay(DEC_T);
    assert_eq!(vals(DEC), want);
    assert_eq!(vals(HEX), want);
    assert_eq!(vals(SEP), want);
    assert_eq!(vals(LZ), want);
    assert_eq!(vals(SPACED), want);
    assert_eq!(vals(U32), want);
    assert_eq!(vals(CUTE), want);
    assert_eq!(vals(TEN), lay(TEN_T));
    assert_eq!(vals(LZ10), lay(TEN_T));
    assert_ne!(lay(TEN_T), want);
    // The index types the texts name.
    let _: u32 = layout_typed::Layout::offset_index(&U32, 1);
    let _: i64 = layout_typed::Layout::offset_index(&HEX, 1);
    // The same text in expression position, and its other spellings.
    assert_eq!(
        vals(layout_typed::layout!((4,8):(16,1), logical -> physical)),
        want
    );
    assert_eq!(
        vals(layout_typed::layout!((0x4,8):(0x10,1), logical -> physical)),
        want
    );
    assert_eq!(
        vals(layout_typed::layout!((4,8):(10,1), logical -> physical)),
        lay(TEN_T)
    );
}

#[test]
fn compose_of_two_identifiers_by_every_spelling() {
    use spell::*;
    let (dec, ten, b, c) = (lay(DEC_T), lay(TEN_T), lay(B_T), lay(C_T));
    assert_ne!(b, c);
    for (got, want) in [
        (vals(layout_typed::layout!(compose(DEC, B))), comp(&dec, &b)),
        (vals(layout_typed::layout!(compose(HEX, B))), comp(&dec, &b)),
        (vals(layout_typed::layout!(compose(SEP, C))), comp(&dec, &c)),
        (vals(layout_typed::layout!(compose(LZ, C))), comp(&dec, &c)),
        (
            vals(layout_typed::layout!(compose(SPACED, B))),
            comp(&dec, &b),
        ),
        (vals(layout_typed::layout!(compose(U32, B))), comp(&dec, &b)),
        (
            vals(layout_typed::layout!(compose(CUTE, B))),
            comp(&dec, &b),
        ),
        (vals(layout_typed::layout!(compose(TEN, B))), comp(&ten, &b)),
        (
            vals(layout_typed::layout!(compose(LZ10, C))),
            comp(&ten, &c),
        ),
        // The same operand twice, by one-segment names and by paths.
        (vals(layout_typed::layout!(compose(B, B))), comp(&b, &b)),
        (vals(layout_typed::layout!(compose(C, C))), comp(&c, &c)),
        (
            vals(layout_typed::layout!(compose(spell::C, spell::C))),
            comp(&c, &c),
        ),
        (vals(layout_typed::layout!(compose(B, C))), comp(&b, &c)),
        (vals(layout_typed::layout!(compose(C, B))), comp(&c, &b)),
        // Not two one-segment names: a trailing comma, a path.
        (
            vals(layout_typed::layout!(compose(spell::DEC, B))),
            comp(&dec, &b),
        ),
        (
            vals(layout_typed::layout!(compose(DEC, spell::B))),
            comp(&dec, &b),
        ),
    ] {
        assert_eq!(got, want);
    }
}

macro_rules! by_ident {
    ($a:ident, $b:ident) => {
        layout_typed::layout!(compose($a, $b))
    };
}
macro_rules! by_tt {
    ($a:tt, $b:tt) => {
        layout_typed::layout!(compose($a, $b))
    };
}
macro_rules! by_path {
    ($a:path, $b:path) => {
        layout_typed::layout!(compose($a, $b))
    };
}
macro_rules! by_whole {
    ($($t:tt)*) => {
        layout_typed::layout!($($t)*)
    };
}

#[test]
fn compose_forwarded_by_macro_rules() {
    use spell::*;
    let (dec, b, c) = (lay(DEC_T), lay(B_T), lay(C_T));
    assert_eq!(vals(by_ident!(DEC, B)), comp(&dec, &b));
    assert_eq!(vals(by_ident!(C, C)), comp(&c, &c));
    assert_eq!(vals(by_ident!(r#C, B)), comp(&c, &b));
    assert_eq!(vals(by_tt!(HEX, C)), comp(&dec, &c));
    assert_eq!(vals(by_path!(B, C)), comp(&b, &c));
    assert_eq!(vals(by_path!(spell::B, C)), comp(&b, &c));
    assert_eq!(vals(by_whole!(compose(C, B))), comp(&c, &b));
    assert_eq!(vals(by_whole!(compose(r#C, r#B))), comp(&c, &b));
}

/// Items in function bodies as operands named by one segment, one named like a module-level item
/// that is not imported here (an imported one would make the name ambiguous to Rust: a
/// macro-expanded name against an outer one).
#[test]
fn items_in_a_body_as_operands() {
    use spell::DEC;
    layout_typed::layout! {
        const DEC2 = (4,8):(1,4), logical -> physical;
    }
    {
        layout_typed::layout! {
            const B = (8,4):(4,1), logical -> logical;
        }
        let local_b = lay(C_T);
        assert_eq!(vals(B), local_b);
        assert_eq!(
            vals(layout_typed::layout!(compose(DEC, B))),
            comp(&lay(DEC_T), &local_b)
        );
        assert_eq!(
            vals(layout_typed::layout!(compose(DEC2, B))),
            comp(&lay("(4,8):(1,4)"), &local_b)
        );
        assert_eq!(
            vals(layout_typed::layout!(compose(B, B))),
            comp(&local_b, &local_b)
        );
    }
    assert_eq!(
        vals(layout_typed::layout!(compose(DEC2, spell::B))),
        comp(&lay("(4,8):(1,4)"), &lay(B_T))
    );
}

/// One name under exclusive `cfg`s; the compiled-in one is the operand.
pub mod cfgd {
    layout_typed::layout! {
        #[cfg(any())]
        pub const ALT = (4,8):(8,1), logical -> logical;
        #[cfg(all())]
        pub const ALT = (4,8):(1,4), logical -> logical;
        pub const ID = (32):(1), logical -> logical;
    }
}

#[test]
fn cfg_alternatives_as_fast_operands() {
    use cfgd::{ALT, ID};
    let alt = lay("(4,8):(1,4)");
    assert_eq!(vals(ALT), alt);
    assert_eq!(
        vals(layout_typed::layout!(compose(ALT, ALT))),
        comp(&alt, &alt)
    );
    assert_eq!(vals(layout_typed::layout!(compose(ALT, ID))), alt);
    assert_eq!(vals(layout_typed::layout!(compose(ID, ALT))), alt);
}

/// Items made by `macro_rules!` from fragments (delimiter-less groups reach the macro), in two
/// modules with the same text: each must be its own declaration.
macro_rules! gen_items {
    ($name:ident, $n:literal, $s0:expr, $s1:tt) => {
        layout_typed::layout! {
            pub const $name = (4, $n):($s0, $s1), logical -> physical;
        }
    };
}

pub mod gen_a {
    gen_items!(G, 8, 16, 1);
    gen_items!(H, 8, 0x10, 1);
}
pub mod gen_b {
    gen_items!(G, 8, 10, 1);
    gen_items!(H, 8, 1_0, 1);
}

#[test]
fn items_from_fragments() {
    use spell::B;
    let (dec, ten, b) = (lay(DEC_T), lay(TEN_T), lay(B_T));
    assert_eq!(vals(gen_a::G), dec);
    assert_eq!(vals(gen_a::H), dec);
    assert_eq!(vals(gen_b::G), ten);
    assert_eq!(vals(gen_b::H), ten);
    assert_eq!(
        vals(layout_typed::layout!(compose(gen_a::G, B))),
        comp(&dec, &b)
    );
    assert_eq!(
        vals(layout_typed::layout!(compose(gen_b::H, B))),
        comp(&ten, &b)
    );
    {
        use gen_a::G;
        use gen_b::H;
        assert_eq!(vals(layout_typed::layout!(compose(G, B))), comp(&dec, &b));
        assert_eq!(vals(layout_typed::layout!(compose(H, B))), comp(&ten, &b));
    }
}

/// A user's trait with an `offset` method of its own, in scope where `Layout` is not.
mod user_trait {
    pub trait MyOffset {
        fn offset(&self, i: usize) -> i64;
    }
    impl<T: layout_typed::Layout> MyOffset for T {
        fn offset(&self, i: usize) -> i64 {
            -1_000 - i as i64
        }
    }
}

/// The inherent `offset` is found before any trait's: a call on a `Static` or a `Composed`
/// value is the library's whatever traits are in scope (before the inherent method, with only
/// the user's trait in scope, the same call was the user's). Naming the trait reaches it.
#[test]
fn inherent_offset_with_a_user_trait_in_scope() {
    use spell::{B, C, DEC};
    use user_trait::MyOffset;
    let dec = lay(DEC_T);
    assert_eq!(dec.len(), 32);
    for (i, &d) in dec.iter().enumerate() {
        assert_eq!(DEC.offset(i), d);
        assert_eq!(MyOffset::offset(&DEC, i), -1_000 - i as i64);
        assert_eq!(layout_typed::Layout::offset(&DEC, i), d);
    }
    // `Composed`: the library's typed composition of two values.
    let bc = layout_typed::compose(B, C);
    let want = comp(&lay(B_T), &lay(C_T));
    assert_eq!(want.len(), 32);
    for (i, &w) in want.iter().enumerate() {
        assert_eq!(bc.offset(i) as i64, w);
        assert_eq!(MyOffset::offset(&bc, i), -1_000 - i as i64);
        assert_eq!(layout_typed::Layout::offset(&bc, i) as i64, w);
    }
}

/// A `pub` item whose name and declaration are written in a `macro_rules!` body, expanded in
/// two modules: the same name, the same text, two items (their exported definition macros
/// must not collide at the crate root).
macro_rules! same_body {
    () => {
        layout_typed::layout! {
            pub const Z = (8,4):(4,1), logical -> logical;
        }
    };
}

pub mod body_a {
    same_body!();
}
pub mod body_b {
    same_body!();
}

#[test]
fn one_macro_body_in_two_modules() {
    use spell::B;
    let (b, c) = (lay(B_T), lay(C_T));
    assert_eq!(vals(body_a::Z), c);
    assert_eq!(vals(body_b::Z), c);
    assert_eq!(
        vals(layout_typed::layout!(compose(body_a::Z, body_b::Z))),
        comp(&c, &c)
    );
    {
        use body_b::Z;
        assert_eq!(vals(layout_typed::layout!(compose(Z, B))), comp(&c, &b));
        assert_eq!(vals(layout_typed::layout!(compose(B, Z))), comp(&b, &c));
    }
}

/// The operation's name as a raw identifier, and operands as raw identifiers.
#[test]
fn raw_operation_name() {
    use spell::{B, C};
    let (b, c) = (lay(B_T), lay(C_T));
    assert_eq!(vals(layout_typed::layout!(r#compose(B, C))), comp(&b, &c));
    assert_eq!(
        vals(layout_typed::layout!(r#compose(r#C, r#B))),
        comp(&c, &b)
    );
    assert_eq!(vals(layout_typed::layout!(compose(r#C, r#C))), comp(&c, &c));
}

/// Negative strides written directly and through `expr` and `literal` fragments.
macro_rules! neg_items {
    ($name:ident, $s:expr, $l:literal) => {
        layout_typed::layout! {
            pub const $name = (4,8):($s,$l), logical -> physical;
        }
    };
}

pub mod neg {
    layout_typed::layout! {
        pub const D = (4,8):(-8,-1), logical -> physical;
    }
    neg_items!(E, -8, -1);
    neg_items!(F, -8, 1);
}

#[test]
fn negative_strides_from_fragments() {
    let d = lay("(4,8):(-8,-1)");
    assert_eq!(vals(neg::D), d);
    assert_eq!(vals(neg::E), d);
    assert_eq!(vals(neg::F), lay("(4,8):(-8,1)"));
    assert_ne!(lay("(4,8):(-8,1)"), d);
    use neg::{D, E};
    use spell::B;
    let b = lay(B_T);
    assert_eq!(vals(layout_typed::layout!(compose(D, B))), comp(&d, &b));
    assert_eq!(vals(layout_typed::layout!(compose(E, B))), comp(&d, &b));
}

/// An item of the same name in a parent module and in a child that glob-imports the parent: each
/// item's definition module has a name of its own, so the child's does not collide with the
/// glob-imported one (a shared name is an ambiguity error), and each name gives its own item.
mod glob_parent {
    layout_typed::layout! { const G = (4,2):(2,1), logical -> physical; }
    pub fn parent_values() -> Vec<i64> {
        super::vals(G)
    }
    pub mod child {
        #[allow(unused_imports)]
        use super::*;
        layout_typed::layout! {
            const G = (2,4):(1,2), logical -> physical;
            pub(crate) const H = (8):(3), logical -> physical;
        }
        pub fn child_values() -> Vec<i64> {
            super::super::vals(G)
        }
    }
}

#[test]
fn same_name_in_a_child_with_a_glob_import() {
    assert_eq!(glob_parent::parent_values(), lay("(4,2):(2,1)"));
    assert_eq!(glob_parent::child::child_values(), lay("(2,4):(1,2)"));
    assert_eq!(vals(glob_parent::child::H), lay("(8):(3)"));
    assert_eq!(
        vals(layout_typed::layout!(compose(glob_parent::child::H, [(8):(1), logical -> logical]))),
        lay("(8):(3)")
    );
}

/// Item names with and without the type alias's `allow(non_camel_case_types)`: under a denied
/// lint, every spelling compiles, and each name gives its own layout.
#[deny(non_camel_case_types, non_snake_case)]
#[allow(non_upper_case_globals)]
mod lint_names {
    layout_typed::layout! {
        pub const SMEM = (4):(1), logical -> physical;
        pub const T0 = (4):(2), logical -> physical;
        pub const TV_A = (4):(3), logical -> physical;
        pub const Tv = (4):(4), logical -> physical;
        pub const tv = (4):(5), logical -> physical;
        pub const _Q = (4):(6), logical -> physical;
        pub const Q__R = (4):(7), logical -> physical;
        const PRIV_A = (4):(8), logical -> physical;
    }
    pub fn private() -> Vec<i64> {
        super::vals(PRIV_A)
    }
}

#[test]
fn item_names_under_denied_case_lints() {
    use lint_names::*;
    let strides = [
        vals(SMEM),
        vals(T0),
        vals(TV_A),
        vals(Tv),
        vals(tv),
        vals(_Q),
        vals(Q__R),
        private(),
    ];
    for (d, v) in (1..).zip(strides) {
        assert_eq!(v, lay(&format!("(4):({d})")));
    }
}

/// Items of every visibility that no expression names, in a private module and in a function
/// body, under denied unused-import and dead-code lints that a `pub use` in a private scope
/// does meet: the items' re-exports of their definition macros are never reported.
#[deny(unused_imports)]
mod never_named {
    layout_typed::layout! {
        pub const P = (4):(1), logical -> physical;
        pub(crate) const C = (4):(2), logical -> physical;
        const Q = (4):(3), logical -> physical;
    }
    pub fn values() -> Vec<i64> {
        layout_typed::layout! { pub const F = (4):(4), logical -> physical; }
        let mut v = super::vals(P);
        v.extend(super::vals(C));
        v.extend(super::vals(Q));
        v.extend(super::vals(F));
        v
    }
}

#[test]
fn unnamed_items_raise_no_unused_import() {
    let want: Vec<i64> = (1..=4).flat_map(|d| lay(&format!("(4):({d})"))).collect();
    assert_eq!(never_named::values(), want);
}

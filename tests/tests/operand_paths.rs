//! Operands of `layout!` algebra expressions name exactly the item Rust's own resolution gives
//! for their path: two items named `P` in modules `a` and `b` are told apart in every path form
//! (`a::P`, `crate::`, `self::`, `super::`, `use … as`, `pub use` re-exports, glob imports, a
//! local item shadowing a module's). The expected values are computed here from the layouts'
//! formulas. Operands from other crates and under a renamed `layout-typed` are in
//! `operand_crates.rs`.

use layout_typed::prelude::*;
use layout_typed::{IndexType, Layout};

pub mod a {
    layout_typed::layout! {
        /// `(r, c) ↦ r + 2c`.
        pub const P = (2,3):(1,2), logical -> logical;
    }
}

pub mod b {
    layout_typed::layout! {
        /// `(r, c) ↦ r + 3c`.
        pub const P = (3,2):(1,3), logical -> logical;
    }
    pub mod inner {
        use layout_typed::layout;
        /// `super::` from a nested module.
        pub fn compose_super() -> Vec<i64> {
            super::super::values(layout!(compose(super::super::a::P, super::P)))
        }
    }
}

/// A re-export of `b::P` under another module.
pub mod c {
    pub use super::b::P;
}

/// A re-export under another name.
pub mod d {
    pub use super::b::P as Q;
}

/// A glob import of `a`.
mod glob {
    use super::a::*;
    use layout_typed::layout;
    pub fn compose_glob() -> Vec<i64> {
        super::values(layout!(compose(P, super::b::P)))
    }
}

fn values<T: Layout>(l: T) -> Vec<i64> {
    (0..T::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect()
}

/// The flat layout `(n_k):(d_k)` at every flat index, last mode fastest.
fn brute(modes: &[(i64, i64)]) -> Vec<i64> {
    let n: i64 = modes.iter().map(|m| m.0).product();
    (0..n)
        .map(|mut i| {
            let mut v = 0;
            for &(s, d) in modes.iter().rev() {
                v += (i % s) * d;
                i /= s;
            }
            v
        })
        .collect()
}

fn a_p() -> Vec<i64> {
    brute(&[(2, 1), (3, 2)])
}

fn b_p() -> Vec<i64> {
    brute(&[(3, 1), (2, 3)])
}

/// `(x ∘ y)(i) = x(y(i))`.
fn compose_brute(x: &[i64], y: &[i64]) -> Vec<i64> {
    y.iter().map(|&i| x[i as usize]).collect()
}

/// `a::P ∘ b::P`, which differs from `a::P ∘ a::P` and `b::P ∘ b::P`.
fn a_after_b() -> Vec<i64> {
    let e = compose_brute(&a_p(), &b_p());
    assert_ne!(e, compose_brute(&a_p(), &a_p()));
    assert_ne!(e, compose_brute(&b_p(), &b_p()));
    e
}

#[test]
fn module_paths() {
    assert_eq!(values(layout!(compose(a::P, b::P))), a_after_b());
    assert_eq!(
        values(layout!(compose(b::P, a::P))),
        compose_brute(&b_p(), &a_p())
    );
}

#[test]
fn crate_paths() {
    assert_eq!(
        values(layout!(compose(crate::a::P, crate::b::P))),
        a_after_b()
    );
}

#[test]
fn self_paths() {
    assert_eq!(
        values(layout!(compose(self::a::P, self::b::P))),
        a_after_b()
    );
}

#[test]
fn super_paths() {
    assert_eq!(b::inner::compose_super(), a_after_b());
}

#[test]
fn use_as() {
    use a::P as AP;
    use b::P as BP;
    assert_eq!(values(layout!(compose(AP, BP))), a_after_b());
}

#[test]
fn re_exports() {
    assert_eq!(values(layout!(compose(a::P, c::P))), a_after_b());
    assert_eq!(values(layout!(compose(a::P, d::Q))), a_after_b());
}

#[test]
fn glob_imports() {
    assert_eq!(glob::compose_glob(), a_after_b());
}

#[test]
fn a_local_item_and_a_module_item_of_the_same_name() {
    layout! {
        /// A local item named like `a::P`, with `b::P`'s layout.
        const P = (3,2):(1,3), logical -> logical;
    }
    assert_eq!(values(layout!(compose(a::P, P))), a_after_b());
    assert_eq!(
        values(layout!(compose(P, a::P))),
        compose_brute(&b_p(), &a_p())
    );
}

#[test]
fn two_paths_to_one_item() {
    assert_eq!(
        values(layout!(compose(a::P, crate::a::P))),
        compose_brute(&a_p(), &a_p())
    );
    use b::P as Same;
    assert_eq!(
        values(layout!(compose(compose(a::P, Same), b::P))),
        compose_brute(&a_after_b(), &b_p())
    );
}

/// Alternative definitions of one item under `#[cfg]`: the item's `cfg` governs its hidden
/// definition macro and that macro's re-export too, so the two do not collide, and an operand
/// reads the definition that is compiled in.
pub mod cfg_alternatives {
    layout_typed::layout! {
        #[cfg(all())]
        pub const Q = (2,3):(1,2), logical -> logical;
        #[cfg(any())]
        pub const Q = (3,2):(1,3), logical -> logical;
        #[cfg(all())]
        pub const X = (3,2):(1,3), logical -> physical;
        #[cfg(any())]
        pub const X = (2,3):(1,2), logical -> physical;
    }
}

#[test]
fn cfg_alternatives_resolve_to_the_compiled_definition() {
    let got = values(layout!(compose(cfg_alternatives::X, cfg_alternatives::Q)));
    assert_eq!(
        got,
        compose_brute(&brute(&[(3, 1), (2, 3)]), &brute(&[(2, 1), (3, 2)]))
    );
}

/// Declares an item whose right-hand side is a path handed in by `macro_rules!` (`$p:path`,
/// which reaches `layout!` as a group without delimiters).
macro_rules! item_of_path {
    ($name:ident = $p:path) => {
        layout_typed::layout! {
            pub const $name = $p;
        }
    };
}

/// Items naming an operand through a forwarded path, in every path form.
pub mod forwarded {
    item_of_path!(AP = super::a::P);
    item_of_path!(BP = super::b::P);
    item_of_path!(CP = self::super::c::P);
    item_of_path!(DQ = super::d::Q);
}

/// An item whose right-hand side is a forwarded path is the operand it names, as when the
/// path is written in place.
#[test]
fn an_item_of_a_forwarded_path_is_its_operand() {
    assert_eq!(values(forwarded::AP), a_p());
    assert_eq!(values(forwarded::BP), b_p());
    assert_eq!(values(forwarded::CP), b_p());
    assert_eq!(values(forwarded::DQ), b_p());
    assert_eq!(
        values(layout!(compose(forwarded::AP, forwarded::BP))),
        a_after_b()
    );
}

/// Hands an operand to `layout!` as a `macro_rules!` fragment of each kind.
macro_rules! operand_alone {
    (path $p:path) => {
        layout!($p)
    };
    (expr $p:expr) => {
        layout!(compose($p, b::P))
    };
}

/// A path alone is an expression of its own (the grammar's `expr := path`, as the command
/// reads `explain NAME --def ..`): the operand itself, in every path form, written in place
/// and handed in by `macro_rules!`; and operand paths with their `::` written apart, which the
/// core reads whitespace-free, reach Rust as the same path.
#[test]
fn a_path_alone_and_paths_written_apart() {
    assert_eq!(values(layout!(a::P)), a_p());
    assert_eq!(values(layout!(crate::b::P)), b_p());
    assert_eq!(values(layout!(self::a::P)), a_p());
    assert_eq!(values(layout!(d::Q)), b_p());
    use a::P as AP;
    assert_eq!(values(layout!(AP)), a_p());
    assert_eq!(values(operand_alone!(path crate::a::P)), a_p());
    assert_eq!(values(operand_alone!(expr a::P)), a_after_b());
    assert_eq!(values(layout!(compose(crate: :a: :P, b::P))), a_after_b());
    assert_eq!(
        values(layout!(compose(self :: a :: P, crate : : b::P))),
        a_after_b()
    );
}

/// `compose(P, Q)` of two one-segment names fetches both definitions without the macro's
/// first expansion (`layout!` reads the form itself); the value is the one the paths give.
/// A name used twice is fetched twice, as the same item.
#[test]
fn one_segment_names() {
    use a::P as AP;
    use b::P as BP;
    assert_eq!(
        values(layout!(compose(BP, AP))),
        compose_brute(&b_p(), &a_p())
    );
    assert_eq!(
        values(layout!(compose(AP, AP))),
        compose_brute(&a_p(), &a_p())
    );
    assert_eq!(
        values(layout!(compose(AP, AP))),
        values(layout!(compose(self::a::P, a::P)))
    );
}

/// Any other operation of one parenthesized group goes to the macro as written: the same
/// value as through a path.
#[test]
fn other_operations_of_names() {
    use a::P as AP;
    assert_eq!(
        values(layout!(inverse(AP))),
        values(layout!(inverse(self::a::P)))
    );
    let inv = values(layout!(inverse(AP)));
    assert_eq!(compose_brute(&a_p(), &inv), (0..6).collect::<Vec<i64>>());
}

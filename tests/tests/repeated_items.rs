//! The same `pub` items, token for token, in several modules: one `macro_rules!` repetition,
//! and one file `include!`d twice. Each item's exported definition macro gets a name of its
//! own at the crate's root (a clash is E0428, which fails this file's build), and each item is
//! usable as an operand; offsets against a brute-force evaluation.

use layout_typed::Layout;

macro_rules! twice {
    ($($m:ident)*) => {
        $(
            pub mod $m {
                layout_typed::layout! {
                    pub const L = (4,4):(4,1), logical -> physical;
                }
            }
        )*
    };
}

twice!(x y);

pub mod i1 {
    include!("repeated_items/items.rs");
}
pub mod i2 {
    include!("repeated_items/items.rs");
}

pub mod uses {
    layout_typed::layout! {
        pub const D = compose(super::x::L, [(thread: 4, value: 4):(4,1), thread-value -> logical]);
        pub const E = compose(super::i2::L, [(thread: 4, value: 4):(4,1), thread-value -> logical]);
    }
}

/// `(4,4):(4,1)` at every flat index (last mode fastest).
fn row_major() -> Vec<i64> {
    (0..16).map(|i| (i / 4) * 4 + i % 4).collect()
}

fn vals<T: Layout>(l: T) -> Vec<i64> {
    (0..T::SIZE)
        .map(|i| layout_typed::IndexType::to_isize(l.offset_index(i)) as i64)
        .collect()
}

#[test]
fn every_copy_is_its_declaration() {
    for v in [vals(x::L), vals(y::L), vals(i1::L), vals(i2::L)] {
        assert_eq!(v, row_major());
    }
}

#[test]
fn copies_as_operands() {
    // The thread-value map is the identity on 0..16; thread 2 is 8..12.
    let want: Vec<i64> = row_major()[8..12].to_vec();
    assert_eq!(
        vals(layout_typed::layout!(restrict(uses::D, thread = 2))),
        want
    );
    assert_eq!(
        vals(layout_typed::layout!(restrict(uses::E, thread = 2))),
        want
    );
    assert_eq!(
        vals(
            layout_typed::layout!(restrict(compose(y::L, [(thread: 4, value: 4):(4,1), thread-value -> logical]), thread = 2))
        ),
        want
    );
}

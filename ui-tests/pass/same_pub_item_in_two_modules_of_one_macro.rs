// One `macro_rules!` declares the same `pub` layout under one name in two modules (say, one per
// element type). The name is one token of one span in both expansions and the declarations are
// the same text; each item's exported definition macro still gets a name of its own at the
// crate's root.
macro_rules! per_module {
    ($n:ident) => {
        pub mod a {
            layout_typed::layout! { pub const $n = (4,4):(4,1), logical -> physical; }
        }
        pub mod b {
            layout_typed::layout! { pub const $n = (4,4):(4,1), logical -> physical; }
        }
    };
}
per_module!(P);

// The same through a helper macro that writes the item: one `;` token, expanded twice.
macro_rules! item {
    ($n:ident) => {
        layout_typed::layout! { pub const $n = (2,8):(8,1), logical -> physical; }
    };
}
macro_rules! per_module_through_a_helper {
    ($n:ident) => {
        pub mod c {
            item!($n);
        }
        pub mod d {
            item!($n);
        }
    };
}
per_module_through_a_helper!(Q);

fn main() {
    use layout_typed::Layout;
    let a = layout_typed::layout!(restrict(a::P, 0 = 1));
    let b = layout_typed::layout!(restrict(b::P, 0 = 1));
    assert_eq!((0..4).map(|i| a.offset_index(i)).collect::<Vec<_>>(), [4, 5, 6, 7]);
    assert_eq!((0..4).map(|i| b.offset_index(i)).collect::<Vec<_>>(), [4, 5, 6, 7]);
    let c = layout_typed::layout!(restrict(c::Q, 0 = 1));
    let d = layout_typed::layout!(restrict(d::Q, 0 = 1));
    assert_eq!((0..8).map(|i| c.offset_index(i)).collect::<Vec<_>>(), [8, 9, 10, 11, 12, 13, 14, 15]);
    assert_eq!((0..8).map(|i| d.offset_index(i)).collect::<Vec<_>>(), [8, 9, 10, 11, 12, 13, 14, 15]);
}

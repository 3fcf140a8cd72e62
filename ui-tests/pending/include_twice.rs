// One file of `layout!` items included in two modules (a common way to share declarations):
// each module gets its own items. A `pub` item's exported definition macro is named by a hash of
// the item's name, its span and its text, which are the same for both inclusions (an included
// file's tokens keep their spans), so the two `#[macro_export]` macros collide at the crate root
// (E0428); private items build.
use layout_typed::prelude::*;

mod a {
    include!("include_twice_items.in");
}
mod b {
    include!("include_twice_items.in");
}

fn main() {
    // (4,8):(8,1) at flat 9 (row 1, column 1): 9; (4,8):(1,4) there: 1 + 4 = 5.
    assert_eq!(a::values(), [9, 5]);
    assert_eq!(b::values(), [9, 5]);
    let id = layout!([(32):(1), logical -> logical]);
    assert_eq!(compose(a::INC, id).offset(9usize), 9);
    assert_eq!(layout!(compose(b::INC, [(32):(1), logical -> logical])).offset(9usize), 9);
}

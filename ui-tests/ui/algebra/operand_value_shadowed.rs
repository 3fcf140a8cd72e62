// An operand names one item: the declaration `layout!` reads (through the item's hidden macro)
// and the value Rust resolves must agree. Here a glob import brings `a::P` (macro and value)
// and a `const` shadows only the value with `b::P`, a different layout: refused at the operand.
use layout_typed::prelude::*;

mod a {
    layout_typed::layout! { pub const P = (2,3):(1,2), logical -> physical; }
}
mod b {
    layout_typed::layout! { pub const P = (2,3):(3,1), logical -> physical; }
}
layout! { const I = (6):(1), logical -> logical; }

mod m {
    use crate::a::*;
    use layout_typed::prelude::*;
    pub const P: crate::b::P = crate::b::P;

    pub fn f() {
        let _mac = layout!(compose(P, crate::I));
    }
}

fn main() {
    m::f();
}

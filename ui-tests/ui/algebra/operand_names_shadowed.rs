// The names of an operand's modes are part of its declaration: here `a::P` and `b::P` are the
// same layout with their names swapped, a glob import brings `a::P` (macro and value) and a
// `const` shadows only the value with `b::P`. `restrict(P, x = 1)` reads `x` off `a::P`'s
// declaration (the first mode) while Rust's `P` is `b::P` (whose `x` is the second): refused at
// the operand, because the names' fingerprint is part of the type.

mod a {
    layout_typed::layout! { pub const P = (x: 2, y: 3):(1, 2), logical -> physical; }
}
mod b {
    layout_typed::layout! { pub const P = (y: 2, x: 3):(1, 2), logical -> physical; }
}

mod m {
    use crate::a::*;
    use layout_typed::prelude::*;
    pub const P: crate::b::P = crate::b::P;

    pub fn f() {
        let _row = layout!(restrict(P, x = 1));
    }
}

fn main() {
    m::f();
}

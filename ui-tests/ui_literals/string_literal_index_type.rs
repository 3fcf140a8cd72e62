// A string literal is read back as text only where a definition's declaration stands
// (`[PATH = "..."]`, which a declared item's definition macro writes); anywhere else it is a
// literal, which the grammar never accepts: `index = "u32"` in a bracketed literal operand is
// refused at the literal.
use layout_typed::prelude::*;

fn main() {
    let _l = layout!([(4,8):(16,1), logical -> physical, index = "u32"]);
}

// A string literal is read back as text only where a definition's declaration stands
// (`[PATH = "..."]`, which a declared item's definition macro writes); anywhere else it is a
// literal, which the grammar never accepts. The read-back also fires after the `=` of an
// option inside a bracketed literal operand, so `index = "u32"` is taken as `index = u32`.
use layout_typed::prelude::*;

fn main() {
    let _l = layout!([(4,8):(16,1), logical -> physical, index = "u32"]);
}

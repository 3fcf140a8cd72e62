// A literal operand that breaks a rule is reported as a declaration would be: the rule at the
// stride, and nothing else.
use layout_typed::prelude::*;

fn main() {
    let _tiles = layout!(divide([(2,2):(1,1), logical -> physical], (2,2)));
}

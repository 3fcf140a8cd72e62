// An empty run-time leaf `{}`: the message should name the leaf, not a function's arguments.
use layout_typed::prelude::*;

fn main() {
    let (k, ld) = (4usize, 4usize);
    let _ = layout!(divide([({}, {k}):({ld}, 1), logical -> physical], (2, 2)));
}

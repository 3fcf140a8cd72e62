// An empty run-time leaf `{}`: Rust reads the block and reports its type, `()`, at its braces.
use layout_typed::prelude::*;

fn main() {
    let (k, ld) = (4usize, 4usize);
    let _ = layout!(divide([({}, {k}):({ld}, 1), logical -> physical], (2, 2)));
}

// An empty run-time leaf `{}`: an error at the leaf, with what a leaf is.
use layout_typed::prelude::*;

fn main() {
    let (k, ld) = (4usize, 4usize);
    let _ = layout!(divide([({}, {k}):({ld}, 1), logical -> physical], (2, 2)));
}

// A run-time coordinate with 3 components for an entry of 2 modes: a rule that fails whatever
// the values, so a compile error (it is the value's `Err` at run time instead).
use layout_typed::prelude::*;

fn main() {
    let (m, k, ld, i, j) = (8usize, 4usize, 4usize, 1usize, 0usize);
    let _ = layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (2, 2)), rest = (i, j, 0)));
}

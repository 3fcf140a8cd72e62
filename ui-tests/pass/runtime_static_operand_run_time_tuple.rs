// A run-time coordinate `(i, j)` of a static operand's entry, as a run-time operand takes it.
use layout_typed::prelude::*;

fn main() {
    let (i, j) = (1usize, 2usize);
    let d =
        layout!(restrict(divide([(16, 16):(16, 1), logical -> physical], (4, 4)), rest = (i, j)));
    assert_eq!(d.offset((0usize, 0usize)), 64 + 8);
}

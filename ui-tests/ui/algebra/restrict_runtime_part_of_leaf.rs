use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
}

fn main() {
    // Entry 1 is one leaf of 32: a run-time value for it is one integer, not a tuple.
    let (k, j) = (1usize, 2usize);
    let _slice = layout!(restrict(SMEM, 1 = (k, j)));
}

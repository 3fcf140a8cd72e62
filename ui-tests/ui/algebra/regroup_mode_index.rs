use layout_typed::prelude::*;

layout! {
    const SMEM = (m: 4, n: 8, k: 2):(16, 2, 1), logical -> physical;
}

fn main() {
    let _picked = layout!(select(SMEM, (0, 3)));
}

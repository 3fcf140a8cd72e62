use layout_typed::prelude::*;

layout! {
    const SMEM = (m: 4, n: 8, k: 2):(16, 2, 1), logical -> physical;
}

fn main() {
    let _reordered = layout!(permute(SMEM, (1, 0)));
}

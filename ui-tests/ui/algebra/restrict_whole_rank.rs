use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
}

fn main() {
    // One value per top-level entry: SMEM has two.
    let _slice = layout!(restrict(SMEM, (_, 1, 2)));
}

use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
    const TV = (thread: 128, value: 4):(4,1), thread-value -> logical;
}

fn main() {
    let warp = 2;
    let _slice = layout!(restrict(compose(SMEM, TV), warp = warp));
}

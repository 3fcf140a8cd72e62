use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
    const TV = (64,4):(4,1), thread-value -> logical;
}

fn main() {
    let _addr = layout!(compose(SMEM, TV));
}

use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
    const TV = (128,4):(4,1), thread-value -> logical;
}

fn main() {
    let _addr = layout!(compose(SMEM, transpose(TV)));
}

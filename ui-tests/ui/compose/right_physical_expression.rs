use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
    const TV = (128,4):(4,1), thread-value -> logical;
}

fn main() {
    let _bad = compose(SMEM, layout!(compose(SMEM, TV)));
}

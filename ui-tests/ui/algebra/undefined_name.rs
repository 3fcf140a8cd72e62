use layout_typed::prelude::*;

layout! {
    const TV = (128,4):(4,1), thread-value -> logical;
}

fn main() {
    let _addr = layout!(compose(SMEM, TV));
}

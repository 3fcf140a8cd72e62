use layout_typed::prelude::*;

layout! {
    const SMEM = (4,6):(8,1), logical -> physical;
    const TV = (thread: 4, value: 6):(1,4), thread-value -> logical;
}

fn main() {
    let _values = layout!(select(compose(SMEM, TV), 1));
}

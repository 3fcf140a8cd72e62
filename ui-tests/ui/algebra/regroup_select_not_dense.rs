use layout_typed::prelude::*;

layout! {
    const TV = (thread: 4, value: 6):(1,4), thread-value -> logical;
}

fn main() {
    // The values of thread 0: positions 0, 4, .., 20, not a dense bijection.
    let _values = layout!(select(TV, 1));
}

use layout_typed::prelude::*;

layout! {
    const TV = (thread: 128, value: 4):(4,1), thread-value -> logical;
}

fn main() {
    let _slice = layout!(restrict(TV, thread = 3));
}

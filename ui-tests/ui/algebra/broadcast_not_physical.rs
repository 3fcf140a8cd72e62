use layout_typed::prelude::*;

layout! {
    const TV = (32,4):(4,1), thread-value -> logical;
}

fn main() {
    let _copies = layout!(broadcast(TV, (4)));
}

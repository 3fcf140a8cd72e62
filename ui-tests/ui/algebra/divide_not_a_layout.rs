use layout_typed::prelude::*;

layout! {
    const PADDED = (2,6):(7,1), logical -> physical;
    const TV = (3,4):(4,1), thread-value -> logical;
}

fn main() {
    let _tiles = layout!(divide(compose(PADDED, TV), (3, 2)));
}

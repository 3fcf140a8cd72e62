use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
}

fn main() {
    let row = 3;
    let _tiles = layout!(divide(restrict(SMEM, 0 = row), (8)));
}

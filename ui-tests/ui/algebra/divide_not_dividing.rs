use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
}

fn main() {
    let _tiles = layout!(divide(SMEM, (16, 12)));
}

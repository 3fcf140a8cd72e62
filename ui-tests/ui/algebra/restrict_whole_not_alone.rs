use layout_typed::prelude::*;

layout! {
    const SMEM = (16,32):(32,1), logical -> physical;
}

fn main() {
    // The whole-domain value is the one argument after the map.
    let _slice = layout!(restrict(SMEM, (_, 1), 0 = 2));
}

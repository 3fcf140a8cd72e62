use layout_typed::prelude::*;

layout! {
    const TILE = (4,8):(8,1), logical -> physical;
    const COPIES = (2,2):(4,1), logical -> physical;
}

fn main() {
    let _raked = layout!(repeat_modewise_raked(TILE, COPIES));
}

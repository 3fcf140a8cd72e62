use layout_typed::prelude::*;

layout! {
    const STAGE = (8,8):(8,1), logical -> physical;
}

fn main() {
    let _stages = layout!(repeat(STAGE, (2,2):(4,1)));
}

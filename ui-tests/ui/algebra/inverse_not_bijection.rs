use layout_typed::prelude::*;

layout! {
    const PADDED = (4,6):(8,1), logical -> physical;
}

fn main() {
    let _inv = layout!(inverse(PADDED));
}

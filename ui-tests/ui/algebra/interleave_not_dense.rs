use layout_typed::prelude::*;

layout! {
    const VALUES = (value: 4):(1), logical -> physical;
    const LANES = (8,4):(8,1), logical -> physical;
}

fn main() {
    let _mixed = layout!(interleave(VALUES, LANES));
}

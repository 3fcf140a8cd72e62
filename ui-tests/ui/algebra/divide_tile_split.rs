use layout_typed::prelude::*;

layout! {
    const NESTED = ((4,6),8):((48,8),1), logical -> physical;
}

fn main() {
    let _tiles = layout!(divide(NESTED, (4, 8)));
}

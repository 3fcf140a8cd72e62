use layout_typed::prelude::*;

layout! {
    /// A 4x6 tile whose columns are split into two modes.
    const TILED = (4,2,3):(8,3,1), logical(4, 6) -> physical;
}

fn main() {
    let _reordered = layout!(permute(TILED, (2, 1, 0)));
}

use layout_typed::prelude::*;

layout! {
    /// An 8×64 K-major tile: two top-level modes.
    const ATOM = cute (8,64):(64,1), logical -> physical;
}

fn main() {
    // One arrangement mode for two modes of the tile.
    let _tiled = layout!(repeat_modewise(ATOM, (16):(1)));
}

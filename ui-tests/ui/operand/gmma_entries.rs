use layout_typed::layout;

layout! {
    // Three entries: two stages of a 16×64 tile, not one tile.
    const TILE = (2,16,64):(1024,1,16), logical -> physical, wgmma K-major of 16-bit elements;
}

fn main() {}

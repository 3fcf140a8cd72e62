use layout_typed::layout;

layout! {
    // `wgmma` without its major-ness.
    const TILE = cute (64,16):(64,1), logical -> physical, wgmma K of 16-bit elements;
}

fn main() {}

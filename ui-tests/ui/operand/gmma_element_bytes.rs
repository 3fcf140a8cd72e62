use layout_typed::layout;

layout! {
    // A wgmma operand of 8-byte elements.
    const TILE = cute (64,16):(64,1), logical -> physical, wgmma K-major of 64-bit elements;
}

fn main() {}

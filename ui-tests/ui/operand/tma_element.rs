use layout_typed::layout;

layout! {
    // A tensor map of 16-byte elements.
    const TILE = cute (64,64):(64,1), logical -> physical, tma box of 128-bit elements;
}

fn main() {}

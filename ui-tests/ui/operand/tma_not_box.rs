use layout_typed::layout;

layout! {
    // Rows padded to 72 elements: a tensor map writes the box densely.
    const TILE = cute (64,64):(72,1), logical -> physical, tma box of 16-bit elements;
}

fn main() {}

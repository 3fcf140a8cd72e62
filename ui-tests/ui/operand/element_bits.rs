use layout_typed::layout;

layout! {
    // A width that is not whole bytes.
    const TILE = cute (64,16):(64,1), logical -> physical, tma box of 4-bit elements;
}

fn main() {}

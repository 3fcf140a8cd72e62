use layout_typed::layout;

layout! {
    // The same clause twice.
    const TILE = cute (64,64):(64,1), logical -> physical, tma box of 16-bit elements, tma box;
}

fn main() {}

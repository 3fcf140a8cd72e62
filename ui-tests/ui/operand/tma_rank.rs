use layout_typed::layout;

layout! {
    // Six dimensions.
    const TILE = (2,2,2,2,2,8):(128,64,32,16,8,1), logical -> physical, tma box of 16-bit elements;
}

fn main() {}

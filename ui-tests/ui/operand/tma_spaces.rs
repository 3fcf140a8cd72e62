use layout_typed::layout;

layout! {
    // A thread-value layout is no shared-memory tile.
    const TILE = cute (64,8):(1,64), thread-value -> logical, tma box of 16-bit elements;
}

fn main() {}

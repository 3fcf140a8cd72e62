use layout_typed::prelude::*;

layout! {
    const TILE = (8192,4096):(4096,1), logical -> physical, index = i32;
}

fn main() {
    // Offsets pass 2^31 only past flat index 2^24, where bit 24 reaches the swizzle's source.
    let _s = layout!(swizzle(TILE, b = 4, src = 21, dst = 28));
}

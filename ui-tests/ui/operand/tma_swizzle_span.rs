use layout_typed::layout;

layout! {
    // 256-byte rows under the 128-byte swizzle.
    const TILE = cute (64,128):(128,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, tma box;
}

fn main() {}

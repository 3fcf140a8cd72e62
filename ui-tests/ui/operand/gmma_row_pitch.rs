use layout_typed::layout;

layout! {
    // The 64-byte rows of the SW64 atom under the 128-byte swizzle.
    const TILE = cute (64,16):(32,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major;
}

fn main() {}

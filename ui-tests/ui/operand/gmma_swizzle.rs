use layout_typed::layout;

layout! {
    // CuTe's element-offset swizzle of fp16 written over bytes.
    const TILE = cute (64,16):(64,1), logical -> physical, Swizzle<3,3,3> over bytes of 16-bit elements, wgmma K-major;
}

fn main() {}

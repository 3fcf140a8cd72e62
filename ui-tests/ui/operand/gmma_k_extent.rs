use layout_typed::layout;

layout! {
    // K spans 32 fp16 elements, two wgmma's worth.
    const TILE = cute (64,32):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major;
}

fn main() {}

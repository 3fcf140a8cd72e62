use layout_typed::layout;

layout! {
    // An MN-major tile asked for as K-major.
    const TILE = cute (64,16):(1,64), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major;
}

fn main() {}

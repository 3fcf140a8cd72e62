use layout_typed::layout;

layout! {
    // The swizzle says 16-bit, the clause 32-bit.
    const TILE = cute (64,16):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major of 32-bit elements;
}

fn main() {}

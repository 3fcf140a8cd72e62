use layout_typed::layout;

layout! {
    // The two 16-byte chunks of K 32 bytes apart in a 128-byte swizzled row.
    const TILE = cute (64,(8,2)):(64,(1,16)), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major;
}

fn main() {}

use layout_typed::layout;

layout! {
    // No swizzle over bytes, and no element width.
    const TILE = cute (64,16):(64,1), logical -> physical, wgmma K-major;
}

fn main() {}

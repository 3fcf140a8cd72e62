use layout_typed::layout;

layout! {
    // Groups of 8 rows at two strides along M.
    const TILE = cute ((8,2,4),16):((64,512,2048),1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma K-major;
}

fn main() {}

use layout_typed::layout;

layout! {
    // An MN-major 128-byte-swizzled tile of 32 rows: half an atom.
    const TILE = cute (32,16):(1,64), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, wgmma MN-major;
}

fn main() {}

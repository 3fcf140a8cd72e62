use layout_typed::layout;

layout! {
    // A box 512 rows tall.
    const TILE = cute (512,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements, tma box;
}

fn main() {}

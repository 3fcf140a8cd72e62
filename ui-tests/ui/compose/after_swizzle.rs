use layout_typed::prelude::*;

fn main() {
    let smem = layout!((8,64):(64,1), logical -> physical, Swizzle<3,4,3> over bytes of 16-bit elements);
    let gmem = layout!((8,64):(64,1), logical -> physical);
    let _bad = compose(gmem, smem);
}

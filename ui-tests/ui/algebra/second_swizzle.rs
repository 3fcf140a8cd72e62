use layout_typed::prelude::*;

layout! {
    const SMEM = (8,64):(64,1), logical -> physical, swizzle(b = 3, src = 7, dst = 4);
}

fn main() {
    let _twice = layout!(swizzle(SMEM, b = 2, src = 4, dst = 0));
}

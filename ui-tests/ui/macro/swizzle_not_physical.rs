use layout_typed::layout;

fn main() {
    let _l = layout!((8,64):(64,1), logical -> logical, Swizzle<3,4,3> over bytes of 16-bit elements);
}

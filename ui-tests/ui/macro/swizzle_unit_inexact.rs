use layout_typed::layout;

fn main() {
    // Over bytes, Swizzle<1,2,3> moves 4-byte pieces: halves of 8-byte elements.
    let _l = layout!((8,8):(8,1), logical -> physical, Swizzle<1,2,3> over bytes of 64-bit elements);
}

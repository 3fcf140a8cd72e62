use layout_typed::layout;

fn main() {
    // CuTe's 128-byte swizzle pasted over fp16 element offsets without saying so.
    let _l = layout!((8,64):(64,1), logical -> physical, Swizzle<3,4,3>);
}

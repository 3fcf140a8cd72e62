use layout_typed::layout;

fn main() {
    // A swizzle acts on the bits of non-negative offsets.
    let _l = layout!((8,64):(-64,1), logical -> physical, Swizzle<3,3,3> over elements);
}

use layout_typed::layout;

fn main() {
    let _l = layout!((8,64):(64,1), logical -> physical, swizzle(b = 3, src = -6, dst = 3));
}

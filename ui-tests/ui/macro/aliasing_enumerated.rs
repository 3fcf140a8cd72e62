use layout_typed::layout;

fn main() {
    // No pair of modes explains the collision: the exact enumeration finds it.
    let _l = layout!((2,3,5):(7,5,3), logical -> physical);
}

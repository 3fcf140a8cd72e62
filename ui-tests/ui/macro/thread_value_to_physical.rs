use layout_typed::layout;

fn main() {
    // Thread-value -> physical exists only as a composite.
    let _l = layout!((128,4):(4,1), thread-value -> physical);
}

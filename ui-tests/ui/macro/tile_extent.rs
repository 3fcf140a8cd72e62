use layout_typed::layout;

fn main() {
    let _l = layout!((128,4):(4,1), thread-value -> logical(0,512));
}

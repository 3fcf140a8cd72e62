use layout_typed::layout;

fn main() {
    let _t = layout!((32,4):(8,1), logical -> thread-value);
}

use layout_typed::layout;

fn main() {
    let _l = layout!((0,4):(4,1), logical -> physical);
}

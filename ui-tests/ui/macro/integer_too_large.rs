use layout_typed::layout;

fn main() {
    let _l = layout!((99999999999999999999,4):(4,1), logical -> physical);
}

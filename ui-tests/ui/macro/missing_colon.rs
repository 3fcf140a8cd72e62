use layout_typed::layout;

fn main() {
    let _l = layout!((16,32) (32,1), logical -> physical);
}

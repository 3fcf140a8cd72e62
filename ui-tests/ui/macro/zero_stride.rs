use layout_typed::layout;

fn main() {
    let _l = layout!((4,8):(0,1), logical -> physical);
}

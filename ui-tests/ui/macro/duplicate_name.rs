use layout_typed::layout;

fn main() {
    let _l = layout!((a: 4, a: 8):(8,1), logical -> physical);
}

use layout_typed::layout;

fn main() {
    let _l = layout!(((2,2),8):(4,1), logical -> physical);
}

use layout_typed::layout;

fn main() {
    let _l = layout!((4294967296,4294967296):(4294967296,1), logical -> physical);
}

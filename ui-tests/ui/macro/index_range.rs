use layout_typed::layout;

fn main() {
    let _l = layout!((65536,65536):(65536,1), logical -> physical, index = i32);
}

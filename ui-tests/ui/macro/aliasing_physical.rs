use layout_typed::layout;

fn main() {
    // Rows of 8 elements 4 apart overlap: (1,0) and (0,4) share offset 4.
    let _l = layout!((4,8):(4,1), logical -> physical);
}

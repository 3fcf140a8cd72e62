use layout_typed::prelude::*;

fn main() {
    let smem = layout!((16,32):(32,1), logical -> physical);
    let tv = layout!((64,4):(4,1), thread-value -> logical);
    let _bad = compose(smem, tv);
}

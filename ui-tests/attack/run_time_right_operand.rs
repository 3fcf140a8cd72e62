// A run-time thread count in the right operand of a composition with a static left operand of
// 16·32 positions: valid for t = 128.
use layout_typed::prelude::*;

layout! {
    const SMEM = (16, 32):(32, 1), logical -> physical;
}

fn main() {
    let t = 128usize;
    let p = layout!(compose(SMEM, [({t}, 4):(4, 1), thread-value -> logical])).unwrap();
    assert_eq!(p.offset((5usize, 2usize)), 22);
}

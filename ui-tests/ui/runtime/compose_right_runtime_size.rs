use layout_typed::prelude::*;

layout! {
    const SMEM = (16, 32):(32, 1), logical -> physical;
}

fn main() {
    let t = 128usize;
    // A run-time thread count in the right operand: it must enumerate SMEM's 512 positions,
    // a static number, so its size must be static too.
    let _ = layout!(compose(SMEM, [({t}, 4):(4, 1), thread-value -> logical]));
}

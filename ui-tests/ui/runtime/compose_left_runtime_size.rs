use layout_typed::prelude::*;

layout! {
    const TV = (thread: 128, value: 4):(4, 1), thread-value -> logical;
}

fn main() {
    let (m, ld) = (512usize, 1usize);
    // The whole run-time matrix as the left operand: its size is m, not TV's 512.
    let _ = layout!(compose([({m}):({ld}), logical -> physical], TV));
}

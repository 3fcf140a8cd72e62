use layout_typed::prelude::*;

fn main() {
    let (m, ld) = (256usize, 264usize);
    // The static part of a run-time operand is checked while compiling: a zero stride.
    let _ = layout!(divide([({m}, 64, 2):({ld}, 1, 0), logical -> physical], (128, 64, 2)));
}

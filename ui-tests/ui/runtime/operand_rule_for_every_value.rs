use layout_typed::prelude::*;

fn main() {
    let (m, ld) = (256usize, 264usize);
    // An operation's rule that holds for every run-time value: the tile has one entry too many.
    let _ = layout!(divide([({m}, 64):({ld}, 1), logical -> physical], (128, 64, 2)));
}

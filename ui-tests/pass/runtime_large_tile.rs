// A tile of 2^21 positions that divides the run-time size 2^22.
use layout_typed::prelude::*;

fn main() {
    let m = 1usize << 22;
    let d = layout!(divide([({m}):(1), logical -> physical], (2097152))).unwrap();
    assert_eq!(d.size(), m);
}

// Tiles 1021 and 1031 (their product past 2^20) divide the run-time sizes 1021 and 1031.
use layout_typed::prelude::*;

fn main() {
    let (m, n) = (1021usize, 1031usize);
    let d = layout!(divide([({m}, {n}):({n}, 1), logical -> physical], (1021, 1031))).unwrap();
    assert_eq!(d.size(), m * n);
}

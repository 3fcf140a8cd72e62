// An i32 index and 32768×32768 tiles: m = k = ld = 32768 gives offsets below 2^30.
use layout_typed::prelude::*;

fn main() {
    let (m, k, ld) = (32768usize, 32768usize, 32768usize);
    let d =
        layout!(divide([({m}, {k}):({ld}, 1), logical -> physical, index = i32], (32768, 32768)))
            .unwrap();
    assert_eq!(d.offset_range(), (0, (1 << 30) - 1));
}

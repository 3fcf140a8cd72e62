// Valid layouts with strides near 2^62 compose under `cargo build`, not only `cargo check`:
// the compile-time decision of the composite uses checked arithmetic.
use layout_typed::prelude::*;

layout! {
    const BIG = (4,2):(2305843009213693952,1), logical -> physical;
    const BIG_TV = (2,4):(1,2), thread-value -> logical;
    const WIDE = (2,2,2):(4611686018427387903,1537228672809129301,1), logical -> physical;
    const WIDE_TV = (2,2,2):(1,2,4), thread-value -> logical;
}

fn main() {
    let c = compose(BIG, BIG_TV);
    assert_eq!(c.offset((1usize, 3usize)), 1 + 3 * (1i64 << 61));
    let w = compose(WIDE, WIDE_TV);
    // (c0, c1, c2) -> p = c0 + 2 c1 + 4 c2 -> WIDE at p (last mode fastest).
    for p in 0..8usize {
        let want = (p / 4) as i64 * 4611686018427387903
            + (p / 2 % 2) as i64 * 1537228672809129301
            + (p % 2) as i64;
        assert_eq!(w.offset((p % 2, (p / 2) % 2, p / 4)), want);
    }
}

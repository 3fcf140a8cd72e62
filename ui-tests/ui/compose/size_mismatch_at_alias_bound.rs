use layout_typed::prelude::*;

fn main() {
    // 4096×4096 positions (2^24) against 8192×4096 (2^25): sizes named differently in the
    // expansion, printed alike.
    let big = layout!((8192,4096):(4096,1), logical -> physical);
    let tv = layout!((4096,4096):(4096,1), thread-value -> logical);
    let _bad = compose(big, tv);
}

use layout_typed::prelude::*;

fn main() {
    let (m, k, ld) = (4usize, 8usize, 10usize);
    // A padded matrix keeps two leaves, a contiguous one (ld = k) merges them: the result's
    // modes depend on the run-time values.
    let _ = layout!(coalesce([({m}, {k}):({ld}, 1), logical -> physical]));
}

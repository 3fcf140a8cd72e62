// Run-time leaves are integers: floating-point values and `bool` do not convert silently.
use layout_typed::prelude::*;

fn main() {
    let (m, ld, b) = (16.0f32, 64.0f64, true);
    let a = layout!(({m}, 64):(64, 1), logical -> physical);
    let c = layout!((16, 64):({ld}, 1), logical -> physical);
    let d = layout!((16, 64):({b}, 1), logical -> physical);
}

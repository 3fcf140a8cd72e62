// `Composed` is made by `compose` only (its checks are its trait bounds).
use layout_typed::prelude::*;
use layout_typed::Composed;

fn main() {
    let smem = layout!((16,32):(32,1), logical -> physical);
    let tv = layout!((64,4):(4,1), thread-value -> logical);
    let a = Composed(smem, tv);
}

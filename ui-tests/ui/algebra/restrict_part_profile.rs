use layout_typed::prelude::*;

layout! {
    const Q = ((2,3),4):((1,2),6), logical -> physical;
}

fn main() {
    // Entry 0 is (2,3): a value for it has two parts.
    let _slice = layout!(restrict(Q, 0 = (_, 1, 2)));
}

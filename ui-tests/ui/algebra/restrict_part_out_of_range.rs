use layout_typed::prelude::*;

layout! {
    const Q = ((2,3),4):((1,2),6), logical -> physical;
}

fn main() {
    // The second part of entry 0 has 3 positions.
    let _slice = layout!(restrict(Q, 0 = (_, 3)));
}

use layout_typed::prelude::*;

fn main() {
    let tv = layout!((128,4):(4,1), thread-value -> logical);
    let perm = layout!((4,128):(1,4), logical -> logical);
    let _bad = compose(tv, perm);
}

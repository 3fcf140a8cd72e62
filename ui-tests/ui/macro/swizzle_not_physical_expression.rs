use layout_typed::prelude::*;

layout! {
    const TRANSPOSE = (8,16):(1,8), logical -> logical;
    const TV = (32,4):(4,1), thread-value -> logical;
}

fn main() {
    let _sw = layout!(swizzle(compose(TRANSPOSE, TV), b = 2, src = 4, dst = 0));
}

use layout_typed::prelude::*;

layout! {
    const B = (8,4):(1,8), logical -> logical;
}

fn main() {
    let _ = layout!(compose(_4, B));
}

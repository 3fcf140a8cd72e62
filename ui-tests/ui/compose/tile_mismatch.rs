use layout_typed::prelude::*;

fn main() {
    // The C fragment indexes a 16x8 (M x N) tile; this storage was written over an 8x16 one.
    let tv = layout!(cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8));
    let gc = layout!(cute (8,16):(1,8), logical(8,16) -> physical);
    let _bad = gc.compose(tv);
}

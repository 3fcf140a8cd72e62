use layout_typed::prelude::*;

layout! {
    /// The C fragment over a 16x8 (M x N) tile, CuTe order.
    const C = cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8);
}

fn main() {
    // An algebra result keeps its operand's tile shape, so the transposed storage is still
    // refused after `divide_modes`.
    let gc = layout!(cute (8,16):(1,8), logical(8,16) -> physical);
    let _bad = gc.compose(layout!(divide_modes(C, (2, 4))));
}

use layout_typed::prelude::*;

fn main() {
    let bits = [0u8; 64];
    let t = Tensor::new(&bits[..], layout!((8,8):(8,1), logical -> physical));
    let _flags = t.recast::<bool>(); // not every byte is a `bool`
}

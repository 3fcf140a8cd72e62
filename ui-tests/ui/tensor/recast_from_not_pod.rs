use layout_typed::prelude::*;

fn main() {
    let words = [(0u32, 0u16); 8]; // a tuple has padding bytes
    let t = Tensor::new(&words[..], layout!(8:1, logical -> physical));
    let _bytes = t.recast::<u8>();
}

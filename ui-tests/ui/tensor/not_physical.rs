use layout_typed::prelude::*;

fn main() {
    let buf = [0.0f32; 512];
    let tv = layout!((128,4):(4,1), thread-value -> logical);
    let _t = Tensor::new(&buf[..], tv);
}

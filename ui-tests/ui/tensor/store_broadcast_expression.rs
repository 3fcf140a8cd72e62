use layout_typed::prelude::*;

layout! {
    const ROW = 8:1, logical -> physical;
}

fn main() {
    let mut buf = [0.0f32; 8];
    let mut t = Tensor::new(&mut buf, layout!(broadcast(ROW, (4))));
    let _ = t.try_set((1usize, 2usize), 1.0);
}

use layout_typed::prelude::*;

fn main() {
    let mut buf = [0.0f32; 8];
    let rows = layout!((4,8):(_,1), logical -> physical);
    let mut t = Tensor::new(&mut buf, rows);
    t.set((1usize, 2usize), 1.0);
}

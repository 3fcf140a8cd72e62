use layout_typed::layout;

layout! {
    pub const SMEM = (16,32):(32,1), logical -> physical;
}

fn row(k: usize) {
    layout! {
        const ROW = restrict(SMEM, 0 = k);
    }
}

fn main() {}

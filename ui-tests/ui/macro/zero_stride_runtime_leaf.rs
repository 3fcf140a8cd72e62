use layout_typed::layout;

fn main() {
    let m = 16usize;
    let _g = layout!(({m}, 64):(64, 0), logical -> physical);
}

use layout_typed::layout;

fn tiles(m: usize) {
    layout! {
        const TILES = divide([({m}, 32):(32, 1), logical -> physical], (4, 8));
    }
}

fn main() {}

use layout_typed::layout;

fn main() {
    // Padded rows are fine in memory, but a map into logical space must be dense.
    let _l = layout!((4,8):(9,1), logical -> logical);
}

use layout_typed::layout;

layout! {
    pub const SMEM = (16,32):(32,1), logical -> physical;
    /// An item defined by an expression: its rules are checked as an expression's.
    pub const TILES = divide(SMEM, (16, 12));
}

fn main() {}

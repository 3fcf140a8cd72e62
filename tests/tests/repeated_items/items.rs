layout_typed::layout! {
    pub const L = (4,4):(4,1), logical -> physical;
}

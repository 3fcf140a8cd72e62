use layout_typed::layout;

fn main() {
    let _l = layout!((4,2):(_,1), logical -> logical);
}

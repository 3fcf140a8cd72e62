use layout_typed::layout;

fn main() {
    // Three independent mistakes, all reported by one invocation.
    let _l = layout!((4,8,2):(0,1,0), physical -> logical);
}

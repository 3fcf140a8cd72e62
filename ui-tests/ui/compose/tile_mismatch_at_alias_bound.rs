use layout_typed::prelude::*;

fn main() {
    // Tiles of 2×4096 and 1×8192 cover the same 8192 positions in different shapes.
    let tv = layout!((4096,2):(1,4096), thread-value -> logical(2,4096));
    let wide = layout!((1,8192):(8192,1), logical(1,8192) -> physical);
    let _bad = compose(wide, tv);
}

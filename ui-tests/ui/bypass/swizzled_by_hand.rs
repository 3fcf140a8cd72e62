// `Swizzled` has no public constructor, and wraps only maps into physical space.
use layout_typed::prelude::*;
use layout_typed::Swizzled;

fn main() {
    let tv = layout!((128,4):(4,1), thread-value -> logical);
    let a = Swizzled::<_, 3, 6, 3, 0, 511>::new(tv);
    let b = Swizzled::<_, 3, 6, 3, 0, 511>(tv);
}

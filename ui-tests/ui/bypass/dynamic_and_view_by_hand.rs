// `Dynamic` is made by `layout!` with run-time leaves or `Dynamic::new` (both check), a
// `View` by `View::new`/`try_new` (both check the buffer): no struct literal.
use layout_typed::prelude::*;
use layout_typed::{Dim, Dynamic, LogicalSpace, PhysicalSpace};

fn main() {
    let d = Dynamic::<Dim<4, 1>, LogicalSpace, PhysicalSpace, i64> {
        sizes: [1; 32],
        strides: [0; 32],
        size: 4,
        min: 0,
        max: 3,
        read_only: false,
        _p: core::marker::PhantomData,
    };
    let mut buf = [0.0f32; 1];
    let v = View { data: &mut buf, layout: layout!(8:1, logical -> physical) };
}

// `Static` has no public constructor: its values come from `layout!` only.
use layout_typed::{Dim, Exclusive, LogicalSpace, NoTile, PhysicalSpace, Size, Spec, Static};

type ZeroStride = Static<Dim<4, 0>, Spec<PhysicalSpace, LogicalSpace, Size<4>, Exclusive, NoTile, NoTile, i64>>;

fn main() {
    let a = ZeroStride::NEW;
    let b = ZeroStride::default();
    let c = Static::<Dim<4, 0>, ()>(core::marker::PhantomData);
}

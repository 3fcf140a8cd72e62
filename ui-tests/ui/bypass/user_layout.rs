// `Layout` is sealed: a type of one's own cannot claim `Access = Exclusive` for `View::set`.
use layout_typed::prelude::*;
use layout_typed::{Dim, Exclusive, LogicalSpace, Leaves, NoTile, PhysicalSpace, Size};

#[derive(Clone, Copy)]
struct Mine;

impl Layout for Mine {
    type Domain = LogicalSpace;
    type Codomain = PhysicalSpace;
    type Size = Size<4>;
    type Access = Exclusive;
    type DomainTile = NoTile;
    type CodomainTile = NoTile;
    type Index = i64;
    type Form = Dim<4, 0>;
    const SIZE: usize = 4;
    const MIN_OFFSET: i64 = 0;
    const MAX_OFFSET: i64 = 0;
    const LINEAR: Option<Leaves> = None;
    fn offset<C: layout_typed::Coord<Self::Form>>(&self, _: C) -> i64 {
        0
    }
    fn offset_index(&self, _: usize) -> i64 {
        0
    }
    fn write(_: &mut core::fmt::Formatter<'_>, _: bool) -> core::fmt::Result {
        Ok(())
    }
    fn to_map(&self) -> Result<layout_typed::core_algebra::Map, layout_typed::core_algebra::Error> {
        todo!()
    }
}

fn main() {
    let mut buf = [0.0f32; 4];
    let mut v = View::new(&mut buf, Mine);
    v.set(1usize, 1.0);
}

//! Marker types for spaces, sizes, access and tile shapes, and the sealed rule traits whose
//! failures are the compile errors of the typed API (spec: Constructible annotations; spec: Composition; spec: Typed surface).
//!
//! The markers are named `LogicalSpace`, … rather than `Logical`, … because rustc prints a type
//! fully qualified when any crate in the graph has an item or variant with the same simple name
//! (`layout_core::Space::Logical`); these names keep the messages short.

/// Domain or codomain marker: a position in a tile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LogicalSpace;
/// Domain or codomain marker: a (thread, value) pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThreadValueSpace;
/// Codomain marker: a memory offset, in elements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PhysicalSpace;
/// Codomain marker: a memory offset after a swizzle, which is always the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SwizzledPhysicalSpace;

/// Size marker: a map with `N` coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Size<const N: usize>;

/// Access marker: every coordinate has its own address; stores are allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Exclusive;
/// Access marker: a broadcast `_` mode shares addresses; the layout is read-only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ReadOnly;

/// Tile marker: the side carries no tile shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoTile;
/// Tile marker: a logical side of extent `A` (seed order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tile1<const A: usize>;
/// Tile marker: a logical side of extents `(A, B)`, seed order (`B` fastest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tile2<const A: usize, const B: usize>;
/// Tile marker: a logical side of extents `(A, B, C)`, seed order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tile3<const A: usize, const B: usize, const C: usize>;
/// Tile marker: a logical side of extents `(A, B, C, D)`, seed order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tile4<const A: usize, const B: usize, const C: usize, const D: usize>;

mod sealed {
    pub trait Sealed {}
}
use sealed::Sealed;

impl Sealed for LogicalSpace {}
impl Sealed for ThreadValueSpace {}
impl Sealed for PhysicalSpace {}
impl Sealed for SwizzledPhysicalSpace {}
impl Sealed for Exclusive {}
impl Sealed for ReadOnly {}

/// The codomain of a `compose` right operand: only logical (spec: Composition).
#[diagnostic::on_unimplemented(
    message = "the right operand of `compose` must map into logical space, but it maps into `{Self}`",
    label = "this operand maps into `{Self}`, not `LogicalSpace`",
    note = "`compose(left, right)` applies `right` first; `right` must be a `.. -> logical` dense bijection onto the positions `left` reads",
    note = "help: swap the operands, `compose(storage, tv)`: nothing maps out of physical space, and a swizzle is always the last step"
)]
pub trait RightCodomain: Sealed {}
#[diagnostic::do_not_recommend]
impl RightCodomain for LogicalSpace {}

/// The domain of a `compose` left operand: only logical (spec: Composition).
#[diagnostic::on_unimplemented(
    message = "the left operand of `compose` must read logical positions, but its domain is `{Self}`",
    label = "this operand's domain is `{Self}`, not `LogicalSpace`",
    note = "`compose(left, right)` feeds the logical positions produced by `right` into `left`",
    note = "help: annotate the left operand `logical -> ..`, or swap the operands"
)]
pub trait LeftDomain: Sealed {}
#[diagnostic::do_not_recommend]
impl LeftDomain for LogicalSpace {}

/// Equal sizes of the two operands of `compose` (spec: Composition).
#[diagnostic::on_unimplemented(
    message = "size mismatch in `compose`: the right operand has `{Self}` positions, the left operand reads `{Other}`",
    label = "this operand has `{Self}` positions",
    note = "the right operand must be a dense bijection onto every position of the left operand's domain",
    note = "help: divide or repeat one operand so that both have the same size"
)]
pub trait SameSize<Other> {}
#[diagnostic::do_not_recommend]
impl<const N: usize> SameSize<Size<N>> for Size<N> {}

/// Equal logical tile shapes where both operands of `compose` carry one (spec: Logical tile shapes).
#[diagnostic::on_unimplemented(
    message = "logical tile shapes differ in `compose`: `{Self}` on the right operand, `{Other}` on the left",
    label = "this operand produces positions of a `{Self}` tile",
    note = "both sides must index the same tile in the same order; a transposed storage layout addresses the wrong elements",
    note = "help: write the storage layout over the TV layout's index: a row-major M×K matrix is `(K,M):(1,K)` in seed order, `cute (M,K):(K,1)` in CuTe order"
)]
pub trait SameTile<Other> {}

macro_rules! same_tile {
    ($T:ident $(,$c:ident)*) => {
        #[diagnostic::do_not_recommend]
        impl<$(const $c: usize),*> SameTile<NoTile> for $T<$($c),*> {}
        #[diagnostic::do_not_recommend]
        impl<$(const $c: usize),*> SameTile<$T<$($c),*>> for $T<$($c),*> {}
    };
}
#[diagnostic::do_not_recommend]
impl<T> SameTile<T> for NoTile {}
same_tile!(Tile1, A);
same_tile!(Tile2, A, B);
same_tile!(Tile3, A, B, C);
same_tile!(Tile4, A, B, C, D);

/// Access that allows stores: [`Exclusive`] only (spec: Broadcasts are read-only; a broadcast is read-only).
#[diagnostic::on_unimplemented(
    message = "cannot store through a broadcast layout: its access is `{Self}`",
    label = "a `_` mode makes several coordinates share one address",
    note = "simultaneous stores to one address are a race; broadcast layouts are read-only (spec: Broadcasts are read-only)",
    note = "help: read with `get`, or store through a layout without `_` strides"
)]
pub trait Writable: Sealed {}
#[diagnostic::do_not_recommend]
impl Writable for Exclusive {}

/// The codomains a [`crate::View`] can address: physical, swizzled or not.
#[diagnostic::on_unimplemented(
    message = "a view addresses memory, but this layout maps into `{Self}`",
    label = "not a map into physical space",
    note = "help: compose it with a `logical -> physical` layout first"
)]
pub trait Addressable: Sealed {}
#[diagnostic::do_not_recommend]
impl Addressable for PhysicalSpace {}
#[diagnostic::do_not_recommend]
impl Addressable for SwizzledPhysicalSpace {}

/// The run-time [`layout_core::Space`] of a space marker.
pub trait SpaceMarker: Sealed {
    /// The space.
    const SPACE: layout_core::Space;
}
impl SpaceMarker for LogicalSpace {
    const SPACE: layout_core::Space = layout_core::Space::Logical;
}
impl SpaceMarker for ThreadValueSpace {
    const SPACE: layout_core::Space = layout_core::Space::ThreadValue;
}
impl SpaceMarker for PhysicalSpace {
    const SPACE: layout_core::Space = layout_core::Space::Physical;
}
impl SpaceMarker for SwizzledPhysicalSpace {
    const SPACE: layout_core::Space = layout_core::Space::Physical;
}

/// The extents of a tile marker (seed order), `None` for [`NoTile`].
pub trait TileMarker {
    /// The extents.
    fn extents() -> Option<alloc::vec::Vec<i64>>;
}
impl TileMarker for NoTile {
    fn extents() -> Option<alloc::vec::Vec<i64>> {
        None
    }
}
macro_rules! tile_marker {
    ($T:ident $(,$c:ident)*) => {
        impl<$(const $c: usize),*> TileMarker for $T<$($c),*> {
            // Reviewed: the extents are sizes that `layout!` read as `i64`.
            #[allow(clippy::cast_possible_wrap)]
            fn extents() -> Option<alloc::vec::Vec<i64>> {
                Some(alloc::vec![$($c as i64),*])
            }
        }
    };
}
tile_marker!(Tile1, A);
tile_marker!(Tile2, A, B);
tile_marker!(Tile3, A, B, C);
tile_marker!(Tile4, A, B, C, D);

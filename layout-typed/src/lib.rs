//! # layout-typed
//!
//! Tensor layouts in shape:stride notation, **checked while the program compiles**, with
//! zero-cost addressing. This is the crate users import; it re-exports the `layout!` macro and,
//! as [`core_algebra`], the run-time algebra of `layout-core`.
//!
//! ```
//! use layout_typed::prelude::*;
//!
//! let smem = layout!((16,32):(32,1), logical -> physical);   // 512 elements, row-major
//! let tv   = layout!((128,4):(4,1), thread-value -> logical); // 128 threads × 4 values
//! let addr = compose(smem, tv);                               // thread-value -> physical
//! assert_eq!(addr.offset((1usize, 2usize)), 6);               // thread 1, value 2 -> position 6
//! assert_eq!(addr.offset(6usize), 6);
//!
//! let mut buf = vec![0.0f32; smem.cosize()];                  // COSIZE elements
//! let mut view = View::new(&mut buf, addr);                   // data seen through the layout
//! view.set((1usize, 2usize), 1.5);
//! assert_eq!(buf[6], 1.5);
//! ```
//!
//! **Mode order.** Layouts are written in seed order: the *last* mode varies fastest
//! (row-major). CuTe lists modes first-fastest; write `cute` before a layout to paste CuTe
//! notation (`layout!(cute (4,8):(1,4), logical -> physical)`), which is reversed recursively.
//! Both give the same function on the same integer index. Coordinates passed to
//! [`Layout::offset`] are always in seed order.
//!
//! **Units.** Sizes count positions (coordinates); strides, offsets and [`Layout::COSIZE`]
//! count elements of the buffer, never bytes. CuTe's copy atoms count bits: [`atoms`] gives
//! them in elements.
//!
//! **Spaces.** Each side is `logical`, `thread-value` (`tv`) or `physical`. The constructible
//! annotations are logical/thread-value into logical/thread-value (a dense bijection,
//! Lemma 1; spec: Dense bijections) and logical into physical (alias-free; `_` strides broadcast and make the layout
//! read-only). Thread-value into physical exists only as a composite. `layout!` checks all of
//! this during expansion; [`compose`] checks the composition rules as trait bounds, so every
//! violation is a compile error under `cargo check` and in rust-analyzer.
//!
//! # The rules, as compile errors
//!
//! Each rejected example below is followed by its fix, which compiles. The exact compiler
//! messages are the snapshots of the `ui-tests` crate, quoted rule by rule in the guide's
//! diagnostics gallery (`docs/diagnostics.md`).
//!
//! **Not a dense bijection.** A map into logical or thread-value space must reach every
//! position of `[0, size)` exactly once (Lemma 1: sorted by stride, the strides are the running
//! products of the sizes). Here the smallest stride is 2, so the odd positions are never
//! reached:
//!
//! ```compile_fail
//! use layout_typed::prelude::*;
//! let tv = layout!((128,4):(4,2), thread-value -> logical); // error: not a dense bijection
//! ```
//!
//! ```
//! use layout_typed::prelude::*;
//! let tv = layout!((128,4):(4,1), thread-value -> logical);
//! ```
//!
//! **Aliasing.** A map into physical space must be alias-free: rows of 8 elements placed 4
//! apart overlap (flat indices 4 and 8 both reach offset 4). Pad the rows, or write `_` where
//! sharing is intended (read-only):
//!
//! ```compile_fail
//! use layout_typed::prelude::*;
//! let rows = layout!((4,8):(4,1), logical -> physical); // error: not alias-free
//! ```
//!
//! ```
//! use layout_typed::prelude::*;
//! let rows = layout!((4,8):(8,1), logical -> physical);
//! let shared = layout!((4,8):(_,1), logical -> physical); // a read-only broadcast
//! ```
//!
//! **Forbidden annotation.** Nothing maps out of physical space, and `thread-value ->
//! physical` is only a composite, `compose(storage, tv)`:
//!
//! ```compile_fail
//! use layout_typed::prelude::*;
//! let l = layout!((16,32):(32,1), physical -> logical); // error: forbidden annotation
//! ```
//!
//! ```compile_fail
//! use layout_typed::prelude::*;
//! let l = layout!((128,4):(4,1), thread-value -> physical); // error: forbidden annotation
//! ```
//!
//! ```
//! use layout_typed::prelude::*;
//! let smem = layout!((16,32):(32,1), logical -> physical);
//! let tv = layout!((128,4):(4,1), thread-value -> logical);
//! let addr = compose(smem, tv); // thread-value -> physical
//! ```
//!
//! **Composing into physical space.** [`compose`] applies its right operand first, and that
//! operand must map into logical space: the operands the wrong way round fail
//! ([`RightCodomain`], [`LeftDomain`]):
//!
//! ```compile_fail,E0277
//! use layout_typed::prelude::*;
//! let smem = layout!((16,32):(32,1), logical -> physical);
//! let tv   = layout!((128,4):(4,1), thread-value -> logical);
//! let bad  = compose(tv, smem); // the right operand maps into physical
//! ```
//!
//! **Size mismatch.** The right operand must enumerate every position the left one reads:
//! 64 threads × 4 values are 256 positions, the tile has 512 ([`SameSize`]):
//!
//! ```compile_fail,E0277
//! use layout_typed::prelude::*;
//! let smem = layout!((16,32):(32,1), logical -> physical);
//! let tv   = layout!((64,4):(4,1), thread-value -> logical);
//! let bad  = compose(smem, tv); // Size<256> against Size<512>
//! ```
//!
//! ```
//! use layout_typed::prelude::*;
//! let smem = layout!((16,32):(32,1), logical -> physical);
//! let tv   = layout!((128,4):(4,1), thread-value -> logical);
//! let addr = compose(smem, tv);
//! ```
//!
//! **Store through a broadcast.** A `_` mode gives several coordinates one address, so
//! [`View::set`] requires [`Exclusive`] access ([`Writable`]); reading is fine:
//!
//! ```compile_fail,E0277
//! use layout_typed::prelude::*;
//! let mut buf = [0.0f32; 8];
//! let mut rows = View::new(&mut buf, layout!((4,8):(_,1), logical -> physical));
//! rows.set((1usize, 2usize), 1.0); // cannot store through a broadcast layout
//! ```
//!
//! ```
//! use layout_typed::prelude::*;
//! let mut buf = [0.0f32; 8];
//! let rows = View::new(&mut buf, layout!((4,8):(_,1), logical -> physical));
//! assert_eq!(*rows.get((1usize, 2usize)), 0.0);
//! let mut row = View::new(&mut buf, layout!(8:1, logical -> physical));
//! row.set(2usize, 1.0);
//! ```
//!
//! The other rules (zero strides, profiles, swizzle fields, overflow, index-type range, tile
//! shapes, every precondition of the algebra operations inside `layout!`) are reported the
//! same way; [`layout!`] lists them.
//!
//! # Where to go next
//!
//! [`layout!`] (the grammar and options), [`Layout`] (what every checked value offers),
//! [`compose`] and [`try_compose`], [`View`], [`atoms`] (CUTLASS's MMA and copy atoms as
//! checked constants), [`Dynamic`] (layouts with run-time sizes and strides). The guide
//! (`docs/README.md` in the repository) has getting started, the notation, the algebra with
//! every operation's CuTe equivalent, the diagnostics gallery and the `layout` command.
#![no_std]

extern crate alloc;

/// Aliases of common type-level numbers that `layout!` names instead of writing the literals
/// (`__n::D4_1` is `Dim<4, 1>`), and of `Static<F, Spec<..>>` for each combination of spaces,
/// access and index type (`__n::Static_TvL_i64<F, Sz, DT, CT>`); `layout_core::interned` says
/// why. Not part of the API.
#[doc(hidden)]
#[allow(non_camel_case_types)]
#[path = "interned.rs"]
pub mod __n;
pub mod atoms;
mod dynamic;
mod form;
mod rules;
mod runtime;
mod tensor;
mod view;

use core::fmt;
use core::marker::PhantomData;

pub use dynamic::{DynComposed, Dynamic, LeafInteger, try_compose};
pub use form::{Bcast, COMPOSE_ENUMERATION_LIMIT, Compute, Coord, Dim, Form, Leaves, MAX_LEAVES};
pub use rules::{
    Addressable, Exclusive, LeftDomain, LogicalSpace, NoTile, PhysicalSpace, ReadOnly,
    RightCodomain, SameSize, SameTile, Size, SpaceMarker, SwizzledPhysicalSpace, ThreadValueSpace,
    Tile1, Tile2, Tile3, Tile4, TileMarker, Writable,
};
pub use runtime::{DynamicMap, MAX_PIECES};
pub use tensor::{
    AccessKind, Element, Recast, RunTimeAccess, Storable, Tensor, TensorError, TensorLayout,
};
pub use view::{Storage, StorageMut, View, ViewError};

/// The run-time algebra (parsing, checks, composition as maps), re-exported.
pub use layout_core as core_algebra;

/// Everything a user needs: `layout!`, `compose`, the [`Layout`] trait, [`View`] and
/// [`Tensor`].
pub mod prelude {
    pub use crate::{Layout, Tensor, View, compose, layout, try_compose};
}

/// Declares a checked layout.
///
/// Expression form: `layout!(LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS])` gives a value of a
/// zero-sized type implementing [`Layout`]. Item form:
/// `layout! { pub const NAME = LAYOUT, DOMAIN -> CODOMAIN [, OPTIONS]; }` declares a type alias
/// and a constant, both named `NAME` (like a unit struct), usable in statics, fields and
/// generics.
///
/// - `LAYOUT` is `shape:stride` in seed order (last mode fastest), or `cute shape:stride` in
///   CuTe order (first mode fastest, stride 0 = broadcast). `_` is the broadcast stride.
/// - Spaces: `logical`, `thread-value` (or `tv`), `physical`; a logical side may carry its tile
///   shape, `logical(K, M)` (under `cute`, CuTe order: `logical(M, K)`).
/// - Options (physical codomain only for swizzles): `swizzle(b = 3, src = 7, dst = 4)`,
///   `Swizzle<3,4,3> over bytes of 16-bit elements` or `Swizzle<3,3,3> over elements` (CuTe, with
///   the unit it acts on), `index = i32 | i64 | u32 | usize` (default `i64`; the offset range
///   must fit). With `i32` or `u32`, `offset` computes in that type wherever every intermediate
///   is proved to fit ([`Layout::NARROW`]), as CUDA code does with 32-bit indices.
///
/// Every rule is checked during expansion and reported as a spanned compile error that names
/// the rule, the mode and the numbers, with a `help:` line: not dense (Lemma 1), aliasing,
/// zero stride, profile mismatch, forbidden annotation, swizzle fields, overflow, tile size.
///
/// Algebra form: `layout!(compose(A, B))`, `divide(L, (64, 32))`, … (see the algebra chapter,
/// `docs/algebra.md`). An operand is a literal `[LAYOUT, DOMAIN -> CODOMAIN]` or a path to an
/// item of the item form, and it is found by Rust's own name resolution: the item form also
/// defines a hidden macro under the item's name (macro namespace, the item's visibility) that
/// hands the declaration back, and the expression invokes it through the operand's path as
/// written. So `a::P`, `crate::a::P`, `super::P`, a `use … as` name, a `pub use` re-export and
/// a `pub` item of another crate (`other::P`, also under a renamed `layout-typed`) each name
/// exactly the item that path names in Rust; two items called `P` in different modules are
/// never confused, and a path that names no `layout!` item is an error ("cannot find macro").
/// The expansion also asserts that the operand's value has the declaration's type (the layout
/// itself), so a `const` shadowing only the value namespace is a type error at the operand.
/// An item's right-hand side may be an algebra expression too,
/// `layout! { pub const TILES = divide(SMEM, (4, 8)); }`: a type alias and a constant of the
/// expression's type, and an operand of later expressions whatever its value (guide, §3).
///
/// ```
/// use layout_typed::prelude::*;
/// mod a { layout_typed::layout! { pub const P = (2,3):(1,2), logical -> logical; } }
/// mod b { layout_typed::layout! { pub const P = (3,2):(1,3), logical -> logical; } }
/// let ab = layout!(compose(a::P, b::P)); // a::P after b::P: the identity of 6 positions
/// assert_eq!((0..6).map(|i| ab.offset_index(i)).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
/// ```
///
/// ```
/// use layout_typed::prelude::*;
/// layout! { pub const SMEM = (16,32):(32,1), logical -> physical; }
/// let c = layout!(cute ((4,8),(2,2)):((32,1),(16,8)), thread-value -> logical(16,8));
/// assert_eq!(SMEM.offset((1usize, 2usize)), 34);
/// assert_eq!(c.offset(5usize), 33); // CuTe thread 5 = (1,1) in its (4,8) mode: 1·32 + 1·1
/// ```
#[macro_export]
macro_rules! layout {
    ($($tokens:tt)*) => {
        $crate::__private::layout_impl! { $crate; $($tokens)* }
    };
}

/// Integer types an offset can be returned in (`index = ..` in `layout!`).
pub trait IndexType:
    Copy + fmt::Debug + fmt::Display + PartialEq + 'static + index_seal::Sealed
{
    /// The smallest and largest value, as `i64` (`usize` is capped at `i64::MAX`).
    const RANGE: (i64, i64);
    /// Converts an offset that `layout!` proved to fit.
    fn from_isize(v: isize) -> Self;
    /// The offset as an `isize` (for composition and swizzles).
    fn to_isize(self) -> isize;
    /// The type `offset` computes in where the range check proves every intermediate fits
    /// ([`Layout::NARROW`]): `i32` for `i32`, `u32` for `u32`, `isize` for the 64-bit types.
    type Compute: Compute;
    /// Converts a value computed in [`IndexType::Compute`] (exact: it was proved to fit).
    fn from_compute(v: Self::Compute) -> Self;
    /// The offset as an [`IndexType::Compute`] value (exact for offsets of the layout).
    fn to_compute(self) -> Self::Compute;
}

/// Whether a flat layout with leaves `l` (sizes and strides) evaluates in the compute type of
/// `I` without leaving it: `I` is a 32-bit type and every coordinate, term and partial sum
/// fits ([`Leaves::fits`]).
const fn narrow_fits<I: IndexType>(l: &Leaves) -> bool {
    let (lo, hi) = <I::Compute as Compute>::RANGE;
    <I::Compute as Compute>::NARROW && l.fits(lo, hi)
}

/// Whether the swizzle `(b, src, dst)` evaluates in the compute type of `I` without leaving it,
/// for arguments in `[min, max]` that fit it: the shift amount lies below the width and the
/// shifted field fits below the sign bit (or the top bit, for `u32`), so the XOR changes no
/// bit that the wide computation would keep apart.
const fn swizzle_fits<I: IndexType>(b: u32, src: u32, dst: u32, min: i64, max: i64) -> bool {
    let (lo, hi) = <I::Compute as Compute>::RANGE;
    let width: u32 = if lo < 0 { 31 } else { 32 };
    <I::Compute as Compute>::NARROW
        && min >= lo
        && max <= hi
        && src < 32
        && b < 32
        && dst < 32
        && b.saturating_add(dst) <= width
}

macro_rules! index_type {
    ($($t:ty => $c:ty),*) => {$(
        // Reviewed: `RANGE` compares in `i128`, where every bound is exact, and casts only the
        // bounds that fit; `from_isize` converts offsets `layout!` proved to fit `Self` (outside
        // the domain the value is unspecified, the contract of `Layout::offset`); `to_isize`
        // converts such offsets back, which fit `isize` on the 64-bit targets supported.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_possible_wrap,
            clippy::cast_sign_loss,
            clippy::cast_lossless
        )]
        impl IndexType for $t {
            const RANGE: (i64, i64) = (
                if (<$t>::MIN as i128) < i64::MIN as i128 { i64::MIN } else { <$t>::MIN as i64 },
                if (<$t>::MAX as i128) > i64::MAX as i128 { i64::MAX } else { <$t>::MAX as i64 },
            );
            #[inline(always)]
            fn from_isize(v: isize) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_isize(self) -> isize {
                self as isize
            }
            type Compute = $c;
            #[inline(always)]
            fn from_compute(v: $c) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_compute(self) -> $c {
                self as $c
            }
        }
        impl index_seal::Sealed for $t {}
    )*};
}
index_type!(i32 => i32, i64 => isize, u32 => u32, usize => isize, isize => isize);

mod index_seal {
    pub trait Sealed {}
}

/// A checked layout, as a zero-sized value: what `layout!` and [`compose`] return.
///
/// The same notion as the run-time [`core_algebra::Layout`] (`layout_core::Layout`), checked
/// while the program compiles: its modes are in seed order (the last varies fastest, a
/// broadcast is `_`), where CuTe lists the fastest mode first and writes a broadcast as `0`;
/// [`Layout::cute`] prints CuTe notation, and `layout!(cute ..)` reads it. [`Layout::to_map`]
/// gives the run-time value.
///
/// The associated types carry the rules: [`compose`] requires the right operand's `Codomain`
/// to be [`LogicalSpace`], the left operand's `Domain` to be [`LogicalSpace`], equal `Size`s and
/// equal tile shapes; [`View::set`] requires `Access = Exclusive`.
///
/// The trait is sealed: the only values are those of `layout!` and of the typed operations
/// ([`compose`]), so every value has passed the checks. It cannot be implemented outside this
/// crate and `layout!`'s expansion:
///
/// ```compile_fail
/// use layout_typed::prelude::*;
/// #[derive(Clone, Copy)]
/// struct Mine;
/// impl Layout for Mine { /* … */ } // error: `Sealed` is not implemented for `Mine`
/// ```
pub trait Layout: Copy + __private::Sealed {
    /// [`LogicalSpace`] or [`ThreadValueSpace`].
    type Domain: SpaceMarker;
    /// [`LogicalSpace`], [`ThreadValueSpace`], [`PhysicalSpace`] or [`SwizzledPhysicalSpace`].
    type Codomain: SpaceMarker;
    /// `Size<N>`: the number of coordinates of the domain.
    type Size;
    /// [`Exclusive`] or [`ReadOnly`] (a broadcast).
    type Access;
    /// The tile shape of a logical domain, or [`NoTile`].
    type DomainTile: TileMarker;
    /// The tile shape of a logical codomain, or [`NoTile`].
    type CodomainTile: TileMarker;
    /// The integer type of offsets.
    type Index: IndexType;
    /// The type-level shape:stride of the domain (the first layout applied).
    type Form: Form;

    /// Number of coordinates.
    const SIZE: usize;
    /// Smallest offset (elements).
    const MIN_OFFSET: i64;
    /// Largest offset (elements).
    const MAX_OFFSET: i64;
    /// The map as one flat layout over the domain's leaves, when it is one with a stride per
    /// leaf: every `layout!`, and a composite whose operands are and whose composition is
    /// (decided at compile time). `offset` then evaluates `Σ cⱼ·sⱼ` directly, the arithmetic
    /// one writes by hand; otherwise (a swizzle, or a composite that is not such a layout) it
    /// evaluates the composite as written.
    const LINEAR: Option<Leaves>;
    /// Whether [`Layout::offset`] computes in 32 bits: the index type is `i32` or `u32`
    /// ([`IndexType::Compute`]) and the range check proves that every intermediate fits it —
    /// each coordinate with a non-zero stride, each term and partial sum of the weighted sum,
    /// each unflattened flat index (in `u32`), the swizzle's shifted field and XOR, and, for a
    /// composite evaluated as written, both operands' computations. Otherwise (and always for
    /// the 64-bit index types, and for [`Dynamic`] layouts, whose strides are run-time values)
    /// it computes in `isize` and converts the offset at the end. Both give the same offsets.
    ///
    /// ```
    /// use layout_typed::prelude::*;
    /// let narrow = layout!((16,32):(32,1), logical -> physical, index = i32);
    /// let wide = layout!((16,32):(32,1), logical -> physical);
    /// fn is_narrow<L: Layout>(_: L) -> bool { L::NARROW }
    /// assert!(is_narrow(narrow) && !is_narrow(wide));
    /// assert_eq!(i64::from(narrow.offset((3usize, 4usize))), wide.offset((3usize, 4usize)));
    /// ```
    const NARROW: bool = false;
    /// `MAX_OFFSET + 1` when `MIN_OFFSET ≥ 0`, else 0: the buffer length the layout needs.
    const COSIZE: usize = cosize(Self::MIN_OFFSET, Self::MAX_OFFSET);

    /// The value at a coordinate: one integer (flat index, last mode fastest), or a natural or
    /// coarser coordinate in seed order. Inlined, allocation-free, unchecked.
    ///
    /// # Contract
    /// `c` must lie in the domain ([`Layout::contains`]): each integer below the size of the
    /// mode (or the whole layout) it indexes. For such coordinates the value is exact and fits
    /// [`Layout::Index`] (`layout!` proved the range). Outside the domain the value is
    /// unspecified — it may be another coordinate's offset — and debug builds may panic; it is
    /// never undefined behaviour. [`Layout::try_offset`] checks; [`View`] always checks.
    fn offset<C: Coord<Self::Form>>(&self, c: C) -> Self::Index;

    /// The value at a flat index (last mode fastest). The contract of [`Layout::offset`]:
    /// `i < SIZE`.
    fn offset_index(&self, i: usize) -> Self::Index;

    /// Whether `c` is a coordinate of the domain: every integer below the size of the mode it
    /// indexes (a flat index below [`Layout::SIZE`]).
    ///
    /// ```
    /// use layout_typed::prelude::*;
    /// let l = layout!((16,32):(32,1), logical -> physical);
    /// assert!(l.contains(&(15usize, 31usize)));
    /// assert!(!l.contains(&(0usize, 40usize))); // column 40 of 32
    /// assert!(!l.contains(&512usize));
    /// ```
    #[inline(always)]
    fn contains<C: Coord<Self::Form>>(&self, c: &C) -> bool {
        c.in_domain()
    }

    /// The checked form of [`Layout::offset`]: `None` when `c` is outside the domain.
    ///
    /// ```
    /// use layout_typed::prelude::*;
    /// let l = layout!((16,32):(32,1), logical -> physical);
    /// assert_eq!(l.try_offset((1usize, 2usize)), Some(34));
    /// assert_eq!(l.try_offset((1usize, 40usize)), None); // not row 2, column 8
    /// ```
    #[inline(always)]
    fn try_offset<C: Coord<Self::Form>>(&self, c: C) -> Option<Self::Index> {
        if c.in_domain() {
            Some(self.offset(c))
        } else {
            None
        }
    }

    /// Writes the map in seed notation (`cute` = CuTe order).
    #[doc(hidden)]
    fn write(f: &mut fmt::Formatter<'_>, cute: bool) -> fmt::Result;

    /// The same map built at run time with `layout-core` (every check runs again), for
    /// printing, cross-checking and the run-time algebra. Allocates.
    ///
    /// # Errors
    /// None for a map made by `layout!` and [`compose`]; the `Result` is `layout-core`'s.
    fn to_map(&self) -> Result<layout_core::Map, layout_core::Error>;

    /// `self ∘ right`; see [`compose`].
    #[inline(always)]
    fn compose<B>(self, right: B) -> Composed<Self, B>
    where
        B: Layout,
        B::Codomain: RightCodomain,
        Self::Domain: LeftDomain,
        B::Size: SameSize<Self::Size>,
        B::CodomainTile: SameTile<Self::DomainTile>,
    {
        compose(self, right)
    }

    /// Number of coordinates: [`Layout::SIZE`].
    fn size(&self) -> usize {
        Self::SIZE
    }

    /// The buffer length the map needs: [`Layout::COSIZE`].
    fn cosize(&self) -> usize {
        Self::COSIZE
    }

    /// The map in seed notation, e.g. `(16,32):(32,1)`, `σ(b=3,src=7,dst=4) ∘ …`, `A ∘ B`.
    fn notation(&self) -> Notation<Self> {
        Notation(*self, false)
    }

    /// The map in CuTe notation (first mode fastest, broadcast as `0`).
    fn cute(&self) -> Notation<Self> {
        Notation(*self, true)
    }
}

/// A [`Layout`] printed in seed or CuTe notation.
#[derive(Clone, Copy)]
pub struct Notation<L>(L, bool);

impl<L: Layout> fmt::Display for Notation<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        L::write(f, self.1)
    }
}

/// The parameters of a [`Static`] layout other than its form, as types.
///
/// `NAMES` is 0 for a layout whose top-level modes carry no names, and otherwise a 128-bit
/// fingerprint of the names in the written order, which `layout!` computes: two declarations
/// that differ only in their names have different types, so an expression that names an item
/// (`restrict(P, x = 1)` reads the name `x` off `P`'s declaration) cannot be given a value of
/// the other one under the same path. For a composite that `layout!` decides to be a layout,
/// `NAMES` is instead a fingerprint of the composite (its operands' names, trees and leaves),
/// which the layout's form does not keep: two composites decided to one layout, or such a
/// composite and the layout declared alike, have different types.
#[allow(clippy::type_complexity)]
pub struct Spec<Dom, Cod, Sz, Acc, DTile, CTile, Idx, const NAMES: u128 = 0>(
    PhantomData<fn() -> (Dom, Cod, Sz, Acc, DTile, CTile, Idx)>,
);

/// A layout declared by `layout!`: form `F` (type-level shape:stride) and [`Spec`] `S`.
/// Zero-sized. The type can be named (e.g. through `layout! { const NAME = ..; }`), but its
/// only values are those `layout!` made after checking them:
///
/// ```compile_fail
/// use layout_typed::{Dim, LogicalSpace, PhysicalSpace, Static, Spec, Size, Exclusive, NoTile};
/// // A zero stride, physical -> logical: no constructor outside `layout!`.
/// let l = Static::<Dim<4, 0>, Spec<PhysicalSpace, LogicalSpace, Size<4>, Exclusive, NoTile, NoTile, i64>>::NEW;
/// ```
pub struct Static<F, S>(PhantomData<fn() -> (F, S)>);

// The value is made by `layout!` only, through `__private::New`.
impl<F, S> Clone for Static<F, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F, S> Copy for Static<F, S> {}
// `Display` and `Debug` of the typed values: their seed notation (`{:#}`: CuTe notation).
impl<F: Form, S> fmt::Debug for Static<F, S>
where
    Self: Layout,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <Self as Layout>::write(f, f.alternate())
    }
}
impl<F: Form, S> fmt::Display for Static<F, S>
where
    Self: Layout,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <Self as Layout>::write(f, f.alternate())
    }
}
impl<
    L: Layout<Codomain = PhysicalSpace>,
    const B: u32,
    const SRC: u32,
    const DST: u32,
    const MIN: i64,
    const MAX: i64,
> fmt::Debug for Swizzled<L, B, SRC, DST, MIN, MAX>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <Self as Layout>::write(f, f.alternate())
    }
}
impl<
    L: Layout<Codomain = PhysicalSpace>,
    const B: u32,
    const SRC: u32,
    const DST: u32,
    const MIN: i64,
    const MAX: i64,
> fmt::Display for Swizzled<L, B, SRC, DST, MIN, MAX>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <Self as Layout>::write(f, f.alternate())
    }
}
impl<A: Layout, B: Layout> fmt::Debug for Composed<A, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <Self as Layout>::write(f, f.alternate())
    }
}
impl<A: Layout, B: Layout> fmt::Display for Composed<A, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <Self as Layout>::write(f, f.alternate())
    }
}

impl<F, S> __private::Sealed for Static<F, S> {}
impl<F, S> __private::New for Static<F, S> {
    const NEW: Self = Static(PhantomData);
}

// `offset` as an inherent method too: a call on a `Static` value (the common case, and every
// call `layout!`'s expansion makes) is found by the method probe before the trait's and proves
// only the bounds it uses, not the whole `Layout` impl. Same body as [`Layout::offset`], which
// calls it.
impl<F: Form, Dom, Cod, const N: usize, Acc, DTile, CTile, Idx: IndexType, const NAMES: u128>
    Static<F, Spec<Dom, Cod, Size<N>, Acc, DTile, CTile, Idx, NAMES>>
{
    /// The value at a coordinate: one integer (flat index, last mode fastest), or a natural or
    /// coarser coordinate in seed order. Inlined, allocation-free, unchecked. The same method
    /// as [`Layout::offset`], callable without the trait in scope.
    ///
    /// # Contract
    /// `c` must lie in the domain ([`Layout::contains`]): each integer below the size of the
    /// mode (or the whole layout) it indexes. For such coordinates the value is exact and fits
    /// [`Layout::Index`] (`layout!` proved the range). Outside the domain the value is
    /// unspecified — it may be another coordinate's offset — and debug builds may panic; it is
    /// never undefined behaviour. [`Layout::try_offset`] checks; [`View`] always checks.
    #[inline(always)]
    pub fn offset<C: Coord<F>>(&self, c: C) -> Idx {
        if const { narrow_fits::<Idx>(&F::LEAVES) } {
            Idx::from_compute(c.eval_in(&F::LEAVES.strides, 0))
        } else {
            Idx::from_isize(c.eval())
        }
    }
}

impl<F, Dom, Cod, const N: usize, Acc, DTile, CTile, Idx, const NAMES: u128> Layout
    for Static<F, Spec<Dom, Cod, Size<N>, Acc, DTile, CTile, Idx, NAMES>>
where
    F: Form,
    Dom: SpaceMarker,
    Cod: SpaceMarker,
    DTile: TileMarker,
    CTile: TileMarker,
    Idx: IndexType,
{
    type Domain = Dom;
    type Codomain = Cod;
    type Size = Size<N>;
    type Access = Acc;
    type DomainTile = DTile;
    type CodomainTile = CTile;
    type Index = Idx;
    type Form = F;
    const SIZE: usize = N;
    const MIN_OFFSET: i64 = F::MIN;
    const MAX_OFFSET: i64 = F::MAX;
    const LINEAR: Option<Leaves> = Some(F::LEAVES);
    const NARROW: bool = narrow_fits::<Idx>(&F::LEAVES);

    #[inline(always)]
    fn offset<C: Coord<F>>(&self, c: C) -> Idx {
        // The inherent method (the same computation).
        Static::offset(self, c)
    }

    #[inline(always)]
    fn offset_index(&self, i: usize) -> Idx {
        debug_assert!(i < N, "flat index {i} outside the layout of size {N}");
        if Self::NARROW {
            Idx::from_compute(F::eval_index_in(i, &F::LEAVES.strides, 0))
        } else {
            Idx::from_isize(F::eval_index_with(i, &F::LEAVES.strides, 0))
        }
    }

    fn write(f: &mut fmt::Formatter<'_>, cute: bool) -> fmt::Result {
        F::write_shape(f, cute)?;
        f.write_str(":")?;
        F::write_stride(f, cute)
    }

    fn to_map(&self) -> Result<layout_core::Map, layout_core::Error> {
        let (shape, stride) = F::tree();
        let l = layout_core::Layout::new(shape, stride)?;
        if (Dom::SPACE, Cod::SPACE)
            == (
                layout_core::Space::ThreadValue,
                layout_core::Space::Physical,
            )
        {
            // A composite decided to be a layout: thread-value -> physical exists only as a
            // composite (spec: Constructible annotations), so rebuild it as `l ∘ canonical(shape)`.
            use layout_core::Space::{Logical, Physical, ThreadValue};
            let id = layout_core::canonical(l.shape())?;
            let left = layout_core::Annotated::new(l, Logical, Physical)?
                .with_tiles(None, CTile::extents())?;
            let right = layout_core::Annotated::new(id, ThreadValue, Logical)?
                .with_tiles(DTile::extents(), None)?;
            return layout_core::compose(&left.into(), &right.into());
        }
        let a = layout_core::Annotated::new(l, Dom::SPACE, Cod::SPACE)?
            .with_tiles(DTile::extents(), CTile::extents())?;
        Ok(a.into())
    }
}

/// `σ ∘ L` for the XOR swizzle `σ(x) = x ^ (((x >> SRC) & (2^B − 1)) << DST)` (spec: Swizzles), made
/// by `layout!(.., swizzle(..))` or `Swizzle<B,M,S>`. Its codomain is
/// [`SwizzledPhysicalSpace`], so nothing composes after it. `L` maps into [`PhysicalSpace`];
/// `MIN` and `MAX` are the exact least and greatest offsets of `σ ∘ L` over the domain (in
/// elements), which `layout!` computes when it expands; they give [`Layout::MIN_OFFSET`],
/// [`Layout::MAX_OFFSET`] and so [`Layout::COSIZE`]. Only `layout!` makes values (it checks
/// the fields and computes the range):
///
/// ```compile_fail
/// use layout_typed::prelude::*;
/// use layout_typed::Swizzled;
/// let tv = layout!((128,4):(4,1), thread-value -> logical);
/// let s = Swizzled::<_, 3, 6, 3, 0, 511>::new(tv); // no constructor, and not a physical layout
/// ```
pub struct Swizzled<L, const B: u32, const SRC: u32, const DST: u32, const MIN: i64, const MAX: i64>(
    L,
);

impl<L, const B: u32, const SRC: u32, const DST: u32, const MIN: i64, const MAX: i64>
    __private::Sealed for Swizzled<L, B, SRC, DST, MIN, MAX>
{
}
// Only a physical `L` makes the value a `Layout` (the impl below); `layout!` reports any other.
impl<L, const B: u32, const SRC: u32, const DST: u32, const MIN: i64, const MAX: i64> __private::New
    for Swizzled<L, B, SRC, DST, MIN, MAX>
where
    L: __private::New,
{
    const NEW: Self = Swizzled(L::NEW);
}
impl<L: Copy, const B: u32, const SRC: u32, const DST: u32, const MIN: i64, const MAX: i64> Clone
    for Swizzled<L, B, SRC, DST, MIN, MAX>
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<L: Copy, const B: u32, const SRC: u32, const DST: u32, const MIN: i64, const MAX: i64> Copy
    for Swizzled<L, B, SRC, DST, MIN, MAX>
{
}

impl<L, const B: u32, const SRC: u32, const DST: u32, const MIN: i64, const MAX: i64> Layout
    for Swizzled<L, B, SRC, DST, MIN, MAX>
where
    L: Layout<Codomain = PhysicalSpace>,
{
    type Domain = L::Domain;
    type Codomain = SwizzledPhysicalSpace;
    type Size = L::Size;
    type Access = L::Access;
    type DomainTile = L::DomainTile;
    type CodomainTile = NoTile;
    type Index = L::Index;
    type Form = L::Form;
    const SIZE: usize = L::SIZE;
    // Computed exactly by `layout!` when it made the type: no walk in const evaluation.
    const MIN_OFFSET: i64 = MIN;
    const MAX_OFFSET: i64 = MAX;
    const LINEAR: Option<Leaves> = None;
    // The inner layout's range and the swizzled one (both exact) must fit, and the fields.
    const NARROW: bool = L::NARROW
        && swizzle_fits::<L::Index>(B, SRC, DST, L::MIN_OFFSET, L::MAX_OFFSET)
        && swizzle_fits::<L::Index>(B, SRC, DST, MIN, MAX);

    #[inline(always)]
    fn offset<C: Coord<L::Form>>(&self, c: C) -> L::Index {
        if Self::NARROW {
            L::Index::from_compute(self.0.offset(c).to_compute().swizzle(B, SRC, DST))
        } else {
            L::Index::from_isize(swizzle(self.0.offset(c).to_isize(), B, SRC, DST))
        }
    }

    #[inline(always)]
    fn offset_index(&self, i: usize) -> L::Index {
        if Self::NARROW {
            L::Index::from_compute(self.0.offset_index(i).to_compute().swizzle(B, SRC, DST))
        } else {
            L::Index::from_isize(swizzle(self.0.offset_index(i).to_isize(), B, SRC, DST))
        }
    }

    fn write(f: &mut fmt::Formatter<'_>, cute: bool) -> fmt::Result {
        if cute {
            // Both below 2^32: the difference of the `i64`s cannot wrap.
            let (m, s) = (SRC.min(DST), i64::from(SRC).wrapping_sub(i64::from(DST)));
            write!(f, "Swizzle<{B},{m},{s}> o ")?;
        } else {
            write!(f, "swizzle(b = {B}, src = {SRC}, dst = {DST}) ∘ ")?;
        }
        L::write(f, cute)
    }

    fn to_map(&self) -> Result<layout_core::Map, layout_core::Error> {
        self.0
            .to_map()?
            .swizzle(layout_core::Swizzle::new(B, SRC, DST)?)
    }
}

/// A map that `layout!` evaluated and found not to be a layout with one stride per leaf (a
/// swizzled composite, a composite that Theorem 1 does not decide to be a layout, ...): form
/// `F` (the domain's shape, every stride 1), [`Spec`] `S` as for [`Static`], and `P`, the
/// program `layout!` emitted for this map (spec: Code emission), an item of its expansion that
/// cannot be named outside it. Zero-sized; its `offset` inlines to the emitted program; its
/// only values are those `layout!` made after checking the expression:
///
/// ```
/// use layout_typed::prelude::*;
/// layout! {
///     const SW = (8,8):(8,1), logical(8, 8) -> physical, swizzle(b = 2, src = 3, dst = 0);
///     const TV = (16,4):(4,1), thread-value -> logical(8, 8);
/// }
/// // A swizzled composite as an item: a `Generated`. (As an expression of two named items,
/// // `layout!(compose(SW, TV))` is the typed `compose(SW, TV)`, a `Composed` of the same map.)
/// layout! { const C = compose(SW, TV); }
/// let c = C;
/// assert_eq!(c.offset((2usize, 1usize)), 9 ^ 1); // TV: position 9 = (1, 1); SW: 9, bit 3 into bit 0
/// assert_eq!(c.to_map()?.eval_index(9), Ok(9 ^ 1));
/// let notation = "[swizzle(b = 2, src = 3, dst = 0) ∘ (8,8):(8,1)] ∘ [(16,4):(4,1)]";
/// assert_eq!((c.to_string(), format!("{c:?}")), (notation.into(), notation.into()));
/// # Ok::<(), layout_typed::core_algebra::Error>(())
/// ```
#[allow(clippy::type_complexity)]
pub struct Generated<F, S, P>(PhantomData<fn() -> (F, S, P)>);

impl<F, S, P> Clone for Generated<F, S, P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F, S, P> Copy for Generated<F, S, P> {}
impl<F, S, P> fmt::Debug for Generated<F, S, P>
where
    Self: Layout,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <Self as Layout>::write(f, f.alternate())
    }
}
impl<F, S, P> fmt::Display for Generated<F, S, P>
where
    Self: Layout,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        <Self as Layout>::write(f, f.alternate())
    }
}
impl<F, S, P> __private::Sealed for Generated<F, S, P> {}
impl<F, S, P> __private::New for Generated<F, S, P> {
    const NEW: Self = Generated(PhantomData);
}

impl<F, Dom, Cod, const N: usize, Acc, DTile, CTile, Idx, P> Layout
    for Generated<F, Spec<Dom, Cod, Size<N>, Acc, DTile, CTile, Idx>, P>
where
    F: Form,
    Dom: SpaceMarker,
    Cod: SpaceMarker,
    DTile: TileMarker,
    CTile: TileMarker,
    Idx: IndexType,
    P: __private::Program<Idx>,
{
    type Domain = Dom;
    type Codomain = Cod;
    type Size = Size<N>;
    type Access = Acc;
    type DomainTile = DTile;
    type CodomainTile = CTile;
    type Index = Idx;
    type Form = F;
    const SIZE: usize = N;
    const MIN_OFFSET: i64 = P::MIN_OFFSET;
    const MAX_OFFSET: i64 = P::MAX_OFFSET;
    const LINEAR: Option<Leaves> = None;
    const NARROW: bool = P::NARROW;

    #[inline(always)]
    fn offset<C: Coord<F>>(&self, c: C) -> Idx {
        let mut l = [0usize; MAX_LEAVES];
        c.leaves(&mut l, 0);
        P::eval(&l)
    }

    #[inline(always)]
    fn offset_index(&self, i: usize) -> Idx {
        let mut l = [0usize; MAX_LEAVES];
        F::leaves_of_index(i, &mut l, 0);
        P::eval(&l)
    }

    fn write(f: &mut fmt::Formatter<'_>, _cute: bool) -> fmt::Result {
        f.write_str(P::NOTATION)
    }

    fn to_map(&self) -> Result<layout_core::Map, layout_core::Error> {
        layout_core::expr::evaluate_text(P::ALGEBRA)
    }
}

/// `max + 1` when `min ≥ 0`, else 0 (saturating at `usize::MAX`, which no buffer reaches).
const fn cosize(min: i64, max: i64) -> usize {
    if min < 0 || max < 0 {
        return 0;
    }
    // Non-negative (checked above); i64 fits usize on the 64-bit targets this crate supports.
    #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
    let m = max as usize;
    m.saturating_add(1)
}

#[inline(always)]
// Reviewed: `layout!` checked the fields (`b`, `src + b`, `dst + b` below 63), so the mask and
// the shifts stay in range.
#[allow(clippy::arithmetic_side_effects)]
const fn swizzle(x: isize, b: u32, src: u32, dst: u32) -> isize {
    x ^ (((x >> src) & ((1 << b) - 1)) << dst)
}

/// `A ∘ B`, made by [`compose`]: `B` first, then `A`.
pub struct Composed<A, B>(A, B);

impl<A: Copy, B: Copy> Clone for Composed<A, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Copy, B: Copy> Copy for Composed<A, B> {}

impl<A, B> __private::Sealed for Composed<A, B> {}

// `offset` as an inherent method too, as for `Static`: a call on a `Composed` value proves
// the operands' bounds only. [`Layout::offset`] calls it.
impl<A: Layout, B: Layout> Composed<A, B> {
    /// The value at a coordinate of `B`'s domain: one integer (flat index, last mode fastest),
    /// or a natural or coarser coordinate in seed order. Inlined, allocation-free, unchecked.
    /// The same method as [`Layout::offset`], callable without the trait in scope.
    ///
    /// # Contract
    /// `c` must lie in the domain ([`Layout::contains`]): each integer below the size of the
    /// mode (or the whole layout) it indexes. For such coordinates the value is exact and fits
    /// [`Layout::Index`] (`layout!` proved the range). Outside the domain the value is
    /// unspecified — it may be another coordinate's offset — and debug builds may panic; it is
    /// never undefined behaviour. [`Layout::try_offset`] checks; [`View`] always checks.
    #[inline(always)]
    pub fn offset<C: Coord<B::Form>>(&self, c: C) -> A::Index {
        match <Self as Layout>::LINEAR {
            // The composite is a layout: one weighted sum of the coordinates.
            Some(l) if <Self as Layout>::NARROW => A::Index::from_compute(c.eval_in(&l.strides, 0)),
            Some(l) => A::Index::from_isize(c.eval_with(&l.strides, 0)),
            // As written: B's value, unflattened into A's domain, evaluated by A.
            // Reviewed: `B` is a dense bijection onto `[0, SIZE)`, so in the domain its value is
            // a non-negative flat index of `A`.
            #[allow(clippy::cast_sign_loss)]
            None => self.0.offset_index(self.1.offset(c).to_isize() as usize),
        }
    }
}

impl<A: Layout, B: Layout> Layout for Composed<A, B> {
    type Domain = B::Domain;
    type Codomain = A::Codomain;
    type Size = B::Size;
    type Access = A::Access;
    type DomainTile = B::DomainTile;
    type CodomainTile = A::CodomainTile;
    type Index = A::Index;
    type Form = B::Form;
    const SIZE: usize = B::SIZE;
    const MIN_OFFSET: i64 = A::MIN_OFFSET;
    const MAX_OFFSET: i64 = A::MAX_OFFSET;
    const LINEAR: Option<Leaves> = Leaves::compose(A::LINEAR, B::LINEAR);
    const NARROW: bool = match Self::LINEAR {
        Some(l) => narrow_fits::<A::Index>(&l),
        // As written: `B`'s value (a flat index of `A`) and `A`'s evaluation.
        None => A::NARROW && B::NARROW,
    };

    #[inline(always)]
    fn offset<C: Coord<B::Form>>(&self, c: C) -> A::Index {
        // The inherent method (the same computation).
        Composed::offset(self, c)
    }

    #[inline(always)]
    fn offset_index(&self, i: usize) -> A::Index {
        match Self::LINEAR {
            Some(l) if Self::NARROW => {
                A::Index::from_compute(B::Form::eval_index_in(i, &l.strides, 0))
            }
            Some(l) => A::Index::from_isize(B::Form::eval_index_with(i, &l.strides, 0)),
            // Reviewed: as in `offset`.
            #[allow(clippy::cast_sign_loss)]
            None => self
                .0
                .offset_index(self.1.offset_index(i).to_isize() as usize),
        }
    }

    fn write(f: &mut fmt::Formatter<'_>, cute: bool) -> fmt::Result {
        f.write_str("[")?;
        A::write(f, cute)?;
        f.write_str("] ∘ [")?;
        B::write(f, cute)?;
        f.write_str("]")
    }

    fn to_map(&self) -> Result<layout_core::Map, layout_core::Error> {
        layout_core::compose(&self.0.to_map()?, &self.1.to_map()?)
    }
}

/// `left ∘ right` (CuTe `composition(left, right)`; spec: Composition): `right` first.
///
/// `right : X -> logical` must be a dense bijection onto the domain of `left : logical -> Y`;
/// the result maps `X -> Y`. Checked as trait bounds, so each violation is a compile error
/// pointing at the offending argument:
/// - `right` maps into physical or is swizzled → [`RightCodomain`];
/// - `left`'s domain is thread-value → [`LeftDomain`];
/// - sizes differ → [`SameSize`] (e.g. `Size<256>` vs `Size<512>`);
/// - both carry logical tile shapes and they differ → [`SameTile`].
///
/// ```
/// use layout_typed::prelude::*;
/// let smem = layout!((16,32):(32,1), logical -> physical);
/// let tv = layout!((128,4):(4,1), thread-value -> logical);
/// let addr = compose(smem, tv);
/// assert_eq!(addr.offset((3usize, 1usize)), 13);
/// ```
///
/// A `const fn`: a composite is a constant expression, as its operands are.
///
/// ```
/// use layout_typed::prelude::*;
/// layout! {
///     const SMEM = (16,32):(32,1), logical -> physical;
///     const TV = (128,4):(4,1), thread-value -> logical;
/// }
/// const fn addressing() -> impl Layout<Index = i64> {
///     compose(SMEM, TV)
/// }
/// assert_eq!(addressing().offset_index(13), 13); // thread 3, value 1
/// ```
#[inline(always)]
pub const fn compose<A, B>(left: A, right: B) -> Composed<A, B>
where
    A: Layout,
    B: Layout,
    B::Codomain: RightCodomain,
    A::Domain: LeftDomain,
    B::Size: SameSize<A::Size>,
    B::CodomainTile: SameTile<A::DomainTile>,
{
    Composed(left, right)
}

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The guide's examples (`docs/guide.md`), compiled and run as doctests.
#[doc = include_str!("../../docs/guide.md")]
#[cfg(doctest)]
pub struct GuideDoctests;

/// The algebra chapter's examples (`docs/algebra.md`), compiled and run as doctests.
#[doc = include_str!("../../docs/algebra.md")]
#[cfg(doctest)]
pub struct AlgebraDoctests;

/// The "Coming from CuTe" chapter's examples (`docs/cute.md`), compiled and run as doctests.
#[doc = include_str!("../../docs/cute.md")]
#[cfg(doctest)]
pub struct CuteDoctests;

/// The guide's table of contents (`docs/README.md`); included so that every page of `docs/`
/// is compiled (a test in `tests/tests/docs.rs` checks that none is missing).
#[doc = include_str!("../../docs/README.md")]
#[cfg(doctest)]
pub struct DocsIndexDoctests;

/// Getting started (`docs/getting-started.md`), compiled and run as doctests.
#[doc = include_str!("../../docs/getting-started.md")]
#[cfg(doctest)]
pub struct GettingStartedDoctests;

/// The diagnostics gallery (`docs/diagnostics.md`, generated from the UI snapshots).
#[doc = include_str!("../../docs/diagnostics.md")]
#[cfg(doctest)]
pub struct DiagnosticsDoctests;

/// The `layout` command's page (`docs/cli.md`).
#[doc = include_str!("../../docs/cli.md")]
#[cfg(doctest)]
pub struct CliDoctests;

/// The performance page (`docs/performance.md`).
#[doc = include_str!("../../docs/performance.md")]
#[cfg(doctest)]
pub struct PerformanceDoctests;

/// The specification (`docs/spec.md`).
#[doc = include_str!("../../docs/spec.md")]
#[cfg(doctest)]
pub struct SpecDoctests;

/// The GPU page (`docs/gpu.md`).
#[doc = include_str!("../../docs/gpu.md")]
#[cfg(doctest)]
pub struct GpuDoctests;

/// The interface of `layout!`'s expansion: not part of the API. Naming these items by hand
/// bypasses the checks that `layout!` runs.
#[doc(hidden)]
pub mod __private {
    pub use alloc::vec;
    pub use layout_macros::layout_impl;

    pub use crate::dynamic::{Leaf, leaf};
    pub use crate::runtime::Part;

    /// Implemented by the crate's checked types and by `layout!`'s generated ones only.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is not a checked layout: `Layout` is sealed",
        label = "not made by `layout!` or a typed operation",
        note = "checked layouts come from `layout!`, `compose` and the run-time constructors that check (`Dynamic::new`)",
        note = "help: declare the map with `layout!` and use its value"
    )]
    pub trait Sealed {}

    /// The value of a checked type, for `layout!`'s expansion.
    pub trait New: Sized {
        /// The value.
        const NEW: Self;
    }

    /// Implemented by the program of an item whose value is a [`Generated`](crate::Generated)
    /// map, with `H` a fingerprint of that map (`layout!` writes both), and by the [`Spec`] of
    /// a composite decided to be a layout, whose `NAMES` is that fingerprint: an expression
    /// that names the item evaluates the item's definition again, and [`same_program`] or
    /// [`same_decided`] proves that the value under the item's path is the map of that
    /// definition, program, names and domain tree included.
    ///
    /// [`Spec`]: crate::Spec
    #[diagnostic::on_unimplemented(
        message = "the value under this path is not the map of the definition evaluated for it",
        label = "another map than its definition's",
        note = "an expression evaluates the definition that its operand's definition macro hands on (or that is written in `[PATH = ..]`) and refuses a value that is not that map: a definition written by hand that is not the item's own, or another item's value under the item's path",
        note = "help: name the item by its own path, without a definition of your own"
    )]
    pub trait ProgramHash<const H: u128> {}

    /// Compiles only when `value`'s program is the map of fingerprint `H` ([`ProgramHash`]).
    #[inline(always)]
    pub const fn same_program<const H: u128, F, S, P: ProgramHash<H>>(
        value: &crate::Generated<F, S, P>,
    ) {
        let _ = value;
    }

    impl<Dom, Cod, Sz, Acc, DTile, CTile, Idx, const H: u128> ProgramHash<H>
        for crate::Spec<Dom, Cod, Sz, Acc, DTile, CTile, Idx, H>
    {
    }

    /// Compiles only when `value` is the layout of a composite of fingerprint `H`
    /// ([`ProgramHash`]): the form alone keeps neither the names of the composite's domain nor
    /// its tree.
    #[inline(always)]
    pub const fn same_decided<const H: u128, F, S: ProgramHash<H>>(value: &crate::Static<F, S>) {
        let _ = value;
    }

    /// The program of a [`Generated`](crate::Generated) map, emitted by `layout!` for one
    /// expression: its exact offset range, its notation, the expression's text (definitions,
    /// then the expression, as `layout_core::expr::parse_algebra` reads it) and its `offset`
    /// over the domain's leaf coordinates (seed order, in `l[0..]`), in the index type `Idx`.
    pub trait Program<Idx> {
        /// Smallest offset (elements).
        const MIN_OFFSET: i64;
        /// Largest offset (elements).
        const MAX_OFFSET: i64;
        /// The map in seed notation.
        const NOTATION: &'static str;
        /// The expression that made the map, re-evaluated by `to_map`.
        const ALGEBRA: &'static str;
        /// Whether `eval` computes in the 32-bit index type ([`Layout::NARROW`](crate::Layout::NARROW)).
        const NARROW: bool;
        /// The offset at the leaf coordinates `l`.
        fn eval(l: &[usize; crate::MAX_LEAVES]) -> Idx;
    }
}

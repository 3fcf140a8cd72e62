//! Data plus any checked layout (CuTe: `Tensor`): reads at every coordinate of the domain,
//! stores only through exclusive layouts, and `recast` to another element type.

use core::fmt;

use bytemuck::Pod;

use crate::dynamic::{DynComposed, Dynamic};
use crate::form::{Coord, Form, Leaves, MAX_LEAVES};
use crate::rules::{Addressable, Exclusive, PhysicalSpace, ReadOnly, SpaceMarker};
use crate::runtime::DynamicMap;
use crate::view::{Storage, StorageMut};
use crate::{IndexType, Layout};

mod seal {
    pub trait TensorSeal {}
    pub trait AccessSeal {}
}

/// Access marker of a layout with run-time leaves ([`Dynamic`], [`DynComposed`]): whether a
/// `_` mode makes it read-only depends on the run-time sizes (a `_` mode of size `{m}` is a
/// broadcast only when `m > 1`), so it is decided when the value is built
/// ([`Dynamic::is_read_only`]) and [`Tensor::set`] checks it at run time. The constructor
/// cannot refuse such a layout instead: reading through a broadcast is fine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RunTimeAccess;

/// The access markers a tensor's layout may have: [`Exclusive`], [`ReadOnly`],
/// [`RunTimeAccess`]. Sealed.
pub trait AccessKind: seal::AccessSeal {
    /// Whether the type alone makes the layout read-only ([`ReadOnly`]).
    const READ_ONLY: bool;
}
impl seal::AccessSeal for Exclusive {}
impl seal::AccessSeal for ReadOnly {}
impl seal::AccessSeal for RunTimeAccess {}
impl AccessKind for Exclusive {
    const READ_ONLY: bool = false;
}
impl AccessKind for ReadOnly {
    const READ_ONLY: bool = true;
}
impl AccessKind for RunTimeAccess {
    const READ_ONLY: bool = false;
}

/// Access that allows [`Tensor::set`]: [`Exclusive`] (every coordinate has its own address),
/// and [`RunTimeAccess`], whose stores check the layout's run-time read-only flag. A static
/// broadcast ([`ReadOnly`]) does not compile.
#[diagnostic::on_unimplemented(
    message = "cannot store through a broadcast layout: its access is `{Self}`",
    label = "a `_` mode makes several coordinates share one address",
    note = "simultaneous stores to one address are a race; broadcast layouts are read-only (spec: Broadcasts are read-only)",
    note = "help: read with `get`, or store through a layout without `_` strides"
)]
pub trait Storable: AccessKind {}
#[diagnostic::do_not_recommend]
impl Storable for Exclusive {}
#[diagnostic::do_not_recommend]
impl Storable for RunTimeAccess {}

/// An element type that [`Tensor::recast`] can reinterpret: `bytemuck`'s [`Pod`] (no padding,
/// every bit pattern a value), so the bytes of any elements are elements of the other type.
#[diagnostic::on_unimplemented(
    message = "`recast` reinterprets bytes, but `{Self}` is not plain data (`bytemuck::Pod`)",
    label = "not `Pod`: it has padding, or bit patterns that are not values",
    note = "a recast tensor reads the same bytes as elements of another type, so both types must accept every bit pattern",
    note = "help: recast between integers, floats and arrays of them (e.g. `u16` as `[u16; 8]` or `u128`)"
)]
pub trait Element: Pod {}
#[diagnostic::do_not_recommend]
impl<T: Pod> Element for T {}

/// A checked layout into physical space, as a [`Tensor`] uses it: every [`Layout`] whose
/// codomain is physical (swizzled or not) — `layout!` values, composites, the algebra's
/// results, the run-time restrictions `layout!` generates — and the layouts with run-time
/// leaves, [`Dynamic`] and [`DynComposed`]. Sealed: implemented for those only.
///
/// Offsets are in elements; [`TensorLayout::offset_range`] bounds every offset of the domain,
/// which is what lets a tensor check its data once, in O(1), when it is made.
#[diagnostic::on_unimplemented(
    message = "a tensor addresses memory, but this value is not a checked layout into physical space",
    label = "not a checked `.. -> physical` layout",
    note = "a tensor takes a `layout!` value, a composite, a `Dynamic`, a `DynComposed` or a borrowed `&DynamicMap` whose codomain is `physical`",
    note = "help: compose it with a `logical -> physical` layout first"
)]
pub trait TensorLayout: Copy + seal::TensorSeal {
    /// The type-level form of the domain: what [`Coord`] is checked against.
    type Form: Form;
    /// The integer type of offsets.
    type Index: IndexType;
    /// The domain's space (of the first layout applied).
    type Domain: SpaceMarker;
    /// [`Exclusive`], [`ReadOnly`] or [`RunTimeAccess`].
    type Access: AccessKind;

    /// Number of coordinates.
    fn domain_size(&self) -> usize;

    /// The least and greatest offset over the domain, in elements (exact for a layout, a
    /// bound that every offset of the domain lies within for the others).
    fn offset_range(&self) -> (i64, i64);

    /// Whether a broadcast `_` mode of size > 1 makes several coordinates share one address.
    fn is_read_only(&self) -> bool;

    /// The offset at a coordinate, with the contract of [`Layout::offset`] (`c` in the domain;
    /// outside it the value is unspecified, never undefined behaviour).
    fn offset_at<C: Coord<Self::Form>>(&self, c: C) -> Self::Index;

    /// Whether `c` is a coordinate of the domain.
    fn in_domain<C: Coord<Self::Form>>(&self, c: &C) -> bool;

    /// The map as one stride per leaf of the form, when it is one (what `recast` rescales).
    #[doc(hidden)]
    fn linear(&self) -> Option<Leaves>;
}

impl<L: Layout> seal::TensorSeal for L
where
    L::Codomain: Addressable,
    L::Access: AccessKind,
{
}
#[diagnostic::do_not_recommend]
impl<L: Layout> TensorLayout for L
where
    L::Codomain: Addressable,
    L::Access: AccessKind,
{
    type Form = L::Form;
    type Index = L::Index;
    type Domain = L::Domain;
    type Access = L::Access;

    #[inline(always)]
    fn domain_size(&self) -> usize {
        L::SIZE
    }
    #[inline(always)]
    fn offset_range(&self) -> (i64, i64) {
        (L::MIN_OFFSET, L::MAX_OFFSET)
    }
    #[inline(always)]
    fn is_read_only(&self) -> bool {
        <L::Access as AccessKind>::READ_ONLY
    }
    #[inline(always)]
    fn offset_at<C: Coord<L::Form>>(&self, c: C) -> L::Index {
        self.offset(c)
    }
    #[inline(always)]
    fn in_domain<C: Coord<L::Form>>(&self, c: &C) -> bool {
        self.contains(c)
    }
    fn linear(&self) -> Option<Leaves> {
        L::LINEAR
    }
}

impl<F: Form, D: SpaceMarker, C: SpaceMarker + Addressable, I: IndexType> seal::TensorSeal
    for Dynamic<F, D, C, I>
{
}
impl<F: Form, D: SpaceMarker, C: SpaceMarker + Addressable, I: IndexType> TensorLayout
    for Dynamic<F, D, C, I>
{
    type Form = F;
    type Index = I;
    type Domain = D;
    type Access = RunTimeAccess;

    #[inline(always)]
    fn domain_size(&self) -> usize {
        self.size()
    }
    #[inline(always)]
    fn offset_range(&self) -> (i64, i64) {
        self.span()
    }
    #[inline(always)]
    fn is_read_only(&self) -> bool {
        Dynamic::is_read_only(self)
    }
    #[inline(always)]
    fn offset_at<X: Coord<F>>(&self, c: X) -> I {
        self.offset(c)
    }
    #[inline(always)]
    fn in_domain<X: Coord<F>>(&self, c: &X) -> bool {
        self.contains(c)
    }
    fn linear(&self) -> Option<Leaves> {
        Some(self.leaves())
    }
}

impl<F, D, C, I, B> seal::TensorSeal for DynComposed<F, D, C, I, B>
where
    F: Form,
    D: SpaceMarker + Copy,
    C: SpaceMarker + Addressable + Copy,
    I: IndexType,
    B: Layout,
{
}
impl<F, D, C, I, B> TensorLayout for DynComposed<F, D, C, I, B>
where
    F: Form,
    D: SpaceMarker + Copy,
    C: SpaceMarker + Addressable + Copy,
    I: IndexType,
    B: Layout,
{
    type Form = B::Form;
    type Index = I;
    type Domain = B::Domain;
    type Access = RunTimeAccess;

    #[inline(always)]
    fn domain_size(&self) -> usize {
        self.size()
    }
    #[inline(always)]
    fn offset_range(&self) -> (i64, i64) {
        // `right` is a bijection onto the left operand's domain: the same offsets.
        self.left().span()
    }
    #[inline(always)]
    fn is_read_only(&self) -> bool {
        self.left().is_read_only()
    }
    #[inline(always)]
    fn offset_at<X: Coord<B::Form>>(&self, c: X) -> I {
        self.offset(c)
    }
    #[inline(always)]
    fn in_domain<X: Coord<B::Form>>(&self, c: &X) -> bool {
        self.right().contains(c)
    }
    fn linear(&self) -> Option<Leaves> {
        None
    }
}

impl<F: Form, D: SpaceMarker, C: SpaceMarker + Addressable, I: IndexType> seal::TensorSeal
    for &DynamicMap<F, D, C, I>
{
}
/// A tensor borrows a [`DynamicMap`] (the value of an algebra expression with run-time
/// operands, which holds the map it was built from and is not `Copy`).
impl<F: Form, D: SpaceMarker, C: SpaceMarker + Addressable, I: IndexType> TensorLayout
    for &DynamicMap<F, D, C, I>
{
    type Form = F;
    type Index = I;
    type Domain = D;
    type Access = RunTimeAccess;

    #[inline(always)]
    fn domain_size(&self) -> usize {
        self.size()
    }
    #[inline(always)]
    fn offset_range(&self) -> (i64, i64) {
        DynamicMap::offset_range(self)
    }
    #[inline(always)]
    fn is_read_only(&self) -> bool {
        DynamicMap::is_read_only(self)
    }
    #[inline(always)]
    fn offset_at<X: Coord<F>>(&self, c: X) -> I {
        self.offset(c)
    }
    #[inline(always)]
    fn in_domain<X: Coord<F>>(&self, c: &X) -> bool {
        self.contains(c)
    }
    fn linear(&self) -> Option<Leaves> {
        None
    }
}

/// Why a [`Tensor`] could not be made, or [`Tensor::recast`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorError {
    /// The base plus the layout's least offset falls before the data's first element.
    BelowStart {
        /// The base offset (elements).
        base: usize,
        /// The layout's least offset (elements).
        min: i64,
    },
    /// The base plus the layout's greatest offset falls past the data's last element.
    PastEnd {
        /// Elements in the data.
        len: usize,
        /// The base offset (elements).
        base: usize,
        /// The layout's greatest offset (elements).
        max: i64,
    },
    /// `recast` between element types of which neither size is a multiple of the other (or
    /// one is zero-sized), in bytes.
    ElementSizes {
        /// `size_of` the tensor's element type.
        from: usize,
        /// `size_of` the requested one.
        to: usize,
    },
    /// `recast` of a layout that is not one stride per leaf (a swizzle, a composite evaluated
    /// as written, a restriction by a run-time value, a run-time composite).
    NotLinear,
    /// `recast` to a `factor` times larger element: the leaf of stride 1 has a size that
    /// `factor` does not divide (its vectors would straddle two coordinates).
    UnitModeSize {
        /// The leaf (seed order, from 0).
        leaf: usize,
        /// Its size.
        size: usize,
        /// `size_of` the new element over `size_of` the old one.
        factor: usize,
    },
    /// `recast` to a `factor` times larger element: a leaf other than the one of stride 1 has
    /// a stride that is not a multiple of `factor` (a leading dimension that breaks the
    /// vectors' alignment).
    StrideNotMultiple {
        /// The leaf (seed order, from 0).
        leaf: usize,
        /// Its stride (elements of the old type).
        stride: isize,
        /// `size_of` the new element over `size_of` the old one.
        factor: usize,
    },
    /// `recast` to a `factor` times larger element: the base offset is not a multiple of
    /// `factor`.
    BaseNotMultiple {
        /// The base offset (elements of the old type).
        base: usize,
        /// `size_of` the new element over `size_of` the old one.
        factor: usize,
    },
    /// `recast` to a smaller element: no leaf has stride 1, so an element cannot be split
    /// into consecutive coordinates of one mode.
    NoUnitMode,
    /// The data's address is not a multiple of the new element type's alignment.
    Misaligned {
        /// `align_of` the new element type (bytes).
        align: usize,
        /// The address modulo `align`.
        misalignment: usize,
    },
    /// `recast` to a smaller element: a size, stride, offset or the base does not fit (the
    /// offsets must fit the layout's index type).
    Overflow,
}

impl fmt::Display for TensorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TensorError::BelowStart { base, min } => write!(
                f,
                "the layout reaches offset {min}, before the data's start at base {base}"
            ),
            TensorError::PastEnd { len, base, max } => write!(
                f,
                "the layout reaches offset {max} from base {base}, past the data's {len} elements"
            ),
            TensorError::ElementSizes { from, to } => write!(
                f,
                "recast between elements of {from} and {to} bytes: neither size is a multiple of the other"
            ),
            TensorError::NotLinear => f.write_str(
                "recast of a map that is not one stride per leaf (a swizzle, a composite or a restriction)",
            ),
            TensorError::UnitModeSize { leaf, size, factor } => write!(
                f,
                "recast by {factor}: the stride-1 leaf {leaf} has size {size}, not a multiple of {factor}"
            ),
            TensorError::StrideNotMultiple {
                leaf,
                stride,
                factor,
            } => write!(
                f,
                "recast by {factor}: leaf {leaf} has stride {stride}, not a multiple of {factor}"
            ),
            TensorError::BaseNotMultiple { base, factor } => write!(
                f,
                "recast by {factor}: the base offset {base} is not a multiple of {factor}"
            ),
            TensorError::NoUnitMode => {
                f.write_str("recast to a smaller element: no leaf has stride 1")
            }
            TensorError::Misaligned {
                align,
                misalignment,
            } => write!(
                f,
                "the data's address is {misalignment} bytes past a multiple of the new element's alignment {align}"
            ),
            TensorError::Overflow => f.write_str(
                "recast to a smaller element: a size, stride or offset does not fit its index type",
            ),
        }
    }
}

impl core::error::Error for TensorError {}

#[cold]
#[inline(never)]
#[track_caller]
fn out_of_domain() -> ! {
    panic!("coordinate outside the tensor's layout domain")
}

#[cold]
#[inline(never)]
#[track_caller]
fn read_only() -> ! {
    panic!("store through a read-only (broadcast) layout")
}

/// Data seen through any checked layout into physical space, from a base offset (CuTe:
/// `make_tensor(ptr + base, layout)`).
///
/// The data is a slice, an array or a `Vec`, borrowed or owned ([`Storage`]); the layout any
/// [`TensorLayout`]: a `layout!` value (plain, swizzled, generated, a restriction by a
/// run-time value), a composite, a [`Dynamic`] or a [`DynComposed`]. The element at
/// coordinate `c` is `data[base + offset(c)]`.
///
/// **Checked once.** [`Tensor::try_new`] checks in O(1), from the layout's offset range, that
/// every reachable element lies in the data (the base included), so no access needs a range
/// check of its own beyond the slice's.
///
/// **Access rules.** The contracts of [`crate::View`]: [`Tensor::get`] and [`Tensor::set`]
/// check the coordinate against the domain in every build profile (and panic, as slice
/// indexing does), [`Tensor::try_get`] and [`Tensor::try_set`] return, and
/// [`Tensor::get_unchecked`] and [`Tensor::set_unchecked`] skip the domain check and stay safe
/// (the slice index is bounds-checked). Stores go only through exclusive layouts: through a
/// static broadcast (`Access = ReadOnly`) [`Tensor::set`] does not compile; a layout with
/// run-time leaves knows whether it is a broadcast only at run time (a `_` mode of size
/// `{m}`), so its stores check the flag its constructor computed: `set` and `set_unchecked`
/// panic, `try_set` gives the value back.
///
/// ```
/// use layout_typed::prelude::*;
/// use layout_typed::TensorError;
/// let mut buf = vec![0.0f32; 600];
/// // A 16×32 tile of a larger row-major matrix, from element 40.
/// let mut t = Tensor::with_base(&mut buf, 40, layout!((16,32):(32,1), logical -> physical));
/// t.set((2usize, 3usize), 1.5);
/// assert_eq!(buf[40 + 2 * 32 + 3], 1.5);
///
/// let (m, ld) = (10usize, 48usize); // run-time rows and leading dimension
/// let g = layout!(({m}, 32):({ld}, 1), logical -> physical)?;
/// let t = Tensor::new(&buf[..], g);
/// assert_eq!(*t.get((1usize, 3usize)), buf[48 + 3]);
/// // Checked once, from the offset range [0, 9·48 + 31]: from base 200 it does not fit.
/// let err = Tensor::try_with_base(&buf[..], 200, g).unwrap_err();
/// assert_eq!(err, TensorError::PastEnd { len: 600, base: 200, max: 463 });
/// # Ok::<(), layout_typed::core_algebra::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Tensor<S, L> {
    data: S,
    base: usize,
    layout: L,
}

/// The layout of a recast tensor: the form of `L`, with the run-time sizes and strides that
/// [`Tensor::recast`] computed.
pub type Recast<L> = Dynamic<
    <L as TensorLayout>::Form,
    <L as TensorLayout>::Domain,
    PhysicalSpace,
    <L as TensorLayout>::Index,
>;

impl<S: Storage, L: TensorLayout> Tensor<S, L> {
    /// `data` through `layout`, from element 0.
    ///
    /// # Errors
    /// As [`Tensor::try_with_base`] with base 0.
    pub fn try_new(data: S, layout: L) -> Result<Self, TensorError> {
        Self::try_with_base(data, 0, layout)
    }

    /// `data` through `layout`, from element `base`: coordinate `c` is `data[base + offset(c)]`.
    ///
    /// # Errors
    /// [`TensorError::BelowStart`] when `base` plus the least offset is negative,
    /// [`TensorError::PastEnd`] when `base` plus the greatest offset is not below the data's
    /// length.
    pub fn try_with_base(data: S, base: usize, layout: L) -> Result<Self, TensorError> {
        let (min, max) = layout.offset_range();
        let len = data.elems().len();
        // `base + min ≥ 0` and `base + max < len`, exact: a magnitude that does not fit
        // `usize` is past every base.
        let below = |m: i64| usize::try_from(m.unsigned_abs()).unwrap_or(usize::MAX);
        if min < 0 && base < below(min) {
            return Err(TensorError::BelowStart { base, min });
        }
        let last = if max < 0 {
            // `base ≥ |min| ≥ |max|` (checked above): no underflow.
            base.checked_sub(below(max))
        } else {
            usize::try_from(max).ok().and_then(|m| base.checked_add(m))
        };
        if last.is_none_or(|last| last >= len) {
            return Err(TensorError::PastEnd { len, base, max });
        }
        Ok(Tensor { data, base, layout })
    }

    /// `data` through `layout`, from element 0.
    ///
    /// # Panics
    /// Where [`Tensor::try_new`] returns an error.
    #[track_caller]
    pub fn new(data: S, layout: L) -> Self {
        match Self::try_new(data, layout) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// `data` through `layout`, from element `base`.
    ///
    /// # Panics
    /// Where [`Tensor::try_with_base`] returns an error.
    #[track_caller]
    pub fn with_base(data: S, base: usize, layout: L) -> Self {
        match Self::try_with_base(data, base, layout) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// The slice index of coordinate `c`: `base + offset(c)`. In the domain it lies in the
    /// data (checked by the constructor); outside it a negative sum wraps past every slice, so
    /// indexing panics.
    #[inline(always)]
    fn index<C: Coord<L::Form>>(&self, c: C) -> usize {
        // Reviewed: `base` is at most the data's length, below `isize::MAX`; the sum is exact
        // in the domain, and outside it any value is caught by the slice's bounds check.
        #[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
        let i = (self.base as isize).wrapping_add(self.layout.offset_at(c).to_isize()) as usize;
        i
    }

    /// The element at a coordinate (seed order, or a flat index).
    ///
    /// # Panics
    /// When `c` is outside the layout's domain, in every build profile.
    #[inline(always)]
    #[track_caller]
    pub fn get<C: Coord<L::Form>>(&self, c: C) -> &S::Elem {
        match self.try_get(c) {
            Some(e) => e,
            None => out_of_domain(),
        }
    }

    /// The element at a coordinate, or `None` outside the layout's domain.
    #[inline(always)]
    pub fn try_get<C: Coord<L::Form>>(&self, c: C) -> Option<&S::Elem> {
        if self.layout.in_domain(&c) {
            Some(self.get_unchecked(c))
        } else {
            None
        }
    }

    /// The element at a coordinate without the domain check, for loops whose coordinates are
    /// in the domain by construction. Safe: the slice index is bounds-checked, so an
    /// out-of-domain coordinate reads another element of the data or panics.
    #[inline(always)]
    pub fn get_unchecked<C: Coord<L::Form>>(&self, c: C) -> &S::Elem {
        &self.data.elems()[self.index(c)]
    }

    /// The layout.
    pub fn layout(&self) -> L {
        self.layout
    }

    /// The base offset (elements).
    pub fn base(&self) -> usize {
        self.base
    }

    /// Number of coordinates.
    pub fn size(&self) -> usize {
        self.layout.domain_size()
    }

    /// Whether the layout is read-only (a broadcast).
    pub fn is_read_only(&self) -> bool {
        self.layout.is_read_only()
    }

    /// The storage back.
    pub fn into_inner(self) -> S {
        self.data
    }

    /// The same data as elements of type `U` (CuTe: `recast<U>(tensor)`), read-only.
    ///
    /// With `k = size_of U / size_of T` (a larger element, e.g. eight `u16` as one `[u16; 8]`
    /// or a `u128`): the leaf of stride 1 must have a size that `k` divides (its size becomes
    /// `size / k`), every other stride and the base must be multiples of `k` (they are divided
    /// by `k`), and the data's address a multiple of `align_of U`. With
    /// `k = size_of T / size_of U` (a smaller element, splitting each): a leaf must have
    /// stride 1 (its size is multiplied by `k`), every other stride and the base are multiplied
    /// by `k`. The coordinate types stay those of the layout's form. Every element of the
    /// result is the bytes of the elements it covers: nothing is copied, and the reinterpretation
    /// is `bytemuck`'s checked cast between [`Pod`] types (a type with padding or invalid bit
    /// patterns does not compile). The result is a [`Dynamic`] layout, checked again like any
    /// other tensor (its data is the whole elements of `U` in the data).
    ///
    /// ```
    /// use layout_typed::prelude::*;
    /// let bits: Vec<u16> = (0..128).collect(); // fp16 values as bits
    /// let t = Tensor::new(&bits[..], layout!((8,16):(16,1), logical -> physical));
    /// let v = t.recast::<[u16; 8]>()?;           // (8,2):(2,1) over 16 vectors
    /// assert_eq!(*v.get((3usize, 1usize)), [56, 57, 58, 59, 60, 61, 62, 63]);
    /// # Ok::<(), layout_typed::TensorError>(())
    /// ```
    ///
    /// # Errors
    /// [`TensorError::ElementSizes`], [`TensorError::NotLinear`],
    /// [`TensorError::UnitModeSize`], [`TensorError::StrideNotMultiple`],
    /// [`TensorError::BaseNotMultiple`], [`TensorError::NoUnitMode`],
    /// [`TensorError::Overflow`], [`TensorError::Misaligned`], in that order, then those of
    /// [`Tensor::try_with_base`] for the result.
    pub fn recast<U: Element>(&self) -> Result<Tensor<&[U], Recast<L>>, TensorError>
    where
        S::Elem: Element,
    {
        let data = self.data.elems();
        let (layout, base, keep) = plan::<S::Elem, U, L>(&self.layout, self.base, data)?;
        let cast = bytemuck::try_cast_slice::<S::Elem, U>(&data[..keep]).map_err(|_| {
            TensorError::Misaligned {
                align: core::mem::align_of::<U>(),
                misalignment: misalignment::<U>(data.as_ptr().addr()),
            }
        })?;
        Tensor::try_with_base(cast, base, layout)
    }
}

impl<S: StorageMut, L: TensorLayout> Tensor<S, L> {
    /// Stores `value` at a coordinate. Only through exclusive layouts: through a static
    /// broadcast it does not compile; through a run-time layout that its values made a
    /// broadcast it panics.
    ///
    /// # Panics
    /// When `c` is outside the layout's domain (in every build profile), or the layout is a
    /// run-time broadcast ([`Tensor::is_read_only`]).
    #[inline(always)]
    #[track_caller]
    pub fn set<C: Coord<L::Form>>(&mut self, c: C, value: S::Elem)
    where
        L::Access: Storable,
    {
        if !self.layout.in_domain(&c) {
            out_of_domain()
        }
        self.set_unchecked(c, value);
    }

    /// Stores `value` at a coordinate, or gives it back when `c` is outside the domain or the
    /// layout is a run-time broadcast; nothing is stored then.
    ///
    /// # Errors
    /// `Err(value)` in those two cases.
    #[inline(always)]
    pub fn try_set<C: Coord<L::Form>>(&mut self, c: C, value: S::Elem) -> Result<(), S::Elem>
    where
        L::Access: Storable,
    {
        if self.layout.in_domain(&c) && !self.layout.is_read_only() {
            self.set_unchecked(c, value);
            Ok(())
        } else {
            Err(value)
        }
    }

    /// Stores without the domain check (see [`Tensor::get_unchecked`]: safe, the slice index
    /// is bounds-checked, but an out-of-domain coordinate may store into another element). The
    /// read-only rule is still enforced.
    ///
    /// # Panics
    /// When the layout is a run-time broadcast, or the index falls outside the data.
    #[inline(always)]
    #[track_caller]
    pub fn set_unchecked<C: Coord<L::Form>>(&mut self, c: C, value: S::Elem)
    where
        L::Access: Storable,
    {
        if self.layout.is_read_only() {
            read_only()
        }
        let i = self.index(c);
        self.data.elems_mut()[i] = value;
    }

    /// The same data as elements of type `U`, for stores (CuTe: `recast<U>(tensor)`): the
    /// rules and errors of [`Tensor::recast`].
    ///
    /// ```
    /// use layout_typed::prelude::*;
    /// let mut bits = [0u16; 64];
    /// let mut t = Tensor::new(&mut bits, layout!((4,16):(16,1), logical -> physical));
    /// let mut v = t.recast_mut::<u64>()?;      // 4 × 4 words of four u16 each
    /// v.set((1usize, 2usize), u64::MAX);
    /// assert_eq!(bits[16 + 8..16 + 12], [u16::MAX; 4]);
    /// # Ok::<(), layout_typed::TensorError>(())
    /// ```
    ///
    /// # Errors
    /// Those of [`Tensor::recast`].
    pub fn recast_mut<U: Element>(&mut self) -> Result<Tensor<&mut [U], Recast<L>>, TensorError>
    where
        S::Elem: Element,
    {
        let base = self.base;
        let layout = self.layout;
        let data = self.data.elems_mut();
        let (layout, base, keep) = plan::<S::Elem, U, L>(&layout, base, data)?;
        let misalignment = misalignment::<U>(data.as_ptr().addr());
        let cast = bytemuck::try_cast_slice_mut::<S::Elem, U>(&mut data[..keep]).map_err(|_| {
            TensorError::Misaligned {
                align: core::mem::align_of::<U>(),
                misalignment,
            }
        })?;
        Tensor::try_with_base(cast, base, layout)
    }
}

/// An address modulo `align_of U`.
fn misalignment<U>(address: usize) -> usize {
    // Reviewed: an alignment is at least 1.
    #[allow(clippy::arithmetic_side_effects)]
    let r = address % core::mem::align_of::<U>();
    r
}

/// The layout, base and number of old elements kept (whole new elements) of a recast from
/// `T` to `U`, or the first rule it breaks.
// Reviewed: every divisor is `k` or `small`, at least 1 (zero-sized types are refused first),
// and the divisions are exact where they matter (checked by the `%` before them); a negative
// stride divided by a positive `k` cannot overflow. Products are checked.
#[allow(clippy::arithmetic_side_effects)]
fn plan<T, U, L: TensorLayout>(
    layout: &L,
    base: usize,
    data: &[T],
) -> Result<(Recast<L>, usize, usize), TensorError> {
    let (from, to) = (core::mem::size_of::<T>(), core::mem::size_of::<U>());
    let sizes = TensorError::ElementSizes { from, to };
    if from == 0 || to == 0 {
        return Err(sizes);
    }
    let up = to >= from;
    let (big, small) = if up { (to, from) } else { (from, to) };
    if !big.is_multiple_of(small) {
        return Err(sizes);
    }
    let k = big / small;
    let mut l = layout.linear().ok_or(TensorError::NotLinear)?;
    let n = l.len.min(MAX_LEAVES);
    let kk = isize::try_from(k).map_err(|_| TensorError::Overflow)?;
    let new_base;
    let keep;
    if up {
        for j in 0..n {
            let (size, stride) = (l.sizes[j], l.strides[j]);
            if size == 1 {
                // A size-1 leaf contributes nothing: its stride is irrelevant.
                l.strides[j] = 0;
            } else if stride == 1 {
                if !size.is_multiple_of(k) {
                    return Err(TensorError::UnitModeSize {
                        leaf: j,
                        size,
                        factor: k,
                    });
                }
                l.sizes[j] = size / k;
            } else {
                if stride % kk != 0 {
                    return Err(TensorError::StrideNotMultiple {
                        leaf: j,
                        stride,
                        factor: k,
                    });
                }
                l.strides[j] = stride / kk;
            }
        }
        if !base.is_multiple_of(k) {
            return Err(TensorError::BaseNotMultiple { base, factor: k });
        }
        new_base = base / k;
        keep = data.len() - data.len() % k;
    } else {
        let unit = (0..n)
            .find(|&j| l.strides[j] == 1 && l.sizes[j] > 1)
            .or_else(|| (0..n).find(|&j| l.strides[j] == 1))
            .ok_or(TensorError::NoUnitMode)?;
        for j in 0..n {
            if j == unit {
                l.sizes[j] = l.sizes[j].checked_mul(k).ok_or(TensorError::Overflow)?;
            } else if l.sizes[j] == 1 {
                l.strides[j] = 0;
            } else {
                l.strides[j] = l.strides[j].checked_mul(kk).ok_or(TensorError::Overflow)?;
            }
        }
        new_base = base.checked_mul(k).ok_or(TensorError::Overflow)?;
        keep = data.len();
    }
    // The new offset range and size, checked (sizes are at least 1).
    let (mut min, mut max, mut size) = (0i64, 0i64, 1usize);
    for j in 0..n {
        let span = i64::try_from(l.sizes[j] - 1)
            .ok()
            .zip(i64::try_from(l.strides[j]).ok())
            .and_then(|(c, d)| c.checked_mul(d))
            .ok_or(TensorError::Overflow)?;
        let sum = if span < 0 { &mut min } else { &mut max };
        *sum = sum.checked_add(span).ok_or(TensorError::Overflow)?;
        size = size.checked_mul(l.sizes[j]).ok_or(TensorError::Overflow)?;
    }
    let (type_min, type_max) = <L::Index as IndexType>::RANGE;
    if min < type_min || max > type_max {
        return Err(TensorError::Overflow);
    }
    let misalignment = misalignment::<U>(data.as_ptr().addr());
    if misalignment != 0 {
        return Err(TensorError::Misaligned {
            align: core::mem::align_of::<U>(),
            misalignment,
        });
    }
    Ok((Dynamic::from_leaves(&l, size, min, max), new_base, keep))
}

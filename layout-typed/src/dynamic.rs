//! Layouts with run-time leaves (spec: Run-time leaves): `layout!(({m}, 64):({ld}, 1), logical -> physical)`.
//!
//! A leaf written `{expr}` is a run-time value: a problem size or a leading dimension. Every
//! check that involves only static leaves still runs while compiling (syntax, profiles, zero
//! strides, sizes, the annotation, swizzle fields, and alias-freedom of the static modes among
//! themselves); the checks that involve a run-time value (the whole layout's alias-freedom or
//! dense bijection, the offset range of the index type) run once, on the host, when the value
//! is built, and return a `Result`. The size of such a layout is not a type-level constant, so a
//! composition with it checks sizes at run time ([`try_compose`]).

use core::fmt;
use core::marker::PhantomData;

use layout_core::Error;

use crate::form::{Coord, Form, MAX_LEAVES};
use crate::rules::{LeftDomain, RightCodomain, SpaceMarker};
use crate::{IndexType, Layout};

/// A checked layout with run-time leaves. `F` is its form with placeholders at the run-time
/// leaves, `D`/`C` its spaces, `I` its index type.
#[allow(clippy::type_complexity)]
pub struct Dynamic<F, D, C, I> {
    sizes: [usize; MAX_LEAVES],
    strides: [isize; MAX_LEAVES],
    size: usize,
    min: i64,
    max: i64,
    read_only: bool,
    _p: PhantomData<fn() -> (F, D, C, I)>,
}

impl<F, D, C, I> Clone for Dynamic<F, D, C, I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F, D, C, I> Copy for Dynamic<F, D, C, I> {}

/// The integer types a run-time leaf `{expr}` of `layout!` may have: every primitive integer
/// type. Its value is converted to `i64` with a check; a value outside `i64` is
/// [`Error::LeafOutOfRange`] (never a wrapped or truncated stride). Floating-point numbers,
/// `bool` and other types are compile errors:
///
/// ```compile_fail
/// use layout_typed::prelude::*;
/// let ld = 64.0f64;
/// let g = layout!((8, 64):({ld}, 1), logical -> physical); // error: not an integer
/// ```
///
/// ```
/// use layout_typed::prelude::*;
/// use layout_typed::core_algebra::Error;
/// let ld = u64::MAX;
/// let g = layout!((8, 64):({ld}, 1), logical -> physical);
/// assert!(matches!(g, Err(Error::LeafOutOfRange { leaf: 0, stride: true, .. })));
/// ```
#[diagnostic::on_unimplemented(
    message = "a run-time leaf `{{..}}` must be an integer, not `{Self}`",
    label = "this leaf is a `{Self}`",
    note = "sizes and strides count positions and elements: they are integers, converted to `i64` with a check",
    note = "help: compute the value as an integer; round and range-check a floating-point value explicitly where it is computed"
)]
pub trait LeafInteger: Copy + sealed::Sealed {
    /// The value as an `i64`, or its sign and magnitude when it does not fit.
    #[doc(hidden)]
    fn to_leaf(self) -> Leaf;
}

mod sealed {
    pub trait Sealed {}
}

/// A run-time leaf's value: an `i64`, or the sign and magnitude of one outside `i64`.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf(Result<i64, (bool, u128)>);

impl Leaf {
    /// The value, or its sign and magnitude when it does not fit `i64`.
    pub(crate) fn value(self) -> Result<i64, (bool, u128)> {
        self.0
    }
}

/// Converts a run-time leaf (`layout!`'s expansion calls this).
#[doc(hidden)]
#[inline]
pub fn leaf<T: LeafInteger>(v: T) -> Leaf {
    v.to_leaf()
}

macro_rules! leaf_integer {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl LeafInteger for $t {
            #[inline]
            fn to_leaf(self) -> Leaf {
                Leaf(i64::try_from(self).map_err(|_| {
                    let wide = i128::try_from(self).ok();
                    match wide {
                        Some(w) => (w < 0, w.unsigned_abs()),
                        // Only a `u128` above `i128::MAX` does not fit `i128`: positive.
                        None => (false, u128::try_from(self).unwrap_or(u128::MAX)),
                    }
                }))
            }
        }
    )*};
}
leaf_integer!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

impl<F: Form, D: SpaceMarker, C: SpaceMarker, I: IndexType> Dynamic<F, D, C, I> {
    /// [`Dynamic::new`] from `layout!`'s converted leaves: the first leaf outside `i64` is
    /// [`Error::LeafOutOfRange`].
    #[doc(hidden)]
    pub fn __new(sizes: &[Leaf], strides: &[Option<Leaf>]) -> Result<Self, Error> {
        let out_of_range = |leaf: usize, stride: bool, (negative, magnitude): (bool, u128)| {
            Error::LeafOutOfRange {
                leaf,
                stride,
                negative,
                magnitude,
            }
        };
        let mut s = [0i64; MAX_LEAVES];
        let mut d = [None; MAX_LEAVES];
        if sizes.len() > MAX_LEAVES || strides.len() > MAX_LEAVES {
            return Err(Error::TooWide {
                mode: layout_core::ModePath::ROOT,
                rank: sizes.len().max(strides.len()),
            });
        }
        for (k, (size, stride)) in sizes.iter().zip(strides).enumerate() {
            s[k] = size.0.map_err(|e| out_of_range(k, false, e))?;
            d[k] = match stride {
                Some(v) => Some(v.0.map_err(|e| out_of_range(k, true, e))?),
                None => None,
            };
        }
        Self::new(&s[..sizes.len()], &d[..strides.len()])
    }

    /// Builds and checks the layout from its leaves' values in order (seed order; `None` is a
    /// broadcast stride). `layout!` calls this with the run-time and static leaves.
    ///
    /// # Errors
    /// Every error of [`layout_core::Layout::new`] and [`layout_core::check`] (not dense,
    /// aliasing, zero stride, overflow, …), and [`Error::IndexTypeRange`] when the offsets do
    /// not fit `I`.
    pub fn new(sizes: &[i64], strides: &[Option<i64>]) -> Result<Self, Error> {
        let (shape, stride) = F::tree_dyn(sizes, strides, &mut 0);
        let l = layout_core::Layout::new(shape, stride)?;
        layout_core::check(&l, D::SPACE, C::SPACE)?;
        let (min, max) = l.span();
        let (type_min, type_max) = I::RANGE;
        if min < type_min || max > type_max {
            return Err(Error::IndexTypeRange {
                min,
                max,
                type_min,
                type_max,
            });
        }
        let overflow = Error::Overflow {
            mode: layout_core::ModePath::ROOT,
            what: layout_core::Quantity::Positions,
        };
        let mut out = Dynamic {
            sizes: [1; MAX_LEAVES],
            strides: [0; MAX_LEAVES],
            size: usize::try_from(l.size()).map_err(|_| overflow)?,
            min,
            max,
            read_only: l.is_broadcast(),
            _p: PhantomData,
        };
        if l.modes().len() != F::LEAVES.len {
            return Err(Error::TooWide {
                mode: layout_core::ModePath::ROOT,
                rank: l.modes().len(),
            });
        }
        for (k, m) in l.modes().iter().enumerate().take(MAX_LEAVES) {
            out.sizes[k] = usize::try_from(m.size).map_err(|_| overflow)?;
            out.strides[k] = isize::try_from(m.stride.value()).map_err(|_| overflow)?;
        }
        Ok(out)
    }

    /// Whether `c` is a coordinate of the domain (each integer below the run-time size of the
    /// mode it indexes).
    #[inline]
    pub fn contains<X: Coord<F>>(&self, c: &X) -> bool {
        c.in_domain_dyn(&self.sizes, 0)
    }

    /// The offset at a coordinate: one integer (flat index, last leaf fastest) or a natural
    /// or coarser coordinate in seed order. Integers are unflattened with the run-time sizes.
    ///
    /// The contract of [`Layout::offset`]: `c` must lie in the domain
    /// ([`Dynamic::contains`]); outside it the value is unspecified (never undefined
    /// behaviour). [`Dynamic::try_offset`] checks.
    #[inline]
    pub fn offset<X: Coord<F>>(&self, c: X) -> I {
        let mut l = [0usize; MAX_LEAVES];
        c.leaves_dyn(&self.sizes, &mut l, 0);
        let mut acc = 0isize;
        let n = F::LEAVES.len;
        for ((c, size), stride) in l[..n].iter().zip(&self.sizes[..n]).zip(&self.strides[..n]) {
            debug_assert!(c < size, "coordinate {c} outside its mode of size {size}");
            // In the domain every partial sum is an offset of the layout, which `new` proved
            // to fit `i64`; outside it the value is unspecified, so wrapping is the contract.
            #[allow(clippy::cast_possible_wrap)]
            let c = *c as isize;
            acc = acc.wrapping_add(c.wrapping_mul(*stride));
        }
        I::from_isize(acc)
    }

    /// The checked form of [`Dynamic::offset`]: `None` outside the domain.
    #[inline]
    pub fn try_offset<X: Coord<F>>(&self, c: X) -> Option<I> {
        if self.contains(&c) {
            Some(self.offset(c))
        } else {
            None
        }
    }

    /// Number of coordinates.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// `max + 1` when the smallest offset is ≥ 0, else 0: the buffer length the layout needs.
    #[must_use]
    pub fn cosize(&self) -> usize {
        crate::cosize(self.min, self.max)
    }

    /// Whether a `_` mode of size > 1 makes it read-only.
    #[must_use]
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The least and greatest offset over the domain (elements).
    pub(crate) fn span(&self) -> (i64, i64) {
        (self.min, self.max)
    }

    /// The leaves' sizes and strides (seed order; a broadcast has stride 0).
    pub(crate) fn leaves(&self) -> crate::form::Leaves {
        crate::form::Leaves {
            len: F::LEAVES.len,
            sizes: self.sizes,
            strides: self.strides,
        }
    }

    /// A layout over the same form from leaves that a checked layout's were turned into
    /// (`Tensor::recast`): the caller has shown them alias-free, with offsets in
    /// `[min, max]` inside `I`.
    pub(crate) fn from_leaves(l: &crate::form::Leaves, size: usize, min: i64, max: i64) -> Self {
        let n = F::LEAVES.len;
        let read_only = l.sizes[..n]
            .iter()
            .zip(&l.strides[..n])
            .any(|(&s, &d)| s > 1 && d == 0);
        Dynamic {
            sizes: l.sizes,
            strides: l.strides,
            size,
            min,
            max,
            read_only,
            _p: PhantomData,
        }
    }

    /// The same layout as a run-time `layout_core` layout.
    ///
    /// # Errors
    /// None for a value made by `layout!`.
    pub fn to_layout(&self) -> Result<layout_core::Layout, Error> {
        let n = F::LEAVES.len;
        let overflow = Error::Overflow {
            mode: layout_core::ModePath::ROOT,
            what: layout_core::Quantity::Positions,
        };
        let sizes = self.sizes[..n]
            .iter()
            .map(|&s| i64::try_from(s).map_err(|_| overflow))
            .collect::<Result<alloc::vec::Vec<i64>, Error>>()?;
        let strides = self.strides[..n]
            .iter()
            .map(|&d| i64::try_from(d).map(Some).map_err(|_| overflow))
            .collect::<Result<alloc::vec::Vec<Option<i64>>, Error>>()?;
        let (shape, stride) = F::tree_dyn(&sizes, &strides, &mut 0);
        layout_core::Layout::new(shape, stride)
    }
}

impl<F: Form, D, C, I> fmt::Debug for Dynamic<F, D, C, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = F::LEAVES.len;
        f.debug_struct("Dynamic")
            .field("sizes", &&self.sizes[..n])
            .field("strides", &&self.strides[..n])
            .finish()
    }
}

/// `left ∘ right` for a left operand with run-time leaves: `right` (a static layout into
/// logical) first. The spaces are checked while compiling, as for [`crate::compose`]; the
/// sizes, which depend on run-time values, when this runs.
///
/// # Errors
/// [`Error::SizeMismatch`] when `right` does not enumerate every position of `left`.
pub fn try_compose<F, D, C, I, B>(
    left: Dynamic<F, D, C, I>,
    right: B,
) -> Result<DynComposed<F, D, C, I, B>, Error>
where
    F: Form,
    D: SpaceMarker + LeftDomain,
    C: SpaceMarker,
    I: IndexType,
    B: Layout,
    B::Codomain: RightCodomain,
{
    if left.size != B::SIZE {
        return Err(Error::SizeMismatch {
            left: i64::try_from(left.size).unwrap_or(i64::MAX),
            right: i64::try_from(B::SIZE).unwrap_or(i64::MAX),
        });
    }
    Ok(DynComposed { left, right })
}

/// A composite made by [`try_compose`]: `right`'s value unflattened into `left` (run-time sizes).
#[derive(Clone, Copy)]
pub struct DynComposed<F, D, C, I, B> {
    left: Dynamic<F, D, C, I>,
    right: B,
}

impl<F: Form, D: SpaceMarker, C: SpaceMarker, I: IndexType, B: Layout> DynComposed<F, D, C, I, B> {
    /// The offset at a coordinate of `right`'s domain (the contract of [`Layout::offset`]:
    /// `c` in the domain; [`DynComposed::try_offset`] checks).
    #[inline]
    pub fn offset<X: Coord<B::Form>>(&self, c: X) -> I {
        // `right` is a dense bijection onto `[0, size)`: its values in the domain are
        // non-negative.
        #[allow(clippy::cast_sign_loss)]
        let i = self.right.offset(c).to_isize() as usize;
        self.left.offset(i)
    }

    /// The checked form of [`DynComposed::offset`]: `None` outside the domain.
    #[inline]
    pub fn try_offset<X: Coord<B::Form>>(&self, c: X) -> Option<I> {
        if self.right.contains(&c) {
            Some(self.offset(c))
        } else {
            None
        }
    }

    /// Number of coordinates.
    #[must_use]
    pub fn size(&self) -> usize {
        B::SIZE
    }

    /// The left operand (run-time leaves).
    pub(crate) fn left(&self) -> &Dynamic<F, D, C, I> {
        &self.left
    }

    /// The right operand (static, into logical).
    pub(crate) fn right(&self) -> &B {
        &self.right
    }
}

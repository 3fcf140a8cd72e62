//! Layouts with run-time leaves (SPEC §11): `layout!(({m}, 64):({ld}, 1), logical -> physical)`.
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

use layout_core::{Error, Layout as CoreLayout};

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

impl<F: Form, D: SpaceMarker, C: SpaceMarker, I: IndexType> Dynamic<F, D, C, I> {
    /// Builds and checks the layout from its leaves' values in order (seed order; `None` is a
    /// broadcast stride). `layout!` calls this with the run-time and static leaves.
    ///
    /// # Errors
    /// Every error of [`layout_core::Layout::new`] and [`layout_core::check`] (not dense,
    /// aliasing, zero stride, overflow, …), and [`Error::IndexTypeRange`] when the offsets do
    /// not fit `I`.
    pub fn new(sizes: &[i64], strides: &[Option<i64>]) -> Result<Self, Error> {
        let (shape, stride) = F::tree_dyn(sizes, strides, &mut 0);
        let l = CoreLayout::new(shape, stride)?;
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
        let mut out = Dynamic {
            sizes: [1; MAX_LEAVES],
            strides: [0; MAX_LEAVES],
            size: l.size() as usize,
            min,
            max,
            read_only: l.is_broadcast(),
            _p: PhantomData,
        };
        for (k, m) in l.modes().iter().enumerate().take(MAX_LEAVES) {
            out.sizes[k] = m.size as usize;
            out.strides[k] = m.stride.value() as isize;
        }
        Ok(out)
    }

    /// The offset at a coordinate: one integer (flat index, last leaf fastest) or a natural
    /// or coarser coordinate in seed order. Integers are unflattened with the run-time sizes.
    #[inline]
    pub fn offset<X: Coord<F>>(&self, c: X) -> I {
        let mut l = [0usize; MAX_LEAVES];
        c.leaves_dyn(&self.sizes, &mut l, 0);
        let mut acc = 0isize;
        let n = F::LEAVES.len;
        for ((c, size), stride) in l[..n].iter().zip(&self.sizes[..n]).zip(&self.strides[..n]) {
            debug_assert!(c < size, "coordinate {c} outside its mode of size {size}");
            acc += *c as isize * stride;
        }
        I::from_isize(acc)
    }

    /// Number of coordinates.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// `max + 1` when the smallest offset is ≥ 0, else 0: the buffer length the layout needs.
    #[must_use]
    pub fn cosize(&self) -> usize {
        if self.min >= 0 {
            self.max as usize + 1
        } else {
            0
        }
    }

    /// Whether a `_` mode of size > 1 makes it read-only.
    #[must_use]
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The same layout as a run-time `layout_core` layout.
    ///
    /// # Errors
    /// None for a value made by `layout!`.
    pub fn to_layout(&self) -> Result<CoreLayout, Error> {
        let n = F::LEAVES.len;
        let sizes: alloc::vec::Vec<i64> = self.sizes[..n].iter().map(|&s| s as i64).collect();
        let strides: alloc::vec::Vec<Option<i64>> =
            self.strides[..n].iter().map(|&d| Some(d as i64)).collect();
        let (shape, stride) = F::tree_dyn(&sizes, &strides, &mut 0);
        CoreLayout::new(shape, stride)
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
            left: left.size as i64,
            right: B::SIZE as i64,
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
    /// The offset at a coordinate of `right`'s domain.
    #[inline]
    pub fn offset<X: Coord<B::Form>>(&self, c: X) -> I {
        self.left.offset(self.right.offset(c).to_isize() as usize)
    }

    /// Number of coordinates.
    #[must_use]
    pub fn size(&self) -> usize {
        B::SIZE
    }
}

//! Data plus layout: reads anywhere, stores only through exclusive layouts.

use core::fmt;

use crate::form::Coord;
#[allow(unused_imports)]
use crate::form::Coord as _;
use crate::rules::{Addressable, Writable};
use crate::{IndexType, Layout};

/// Storage a [`View`] reads: a slice or an array, borrowed or owned.
pub trait Storage {
    /// The element type.
    type Elem;
    /// The elements.
    fn elems(&self) -> &[Self::Elem];
}

/// Storage a [`View`] can store into.
pub trait StorageMut: Storage {
    /// The elements, mutably.
    fn elems_mut(&mut self) -> &mut [Self::Elem];
}

impl<T> Storage for &[T] {
    type Elem = T;
    fn elems(&self) -> &[T] {
        self
    }
}
impl<T> Storage for &mut [T] {
    type Elem = T;
    fn elems(&self) -> &[T] {
        self
    }
}
impl<T> StorageMut for &mut [T] {
    fn elems_mut(&mut self) -> &mut [T] {
        self
    }
}
impl<T, const N: usize> Storage for &[T; N] {
    type Elem = T;
    fn elems(&self) -> &[T] {
        &self[..]
    }
}
impl<T, const N: usize> Storage for &mut [T; N] {
    type Elem = T;
    fn elems(&self) -> &[T] {
        &self[..]
    }
}
impl<T, const N: usize> StorageMut for &mut [T; N] {
    fn elems_mut(&mut self) -> &mut [T] {
        &mut self[..]
    }
}
impl<T> Storage for alloc::vec::Vec<T> {
    type Elem = T;
    fn elems(&self) -> &[T] {
        self
    }
}
impl<T> StorageMut for alloc::vec::Vec<T> {
    fn elems_mut(&mut self) -> &mut [T] {
        self
    }
}
impl<T> Storage for &mut alloc::vec::Vec<T> {
    type Elem = T;
    fn elems(&self) -> &[T] {
        self
    }
}
impl<T> StorageMut for &mut alloc::vec::Vec<T> {
    fn elems_mut(&mut self) -> &mut [T] {
        self
    }
}

/// Why a [`View`] could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewError {
    /// The buffer holds `len` elements; the layout reaches `cosize`.
    TooShort {
        /// Elements in the buffer.
        len: usize,
        /// `COSIZE` of the layout.
        cosize: usize,
    },
    /// The layout reaches the negative offset `min`; a view starts at offset 0.
    NegativeOffset {
        /// Smallest offset of the layout.
        min: i64,
    },
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::TooShort { len, cosize } => {
                write!(
                    f,
                    "buffer of {len} elements is shorter than the layout's cosize {cosize}"
                )
            }
            ViewError::NegativeOffset { min } => {
                write!(
                    f,
                    "the layout reaches offset {min}; a view addresses from offset 0"
                )
            }
        }
    }
}

/// The buffer index of an offset: offsets of a view's layout are non-negative (checked by
/// [`View::try_new`]); a negative one (only from an out-of-domain coordinate) maps past every
/// buffer, so indexing panics.
#[inline(always)]
fn index<I: IndexType>(o: I) -> usize {
    // Reviewed: a negative offset wraps to an index above `isize::MAX`, past every buffer, so
    // the bounds check of the slice panics, as intended (a cast rather than `try_from`: no
    // branch of its own in the hot loops).
    #[allow(clippy::cast_sign_loss)]
    let i = o.to_isize() as usize;
    i
}

#[cold]
#[inline(never)]
#[track_caller]
fn out_of_domain() -> ! {
    panic!("coordinate outside the view's layout domain")
}

/// A buffer seen through a layout into physical space (CuTe: `Tensor`).
///
/// Reads and stores check the coordinate against the layout's domain in every build profile
/// ([`View::get`], [`View::set`] panic; [`View::try_get`], [`View::try_set`] return);
/// [`View::get_unchecked`] and [`View::set_unchecked`] skip that check for hot loops and
/// remain safe (the buffer index is bounds-checked).
///
/// [`View::get`] reads at any coordinate; [`View::set`] exists only when the layout's access is
/// [`crate::Exclusive`]: through a broadcast layout it does not compile.
///
/// ```
/// use layout_typed::prelude::*;
/// let mut buf = [0.0f32; 512];
/// let mut v = View::new(&mut buf, layout!((16,32):(32,1), logical -> physical));
/// v.set((2usize, 3usize), 1.5);
/// assert_eq!(*v.get(67usize), 1.5);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct View<S, L> {
    data: S,
    layout: L,
}

impl<S: Storage, L: Layout> View<S, L>
where
    L::Codomain: Addressable,
{
    /// A view of `data` through `layout`.
    ///
    /// # Errors
    /// [`ViewError::NegativeOffset`] when the layout reaches below offset 0,
    /// [`ViewError::TooShort`] when `data` is shorter than `L::COSIZE`.
    pub fn try_new(data: S, layout: L) -> Result<Self, ViewError> {
        if L::MIN_OFFSET < 0 {
            return Err(ViewError::NegativeOffset { min: L::MIN_OFFSET });
        }
        let len = data.elems().len();
        if len < L::COSIZE {
            return Err(ViewError::TooShort {
                len,
                cosize: L::COSIZE,
            });
        }
        Ok(View { data, layout })
    }

    /// A view of `data` through `layout`.
    ///
    /// # Panics
    /// Where [`View::try_new`] returns an error.
    pub fn new(data: S, layout: L) -> Self {
        match View::try_new(data, layout) {
            Ok(v) => v,
            Err(e) => panic!("{e}"),
        }
    }

    /// The element at a coordinate (seed order, or a flat index).
    ///
    /// # Panics
    /// When `c` is outside the layout's domain ([`Layout::contains`]), in every build
    /// profile, as slice indexing does: an out-of-range coordinate never reaches another
    /// element. [`View::try_get`] returns `None` instead.
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
        if c.in_domain() {
            Some(self.get_unchecked(c))
        } else {
            None
        }
    }

    /// The element at a coordinate without the domain check, for hot loops whose coordinates
    /// are in the domain by construction. Safe: the buffer index is still bounds-checked, so
    /// the worst an out-of-domain coordinate does is read another element of the buffer (or
    /// panic past its end); it is never undefined behaviour.
    #[inline(always)]
    pub fn get_unchecked<C: Coord<L::Form>>(&self, c: C) -> &S::Elem {
        &self.data.elems()[index(self.layout.offset(c))]
    }

    /// The layout.
    pub fn layout(&self) -> L {
        self.layout
    }

    /// The storage back.
    pub fn into_inner(self) -> S {
        self.data
    }
}

impl<S: StorageMut, L: Layout> View<S, L>
where
    L::Codomain: Addressable,
{
    /// Stores `value` at a coordinate. Only for exclusive layouts: a broadcast layout is
    /// read-only (spec: Broadcasts are read-only), and `set` through one does not compile.
    ///
    /// # Panics
    /// When `c` is outside the layout's domain, in every build profile (see [`View::get`]);
    /// [`View::try_set`] returns the value back instead.
    ///
    /// ```should_panic
    /// use layout_typed::prelude::*;
    /// let mut buf = [0.0f32; 512];
    /// let mut v = View::new(&mut buf, layout!((16,32):(32,1), logical -> physical));
    /// v.set((1usize, 40usize), 1.0); // column 40 of 32: panics, never writes row 2
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn set<C: Coord<L::Form>>(&mut self, c: C, value: S::Elem)
    where
        L::Access: Writable,
    {
        if self.try_set(c, value).is_err() {
            out_of_domain()
        }
    }

    /// Stores `value` at a coordinate, or gives it back outside the layout's domain.
    ///
    /// # Errors
    /// `Err(value)` when `c` is outside the domain; nothing is stored.
    #[inline(always)]
    pub fn try_set<C: Coord<L::Form>>(&mut self, c: C, value: S::Elem) -> Result<(), S::Elem>
    where
        L::Access: Writable,
    {
        if c.in_domain() {
            self.set_unchecked(c, value);
            Ok(())
        } else {
            Err(value)
        }
    }

    /// Stores without the domain check, for hot loops (see [`View::get_unchecked`]: safe,
    /// the buffer index is still bounds-checked, but an out-of-domain coordinate may store
    /// into another element).
    #[inline(always)]
    pub fn set_unchecked<C: Coord<L::Form>>(&mut self, c: C, value: S::Elem)
    where
        L::Access: Writable,
    {
        let o = index(self.layout.offset(c));
        self.data.elems_mut()[o] = value;
    }
}

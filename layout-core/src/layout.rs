//! The layout: a shape and a stride of the same profile, with checked size and offset range.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::mem::ManuallyDrop;
use core::sync::atomic::{AtomicPtr, Ordering};

use smallvec::SmallVec;

use crate::error::{Error, ModePath, Quantity};
use crate::tree::{Stride, Tree};

/// A layout `shape : stride` in seed order (the **last** mode varies fastest; spec: Mode order).
///
/// Sizes are positive, strides are integers in elements or the broadcast `_`. Construction
/// checks the profile, the sizes, that no mode of size > 1 has the literal stride 0, and that
/// the size and every offset fit in `i64`, so evaluation never overflows afterwards.
/// Optional names label the top-level modes (`(thread: 32, value: 4):(4, 1)`).
///
/// **Where it differs from CuTe:** CuTe lists modes first-fastest and writes a broadcast as
/// stride `0`. [`Layout::from_cute`] reads CuTe text and [`Layout::to_cute`] prints it
/// ([`CuteNotation`]), by recursive reversal; the two notations agree as functions on the same
/// integers. A layout kept in CuTe order, for CuTe's own operations, is
/// [`crate::cute::CuteLayout`]. The typed crate's `Layout` trait is this same notion checked
/// at compile time (its `to_map` rebuilds a value of this type).
///
/// ```
/// use layout_core::Layout;
/// let l: Layout = "(16,32):(32,1)".parse()?;
/// assert_eq!((l.size(), l.cosize()?), (512, 512));
/// assert_eq!(l.eval_index(33)?, 33);          // (1, 1) -> 32 + 1
/// assert_eq!(l.to_cute().to_string(), "(32,16):(1,32)");
/// # Ok::<(), layout_core::Error>(())
/// ```
pub struct Layout {
    // Dropping a layout is inlined where it is dropped and, when it owns no heap memory (the
    // common result of an operation), is four loads and two branches: see `Drop` below.
    /// The leaf modes in order (the last varies fastest), inline up to [`INLINE_LEAVES`].
    leaves: ManuallyDrop<Leaves>,
    /// The nesting, in preorder: [`LEAF`] for a leaf, `1 + k` for a tuple of `k` entries.
    profile: ManuallyDrop<Profile>,
    /// The names of the top-level modes (empty when none is named); a constant list such as
    /// `divide`'s `tile`/`rest` is borrowed, not allocated.
    names: ManuallyDrop<Cow<'static, [Option<String>]>>,
    size: i64,
    min: i64,
    max: i64,
    /// The shape and stride trees, built on the first call of [`Layout::shape`] or
    /// [`Layout::stride`] (a function of `leaves` and `profile`).
    trees: TreeCache,
}

/// Drops what a layout owned, out of line. The values are passed, not the layout's address:
/// a layout's drop then only reads the layout, and the compiler can drop a layout where it
/// was before a move (the move of a result out of a `Result`, say) instead of copying it.
#[cold]
#[inline(never)]
fn release<T>(owned: T) {
    drop(owned);
}

impl Drop for Layout {
    /// Takes the three `ManuallyDrop` fields out and drops them when one of them owns heap
    /// memory (spilled leaves or profile, an allocated list of names); else each is inline or
    /// borrowed and holds nothing with drop glue (leaves and tokens are `Copy`), and there is
    /// nothing to do. `trees` drops itself afterwards (`TreeCache`).
    #[inline]
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        let names = match &*self.names {
            Cow::Borrowed(_) => false,
            Cow::Owned(v) => v.capacity() != 0,
        };
        // `|`, not `||`: three loads and one branch.
        if self.leaves.spilled() | self.profile.spilled() | names {
            // SAFETY: this is the layout's drop: it runs once, each field is taken once here,
            // and nothing reads the fields afterwards (`trees`, dropped next, is another one).
            let owned = unsafe {
                (
                    ManuallyDrop::take(&mut self.leaves),
                    ManuallyDrop::take(&mut self.profile),
                    ManuallyDrop::take(&mut self.names),
                )
            };
            release(owned);
        }
    }
}

/// The shape and stride trees of a layout.
type Trees = (Tree<i64>, Tree<Stride>);

/// A cell written at most once through a shared reference: the trees of a layout, built on
/// first use. It is `once_cell`'s `OnceBox` protocol (a pointer from `Box::into_raw`, null
/// while empty, set once by compare-and-swap, freed on drop) with one difference: its drop
/// reads the pointer with a plain load (`AtomicPtr::get_mut`) and is inlined, where
/// `OnceBox`'s is a call, so that dropping a layout stays a few loads the compiler can see
/// through (an atomic load, or a call it cannot see into, costs a copy of the whole layout
/// wherever a layout is moved before it is dropped).
struct TreeCache(AtomicPtr<Trees>);

impl TreeCache {
    /// An empty cell.
    #[inline]
    const fn new() -> TreeCache {
        TreeCache(AtomicPtr::new(core::ptr::null_mut()))
    }

    /// The trees, made by `make` when the cell is empty. When two threads race, one value is
    /// kept and the other dropped; both are the same function of the layout.
    #[allow(unsafe_code)]
    fn get_or_init(&self, make: impl FnOnce() -> Box<Trees>) -> &Trees {
        let mut ptr = self.0.load(Ordering::Acquire);
        if ptr.is_null() {
            let new = Box::into_raw(make());
            match self.0.compare_exchange(
                core::ptr::null_mut(),
                new,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => ptr = new,
                Err(old) => {
                    // SAFETY: `new` comes from `Box::into_raw` above and was not stored: this
                    // is its only owner.
                    drop(unsafe { Box::from_raw(new) });
                    ptr = old;
                }
            }
        }
        // SAFETY: `ptr` is non-null, from `Box::into_raw`, stored in the cell: the cell owns
        // it, never replaces it, and frees it only in `drop`, which takes `&mut self`, so it
        // outlives the returned `&self` borrow. It is only read through shared references.
        unsafe { &*ptr }
    }

    /// Fills an empty cell with `trees` (a full one keeps its own, the same trees).
    #[inline]
    fn set(&self, trees: Box<Trees>) {
        let _ = self.get_or_init(|| trees);
    }
}

impl Drop for TreeCache {
    #[inline]
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        let ptr = *self.0.get_mut();
        if !ptr.is_null() {
            // SAFETY: a non-null pointer of the cell comes from `Box::into_raw` and is owned by
            // the cell alone (see `get_or_init`); it is freed once, here.
            release(unsafe { Box::from_raw(ptr) });
        }
    }
}

/// How many leaves a [`Layout`] keeps without allocating.
pub(crate) const INLINE_LEAVES: usize = 8;

/// The leaves of a layout: inline up to [`INLINE_LEAVES`], on the heap beyond.
pub(crate) type Leaves = SmallVec<[Leaf; INLINE_LEAVES]>;

/// One leaf as a layout stores it: its size and stride in 16 bytes. Its path is a function of
/// the profile, computed when asked for ([`Layout::modes`], errors), so that a layout stays
/// small.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Leaf {
    /// Its size (≥ 1), its bits inverted (`!size`, negative) when its stride is the broadcast
    /// `_`.
    signed_size: i64,
    /// Its stride's value: the integer, 0 for `_`.
    value: i64,
}

impl Leaf {
    /// The leaf `size : stride`, for a `size` of at least 1 (a leaf of a smaller size does
    /// not read back as it was written; no layout keeps one).
    #[inline]
    pub(crate) const fn new(size: i64, stride: Stride) -> Leaf {
        match stride {
            Stride::Int(d) => Leaf {
                signed_size: size,
                value: d,
            },
            Stride::Broadcast => Leaf {
                signed_size: !size,
                value: 0,
            },
        }
    }

    /// Its size (≥ 1).
    #[inline]
    pub(crate) const fn size(self) -> i64 {
        self.signed_size ^ self.broadcast_mask()
    }

    /// All ones for a broadcast, else 0: what [`Leaf::size`] is stored XOR-ed with.
    #[inline]
    const fn broadcast_mask(self) -> i64 {
        self.signed_size.wrapping_shr(63)
    }

    /// Its stride.
    #[inline]
    pub(crate) const fn stride(self) -> Stride {
        if self.signed_size < 0 {
            Stride::Broadcast
        } else {
            Stride::Int(self.value)
        }
    }

    /// Its size when its stride is an integer, `None` for a broadcast.
    #[inline]
    pub(crate) const fn int_size(self) -> Option<i64> {
        if self.signed_size > 0 {
            Some(self.signed_size)
        } else {
            None
        }
    }

    /// Its stride's value, [`Stride::value`]: the integer, 0 for `_`.
    #[inline]
    pub(crate) const fn value(self) -> i64 {
        self.value
    }

    /// The leaf of its size and its stride times `k` (a broadcast stays a broadcast); `None`
    /// when the stride does not fit in `i64`.
    #[inline]
    pub(crate) const fn scaled(self, k: i64) -> Option<Leaf> {
        match self.value.checked_mul(k) {
            Some(value) => Some(Leaf {
                signed_size: self.signed_size,
                value,
            }),
            None => None,
        }
    }

    /// The leaf of the same stride and another size (≥ 1).
    #[inline]
    pub(crate) const fn resized(self, size: i64) -> Leaf {
        Leaf {
            signed_size: size ^ self.broadcast_mask(),
            value: self.value,
        }
    }
}

/// The nesting of a layout in preorder tokens: [`LEAF`], or `1 + k` for a tuple of `k`.
pub(crate) type Profile = SmallVec<[u16; 16]>;

/// The token of a leaf in a [`Profile`].
pub(crate) const LEAF: u16 = 0;

impl Clone for Layout {
    fn clone(&self) -> Layout {
        // The trees are not copied: they are rebuilt on demand from the leaves.
        Layout {
            leaves: ManuallyDrop::new(Leaves::clone(&self.leaves)),
            profile: ManuallyDrop::new(Profile::clone(&self.profile)),
            names: ManuallyDrop::new(Cow::clone(&self.names)),
            size: self.size,
            min: self.min,
            max: self.max,
            trees: TreeCache::new(),
        }
    }
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        // Paths are a function of the profile.
        *self.profile == *other.profile
            && self.leaves.len() == other.leaves.len()
            && self
                .leaves
                .iter()
                .zip(other.leaves.iter())
                .all(|(a, b)| a.size() == b.size() && a.stride() == b.stride())
            && *self.names == *other.names
    }
}

impl Eq for Layout {}

impl core::hash::Hash for Layout {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        // The trees and the paths are functions of the leaves and the profile.
        (*self.profile).hash(state);
        for m in self.leaves.iter() {
            (m.size(), m.stride()).hash(state);
        }
        (*self.names).hash(state);
        (self.size, self.min, self.max).hash(state);
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layout")
            .field("shape", self.shape())
            .field("stride", self.stride())
            .field("names", &*self.names)
            .field("size", &self.size)
            .field("min", &self.min)
            .field("max", &self.max)
            .finish()
    }
}

/// One leaf mode of a layout: where it is, its size and its stride.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Mode {
    /// The leaf's position in the shape tree.
    pub path: ModePath,
    /// Its size (≥ 1).
    pub size: i64,
    /// Its stride.
    pub stride: Stride,
}

fn normalise<T: Clone>(t: &Tree<T>) -> Tree<T> {
    match t {
        Tree::Leaf(_) => t.clone(),
        Tree::Tuple(v) if v.len() == 1 && matches!(v[0], Tree::Leaf(_)) => v[0].clone(),
        Tree::Tuple(v) => {
            let inner: Vec<Tree<T>> = v.iter().map(normalise).collect();
            if inner.len() == 1 && matches!(inner[0], Tree::Leaf(_)) {
                inner[0].clone()
            } else {
                Tree::Tuple(inner)
            }
        }
    }
}

/// Collects the leaf modes, the profile and every leaf-local error (all of them, not only the
/// first).
struct Walk {
    modes: Leaves,
    profile: Profile,
    errors: Vec<Error>,
}

impl Walk {
    fn run(shape: &Tree<i64>, stride: &Tree<Stride>) -> Walk {
        let mut w = Walk {
            modes: Leaves::new(),
            profile: Profile::new(),
            errors: Vec::new(),
        };
        w.visit(ModePath::ROOT, shape, stride);
        w
    }

    fn visit(&mut self, path: ModePath, shape: &Tree<i64>, stride: &Tree<Stride>) {
        match (shape, stride) {
            (Tree::Leaf(n), Tree::Leaf(d)) => {
                if *n < 1 {
                    self.errors.push(Error::NonPositiveSize {
                        mode: path,
                        size: *n,
                    });
                } else if *n > 1 && *d == Stride::Int(0) {
                    self.errors.push(Error::ZeroStride {
                        mode: path,
                        size: *n,
                    });
                }
                self.profile.push(LEAF);
                // A leaf of a size below 1 is an error above: it is never kept.
                self.modes.push(Leaf::new(*n, *d));
            }
            (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == b.len() => {
                // A tuple wider than a path can name is reported by `child` below.
                self.profile
                    .push(u16::try_from(a.len().saturating_add(1)).unwrap_or(u16::MAX));
                for (i, (s, d)) in a.iter().zip(b).enumerate() {
                    match path.child(i) {
                        Ok(p) => self.visit(p, s, d),
                        Err(e) => self.errors.push(e),
                    }
                }
            }
            _ => self.errors.push(Error::ProfileMismatch {
                mode: path,
                shape_rank: shape.rank(),
                stride_rank: stride.rank(),
            }),
        }
    }
}

/// The shape and stride trees of a profile and its leaves.
fn decode(profile: &[u16], leaves: &[Leaf]) -> (Tree<i64>, Tree<Stride>) {
    fn go(
        p: &mut core::slice::Iter<'_, u16>,
        l: &mut core::slice::Iter<'_, Leaf>,
    ) -> (Tree<i64>, Tree<Stride>) {
        match p.next().copied().unwrap_or(LEAF) {
            LEAF => l
                .next()
                .map_or((Tree::Leaf(1), Tree::Leaf(Stride::Int(0))), |m| {
                    (Tree::Leaf(m.size()), Tree::Leaf(m.stride()))
                }),
            t => {
                let k = usize::from(t.saturating_sub(1));
                let (mut s, mut d) = (Vec::with_capacity(k), Vec::with_capacity(k));
                for _ in 0..k {
                    let (a, b) = go(p, l);
                    s.push(a);
                    d.push(b);
                }
                (Tree::Tuple(s), Tree::Tuple(d))
            }
        }
    }
    go(&mut profile.iter(), &mut leaves.iter())
}

/// Sets the path of every leaf from the profile.
///
/// # Errors
/// [`Error::TooDeep`]/[`Error::TooWide`] past the path limits.
pub(crate) fn assign_paths(profile: &[u16], leaves: &mut [Mode]) -> Result<(), Error> {
    fn go(
        path: ModePath,
        p: &mut core::slice::Iter<'_, u16>,
        l: &mut core::slice::IterMut<'_, Mode>,
    ) -> Result<(), Error> {
        match p.next().copied().unwrap_or(LEAF) {
            LEAF => {
                if let Some(m) = l.next() {
                    m.path = path;
                }
            }
            t => {
                for i in 0..usize::from(t.saturating_sub(1)) {
                    go(path.child(i)?, p, l)?;
                }
            }
        }
        Ok(())
    }
    go(ModePath::ROOT, &mut profile.iter(), &mut leaves.iter_mut())
}

/// The path of leaf `leaf` (0-based, in order) of a profile whose paths are within the limits
/// (every layout's: they were checked when it was built); the root past the last leaf.
pub(crate) fn leaf_path(profile: &[u16], leaf: usize) -> ModePath {
    /// Walks the subtree at `p`; `Some(path)` once leaf number `*left` is reached.
    fn go(
        path: ModePath,
        p: &mut core::slice::Iter<'_, u16>,
        left: &mut usize,
    ) -> Option<ModePath> {
        match p.next().copied().unwrap_or(LEAF) {
            LEAF => {
                if *left == 0 {
                    return Some(path);
                }
                *left = left.saturating_sub(1);
            }
            t => {
                for i in 0..usize::from(t.saturating_sub(1)) {
                    let child = path.child(i).unwrap_or(ModePath::ROOT);
                    if let Some(found) = go(child, p, left) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }
    let mut left = leaf;
    let mut p = profile.iter();
    while p.len() > 0 {
        if let Some(found) = go(ModePath::ROOT, &mut p, &mut left) {
            return found;
        }
    }
    ModePath::ROOT
}

/// The token after the subtree that starts at `pos`, and the number of leaves in it.
pub(crate) fn subtree(profile: &[u16], mut pos: usize) -> (usize, usize) {
    let (mut open, mut leaves) = (1usize, 0usize);
    while open > 0 {
        let t = profile.get(pos).copied().unwrap_or(LEAF);
        pos = pos.saturating_add(1);
        open = open.saturating_sub(1);
        if t == LEAF {
            leaves = leaves.saturating_add(1);
        } else {
            open = open.saturating_add(usize::from(t.saturating_sub(1)));
        }
    }
    (pos, leaves)
}

/// Every error of a shape and stride that concerns one mode alone, in mode order: profile
/// mismatches, non-positive sizes, zero strides (spec: Broadcast stride), nesting past the path limits. Empty
/// when [`Layout::new`] can only fail on overflow. The macro reports all of them at once.
#[must_use]
pub fn mode_errors(shape: &Tree<i64>, stride: &Tree<Stride>) -> Vec<Error> {
    Walk::run(shape, stride).errors
}

impl Layout {
    /// Builds a layout from a shape and a stride in seed order.
    ///
    /// A tuple of one integer is the integer (`(3)` is `3`; spec: Layouts and evaluation).
    ///
    /// # Errors
    /// [`Error::ProfileMismatch`], [`Error::NonPositiveSize`], [`Error::ZeroStride`] (write
    /// [`Stride::Broadcast`] instead), [`Error::Overflow`] when the size or an offset exceeds
    /// `i64`, [`Error::TooDeep`]/[`Error::TooWide`] beyond the path limits.
    pub fn new(shape: Tree<i64>, stride: Tree<Stride>) -> Result<Layout, Error> {
        Layout::build(normalise(&shape), normalise(&stride), Vec::new())
    }

    /// The same layout with names on its top-level modes (`None` leaves a mode unnamed).
    ///
    /// # Errors
    /// [`Error::ProfileMismatch`] at the root when `names` does not have one entry per
    /// top-level mode; [`Error::DuplicateName`] when two modes get the same name.
    ///
    /// ```
    /// use layout_core::{Error, Layout};
    /// let l: Layout = "(2,3):(3,1)".parse()?;
    /// let names = vec![Some("a".to_string()), Some("a".to_string())];
    /// assert_eq!(l.with_names(names), Err(Error::DuplicateName { first: 0, second: 1 }));
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    pub fn with_names(mut self, names: Vec<Option<String>>) -> Result<Layout, Error> {
        if names.iter().all(Option::is_none) {
            // Unnamed: a rank-1 tuple of one leaf is that leaf again (`(x)` is `x`).
            if self.profile.as_slice() == [2, LEAF] {
                *self.profile = Profile::from_slice(&[LEAF]);
            }
            *self.names = Cow::Borrowed(&[]);
            self.trees = TreeCache::new();
            return Ok(self);
        }
        if self.profile.first() == Some(&LEAF) {
            *self.profile = Profile::from_slice(&[2, LEAF]);
            self.trees = TreeCache::new();
        }
        let rank = self.rank();
        if names.len() != rank {
            return Err(Error::ProfileMismatch {
                mode: ModePath::ROOT,
                shape_rank: rank,
                stride_rank: names.len(),
            });
        }
        for (second, name) in names.iter().enumerate() {
            let Some(name) = name else { continue };
            if let Some(first) = names
                .iter()
                .take(second)
                .position(|n| n.as_ref() == Some(name))
            {
                return Err(Error::DuplicateName { first, second });
            }
        }
        *self.names = Cow::Owned(names);
        Ok(self)
    }

    pub(crate) fn build(
        shape: Tree<i64>,
        stride: Tree<Stride>,
        names: Vec<Option<String>>,
    ) -> Result<Layout, Error> {
        let w = Walk::run(&shape, &stride);
        if let Some(e) = w.errors.first() {
            return Err(*e);
        }
        let l = Layout::from_parts(w.modes, w.profile, Cow::Owned(names))?;
        // The trees are at hand: keep them for `shape` and `stride`.
        l.trees.set(Box::new((shape, stride)));
        Ok(l)
    }

    /// A layout from leaves whose sizes are positive, whose strides are not `0` at a size
    /// above 1, and a profile of that many leaves within the path limits: what an operation
    /// builds when every leaf is correct by construction. Only the size and the span are
    /// computed, with checked arithmetic.
    ///
    /// # Errors
    /// [`Error::Overflow`] when the size or an offset exceeds `i64`.
    pub(crate) fn from_parts(
        leaves: Leaves,
        profile: Profile,
        names: Cow<'static, [Option<String>]>,
    ) -> Result<Layout, Error> {
        let (mut size, mut min, mut max) = (1i64, 0i64, 0i64);
        let overflow = |i: usize, what: Quantity| Error::Overflow {
            mode: leaf_path(&profile, i),
            what,
        };
        for (i, m) in leaves.iter().enumerate() {
            size = size
                .checked_mul(m.size())
                .ok_or_else(|| overflow(i, Quantity::Positions))?;
            let reach = m
                .size()
                .saturating_sub(1)
                .checked_mul(m.value())
                .ok_or_else(|| overflow(i, Quantity::Offset))?;
            let acc = if reach >= 0 { &mut max } else { &mut min };
            *acc = acc
                .checked_add(reach)
                .ok_or_else(|| overflow(i, Quantity::Offset))?;
        }
        Ok(Layout::from_checked(
            leaves,
            profile,
            names,
            (size, min, max),
        ))
    }

    /// [`Layout::from_parts`] when the size and the span are known: a regrouping or a
    /// reordering of a layout's leaves, which keeps both.
    #[inline]
    pub(crate) fn from_checked(
        leaves: Leaves,
        profile: Profile,
        names: Cow<'static, [Option<String>]>,
        (size, min, max): (i64, i64, i64),
    ) -> Layout {
        Layout {
            leaves: ManuallyDrop::new(leaves),
            profile: ManuallyDrop::new(profile),
            names: ManuallyDrop::new(names),
            size,
            min,
            max,
            trees: TreeCache::new(),
        }
    }

    /// The leaves and the profile, to be filled in place by an operation that built the layout
    /// with [`Layout::from_checked`] from empty ones (the layout is not moved while it grows).
    #[inline]
    pub(crate) fn parts_mut(&mut self) -> (&mut Leaves, &mut Profile) {
        (&mut self.leaves, &mut self.profile)
    }

    fn trees(&self) -> &(Tree<i64>, Tree<Stride>) {
        self.trees
            .get_or_init(|| Box::new(decode(&self.profile, &self.leaves)))
    }

    /// The shape tree (sizes). Built from the leaves on the first call, then kept.
    #[must_use]
    pub fn shape(&self) -> &Tree<i64> {
        &self.trees().0
    }

    /// The stride tree (elements, or `_`). Built from the leaves on the first call, then kept.
    #[must_use]
    pub fn stride(&self) -> &Tree<Stride> {
        &self.trees().1
    }

    /// The names of the top-level modes; empty when none is named.
    #[must_use]
    pub fn names(&self) -> &[Option<String>] {
        &self.names
    }

    /// Number of top-level modes.
    #[must_use]
    #[inline]
    pub fn rank(&self) -> usize {
        match self.profile.first().copied() {
            Some(LEAF) | None => 1,
            Some(t) => usize::from(t.saturating_sub(1)),
        }
    }

    /// The names, shared when they are a constant list.
    pub(crate) fn names_cow(&self) -> Cow<'static, [Option<String>]> {
        Cow::clone(&self.names)
    }

    /// The nesting tokens (see [`Profile`]).
    #[inline]
    pub(crate) fn profile(&self) -> &[u16] {
        &self.profile
    }

    /// `size(L)`: the product of the sizes, the number of coordinates.
    #[must_use]
    #[inline]
    pub fn size(&self) -> i64 {
        self.size
    }

    /// `span(L)`: the smallest and largest offset over the domain (elements).
    #[must_use]
    #[inline]
    pub fn span(&self) -> (i64, i64) {
        (self.min, self.max)
    }

    /// `cosize(L) = max + 1`, the length of memory the layout reaches from offset 0.
    ///
    /// # Errors
    /// [`Error::NegativeOffset`] when the smallest offset is negative, naming a negative stride.
    pub fn cosize(&self) -> Result<i64, Error> {
        if self.min < 0 {
            let m = self
                .modes()
                .into_iter()
                .find(|m| m.size > 1 && m.stride.value() < 0)
                .map_or((ModePath::ROOT, 0), |m| (m.path, m.stride.value()));
            return Err(Error::NegativeOffset {
                mode: m.0,
                stride: m.1,
                min: self.min,
            });
        }
        // max + 1 cannot overflow: max <= i64::MAX was checked, and equality needs a size of
        // 2^63, which the size check forbids.
        self.max.checked_add(1).ok_or(Error::Overflow {
            mode: ModePath::ROOT,
            what: Quantity::Offset,
        })
    }

    /// The leaf modes, in order (the last varies fastest), with their paths (computed from
    /// the nesting on each call).
    #[must_use]
    pub fn modes(&self) -> Vec<Mode> {
        let mut modes: Vec<Mode> = self
            .leaves
            .iter()
            .map(|m| Mode {
                path: ModePath::ROOT,
                size: m.size(),
                stride: m.stride(),
            })
            .collect();
        // The paths were checked when the layout was built.
        let _ = assign_paths(&self.profile, &mut modes);
        modes
    }

    /// The leaves (sizes and strides), in order, without a copy.
    #[inline]
    pub(crate) fn leaves(&self) -> &[Leaf] {
        &self.leaves
    }

    /// The leaves and the profile when both are inline (not spilled to the heap) and of
    /// lengths `L` and `P`: read without a branch on where they are, for a fast path on small
    /// layouts. `None` otherwise.
    #[inline]
    pub(crate) fn inline_parts<const L: usize, const P: usize>(
        &self,
    ) -> Option<(&[Leaf; L], &[u16; P])> {
        if self.leaves.spilled() || self.profile.spilled() {
            return None;
        }
        Some((
            self.leaves.as_slice().try_into().ok()?,
            self.profile.as_slice().try_into().ok()?,
        ))
    }

    /// The path of leaf `leaf` (0-based, in order).
    pub(crate) fn leaf_path(&self, leaf: usize) -> ModePath {
        leaf_path(&self.profile, leaf)
    }

    /// Whether the layout is a broadcast: it has a `_` mode of size > 1 (spec: Broadcast stride). Broadcast
    /// layouts are read-only.
    #[must_use]
    pub fn is_broadcast(&self) -> bool {
        self.leaves
            .iter()
            .any(|m| m.size() > 1 && m.stride() == Stride::Broadcast)
    }

    /// `L(i)` at a flat index `i ∈ [0, size)`, unflattened over the leaves with the last leaf
    /// fastest. CuTe's integral coordinate gives the same value on the CuTe-order layout.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] outside `[0, size)`.
    pub fn eval_index(&self, index: i64) -> Result<i64, Error> {
        if !(0..self.size).contains(&index) {
            return Err(Error::IndexOutOfRange {
                index,
                size: self.size,
            });
        }
        let mut rest = index;
        let mut acc = 0i64;
        for (i, m) in self.leaves.iter().enumerate().rev() {
            // Sizes are at least 1, so neither division can fail.
            let (Some(c), Some(r)) = (rest.checked_rem(m.size()), rest.checked_div(m.size()))
            else {
                return Err(Error::IndexOutOfRange {
                    index,
                    size: self.size,
                });
            };
            rest = r;
            acc = c
                .checked_mul(m.value())
                .and_then(|t| acc.checked_add(t))
                .ok_or_else(|| Error::Overflow {
                    mode: self.leaf_path(i),
                    what: Quantity::Offset,
                })?;
        }
        Ok(acc)
    }

    /// `L(c)` at a natural coordinate or any coarser one: where the shape has a tuple, the
    /// coordinate may hold one integer, which is unflattened into it (last leaf fastest).
    ///
    /// # Errors
    /// [`Error::CoordProfile`] when the coordinate is finer than the shape or has the wrong
    /// rank, [`Error::CoordOutOfRange`] for an entry outside its mode.
    pub fn eval(&self, coord: &Tree<i64>) -> Result<i64, Error> {
        eval_at(ModePath::ROOT, self.shape(), self.stride(), coord)
    }

    /// The layout in CuTe order (recursive reversal), as a value that prints CuTe notation
    /// (a broadcast prints as stride `0`, as CuTe and pycute do).
    #[must_use]
    pub fn to_cute(&self) -> CuteNotation<'_> {
        CuteNotation(self)
    }

    /// The layout with every tuple reversed, recursively (seed order ↔ CuTe order), as a
    /// layout of this crate. Names follow their modes.
    #[must_use]
    pub fn reversed(&self) -> Layout {
        let mut names = self.names.to_vec();
        names.reverse();
        let (shape, stride) = (self.shape().reversed(), self.stride().reversed());
        // The leaf paths change with the order; the walk finds no error on a valid layout.
        let w = Walk::run(&shape, &stride);
        let l = Layout::from_checked(
            w.modes,
            w.profile,
            if names.is_empty() {
                Cow::Borrowed(&[])
            } else {
                Cow::Owned(names)
            },
            (self.size, self.min, self.max),
        );
        l.trees.set(Box::new((shape, stride)));
        l
    }

    /// Reads CuTe notation (first mode fastest, stride `0` on a mode of size > 1 = broadcast,
    /// C++ CuTe's printed static integers `_8` read as 8) and returns the same function in seed
    /// order.
    ///
    /// ```
    /// use layout_core::Layout;
    /// let l = Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))")?;
    /// assert_eq!(l.to_string(), "((2,2),(8,4)):((8,16),(1,32))");
    /// assert_eq!(l.eval_index(5)?, 32 + 1); // CuTe: thread 5 = (1,1) -> 32 + 1
    /// assert_eq!(Layout::from_cute("(_4,_8):(_1,_0)")?, Layout::from_cute("(4,8):(1,0)")?);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`str::parse`] and [`Layout::new`]; a `_` stride is accepted too.
    pub fn from_cute(text: &str) -> Result<Layout, Error> {
        crate::parse::parse_layout(text, true)
    }
}

fn tree_size(t: &Tree<i64>) -> i64 {
    // Sizes were checked at construction; the product of a subtree cannot overflow.
    t.leaves().into_iter().product()
}

fn eval_at(
    path: ModePath,
    shape: &Tree<i64>,
    stride: &Tree<Stride>,
    coord: &Tree<i64>,
) -> Result<i64, Error> {
    match (shape, stride, coord) {
        (Tree::Leaf(n), Tree::Leaf(d), Tree::Leaf(c)) => {
            if !(0..*n).contains(c) {
                return Err(Error::CoordOutOfRange {
                    mode: path,
                    value: *c,
                    size: *n,
                });
            }
            c.checked_mul(d.value()).ok_or(Error::Overflow {
                mode: path,
                what: Quantity::Offset,
            })
        }
        (Tree::Tuple(ss), Tree::Tuple(ds), Tree::Leaf(c)) => {
            let total = tree_size(shape);
            if !(0..total).contains(c) {
                return Err(Error::CoordOutOfRange {
                    mode: path,
                    value: *c,
                    size: total,
                });
            }
            let mut rest = *c;
            let mut acc = 0i64;
            for (i, (s, d)) in ss.iter().zip(ds).enumerate().rev() {
                let n = tree_size(s);
                let (Some(digit), Some(r)) = (rest.checked_rem(n), rest.checked_div(n)) else {
                    return Err(Error::Overflow {
                        mode: path,
                        what: Quantity::Positions,
                    });
                };
                let v = eval_at(path.child(i)?, s, d, &Tree::Leaf(digit))?;
                rest = r;
                acc = acc.checked_add(v).ok_or(Error::Overflow {
                    mode: path,
                    what: Quantity::Offset,
                })?;
            }
            Ok(acc)
        }
        (Tree::Tuple(ss), Tree::Tuple(ds), Tree::Tuple(cs)) if ss.len() == cs.len() => {
            let mut acc = 0i64;
            for (i, ((s, d), c)) in ss.iter().zip(ds).zip(cs).enumerate() {
                let v = eval_at(path.child(i)?, s, d, c)?;
                acc = acc.checked_add(v).ok_or(Error::Overflow {
                    mode: path,
                    what: Quantity::Offset,
                })?;
            }
            Ok(acc)
        }
        (Tree::Leaf(_), Tree::Leaf(_), Tree::Tuple(cs)) if cs.len() == 1 => {
            eval_at(path, shape, stride, &cs[0])
        }
        _ => Err(Error::CoordProfile {
            mode: path,
            shape_rank: shape.rank(),
            coord_rank: coord.rank(),
        }),
    }
}

/// A [`Layout`] printed in CuTe notation: [`Layout::to_cute`]. It is the same layout in seed
/// order, only printed with every tuple reversed (CuTe lists the fastest mode first) and a
/// broadcast as stride `0`, as CuTe and pycute print them; a layout kept in CuTe order, with
/// CuTe's operations, is [`crate::cute::CuteLayout`].
///
/// ```
/// let l: layout_core::Layout = "(4,(2,8)):(_,(8,1))".parse()?;
/// assert_eq!(l.to_cute().to_string(), "((8,2),4):((1,8),0)");
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CuteNotation<'a>(&'a Layout);

impl fmt::Display for CuteNotation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.0.reversed();
        let stride = r.stride().map(&mut |s| match s {
            Stride::Broadcast => 0,
            Stride::Int(d) => *d,
        });
        // Only a name keeps a tuple of one leaf; without names it is that leaf (`(3):(1)` is `3:1`).
        match (r.shape(), &stride) {
            (Tree::Tuple(s), Tree::Tuple(d)) if s.len() == 1 && matches!(s[0], Tree::Leaf(_)) => {
                write_layout(f, &s[0], &d[0], &[])
            }
            (shape, stride) => write_layout(f, shape, stride, &[]),
        }
    }
}

impl fmt::Display for Layout {
    /// Seed notation, exactly what [`str::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_layout(f, self.shape(), self.stride(), &self.names)
    }
}

fn write_layout<A: fmt::Display, B: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    shape: &Tree<A>,
    stride: &Tree<B>,
    names: &[Option<String>],
) -> fmt::Result {
    match (shape, names.is_empty()) {
        (Tree::Tuple(v), false) => {
            f.write_str("(")?;
            for (i, t) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                if let Some(Some(n)) = names.get(i) {
                    write!(f, "{n}:")?;
                }
                write!(f, "{t}")?;
            }
            f.write_str(")")?;
        }
        _ => write!(f, "{shape}")?,
    }
    write!(f, ":{stride}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::hash::{Hash, Hasher};

    /// The cached leaves are the walk of the trees, also after `reversed` and `with_names`.
    #[test]
    fn cached_leaves_follow_the_trees() {
        for text in [
            "8:2",
            "((2,3),(4,5)):((1,2),(60,6))",
            "(a: 3, b: (1,4)):(_, (0,-2))",
        ] {
            let l: Layout = text.parse().expect("layout");
            for v in [l.clone(), l.reversed(), l.reversed().reversed()] {
                assert_eq!(v.leaves(), &Walk::run(v.shape(), v.stride()).modes[..]);
                for (i, m) in v.modes().iter().enumerate() {
                    assert_eq!(v.leaf_path(i), m.path);
                    let mut at = (v.shape(), v.stride());
                    for &k in m.path.indices() {
                        let (Tree::Tuple(s), Tree::Tuple(d)) = at else {
                            panic!("path past a leaf")
                        };
                        at = (&s[usize::from(k)], &d[usize::from(k)]);
                    }
                    assert_eq!(at, (&Tree::Leaf(m.size), &Tree::Leaf(m.stride)));
                }
            }
            assert_eq!(l.reversed().reversed(), l);
        }
    }

    /// A leaf reads back the size and stride it was made of, at the extremes of both, and
    /// keeps its stride (a broadcast stays one) when resized or scaled; distinct leaves stay
    /// distinct.
    #[test]
    fn leaves_read_back_what_they_were_made_of() {
        let sizes = [1i64, 2, 3, 1 << 40, i64::MAX - 1, i64::MAX];
        let strides = [
            Stride::Int(i64::MIN),
            Stride::Int(i64::MIN + 1),
            Stride::Int(-1),
            Stride::Int(0),
            Stride::Int(1),
            Stride::Int(i64::MAX),
            Stride::Broadcast,
        ];
        let mut made = Vec::new();
        for &n in &sizes {
            for &d in &strides {
                let m = Leaf::new(n, d);
                assert_eq!((m.size(), m.stride()), (n, d));
                assert_eq!(m.value(), d.value());
                for &k in &sizes {
                    let r = m.resized(k);
                    assert_eq!((r.size(), r.stride()), (k, d));
                }
                for k in [-2i64, -1, 0, 1, 2, 3, i64::MAX] {
                    let want = i64::try_from(i128::from(d.value()) * i128::from(k)).ok();
                    let got = m.scaled(k);
                    assert_eq!(got.map(|s| (s.size(), s.value())), want.map(|v| (n, v)));
                    assert!(got.is_none_or(|s| s.stride().value() == s.value()));
                    assert!(got.is_none_or(
                        |s| (s.stride() == Stride::Broadcast) == (d == Stride::Broadcast)
                    ));
                }
                made.push(m);
            }
        }
        for (i, a) in made.iter().enumerate() {
            for b in &made[..i] {
                assert_ne!(a, b);
            }
        }
    }

    /// Equal layouts hash alike; `Debug` prints what it printed before the cache.
    #[test]
    fn hash_and_debug_ignore_the_cache() {
        struct Sum(u64);
        impl Hasher for Sum {
            fn finish(&self) -> u64 {
                self.0
            }
            fn write(&mut self, bytes: &[u8]) {
                for b in bytes {
                    self.0 = self.0.wrapping_mul(31).wrapping_add(u64::from(*b));
                }
            }
        }
        let hash = |l: &Layout| {
            let mut h = Sum(0);
            l.hash(&mut h);
            h.finish()
        };
        let a: Layout = "(4,8):(8,1)".parse().expect("layout");
        let b = Layout::from_cute("(8,4):(1,8)").expect("layout");
        assert_eq!(a, b);
        assert_eq!(hash(&a), hash(&b));
        let debug = alloc::format!("{a:?}");
        assert!(
            debug.starts_with("Layout { shape: Tuple([Leaf(4), Leaf(8)])"),
            "{debug}"
        );
        assert!(!debug.contains("leaves"), "{debug}");
    }
}

//! Deciding whether a map is a layout (spec: Theorem 1).

use alloc::vec;
use alloc::vec::Vec;

use smallvec::SmallVec;

use crate::chains::{CHAINS_INLINE, ChainRef, Chains, Sink};
use crate::error::Error;
use crate::layout::Layout;
use crate::map::{Annotated, Map};
use crate::tree::Tree;

/// A shape tree with its stride tree.
type Pieces = (Tree<i64>, Tree<crate::Stride>);

/// The most coordinates [`decide`] tabulates (2²⁴).
pub const DECIDE_LIMIT: i64 = 1 << 24;

/// What the scan of Theorem 1 found for one coordinate `g : [0, n) → ℤ`, `g(0) = 0`: the
/// coarsest shape and its strides. The scan's chain `{1} ∪ R` and its records `(t, a_t)` follow
/// from them ([`Chain::chain`], [`Chain::recorded`]), so they are not stored.
///
/// ```
/// use layout_core::scan;
/// // g = (2,2):(24,2) read fastest first: 2 at t = 1, 24 at t = 2.
/// let c = scan(&[0, 2, 24, 26]).unwrap();
/// assert_eq!((c.shape.to_vec(), c.strides.to_vec()), (vec![2, 2], vec![24, 2]));
/// assert_eq!(c.chain(), vec![1, 2]);
/// assert_eq!(c.recorded(), vec![(1, 2), (2, 20)]);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Chain {
    /// The coarsest shape `T`, slowest first: `m_j = w_{j+1}/w_j` with `w_{k+1} = n` (the
    /// chain `w` of [`Chain::chain`]); `[1]` for `n = 1`.
    pub shape: InlineVec<i64>,
    /// Its strides, slowest first: `s_j = g(w_j)` (a stride may be 0; `[0]` for `n = 1`).
    pub strides: InlineVec<i64>,
}

impl Chain {
    /// `{1} ∪ R`, increasing: `1 = w₁ | w₂ | … | w_k | n`, the weights of the modes of
    /// [`Chain::shape`], fastest first (`w₁ = 1`, `w_{j+1} = w_j·m_j`).
    ///
    /// Exact for a chain whose sizes multiply to at most `i64::MAX`, which every chain that
    /// [`decide`] and [`decide_values`] return does. The fields are public: a `Chain` built by
    /// hand past that gets weights clamped at `i64::MAX`, which are not its weights.
    #[must_use]
    pub fn chain(&self) -> InlineVec<i64> {
        self.view().chain()
    }

    /// What the scan records, `(t, a_t)` for `t` in `R`, increasing in `t`: at the fastest
    /// mode's weight 1 its stride where it is not 0, and at the weight `w_j` of every slower
    /// mode `a = s_j − m_{j−1}·s_{j−1}` (never 0 in the coarsest shape). `a_t` may leave `i64`
    /// where every stride fits: it is exact in `i128`. The weights `t` are those of
    /// [`Chain::chain`], exact under the same condition.
    #[must_use]
    pub fn recorded(&self) -> InlineVec<(i64, i128)> {
        self.view().recorded()
    }

    /// The chain borrowed, as a [`Chains`] holds it.
    #[must_use]
    pub fn view(&self) -> ChainRef<'_> {
        ChainRef {
            shape: &self.shape,
            strides: &self.strides,
        }
    }
}

impl core::fmt::Debug for Chain {
    /// As a struct of the chain, the shape, the strides and the records:
    /// `Chain { chain: [1], shape: [4], strides: [2], recorded: [(1, 2)] }`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.view().fmt(f)
    }
}

/// A short list kept inline: up to `N` entries (two unless given) without a heap allocation,
/// more on the heap.
/// It reads as a slice (`Deref<Target = [T]>`: `len`, indexing, `iter`, `to_vec`) and compares
/// equal to a `Vec`, an array or a slice with the same entries; `Debug` prints it as a list.
/// The fields of [`Chain`] are of this type, so that deciding a map allocates nothing for its
/// chains in the common case.
///
/// ```
/// use layout_core::InlineVec;
/// let v: InlineVec<i64> = [4, 2].into_iter().collect();
/// assert_eq!(v, vec![4, 2]);
/// assert_eq!((v.len(), v[1], v.to_vec()), (2, 2, vec![4, 2]));
/// assert_eq!(format!("{v:?}"), "[4, 2]");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct InlineVec<T, const N: usize = 2>(SmallVec<[T; N]>);

impl<T, const N: usize> InlineVec<T, N> {
    /// An empty list.
    #[must_use]
    pub fn new() -> InlineVec<T, N> {
        InlineVec(SmallVec::new())
    }

    /// An empty list with room for `n` entries: inline up to `N`, else one heap allocation.
    #[must_use]
    pub fn with_capacity(n: usize) -> InlineVec<T, N> {
        InlineVec(SmallVec::with_capacity(n))
    }

    /// Appends `value`.
    pub fn push(&mut self, value: T) {
        self.0.push(value);
    }
}

impl<T: Copy> InlineVec<T> {
    /// The list of one entry.
    #[inline]
    fn one(x: T) -> InlineVec<T> {
        InlineVec(SmallVec::from_buf_and_len([x, x], 1))
    }

    /// A copy of `values`. Defined for the default capacity of two entries; a list of another
    /// capacity is collected from an iterator (`values.iter().copied().collect()`).
    #[must_use]
    pub fn from_slice(values: &[T]) -> InlineVec<T> {
        // Inline from a buffer without `SmallVec::from_slice`'s general copy.
        match *values {
            [x] => InlineVec(SmallVec::from_buf_and_len([x, x], 1)),
            [x, y] => InlineVec(SmallVec::from_buf([x, y])),
            _ => InlineVec(SmallVec::from_slice(values)),
        }
    }
}

impl<T, const N: usize> core::ops::Deref for InlineVec<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T, const N: usize> core::ops::DerefMut for InlineVec<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<T: core::fmt::Debug, const N: usize> core::fmt::Debug for InlineVec<T, N> {
    /// As a list: `[1, 2]`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl<T, const N: usize> FromIterator<T> for InlineVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> InlineVec<T, N> {
        InlineVec(iter.into_iter().collect())
    }
}

impl<T, const N: usize> Extend<T> for InlineVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl<T, const N: usize> From<Vec<T>> for InlineVec<T, N> {
    fn from(v: Vec<T>) -> InlineVec<T, N> {
        InlineVec(SmallVec::from_vec(v))
    }
}

impl<T, const N: usize> From<InlineVec<T, N>> for Vec<T> {
    fn from(v: InlineVec<T, N>) -> Vec<T> {
        v.0.into_vec()
    }
}

impl<T, const N: usize> IntoIterator for InlineVec<T, N> {
    type Item = T;
    type IntoIter = InlineIntoIter<T, N>;
    fn into_iter(self) -> Self::IntoIter {
        InlineIntoIter(self.0.into_iter())
    }
}

/// The entries of an [`InlineVec`], by value, first to last (`InlineVec::into_iter`).
pub struct InlineIntoIter<T, const N: usize>(smallvec::IntoIter<[T; N]>);

impl<T, const N: usize> Iterator for InlineIntoIter<T, N> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<T, const N: usize> DoubleEndedIterator for InlineIntoIter<T, N> {
    fn next_back(&mut self) -> Option<T> {
        self.0.next_back()
    }
}

impl<T, const N: usize> ExactSizeIterator for InlineIntoIter<T, N> {}

impl<T: core::fmt::Debug, const N: usize> core::fmt::Debug for InlineIntoIter<T, N> {
    /// The entries not yet taken, as a list.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.0.as_slice()).finish()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<Vec<U>> for InlineVec<T, N> {
    fn eq(&self, other: &Vec<U>) -> bool {
        self.0[..] == other[..]
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<InlineVec<U, N>> for Vec<T> {
    fn eq(&self, other: &InlineVec<U, N>) -> bool {
        self[..] == other.0[..]
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<[U]> for InlineVec<T, N> {
    fn eq(&self, other: &[U]) -> bool {
        self.0[..] == *other
    }
}

impl<T: PartialEq<U>, U, const N: usize> PartialEq<&[U]> for InlineVec<T, N> {
    fn eq(&self, other: &&[U]) -> bool {
        self.0[..] == **other
    }
}

impl<T: PartialEq<U>, U, const N: usize, const M: usize> PartialEq<[U; M]> for InlineVec<T, N> {
    fn eq(&self, other: &[U; M]) -> bool {
        self.0[..] == other[..]
    }
}

/// How many entries of `ρ` [`scan`] keeps at a time: a window that stays in cache.
const SCAN_WINDOW: usize = 4096;

/// The scan of Theorem 1 (spec: Theorem 1): decides whether `g` (with `g[0] = 0`) is a layout of
/// some flat shape of size `n = g.len()`, and if so returns the coarsest one. O(n): the
/// subtractions touch fewer than 2n entries.
///
/// `ρ` is kept in a window of 4096 entries instead of all `n`, so that long inputs
/// stay in cache: when the window moves on to `[start, end)`, `ρ = h` there minus `a_w` at every
/// multiple of every `w` recorded so far, which is exactly what the seed's eager subtractions
/// would have left there; then the scan proceeds as written. The arithmetic is the same, plus
/// one pass over `R` per window.
///
/// ```
/// use layout_core::scan;
/// let c = scan(&[0, 2, 1, 3]).unwrap();          // (2,2):(1,2)
/// assert_eq!((c.shape.to_vec(), c.strides.to_vec()), (vec![2, 2], vec![1, 2]));
/// assert_eq!(scan(&[0, 1, 3, 2]), Err(3));      // rejected at t = 3
/// ```
///
/// # Errors
/// `Err(t)`: the `t` at which the scan rejects (`ρ(t) ≠ 0` with `t ∤ n` or `w_last ∤ t`);
/// `Err(0)` when `g` is empty or `g[0] ≠ 0`.
pub fn scan(g: &[i64]) -> Result<Chain, i64> {
    let n = g.len();
    if n == 0 || g[0] != 0 {
        return Err(0);
    }
    if n == 1 {
        // g = 0 is the layout (1):0.
        return Ok(leaf_chain(1, 0));
    }
    // rho[t - start] holds ρ(t) for t in the window [start, end), in i128: a difference of
    // two i64 values minus at most 64 recorded values (a chain of divisors of n < 2^64) never
    // leaves i128, so ρ(t) = 0 is decided on the integers, not modulo 2^64.
    let mut rho: SmallVec<[i128; 16]> =
        SmallVec::from_elem(0, SCAN_WINDOW.min(n.saturating_sub(1)));
    let mut w_last = 1usize;
    let mut recorded: SmallVec<[(usize, i128); 8]> = SmallVec::new();
    let mut start = 1usize;
    let reject = |t: usize| i64::try_from(t).unwrap_or(i64::MAX);
    while start < n {
        let end = n.min(start.saturating_add(SCAN_WINDOW));
        let Some(window) = rho.get_mut(..end.saturating_sub(start)) else {
            return Err(0);
        };
        for (r, t) in window.iter_mut().zip(start..end) {
            let (Some(&now), Some(&before)) = (g.get(t), g.get(t.saturating_sub(1))) else {
                return Err(0);
            };
            *r = i128::from(now).saturating_sub(i128::from(before));
        }
        for &(w, a) in &recorded {
            let mut m = start.div_ceil(w).saturating_mul(w);
            while m < end {
                if let Some(r) = window.get_mut(m.saturating_sub(start)) {
                    *r = r.saturating_sub(a);
                }
                m = m.saturating_add(w);
            }
        }
        for t in start..end {
            let a = window.get(t.saturating_sub(start)).copied().unwrap_or(0);
            if a == 0 {
                continue;
            }
            if !n.is_multiple_of(t) || !t.is_multiple_of(w_last) {
                return Err(reject(t));
            }
            recorded.push((t, a));
            w_last = t;
            let mut m = t;
            while m < end {
                if let Some(r) = window.get_mut(m.saturating_sub(start)) {
                    *r = r.saturating_sub(a);
                }
                m = m.saturating_add(t);
            }
        }
        start = end;
    }
    // The chain {1} ∪ R; the strides below are values of g, and the records are those that
    // `Chain::recorded` reads back from the shape and strides.
    let mut chain: InlineVec<i64> = InlineVec::new();
    chain.push(1i64);
    chain.extend(recorded.iter().map(|&(t, _)| reject(t)).filter(|&t| t != 1));
    let k = chain.len();
    let mut shape = InlineVec::new();
    let mut strides = InlineVec::new();
    let n_i64 = reject(n);
    for j in (0..k).rev() {
        let here = chain.get(j).copied().unwrap_or(1);
        let next = chain.get(j.saturating_add(1)).copied().unwrap_or(n_i64);
        // Each chain entry divides the next (checked by the scan), and here ≥ 1.
        shape.push(next.checked_div(here).unwrap_or(1));
        let at = usize::try_from(here).ok().and_then(|h| g.get(h)).copied();
        strides.push(at.unwrap_or(0));
    }
    Ok(Chain { shape, strides })
}

/// Why a map is not a layout.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotLayout {
    /// Step 1 failed: at `witness` (a coordinate, one entry per decided coordinate),
    /// `f(c) ≠ Σᵢ f(cᵢ·eᵢ)`.
    Separability {
        /// The first such coordinate, last entry fastest.
        witness: Vec<i64>,
    },
    /// Step 2 failed: the scan of `coordinate` rejected at `t`.
    Scan {
        /// Which coordinate (0-based).
        coordinate: usize,
        /// Where the scan rejected.
        t: i64,
    },
}

impl core::fmt::Display for NotLayout {
    /// Why the map is not a layout, naming the step of Theorem 1 that rejects it.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NotLayout::Separability { witness } => write!(
                f,
                "Theorem 1: not separable at the coordinate {witness:?}, where f(c) differs from the sum of f along each coordinate"
            ),
            NotLayout::Scan { coordinate, t } => write!(
                f,
                "Theorem 1: the scan of coordinate {coordinate} rejects at t = {t}"
            ),
        }
    }
}

/// How many coordinate sizes a [`Decision`] holds inline.
pub const COORDINATES_INLINE: usize = 8;

/// The outcome of [`decide`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Decision {
    /// The sizes of the decided coordinates (the domain leaves, or the top-level modes); up to
    /// [`COORDINATES_INLINE`] of them without a heap allocation.
    pub coordinate_shape: InlineVec<i64, COORDINATES_INLINE>,
    /// `f(0)`: 0 except for a restriction, whose constant part it is (spec: Restriction).
    pub constant: i64,
    /// Per coordinate, the coarsest refinement when the map is a layout, kept flat
    /// ([`Chains`]); up to [`PIECES_INLINE`](crate::PIECES_INLINE) pieces of all chains
    /// together without a heap allocation.
    pub result: Result<Chains, NotLayout>,
}

impl Decision {
    /// Whether the map (minus its constant) is a layout.
    #[must_use]
    pub fn is_layout(&self) -> bool {
        self.result.is_ok()
    }

    /// The map as one layout over its domain `shape` (the shape it was decided on): each decided
    /// coordinate — a leaf, or a top-level mode when decided by mode — replaced by its coarsest
    /// refinement, slowest piece first; a zero stride of a refinement is written `_`.
    /// `None` when the map is not a layout or has a constant part (a restriction).
    ///
    /// ```
    /// use layout_core::{compose, decide, Annotated, Space};
    /// let a = Annotated::new("(4,6):(8,1)".parse()?, Space::Logical, Space::Physical)?;
    /// let b = Annotated::new("(2,12):(12,1)".parse()?, Space::ThreadValue, Space::Logical)?;
    /// let m = compose(&a.into(), &b.into())?;
    /// let l = decide(&m, false)?.coarsest_layout(&m.domain_shape()).unwrap();
    /// assert_eq!(l.to_string(), "(2,(2,6)):(16,(8,1))");
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    #[must_use]
    pub fn coarsest_layout(&self, shape: &Tree<i64>) -> Option<crate::Layout> {
        let chains = self.result.as_ref().ok()?;
        if self.constant != 0 {
            return None;
        }
        let piece = |c: ChainRef<'_>| -> Pieces {
            let st = |s: i64| {
                if s == 0 {
                    crate::Stride::Broadcast
                } else {
                    crate::Stride::Int(s)
                }
            };
            if c.shape.len() == 1 {
                (Tree::Leaf(c.shape[0]), Tree::Leaf(st(c.strides[0])))
            } else {
                (
                    Tree::Tuple(c.shape.iter().map(|&m| Tree::Leaf(m)).collect()),
                    Tree::Tuple(c.strides.iter().map(|&d| Tree::Leaf(st(d))).collect()),
                )
            }
        };
        fn walk<'a>(
            t: &Tree<i64>,
            next: &mut impl Iterator<Item = ChainRef<'a>>,
            piece: &dyn Fn(ChainRef<'_>) -> Pieces,
        ) -> Option<Pieces> {
            match t {
                Tree::Leaf(_) => next.next().map(piece),
                Tree::Tuple(v) => {
                    let (mut s, mut d) = (Vec::new(), Vec::new());
                    for x in v {
                        let (a, b) = walk(x, next, piece)?;
                        s.push(a);
                        d.push(b);
                    }
                    Some((Tree::Tuple(s), Tree::Tuple(d)))
                }
            }
        }
        let (s, d) = if chains.len() == shape.leaves().len() {
            walk(shape, &mut chains.iter(), &piece)?
        } else {
            match shape {
                Tree::Tuple(v) if v.len() == chains.len() => {
                    let (s, d): (Vec<_>, Vec<_>) = chains.iter().map(piece).unzip();
                    (Tree::Tuple(s), Tree::Tuple(d))
                }
                _ => return None,
            }
        };
        crate::Layout::new(s, d).ok()
    }
}

/// The sizes of the coordinates: the leaves of `shape`, or its top-level entries.
fn coordinate_sizes(shape: &Tree<i64>) -> Vec<i64> {
    shape.leaves().into_iter().copied().collect()
}

/// The coordinates of a map's program: its domain leaves, or (`by_mode`) its top-level
/// entries ([`Map::domain_entries`]), each read as one integer; a restriction that fixes every
/// entry has the one coordinate of size 1 of its domain shape either way.
fn map_coordinate_sizes(map: &Map, by_mode: bool) -> Vec<i64> {
    if !by_mode {
        return domain_leaf_sizes(map);
    }
    match map.domain_entry_sizes() {
        sizes if by_mode && !sizes.is_empty() => sizes,
        _ => coordinate_sizes(&map.domain_shape()),
    }
}

/// The sizes of the leaves of a map's domain shape, read off the layout that sets the domain
/// (the right operand's, the inner map's) without building the shape.
fn domain_leaf_sizes(map: &Map) -> Vec<i64> {
    match map {
        Map::Layout(a) => a.layout().leaves().iter().map(|m| m.size()).collect(),
        Map::Swizzled { inner, .. } => domain_leaf_sizes(inner),
        Map::Composite(c) => domain_leaf_sizes(&c.right()),
        Map::Restricted { .. } => coordinate_sizes(&map.domain_shape()),
    }
}

/// Decides whether `map − map(0)` is a layout of its domain (spec: Theorem 1):
/// tabulates the map, checks separability, then runs [`scan`] on each coordinate — the domain
/// leaves, or with `by_mode` each top-level mode read as one integer. Returns the coarsest
/// refinement per coordinate, or the reason and a witness.
///
/// ```
/// use layout_core::{compose, decide, Annotated, Map, Space};
/// // CuTe's documented composition (6,2):(8,2) ∘ (4,3):(3,1), in seed order.
/// let a = Annotated::new("(2,6):(2,8)".parse()?, Space::Logical, Space::Physical)?;
/// let b = Annotated::new("(3,4):(1,3)".parse()?, Space::ThreadValue, Space::Logical)?;
/// let d = decide(&compose(&a.into(), &b.into())?, false)?;
/// let chains = d.result.unwrap();
/// let c = chains.get(1).unwrap();
/// assert_eq!((c.shape.to_vec(), c.strides.to_vec()), (vec![2, 2], vec![2, 24]));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::DecideTooLarge`] past [`DECIDE_LIMIT`] coordinates; evaluation errors of the map.
pub fn decide(map: &Map, by_mode: bool) -> Result<Decision, Error> {
    // A composite of two layouts, by domain leaf: the one pass answers alone where it can
    // (what the general path below returns first for it, see `direct` and `symbolic`).
    // One value returned on every path, so that it is written where the caller reads it: the
    // one pass fills it in place, and anything else replaces it.
    let mut out = Ok(Decision::empty());
    let mut answered = false;
    if !by_mode
        && let Map::Composite(c) = map
        && let Some((l, r)) = c.layouts()
        && let Ok(d) = &mut out
    {
        answered = one_pass_decision(l, r, d).is_some();
    }
    if !answered {
        out = decide_general(map, by_mode);
    }
    out
}

/// `decide(&compose(left, right)?, by_mode)`, without building the composite where both
/// operands are annotated layouts that [`compose`](crate::compose) accepts, `by_mode` is
/// `false` and the one-pass decision of their composite answers. Every other case (an error of `compose` included)
/// builds the composite and decides it, so the checks, the errors, their order and the
/// [`Decision`] are exactly those of `compose` and then [`decide`].
///
/// ```
/// use layout_core::{compose, decide, decide_composition, Annotated, Map, Space};
/// // CuTe's documented composition (6,2):(8,2) ∘ (4,3):(3,1), in seed order.
/// let a: Map = Annotated::new("(2,6):(2,8)".parse()?, Space::Logical, Space::Physical)?.into();
/// let b: Map = Annotated::new("(3,4):(1,3)".parse()?, Space::ThreadValue, Space::Logical)?.into();
/// let d = decide_composition(&a, &b, false)?;
/// assert_eq!(d, decide(&compose(&a, &b)?, false)?);
/// assert_eq!(d.coordinate_shape, vec![3, 4]);
/// // `b ∘ a`: `a` is not into logical, the error of `compose`.
/// assert_eq!(decide_composition(&b, &a, false), Err(compose(&b, &a).unwrap_err()));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// Those of [`compose`](crate::compose), in its order, then those of [`decide`].
#[inline(always)]
pub fn decide_composition(left: &Map, right: &Map, by_mode: bool) -> Result<Decision, Error> {
    // Inlined where it is called, so that the decision is written where the caller reads it:
    // the one pass fills it in place (in the value returned, not beside it), and anything else
    // is decided out of line.
    // One value on every path, as in `decide`.
    let mut out = Ok(Decision::empty());
    let mut answered = false;
    if !by_mode
        && let (Map::Layout(l), Map::Layout(r)) = (left, right)
        && crate::map::layouts_compose(l, r)
        && let Ok(d) = &mut out
    {
        answered = one_pass_decision(l, r, d).is_some();
    }
    if !answered {
        out = decide_built(left, right, by_mode);
    }
    out
}

/// `decide(&compose(left, right)?, by_mode)`: [`decide_composition`] where the one pass does
/// not answer, out of line.
#[inline(never)]
fn decide_built(left: &Map, right: &Map, by_mode: bool) -> Result<Decision, Error> {
    decide(&crate::map::compose(left, right)?, by_mode)
}

impl Decision {
    /// [`COORDINATES_INLINE`] coordinate sizes 0, constant 0, no chains: what
    /// [`one_pass_decision`] fills (it writes the sizes in place and cuts them to the count).
    #[inline(always)]
    fn empty() -> Decision {
        Decision {
            coordinate_shape: InlineVec(SmallVec::from_buf([0; COORDINATES_INLINE])),
            constant: 0,
            result: Ok(Chains::new()),
        }
    }
}

/// The [`Decision`] of `left ∘ right` of two annotated layouts by domain leaf, written into
/// `out` (as [`Decision::empty`] leaves it) where the one pass ([`one_pass`]) answers: the
/// right operand's leaf sizes, constant 0, the chains. `None` where it declines (`out` then
/// holds a part of the answer, to be dropped).
#[inline(always)]
fn one_pass_decision(left: &Annotated, right: &Annotated, out: &mut Decision) -> Option<()> {
    let Decision {
        coordinate_shape,
        result: Ok(chains),
        ..
    } = out
    else {
        return None;
    };
    // Into logical or thread-value, the right operand is a dense bijection (checked when it
    // was built): its ranges tile `[1, size)`, and the one pass need not check them.
    let dense = right.is_dense_bijection();
    // The leaf sizes are written in place by the one pass as it reads the leaves.
    one_pass(
        left.layout(),
        right.layout(),
        dense,
        chains,
        coordinate_shape,
    )?;
    let leaves = right.layout().leaves();
    if leaves.len() <= coordinate_shape.len() {
        coordinate_shape.0.truncate(leaves.len());
    } else {
        *coordinate_shape = leaves.iter().map(|m| m.size()).collect();
    }
    Some(())
}

/// [`decide`] by its general method: the coordinates, then a direct decision
/// ([`direct`]) where there is one, else enumeration.
fn decide_general(map: &Map, by_mode: bool) -> Result<Decision, Error> {
    let sizes = map_coordinate_sizes(map, by_mode);
    // One chain per coordinate, or the decision is not direct.
    if !by_mode
        && let Some(chains) = direct(map)
        && chains.len() == sizes.len()
    {
        // A restriction's constant part: the map at the free coordinates 0 (O(rank)).
        let constant = if map.is_restricted() {
            map.eval_index(0)?
        } else {
            0
        };
        return Ok(Decision {
            coordinate_shape: sizes.into(),
            constant,
            result: Ok(chains),
        });
    }
    let total = map.size();
    if total > DECIDE_LIMIT {
        return Err(Error::DecideTooLarge {
            size: total,
            limit: DECIDE_LIMIT,
        });
    }
    let constant = map.eval_index(0)?;
    let mut values = tabulate(map)?;
    for v in &mut values {
        *v = v.checked_sub(constant).ok_or(Error::Overflow {
            mode: crate::ModePath::ROOT,
            what: crate::Quantity::Offset,
        })?;
    }
    Ok(Decision {
        coordinate_shape: sizes.as_slice().iter().copied().collect(),
        constant,
        result: decide_values(&sizes, &values).map(Chains::from),
    })
}

/// Leaves `(size, stride)`, slowest first, inline for small maps.
type Flat = SmallVec<[(i64, i64); 8]>;

/// The leaves `(size, stride)` of a map that is a layout without enumeration, appended to
/// `flat`, with the end of each domain leaf's group appended to `ends`: a layout's leaves (one
/// each), or the coarsest pieces of each domain leaf of a composite that [`symbolic`] decides
/// (slowest first). `None` for any other map.
fn grouped_leaves(map: &Map, flat: &mut Flat, ends: &mut SmallVec<[usize; 8]>) -> Option<()> {
    match map {
        Map::Layout(a) => {
            for m in a.layout().leaves() {
                flat.push((m.size(), m.stride().value()));
                ends.push(flat.len());
            }
        }
        Map::Composite { .. } => {
            for c in &symbolic(map)? {
                flat.extend(c.shape.iter().copied().zip(c.strides.iter().copied()));
                ends.push(flat.len());
            }
        }
        _ => return None,
    }
    Some(())
}

/// The modes `(size, stride)` of a flat layout (slowest first) without those of size 1, and
/// with each mode merged into the faster one beside it where it continues it
/// (`stride = size_fast · stride_fast`): the same function, with only the mode boundaries
/// where it changes stride. `None` when a merged size overflows.
fn merged_runs(modes: impl DoubleEndedIterator<Item = (i64, i64)>) -> Option<Flat> {
    let mut out = Flat::new(); // fastest first
    for (n, d) in modes.rev() {
        if n == 1 {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.0.checked_mul(last.1) == Some(d) => {
                last.0 = last.0.checked_mul(n)?;
            }
            _ => out.push((n, d)),
        }
    }
    out.reverse();
    Some(out)
}

/// Decides `left ∘ right` over the right operand's domain leaves without enumerating the
/// domain, when both are layouts (or such composites) and the two mixed-radix systems agree:
/// the weights of the left operand's modes (adjacent modes that continue each other merged,
/// [`merged_runs`]) and the strides of the right operand's pieces (with both ends of every
/// range) form one chain under divisibility. The typed layer's const decision
/// (`layout_typed::Leaves::compose`) takes the same case the same way. Then every refined digit of the
/// left operand's flat index belongs to exactly one right piece and one left mode, so the map
/// is separable and each domain leaf's `g(t) = left(right(t))` is a layout, whose coarsest
/// refinement (what [`scan`] on `g` returns) is read off the pieces by [`leaf_of_composite`]
/// in O(pieces × left modes), without tabulating `g`. A right operand that is itself a
/// composite contributes the pieces of its domain leaves, and the chains stay one per domain
/// leaf of `right` (the map's coordinates). `None` sends [`decide`] to enumeration.
fn symbolic(map: &Map) -> Option<Chains> {
    let Map::Composite(c) = map else {
        return None;
    };
    if let Some((l, r)) = c.layouts() {
        let mut chains = Chains::new();
        if one_pass(
            l.layout(),
            r.layout(),
            r.is_dense_bijection(),
            &mut chains,
            &mut [],
        )
        .is_some()
        {
            return Some(chains);
        }
    }
    symbolic_pieces(map)
}

/// [`symbolic`] by its general method: the operands' pieces gathered, the bounds sorted, each
/// domain leaf's sub-modes sorted by weight ([`leaf_of_composite`]).
fn symbolic_pieces(map: &Map) -> Option<Chains> {
    let Map::Composite(c) = map else {
        return None;
    };
    let (left, right) = (&*c.left(), &*c.right());
    let (mut left_flat, mut left_ends) = (Flat::new(), SmallVec::new());
    grouped_leaves(left, &mut left_flat, &mut left_ends)?;
    let a = merged_runs(left_flat.into_iter())?;
    let (mut b_flat, mut b_ends) = (Flat::new(), SmallVec::<[usize; 8]>::new());
    grouped_leaves(right, &mut b_flat, &mut b_ends)?;
    let total = a.iter().try_fold(1i64, |acc, &(n, _)| acc.checked_mul(n))?;
    let right_total = b_flat
        .iter()
        .try_fold(1i64, |acc, &(n, _)| acc.checked_mul(n))?;
    if right_total != total {
        return None;
    }
    // The left operand's modes with their canonical weights (last fastest).
    let mut weights: SmallVec<[i64; 8]> = SmallVec::from_elem(1, a.len());
    for k in (0..a.len().saturating_sub(1)).rev() {
        let next = weights
            .get(k.saturating_add(1))?
            .checked_mul(a.get(k.saturating_add(1))?.0)?;
        *weights.get_mut(k)? = next;
    }
    let mut bounds: SmallVec<[i64; 16]> = SmallVec::new();
    bounds.extend([1, total]);
    for (&(m, _), &w) in a.iter().zip(&weights) {
        if m > 1 {
            bounds.push(w);
            bounds.push(w.checked_mul(m)?);
        }
    }
    for &(n, d) in &b_flat {
        if n > 1 {
            if d <= 0 {
                return None;
            }
            bounds.push(d);
            bounds.push(d.checked_mul(n)?);
        }
    }
    bounds.sort_unstable();
    bounds.dedup();
    if bounds
        .windows(2)
        .any(|w| matches!(w, [lo, hi] if hi.checked_rem(*lo) != Some(0)))
    {
        return None;
    }
    let mut chains = Chains::new();
    let mut start = 0usize;
    for &end in &b_ends {
        let pieces = b_flat.get(start..end)?;
        start = end;
        leaf_of_composite(pieces, &a, &weights, &mut chains)?;
    }
    Some(chains)
}

/// [`one_pass`] on two layouts without knowing that the right operand is a dense bijection
/// (its ranges are checked, [`ranges_tile`]): the chains, or `None` where it declines.
#[cfg(test)]
fn layouts_composite(left: &Layout, right: &Layout) -> Option<Chains> {
    let mut chains = Chains::new();
    one_pass(left, right, false, &mut chains, &mut [])?;
    Some(chains)
}

/// How many modes [`one_pass`] keeps in its fixed buffers: the left operand's, after merging,
/// and the right operand's leaves of size > 1 where its ranges are checked ([`ranges_tile`]);
/// past it, [`symbolic`]'s general method answers.
const FAST_MODES: usize = 8;

/// The left operand of [`one_pass`]: its modes `(size, stride)` fastest first, merged as
/// [`merged_runs`] merges them, and the weight at the top of each, `u_{k+1} = u_k·size_k`
/// (`u₀ = 1`; the last is the total).
struct LeftModes {
    /// The merged modes, fastest first; the first `len` are set.
    modes: [(i64, i64); FAST_MODES],
    /// `tops[k] = u_{k+1}`, the weight where mode `k` ends.
    tops: [i64; FAST_MODES],
    /// How many modes there are.
    len: usize,
}

impl LeftModes {
    /// The merged modes of `left`, written into `out` (no modes yet); `None` past
    /// [`FAST_MODES`] of them (or an overflow, which a layout's checked size rules out).
    /// Filled in place: the arrays are not moved.
    #[inline(always)]
    fn fill(out: &mut LeftModes, left: &Layout) -> Option<()> {
        let mut top = 1i64;
        let mut len = 0usize;
        // The last mode (size, stride), kept out of the arrays for the merge test.
        let mut last = (0i64, 0i64);
        for m in left.leaves().iter().rev() {
            let (n, d) = (m.size(), m.value());
            if n == 1 {
                continue;
            }
            top = top.checked_mul(n)?;
            if len > 0 && last.0.checked_mul(last.1) == Some(d) {
                last.0 = last.0.checked_mul(n)?;
            } else {
                len = len.saturating_add(1);
                last = (n, d);
            }
            let k = len.checked_sub(1)?;
            *out.modes.get_mut(k)? = last;
            *out.tops.get_mut(k)? = top;
        }
        out.len = len;
        Some(())
    }
}

/// Whether the ranges `[d, d·n)` of the leaves of `right` with `n > 1` tile `[1, total)` end to
/// end, every `d` positive: sorted by their start (insertion sort of at most [`FAST_MODES`]),
/// each starts where the one before ends. A dense bijection's always do. `None` otherwise, or
/// past [`FAST_MODES`] such leaves.
#[inline(never)]
fn ranges_tile(right: &Layout, total: i64) -> Option<()> {
    let mut ranges = [(0i64, 0i64); FAST_MODES];
    let mut nr = 0usize;
    for m in right.leaves() {
        let (n, d) = (m.size(), m.value());
        if n > 1 {
            if d <= 0 {
                return None;
            }
            let x = (d, d.checked_mul(n)?);
            *ranges.get_mut(nr)? = x;
            let mut i = nr;
            while let Some(j) = i.checked_sub(1)
                && ranges.get(j).is_some_and(|y| y.0 > x.0)
            {
                ranges.swap(j, i);
                i = j;
            }
            nr = nr.saturating_add(1);
        }
    }
    let mut r = 1i64;
    for &(lo, hi) in ranges.get(..nr)? {
        if lo != r {
            return None;
        }
        r = hi;
    }
    (r == total).then_some(())
}

/// The one pass of [`symbolic`] for `left ∘ right` of two layouts: the chain of each right leaf,
/// in order, pushed onto `chains`, and its size written to `sizes` where `sizes` has room;
/// `None` where it declines (`chains` and `sizes` then hold a part).
///
/// The left operand's merged modes ([`LeftModes`]) have the canonical weights
/// `1 = u₀ | u₁ | … | total` (fastest first), one divisibility chain by construction; each
/// right leaf `n:d` (`n > 1`) adds `d` and `d·n`, and the whole set must stay one chain
/// ([`symbolic`]'s condition). The right leaves' ranges `[d, d·n)` tile `[1, total)` end to end:
/// `dense` says the right operand is known to be a dense bijection (an annotated layout into
/// logical or thread-value, whose ranges do), else [`ranges_tile`] checks it. Each leaf's range
/// of digits is cut at the left modes' boundaries in increasing order of weight — the order
/// [`leaf_of_composite`] sorts into — with every cut checked to divide the next
/// ([`cut_leaf`]); as the leaves tile the range, those checks make the whole set one chain.
/// A leaf inside one left mode `[u, u·size)` has no cut inside it: its one sub-mode is
/// `n : e·(d/u)`, `u | d` following from the checks of the leaves below it. The same `Some`
/// as [`symbolic_pieces`] wherever this answers; `None` (beyond the buffers, an overflow, a
/// condition that fails) leaves the decision to it.
#[inline(always)]
fn one_pass(
    left: &Layout,
    right: &Layout,
    dense: bool,
    chains: &mut Chains,
    sizes: &mut [i64],
) -> Option<()> {
    let total = left.size();
    if right.size() != total {
        return None;
    }
    let mut merged = LeftModes {
        modes: [(0, 0); FAST_MODES],
        tops: [0; FAST_MODES],
        len: 0,
    };
    LeftModes::fill(&mut merged, left)?;
    let left = &merged;
    if !dense {
        ranges_tile(right, total)?;
    }
    let modes = left.modes.get(..left.len)?;
    let tops = left.tops.get(..left.len)?;
    let leaves = right.leaves();
    // Inline where the pieces fit (the counts in registers), else on the heap.
    if leaves.len() <= CHAINS_INLINE
        && let Some(mut w) = chains.inline_writer()
    {
        let done = all_leaves(leaves, modes, tops, &mut w, sizes);
        if !w.full {
            w.finish();
            return done;
        }
    }
    on_the_heap(leaves, modes, tops, chains, sizes)
}

/// [`all_leaves`] into `chains` moved onto the heap: where the pieces do not fit inline.
#[cold]
#[inline(never)]
fn on_the_heap(
    leaves: &[crate::layout::Leaf],
    modes: &[(i64, i64)],
    tops: &[i64],
    chains: &mut Chains,
    sizes: &mut [i64],
) -> Option<()> {
    chains.move_to_heap(leaves.len());
    all_leaves(leaves, modes, tops, chains, sizes)
}

/// The chains of the right leaves `leaves` in [`one_pass`], written to `out`, and their sizes
/// to `sizes` where it has room. `None` where the one pass declines or `out` is full.
#[inline(always)]
fn all_leaves<S: Sink>(
    leaves: &[crate::layout::Leaf],
    modes: &[(i64, i64)],
    tops: &[i64],
    out: &mut S,
    sizes: &mut [i64],
) -> Option<()> {
    for (i, m) in leaves.iter().enumerate() {
        let n = m.size();
        if let Some(s) = sizes.get_mut(i) {
            *s = n;
        }
        one_leaf(n, m.value(), modes, tops, out)?;
        out.close()?;
    }
    Some(())
}

/// The pieces of the chain of the right leaf `n:d` in [`one_pass`], pushed onto `chains` (not
/// closed): `modes` and `tops` those of [`LeftModes`]. `None` where the one pass declines.
#[inline(always)]
fn one_leaf<S: Sink>(
    n: i64,
    d: i64,
    modes: &[(i64, i64)],
    tops: &[i64],
    chains: &mut S,
) -> Option<()> {
    if n == 1 {
        return chains.piece(1, 0);
    }
    if d <= 0 {
        return None;
    }
    let end = d.checked_mul(n)?;
    // The first left mode that ends past `d`, and the weight where it starts.
    let mut k = 0usize;
    let mut w = 1i64;
    while let Some(&top) = tops.get(k)
        && top <= d
    {
        w = top;
        k = k.saturating_add(1);
    }
    let (&(_, e), &top) = (modes.get(k)?, tops.get(k)?);
    if end <= top {
        // Inside mode `k`: one sub-mode, no cut to check.
        let stride = if d == w {
            e
        } else {
            e.checked_mul(quotient(d, w)?)?
        };
        chains.piece(n, stride)
    } else {
        cut_leaf(modes.get(k..)?, tops.get(k..)?, w, d, end, chains)
    }
}

/// The pieces of the chain of a right leaf `n:d` (`n > 1`, `end = d·n`) of `left ∘ right` in
/// [`one_pass`] where the left modes cut it, pushed onto `chains` (not closed): `modes` and
/// `tops` those of [`LeftModes`] from the first mode that ends past `d` (and before `end`),
/// which starts at the weight `w`. The leaf's digits
/// `[d, d·n)` cut at the left modes' boundaries give, fastest first: the rest of the first
/// mode, `⌊top/d⌋ : e·(d/w)`; every left mode that lies inside the leaf, whole; the start of
/// the last, `⌊end/u⌋ : e` (its start `u`). `None` where a cut does not divide the next (only
/// the first and the last can fail: the whole modes' bounds are one chain by construction),
/// or on an overflow.
///
/// No two of these sub-modes merge (what [`leaf_of_composite`] would merge): the first
/// spans `size·e` of its left mode (`⌊top/d⌋·e·(d/w) = (top/w)·e`), and no left mode continues
/// the one before it ([`LeftModes`] merged them), so no sub-mode's `size·stride` is the
/// next one's stride.
#[inline(always)]
fn cut_leaf<S: Sink>(
    modes: &[(i64, i64)],
    tops: &[i64],
    w: i64,
    d: i64,
    end: i64,
    chains: &mut S,
) -> Option<()> {
    // How many left modes the leaf meets: mode `k + j` for every `j` whose start is below `end`
    // (the first two at least: the first ends before `end`).
    let (&(_, e0), &top0) = (modes.first()?, tops.first()?);
    let first = (exact_quotient(top0, d)?, e0.checked_mul(quotient(d, w)?)?);
    let mut last_start = top0;
    let mut inside = 0usize;
    while let Some(&top) = tops.get(inside.saturating_add(1))
        && top < end
    {
        last_start = top;
        inside = inside.saturating_add(1);
    }
    let &(_, e_last) = modes.get(inside.saturating_add(1))?;
    let last = (exact_quotient(end, last_start)?, e_last);
    // Slowest first: the last sub-mode, the whole modes from the slowest, the first.
    let whole = modes.get(1..=inside)?;
    chains.piece(last.0, last.1)?;
    for &(size, e) in whole.iter().rev() {
        chains.piece(size, e)?;
    }
    chains.piece(first.0, first.1)
}

/// `a / b` where `b` divides `a` (`a ≥ 0`, `b > 0`); `None` otherwise.
#[inline]
fn exact_quotient(a: i64, b: i64) -> Option<i64> {
    let q = quotient(a, b)?;
    (q.checked_mul(b) == Some(a)).then_some(q)
}

/// `a / b` (truncated) for `a ≥ 0`, `b > 0`, a shift where `b` is a power of two; `None` for
/// `b = 0`.
#[inline]
fn quotient(a: i64, b: i64) -> Option<i64> {
    if b > 0 && b & b.wrapping_sub(1) == 0 && a >= 0 {
        a.checked_shr(b.trailing_zeros())
    } else {
        a.checked_div(b)
    }
}

/// The chain of one domain leaf of `left ∘ right` under [`symbolic`]'s condition, read off the
/// pieces instead of scanning `g(t) = left(right(t))`: the leaf's pieces `(m, d)` (slowest
/// first), the left operand's merged modes `(size, stride)` (slowest first) and their
/// canonical weights. Every piece's digit range `[d, d·m)` of the left operand's flat index is
/// cut at the left modes' boundaries `[u, u·size)` (all of them one divisibility chain), giving
/// sub-modes of `g` with size `hi/lo`, weight in `t` (the piece's weight times `lo/d`) and
/// stride `e·lo/u`. Sorted by weight, with each merged into the slower one beside it where
/// that one continues it (`σ' = μ·σ`), they are `g`'s coarsest refinement; what [`scan`]
/// records at the start `W` of each mode is `σ − μ₋·σ₋` (`σ` for the fastest), which is never 0
/// after the merge except for a fastest stride 0, which the scan does not record. `None` when
/// a product leaves `i64` or the pieces do not tile the leaf (then `decide` enumerates).
/// The chain is pushed onto `chains` and closed.
fn leaf_of_composite(
    pieces: &[(i64, i64)],
    left: &[(i64, i64)],
    weights: &[i64],
    chains: &mut Chains,
) -> Option<()> {
    let n = pieces
        .iter()
        .try_fold(1i64, |acc, &(m, _)| acc.checked_mul(m))?;
    if n == 1 {
        chains.push_piece(1, 0);
        chains.close();
        return Some(());
    }
    // (weight in t, size, stride), in any order.
    let mut subs: SmallVec<[(i64, i64, i64); 16]> = SmallVec::new();
    let mut piece_weight = 1i64;
    for &(m, d) in pieces.iter().rev() {
        if m > 1 {
            let end = d.checked_mul(m)?;
            for (&(size, e), &u) in left.iter().zip(weights) {
                let lo = d.max(u);
                let hi = end.min(u.checked_mul(size)?);
                if lo < hi {
                    subs.push((
                        piece_weight.checked_mul(lo.checked_div(d)?)?,
                        hi.checked_div(lo)?,
                        e.checked_mul(lo.checked_div(u)?)?,
                    ));
                }
            }
        }
        piece_weight = piece_weight.checked_mul(m)?;
    }
    subs.sort_unstable_by_key(|s| s.0);
    // The coarsest modes, fastest first: (weight, size, stride).
    let mut modes: SmallVec<[(i64, i64, i64); 16]> = SmallVec::new();
    let mut next = 1i64;
    for (w, size, stride) in subs {
        if w != next {
            return None;
        }
        next = w.checked_mul(size)?;
        match modes.last_mut() {
            Some(last)
                if i128::from(last.1).checked_mul(i128::from(last.2))
                    == Some(i128::from(stride)) =>
            {
                last.1 = last.1.checked_mul(size)?;
            }
            _ => modes.push((w, size, stride)),
        }
    }
    if next != n {
        return None;
    }
    for m in modes.iter().rev() {
        chains.push_piece(m.1, m.2);
    }
    chains.close();
    Some(())
}

/// The chain of one leaf `n:d` of a layout, `g(t) = t·d` (what [`scan`] returns for it).
#[inline]
fn leaf_chain(n: i64, d: i64) -> Chain {
    let (shape, strides) = if n == 1 { (1, 0) } else { (n, d) };
    Chain {
        shape: InlineVec::one(shape),
        strides: InlineVec::one(strides),
    }
}

/// The coarsest refinement per domain leaf without enumerating the domain, where the map is a
/// layout by construction: a layout (one chain per leaf, O(rank)), a composite that
/// [`symbolic`] decides, and a restriction of either. A restriction of a map `f` that is a
/// layout is `f` at the fixed coordinates plus `f` on the free ones (separability), so its
/// chains are those of the free leaves; the constant is left to the caller. `None` otherwise.
fn direct(map: &Map) -> Option<Chains> {
    match map {
        Map::Layout(a) => {
            let mut chains = Chains::new();
            let leaves = a.layout().leaves();
            chains.reserve_chains(leaves.len());
            for m in leaves {
                let c = leaf_chain(m.size(), m.stride().value());
                chains.push(c.view());
            }
            Some(chains)
        }
        Map::Composite { .. } => symbolic(map),
        Map::Restricted { fixed, inner } => {
            let chains = direct(inner)?;
            let entries: Vec<usize> = inner
                .domain_entries()
                .iter()
                .map(|t| t.leaves().len())
                .collect();
            if entries.iter().sum::<usize>() != chains.len() {
                return None;
            }
            let mut out = Chains::new();
            let mut chains = chains.iter();
            for (e, count) in entries.into_iter().enumerate() {
                let keep = !fixed.iter().any(|(f, _)| *f == e);
                for c in chains.by_ref().take(count) {
                    if keep {
                        out.push(c);
                    }
                }
            }
            Some(out)
        }
        Map::Swizzled { .. } => None,
    }
}

/// Every value of `map` at the flat indices `0..size`, in order: `map.eval_index(i)` for every
/// `i`, without a division per leaf. A layout is walked with an odometer (one addition per
/// index, one subtraction per carry); a composite gathers the left operand's table at the right
/// operand's values (the right operand is a bijection onto the left's domain); a swizzle
/// applies to every value; a restriction is evaluated index by index.
fn tabulate(map: &Map) -> Result<Vec<i64>, Error> {
    match map {
        Map::Layout(a) => layout_values(a.layout()),
        Map::Swizzled { swizzle, inner } => {
            let mut values = tabulate(inner)?;
            for v in &mut values {
                *v = swizzle.apply(*v);
            }
            Ok(values)
        }
        Map::Composite(c) => {
            let (left, right) = (&*c.left(), &*c.right());
            let table = tabulate(left)?;
            tabulate(right)?
                .into_iter()
                .map(
                    |x| match usize::try_from(x).ok().and_then(|x| table.get(x)) {
                        Some(&v) => Ok(v),
                        None => left.eval_index(x),
                    },
                )
                .collect()
        }
        Map::Restricted { .. } => (0..map.size()).map(|i| map.eval_index(i)).collect(),
    }
}

/// `L(i)` for every flat index `i` of `l`, in order (last leaf fastest).
fn layout_values(l: &Layout) -> Result<Vec<i64>, Error> {
    let overflow = Error::Overflow {
        mode: crate::ModePath::ROOT,
        what: crate::Quantity::Offset,
    };
    let leaves = l.leaves();
    let size = usize::try_from(l.size()).unwrap_or(0);
    let mut out = Vec::with_capacity(size);
    let mut coord = vec![0i64; leaves.len()];
    let mut acc = 0i64;
    for _ in 0..size {
        out.push(acc);
        // Every intermediate value is an offset of `l` (checked to fit at construction).
        for (c, m) in coord.iter_mut().zip(leaves).rev() {
            let d = m.stride().value();
            if *c < m.size().saturating_sub(1) {
                *c = c.saturating_add(1);
                acc = acc.checked_add(d).ok_or(overflow)?;
                break;
            }
            let back = m.size().saturating_sub(1).checked_mul(d).ok_or(overflow)?;
            acc = acc.checked_sub(back).ok_or(overflow)?;
            *c = 0;
        }
    }
    Ok(out)
}

/// [`decide`] on a tabulated map: `values[i]` at flat index `i` of the coordinates `sizes`
/// (last fastest), with `values[0] = 0`.
///
/// # Errors
/// The reason the map is not a layout.
pub fn decide_values(sizes: &[i64], values: &[i64]) -> Result<Vec<Chain>, NotLayout> {
    let malformed = NotLayout::Scan {
        coordinate: 0,
        t: 0,
    };
    let k = sizes.len();
    let total = sizes
        .iter()
        .try_fold(1usize, |acc, &n| {
            acc.checked_mul(usize::try_from(n).ok().filter(|&n| n >= 1)?)
        })
        .ok_or(malformed.clone())?;
    if total != values.len() {
        return Err(malformed);
    }
    // Weights are divisors of the table's length: they fit in usize.
    let n_of = |j: usize| {
        sizes
            .get(j)
            .and_then(|&n| usize::try_from(n).ok())
            .unwrap_or(1)
    };
    let mut weights = vec![1usize; k];
    for i in (0..k.saturating_sub(1)).rev() {
        let w = weights
            .get(i.saturating_add(1))
            .copied()
            .unwrap_or(1)
            .saturating_mul(n_of(i.saturating_add(1)));
        if let Some(slot) = weights.get_mut(i) {
            *slot = w;
        }
    }
    let at = |i: usize| values.get(i).copied().unwrap_or(0);
    // Step 1: separability, one pass with an odometer. `parts` = Σᵢ f(cᵢ·eᵢ) is kept up to
    // date as the odometer moves: a step of coordinate j swaps its term, a carry resets it.
    // In i128, k terms of i64 values are compared exactly, not modulo 2^64.
    let mut c = vec![0usize; k];
    let base = i128::from(at(0));
    let mut parts: i128 = (0..k).fold(0, |acc, _| acc.saturating_add(base));
    for (i, &v) in values.iter().enumerate() {
        if parts != i128::from(v) {
            let witness = c
                .iter()
                .map(|&x| i64::try_from(x).unwrap_or(i64::MAX))
                .collect();
            return Err(NotLayout::Separability { witness });
        }
        if i.saturating_add(1) < values.len() {
            for j in (0..k).rev() {
                let (Some(cj), Some(&wj)) = (c.get_mut(j), weights.get(j)) else {
                    break;
                };
                let old = i128::from(at(cj.saturating_mul(wj)));
                *cj = cj.saturating_add(1);
                if *cj < n_of(j) {
                    let new = i128::from(at(cj.saturating_mul(wj)));
                    parts = parts.saturating_sub(old).saturating_add(new);
                    break;
                }
                *cj = 0;
                parts = parts.saturating_sub(old).saturating_add(base);
            }
        }
    }
    // Step 2: the scan per coordinate.
    let mut chains = Vec::with_capacity(k);
    for (i, &w) in weights.iter().enumerate() {
        let g: Vec<i64> = (0..n_of(i)).map(|t| at(t.saturating_mul(w))).collect();
        match scan(&g) {
            Ok(chain) => chains.push(chain),
            Err(t) => return Err(NotLayout::Scan { coordinate: i, t }),
        }
    }
    Ok(chains)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Annotated, compose};
    use crate::space::Space;
    use crate::swizzle::Swizzle;

    fn annotated(text: &str, domain: Space, codomain: Space) -> Map {
        Annotated::new(text.parse().expect("layout"), domain, codomain)
            .expect("annotation")
            .into()
    }

    /// The tables `decide` reads are `eval_index` at every flat index, for every kind of map:
    /// nested, broadcast, negative and size-1 strides, swizzles, composites, restrictions.
    #[test]
    fn tabulate_is_eval_index_everywhere() {
        let mut maps = Vec::new();
        for text in [
            "8:1",
            "(4,8):(8,1)",
            "((2,3),(4,5)):((1,2),(60,6))",
            "(3,4):(_,1)",
            "(4,1,3):(-3,7,1)",
            "(2,(1,4),3):(100,(0,-10),1)",
        ] {
            maps.push(annotated(text, Space::Logical, Space::Physical));
        }
        let swizzled = annotated("(8,16):(16,1)", Space::Logical, Space::Physical)
            .swizzle(Swizzle::new(2, 5, 1).expect("disjoint"))
            .expect("physical");
        let tv = annotated(
            "((2,4),(4,4)):((1,32),(2,8))",
            Space::ThreadValue,
            Space::Logical,
        );
        let padded = annotated("(8,16):(17,1)", Space::Logical, Space::Physical);
        let composite = compose(&padded, &tv).expect("sizes");
        let swizzled_composite = compose(&swizzled, &tv).expect("sizes");
        maps.push(composite.restrict(&[(1, 5)]).expect("entry"));
        maps.extend([swizzled, composite, swizzled_composite]);
        for map in &maps {
            let expected: Vec<i64> = (0..map.size())
                .map(|i| map.eval_index(i).expect("in range"))
                .collect();
            assert_eq!(tabulate(map).expect("tabulates"), expected, "{map:?}");
        }
    }

    /// Chains of three whose outer operand undoes the middle one's permutation, so that the
    /// pieces of a domain leaf continue each other and must merge into the coarsest modes:
    /// `P⁻¹ ∘ (P ∘ Q)` and `S ∘ (P⁻¹ ∘ (P ∘ Q))` for every dense bijection `P` of the leaves
    /// `(2,2,3)`, `(2,3,2)`, `(4,2)` in every stride order, `Q` a leaf or a split of the
    /// domain, `S` padded storage. Wherever the symbolic path answers, its chains equal the scan
    /// of the tabulated map.
    #[test]
    fn symbolic_pieces_merge_like_the_scan() {
        use alloc::format;
        use alloc::string::{String, ToString};
        let join = |v: &[i64]| {
            let t: Vec<String> = v.iter().map(i64::to_string).collect();
            t.join(",")
        };
        let mut merged = 0usize;
        let mut checked = 0usize;
        for sizes in [vec![2i64, 2, 3], vec![2, 3, 2], vec![4, 2]] {
            let k = sizes.len();
            let n: i64 = sizes.iter().product();
            // Every order of the running products.
            let mut orders: Vec<Vec<usize>> = Vec::new();
            let mut perm: Vec<usize> = (0..k).collect();
            loop {
                orders.push(perm.clone());
                // Next permutation (lexicographic).
                let Some(i) = (0..k.saturating_sub(1))
                    .rev()
                    .find(|&i| perm[i] < perm[i + 1])
                else {
                    break;
                };
                let j = (i + 1..k)
                    .rev()
                    .find(|&j| perm[j] > perm[i])
                    .expect("exists");
                perm.swap(i, j);
                perm[i + 1..].reverse();
            }
            for order in orders {
                let mut strides = vec![0i64; k];
                let mut w = 1i64;
                for &i in &order {
                    strides[i] = w;
                    w *= sizes[i];
                }
                let p_text = format!("({}):({})", join(&sizes), join(&strides));
                let p_layout: Layout = p_text.parse().expect("dense");
                let inv = crate::ops::inverse(&p_layout).expect("dense");
                let p = annotated(&p_text, Space::Logical, Space::Logical);
                let p_inv = annotated(&inv.to_string(), Space::Logical, Space::Logical);
                let storage = annotated(
                    &format!("({},{}):({},1)", n / 2, 2, 3),
                    Space::Logical,
                    Space::Physical,
                );
                for q_text in [format!("{n}:1"), format!("({},{}):(2,1)", n / 2, 2)] {
                    let q = annotated(&q_text, Space::ThreadValue, Space::Logical);
                    let inner = compose(&p, &q).expect("sizes");
                    let undone = compose(&p_inv, &inner).expect("sizes");
                    let stored = compose(&storage, &undone).expect("sizes");
                    for map in [&undone, &stored] {
                        let coords = coordinate_sizes(&map.domain_shape());
                        let expected = decide_values(&coords, &tabulate(map).expect("tabulates"))
                            .map(Chains::from);
                        // Where the strides are not one divisibility chain (a stride 3
                        // against weights 1, 2), `decide` enumerates instead.
                        let Some(chains) = symbolic(map) else {
                            continue;
                        };
                        let pieces: usize = grouped_pieces(&inner);
                        if chains.iter().map(|c| c.shape.len()).sum::<usize>() < pieces {
                            merged += 1;
                        }
                        assert_eq!(Ok(chains), expected, "{map:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked >= 2 * (6 + 6 + 2), "{checked}");
        assert!(merged > 20, "only {merged} decisions merged pieces");
    }

    /// The one-pass decision of two layouts ([`layouts_composite`]) against the general method
    /// ([`symbolic_pieces`]) and against a brute force written here: every value of
    /// `left(right(i))` from the two layouts' own sizes and strides, then the scan per
    /// coordinate. Left operands: padded, permuted, nested, broadcast and size-1 modes, and
    /// ranks past the fixed buffers; right operands: dense bijections of every factor order,
    /// with size-1 modes.
    /// Wherever the one pass answers, all three agree; wherever it declines, the general method
    /// declines too unless an operand has more modes than the buffers hold.
    #[test]
    fn one_pass_composition_equals_the_general_method_and_enumeration() {
        use alloc::string::{String, ToString};
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let mut runner = TestRunner::new(Config {
            cases: 1500,
            ..Config::default()
        });
        let answered = core::cell::Cell::new(0usize);
        let declined = core::cell::Cell::new(0usize);
        let past_buffers = core::cell::Cell::new(0usize);
        let split = core::cell::Cell::new(0usize);
        let sizes = prop::sample::select(vec![1i64, 2, 2, 2, 2, 3, 4, 6, 8]);
        let left = (
            prop::collection::vec((sizes, 0i64..4), 1..12),
            0u8..4,
            any::<u64>(),
        );
        runner
            .run(&(left, any::<u64>()), |((modes, form, seed), b_seed)| {
                let mut rng = seed;
                let mut next = |m: u64| lcg(&mut rng, m);
                let k = modes.len();
                let shape: Vec<i64> = modes.iter().map(|m| m.0).collect();
                // Small enough to enumerate.
                let n: i64 = shape.iter().product();
                if n > 4096 {
                    return Ok(());
                }
                // Strides: the running products in a random order of the modes, each with a
                // padding of 0..3 (form 0), or that times a random factor of 1..3 (form 1),
                // or arbitrary small strides (form 2), or with broadcast modes (form 3).
                let mut order: Vec<usize> = (0..k).collect();
                for i in (1..k).rev() {
                    order.swap(i, usize::try_from(next(i as u64 + 1)).expect("small"));
                }
                let mut strides = vec![0i64; k];
                let mut w = 1i64;
                for &i in &order {
                    strides[i] = match form {
                        2 => i64::try_from(next(40)).expect("small") + 1,
                        3 if next(3) == 0 => 0,
                        _ => w,
                    };
                    w = w * shape[i] + modes[i].1 * i64::from(form == 0);
                    if form == 1 {
                        w *= i64::try_from(next(3)).expect("small") + 1;
                    }
                }
                let join = |v: &[String]| v.join(",");
                let st = |d: i64| {
                    if d == 0 {
                        "_".to_string()
                    } else {
                        d.to_string()
                    }
                };
                let s_text: Vec<String> = shape.iter().map(i64::to_string).collect();
                let d_text: Vec<String> = strides.iter().map(|&d| st(d)).collect();
                // Nest the first two modes when there are three or more.
                let text = if k >= 3 && next(2) == 0 {
                    alloc::format!(
                        "(({},{}),{}):(({},{}),{})",
                        s_text[0],
                        s_text[1],
                        join(&s_text[2..]),
                        d_text[0],
                        d_text[1],
                        join(&d_text[2..])
                    )
                } else {
                    alloc::format!("({}):({})", join(&s_text), join(&d_text))
                };
                let Ok(l) = text.parse::<Layout>() else {
                    return Ok(());
                };
                let Ok(a) = Annotated::new(l, Space::Logical, Space::Physical) else {
                    return Ok(());
                };
                // The right operand: a dense bijection of the same size, its factors grouped
                // and ordered at random.
                let (b_sizes, b_strides) = random_dense_bijection(n, b_seed, true);
                let bs: Vec<String> = b_sizes.iter().map(i64::to_string).collect();
                let bd: Vec<String> = b_strides.iter().map(i64::to_string).collect();
                let b_text = alloc::format!("({}):({})", join(&bs), join(&bd));
                let b = annotated(&b_text, Space::ThreadValue, Space::Logical);
                let map = compose(&a.clone().into(), &b).expect("sizes");
                let Map::Composite(c) = &map else {
                    panic!("a composite");
                };
                let Some((la, lb)) = c.layouts() else {
                    panic!("two layouts");
                };
                // The brute force: each value from the sizes and strides above.
                let eval = |sizes: &[i64], strides: &[i64], mut i: i64| {
                    let mut v = 0i64;
                    for (&m, &d) in sizes.iter().zip(strides).rev() {
                        v += (i % m) * d;
                        i /= m;
                    }
                    v
                };
                let values: Vec<i64> = (0..n)
                    .map(|i| eval(&shape, &strides, eval(&b_sizes, &b_strides, i)))
                    .collect();
                let brute = decide_values(&b_sizes, &values).map(Chains::from);
                // The lean path of `decide` and the borrowed entry point against the general
                // method of `decide` and against the brute force, whichever path answers.
                let lean = decide(&map, false).expect("decided");
                prop_assert_eq!(
                    &Ok(lean.clone()),
                    &decide_general(&map, false),
                    "{} o {}",
                    text,
                    b_text
                );
                let borrowed = decide_composition(&a.clone().into(), &b, false);
                prop_assert_eq!(&Ok(lean.clone()), &borrowed, "{} o {}", text, b_text);
                prop_assert_eq!(
                    &lean.coordinate_shape[..],
                    &b_sizes[..],
                    "{} o {}",
                    text,
                    b_text
                );
                prop_assert_eq!(lean.constant, 0);
                prop_assert_eq!(&lean.result, &brute, "{} o {}", text, b_text);
                let fast = layouts_composite(la.layout(), lb.layout());
                let general = symbolic_pieces(&map);
                match fast {
                    Some(chains) => {
                        answered.set(answered.get() + 1);
                        if chains.iter().any(|c| c.shape.len() > 1) {
                            split.set(split.get() + 1);
                        }
                        prop_assert_eq!(Some(chains.clone()), general, "{} o {}", text, b_text);
                        prop_assert_eq!(Ok(chains), brute, "{} o {}", text, b_text);
                    }
                    None => {
                        declined.set(declined.get() + 1);
                        let many = |v: &[i64]| v.iter().filter(|&&m| m > 1).count() > FAST_MODES;
                        if many(&shape) || many(&b_sizes) {
                            past_buffers.set(past_buffers.get() + 1);
                        } else {
                            prop_assert_eq!(general, None, "{} o {}", text, b_text);
                        }
                    }
                }
                Ok(())
            })
            .expect("the one pass agrees with the general method and the brute force");
        let (answered, declined, past) = (answered.get(), declined.get(), past_buffers.get());
        assert!(answered > 300, "only {answered} answered in one pass");
        assert!(declined > 200, "only {declined} declined");
        assert!(past > 20, "only {past} past the buffers");
        assert!(
            split.get() > 100,
            "only {} leaves cut by the left modes",
            split.get()
        );
    }

    /// The one pass where the right operand's ranges `[d, d·n)` overlap (no bijection, which a
    /// composite never holds: the one pass declines, leaving it to the general method), and
    /// records that leave i64: strides near ±2⁶², whose `σ − μ·σ₋` is kept exactly in i128,
    /// against enumeration.
    #[test]
    fn one_pass_declines_overlapping_ranges_and_keeps_wide_records() {
        for (l, r) in [
            ("(4):(1)", "(2,2):(1,1)"),
            ("(2,4):(4,1)", "(2,4):(2,1)"),
            ("(8):(1)", "(2,2,2):(1,1,4)"),
        ] {
            let (l, r): (Layout, Layout) = (l.parse().expect("l"), r.parse().expect("r"));
            assert_eq!(layouts_composite(&l, &r), None, "{l} o {r}");
        }
        // Records past i64: the fastest left mode 2:2⁶² and the next 2:2⁶¹, cut by one
        // right leaf 4:1; `σ − μ·σ₋ = 2⁶¹ − 2⁶³`, whose product `μ·σ₋` leaves i64.
        let big = 1i64 << 62;
        let a_text = alloc::format!("(2,2):({},{})", big / 2, big);
        let a = annotated(&a_text, Space::Logical, Space::Physical);
        let b = annotated("(4):(1)", Space::ThreadValue, Space::Logical);
        let map = compose(&a, &b).expect("sizes");
        let values = [0, big, big / 2, big / 2 + big];
        let brute = decide_values(&[4], &values).map(Chains::from);
        let (Map::Layout(la), Map::Layout(lb)) = (&a, &b) else {
            panic!("two layouts");
        };
        let chains = layouts_composite(la.layout(), lb.layout()).expect("one pass");
        let wide = i128::from(big);
        assert_eq!(
            chains.get(0).expect("one chain").recorded(),
            [(1, wide), (2, wide / 2 - 2 * wide)]
        );
        assert_eq!(Ok(chains), brute);
        assert_eq!(decide(&map, false).expect("decided").result, brute);
    }

    /// The one pass on hand-picked operands, against values worked out by hand (seed order,
    /// each chain slowest first): cuts that are not one chain (declined) beside the same cuts
    /// made one chain by a merged left run, size-1 left modes with any stride, `_` fastest and
    /// slower, negative runs, size-1 right leaves with any stride, more modes than the buffers
    /// keep (declined), exactly as many (answered) or merged down to fit, records past i64,
    /// sizes near `i64::MAX`.
    #[test]
    #[allow(clippy::type_complexity)]
    fn one_pass_on_hand_picked_operands() {
        const N: i64 = 3_037_000_499; // N² < i64::MAX < (N + 1)²
        let h = 1i64 << 62;
        let texts: Vec<(
            alloc::string::String,
            alloc::string::String,
            Option<Vec<(Vec<i64>, Vec<i64>)>>,
        )> = vec![
            ("(2,3):(1,2)".into(), "(3,2):(2,1)".into(), None),
            (
                "(2,3):(3,1)".into(),
                "(3,2):(2,1)".into(),
                Some(vec![(vec![3], vec![2]), (vec![2], vec![1])]),
            ),
            (
                "(2,1,3):(3,9223372036854775807,1)".into(),
                "(2,3):(1,2)".into(),
                Some(vec![(vec![2], vec![1]), (vec![3], vec![2])]),
            ),
            (
                "(2,2,2,2,2,2,2,2,2):(256,64,128,16,32,4,8,1,2)".into(),
                "512:1".into(),
                None,
            ),
            (
                "(2,2,2,2,2,2,2,2,2):(256,128,64,32,16,8,4,2,1)".into(),
                "(16,32):(1,16)".into(),
                Some(vec![(vec![16], vec![1]), (vec![32], vec![16])]),
            ),
            (
                "512:1".into(),
                "(2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256)".into(),
                None,
            ),
            (
                "(2,2,2,2,2,2,2,2):(64,128,16,32,4,8,1,2)".into(),
                "(2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128)".into(),
                Some(
                    [2, 1, 8, 4, 32, 16, 128, 64]
                        .iter()
                        .map(|&d| (vec![2], vec![d]))
                        .collect(),
                ),
            ),
            (
                "(2,2,2,2,2,2,2,2):(64,128,16,32,4,8,1,2)".into(),
                "256:1".into(),
                Some(vec![(vec![2; 8], vec![64, 128, 16, 32, 4, 8, 1, 2])]),
            ),
            (
                "(2,2):(1,2)".into(),
                "(1,4,1):(-9223372036854775808,1,_)".into(),
                Some(vec![
                    (vec![1], vec![0]),
                    (vec![2, 2], vec![1, 2]),
                    (vec![1], vec![0]),
                ]),
            ),
            (
                alloc::format!("(2,2):({},{})", -h, h - 1),
                "4:1".into(),
                Some(vec![(vec![2, 2], vec![-h, h - 1])]),
            ),
            (
                "(2,4):(_,1)".into(),
                "8:1".into(),
                Some(vec![(vec![2, 4], vec![0, 1])]),
            ),
            (
                "(4,2):(1,_)".into(),
                "8:1".into(),
                Some(vec![(vec![4, 2], vec![1, 0])]),
            ),
            (
                "(3,2):(-2,-1)".into(),
                "(2,3):(1,2)".into(),
                Some(vec![(vec![2], vec![-1]), (vec![3], vec![-2])]),
            ),
            (
                alloc::format!("({N},{N}):(1,{N})"),
                alloc::format!("({N},{N}):({N},1)"),
                Some(vec![(vec![N], vec![1]), (vec![N], vec![N])]),
            ),
            (
                alloc::format!("({N},{N}):(1,{N})"),
                alloc::format!("{}:1", N * N),
                Some(vec![(vec![N, N], vec![1, N])]),
            ),
            (
                "(4,3):(1,4)".into(),
                "(2,6):(6,1)".into(),
                Some(vec![(vec![2], vec![2]), (vec![2, 3], vec![1, 4])]),
            ),
            ("(4,3):(1,4)".into(), "(3,4):(4,1)".into(), None),
        ];
        for (l, r, want) in texts {
            let a = annotated(&l, Space::Logical, Space::Physical);
            let b = annotated(&r, Space::ThreadValue, Space::Logical);
            let (Map::Layout(la), Map::Layout(lb)) = (&a, &b) else {
                panic!("two layouts");
            };
            let got = layouts_composite(la.layout(), lb.layout()).map(|c| {
                c.iter()
                    .map(|c| (c.shape.to_vec(), c.strides.to_vec()))
                    .collect::<Vec<_>>()
            });
            assert_eq!(got, want, "{l} o {r}");
            if let Some(want) = want {
                let d = decide(&compose(&a, &b).expect("composes"), false).expect("decided");
                assert_eq!(
                    decide_composition(&a, &b, false),
                    Ok(d.clone()),
                    "{l} o {r}"
                );
                let chains = d.result.expect("a layout");
                let got: Vec<_> = chains
                    .iter()
                    .map(|c| (c.shape.to_vec(), c.strides.to_vec()))
                    .collect();
                assert_eq!(got, want, "{l} o {r}");
            }
        }
        // What the derived chain and records read off those shapes and strides.
        let chain = |l: &str, r: &str| {
            let a = annotated(l, Space::Logical, Space::Physical);
            let b = annotated(r, Space::ThreadValue, Space::Logical);
            let d = decide(&compose(&a, &b).expect("composes"), false).expect("decided");
            let c = d.result.expect("a layout");
            let c = c.get(0).expect("one chain");
            (c.chain().to_vec(), c.recorded().to_vec())
        };
        let wide = i128::from(h);
        assert_eq!(
            chain(&alloc::format!("(2,2):({},{})", -h, h - 1), "4:1"),
            (vec![1, 2], vec![(1, wide - 1), (2, -wide - 2 * (wide - 1))])
        );
        assert_eq!(
            chain("(2,4):(_,1)", "8:1"),
            (vec![1, 4], vec![(1, 1), (4, -4)])
        );
        assert_eq!(chain("(4,2):(1,_)", "8:1"), (vec![1, 2], vec![(2, 1)]));
        let n = i128::from(N);
        assert_eq!(
            chain(
                &alloc::format!("({N},{N}):(1,{N})"),
                &alloc::format!("{}:1", N * N)
            ),
            (vec![1, N], vec![(1, n), (N, 1 - n * n)])
        );
    }

    /// `left(right(i))` for every flat index `i`, from the two layouts' own sizes and strides
    /// (last fastest), and the decision that enumeration gives it: the right operand's leaf
    /// sizes as coordinates, the scan per coordinate (test data, small sizes).
    #[allow(clippy::arithmetic_side_effects)]
    fn enumerated_decision(
        left: (&[i64], &[i64]),
        right: (&[i64], &[i64]),
    ) -> Result<Chains, NotLayout> {
        let eval = |sizes: &[i64], strides: &[i64], mut i: i64| {
            let mut v = 0i64;
            for (&m, &d) in sizes.iter().zip(strides).rev() {
                v += (i % m) * d;
                i /= m;
            }
            v
        };
        let n: i64 = right.0.iter().product();
        let values: Vec<i64> = (0..n)
            .map(|i| eval(left.0, left.1, eval(right.0, right.1, i)))
            .collect();
        decide_values(right.0, &values).map(Chains::from)
    }

    /// The text `(sizes):(strides)` of a flat layout, a stride 0 written `_`.
    fn flat_text(sizes: &[i64], strides: &[i64]) -> alloc::string::String {
        use alloc::string::{String, ToString};
        let s: Vec<String> = sizes.iter().map(i64::to_string).collect();
        let d: Vec<String> = strides
            .iter()
            .map(|&d| {
                if d == 0 {
                    "_".to_string()
                } else {
                    d.to_string()
                }
            })
            .collect();
        alloc::format!("({}):({})", s.join(","), d.join(","))
    }

    /// Every case of the one pass's split, against enumeration, exhaustively over small
    /// operands: every left layout of one to three modes of sizes 1, 2, 3, 4 and strides
    /// `_`, 1, −1, 2, 3, 5, 8 that is alias-free, composed with every dense bijection of its
    /// size that `random_dense_bijection` gives for eight seeds, with and without size-1
    /// modes, and with the identity. A right leaf lies inside one left mode (at its start or
    /// past it) or is cut (the rest of the first mode, whole modes, the start of the last,
    /// cuts that do not divide: declined); `decide_composition`, `decide` of the built
    /// composite and the one pass without the right operand's density known
    /// (`layouts_composite`) are the enumeration's decision wherever they answer, and
    /// `decide` always is.
    #[test]
    #[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // test data, small
    fn one_pass_cases_by_enumeration() {
        let sizes = [1i64, 2, 3, 4];
        let strides = [0i64, 1, -1, 2, 3, 5, 8];
        let (mut answered, mut declined, mut inside_past_start, mut cut, mut whole_middle) =
            (0usize, 0usize, 0usize, 0usize, 0usize);
        let mut lefts: Vec<(Vec<i64>, Vec<i64>)> = Vec::new();
        for k in 1..=3usize {
            let mut shape = vec![0usize; k];
            loop {
                let mut stride = vec![0usize; k];
                loop {
                    lefts.push((
                        shape.iter().map(|&i| sizes[i]).collect(),
                        stride.iter().map(|&i| strides[i]).collect(),
                    ));
                    // The next stride vector, then the next shape (odometers).
                    let Some(j) = (0..k).rev().find(|&j| stride[j] + 1 < strides.len()) else {
                        break;
                    };
                    stride[j] += 1;
                    stride[j + 1..].iter_mut().for_each(|x| *x = 0);
                }
                let Some(j) = (0..k).rev().find(|&j| shape[j] + 1 < sizes.len()) else {
                    break;
                };
                shape[j] += 1;
                shape[j + 1..].iter_mut().for_each(|x| *x = 0);
            }
        }
        for (l_sizes, l_strides) in &lefts {
            let Ok(l) = flat_text(l_sizes, l_strides).parse::<Layout>() else {
                continue;
            };
            let Ok(a) = Annotated::new(l, Space::Logical, Space::Physical) else {
                continue; // aliasing: not a left operand
            };
            let a = Map::Layout(a);
            let n: i64 = l_sizes.iter().product();
            let mut rights = vec![(vec![n], vec![1])];
            for seed in 0..8u64 {
                rights.push(random_dense_bijection(n, seed, seed % 2 == 1));
            }
            for (r_sizes, r_strides) in &rights {
                let b = annotated(
                    &flat_text(r_sizes, r_strides),
                    Space::ThreadValue,
                    Space::Logical,
                );
                let want = enumerated_decision((l_sizes, l_strides), (r_sizes, r_strides));
                let built = decide(&compose(&a, &b).expect("composes"), false).expect("decides");
                assert_eq!(
                    built.result, want,
                    "{l_sizes:?}:{l_strides:?} o {r_sizes:?}"
                );
                assert_eq!(built.coordinate_shape, *r_sizes);
                assert_eq!(decide_composition(&a, &b, false), Ok(built.clone()));
                let (Map::Layout(la), Map::Layout(lb)) = (&a, &b) else {
                    panic!("two layouts");
                };
                match layouts_composite(la.layout(), lb.layout()) {
                    Some(chains) => {
                        answered += 1;
                        assert_eq!(Ok(chains.clone()), want);
                        // Which cases the right leaves took, read off the operands.
                        let mut merged = LeftModes {
                            modes: [(0, 0); FAST_MODES],
                            tops: [0; FAST_MODES],
                            len: 0,
                        };
                        LeftModes::fill(&mut merged, la.layout()).expect("fits");
                        let starts: Vec<i64> = core::iter::once(1)
                            .chain(merged.tops[..merged.len].iter().copied())
                            .collect();
                        for (&m, &d) in r_sizes.iter().zip(r_strides) {
                            if m == 1 {
                                continue;
                            }
                            let cuts = starts.iter().filter(|&&u| d < u && u < d * m).count();
                            match cuts {
                                0 if !starts.contains(&d) => inside_past_start += 1,
                                0 => {}
                                1 => cut += 1,
                                _ => whole_middle += 1,
                            }
                        }
                    }
                    None => declined += 1,
                }
            }
        }
        assert!(answered > 20_000, "{answered} answered");
        assert!(declined > 1_000, "{declined} declined");
        assert!(inside_past_start > 1_000, "{inside_past_start}");
        assert!(cut > 1_000, "{cut} cut once");
        assert!(whole_middle > 100, "{whole_middle} with whole modes inside");
    }

    /// The one pass against the general method (`symbolic_pieces`) on operands past
    /// enumeration: left layouts of one to five modes with sizes up to 2³⁰ (the whole up to
    /// 2⁶²), size-1 modes, broadcasts, negative strides and strides near the end of `i64`;
    /// right operands that group the same factors into one to four leaves in a random order,
    /// with size-1 leaves. Wherever the one pass answers the general method gives the same
    /// chains, and each chain is the map at sampled points of its coordinate (exact in
    /// `i128`) and coarsest (no mode continues the one after it); wherever it declines, the
    /// general method declines too (no operand here is past the buffers).
    #[test]
    #[allow(
        clippy::arithmetic_side_effects,
        clippy::cast_possible_wrap,
        clippy::cast_possible_truncation,
        clippy::indexing_slicing
    )] // test data: small indices and values
    fn one_pass_on_extreme_operands_equals_the_general_method() {
        let mut rng = 0x5eed_u64;
        let mut next = |m: u64| lcg(&mut rng, m);
        let (mut answered, mut declined, mut wide) = (0usize, 0usize, 0usize);
        let size_pool = [1i64, 2, 3, 4, 6, 8, 1 << 10, 3i64.pow(7), 1 << 20, 1 << 30];
        for _ in 0..4000 {
            let k = 1 + next(5) as usize;
            let mut l_sizes = Vec::new();
            let mut total = 1i64;
            for _ in 0..k {
                let s = size_pool[next(size_pool.len() as u64) as usize];
                if let Some(t) = total.checked_mul(s).filter(|&t| t <= 1 << 62) {
                    total = t;
                    l_sizes.push(s);
                } else {
                    l_sizes.push(1);
                }
            }
            // Strides: compact in a random order, or random small ones, or near the end of
            // i64 for the mode's size, negated at random, broadcast at random.
            let mut order: Vec<usize> = (0..k).collect();
            for i in (1..k).rev() {
                order.swap(i, next(i as u64 + 1) as usize);
            }
            let mut l_strides = vec![0i64; k];
            let mut w = 1i64;
            for &i in &order {
                let limit = i64::MAX / l_sizes[i].max(1) / 2;
                let d = match next(6) {
                    0 => 0,
                    1 => next(9) as i64 + 1,
                    2 => limit - next(3) as i64,
                    _ => w,
                };
                l_strides[i] = if next(4) == 0 { -d } else { d };
                w = w.saturating_mul(l_sizes[i]);
            }
            let Ok(l) = flat_text(&l_sizes, &l_strides).parse::<Layout>() else {
                continue;
            };
            let Ok(a) = Annotated::new(l, Space::Logical, Space::Physical) else {
                continue;
            };
            // The right operand: the factors of the total (2s and 3s) in one to four groups,
            // in a random order, with size-1 leaves.
            let mut factors = Vec::new();
            let mut rest = total;
            for p in [2i64, 3] {
                while rest % p == 0 {
                    factors.push(p);
                    rest /= p;
                }
            }
            let groups = 1 + next(4) as usize;
            let mut r_sizes = vec![1i64; groups];
            for f in factors {
                r_sizes[next(groups as u64) as usize] *= f;
            }
            let mut perm: Vec<usize> = (0..groups).collect();
            for i in (1..groups).rev() {
                perm.swap(i, next(i as u64 + 1) as usize);
            }
            let mut r_strides = vec![0i64; groups];
            let mut w = 1i64;
            for &i in &perm {
                r_strides[i] = if r_sizes[i] == 1 { 1 } else { w };
                w *= r_sizes[i];
            }
            if next(3) == 0 {
                r_sizes.insert(0, 1);
                r_strides.insert(0, 1);
            }
            let b = annotated(
                &flat_text(&r_sizes, &r_strides),
                Space::ThreadValue,
                Space::Logical,
            );
            let a = Map::Layout(a);
            let map = compose(&a, &b).expect("composes");
            let fast = match (&a, &b) {
                (Map::Layout(la), Map::Layout(lb)) => {
                    let mut chains = Chains::new();
                    one_pass(la.layout(), lb.layout(), true, &mut chains, &mut []).map(|()| chains)
                }
                _ => panic!("two layouts"),
            };
            let general = symbolic_pieces(&map);
            let Some(chains) = fast else {
                declined += 1;
                assert_eq!(general, None, "{l_sizes:?}:{l_strides:?} o {r_sizes:?}");
                continue;
            };
            answered += 1;
            assert_eq!(Some(chains.clone()), general, "{l_sizes:?}:{l_strides:?}");
            let d = decide_composition(&a, &b, false).expect("decides");
            assert_eq!(d.result, Ok(chains.clone()));
            assert_eq!(d, decide(&map, false).expect("decides"));
            // Each chain at sampled points, against the left layout at the right leaf's
            // offsets, in i128.
            let left_at = |mut x: i128| {
                let mut v = 0i128;
                for (&m, &s) in l_sizes.iter().zip(&l_strides).rev() {
                    v += (x % i128::from(m)) * i128::from(s);
                    x /= i128::from(m);
                }
                v
            };
            for ((c, &m), &e) in chains.iter().zip(&r_sizes).zip(&r_strides) {
                assert_eq!(c.shape.iter().product::<i64>(), m);
                for pair in c
                    .shape
                    .iter()
                    .zip(c.strides.iter())
                    .collect::<Vec<_>>()
                    .windows(2)
                {
                    // Slowest first: the faster mode does not continue into the slower one.
                    let (&(&_, &s_slow), &(&m_fast, &s_fast)) = (&pair[0], &pair[1]);
                    assert_ne!(i128::from(m_fast) * i128::from(s_fast), i128::from(s_slow));
                }
                if c.strides.iter().any(|&s| s.unsigned_abs() > 1 << 40) {
                    wide += 1;
                }
                for _ in 0..8 {
                    let t = i128::from(next(m.unsigned_abs()));
                    let mut x = t;
                    let mut value = 0i128;
                    for (&size, &stride) in c.shape.iter().zip(c.strides.iter()).rev() {
                        value += (x % i128::from(size)) * i128::from(stride);
                        x /= i128::from(size);
                    }
                    assert_eq!(
                        value,
                        left_at(t * i128::from(e)),
                        "{l_sizes:?}:{l_strides:?}"
                    );
                }
            }
        }
        assert!(answered > 1000, "{answered} answered");
        assert!(declined > 100, "{declined} declined");
        assert!(wide > 100, "{wide} chains with strides past 2^40");
    }

    /// The next value below `m` of a linear congruential generator with state `rng` (test data).
    #[allow(clippy::arithmetic_side_effects)] // test data: `m` is never 0
    fn lcg(rng: &mut u64, m: u64) -> u64 {
        *rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*rng >> 33) % m
    }

    /// A random dense bijection of size `n` (a product of 2s and 3s), as its sizes and strides:
    /// `n` factored, the factors grouped at random (with size-1 modes inserted at random when
    /// `ones`), the modes ordered at random and given the running products as strides.
    #[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // test data, small
    fn random_dense_bijection(n: i64, seed: u64, ones: bool) -> (Vec<i64>, Vec<i64>) {
        let mut rng = seed;
        let mut next = |m: u64| lcg(&mut rng, m);
        let mut factors = Vec::new();
        let mut rest = n;
        for p in [2i64, 3] {
            while rest % p == 0 {
                factors.push(p);
                rest /= p;
            }
        }
        let mut sizes: Vec<i64> = Vec::new();
        for f in factors {
            match sizes.last_mut() {
                Some(last) if next(4) == 0 => *last *= f,
                _ => sizes.push(f),
            }
            if ones && next(8) == 0 {
                sizes.push(1);
            }
        }
        if sizes.is_empty() {
            sizes.push(1);
        }
        let mut perm: Vec<usize> = (0..sizes.len()).collect();
        for i in (1..perm.len()).rev() {
            perm.swap(i, usize::try_from(next(i as u64 + 1)).expect("below i + 1"));
        }
        let mut strides = vec![0i64; sizes.len()];
        let mut w = 1i64;
        for &i in &perm {
            strides[i] = w;
            w *= sizes[i];
        }
        (sizes, strides)
    }

    /// The number of pieces that `symbolic` gives a composite's domain leaves.
    fn grouped_pieces(map: &Map) -> usize {
        let (mut flat, mut ends) = (Flat::new(), SmallVec::new());
        grouped_leaves(map, &mut flat, &mut ends).expect("symbolic");
        flat.len()
    }

    /// The symbolic path of `decide` (no enumeration) agrees with enumeration wherever it
    /// answers: random padded storage composed with random dense bijections, and chains of
    /// three. Expected values come from tabulating the map and running the scan per coordinate.
    #[test]
    fn symbolic_composition_equals_enumeration() {
        use alloc::string::{String, ToString};
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let mut runner = TestRunner::new(Config {
            cases: 600,
            ..Config::default()
        });
        let sizes = prop::sample::select(vec![1i64, 2, 3, 4, 6, 8]);
        let storage = (
            prop::collection::vec(sizes.clone(), 1..4),
            prop::collection::vec(0i64..3, 3),
            any::<bool>(),
        );
        let symbolic_hits = core::cell::Cell::new(0usize);
        let pieces_hits = core::cell::Cell::new(0usize);
        let layouts = core::cell::Cell::new(0usize);
        let enumerated = core::cell::Cell::new(0usize);
        runner
            .run(
                &(storage, any::<u64>(), any::<bool>()),
                |((shape, pads, column), seed, chain)| {
                    // Storage: row- or column-major with padding on the slower modes.
                    let k = shape.len();
                    let mut strides = vec![0i64; k];
                    let order: Vec<usize> = if column {
                        (0..k).collect()
                    } else {
                        (0..k).rev().collect()
                    };
                    let mut w = 1i64;
                    for (j, &i) in order.iter().enumerate() {
                        strides[i] = w;
                        w = w * shape[i] + if j + 1 < k { pads[j] } else { 0 };
                    }
                    let text = |sh: &[i64], st: &[i64]| {
                        let s: Vec<String> = sh.iter().map(i64::to_string).collect();
                        let d: Vec<String> = st.iter().map(i64::to_string).collect();
                        alloc::format!("({}):({})", s.join(","), d.join(","))
                    };
                    let a = annotated(&text(&shape, &strides), Space::Logical, Space::Physical);
                    // A random dense bijection of the same size: factor, shuffle, running products.
                    let n: i64 = shape.iter().product();
                    let (b_sizes, b_strides) = random_dense_bijection(n, seed, false);
                    let b = annotated(
                        &text(&b_sizes, &b_strides),
                        Space::ThreadValue,
                        Space::Logical,
                    );
                    let mid =
                        annotated(&text(&b_sizes, &b_strides), Space::Logical, Space::Logical);
                    let map = if chain {
                        // left ∘ (identity permutation into logical) ∘ b: a chain of three,
                        // nested to the left or to the right.
                        if b_sizes.len().is_multiple_of(2) {
                            let inner = compose(&a, &mid).expect("sizes");
                            compose(&inner, &b).expect("sizes")
                        } else {
                            let inner = compose(&mid, &b).expect("sizes");
                            compose(&a, &inner).expect("sizes")
                        }
                    } else {
                        compose(&a, &b).expect("sizes")
                    };
                    let shape = map.domain_shape();
                    let coords = coordinate_sizes(&shape);
                    let values = tabulate(&map).expect("tabulates");
                    let expected = decide_values(&coords, &values).map(Chains::from);
                    if let Some(chains) = symbolic(&map) {
                        symbolic_hits.set(symbolic_hits.get() + 1);
                        prop_assert_eq!(Ok(chains), expected.clone());
                    } else {
                        enumerated.set(enumerated.get() + 1);
                    }
                    // The general method on its own (`symbolic` tries the one pass first for
                    // two layouts): wherever it answers, enumeration agrees.
                    if let Some(chains) = symbolic_pieces(&map) {
                        pieces_hits.set(pieces_hits.get() + 1);
                        prop_assert_eq!(Ok(chains), expected.clone());
                    }
                    let got = decide(&map, false).expect("decides");
                    if got.is_layout() {
                        layouts.set(layouts.get() + 1);
                    }
                    prop_assert_eq!(got.result, expected);
                    Ok(())
                },
            )
            .expect("symbolic decisions agree with enumeration");
        let (hits, layouts, enumerated) = (symbolic_hits.get(), layouts.get(), enumerated.get());
        assert!(hits > 150, "only {hits} symbolic decisions");
        assert!(
            pieces_hits.get() > 150,
            "only {} decisions by the general method",
            pieces_hits.get()
        );
        assert!(
            layouts >= hits,
            "{layouts} layouts, {hits} decided symbolically"
        );
        assert!(
            enumerated > 50,
            "only {enumerated} maps went to enumeration"
        );
    }
}

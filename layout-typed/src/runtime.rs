//! The value of an algebra expression with run-time leaves (spec: Run-time leaves):
//! `layout!(restrict(divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)), rest = (i, j)))`.
//!
//! `layout!` checks, while compiling, everything that does not depend on a run-time value: each
//! operand's static leaves among themselves (as for a [`Dynamic`](crate::Dynamic) value), the
//! operations' own rules on a stand-in of each operand (its run-time sizes taken as multiples of
//! every tile of the expression, its strides packed), and the nesting of the result's domain,
//! which is its type's coordinates. The value is built at run time, once, by the same evaluator
//! on the expression with the run-time values written in: every rule that involves a run-time
//! value (a tile that must divide a run-time size, a coordinate inside a run-time entry, the
//! alias-freedom of the operand, the offset range of the index type) is then checked, and a
//! failure is the `Err` of the value, never an assumption about the value.
//!
//! The run-time values stay factors of the result: when the result is a layout (Theorem 1), its
//! strides are kept per piece of each domain leaf and `offset` is their weighted sum, like a
//! [`Dynamic`](crate::Dynamic)'s; otherwise `offset` evaluates the map as written.

use alloc::string::String;
use alloc::sync::Arc;
use core::fmt::{self, Write as _};
use core::marker::PhantomData;

use layout_core::{Error, Map, Tree};

use crate::IndexType;
use crate::dynamic::Leaf;
use crate::form::{Coord, Form, MAX_LEAVES};
use crate::rules::SpaceMarker;

/// The most pieces (a domain leaf cut by the result's coarsest refinement, Theorem 1) a
/// [`DynamicMap`] keeps as strides; a result with more is evaluated as written.
pub const MAX_PIECES: usize = 2 * MAX_LEAVES;

/// The most coordinates of a composite whose decision (Theorem 1) `DynamicMap` makes when it
/// is built; a larger one is evaluated as written.
const DECIDE_WHEN_BUILT: i64 = 1 << 20;

/// What a run-time value of `layout!`'s expression stands for: the size or the stride of a
/// leaf (its number among its layout's leaves, seed order), or a `restrict` value.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Part {
    /// A leaf's size.
    Size(usize),
    /// A leaf's stride.
    Stride(usize),
    /// A leaf's stride in an operand written in CuTe order, where a written 0 would read as a
    /// broadcast: a run-time 0 is `Error::ZeroStride` at the leaf's seed mode `path`, whose size
    /// is static (`Ok`) or the run-time value at that index of the parts (`Err`).
    CuteStride {
        /// The leaf's number.
        leaf: usize,
        /// Its seed mode path.
        path: &'static [usize],
        /// Its size, or where the run-time size is among the parts.
        size: Result<i64, usize>,
    },
    /// A `restrict` value.
    Value,
}

/// The result's pieces: `offset = base + Σ ((c[leaf] / div) % modulo) · stride`.
#[derive(Clone, Copy)]
struct Pieces {
    n: usize,
    leaf: [u8; MAX_PIECES],
    div: [usize; MAX_PIECES],
    modulo: [usize; MAX_PIECES],
    stride: [isize; MAX_PIECES],
    base: isize,
}

/// The checked value of an algebra expression with run-time leaves, built when the program
/// runs. `F` is the form of its domain (placeholders at every leaf: the sizes are run-time
/// values), `D`/`C` its spaces, `I` its index type. `layout!` returns
/// `Result<DynamicMap<..>, layout_core::Error>`.
///
/// ```
/// use layout_typed::prelude::*;
/// let (m, k, ld) = (384usize, 256usize, 264usize);
/// // The 128×64 tile (i, j) of an m×k row-major matrix with leading dimension ld (CuTe's
/// // `local_tile(A, make_shape(128, 64), make_coord(i, j))`).
/// for (i, j) in [(0usize, 0usize), (1, 3)] {
///     let tile = layout!(restrict(
///         divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64)),
///         rest = (i, j)
///     ))?;
///     assert_eq!(tile.size(), 128 * 64);
///     assert_eq!(tile.offset((5usize, 7usize)), ((128 * i + 5) * ld + 64 * j + 7) as i64);
/// }
/// // A tile that does not divide a run-time size is the value's error.
/// let m = 300usize;
/// let err = layout!(divide([({m}, {k}):({ld}, 1), logical -> physical], (128, 64))).unwrap_err();
/// assert_eq!(err.to_string(), "divide: tile entry 128 does not divide the size 300 of mode 0");
/// # Ok::<(), layout_typed::core_algebra::Error>(())
/// ```
#[allow(clippy::type_complexity)]
pub struct DynamicMap<F, D, C, I> {
    sizes: [usize; MAX_LEAVES],
    size: usize,
    min: i64,
    max: i64,
    read_only: bool,
    /// `None`: the map is evaluated as written.
    pieces: Option<Pieces>,
    map: Arc<Map>,
    _p: PhantomData<fn() -> (F, D, C, I)>,
}

impl<F, D, C, I> Clone for DynamicMap<F, D, C, I> {
    fn clone(&self) -> Self {
        DynamicMap {
            sizes: self.sizes,
            size: self.size,
            min: self.min,
            max: self.max,
            read_only: self.read_only,
            pieces: self.pieces,
            map: Arc::clone(&self.map),
            _p: PhantomData,
        }
    }
}

/// Whether two trees have the same nesting (the leaves' values aside), a tuple of one entry
/// being that entry.
fn same_profile<A, B>(a: &Tree<A>, b: &Tree<B>) -> bool {
    match (a, b) {
        (Tree::Tuple(x), _) if x.len() == 1 => x.first().is_some_and(|x| same_profile(x, b)),
        (_, Tree::Tuple(y)) if y.len() == 1 => y.first().is_some_and(|y| same_profile(a, y)),
        (Tree::Leaf(_), Tree::Leaf(_)) => true,
        (Tree::Tuple(x), Tree::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_profile(p, q))
        }
        _ => false,
    }
}

/// Whether a map stores through a broadcast (a `_` mode of size > 1 of the layout that maps
/// into memory).
fn read_only(m: &Map) -> bool {
    match m {
        Map::Layout(a) => a.layout().is_broadcast(),
        Map::Swizzled { inner, .. } | Map::Restricted { inner, .. } => read_only(inner),
        Map::Composite(c) => read_only(&c.left()),
    }
}

impl<F: Form, D: SpaceMarker, C: SpaceMarker, I: IndexType> DynamicMap<F, D, C, I> {
    /// Builds the value from the expression's text cut at its run-time values (`pieces` has
    /// one more element than `parts`): writes the values in, evaluates the expression
    /// (`layout_core::expr::evaluate_text`), checks the result's domain nesting against `F`
    /// and its offset range against `I`, and keeps the result's strides.
    ///
    /// # Errors
    /// [`Error::LeafOutOfRange`] for a leaf outside `i64`, [`Error::RuntimeValueOutOfRange`]
    /// for a `restrict` value outside `i64` (inside it, the evaluator's
    /// [`Error::CoordOutOfRange`]), every error of the expression with these values,
    /// [`Error::RuntimeProfile`] and [`Error::IndexTypeRange`].
    #[doc(hidden)]
    pub fn __build(pieces: &[&str], parts: &[(Leaf, Part)]) -> Result<Self, Error> {
        let mut text = String::new();
        // A `restrict` value outside `i64` is written as the nearest `i64`, outside every entry;
        // the evaluator's error then gets the value back.
        let mut outside: Option<(bool, u128)> = None;
        for (k, piece) in pieces.iter().enumerate() {
            text.push_str(piece);
            let Some((leaf, part)) = parts.get(k) else {
                continue;
            };
            let v = match (leaf.value(), *part) {
                (Ok(0), Part::CuteStride { path, size, .. }) => {
                    let size = match size {
                        Ok(n) => n,
                        Err(at) => parts
                            .get(at)
                            .and_then(|(l, _)| l.value().ok())
                            .unwrap_or(i64::MAX),
                    };
                    if size > 1 {
                        return Err(Error::ZeroStride {
                            mode: layout_core::ModePath::from_indices(path)
                                .unwrap_or(layout_core::ModePath::ROOT),
                            size,
                        });
                    }
                    0
                }
                (Ok(v), _) => v,
                (Err((negative, magnitude)), Part::Value) => {
                    outside.get_or_insert((negative, magnitude));
                    if negative { i64::MIN } else { i64::MAX }
                }
                (
                    Err((negative, magnitude)),
                    Part::Size(leaf) | Part::Stride(leaf) | Part::CuteStride { leaf, .. },
                ) => {
                    return Err(Error::LeafOutOfRange {
                        leaf,
                        stride: !matches!(part, Part::Size(_)),
                        negative,
                        magnitude,
                    });
                }
            };
            // Writing to a `String` does not fail.
            let _ = write!(text, "{v}");
        }
        let map = layout_core::expr::evaluate_text(&text).map_err(|e| match (e, outside) {
            // The value written for the one outside `i64` is what the entry refused.
            (Error::CoordOutOfRange { size, value, .. }, Some((negative, magnitude)))
                if value == if negative { i64::MIN } else { i64::MAX } =>
            {
                Error::RuntimeValueOutOfRange {
                    negative,
                    magnitude,
                    size,
                }
            }
            (e, _) => e,
        })?;
        Self::from_map(map)
    }

    /// The value of a map evaluated at run time: its domain nesting must be `F`'s.
    fn from_map(map: Map) -> Result<Self, Error> {
        let n = F::LEAVES.len;
        let domain = map.domain_shape();
        let leaves: alloc::vec::Vec<i64> = domain.leaves().into_iter().copied().collect();
        let (placeholder, _) = F::tree_dyn(&[1; MAX_LEAVES][..n], &[None; MAX_LEAVES][..n], &mut 0);
        if leaves.len() != n || !same_profile(&domain, &placeholder) {
            return Err(Error::RuntimeProfile {
                expected: n,
                found: leaves.len(),
            });
        }
        let (min, max) = map.offset_range()?;
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
        let mut sizes = [1usize; MAX_LEAVES];
        for (s, &v) in sizes.iter_mut().zip(&leaves) {
            *s = usize::try_from(v).map_err(|_| overflow)?;
        }
        let size = usize::try_from(map.size()).map_err(|_| overflow)?;
        let pieces = pieces(&map, &leaves);
        Ok(DynamicMap {
            sizes,
            size,
            min,
            max,
            read_only: read_only(&map),
            pieces,
            map: Arc::new(map),
            _p: PhantomData,
        })
    }

    /// Whether `c` is a coordinate of the domain (each integer below the run-time size of the
    /// mode it indexes).
    #[inline]
    pub fn contains<X: Coord<F>>(&self, c: &X) -> bool {
        c.in_domain_dyn(&self.sizes, 0)
    }

    /// The offset at a coordinate: one integer (flat index, last leaf fastest) or a natural
    /// or coarser coordinate in seed order, unflattened with the run-time sizes.
    ///
    /// The contract of [`Layout::offset`](crate::Layout::offset): `c` must lie in the domain
    /// ([`DynamicMap::contains`]); outside it the value is unspecified (never undefined
    /// behaviour). [`DynamicMap::try_offset`] checks.
    #[inline]
    pub fn offset<X: Coord<F>>(&self, c: X) -> I {
        let mut l = [0usize; MAX_LEAVES];
        c.leaves_dyn(&self.sizes, &mut l, 0);
        if let Some(p) = &self.pieces {
            let mut acc = p.base;
            for k in 0..p.n.min(MAX_PIECES) {
                let c = l[usize::from(p.leaf[k]) % MAX_LEAVES];
                // `div` and `modulo` are positive (sizes of the refinement). In the domain
                // every partial sum is an offset of the map, proved to fit `i64` when the value
                // was built; outside it the value is unspecified, so wrapping is the contract.
                #[allow(clippy::cast_possible_wrap, clippy::arithmetic_side_effects)]
                let digit = ((c / p.div[k]) % p.modulo[k]) as isize;
                acc = acc.wrapping_add(digit.wrapping_mul(p.stride[k]));
            }
            return I::from_isize(acc);
        }
        let n = F::LEAVES.len;
        let mut flat = 0i64;
        for (c, s) in l[..n].iter().zip(&self.sizes[..n]) {
            #[allow(clippy::cast_possible_wrap)]
            let (c, s) = (*c as i64, *s as i64);
            flat = flat.wrapping_mul(s).wrapping_add(c);
        }
        #[allow(clippy::cast_possible_truncation)]
        let v = self.map.eval_index(flat).unwrap_or(0) as isize;
        I::from_isize(v)
    }

    /// The checked form of [`DynamicMap::offset`]: `None` outside the domain.
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

    /// The smallest and the largest offset (elements).
    #[must_use]
    pub fn offset_range(&self) -> (i64, i64) {
        (self.min, self.max)
    }

    /// `max + 1` when the smallest offset is ≥ 0, else 0: the buffer length the map needs.
    #[must_use]
    pub fn cosize(&self) -> usize {
        crate::cosize(self.min, self.max)
    }

    /// Whether a `_` mode of size > 1 makes it read-only.
    #[must_use]
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Whether `offset` is the weighted sum of the result's pieces (the result is a layout,
    /// Theorem 1) rather than the map evaluated as written.
    #[must_use]
    pub fn is_layout(&self) -> bool {
        self.pieces.is_some()
    }

    /// The run-time map the value was built from.
    #[must_use]
    pub fn to_map(&self) -> Map {
        (*self.map).clone()
    }
}

/// The pieces of a map that is a layout over its domain leaves: a layout's own leaves, or the
/// coarsest refinement Theorem 1 finds (`layout_core::decide`); `None` for any other map, or
/// past [`MAX_PIECES`].
fn pieces(map: &Map, leaves: &[i64]) -> Option<Pieces> {
    let mut leaf = [0u8; MAX_PIECES];
    let mut div = [1usize; MAX_PIECES];
    let mut modulo = [1usize; MAX_PIECES];
    let mut stride = [0isize; MAX_PIECES];
    let mut n = 0usize;
    let mut push = |l: usize, d: i64, m: i64, s: i64| -> Option<()> {
        if n >= MAX_PIECES {
            return None;
        }
        leaf[n] = u8::try_from(l).ok()?;
        div[n] = usize::try_from(d).ok()?;
        modulo[n] = usize::try_from(m).ok()?;
        stride[n] = isize::try_from(s).ok()?;
        n = n.checked_add(1)?;
        Some(())
    };
    let base = if let Map::Layout(a) = map {
        for (l, m) in a.layout().modes().iter().enumerate() {
            push(l, 1, m.size, m.stride.value())?;
        }
        0
    } else {
        // A swizzled map has no symbolic decision, and a large composite that the symbolic
        // decision does not take would be tabulated: both are evaluated as written rather than
        // decided coordinate by coordinate when the value is built.
        if map.is_swizzled() || map.size() > DECIDE_WHEN_BUILT {
            return None;
        }
        let d = layout_core::decide(map, false).ok()?;
        let chains = d.result.ok()?;
        if chains.len() != leaves.len() {
            return None;
        }
        for (l, c) in chains.iter().enumerate() {
            // The chain's pieces, slowest first; the fastest has weight 1.
            let mut w = 1i64;
            for (m, s) in c.shape.iter().zip(c.strides).rev() {
                push(l, w, *m, *s)?;
                w = w.checked_mul(*m)?;
            }
        }
        d.constant
    };
    Some(Pieces {
        n,
        leaf,
        div,
        modulo,
        stride,
        base: isize::try_from(base).ok()?,
    })
}

impl<F: Form, D, C, I> fmt::Debug for DynamicMap<F, D, C, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicMap")
            .field("sizes", &&self.sizes[..F::LEAVES.len])
            .field("map", &self.map)
            .finish()
    }
}

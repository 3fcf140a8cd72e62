//! The CuTe layout value: shape and stride trees in CuTe order (first mode fastest).

use alloc::vec;
use alloc::vec::Vec;

use crate::error::{Error, MAX_DEPTH, ModePath, Quantity};
use crate::tree::{Stride, Tree};

/// The most coordinates [`CuteLayout::offsets`] tabulates, and the most evaluations one
/// postcondition check makes (2²⁴).
pub const CHECK_LIMIT: i64 = 1 << 24;

/// A CuTe layout `shape : stride` in **CuTe order**: the first mode varies fastest
/// (colexicographic), as in CuTe, pycute and the corpus. The crate's own [`crate::Layout`]
/// lists the same modes in the opposite order (the last varies fastest) and writes a broadcast
/// as `_`; here a broadcast is CuTe's stride `0`, and the text may carry CuTe's static
/// integers (`_8`). The operations of [`crate::cute`] take and return this type.
///
/// Shapes are positive integers; strides are any integers in elements, `0` included (on a mode
/// of size > 1 that is CuTe's broadcast). The tree is kept exactly as written: a rank-1 tuple
/// `(4):(2)` stays a tuple and prints as one, as CuTe prints it. Construction checks the profile,
/// the sizes, the nesting limits and that the size and every offset fit in `i64`.
///
/// [`CuteLayout::to_seed`] and [`CuteLayout::from_seed`] convert to and from the seed-order
/// [`crate::Layout`] by recursive reversal (spec: CuTe notation); both give the same function on the
/// same integers.
///
/// ```
/// use layout_core::cute::CuteLayout;
/// let l: CuteLayout = "((2,2),(4,2)):((1,8),(2,16))".parse()?;    // the CuTe paper, Fig. 3e
/// assert_eq!(l.eval_index(22)?, 26);                            // L(22) = L((0,1),(1,1)) = 26
/// assert_eq!((l.size(), l.cosize()?), (32, 32));
/// assert_eq!(l.to_seed()?.to_string(), "((2,4),(2,2)):((16,2),(8,1))");
/// # Ok::<(), layout_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct CuteLayout {
    shape: Tree<i64>,
    stride: Tree<i64>,
    size: i64,
}

fn check_tree(
    path: ModePath,
    depth: usize,
    shape: &Tree<i64>,
    stride: &Tree<i64>,
    leaves: &mut Vec<(i64, i64, ModePath)>,
) -> Result<(), Error> {
    if depth > MAX_DEPTH {
        return Err(Error::TooDeep { mode: path });
    }
    match (shape, stride) {
        (Tree::Leaf(n), Tree::Leaf(d)) => {
            if *n < 1 {
                return Err(Error::NonPositiveSize {
                    mode: path,
                    size: *n,
                });
            }
            leaves.push((*n, *d, path));
            Ok(())
        }
        (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == b.len() => {
            for (i, (s, d)) in a.iter().zip(b).enumerate() {
                check_tree(path.child(i)?, depth.saturating_add(1), s, d, leaves)?;
            }
            Ok(())
        }
        _ => Err(Error::ProfileMismatch {
            mode: path,
            shape_rank: shape.rank(),
            stride_rank: stride.rank(),
        }),
    }
}

/// `⌊a / b⌋` for `b ≠ 0`, checked.
pub(crate) fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if a.checked_rem(b) != Some(0) && ((a < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

/// `a − b·⌊a / b⌋` for `b ≠ 0` (the sign of `b`), checked.
pub(crate) fn floor_mod(a: i64, b: i64) -> Option<i64> {
    let r = a.checked_rem(b)?;
    if r != 0 && ((r < 0) != (b < 0)) {
        r.checked_add(b)
    } else {
        Some(r)
    }
}

/// `⌈a / b⌉` for `b ≠ 0`, checked (Python's `-(-a // b)`).
pub(crate) fn ceil_div(a: i64, b: i64) -> Option<i64> {
    floor_div(a.checked_neg()?, b)?.checked_neg()
}

fn overflow(what: Quantity) -> Error {
    Error::Overflow {
        mode: ModePath::ROOT,
        what,
    }
}

/// The leaves of a layout as `(size, stride)`, first fastest, with CuTe's evaluation on the
/// extended domain. Internal: the hot loops of the checks evaluate through it.
#[derive(Clone, Debug)]
pub(crate) struct Flat {
    pub(crate) leaves: Vec<(i64, i64)>,
}

impl Flat {
    /// `L(x)` for any integer `x`: colexicographic digits with floor division, the last leaf
    /// taking the unbounded quotient (CuTe's extended domain; the paper's `idx2crd`).
    pub(crate) fn eval(&self, mut x: i64) -> Result<i64, Error> {
        let Some(((_, last), init)) = self.leaves.split_last() else {
            return Ok(0);
        };
        let mut acc = 0i64;
        for &(n, d) in init {
            let c = floor_mod(x, n).ok_or(overflow(Quantity::Index))?;
            x = floor_div(x, n).ok_or(overflow(Quantity::Index))?;
            acc = c
                .checked_mul(d)
                .and_then(|t| acc.checked_add(t))
                .ok_or(overflow(Quantity::Offset))?;
        }
        x.checked_mul(*last)
            .and_then(|t| acc.checked_add(t))
            .ok_or(overflow(Quantity::Offset))
    }
}

impl CuteLayout {
    /// Builds a CuTe layout from a shape and a stride tree in CuTe order.
    ///
    /// # Errors
    /// [`Error::ProfileMismatch`] (CuTe-order path), [`Error::NonPositiveSize`],
    /// [`Error::TooDeep`]/[`Error::TooWide`] past the path limits, [`Error::Overflow`] when the
    /// size or an offset exceeds `i64`.
    pub fn new(shape: Tree<i64>, stride: Tree<i64>) -> Result<CuteLayout, Error> {
        let mut leaves = Vec::new();
        check_tree(ModePath::ROOT, 0, &shape, &stride, &mut leaves)?;
        let (mut size, mut reach) = (1i64, 0i64);
        for &(n, d, path) in &leaves {
            size = size.checked_mul(n).ok_or(Error::Overflow {
                mode: path,
                what: Quantity::Positions,
            })?;
            reach = n
                .saturating_sub(1)
                .checked_mul(d.checked_abs().unwrap_or(i64::MAX))
                .and_then(|t| reach.checked_add(t))
                .ok_or(Error::Overflow {
                    mode: path,
                    what: Quantity::Offset,
                })?;
        }
        Ok(CuteLayout {
            shape,
            stride,
            size,
        })
    }

    /// The rank-1 layout `n:d`.
    ///
    /// # Errors
    /// As [`CuteLayout::new`].
    pub fn leaf(n: i64, d: i64) -> Result<CuteLayout, Error> {
        CuteLayout::new(Tree::Leaf(n), Tree::Leaf(d))
    }

    /// CuTe `make_layout(l0, l1, …)`: the layouts as the top-level modes of a tuple (a single
    /// layout gives a rank-1 tuple, printed `(…)`).
    ///
    /// # Errors
    /// As [`CuteLayout::new`].
    pub fn make(modes: &[CuteLayout]) -> Result<CuteLayout, Error> {
        CuteLayout::new(
            Tree::Tuple(modes.iter().map(|m| m.shape.clone()).collect()),
            Tree::Tuple(modes.iter().map(|m| m.stride.clone()).collect()),
        )
    }

    /// The shape tree (sizes, CuTe order).
    #[must_use]
    pub fn shape(&self) -> &Tree<i64> {
        &self.shape
    }

    /// The stride tree (elements, CuTe order; `0` is a broadcast on a mode of size > 1).
    #[must_use]
    pub fn stride(&self) -> &Tree<i64> {
        &self.stride
    }

    /// CuTe `size(L)`: the product of the shape, the number of coordinates.
    #[must_use]
    pub fn size(&self) -> i64 {
        self.size
    }

    /// CuTe `rank(L)`: the number of top-level modes (1 for an integer shape).
    #[must_use]
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// CuTe `depth(L)`: 0 for an integer shape, else one more than the deepest mode.
    #[must_use]
    pub fn depth(&self) -> usize {
        fn depth(t: &Tree<i64>) -> usize {
            match t {
                Tree::Leaf(_) => 0,
                Tree::Tuple(v) => v.iter().map(depth).max().unwrap_or(0).saturating_add(1),
            }
        }
        depth(&self.shape)
    }

    /// CuTe `layout<i>(L)` (pycute `L[i]`): the `i`-th top-level mode; an integer-shaped layout
    /// is its own mode 0.
    #[must_use]
    pub fn mode(&self, i: usize) -> Option<CuteLayout> {
        match (&self.shape, &self.stride) {
            (Tree::Tuple(s), Tree::Tuple(d)) => Some(CuteLayout::sub(s.get(i)?, d.get(i)?)),
            _ => (i == 0).then(|| self.clone()),
        }
    }

    /// Every top-level mode, in order ([`CuteLayout::mode`] for each `i < rank`).
    #[must_use]
    pub fn modes(&self) -> Vec<CuteLayout> {
        match (&self.shape, &self.stride) {
            (Tree::Tuple(s), Tree::Tuple(d)) => s
                .iter()
                .zip(d)
                .map(|(s, d)| CuteLayout::sub(s, d))
                .collect(),
            _ => vec![self.clone()],
        }
    }

    /// A subtree of a checked layout: sizes, profile and offsets are within the parent's.
    fn sub(shape: &Tree<i64>, stride: &Tree<i64>) -> CuteLayout {
        CuteLayout {
            shape: shape.clone(),
            stride: stride.clone(),
            size: shape.leaves().into_iter().product(),
        }
    }

    /// The leaves as `(size, stride)`, first fastest (CuTe `flatten`).
    #[must_use]
    pub fn leaves(&self) -> Vec<(i64, i64)> {
        self.shape
            .leaves()
            .into_iter()
            .zip(self.stride.leaves())
            .map(|(n, d)| (*n, *d))
            .collect()
    }

    pub(crate) fn flat(&self) -> Flat {
        Flat {
            leaves: self.leaves(),
        }
    }

    /// `L(i)` at an integral coordinate `i ∈ [0, size)`, colexicographic (first mode fastest).
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] outside `[0, size)`.
    pub fn eval_index(&self, i: i64) -> Result<i64, Error> {
        if !(0..self.size).contains(&i) {
            return Err(Error::IndexOutOfRange {
                index: i,
                size: self.size,
            });
        }
        self.flat().eval(i)
    }

    /// `L(x)` on CuTe's **extended domain**: any integer `x`, its colexicographic digits taken
    /// with floor division, the last mode taking the unbounded quotient (the CuTe paper's
    /// `idx2crd`, §2.2.2). This is how CuTe evaluates `A` past its size in `composition`
    /// ("the last mode gets extended"); inside `[0, size)` it is [`CuteLayout::eval_index`].
    ///
    /// # Errors
    /// [`Error::Overflow`] when the offset leaves `i64`.
    pub fn eval_extended(&self, x: i64) -> Result<i64, Error> {
        self.flat().eval(x)
    }

    /// `L(c)` at a natural or coarser coordinate (CuTe order): where the shape has a tuple the
    /// coordinate may hold one integer, unflattened colexicographically.
    ///
    /// # Errors
    /// [`Error::CoordProfile`] for a coordinate finer than the shape or of another rank,
    /// [`Error::CoordOutOfRange`] for an entry outside its mode (paths in CuTe order).
    pub fn eval(&self, coord: &Tree<i64>) -> Result<i64, Error> {
        fn go(path: ModePath, s: &Tree<i64>, d: &Tree<i64>, c: &Tree<i64>) -> Result<i64, Error> {
            match (s, d, c) {
                (_, _, Tree::Leaf(x)) => {
                    let l = CuteLayout::sub(s, d);
                    if !(0..l.size).contains(x) {
                        return Err(Error::CoordOutOfRange {
                            mode: path,
                            value: *x,
                            size: l.size,
                        });
                    }
                    l.flat().eval(*x)
                }
                (Tree::Tuple(ss), Tree::Tuple(ds), Tree::Tuple(cs)) if ss.len() == cs.len() => {
                    let mut acc = 0i64;
                    for (i, ((s, d), c)) in ss.iter().zip(ds).zip(cs).enumerate() {
                        acc = acc
                            .checked_add(go(path.child(i)?, s, d, c)?)
                            .ok_or(overflow(Quantity::Offset))?;
                    }
                    Ok(acc)
                }
                _ => Err(Error::CoordProfile {
                    mode: path,
                    shape_rank: s.rank(),
                    coord_rank: c.rank(),
                }),
            }
        }
        go(ModePath::ROOT, &self.shape, &self.stride, coord)
    }

    /// `L(i)` for every integral coordinate `i ∈ [0, size)`, in CuTe's order.
    ///
    /// # Errors
    /// [`Error::CuteCheckLimit`] above [`CHECK_LIMIT`] coordinates.
    pub fn offsets(&self) -> Result<Vec<i64>, Error> {
        if self.size > CHECK_LIMIT {
            return Err(Error::CuteCheckLimit {
                op: crate::cute::CuteOp::LayoutEval,
                size: self.size,
                limit: CHECK_LIMIT,
            });
        }
        let flat = self.flat();
        (0..self.size).map(|i| flat.eval(i)).collect()
    }

    /// CuTe `cosize(L) = L(size − 1) + 1`. With non-negative strides this is one past the
    /// largest offset; CuTe uses the same formula with negative strides too.
    ///
    /// # Errors
    /// [`Error::Overflow`] at the extremes of `i64`.
    pub fn cosize(&self) -> Result<i64, Error> {
        self.flat()
            .eval(self.size.saturating_sub(1))?
            .checked_add(1)
            .ok_or(overflow(Quantity::Offset))
    }

    /// The same function as a seed-order [`crate::Layout`] (recursive reversal; a stride `0`
    /// on a mode of size > 1 becomes the broadcast `_`, (spec: Broadcast stride)).
    ///
    /// # Errors
    /// As [`crate::Layout::new`].
    pub fn to_seed(&self) -> Result<crate::Layout, Error> {
        fn strides(s: &Tree<i64>, d: &Tree<i64>) -> Tree<Stride> {
            match (s, d) {
                (Tree::Leaf(n), Tree::Leaf(0)) if *n > 1 => Tree::Leaf(Stride::Broadcast),
                (Tree::Leaf(_), Tree::Leaf(x)) => Tree::Leaf(Stride::Int(*x)),
                (Tree::Tuple(a), Tree::Tuple(b)) => {
                    Tree::Tuple(a.iter().zip(b).map(|(s, d)| strides(s, d)).collect())
                }
                // The profiles agree: checked when the layout was built.
                _ => Tree::Leaf(Stride::Int(0)),
            }
        }
        crate::Layout::new(
            self.shape.reversed(),
            strides(&self.shape, &self.stride).reversed(),
        )
    }

    /// The same function as a CuTe layout, from a seed-order [`crate::Layout`] (recursive
    /// reversal; a broadcast `_` becomes stride `0`).
    #[must_use]
    pub fn from_seed(layout: &crate::Layout) -> CuteLayout {
        let shape = layout.shape().reversed();
        let stride = layout.stride().reversed().map(&mut |s| s.value());
        let size = layout.size();
        CuteLayout {
            shape,
            stride,
            size,
        }
    }
}

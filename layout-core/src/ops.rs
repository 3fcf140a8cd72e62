//! The operations (spec: Algebra): `canonical`, `scale_mode`, `divide`, `repeat`,
//! `interleave`, `broadcast`, `inverse`, and the regroupings `group`, `flatten`, `select`,
//! `permute`, `coalesce`.
//!
//! Conventions shared by every operation here:
//! - **Order.** Modes are listed slowest first: the *last* mode (and the last leaf) varies
//!   fastest (spec: Mode order). CuTe lists them first-fastest; `L^r` below is CuTe's spelling of `L`
//!   (every tuple reversed, recursively).
//! - **Units.** Sizes count positions; strides and offsets are in elements.
//! - **Checked arithmetic.** Every product of sizes and strides is checked: a result that does
//!   not fit in `i64` is [`Error::Overflow`], never a wrapped value. Size-1 modes keep their
//!   strides and are scaled like the others (they contribute nothing, but a scaled stride that
//!   does not fit is still reported).
//! - **Names.** Names label top-level modes only (spec: Mode names). A top-level mode of an operand that
//!   is still a top-level mode of the result keeps its name. An operand that becomes one
//!   top-level *group* of the result (`repeat`, `interleave`, `broadcast`) passes its name to the
//!   group when it has exactly one top-level mode; the names of the modes of a larger operand
//!   cannot survive there (they would be nested). `divide` names its groups `tile` and `rest`.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use once_cell::race::OnceBox;
use smallvec::SmallVec;

use crate::dense::check_dense_bijection;
use crate::error::{Error, ModePath, Quantity};
use crate::layout::{LEAF, Layout, Leaf, Leaves, Profile, leaf_path, mode_errors, subtree};
use crate::tree::{Stride, Tree};

/// One top-level mode of a layout: its path, shape and stride (the whole layout when its shape
/// is a bare leaf).
struct TopMode<'a> {
    path: ModePath,
    shape: &'a Tree<i64>,
    stride: &'a Tree<Stride>,
}

fn top_modes(l: &Layout) -> Result<Vec<TopMode<'_>>, Error> {
    match (l.shape(), l.stride()) {
        (Tree::Tuple(ss), Tree::Tuple(ds)) => ss
            .iter()
            .zip(ds)
            .enumerate()
            .map(|(i, (shape, stride))| {
                Ok(TopMode {
                    path: ModePath::ROOT.child(i)?,
                    shape,
                    stride,
                })
            })
            .collect(),
        (shape, stride) => Ok(vec![TopMode {
            path: ModePath::ROOT,
            shape,
            stride,
        }]),
    }
}

/// The layout as one group of a larger result: its single top-level mode when it has one
/// (unwrapping the 1-tuple that carries a name), else the whole tree; with the path of what is
/// returned.
fn body(l: &Layout) -> Result<(ModePath, Tree<i64>, Tree<Stride>), Error> {
    Ok(match (l.shape(), l.stride()) {
        (Tree::Tuple(ss), Tree::Tuple(ds)) if ss.len() == 1 && ds.len() == 1 => {
            (ModePath::ROOT.child(0)?, ss[0].clone(), ds[0].clone())
        }
        (s, d) => (ModePath::ROOT, s.clone(), d.clone()),
    })
}

/// The name of the layout's only top-level mode, if it has one mode and it is named.
fn sole_name(l: &Layout) -> Option<String> {
    if l.rank() == 1 {
        l.names().first().cloned().flatten()
    } else {
        None
    }
}

/// The name of top-level mode `i`.
fn name_of(l: &Layout, i: usize) -> Option<String> {
    l.names().get(i).cloned().flatten()
}

/// Builds the result and attaches names to its top-level modes (none when all are `None`).
fn make(
    shape: Tree<i64>,
    stride: Tree<Stride>,
    names: Vec<Option<String>>,
) -> Result<Layout, Error> {
    let l = Layout::new(shape, stride)?;
    if names.iter().all(Option::is_none) {
        Ok(l)
    } else {
        l.with_names(names)
    }
}

fn unzip(pairs: Vec<(Tree<i64>, Tree<Stride>)>) -> (Tree<i64>, Tree<Stride>) {
    let (s, d): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
    (Tree::Tuple(s), Tree::Tuple(d))
}

/// The tree with every leaf mapped by a fallible function that also sees the leaf's path.
fn try_map<T, U>(
    path: ModePath,
    t: &Tree<T>,
    f: &mut impl FnMut(ModePath, &T) -> Result<U, Error>,
) -> Result<Tree<U>, Error> {
    match t {
        Tree::Leaf(x) => Ok(Tree::Leaf(f(path, x)?)),
        Tree::Tuple(v) => v
            .iter()
            .enumerate()
            .map(|(i, c)| try_map(path.child(i)?, c, f))
            .collect::<Result<Vec<_>, _>>()
            .map(Tree::Tuple),
    }
}

/// `factor · d`, checked; a broadcast stays a broadcast.
fn scale(path: ModePath, d: Stride, factor: i64) -> Result<Stride, Error> {
    match d {
        Stride::Broadcast => Ok(Stride::Broadcast),
        Stride::Int(d) => d
            .checked_mul(factor)
            .map(Stride::Int)
            .ok_or(Error::Overflow {
                mode: path,
                what: Quantity::Offset,
            }),
    }
}

/// Every stride of `stride` (found at `path`) multiplied by `factor`.
fn scale_tree(path: ModePath, stride: &Tree<Stride>, factor: i64) -> Result<Tree<Stride>, Error> {
    try_map(path, stride, &mut |p, d| scale(p, *d, factor))
}

/// Checks a bare shape: positive sizes and nesting within the path limits.
fn check_shape(shape: &Tree<i64>) -> Result<(), Error> {
    match mode_errors(shape, &shape.map(&mut |_| Stride::Int(1))).first() {
        Some(e) => Err(*e),
        None => Ok(()),
    }
}

/// The canonical strides of a checked shape, and its size.
fn canonical_strides(shape: &Tree<i64>) -> Result<(Tree<Stride>, i64), Error> {
    fn walk(path: ModePath, t: &Tree<i64>, w: &mut i64) -> Result<Tree<Stride>, Error> {
        match t {
            Tree::Leaf(n) => {
                let s = *w;
                *w = w.checked_mul(*n).ok_or(Error::Overflow {
                    mode: path,
                    what: Quantity::Positions,
                })?;
                Ok(Tree::Leaf(Stride::Int(s)))
            }
            Tree::Tuple(v) => {
                let mut out = Vec::with_capacity(v.len());
                for (i, c) in v.iter().enumerate().rev() {
                    out.push(walk(path.child(i)?, c, w)?);
                }
                out.reverse();
                Ok(Tree::Tuple(out))
            }
        }
    }
    check_shape(shape)?;
    let mut size = 1;
    let stride = walk(ModePath::ROOT, shape, &mut size)?;
    Ok((stride, size))
}

/// `canonical(S)`: the shape `S` with the row-major strides `w_i = n_{i+1}···n_k` over its
/// leaves (the last leaf fastest), a dense bijection onto `[0, size(S))`.
///
/// Source: (spec: Canonical layouts). A nested shape keeps its nesting: the strides are those of its
/// leaves, read as one flat shape (`((2,3),4)` gets `((12,4),1)`). Sizes count positions; the
/// strides are in elements. The result is unnamed (a shape carries no names).
///
/// CuTe: `make_layout(S, LayoutRight{})` gives the same shape and strides (a coordinate means
/// the same thing in both); on integer indices the same function is CuTe's default
/// column-major `make_layout(S^r)` (LayoutLeft) in CuTe order, because CuTe's first mode is
/// our last.
///
/// ```
/// use layout_core::{canonical, Tree};
/// let s = Tree::Tuple(vec![Tree::Leaf(2), Tree::Leaf(3), Tree::Leaf(4)]);
/// assert_eq!(canonical(&s)?.to_string(), "(2,3,4):(12,4,1)");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::NonPositiveSize`] for a size below 1, [`Error::TooDeep`]/[`Error::TooWide`] past
/// the path limits, [`Error::Overflow`] when the size does not fit in `i64`.
pub fn canonical(shape: &Tree<i64>) -> Result<Layout, Error> {
    let (stride, _) = canonical_strides(shape)?;
    Layout::new(shape.clone(), stride)
}

/// `scale_mode(n:d, S)`: refines the one mode `n:d` as the shape `S`, carrying the canonical
/// strides of `S` times `d`; `size(S) = n` is required. As a function of the integer
/// `i ∈ [0, n)` it is `n:d` again: `i ↦ i·d`.
///
/// Source: (spec: Canonical layouts). `l` must have exactly one leaf; the result is `l` with that
/// leaf replaced by `S`, so a named mode (`(x: 12):(2)`) keeps its name and holds `S`
/// (`(x: (3,4)):((8,2))`), while an unnamed one becomes `S` itself. A broadcast `d = _` gives
/// `_` on every leaf. Strides in elements.
///
/// CuTe: `composition(n:d, make_layout(S^r))`, the mode composed with a compact layout of `S`.
///
/// ```
/// use layout_core::{scale_mode, Layout, Tree};
/// let l: Layout = "12:2".parse()?;
/// let s = Tree::Tuple(vec![Tree::Leaf(3), Tree::Leaf(4)]);
/// assert_eq!(scale_mode(&l, &s)?.to_string(), "(3,4):(8,2)");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::NotOneMode`] unless `l` has exactly one leaf, the shape errors of [`canonical`],
/// [`Error::ScaleSize`] when `size(S) ≠ n`, [`Error::Overflow`] when a stride `w·d` or an
/// offset does not fit in `i64`.
pub fn scale_mode(l: &Layout, shape: &Tree<i64>) -> Result<Layout, Error> {
    let modes = l.modes();
    let [mode] = modes.as_slice() else {
        return Err(Error::NotOneMode {
            leaves: modes.len(),
        });
    };
    let (weights, size) = canonical_strides(shape)?;
    if size != mode.size {
        return Err(Error::ScaleSize {
            size: mode.size,
            shape_size: size,
        });
    }
    let stride = try_map(
        ModePath::ROOT,
        &weights,
        &mut |p, w| match (w, mode.stride) {
            (_, Stride::Broadcast) => Ok(Stride::Broadcast),
            (w, Stride::Int(d)) => scale(p, *w, d),
        },
    )?;
    match l.shape() {
        Tree::Leaf(_) => Layout::new(shape.clone(), stride),
        _ => make(
            Tree::Tuple(vec![shape.clone()]),
            Tree::Tuple(vec![stride]),
            l.names().to_vec(),
        ),
    }
}

/// `divide(L, S)`: partitions `L` into tiles of shape `S = (k_1..k_m)`, one entry per top-level
/// mode, `k_i | n_i`. The result has two groups named `tile` and `rest`:
/// `(tile: (k_1..k_m), rest: (n_1/k_1..n_m/k_m)) : ((d_1..d_m), (k_1·d_1..k_m·d_m))`, so that
/// per mode `divide(L, S)(t, r) = L(r·k + t)`: `t ∈ [0, k)` is the position inside a tile, `r`
/// which tile.
///
/// Source: (spec: Divide). Because the last group varies fastest, consecutive flat indices
/// of the result step through the tiles (`rest`) first. Strides in elements. The names of `L`'s
/// modes do not survive (they would be nested inside the groups); entry `i` of each group is
/// mode `i` of `L`.
///
/// **Nested modes.** A top-level mode that is a tuple is cut along its leaves, last leaf
/// fastest: `k` must be the product of the fastest leaves times a divisor `c` of the next leaf
/// (leaf sizes `n_1 … n_p … n_j` with `k = c·n_{p+1}···n_j`, `c | n_p`). The tile piece is
/// then `(c, n_{p+1}..n_j):(d_p, d_{p+1}..d_j)` and the rest piece
/// `(n_1..n_{p-1}, n_p/c):(d_1..d_{p-1}, c·d_p)`, both flat (a piece of one leaf is that leaf),
/// and the law above holds with `L`'s mode read at its flat index (`r·k + t` unflattened over
/// the mode's leaves). Precisely, the leaves are walked from the fastest with the count `c`
/// still needed (first `k`): a leaf of size exactly `c` that is not the slowest ends the tile
/// whole (no piece of size 1 is made); a leaf whose size `n` is a multiple of `c` is cut into
/// `c:d` (tile) and `n/c : c·d` (rest); a leaf whose size divides `c` goes whole into the tile
/// and `c /= n`; anything else is [`Error::TileSplit`] naming that leaf. On a leaf mode this is
/// exactly `k:d` and `n/k : k·d`, size-1 pieces included (`k = 1` or `k = n`). So `(2,4)` is
/// cut by 4 into `4` and `2`, by 8 into `(2,4)` and `1`, by 2 into `2` and `(2,2)`, and not by
/// 3 (3 ∤ 8) nor, as `(2,3)`, by 2 (the leaf 3 would be cut by 2).
///
/// CuTe: `zipped_divide(L^r, S^r)`. CuTe's groups are `((tile),(rest))` first-fastest, whose
/// reversal would put `tile` fastest; here `rest` is fastest. The two agree at group
/// coordinates `(tile, rest)` and differ on flat indices (spec: Divide). [`divide_modes`] is CuTe's
/// `logical_divide`.
///
/// ```
/// use layout_core::{divide, Layout};
/// let l: Layout = "(8,6):(6,1)".parse()?;
/// let d = divide(&l, &[2, 3])?;
/// assert_eq!(d.to_string(), "(tile:(2,3),rest:(4,2)):((6,1),(12,3))");
/// assert_eq!(d.names()[1].as_deref(), Some("rest"));
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::TileRank`] unless `S` has one entry per top-level mode, [`Error::NotDivisible`]
/// naming the mode, its size and the entry when `k_i` is not a positive divisor of `n_i`,
/// [`Error::TileSplit`] naming the leaf where a nested mode cannot be cut,
/// [`Error::Overflow`] when a stride `k·d` does not fit in `i64`.
#[inline]
pub fn divide(l: &Layout, tile: &[i64]) -> Result<Layout, Error> {
    // By the tile's length, which a caller often knows where it inlines this (a literal tile):
    // the choice of the flat path then costs nothing.
    // `P`, the profile's length, is `M + 1` (a tuple of `M` leaves), or 1 for a bare leaf.
    let flat = match tile.len() {
        1 => divide_flat::<1, 2>(l, tile).or_else(|| divide_flat::<1, 1>(l, tile)),
        2 => divide_flat::<2, 3>(l, tile),
        3 => divide_flat::<3, 4>(l, tile),
        4 => divide_flat::<4, 5>(l, tile),
        _ => None,
    };
    match flat {
        Some(d) => Ok(d),
        None => divide_general(l, tile),
    }
}

/// [`divide`] of a flat layout of `M` ≤ [`FLAT_DIVIDE`] leaves, one per top-level mode (a
/// profile of `P` tokens), kept inline, with integer strides, that every tile entry divides and whose rest strides fit: the
/// result's profile and leaves written directly,
/// `(tile: (k_1..k_m), rest: (n_1/k_1..n_m/k_m)) : ((d_1..d_m), (k_1·d_1..k_m·d_m))` (each group
/// the leaf itself for one mode). `None` for any other layout or tile (a broadcast among them),
/// and wherever [`divide`] fails, so that the general path gives the result and every error.
///
/// `M` is a constant so that the leaves are computed in registers and written once, and the
/// profile is a constant: nothing is written twice or read back right after a narrower write,
/// and the unused inline entries of the result are not written at all.
#[inline]
fn divide_flat<const M: usize, const P: usize>(l: &Layout, tile: &[i64]) -> Option<Layout> {
    // The names first: their one call (made once in a process) comes before any value that
    // would have to be kept across it.
    let names = tile_rest();
    let (leaves, profile) = l.inline_parts::<M, P>()?;
    let tile: &[i64; M] = tile.try_into().ok()?;
    // A bare leaf (`P = 1`), or a tuple of `M` leaves (`1 + M`, then `M` leaves).
    let (&first, rest) = profile.split_first()?;
    let root = if P == 1 { LEAF } else { token(M) };
    if first != root || rest.iter().any(|&t| t != LEAF) {
        return None;
    }
    // The tile pieces `k_i:d_i` and the rest pieces `n_i/k_i : k_i·d_i`.
    let mut tiles = [Leaf::new(1, Stride::Int(0)); M];
    let mut rests = [Leaf::new(1, Stride::Int(0)); M];
    for (((t, r), leaf), &k) in tiles.iter_mut().zip(&mut rests).zip(leaves).zip(tile) {
        let n = leaf.int_size()?;
        if k < 1 || n.checked_rem(k) != Some(0) {
            return None;
        }
        *t = leaf.resized(k);
        *r = leaf.resized(n.checked_div(k)?).scaled(k)?;
    }
    let out: [Leaf; crate::layout::INLINE_LEAVES] = core::array::from_fn(|i| {
        if let Some(&t) = tiles.get(i) {
            t
        } else if let Some(&rest) = rests.get(i.wrapping_sub(M)) {
            rest
        } else {
            Leaf::new(1, Stride::Int(0))
        }
    });
    let (p, len) = FLAT_PROFILES.get(M)?;
    let (min, max) = l.span();
    Some(Layout::from_checked(
        Leaves::from_slice(out.get(..M.saturating_mul(2))?),
        Profile::from_slice(p.get(..*len)?),
        Cow::Borrowed(names),
        (l.size(), min, max),
    ))
}

/// The profile of [`divide`]'s result for a flat layout of `m` leaves, indexed by `m`:
/// `(tile, rest)`, each a tuple of `m` leaves, or the leaf itself for one mode.
const FLAT_PROFILES: [([u16; 16], usize); FLAT_DIVIDE + 1] = {
    let mut table = [([LEAF; 16], 0); FLAT_DIVIDE + 1];
    let mut m = 1;
    while m <= FLAT_DIVIDE {
        let p = &mut table[m].0;
        p[0] = 3;
        if m == 1 {
            table[m].1 = 3;
        } else {
            // `1 + m` for a tuple of `m`; the profile fits: 2·m + 3 ≤ 16 tokens.
            #[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
            {
                p[1] = (m + 1) as u16;
                p[m + 2] = (m + 1) as u16;
                table[m].1 = 2 * m + 3;
            }
        }
        #[allow(clippy::arithmetic_side_effects)]
        {
            m += 1;
        }
    }
    table
};

/// The most leaves of a layout that [`divide`]'s flat path takes: its result's leaves, twice
/// as many, stay inline.
const FLAT_DIVIDE: usize = crate::layout::INLINE_LEAVES / 2;

/// [`divide`] for any layout: every top-level mode cut along its leaves, the pieces
/// regrouped. Kept out of line, so that [`divide`]'s flat path inlines into its callers.
#[inline(never)]
fn divide_general(l: &Layout, tile: &[i64]) -> Result<Layout, Error> {
    let mut cuts = Cuts::new();
    cut_all(l, tile, &mut cuts)?;
    let leaves = l.leaves();
    // A regrouping of the cut leaves.
    let mut result = regrouping(l, Cow::Borrowed(tile_rest()));
    let (out, profile) = result.parts_mut();
    profile.push(3);
    for (g, rest) in [false, true].into_iter().enumerate() {
        let group = ModePath::ROOT.child(g)?;
        if cuts.len() != 1 {
            profile.push(token(cuts.len()));
        }
        for (i, c) in cuts.iter().enumerate() {
            let at = if cuts.len() == 1 {
                group
            } else {
                group.child(i)?
            };
            // A group of one mode is that mode's piece, unwrapped when it is a leaf (`(x)` is
            // `x`); a piece of several leaves stays a tuple inside the group.
            let wrap = |profile: &mut Profile, n: usize| -> Result<ModePath, Error> {
                if cuts.len() == 1 && n > 1 {
                    profile.push(2);
                    at.child(0)
                } else {
                    Ok(at)
                }
            };
            if rest {
                let at = wrap(profile, c.rest(leaves).count())?;
                push_piece(out, profile, at, c.rest(leaves))?;
            } else {
                let at = wrap(profile, c.tile(leaves).count())?;
                push_piece(out, profile, at, c.tile(leaves))?;
            }
        }
    }
    Ok(result)
}

/// An empty layout with `l`'s size and span and the given names, to be filled with a
/// regrouping of `l`'s (possibly cut) leaves: a regrouping is the same function, so the result
/// needs no re-validation once its leaves and profile are pushed.
#[inline]
fn regrouping(l: &Layout, names: Cow<'static, [Option<String>]>) -> Layout {
    let (min, max) = l.span();
    Layout::from_checked(Leaves::new(), Profile::new(), names, (l.size(), min, max))
}

/// `divide`'s names, made once.
#[inline]
fn tile_rest() -> &'static [Option<String>] {
    static NAMES: OnceBox<[Option<String>; 2]> = OnceBox::new();
    NAMES.get_or_init(|| {
        alloc::boxed::Box::new([Some("tile".to_string()), Some("rest".to_string())])
    })
}

/// The profile token of a tuple of `k` entries (one past the path limit when `k` is too large
/// to name, which the paths then report).
fn token(k: usize) -> u16 {
    u16::try_from(k.saturating_add(1)).unwrap_or(u16::MAX)
}

/// Appends a flat piece at `at`: its one leaf, or a tuple of its leaves.
///
/// # Errors
/// [`Error::TooWide`] for a piece of more leaves than a path can number.
fn push_piece(
    out: &mut Leaves,
    profile: &mut Profile,
    at: ModePath,
    piece: impl Iterator<Item = (i64, Stride)> + Clone,
) -> Result<(), Error> {
    let n = piece.clone().count();
    if n != 1 {
        profile.push(token(n));
    }
    for (j, (size, stride)) in piece.enumerate() {
        profile.push(LEAF);
        // The path is not kept, but it must be one a path can name.
        if n != 1 {
            at.child(j)?;
        }
        out.push(Leaf::new(size, stride));
    }
    Ok(())
}

/// One top-level mode (leaves `range` of the layout) cut by a tile entry: the tile piece is
/// the cut leaf's tile part and the leaves after it, the rest piece the leaves before it and
/// the cut leaf's rest part (see [`divide`] for the rule).
#[derive(Clone, Debug)]
struct Cut {
    range: Range<usize>,
    /// The index of the cut leaf.
    at: usize,
    /// `None`: the tile starts whole at leaf `at`. `Some((c, n/c, c·d))`: leaf `at` (`n:d`)
    /// is cut into `c:d` (tile) and `n/c : c·d` (rest).
    part: Option<(i64, i64, Stride)>,
}

impl Cut {
    fn tile<'a>(&self, leaves: &'a [Leaf]) -> impl Iterator<Item = (i64, Stride)> + Clone + 'a {
        let (first, from) = match self.part {
            Some((c, _, _)) => (
                leaves.get(self.at).map(|m| (c, m.stride())),
                self.at.saturating_add(1),
            ),
            None => (None, self.at),
        };
        first.into_iter().chain(
            leaves
                .get(from..self.range.end)
                .unwrap_or_default()
                .iter()
                .map(|m| (m.size(), m.stride())),
        )
    }

    fn rest<'a>(&self, leaves: &'a [Leaf]) -> impl Iterator<Item = (i64, Stride)> + Clone + 'a {
        leaves
            .get(self.range.start..self.at)
            .unwrap_or_default()
            .iter()
            .map(|m| (m.size(), m.stride()))
            .chain(self.part.map(|(_, r, d)| (r, d)))
    }
}

/// Cuts one top-level mode by the tile entry `k` (see [`divide`] for the rule).
fn cut_mode(
    path: ModePath,
    (profile, leaves): (&[u16], &[Leaf]),
    range: Range<usize>,
    k: i64,
) -> Result<Cut, Error> {
    let mode = leaves.get(range.clone()).unwrap_or_default();
    // The sizes of a constructed layout multiply without overflow.
    let size = mode.iter().map(|m| m.size()).product::<i64>();
    let not_divisible = Error::NotDivisible {
        mode: path,
        size,
        tile: k,
    };
    if k < 1 || size.checked_rem(k) != Some(0) {
        return Err(not_divisible);
    }
    let mut needed = k;
    for (q, m) in mode.iter().enumerate().rev() {
        let at = range.start.saturating_add(q);
        if m.size() == needed && q > 0 {
            return Ok(Cut {
                range,
                at,
                part: None,
            });
        }
        if m.size().checked_rem(needed) == Some(0) {
            let rest = m.size().checked_div(needed).unwrap_or(1);
            return Ok(Cut {
                range,
                at,
                part: Some((
                    needed,
                    rest,
                    // The leaf's path only for the error: it is computed when needed.
                    scale(ModePath::ROOT, m.stride(), needed).map_err(|_| Error::Overflow {
                        mode: leaf_path(profile, at),
                        what: Quantity::Offset,
                    })?,
                )),
            });
        }
        if needed.checked_rem(m.size()) != Some(0) {
            return Err(Error::TileSplit {
                mode: leaf_path(profile, at),
                tile: k,
                needed,
                size: m.size(),
            });
        }
        needed = needed.checked_div(m.size()).unwrap_or(1);
    }
    // Unreachable: with k | size the slowest leaf is reached with `needed` dividing it.
    Err(not_divisible)
}

/// The cuts of a layout's top-level modes, inline for up to 8 modes.
type Cuts = SmallVec<[Cut; 8]>;

fn cut_all(l: &Layout, tile: &[i64], cuts: &mut Cuts) -> Result<(), Error> {
    let rank = l.rank();
    if rank != tile.len() {
        return Err(Error::TileRank {
            rank,
            tile: tile.len(),
        });
    }
    let (p, leaves) = (l.profile(), l.leaves());
    match p.first().copied() {
        // A bare leaf is the one top-level mode.
        Some(LEAF) | None => {
            for &k in tile {
                cuts.push(cut_mode(ModePath::ROOT, (p, leaves), 0..leaves.len(), k)?);
            }
        }
        Some(_) => {
            let (mut pos, mut start) = (1usize, 0usize);
            for (i, &k) in tile.iter().enumerate() {
                let (next, n) = subtree(p, pos);
                let end = start.saturating_add(n);
                cuts.push(cut_mode(
                    ModePath::ROOT.child(i)?,
                    (p, leaves),
                    start..end,
                    k,
                )?);
                (pos, start) = (next, end);
            }
        }
    }
    Ok(())
}

/// `divide_modes(L, S)`: [`divide`] with the pieces kept in their modes: mode `i` becomes
/// `(n_i/k_i, k_i):(k_i·d_i, d_i)` (rest piece, then tile piece), which is `L` regrouped: the
/// same function on every flat index.
///
/// Source: (spec: Divide by mode). The tile entries, the rule for nested modes and the errors are
/// those of [`divide`]. Each top-level mode stays a top-level mode and keeps its name; the
/// result has one top-level mode per mode of `L`, even for rank 1 (`12:1` by `4` is
/// `((3,4)):((4,1))`).
///
/// CuTe: `logical_divide(L^r, S^r)`, whose modes are `(tile_i, rest_i)` first-fastest, the same
/// function on flat indices.
///
/// ```
/// use layout_core::{divide_modes, Layout};
/// let l: Layout = "(rows: 4, cols: 8):(9, 1)".parse()?;
/// let d = divide_modes(&l, &[1, 4])?;
/// assert_eq!(d.to_string(), "(rows:(4,1),cols:(2,4)):((9,9),(4,1))");
/// assert_eq!(d.eval_index(13)?, l.eval_index(13)?);
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`divide`].
pub fn divide_modes(l: &Layout, tile: &[i64]) -> Result<Layout, Error> {
    let mut cuts = Cuts::new();
    cut_all(l, tile, &mut cuts)?;
    let leaves = l.leaves();
    // `L` regrouped, its leaves in order with one of them cut in two: so are the top-level
    // modes that the names label.
    let mut result = regrouping(l, l.names_cow());
    let (out, profile) = result.parts_mut();
    profile.push(token(cuts.len()));
    for (i, c) in cuts.iter().enumerate() {
        let mode = ModePath::ROOT.child(i)?;
        profile.push(3);
        push_piece(out, profile, mode.child(0)?, c.rest(leaves))?;
        push_piece(out, profile, mode.child(1)?, c.tile(leaves))?;
    }
    Ok(result)
}

/// `M = max − min + 1` over `L`'s offsets: the distance between copies.
fn copy_distance(l: &Layout) -> Result<i64, Error> {
    let (min, max) = l.span();
    max.checked_sub(min)
        .and_then(|w| w.checked_add(1))
        .ok_or(Error::Overflow {
            mode: ModePath::ROOT,
            what: Quantity::Offset,
        })
}

/// `repeat(L, A)`: copies of `L` arranged in the layout of `A`, a dense bijection:
/// `(S_A, S_L) : (M·D_A, D_L)` with `M = max − min + 1` over `L`'s offsets (`cosize(L)` when
/// `L` starts at 0), so `(a, l) ↦ M·A(a) + L(l)` and the copies never overlap.
///
/// Source: (spec: Repeat). Two groups, `A` then `L` (so `L` varies fastest); each group
/// is the operand's tree (its single mode when it has one) and is named after that mode when the
/// operand has one named mode. Strides in elements. `L` may be any layout (a broadcast too).
///
/// CuTe: `logical_product(L^r, A^r)` (also `tile_to_shape`; a `k`-stage buffer is
/// `repeat(L, k:1)`), when `L`'s image is `[0, cosize(L))`: CuTe's complement fills the holes
/// of a gappy `L`, while here the copies are `M` apart. [`repeat_modewise`] is
/// `blocked_product`.
///
/// ```
/// use layout_core::{repeat, Layout};
/// let l: Layout = "(2,3):(4,1)".parse()?; // offsets 0..=6, M = 7
/// let a: Layout = "3:1".parse()?;
/// assert_eq!(repeat(&l, &a)?.to_string(), "(3,(2,3)):(7,(4,1))");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::NotDense`] or [`Error::BroadcastNotDense`] naming a mode of `A` when `A` is not a
/// dense bijection; [`Error::Overflow`] when `M`, a stride `M·d` or an offset does not fit.
pub fn repeat(l: &Layout, a: &Layout) -> Result<Layout, Error> {
    check_dense_bijection(a)?;
    let m = copy_distance(l)?;
    let (path, sa, da) = body(a)?;
    let (_, sl, dl) = body(l)?;
    let da = scale_tree(path, &da, m)?;
    make(
        Tree::Tuple(vec![sa, sl]),
        Tree::Tuple(vec![da, dl]),
        vec![sole_name(a), sole_name(l)],
    )
}

fn modewise(l: &Layout, a: &Layout, raked: bool) -> Result<Layout, Error> {
    check_dense_bijection(a)?;
    let lm = top_modes(l)?;
    let am = top_modes(a)?;
    if lm.len() != am.len() {
        return Err(Error::ArrangementRank {
            op: if raked {
                crate::expr::Op::RepeatModewiseRaked
            } else {
                crate::expr::Op::RepeatModewise
            },
            rank: lm.len(),
            arrangement: am.len(),
        });
    }
    let m = copy_distance(l)?;
    let mut modes = Vec::with_capacity(lm.len());
    let mut names = Vec::with_capacity(lm.len());
    for (i, (x, y)) in lm.iter().zip(&am).enumerate() {
        let copies = (y.shape.clone(), scale_tree(y.path, y.stride, m)?);
        let own = (x.shape.clone(), x.stride.clone());
        modes.push(unzip(if raked {
            vec![own, copies]
        } else {
            vec![copies, own]
        }));
        names.push(name_of(l, i).or_else(|| name_of(a, i)));
    }
    let (s, d) = unzip(modes);
    make(s, d, names)
}

/// `repeat_modewise(L, A)`: the blocked product, [`repeat`] per mode: mode `i` becomes
/// `(a_i, n_i) : (M·e_i, d_i)` where `A = (a_1..a_m):(e_1..e_m)` has one top-level mode per mode
/// of `L` and is a dense bijection, and `M = max − min + 1` over all of `L`'s offsets. Mode `i`
/// maps `(x, y) ↦ M·A_i(x) + L_i(y)`: block `x` of mode `i` is a copy of `L_i`.
///
/// Source: (spec: Repeat). Same leaves as [`repeat`], regrouped.
/// Each top-level mode stays one and keeps `L`'s name for it (or `A`'s when `L`'s is unnamed).
/// Strides in elements.
///
/// CuTe: `blocked_product(L^r, A^r)`, whose modes are `(L_i, A_i)` first-fastest; same caveat
/// on a gappy `L` as [`repeat`].
///
/// ```
/// use layout_core::{repeat_modewise, Layout};
/// let l: Layout = "(2,3):(3,1)".parse()?;
/// let a: Layout = "(2,2):(2,1)".parse()?;
/// assert_eq!(repeat_modewise(&l, &a)?.to_string(), "((2,2),(2,3)):((12,3),(6,1))");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`repeat`], and [`Error::ArrangementRank`] when `A` and `L` differ in rank.
pub fn repeat_modewise(l: &Layout, a: &Layout) -> Result<Layout, Error> {
    modewise(l, a, false)
}

/// `repeat_modewise_raked(L, A)`: the raked product, [`repeat_modewise`] with the two pieces of
/// every mode exchanged: mode `i` becomes `(n_i, a_i) : (d_i, M·e_i)`, so the copies are
/// interleaved element by element within each mode.
///
/// Source: the raked product, the two coordinate groups exchanged in each mode (spec: Repeat). Names, units and requirements as [`repeat_modewise`].
///
/// CuTe: `raked_product(L^r, A^r)`, same caveat on a gappy `L` as [`repeat`].
///
/// ```
/// use layout_core::{repeat_modewise_raked, Layout};
/// let l: Layout = "(2,3):(3,1)".parse()?;
/// let a: Layout = "(2,2):(2,1)".parse()?;
/// assert_eq!(repeat_modewise_raked(&l, &a)?.to_string(), "((2,2),(3,2)):((3,12),(1,6))");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`repeat_modewise`].
pub fn repeat_modewise_raked(l: &Layout, a: &Layout) -> Result<Layout, Error> {
    modewise(l, a, true)
}

/// `interleave(L, A)`: the copies of `L` interleaved element by element, `A` a dense bijection:
/// `(S_L, S_A) : (size(A)·D_L, D_A)`, so `(l, a) ↦ size(A)·L(l) + A(a)`.
///
/// Source: (spec: Interleave). Two groups, `L` then `A` (so `A` varies fastest), each the
/// operand's tree and named as in [`repeat`]. Strides in elements.
///
/// CuTe: `logical_product(A^r, L^r)` ("copies first"): for `L` with offsets in
/// `[0, cosize(L))` CuTe returns `(A, L·size(A))` first-fastest, whose reversal is this layout.
///
/// ```
/// use layout_core::{interleave, Layout};
/// let v: Layout = "(value: 4):(1)".parse()?;
/// let lanes: Layout = "(lane: 32):(1)".parse()?;
/// assert_eq!(interleave(&v, &lanes)?.to_string(), "(value:4,lane:32):(32,1)");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::NotDense`] or [`Error::BroadcastNotDense`] naming a mode of `A`; [`Error::Overflow`]
/// when a stride `size(A)·d` or an offset does not fit.
pub fn interleave(l: &Layout, a: &Layout) -> Result<Layout, Error> {
    check_dense_bijection(a)?;
    let (path, sl, dl) = body(l)?;
    let (_, sa, da) = body(a)?;
    let dl = scale_tree(path, &dl, a.size())?;
    make(
        Tree::Tuple(vec![sl, sa]),
        Tree::Tuple(vec![dl, da]),
        vec![sole_name(l), sole_name(a)],
    )
}

/// `broadcast(L, S)`: `size(S)` copies of `L` at the same addresses:
/// `(S, S_L) : (_.., D_L)`, so `(s, l) ↦ L(l)` whatever `s`. The result is a broadcast (when
/// `size(S) > 1`) and therefore read-only (spec: Broadcast stride).
///
/// Source: (spec: Broadcast). Two groups, `S` (unnamed) then `L` (named as in [`repeat`]).
///
/// CuTe: appending stride-0 modes, `make_layout(L^r, make_layout(S^r, Stride<_0>))` (CuTe's
/// broadcast modes, e.g. a multicast across CTAs).
///
/// ```
/// use layout_core::{broadcast, Layout, Tree};
/// let l: Layout = "(2,3):(3,1)".parse()?;
/// let b = broadcast(&l, &Tree::Leaf(4))?;
/// assert_eq!(b.to_string(), "(4,(2,3)):(_,(3,1))");
/// assert!(b.is_broadcast());
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::NonPositiveSize`], [`Error::TooDeep`]/[`Error::TooWide`] for a bad `S`;
/// [`Error::Overflow`] when the size does not fit in `i64`.
pub fn broadcast(l: &Layout, shape: &Tree<i64>) -> Result<Layout, Error> {
    check_shape(shape)?;
    let (_, sl, dl) = body(l)?;
    make(
        Tree::Tuple(vec![shape.clone(), sl]),
        Tree::Tuple(vec![shape.map(&mut |_| Stride::Broadcast), dl]),
        vec![None, sole_name(l)],
    )
}

/// `inverse(L)`: the inverse of a dense bijection `L : (n_1..n_m):(d_1..d_m)` (read through its
/// leaves; size-1 leaves dropped first, as in Lemma 1). Give leaf `i` its canonical weight
/// `w_i = n_{i+1}···n_m` in `L`'s domain and list the leaves by decreasing stride (permutation
/// `π`); then `inverse(L) = (n_π) : (w_π)`, and `inverse(L)(L(i)) = i = L(inverse(L)(i))` for
/// every `i ∈ [0, size)`.
///
/// Source: (spec: Inverse). The result is flat; its mode `j` reads the digit of the offset
/// that `L`'s leaf `π_j` writes, so it takes that leaf's name when the leaf is a named top-level
/// mode of `L` (the inverse of `(thread: 32, value: 4):(1, 32)` is
/// `(value: 4, thread: 32):(1, 4)`). Every size-1 `L` has the inverse `1:1`. Strides in
/// positions of `L`'s domain.
///
/// CuTe: `right_inverse(L^r)` (also `left_inverse`: for a bijection they agree); CuTe sorts the
/// modes by increasing stride first-fastest, which is this order reversed.
///
/// ```
/// use layout_core::{inverse, Layout};
/// let l: Layout = "(4,8):(1,4)".parse()?;
/// let inv = inverse(&l)?;
/// assert_eq!(inv.to_string(), "(8,4):(1,8)");
/// assert_eq!(inv.eval_index(l.eval_index(13)?)?, 13);
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::NotDense`] or [`Error::BroadcastNotDense`] when `L` is not a dense bijection.
pub fn inverse(l: &Layout) -> Result<Layout, Error> {
    check_dense_bijection(l)?;
    // (leaf number, leaf, weight)
    let mut weighted: SmallVec<[(usize, &Leaf, i64); 8]> = SmallVec::new();
    let mut w = 1i64;
    for (i, m) in l
        .leaves()
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, m)| m.size() > 1)
    {
        weighted.push((i, m, w));
        w = w.checked_mul(m.size()).ok_or_else(|| Error::Overflow {
            mode: l.leaf_path(i),
            what: Quantity::Positions,
        })?;
    }
    if weighted.is_empty() {
        return Layout::new(Tree::Leaf(1), Tree::Leaf(Stride::Int(1)));
    }
    weighted.sort_by_key(|(_, m, _)| core::cmp::Reverse(m.value()));
    let mut leaves = Leaves::new();
    let mut profile = Profile::new();
    if weighted.len() != 1 {
        profile.push(token(weighted.len()));
    }
    let mut named = false;
    for (j, &(i, m, w)) in weighted.iter().enumerate() {
        profile.push(LEAF);
        // The path is not kept, but it must be one a path can name.
        if weighted.len() != 1 {
            ModePath::ROOT.child(j)?;
        }
        leaves.push(Leaf::new(m.size(), Stride::Int(w)));
        named |= !l.names().is_empty()
            && matches!(l.leaf_path(i).indices(), [k] if l.names().get(usize::from(*k)).is_some_and(Option::is_some));
    }
    let inv = Layout::from_parts(leaves, profile, Cow::Borrowed(&[]))?;
    if !named {
        return Ok(inv);
    }
    let names = weighted
        .iter()
        .map(|&(i, _, _)| match l.leaf_path(i).indices() {
            [k] => name_of(l, usize::from(*k)),
            _ => None,
        })
        .collect();
    inv.with_names(names)
}

/// `group(L, start, end)`: the top-level modes `start..end` (from 0, slowest first) become one
/// mode holding them. The function is unchanged on every flat index; only the tree changes.
///
/// Source: (spec: Regroupings). The other modes keep their names; the new mode
/// is unnamed (names label top-level modes only), except that grouping one mode is the identity
/// (`(x)` is `x`) and keeps everything.
///
/// CuTe: `group<rank−end, rank−start>(L^r)` (CuTe counts modes from the fastest).
///
/// ```
/// use layout_core::{group, Layout};
/// let l: Layout = "(a: 2, 3, 4):(12, 4, 1)".parse()?;
/// assert_eq!(group(&l, 1, 3)?.to_string(), "(a:2,(3,4)):(12,(4,1))");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::GroupRange`] unless `start < end ≤ rank`.
pub fn group(l: &Layout, start: usize, end: usize) -> Result<Layout, Error> {
    let modes = top_modes(l)?;
    if start >= end || end > modes.len() {
        return Err(Error::GroupRange {
            start,
            end,
            rank: modes.len(),
        });
    }
    if end.saturating_sub(start) == 1 {
        return Ok(l.clone());
    }
    let mut shape = Vec::new();
    let mut stride = Vec::new();
    let mut names = Vec::new();
    let mut inner = (Vec::new(), Vec::new());
    for (i, m) in modes.iter().enumerate() {
        if (start..end).contains(&i) {
            inner.0.push(m.shape.clone());
            inner.1.push(m.stride.clone());
            if i.saturating_add(1) == end {
                shape.push(Tree::Tuple(core::mem::take(&mut inner.0)));
                stride.push(Tree::Tuple(core::mem::take(&mut inner.1)));
                names.push(None);
            }
        } else {
            shape.push(m.shape.clone());
            stride.push(m.stride.clone());
            names.push(name_of(l, i));
        }
    }
    make(Tree::Tuple(shape), Tree::Tuple(stride), names)
}

/// `flatten(L)`: every leaf becomes a top-level mode, in order. The function is unchanged on
/// every flat index; only the tree changes.
///
/// Source: (spec: Regroupings). A top-level mode that is a leaf keeps its name;
/// the leaves of a nested top-level mode are unnamed (its name labelled all of them together).
///
/// CuTe: `flatten(L^r)`.
///
/// ```
/// use layout_core::{flatten, Layout};
/// let l: Layout = "(m: (2,2), k: 8):((8,16),1)".parse()?;
/// assert_eq!(flatten(&l)?.to_string(), "(2,2,k:8):(8,16,1)");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// None in practice (the result has the leaves of a valid layout); the signature is fallible
/// because the result is rebuilt through [`Layout::new`].
pub fn flatten(l: &Layout) -> Result<Layout, Error> {
    let mut shape = Vec::new();
    let mut stride = Vec::new();
    let mut names = Vec::new();
    for m in l.modes() {
        shape.push(Tree::Leaf(m.size));
        stride.push(Tree::Leaf(m.stride));
        names.push(match m.path.indices() {
            [i] => name_of(l, usize::from(*i)),
            _ => None,
        });
    }
    make(Tree::Tuple(shape), Tree::Tuple(stride), names)
}

/// `select(L, I)`: the layout of the top-level modes `I = (i_0..i_{r-1})` (from 0, slowest
/// first), in that order, each listed at most once. Mode `j` of the result is mode `i_j` of `L`,
/// with its name.
///
/// Source: (spec: Regroupings). Unlike `group` and `flatten` this changes the
/// function's argument: `select(L, I)(c_0..c_{r-1}) = L(c')` with `c'_{i_j} = c_j` and
/// `c'_k = 0` for every mode `k` not selected; the flat index of the result runs over the
/// selected modes in the order given (last fastest).
///
/// CuTe: `select<rank−1−i_{r−1}, …, rank−1−i_0>(L^r)` (CuTe counts modes from the
/// fastest).
///
/// ```
/// use layout_core::{select, Layout};
/// let l: Layout = "(m: 4, n: 8, k: 2):(16, 2, 1)".parse()?;
/// assert_eq!(select(&l, &[2, 0])?.to_string(), "(k:2,m:4):(1,16)");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::EmptySelection`] for no index, [`Error::ModeIndex`] for an index `≥ rank`,
/// [`Error::RepeatedMode`] for an index listed twice.
pub fn select(l: &Layout, indices: &[usize]) -> Result<Layout, Error> {
    let modes = top_modes(l)?;
    if indices.is_empty() {
        return Err(Error::EmptySelection);
    }
    let mut seen = vec![false; modes.len()];
    let mut shape = Vec::with_capacity(indices.len());
    let mut stride = Vec::with_capacity(indices.len());
    let mut names = Vec::with_capacity(indices.len());
    for &i in indices {
        let (Some(m), Some(s)) = (modes.get(i), seen.get_mut(i)) else {
            return Err(Error::ModeIndex {
                index: i,
                rank: modes.len(),
            });
        };
        if core::mem::replace(s, true) {
            return Err(Error::RepeatedMode { index: i });
        }
        shape.push(m.shape.clone());
        stride.push(m.stride.clone());
        names.push(name_of(l, i));
    }
    make(Tree::Tuple(shape), Tree::Tuple(stride), names)
}

/// `permute(L, p)`: the top-level modes reordered, mode `j` of the result being mode `p_j` of
/// `L` (with its name); `p` lists every mode exactly once.
///
/// Source: (spec: Regroupings). The argument order changes: `permute(L, p)(c) =
/// L(c')` with `c'_{p_j} = c_j`, so the same coordinate *set* reaches the same offsets but the
/// flat index runs over the modes in the new order. `permute(L, p)` is [`select`] with a
/// permutation.
///
/// CuTe: `select<…>(L^r)` with the reversed, complemented indices (see [`select`]).
///
/// ```
/// use layout_core::{permute, Layout};
/// let l: Layout = "(rows: 4, cols: 8):(8, 1)".parse()?;
/// let t = permute(&l, &[1, 0])?;
/// assert_eq!(t.to_string(), "(cols:8,rows:4):(1,8)");
/// assert_eq!(t.eval_index(1)?, 8); // (col 0, row 1)
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::PermutationRank`] unless `p` has one entry per top-level mode, then as [`select`].
pub fn permute(l: &Layout, perm: &[usize]) -> Result<Layout, Error> {
    if perm.len() != l.rank() {
        return Err(Error::PermutationRank {
            rank: l.rank(),
            len: perm.len(),
        });
    }
    select(l, perm)
}

/// `coalesce(L)`: the same function on every flat index with the fewest leaves. The leaves are
/// read slowest first; size-1 leaves are dropped, and a leaf `n_a : d_a` followed by a faster
/// leaf `n_b : d_b` with `d_a = n_b·d_b` (the slower continues the faster) become the one leaf
/// `n_a·n_b : d_b`; two adjacent broadcast leaves become one broadcast leaf. The result is flat:
/// one leaf, or a tuple of leaves. A layout of size 1 coalesces to `1 : d` with the stride `d`
/// of its fastest leaf.
///
/// Source: (spec: Regroupings): a regrouping of the leaves, here with leaves merged, so
/// `coalesce(L)(i) = L(i)` for every `i ∈ [0, size)`. Sizes count positions; strides in
/// elements.
///
/// **Names.** A leaf of the result keeps the name of a top-level mode of `L` when it is made of
/// exactly that mode's leaves of size > 1 (so `(m: (4,8), k: 2):((8,1),32)` gives
/// `(m: 32, k: 2):(1, 32)`); a leaf that merges leaves of two top-level modes, or only part of
/// one, is unnamed.
///
/// CuTe: `coalesce(L^r)` (`cute/layout.hpp`), which walks the modes first-fastest and merges a
/// mode into the previous one when its stride is the previous size times stride, also dropping
/// size-1 modes. The result is the same leaves in reversed order (CuTe's `_1:_0` for a layout of
/// size 1 aside); CuTe's by-mode `coalesce(L, profile)` is not this operation.
///
/// ```
/// use layout_core::{coalesce, Layout};
/// let l: Layout = "((2,4),1,8):((32,8),5,1)".parse()?;
/// let c = coalesce(&l)?;
/// assert_eq!(c.to_string(), "64:1");
/// assert!((0..l.size()).all(|i| c.eval_index(i) == l.eval_index(i)));
/// let named: Layout = "(m: (4,8), k: 2):((8,1),32)".parse()?;
/// assert_eq!(coalesce(&named)?.to_string(), "(m:32,k:2):(1,32)");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// None in practice (the result has the size and offsets of a valid layout); the signature is
/// fallible because the result is rebuilt through [`Layout::new`].
pub fn coalesce(l: &Layout) -> Result<Layout, Error> {
    /// A leaf of the result: size, stride, the top-level mode of all its leaves (`None` when
    /// they span two), and how many leaves it merges.
    struct Run {
        size: i64,
        stride: Stride,
        mode: Option<usize>,
        count: usize,
    }
    let modes = l.modes();
    let top = |m: &crate::layout::Mode| m.path.indices().first().map(|i| usize::from(*i));
    let mut per_mode: Vec<usize> = vec![0; l.rank()];
    let mut runs: Vec<Run> = Vec::new();
    for m in modes.iter().filter(|m| m.size > 1) {
        let t = top(m);
        if let Some(c) = t.and_then(|t| per_mode.get_mut(t)) {
            *c = c.saturating_add(1);
        }
        if let Some(last) = runs.last_mut() {
            let merge = match (last.stride, m.stride) {
                (Stride::Broadcast, Stride::Broadcast) => true,
                (Stride::Int(a), Stride::Int(b)) => b.checked_mul(m.size) == Some(a),
                _ => false,
            };
            if merge {
                last.size = last.size.checked_mul(m.size).ok_or(Error::Overflow {
                    mode: m.path,
                    what: Quantity::Positions,
                })?;
                last.stride = m.stride;
                if last.mode != t {
                    last.mode = None;
                }
                last.count = last.count.saturating_add(1);
                continue;
            }
        }
        runs.push(Run {
            size: m.size,
            stride: m.stride,
            mode: t,
            count: 1,
        });
    }
    let Some(first) = runs.first() else {
        let d = modes.last().map_or(Stride::Int(1), |m| m.stride);
        return Layout::new(Tree::Leaf(1), Tree::Leaf(d));
    };
    let name = |r: &Run| {
        r.mode
            .filter(|&t| per_mode.get(t) == Some(&r.count))
            .and_then(|t| name_of(l, t))
    };
    if runs.len() == 1 {
        return make(
            Tree::Leaf(first.size),
            Tree::Leaf(first.stride),
            vec![name(first)],
        );
    }
    let names = runs.iter().map(name).collect();
    let (shape, stride) = runs
        .iter()
        .map(|r| (Tree::Leaf(r.size), Tree::Leaf(r.stride)))
        .unzip();
    make(Tree::Tuple(shape), Tree::Tuple(stride), names)
}

#[cfg(test)]
mod tests {
    // Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
    // failed cast in a test panics, which fails the test.
    #![allow(clippy::arithmetic_side_effects)]

    use super::*;
    use alloc::format;

    /// A layout of leaves `(size, stride)` (`None`: `_`) in top-level modes of `widths` leaves
    /// (a mode of several leaves a tuple, its first two nested once more when `deep`), named
    /// when `named`; `None` when it is not a layout (an offset past `i64`).
    fn layout(
        leaves: &[(i64, Option<i64>)],
        widths: &[usize],
        deep: bool,
        named: bool,
    ) -> Option<Layout> {
        let leaf = |m: &(i64, Option<i64>)| {
            (
                Tree::Leaf(m.0),
                Tree::Leaf(m.1.map_or(Stride::Broadcast, Stride::Int)),
            )
        };
        let mut modes = Vec::new();
        let mut at = 0;
        for &w in widths {
            let mode = &leaves[at..at + w];
            at += w;
            modes.push(match mode {
                [one] => leaf(one),
                [a, b, rest @ ..] if deep => {
                    let (s, d) = unzip(vec![leaf(a), leaf(b)]);
                    let mut pairs = vec![(s, d)];
                    pairs.extend(rest.iter().map(leaf));
                    unzip(pairs)
                }
                _ => unzip(mode.iter().map(leaf).collect()),
            });
        }
        let names: Vec<Option<String>> = (0..modes.len())
            .map(|i| named.then(|| format!("m{i}")))
            .collect();
        let (shape, stride) = if modes.len() == 1 && !named {
            modes.swap_remove(0)
        } else {
            unzip(modes)
        };
        Layout::new(shape, stride).ok()?.with_names(names).ok()
    }

    /// `divide`'s flat path gives what the general path gives, the layout (leaves, profile,
    /// names, size, span, trees) or the error, for flat and nested layouts of one to six
    /// leaves (past the flat path's limit), named or not, with broadcasts, negative strides and
    /// strides whose rest overflows, by tiles that divide, that do not, of entries below 1 and
    /// of the wrong rank; and the flat path is reached, with and without success.
    #[test]
    fn divide_flat_path_is_the_general_path() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        // A fixed sequence, so that the counts of flat-path cases below are the same in every
        // run; twice the cases the counts need (a broadcast leaf takes the general path).
        let mut runner = TestRunner::new_with_rng(
            Config {
                cases: 4000,
                ..Config::default()
            },
            proptest::test_runner::TestRng::deterministic_rng(
                proptest::test_runner::RngAlgorithm::ChaCha,
            ),
        );
        let stride = prop::sample::select(vec![
            Some(1i64),
            Some(2),
            Some(-3),
            Some(7),
            None,
            Some(i64::MAX / 64),
            Some(-(i64::MAX / 96)),
            // A leaf of size 2 whose rest stride, by a tile entry 2, is past `i64`.
            Some(1 << 62),
            Some(-(1 << 62) - 1),
        ]);
        let leaf = (prop::sample::select(vec![1i64, 2, 3, 4, 6, 8, 12]), stride);
        let leaves = prop::collection::vec(leaf, 1..7);
        let split = prop::collection::vec(1usize..4, 6);
        let ks = prop::collection::vec((0usize..8, prop::sample::select(vec![0i64, -2, 5, 16])), 7);
        let (flat_ok, flat_err) = (core::cell::Cell::new(0), core::cell::Cell::new(0));
        runner
            .run(
                &(
                    leaves,
                    split,
                    any::<bool>(),
                    any::<bool>(),
                    any::<bool>(),
                    ks,
                    0usize..8,
                ),
                |(leaves, split, flat, deep, named, ks, rank_off)| {
                    // Modes of one leaf each, or of the widths `split`.
                    let mut widths = Vec::new();
                    let mut left = leaves.len();
                    for w in split {
                        if left == 0 {
                            break;
                        }
                        let w = if flat { 1 } else { w.min(left) };
                        widths.push(w);
                        left -= w;
                    }
                    if left > 0 {
                        widths.push(left);
                    }
                    let Some(l) = layout(&leaves, &widths, deep, named) else {
                        return Ok(());
                    };
                    // Per mode: a divisor of its size (mostly), or an entry from the list.
                    let mut at = 0;
                    let mut tile: Vec<i64> = widths
                        .iter()
                        .zip(&ks)
                        .map(|(&w, &(pick, other))| {
                            let size: i64 = leaves[at..at + w].iter().map(|m| m.0).product();
                            at += w;
                            let divisors: Vec<i64> = (1..=size).filter(|d| size % d == 0).collect();
                            if pick < 6 {
                                divisors[pick % divisors.len()]
                            } else {
                                other
                            }
                        })
                        .collect();
                    match rank_off {
                        0 => tile.push(1),
                        1 => {
                            tile.pop();
                        }
                        _ => {}
                    }
                    let fast = divide(&l, &tile);
                    let general = divide_general(&l, &tile);
                    prop_assert_eq!(&fast, &general);
                    if let (Ok(a), Ok(b)) = (&fast, &general) {
                        prop_assert_eq!((a.size(), a.span()), (b.size(), b.span()));
                        prop_assert_eq!((a.shape(), a.stride()), (b.shape(), b.stride()));
                        prop_assert_eq!(a.profile(), b.profile());
                        prop_assert_eq!(a.modes(), b.modes());
                        prop_assert_eq!(a.to_string(), b.to_string());
                    }
                    let flat_path = match leaves.len() {
                        1 => divide_flat::<1, 2>(&l, &tile)
                            .or_else(|| divide_flat::<1, 1>(&l, &tile)),
                        2 => divide_flat::<2, 3>(&l, &tile),
                        3 => divide_flat::<3, 4>(&l, &tile),
                        4 => divide_flat::<4, 5>(&l, &tile),
                        _ => None,
                    };
                    if flat_path.is_some() {
                        flat_ok.set(flat_ok.get() + 1);
                    } else if flat && leaves.len() <= FLAT_DIVIDE && tile.len() == leaves.len() {
                        flat_err.set(flat_err.get() + 1);
                    }
                    Ok(())
                },
            )
            .expect("agrees");
        assert!(
            flat_ok.get() > 200 && flat_err.get() > 50,
            "{} {}",
            flat_ok.get(),
            flat_err.get()
        );
    }
}

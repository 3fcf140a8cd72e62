//! Residue tiles: a divide whose tile entries need not divide the tensor's sizes (CuTe's
//! `local_tile` over `ceil_div`), with the predicate that masks the padding.
//!
//! [`ceil_divide`] cuts a `logical -> physical` tensor of extents `n_i` (seed order, one per
//! top-level mode) into a grid of `ceil(n_i / k_i)` tiles of `k_i` positions per mode. The last
//! tile of a mode whose entry does not divide its size holds only the **residue**
//! `n_i − (ceil(n_i / k_i) − 1)·k_i` positions; the rest of it is padding. Tile `r` of a mode
//! holds the global coordinates `r·k + t`, `t ∈ [0, k)`, and the **predicate** of a position is
//! one compare per mode, `r_i·k_i + t_i < n_i` (CuTe's `elem_less(coord, shape)`).
//!
//! The padded tiled layout ([`ResidueTiles::padded`], `(tile, rest)` as [`crate::divide`]
//! writes it) is generally **not** alias-free: a padded position of a row reaches the offsets
//! of the next row. It is therefore never a checked `logical -> physical` layout; its offsets
//! are exposed only where the predicate holds ([`ResidueTiles::offset`] returns `None`
//! elsewhere), and there they are the tensor's own offsets at the global coordinate, so every
//! predicated access is in bounds and alias-free. [`ceil_divide`] builds the padded layout so
//! that this holds by construction (a per-mode argument, no enumeration); [`check_padded`]
//! decides it for a padded layout written by hand.
//!
//! A thread-value layout over the tile ([`ResidueTiles::partition`], domain `(value, thread)`
//! in seed order, codomain the tile's logical positions, last mode fastest) gives each thread
//! the coordinates it touches (CuTe's `make_identity_tensor` partitioned the same way), the
//! predicate of each of its values, and the predicate as code ([`Partition::to_c`],
//! [`Partition::to_rust`]).
//!
//! ```
//! use layout_core::{residue, Layout};
//! // CuTe's (M, K) = (300, 200) column-major matrix, leading dimension 300, in seed order
//! // (K, M):(300, 1), cut into CuTe's (128, 64) tiles, seed (64, 128).
//! let a = Layout::from_cute("(300,200):(1,300)")?;
//! let tiles = residue::ceil_divide(&a, &[64, 128])?;
//! assert_eq!(tiles.grid(), &[4, 3]); // ceil(200/64), ceil(300/128)
//! assert_eq!(tiles.residue(), vec![8, 44]); // 200 − 3·64, 300 − 2·128
//! // Tile (3, 2), position (7, 43): global (199, 299), the last element.
//! assert_eq!(tiles.global(&[3, 2], &[7, 43])?, vec![199, 299]);
//! assert_eq!(tiles.offset(&[3, 2], &[7, 43])?, Some(199 * 300 + 299));
//! // One past it along M is padding: no offset.
//! assert_eq!(tiles.offset(&[3, 2], &[7, 44])?, None);
//! # Ok::<(), layout_core::Error>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write as _;

use crate::emit::{IntType, Program, Sum, Term, Var};
use crate::error::{Error, ModePath, Quantity};
use crate::layout::Layout;
use crate::space::{Space, check};
use crate::tree::{Stride, Tree};

/// One top-level mode of the tensor cut by its tile entry: the tile piece and the rest piece,
/// each slowest leaf first.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cut {
    tile: Vec<(i64, Stride)>,
    rest: Vec<(i64, Stride)>,
}

/// A tensor cut into a grid of tiles that need not divide it, with the residue of each mode.
///
/// Built by [`ceil_divide`] (or [`ResidueTiles::with_padded`]). Coordinates and tile indices
/// are per top-level mode, in seed order (the last mode varies fastest); offsets count
/// elements. See the [module documentation](self) for why the padded layout is kept apart
/// from checked layouts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResidueTiles {
    tensor: Layout,
    extents: Vec<i64>,
    tile: Vec<i64>,
    grid: Vec<i64>,
    padded: Layout,
}

/// Splits the tensor's leaves into its top-level modes (a bare leaf or a layout of one mode is
/// one mode).
fn top_modes(tensor: &Layout) -> Vec<Vec<(ModePath, i64, Stride)>> {
    let mut out: Vec<Vec<(ModePath, i64, Stride)>> = vec![Vec::new(); tensor.rank()];
    for m in tensor.modes() {
        let top = m.path.indices().first().map_or(0, |i| usize::from(*i));
        if let Some(v) = out.get_mut(top) {
            v.push((m.path, m.size, m.stride));
        }
    }
    out
}

/// `ceil(n / k)` for `n ≥ 1`, `k ≥ 1`.
fn ceil_div(n: i64, k: i64) -> i64 {
    let q = n.checked_div(k).unwrap_or(0);
    let r = n.checked_rem(k).unwrap_or(0);
    q.saturating_add(i64::from(r != 0))
}

fn scale(d: Stride, k: i64, mode: ModePath) -> Result<Stride, Error> {
    match d {
        Stride::Broadcast => Ok(Stride::Broadcast),
        Stride::Int(d) => d.checked_mul(k).map(Stride::Int).ok_or(Error::Overflow {
            mode,
            what: Quantity::Stride,
        }),
    }
}

/// Cuts one top-level mode (`leaves` slowest first) by the tile entry `k`.
///
/// Walking from the fastest leaf with `needed = k`: a leaf of size `needed` that is not the
/// slowest ends the tile whole; a leaf whose size is a multiple of `needed` is cut exactly; a
/// leaf whose size divides `needed` goes whole into the tile; the slowest leaf otherwise is cut
/// with padding (`needed : d` in the tile, `ceil(n/needed) : needed·d` in the rest); any other
/// leaf is [`Error::ResidueSplit`] (or [`Error::TileSplit`] when `k` divides the mode, as
/// [`crate::divide`] says).
fn cut_mode(
    path: ModePath,
    leaves: &[(ModePath, i64, Stride)],
    size: i64,
    k: i64,
) -> Result<Cut, Error> {
    if k < 1 {
        return Err(Error::NonPositiveSize {
            mode: path,
            size: k,
        });
    }
    let divides = size.checked_rem(k) == Some(0);
    let merged;
    let leaves = if divides {
        leaves
    } else {
        merged = merge_contiguous(leaves);
        merged.as_slice()
    };
    let mut needed = k;
    let mut tile: Vec<(i64, Stride)> = Vec::new();
    for (q, &(leaf, n, d)) in leaves.iter().enumerate().rev() {
        let slower = leaves.get(..q).unwrap_or_default();
        let rest_of = |extra: Option<(i64, Stride)>| -> Vec<(i64, Stride)> {
            slower
                .iter()
                .map(|&(_, n, d)| (n, d))
                .chain(extra)
                .collect()
        };
        let mut tile_with = |first: (i64, Stride)| {
            tile.insert(0, first);
            core::mem::take(&mut tile)
        };
        if n == needed && q > 0 {
            return Ok(Cut {
                tile: tile_with((n, d)),
                rest: rest_of(None),
            });
        }
        if n.checked_rem(needed) == Some(0) {
            let part = (n.checked_div(needed).unwrap_or(1), scale(d, needed, leaf)?);
            return Ok(Cut {
                tile: tile_with((needed, d)),
                rest: rest_of(Some(part)),
            });
        }
        if q == 0 {
            // The slowest leaf, `needed ∤ n`: padded. `k ∤ size` here (else `needed | n`).
            // A stride 0 is that of a size-1 mode (any larger leaf with it is refused when the
            // tensor is checked): only its coordinate 0 is predicated, and its padded leaf
            // repeats that position, as CuTe's `local_tile` does (`_`).
            let count = ceil_div(n, needed);
            let part = (count, scale(d, needed, leaf)?);
            let d = if d == Stride::Int(0) {
                Stride::Broadcast
            } else {
                d
            };
            return Ok(Cut {
                tile: tile_with((needed, d)),
                rest: vec![part],
            });
        }
        if needed.checked_rem(n) != Some(0) {
            return Err(if divides {
                Error::TileSplit {
                    mode: leaf,
                    tile: k,
                    needed,
                    size: n,
                }
            } else {
                Error::ResidueSplit {
                    mode: leaf,
                    tile: k,
                    needed,
                    size: n,
                }
            });
        }
        tile.insert(0, (n, d));
        needed = needed.checked_div(n).unwrap_or(1);
    }
    // A mode always has a leaf; an empty one is the size-1 mode `1`.
    Ok(Cut {
        tile: vec![(k, Stride::Int(1))],
        rest: vec![(1, Stride::Int(k))],
    })
}

/// A mode's leaves (slowest first) with every run of contiguous leaves merged into one (a
/// slower leaf whose stride is the faster one's size times its stride) and size-1 leaves
/// dropped: the same function of the mode's flat coordinate. A merged leaf keeps the path of
/// its fastest leaf.
fn merge_contiguous(leaves: &[(ModePath, i64, Stride)]) -> Vec<(ModePath, i64, Stride)> {
    let mut out: Vec<(ModePath, i64, Stride)> = Vec::new();
    for &(path, n, d) in leaves.iter().rev() {
        if n == 1 {
            continue;
        }
        if let Some(last) = out.last_mut() {
            let next = match (last.2, d) {
                (Stride::Broadcast, Stride::Broadcast) => Some(Stride::Broadcast),
                (Stride::Int(f), Stride::Int(s)) if f.checked_mul(last.1) == Some(s) => {
                    Some(Stride::Int(f))
                }
                _ => None,
            };
            if let (Some(stride), Some(size)) = (next, last.1.checked_mul(n)) {
                *last = (last.0, size, stride);
                continue;
            }
        }
        out.push((path, n, d));
    }
    if out.is_empty() {
        out.extend(leaves.last().copied());
    }
    out.reverse();
    out
}

fn piece_tree(piece: &[(i64, Stride)]) -> (Tree<i64>, Tree<Stride>) {
    match piece {
        [(n, d)] => (Tree::Leaf(*n), Tree::Leaf(*d)),
        _ => (
            Tree::Tuple(piece.iter().map(|&(n, _)| Tree::Leaf(n)).collect()),
            Tree::Tuple(piece.iter().map(|&(_, d)| Tree::Leaf(d)).collect()),
        ),
    }
}

fn group_tree(cuts: &[Cut], rest: bool) -> (Tree<i64>, Tree<Stride>) {
    let pieces: Vec<(Tree<i64>, Tree<Stride>)> = cuts
        .iter()
        .map(|c| piece_tree(if rest { &c.rest } else { &c.tile }))
        .collect();
    if let [(s, d)] = pieces.as_slice() {
        // One mode: its piece, wrapped once more when it is a tuple (as `divide` writes it).
        return match s {
            Tree::Leaf(_) => (s.clone(), d.clone()),
            Tree::Tuple(_) => (Tree::Tuple(vec![s.clone()]), Tree::Tuple(vec![d.clone()])),
        };
    }
    let (s, d): (Vec<_>, Vec<_>) = pieces.into_iter().unzip();
    (Tree::Tuple(s), Tree::Tuple(d))
}

/// The canonical cut of every mode and the padded layout built from it.
fn cuts_of(tensor: &Layout, tile: &[i64]) -> Result<(Vec<i64>, Vec<Cut>, Layout), Error> {
    check(tensor, Space::Logical, Space::Physical)?;
    let rank = tensor.rank();
    if tile.len() != rank {
        return Err(Error::TileRank {
            rank,
            tile: tile.len(),
        });
    }
    let modes = top_modes(tensor);
    let mut extents = Vec::with_capacity(rank);
    let mut cuts = Vec::with_capacity(rank);
    for (i, (leaves, &k)) in modes.iter().zip(tile).enumerate() {
        let path = if matches!(tensor.shape(), Tree::Leaf(_)) {
            ModePath::ROOT
        } else {
            ModePath::ROOT.child(i)?
        };
        // The sizes of a constructed layout multiply without overflow.
        let size = leaves.iter().map(|&(_, n, _)| n).product::<i64>();
        extents.push(size);
        cuts.push(cut_mode(path, leaves, size, k)?);
    }
    let (ts, td) = group_tree(&cuts, false);
    let (rs, rd) = group_tree(&cuts, true);
    let padded = Layout::new(Tree::Tuple(vec![ts, rs]), Tree::Tuple(vec![td, rd]))?
        .with_names(vec![Some("tile".into()), Some("rest".into())])?;
    Ok((extents, cuts, padded))
}

/// CuTe's `local_tile(tensor, tile, coord)` over `ceil_div`: cuts a `logical -> physical`
/// tensor into a grid of `ceil(n_i / k_i)` tiles of `k_i` positions per top-level mode (seed
/// order), the last tile of each mode holding the residue.
///
/// Each top-level mode is cut as [`crate::divide`] cuts it, except that an entry that does not
/// divide the mode's size cuts the mode's leaves after merging every contiguous run of them
/// (and dropping size-1 leaves), and cuts the slowest of them with padding: `n : d` by `c` gives
/// `c : d` in the tile and `ceil(n/c) : c·d` in the rest (a mode of size 1 and stride 0 gives
/// the broadcast `c : _`, as CuTe's `local_tile`). The offset of every position whose
/// predicate holds is then the tensor's offset at its global coordinate (the padded leaf's
/// coordinate is below `n` exactly when the predicate holds). Sizes and strides may be values
/// known only at run time (e.g. a leading dimension).
///
/// ```
/// use layout_core::{residue, Layout};
/// let (m, k, ld) = (300, 200, 304); // run-time sizes and leading dimension
/// let a = Layout::from_cute(&format!("({m},{k}):(1,{ld})"))?;
/// let t = residue::ceil_divide(&a, &[64, 128])?;
/// assert_eq!(t.padded().to_string(), "(tile:(64,128),rest:(4,3)):((304,1),(19456,128))");
/// assert_eq!(t.predicate(&[3, 2], &[8, 0])?, false); // global K = 200
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`crate::check`] for a tensor that is not a valid `logical -> physical` layout;
/// [`Error::TileRank`] unless the tile has one entry per top-level mode;
/// [`Error::NonPositiveSize`] for an entry below 1; [`Error::TileSplit`] (an entry that divides
/// its mode) or [`Error::ResidueSplit`] (one that does not) naming a leaf that cannot be cut;
/// [`Error::Overflow`] for a stride `c·d` past `i64`.
pub fn ceil_divide(tensor: &Layout, tile: &[i64]) -> Result<ResidueTiles, Error> {
    let (extents, _, padded) = cuts_of(tensor, tile)?;
    Ok(ResidueTiles::from_checked(tensor, tile, extents, padded))
}

/// Decides whether a padded tiled layout (written as [`ResidueTiles::padded`] writes it) agrees
/// with the tensor wherever the predicate holds: every predicated access then stays inside the
/// tensor and no two of them alias.
///
/// Per-mode argument, without enumeration: the padded layout must have the shape of the
/// ceil-divide's; both maps are sums of one term per top-level mode, so they agree on the
/// predicated positions exactly when they agree mode by mode; within a mode both are strided
/// over the same digits, so they agree exactly when their strides agree on every digit that a
/// predicated position can set (a digit whose unit position is padding is never set by one).
///
/// ```
/// use layout_core::{residue, Layout};
/// let a = Layout::from_cute("(300,200):(1,300)")?; // seed (200,300):(300,1)
/// // Rest strides taken from a padded leading dimension of 384 instead of 300:
/// let wrong: Layout = "(tile:(64,128),rest:(4,3)):((300,1),(24576,128))".parse()?;
/// let e = residue::check_padded(&a, &[64, 128], &wrong).unwrap_err();
/// assert_eq!(e.rule(), "residue-offset");
/// assert_eq!(e.to_string(), "a predicated access leaves the tensor: at global coordinate 64 of mode 0 the padded layout (mode (1,0)) reaches offset 24576, the tensor 19200");
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`ceil_divide`] for the tensor and tile; [`Error::ResidueShape`] naming the first mode
/// whose shape differs from the ceil-divide's; [`Error::ResidueOffset`] with the first
/// predicated access (the others at 0) whose offsets differ.
pub fn check_padded(tensor: &Layout, tile: &[i64], padded: &Layout) -> Result<(), Error> {
    let (extents, cuts, canonical) = cuts_of(tensor, tile)?;
    if let Some(mode) = first_shape_difference(canonical.shape(), padded.shape(), ModePath::ROOT)? {
        return Err(mode);
    }
    let mine = padded.modes();
    let theirs = canonical.modes();
    // Leaves in order: the tile group's pieces, then the rest group's, mode by mode.
    let mut at = 0usize;
    for rest in [false, true] {
        for (i, cut) in cuts.iter().enumerate() {
            let piece = if rest { &cut.rest } else { &cut.tile };
            let k = tile.get(i).copied().unwrap_or(1);
            let n = extents.get(i).copied().unwrap_or(1);
            // The weight of each leaf within the piece (faster leaves' sizes multiplied).
            let mut weight = 1i64;
            let mut weights = vec![0i64; piece.len()];
            for (j, &(size, _)) in piece.iter().enumerate().rev() {
                if let Some(w) = weights.get_mut(j) {
                    *w = weight;
                }
                weight = weight.saturating_mul(size);
            }
            for (j, &w) in weights.iter().enumerate() {
                let (Some(got), Some(want)) = (
                    mine.get(at.saturating_add(j)),
                    theirs.get(at.saturating_add(j)),
                ) else {
                    continue;
                };
                // The unit position of this digit along the mode.
                let coord = if rest { w.saturating_mul(k) } else { w };
                if got.size > 1 && coord < n && got.stride.value() != want.stride.value() {
                    return Err(Error::ResidueOffset {
                        mode: got.path,
                        tensor_mode: i,
                        coord,
                        offset: got.stride.value(),
                        expected: want.stride.value(),
                    });
                }
            }
            at = at.saturating_add(piece.len());
        }
    }
    Ok(())
}

fn first_shape_difference(
    want: &Tree<i64>,
    got: &Tree<i64>,
    at: ModePath,
) -> Result<Option<Error>, Error> {
    Ok(match (want, got) {
        (Tree::Leaf(a), Tree::Leaf(b)) if a == b => None,
        (Tree::Tuple(a), Tree::Tuple(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if let Some(e) = first_shape_difference(x, y, at.child(i)?)? {
                    return Ok(Some(e));
                }
            }
            None
        }
        _ => Some(Error::ResidueShape { mode: at }),
    })
}

impl ResidueTiles {
    fn from_checked(tensor: &Layout, tile: &[i64], extents: Vec<i64>, padded: Layout) -> Self {
        let grid = extents
            .iter()
            .zip(tile)
            .map(|(&n, &k)| ceil_div(n, k))
            .collect();
        ResidueTiles {
            tensor: tensor.clone(),
            extents,
            tile: tile.to_vec(),
            grid,
            padded,
        }
    }

    /// The tiles of a padded layout written by hand, after [`check_padded`] has accepted it.
    ///
    /// # Errors
    /// As [`check_padded`].
    pub fn with_padded(tensor: &Layout, tile: &[i64], padded: &Layout) -> Result<Self, Error> {
        check_padded(tensor, tile, padded)?;
        let (extents, _, _) = cuts_of(tensor, tile)?;
        Ok(ResidueTiles::from_checked(
            tensor,
            tile,
            extents,
            padded.clone(),
        ))
    }

    /// The tensor (unpadded, a checked `logical -> physical` layout).
    #[must_use]
    pub fn tensor(&self) -> &Layout {
        &self.tensor
    }

    /// The padded tiled layout `(tile, rest)`: `tile` holds the tile's positions, `rest` the
    /// tile index, one piece per top-level mode each. **Not a checked layout**: its offsets at
    /// padded positions may alias the tensor's or leave it; use [`ResidueTiles::offset`].
    #[must_use]
    pub fn padded(&self) -> &Layout {
        &self.padded
    }

    /// The tensor's size per top-level mode (`n_i`, seed order).
    #[must_use]
    pub fn extents(&self) -> &[i64] {
        &self.extents
    }

    /// The tile entries `k_i`.
    #[must_use]
    pub fn tile(&self) -> &[i64] {
        &self.tile
    }

    /// The number of tiles per mode, `ceil(n_i / k_i)`.
    #[must_use]
    pub fn grid(&self) -> &[i64] {
        &self.grid
    }

    /// The in-bounds extent of each mode's last tile, `n_i − (ceil(n_i/k_i) − 1)·k_i`, in
    /// `[1, k_i]` (`k_i` when the entry divides).
    #[must_use]
    pub fn residue(&self) -> Vec<i64> {
        self.extents
            .iter()
            .zip(&self.tile)
            .zip(&self.grid)
            .map(|((&n, &k), &g)| n.saturating_sub(g.saturating_sub(1).saturating_mul(k)))
            .collect()
    }

    fn check_entries(values: &[i64], bounds: &[i64]) -> Result<(), Error> {
        if values.len() != bounds.len() {
            return Err(Error::TileRank {
                rank: bounds.len(),
                tile: values.len(),
            });
        }
        for (i, (&v, &b)) in values.iter().zip(bounds).enumerate() {
            if !(0..b).contains(&v) {
                return Err(Error::CoordOutOfRange {
                    mode: ModePath::from_indices(&[i])?,
                    value: v,
                    size: b,
                });
            }
        }
        Ok(())
    }

    /// The global coordinate of a tile's first position, `r_i·k_i` per mode.
    ///
    /// # Errors
    /// [`Error::TileRank`] for a tile index without one entry per mode,
    /// [`Error::CoordOutOfRange`] for an entry outside the grid.
    pub fn origin(&self, tile: &[i64]) -> Result<Vec<i64>, Error> {
        Self::check_entries(tile, &self.grid)?;
        // r < ceil(n/k), so r·k < n + k fits.
        Ok(tile
            .iter()
            .zip(&self.tile)
            .map(|(&r, &k)| r.saturating_mul(k))
            .collect())
    }

    /// The global coordinate `r_i·k_i + t_i` of position `pos` (per mode, each in `[0, k_i)`)
    /// of tile `tile`; it may lie past the tensor (padding).
    ///
    /// # Errors
    /// As [`ResidueTiles::origin`], and the same for `pos` against the tile.
    pub fn global(&self, tile: &[i64], pos: &[i64]) -> Result<Vec<i64>, Error> {
        let origin = self.origin(tile)?;
        Self::check_entries(pos, &self.tile)?;
        Ok(origin
            .iter()
            .zip(pos)
            .map(|(&o, &t)| o.saturating_add(t))
            .collect())
    }

    /// The predicate, CuTe's `elem_less(coord, shape)`: every global coordinate below its
    /// extent, one compare per mode.
    ///
    /// # Errors
    /// As [`ResidueTiles::global`].
    pub fn predicate(&self, tile: &[i64], pos: &[i64]) -> Result<bool, Error> {
        Ok(self
            .global(tile, pos)?
            .iter()
            .zip(&self.extents)
            .all(|(&x, &n)| x < n))
    }

    /// The offset (elements) of a position where the predicate holds: the tensor's offset at
    /// the global coordinate; `None` at padding.
    ///
    /// # Errors
    /// As [`ResidueTiles::global`].
    pub fn offset(&self, tile: &[i64], pos: &[i64]) -> Result<Option<i64>, Error> {
        let g = self.global(tile, pos)?;
        if g.iter().zip(&self.extents).any(|(&x, &n)| x >= n) {
            return Ok(None);
        }
        let coord = if matches!(self.tensor.shape(), Tree::Leaf(_)) {
            Tree::Leaf(g.first().copied().unwrap_or(0))
        } else {
            Tree::Tuple(g.into_iter().map(Tree::Leaf).collect())
        };
        self.tensor.eval(&coord).map(Some)
    }

    /// A thread-value layout over one tile: `tv`'s domain is `(value, thread)` (seed order;
    /// CuTe's `(thread, value)`, flat index `t + T·v` in both), its codomain the tile's
    /// logical positions `[0, Π k_i)` (seed order, last mode fastest; CuTe's `m + M·n`).
    ///
    /// # Errors
    /// As [`crate::check`] for `tv` as `thread-value -> logical`; [`Error::PartitionRank`]
    /// unless its domain has two top-level modes; [`Error::PartitionTile`] unless it reaches
    /// exactly the tile's positions; [`Error::Overflow`] for a tile of more than `i64::MAX`
    /// positions.
    pub fn partition(&self, tv: &Layout) -> Result<Partition<'_>, Error> {
        check(tv, Space::ThreadValue, Space::Logical)?;
        if tv.rank() != 2 {
            return Err(Error::PartitionRank { rank: tv.rank() });
        }
        let positions = self.tile.iter().try_fold(1i64, |a, &k| {
            a.checked_mul(k).ok_or(Error::Overflow {
                mode: ModePath::ROOT,
                what: Quantity::Positions,
            })
        })?;
        let (lo, hi) = tv.span();
        let reach = hi.saturating_add(1);
        // `check` made it a dense bijection onto `[0, size)`.
        if lo != 0 || reach != positions || tv.size() != positions {
            return Err(Error::PartitionTile {
                reach,
                tile: positions,
            });
        }
        let sizes = match tv.shape() {
            Tree::Tuple(v) => v
                .iter()
                .map(|t| t.leaves().into_iter().product::<i64>())
                .collect::<Vec<i64>>(),
            Tree::Leaf(n) => vec![*n],
        };
        let values = sizes.first().copied().unwrap_or(1);
        let threads = sizes.get(1).copied().unwrap_or(1);
        let coords = coordinate_programs(tv, &self.tile, self.grid.as_slice(), threads, values)?;
        Ok(Partition {
            tiles: self,
            threads,
            values,
            coords,
        })
    }
}

/// A tensor's residue tiles partitioned among threads by a thread-value layout: the
/// coordinates each (thread, value) touches and their predicate ([`ResidueTiles::partition`]).
#[derive(Clone, Debug)]
pub struct Partition<'a> {
    tiles: &'a ResidueTiles,
    threads: i64,
    values: i64,
    coords: Vec<Program>,
}

/// The weight and size of each digit of a coordinate of `size` positions cut into `leaves`
/// (slowest first), as a term of the coordinate variable `x`.
fn digit_term(x: Var, weight: i64, n: i64, total: i64) -> Term {
    match (weight == 1, weight.saturating_mul(n) == total) {
        (true, true) => Term::Var(x),
        (true, false) => Term::Mod(x, n),
        (false, true) => Term::Div(x, weight),
        (false, false) => Term::DivMod(x, weight, n),
    }
}

/// One program per mode of the tile: the global coordinate `k_m·tile + c_m(thread, value)`
/// over the variables `(thread, value, tile)`. Where every leaf of `tv` lies within one mode of
/// the tile and no mode's digits can carry, `c_m` is a weighted sum of the thread's and the
/// value's digits; otherwise it is `(ℓ / W_m) mod k_m` of the logical index `ℓ`.
fn coordinate_programs(
    tv: &Layout,
    tile: &[i64],
    grid: &[i64],
    threads: i64,
    values: i64,
) -> Result<Vec<Program>, Error> {
    let rank = tile.len();
    // W_m: the positions of the faster modes.
    let mut weights = vec![1i64; rank];
    let mut w = 1i64;
    for m in (0..rank).rev() {
        if let Some(slot) = weights.get_mut(m) {
            *slot = w;
        }
        w = w.saturating_mul(tile.get(m).copied().unwrap_or(1));
    }
    // The digits of the domain: (variable, weight in it, size, stride).
    let mut digits: Vec<(Var, i64, i64, i64, i64)> = Vec::new();
    let modes = tv.modes();
    for (group, var, total) in [(1usize, Var::Coord(0), threads), (0, Var::Coord(1), values)] {
        let mut weight = 1i64;
        for m in modes.iter().rev() {
            let top = m.path.indices().first().map_or(0, |i| usize::from(*i));
            if top != group {
                continue;
            }
            if m.size > 1 && m.stride != Stride::Broadcast {
                digits.push((var, weight, m.size, m.stride.value(), total));
            }
            weight = weight.saturating_mul(m.size);
        }
    }
    // Which mode each digit lies in, and the reach of each mode's sum.
    let mut reach = vec![0i64; rank];
    let mut owner: Vec<Option<(usize, i64)>> = Vec::new();
    for &(_, _, n, d, _) in &digits {
        let found = weights
            .iter()
            .zip(tile)
            .enumerate()
            .filter(|_| d > 0)
            .find_map(|(m, (&wm, &km))| {
                let e = d.checked_div(wm)?;
                (d.checked_rem(wm) == Some(0) && e < km).then_some((m, e))
            });
        owner.push(found);
        if let Some((m, e)) = found
            && let Some(r) = reach.get_mut(m)
        {
            *r = r.saturating_add(n.saturating_sub(1).saturating_mul(e));
        }
    }
    let separable =
        owner.iter().all(Option::is_some) && reach.iter().zip(tile).all(|(&r, &k)| r < k);
    let names = || {
        vec![
            String::from("thread"),
            String::from("value"),
            String::from("tile"),
        ]
    };
    let mut out = Vec::with_capacity(rank);
    for m in 0..rank {
        let (km, gm) = (tile[m], grid.get(m).copied().unwrap_or(1));
        let mut p = Program {
            names: names(),
            sizes: vec![threads, values, gm],
            lets: Vec::new(),
            result: Sum::default(),
        };
        if separable {
            for (&(x, wt, n, _, total), o) in digits.iter().zip(&owner) {
                if let Some((om, e)) = *o
                    && om == m
                {
                    p.result.terms.push((e, digit_term(x, wt, n, total)));
                }
            }
        } else {
            let mut l = Sum::default();
            for &(x, wt, n, d, total) in &digits {
                l.terms.push((d, digit_term(x, wt, n, total)));
            }
            p.lets.push(l);
            let t = Var::Temp(0);
            let term = match (m == 0, weights[m] == 1) {
                (true, true) => Term::Var(t),
                (true, false) => Term::Div(t, weights[m]),
                (false, true) => Term::Mod(t, km),
                (false, false) => Term::DivMod(t, weights[m], km),
            };
            p.result.terms.push((1, term));
        }
        p.result.terms.insert(0, (km, Term::Var(Var::Coord(2))));
        out.push(p);
    }
    Ok(out)
}

/// Whether a program reads coordinate `i`.
fn reads(lets: &[Sum], result: &Sum, i: usize) -> bool {
    lets.iter().chain(core::iter::once(result)).any(|s| {
        s.terms.iter().any(|(_, t)| {
            let v = match *t {
                Term::Var(v) | Term::Div(v, _) | Term::Mod(v, _) | Term::DivMod(v, _, _) => v,
                Term::Swizzle { x, .. } => x,
            };
            v == Var::Coord(i)
        })
    })
}

impl Partition<'_> {
    /// The number of threads `T` (the size of the domain's last top-level mode).
    #[must_use]
    pub fn threads(&self) -> i64 {
        self.threads
    }

    /// The number of values per thread (the size of the domain's first top-level mode).
    #[must_use]
    pub fn values(&self) -> i64 {
        self.values
    }

    /// The tiles partitioned.
    #[must_use]
    pub fn tiles(&self) -> &ResidueTiles {
        self.tiles
    }

    /// The global coordinate of each mode as a program of `(thread, value, tile)`, the tile
    /// index being that mode's: `k_m·tile + c_m`, `c_m` a weighted sum of the thread's and
    /// value's digits when the layout allows, else `(ℓ / W_m) mod k_m` of the logical index.
    #[must_use]
    pub fn coordinate_programs(&self) -> &[Program] {
        &self.coords
    }

    fn check_tv(&self, thread: i64, value: i64) -> Result<(), Error> {
        for (i, (v, n)) in [(thread, self.threads), (value, self.values)]
            .into_iter()
            .enumerate()
        {
            if !(0..n).contains(&v) {
                return Err(Error::CoordOutOfRange {
                    mode: ModePath::from_indices(&[usize::from(i == 0)])?,
                    value: v,
                    size: n,
                });
            }
        }
        Ok(())
    }

    /// The logical coordinate within the tile (per mode) that `thread`'s value `value` touches:
    /// CuTe's `make_identity_tensor(tile_shape)` partitioned by the same layout.
    ///
    /// # Errors
    /// [`Error::CoordOutOfRange`] for a thread or value outside the domain (mode 1 is the
    /// thread, mode 0 the value).
    pub fn coord(&self, thread: i64, value: i64) -> Result<Vec<i64>, Error> {
        self.check_tv(thread, value)?;
        self.coords
            .iter()
            .map(|p| p.eval(&[thread, value, 0]))
            .collect()
    }

    /// The global coordinate (per mode) that `thread`'s value `value` touches in tile `tile`.
    ///
    /// # Errors
    /// As [`Partition::coord`] and [`ResidueTiles::origin`].
    pub fn global(&self, tile: &[i64], thread: i64, value: i64) -> Result<Vec<i64>, Error> {
        let pos = self.coord(thread, value)?;
        self.tiles.global(tile, &pos)
    }

    /// The predicate of `thread`'s value `value` in tile `tile`: every global coordinate below
    /// its extent (CuTe's `elem_less`).
    ///
    /// # Errors
    /// As [`Partition::global`].
    pub fn predicate(&self, tile: &[i64], thread: i64, value: i64) -> Result<bool, Error> {
        let pos = self.coord(thread, value)?;
        self.tiles.predicate(tile, &pos)
    }

    /// The offset that `thread`'s value `value` in tile `tile` accesses, `None` where the
    /// predicate is false.
    ///
    /// # Errors
    /// As [`Partition::global`].
    pub fn offset(&self, tile: &[i64], thread: i64, value: i64) -> Result<Option<i64>, Error> {
        let pos = self.coord(thread, value)?;
        self.tiles.offset(tile, &pos)
    }

    /// The predicate as C (`cuda = false`) or CUDA in integer type `ty` (needs `<stdint.h>`):
    /// one function `NAME_coordM(thread, value, tile)` per mode `M` (seed order) giving the
    /// global coordinate, and `int NAME(thread, value, tile0, .., extent0, ..)` returning the
    /// conjunction of one compare per mode, `NAME_coordM(..) < extentM`. The extents are
    /// parameters (run-time sizes); the range check covers this grid's coordinates.
    ///
    /// # Errors
    /// As [`Program::check_range`] for a coordinate that does not fit `ty`.
    pub fn to_c(&self, name: &str, ty: IntType, cuda: bool) -> Result<String, Error> {
        let mut out = String::new();
        for (m, p) in self.coords.iter().enumerate() {
            out.push_str(&p.to_c(&format!("{name}_coord{m}"), ty, cuda)?);
            out.push('\n');
        }
        let t = ty.c();
        let qual = if cuda {
            "__host__ __device__ __forceinline__"
        } else {
            "static inline"
        };
        let rank = self.coords.len();
        let tiles: Vec<String> = (0..rank).map(|m| format!("{t} tile{m}")).collect();
        let extents: Vec<String> = (0..rank).map(|m| format!("{t} extent{m}")).collect();
        let _ = writeln!(
            out,
            "{qual} int {name}({t} thread, {t} value, {}, {}) {{",
            tiles.join(", "),
            extents.join(", ")
        );
        let compares: Vec<String> = (0..rank)
            .map(|m| format!("({name}_coord{m}(thread, value, tile{m}) < extent{m})"))
            .collect();
        let _ = writeln!(out, "    return {};\n}}", compares.join(" & "));
        Ok(out)
    }

    /// The predicate as Rust in integer type `ty`: as [`Partition::to_c`], `NAME` returning
    /// `bool` (the compares joined by `&&`).
    ///
    /// # Errors
    /// As [`Program::check_range`].
    pub fn to_rust(&self, name: &str, ty: IntType) -> Result<String, Error> {
        let mut out = String::new();
        for (m, p) in self.coords.iter().enumerate() {
            // A parameter the coordinate does not read is `_name`, as Rust asks.
            let mut p = p.clone();
            for (i, n) in p.names.iter_mut().enumerate() {
                if !reads(&p.lets, &p.result, i) {
                    n.insert(0, '_');
                }
            }
            out.push_str(&p.to_rust(&format!("{name}_coord{m}"), ty)?);
            out.push('\n');
        }
        let t = ty.rust();
        let rank = self.coords.len();
        let tiles: Vec<String> = (0..rank).map(|m| format!("tile{m}: {t}")).collect();
        let extents: Vec<String> = (0..rank).map(|m| format!("extent{m}: {t}")).collect();
        let _ = writeln!(
            out,
            "#[inline(always)]\npub fn {name}(thread: {t}, value: {t}, {}, {}) -> bool {{",
            tiles.join(", "),
            extents.join(", ")
        );
        let compares: Vec<String> = (0..rank)
            .map(|m| format!("{name}_coord{m}(thread, value, tile{m}) < extent{m}"))
            .collect();
        let _ = writeln!(out, "    {}\n}}", compares.join(" && "));
        Ok(out)
    }
}

//! Tiled copies: CuTe's `make_tiled_copy`, the partition of a tensor among its threads
//! (`partition_S` / `partition_D`), and the vector width each thread's values move in.
//!
//! A tiled copy is built from a **thread layout** (a thread's grid coordinate in the copy's
//! tile -> its thread index), a **value layout** (a thread's values -> their index) and the
//! atom's **vector** width (elements one instruction moves: 8 halves for a 128-bit
//! `cp.async`). Its tile has, mode by mode, the thread layout's size times the value layout's;
//! the values of a thread are consecutive along each mode (CuTe's `raked_product`). All layouts
//! are in seed order (the last mode fastest); [`Layout::from_cute`] reads CuTe's.
//!
//! ```
//! use layout_core::copy::{Storage, TiledCopy};
//! use layout_core::{Annotated, Layout, Map, Space};
//! // sgemm_sm80's gmem -> smem copy: Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>,
//! // thr Layout<Shape<_16,_8>, Stride<_8,_1>>, val Layout<Shape<_1,_8>>.
//! let copy = TiledCopy::new(
//!     &Layout::from_cute("(16,8):(8,1)")?,
//!     &Layout::from_cute("(1,8):(1,1)")?,
//!     8,
//! )?;
//! assert_eq!(copy.tile(), &[64, 16]); // CuTe's Tiler_MN (16, 64), reversed
//! // (value, thread) -> logical; thread 9 is grid (1, 1): row 1, columns 8..16.
//! assert_eq!(copy.tv().layout().to_string(), "(value:8,thread:(16,8)):(16,(1,128))");
//! assert_eq!(copy.tv().layout().eval_index(3 * 128 + 9)?, 1 + 16 * (8 + 3));
//! // partition_S of a 128×64 row-major tile with leading dimension 200 (run-time in CuTe).
//! let gmem: Map = Annotated::new(Layout::from_cute("(128,64):(200,1)")?, Space::Logical, Space::Physical)?.into();
//! let part = copy.partition(&gmem)?;
//! let thread9 = part.restrict_named(&[("thread", 9)])?;
//! // ((8,1),8,1) in CuTe: value 3 of the second 16-row block (rest m = 1).
//! assert_eq!(thread9.eval_index(3 + 8 * 1)?, (16 + 1) * 200 + 8 + 3);
//! // Every thread's 8 values are one aligned 128-bit vector in both storages.
//! let smem: Map = Annotated::new(Layout::from_cute("(128,64):(64,1)")?, Space::Logical, Space::Physical)?.into();
//! assert_eq!(copy.max_vector(Storage::new(&gmem), Storage::new(&smem))?, 8);
//! // A leading dimension of 100 halves keeps the vectors contiguous, not aligned to 8.
//! let odd: Map = Annotated::new(Layout::from_cute("(128,64):(100,1)")?, Space::Logical, Space::Physical)?.into();
//! assert_eq!(copy.max_vector(Storage::new(&odd), Storage::new(&smem))?, 4);
//! let e = copy.check_vector(Storage::new(&odd), Storage::new(&smem)).unwrap_err();
//! assert_eq!(e.rule(), "copy-vector-aligned");
//! # Ok::<(), layout_core::Error>(())
//! ```

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::dense::check_dense_bijection;
use crate::error::{Error, ModePath, Quantity};
use crate::layout::Layout;
use crate::map::{Annotated, Map, compose};
use crate::space::Space;
use crate::swizzle::Swizzle;
use crate::tree::{Stride, Tree};

/// Which storage of a copy a vector rule is about.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CopySide {
    /// The storage read (CuTe's `partition_S`).
    Source,
    /// The storage written (CuTe's `partition_D`).
    Destination,
}

impl core::fmt::Display for CopySide {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            CopySide::Source => "source",
            CopySide::Destination => "destination",
        })
    }
}

/// One storage of a copy: a `logical -> physical` map and the offset (elements) of its first
/// element from an address aligned for every vector, as CuTe's `make_tensor(ptr + base, L)`.
#[derive(Clone, Copy, Debug)]
pub struct Storage<'a> {
    /// The map, `logical -> physical` (a layout with run-time leading dimensions, a swizzle, a
    /// restriction such as a `local_tile`).
    pub map: &'a Map,
    /// The offset of the map's offset 0 from an aligned address, in elements.
    pub base: i64,
}

impl<'a> Storage<'a> {
    /// A storage whose offset 0 is aligned.
    #[must_use]
    pub const fn new(map: &'a Map) -> Storage<'a> {
        Storage { map, base: 0 }
    }

    /// The same storage starting `base` elements past an aligned address.
    #[must_use]
    pub const fn with_base(self, base: i64) -> Storage<'a> {
        Storage { base, ..self }
    }
}

/// A leaf of the copy's tile: which mode of the tile it moves along (seed order), its size,
/// its weight inside that mode (the tile coordinate it adds per step) and its stride into the
/// `(thread, value)` index of CuTe's `raked_product(thr, val)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TileLeaf {
    mode: usize,
    size: i64,
    weight: i64,
    index_stride: i64,
}

/// CuTe's `make_tiled_copy(Copy_Atom, thr_layout, val_layout)`: a thread-value layout over the
/// copy's tile, and the partitions of tensors among its threads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledCopy {
    threads: i64,
    values: i64,
    vector: i64,
    tile: Vec<i64>,
    /// Value leaves, then thread leaves, each slowest first (seed order).
    value_leaves: Vec<TileLeaf>,
    thread_leaves: Vec<TileLeaf>,
    tv: Annotated,
}

fn overflow() -> Error {
    Error::Overflow {
        mode: ModePath::ROOT,
        what: Quantity::Positions,
    }
}

/// The leaves of top-level mode `k` of `l` (all of them for a rank-1 layout), seed order.
fn mode_leaves(l: &Layout, k: usize) -> Vec<(i64, Stride)> {
    l.modes()
        .into_iter()
        .filter(|m| l.rank() == 1 || m.path.indices().first().map(|&i| usize::from(i)) == Some(k))
        .map(|m| (m.size, m.stride))
        .collect()
}

/// Merges neighbouring leaves `(n_b, n_a):(d_b, d_a)` with `d_b = n_a·d_a` (seed order, slowest
/// first) and builds the mode's trees; an empty mode is `1:1`.
fn mode_tree(leaves: &[(i64, i64)]) -> (Tree<i64>, Tree<Stride>) {
    let mut merged: Vec<(i64, i64)> = Vec::new();
    for &(n, d) in leaves.iter().rev() {
        if let Some(last) = merged.last_mut()
            && last.0.checked_mul(last.1) == Some(d)
            && let Some(size) = last.0.checked_mul(n)
        {
            last.0 = size;
            continue;
        }
        merged.push((n, d));
    }
    merged.reverse();
    match merged.as_slice() {
        [] => (Tree::Leaf(1), Tree::Leaf(Stride::Int(1))),
        [(n, d)] => (Tree::Leaf(*n), Tree::Leaf(Stride::Int(*d))),
        more => (
            Tree::Tuple(more.iter().map(|l| Tree::Leaf(l.0)).collect()),
            Tree::Tuple(more.iter().map(|l| Tree::Leaf(Stride::Int(l.1))).collect()),
        ),
    }
}

/// The weights of the top-level modes of a shape with these sizes (seed order: the last is 1).
fn mode_weights(sizes: &[i64]) -> Result<Vec<i64>, Error> {
    let mut w = vec![1i64; sizes.len()];
    let mut acc = 1i64;
    for k in (0..sizes.len()).rev() {
        w[k] = acc;
        acc = acc.checked_mul(sizes[k]).ok_or_else(overflow)?;
    }
    Ok(w)
}

/// The shapes and strides of the value and thread modes.
type ModeTrees = ([Tree<i64>; 2], [Tree<Stride>; 2]);

/// The value and thread modes over a tensor whose tile modes have these weights.
fn value_thread_trees(
    value_leaves: &[TileLeaf],
    thread_leaves: &[TileLeaf],
    weights: &[i64],
) -> Result<ModeTrees, Error> {
    let mut shapes = [Tree::Leaf(1), Tree::Leaf(1)];
    let mut strides = [Tree::Leaf(Stride::Int(1)), Tree::Leaf(Stride::Int(1))];
    for (g, group) in [value_leaves, thread_leaves].into_iter().enumerate() {
        let mut list = Vec::with_capacity(group.len());
        for l in group {
            let w = weights.get(l.mode).copied().unwrap_or(1);
            list.push((l.size, l.weight.checked_mul(w).ok_or_else(overflow)?));
        }
        let (s, d) = mode_tree(&list);
        shapes[g] = s;
        strides[g] = d;
    }
    Ok((shapes, strides))
}

impl TiledCopy {
    /// CuTe's `make_tiled_copy(Copy_Atom<OP, T>{}, thr, val)`, in seed order.
    ///
    /// `thr` maps a thread's coordinate in the thread grid to its thread index, `val` a value's
    /// coordinate to its value index; both are dense bijections, paired mode by mode (top-level
    /// modes; the one of lower rank gets modes of size 1 after its last CuTe mode, as CuTe's
    /// `raked_product` pads it: CuTe's default value layout `Layout<_1>` is `1:1`). `vector` is the atom's width in elements (CuTe's `NumValSrc`: 8 for
    /// `SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>` on `half_t`, 1 for `UniversalCopy<T>`), and
    /// divides the values per thread.
    ///
    /// The copy's tile has, mode by mode, size `size(thr_i)·size(val_i)`; the position of
    /// thread `t`'s value `v` is, in each mode, `val_i(v)`'s coordinate plus `size(val_i)` times
    /// `thr_i(t)`'s (CuTe's `raked_product(thr, val)`, whose right inverse is the thread-value
    /// layout [`TiledCopy::tv`]).
    ///
    /// # Errors
    /// [`Error::NotDense`] / [`Error::BroadcastNotDense`] when `thr` or `val` is not a dense
    /// bijection; [`Error::CopyVector`] when
    /// `vector` is not a positive divisor of `size(val)`; [`Error::Overflow`] when the tile's
    /// size does not fit `i64`.
    pub fn new(thr: &Layout, val: &Layout, vector: i64) -> Result<TiledCopy, Error> {
        check_dense_bijection(thr)?;
        check_dense_bijection(val)?;
        // CuTe's raked_product pads the layout of lower rank with modes of size 1, last in
        // CuTe order: first in seed order.
        let rank = thr.rank().max(val.rank());
        let mode_of = |l: &Layout, k: usize| match k.checked_sub(rank.saturating_sub(l.rank())) {
            Some(j) => mode_leaves(l, j),
            None => Vec::new(),
        };
        let threads = thr.size();
        let values = val.size();
        if vector < 1 || values.checked_rem(vector) != Some(0) {
            return Err(Error::CopyVector { vector, values });
        }
        threads.checked_mul(values).ok_or_else(overflow)?;
        let mut tile = Vec::with_capacity(rank);
        let mut leaves: Vec<(bool, TileLeaf)> = Vec::new();
        for k in 0..rank {
            let t = mode_of(thr, k);
            let v = mode_of(val, k);
            // Dense bijections: their sizes multiply to at most the layout's size.
            let v_size: i64 = v.iter().map(|l| l.0).product();
            let t_size: i64 = t.iter().map(|l| l.0).product();
            tile.push(t_size.checked_mul(v_size).ok_or_else(overflow)?);
            for (is_thread, list, scale, index_scale) in
                [(false, &v, 1, threads), (true, &t, v_size, 1)]
            {
                let mut w = scale;
                for &(n, d) in list.iter().rev() {
                    if n > 1 {
                        let Stride::Int(d) = d else {
                            // A dense bijection has no broadcast leaf of size > 1.
                            continue;
                        };
                        leaves.push((
                            is_thread,
                            TileLeaf {
                                mode: k,
                                size: n,
                                weight: w,
                                index_stride: d.checked_mul(index_scale).ok_or_else(overflow)?,
                            },
                        ));
                    }
                    w = w.checked_mul(n).ok_or_else(overflow)?;
                }
            }
        }
        // Sorted by their stride into the (thread, value) index, slowest first.
        leaves.sort_by_key(|(_, l)| core::cmp::Reverse(l.index_stride));
        let value_leaves: Vec<TileLeaf> =
            leaves.iter().filter(|(t, _)| !t).map(|(_, l)| *l).collect();
        let thread_leaves: Vec<TileLeaf> =
            leaves.iter().filter(|(t, _)| *t).map(|(_, l)| *l).collect();
        let weights = mode_weights(&tile)?;
        let ([value, thread], [value_d, thread_d]) =
            value_thread_trees(&value_leaves, &thread_leaves, &weights)?;
        let tv = Layout::new(
            Tree::Tuple(vec![value, thread]),
            Tree::Tuple(vec![value_d, thread_d]),
        )?
        .with_names(vec![
            Some(String::from("value")),
            Some(String::from("thread")),
        ])?;
        let tv = Annotated::new(tv, Space::ThreadValue, Space::Logical)?
            .with_tiles(None, Some(tile.clone()))?;
        Ok(TiledCopy {
            threads,
            values,
            vector,
            tile,
            value_leaves,
            thread_leaves,
            tv,
        })
    }

    /// The thread-value layout, `(value, thread) -> logical` over the copy's tile (CuTe's
    /// `TiledLayout_TV`), a dense bijection with two top-level modes named `value` and
    /// `thread`: the flat index of `thread` is CuTe's thread index, that of `value` CuTe's value
    /// index, and the flat index `v·threads + t` is CuTe's integral `(t, v)`. Its codomain tile
    /// is [`TiledCopy::tile`].
    #[must_use]
    pub fn tv(&self) -> &Annotated {
        &self.tv
    }

    /// The copy's tile shape in seed order (CuTe's `Tiler_MN` reversed): per mode, the thread
    /// layout's size times the value layout's.
    #[must_use]
    pub fn tile(&self) -> &[i64] {
        &self.tile
    }

    /// Number of threads (`size(thr)`).
    #[must_use]
    pub fn threads(&self) -> i64 {
        self.threads
    }

    /// Values per thread in one tile (`size(val)`).
    #[must_use]
    pub fn values(&self) -> i64 {
        self.values
    }

    /// The atom's vector width in elements.
    #[must_use]
    pub fn vector(&self) -> i64 {
        self.vector
    }

    /// The layout `(rest_0, …, rest_{r-1}, value, thread) -> logical` over a tensor whose
    /// top-level modes have these sizes (seed order), each a multiple of the tile's.
    fn partition_layout(&self, dims: &[i64]) -> Result<Layout, Error> {
        let rank = self.tile.len();
        // CuTe's extra modes (a pipeline's stages) come first in seed order; the tile does not
        // cut them (tile 1), and they are rest modes of the partition.
        let Some(extra) = dims.len().checked_sub(rank) else {
            return Err(Error::TileRank {
                rank: dims.len(),
                tile: rank,
            });
        };
        let mut tile = vec![1i64; extra];
        tile.extend_from_slice(&self.tile);
        for (k, (&n, &t)) in dims.iter().zip(&tile).enumerate() {
            if n.checked_rem(t) != Some(0) {
                return Err(Error::NotDivisible {
                    mode: ModePath::from_indices(&[k])?,
                    size: n,
                    tile: t,
                });
            }
        }
        let weights = mode_weights(dims)?;
        let ([value, thread], [value_d, thread_d]) =
            value_thread_trees(&self.value_leaves, &self.thread_leaves, &weights[extra..])?;
        let mut shape = Vec::with_capacity(dims.len().saturating_add(2));
        let mut stride = Vec::with_capacity(dims.len().saturating_add(2));
        for k in 0..dims.len() {
            // dims[k] is a positive multiple of tile[k].
            shape.push(Tree::Leaf(dims[k].checked_div(tile[k]).unwrap_or(1)));
            stride.push(Tree::Leaf(Stride::Int(
                tile[k].checked_mul(weights[k]).ok_or_else(overflow)?,
            )));
        }
        shape.extend([value, thread]);
        stride.extend([value_d, thread_d]);
        let mut names = vec![None; dims.len()];
        names.extend([Some(String::from("value")), Some(String::from("thread"))]);
        Layout::new(Tree::Tuple(shape), Tree::Tuple(stride))?.with_names(names)
    }

    /// The thread-value layout of the copy repeated over a tensor of these top-level mode sizes
    /// (seed order, each a multiple of [`TiledCopy::tile`]'s, extra leading modes such as stages
    /// kept whole): `(value, thread) -> logical` over the tensor's positions (seed order, last
    /// mode fastest; CuTe's `m + M·n`), where `value` is the entry `(rest…, value)` whose flat
    /// index is CuTe's flat index of `partition_S`'s `(CPY, CPY_M, CPY_N)`. It is
    /// [`TiledCopy::partition`]'s right operand with its rest entries grouped into the value, a
    /// dense bijection: the form that [`crate::residue::ResidueTiles::partition`] takes to
    /// predicate a copy of a residue tile.
    ///
    /// # Errors
    /// As [`TiledCopy::partition`].
    pub fn tv_over(&self, dims: &[i64]) -> Result<Layout, Error> {
        let p = self.partition_layout(dims)?;
        let rank = p.rank();
        let grouped = crate::ops::group(&p, 0, rank.saturating_sub(1))?;
        grouped.with_names(vec![
            Some(String::from("value")),
            Some(String::from("thread")),
        ])
    }

    /// The sizes of the top-level modes of a storage map's domain: the entries of its shape (the
    /// one free entry's entries for a restriction such as a `local_tile`).
    fn storage_dims(storage: &Map) -> Vec<i64> {
        match storage.domain_shape() {
            Tree::Leaf(n) => vec![n],
            Tree::Tuple(v) => v.iter().map(|t| t.leaves().into_iter().product()).collect(),
        }
    }

    /// CuTe's `partition_S` / `partition_D` of a tensor by every thread at once:
    /// `storage ∘ P`, where `P : (rest_0, …, rest_{r-1}, value, thread) -> logical` (seed
    /// order) places thread `thread`'s value `value` of the copy's tile number `rest` (the
    /// tiled copy repeated over a tensor larger than its tile, CuTe's `(CPY_M, CPY_N)` modes).
    ///
    /// `storage` is `logical -> physical` (a layout, with run-time leading dimensions, a
    /// swizzle, a restriction such as a `local_tile`) over a tensor whose top-level modes (the
    /// free entry's for a restriction) are, mode by mode, multiples of [`TiledCopy::tile`]. A
    /// tensor of higher rank has CuTe's extra modes (a pipeline's stages, last in CuTe order,
    /// first in seed order) as rest modes of their own, not cut by the tile, as CuTe's
    /// `partition_S` keeps them: `(_, CPY_M, CPY_N, PIPE)` in CuTe order.
    /// Restricting `thread = t` (`restrict_named(&[("thread", t)])`) gives CuTe's
    /// `get_slice(t).partition_S(tensor)`: its domain is `(rest…, value)` and its flat index is
    /// the flat index of CuTe's `((CPY_V…), CPY_M, CPY_N)`.
    ///
    /// # Errors
    /// [`Error::TileRank`] when the tensor's rank is below the tile's, [`Error::NotDivisible`] when
    /// a mode's size is not a multiple of the tile's, [`Error::Overflow`], and the errors of
    /// [`compose`] (a storage that is not `logical -> …`).
    pub fn partition(&self, storage: &Map) -> Result<Map, Error> {
        let p = self.partition_layout(&Self::storage_dims(storage))?;
        compose(
            storage,
            &Annotated::new(p, Space::ThreadValue, Space::Logical)?.into(),
        )
    }

    /// One thread's partition, CuTe's `get_slice(thread).partition_S(storage)`:
    /// [`TiledCopy::partition`] restricted at `thread`, domain `(rest…, value)`.
    ///
    /// # Errors
    /// As [`TiledCopy::partition`]; [`Error::CoordOutOfRange`] for a thread outside
    /// `[0, threads)`; [`Error::RestrictNotPhysical`] for a storage not into physical.
    pub fn partition_thread(&self, storage: &Map, thread: i64) -> Result<Map, Error> {
        self.partition(storage)?
            .restrict_named(&[("thread", thread)])
    }

    /// The layout `((rest…, value), thread) -> logical` of the copy over `storage`'s tensor, for
    /// [`crate::banks::copy_conflicts`]: the value mode's flat index is a thread's partition index.
    pub(crate) fn access_layout(&self, storage: &Map) -> Result<Layout, Error> {
        let p = self.partition_layout(&Self::storage_dims(storage))?;
        let (Tree::Tuple(mut shape), Tree::Tuple(mut stride)) =
            (p.shape().clone(), p.stride().clone())
        else {
            return Ok(p);
        };
        let thread = (shape.pop(), stride.pop());
        let (Some(ts), Some(td)) = thread else {
            return Ok(p);
        };
        Layout::new(
            Tree::Tuple(vec![Tree::Tuple(shape), ts]),
            Tree::Tuple(vec![Tree::Tuple(stride), td]),
        )
    }

    /// Every offset of `storage`'s partition, at flat index `value·threads + thread`.
    fn offsets(&self, storage: &Map) -> Result<Vec<i64>, Error> {
        let part = self.partition(storage)?;
        (0..part.size()).map(|i| part.eval_index(i)).collect()
    }

    /// The first value (of `width` consecutive values of one thread) that breaks the vector rules
    /// on one side: contiguous offsets, the first a multiple of `width` after `base`.
    /// `offsets` holds every offset of the partition, at `value·threads + thread`.
    fn vector_error(
        &self,
        offsets: &[i64],
        side: CopySide,
        base: i64,
        width: i64,
    ) -> Option<Error> {
        let threads = self.threads;
        let per_thread = i64::try_from(offsets.len()).ok()?.checked_div(threads)?;
        let at = |thread: i64, value: i64| -> Option<i64> {
            let i = usize::try_from(value.checked_mul(threads)?.checked_add(thread)?).ok()?;
            offsets.get(i).copied()
        };
        for thread in 0..threads {
            let mut first = 0i64;
            while first < per_thread {
                let o0 = at(thread, first)?;
                let aligned = i128::from(o0).checked_add(i128::from(base))?;
                if aligned.rem_euclid(i128::from(width)) != 0 {
                    return Some(Error::CopyVectorAligned {
                        side,
                        thread,
                        value: first,
                        offset: o0,
                        base,
                        width,
                    });
                }
                for k in 1..width {
                    let value = first.checked_add(k)?;
                    let o = at(thread, value)?;
                    let expected = o0.checked_add(k)?;
                    if o != expected {
                        return Some(Error::CopyVectorContiguous {
                            side,
                            thread,
                            value,
                            offset: o,
                            expected,
                        });
                    }
                }
                first = first.checked_add(width)?;
            }
        }
        None
    }

    /// Checks that the atom's vector ([`TiledCopy::vector`]) is legal between two storages: see
    /// [`TiledCopy::check_vector_width`].
    ///
    /// # Errors
    /// As [`TiledCopy::check_vector_width`].
    pub fn check_vector(&self, src: Storage<'_>, dst: Storage<'_>) -> Result<(), Error> {
        self.check_vector_width(src, dst, self.vector)
    }

    /// Checks that every thread can move its values `width` at a time between two storages:
    /// `width` divides the atom's vector, and for every thread, every group of `width`
    /// consecutive values of its partition (values `k·width ..` of
    /// [`TiledCopy::partition_thread`], over every repeat of the tile) lies at consecutive
    /// offsets in each storage, the first at an offset that, plus the storage's base, is a
    /// multiple of `width` (the vector's alignment). Source first, then destination; threads
    /// and values in order. Costs one evaluation per element of each tensor.
    ///
    /// # Errors
    /// [`Error::CopyVector`] when `width` is not a positive divisor of the atom's vector;
    /// [`Error::CopyVectorAligned`] / [`Error::CopyVectorContiguous`] naming the side, thread,
    /// value and offsets of the first vector that breaks a rule; the errors of
    /// [`TiledCopy::partition`] and of evaluating the storages.
    pub fn check_vector_width(
        &self,
        src: Storage<'_>,
        dst: Storage<'_>,
        width: i64,
    ) -> Result<(), Error> {
        if width < 1 || self.vector.checked_rem(width) != Some(0) {
            return Err(Error::CopyVector {
                vector: width,
                values: self.vector,
            });
        }
        for (side, s) in [(CopySide::Source, src), (CopySide::Destination, dst)] {
            let offsets = self.offsets(s.map)?;
            if let Some(e) = self.vector_error(&offsets, side, s.base, width) {
                return Err(e);
            }
        }
        Ok(())
    }

    /// The largest vector the copy can move between two storages: the largest divisor `w` of
    /// the atom's vector for which [`TiledCopy::check_vector_width`] passes (at least 1: one
    /// element is always a vector). For every thread this is at most the common vector of its
    /// source and destination values, capped by the atom.
    ///
    /// # Errors
    /// The errors of [`TiledCopy::partition`] and of evaluating the storages.
    pub fn max_vector(&self, src: Storage<'_>, dst: Storage<'_>) -> Result<i64, Error> {
        let s = self.offsets(src.map)?;
        let d = self.offsets(dst.map)?;
        let mut w = self.vector;
        while w > 1 {
            if self.vector.checked_rem(w) == Some(0)
                && self
                    .vector_error(&s, CopySide::Source, src.base, w)
                    .is_none()
                && self
                    .vector_error(&d, CopySide::Destination, dst.base, w)
                    .is_none()
            {
                return Ok(w);
            }
            w = w.saturating_sub(1);
        }
        Ok(1)
    }
}

/// A map as a swizzle (if any) after a layout.
fn swizzle_and_layout(m: &Map) -> Option<(Option<Swizzle>, &Layout)> {
    match m {
        Map::Layout(a) => Some((None, a.layout())),
        Map::Swizzled { swizzle, inner } => match inner.as_ref() {
            Map::Layout(a) => Some((Some(*swizzle), a.layout())),
            _ => None,
        },
        _ => None,
    }
}

/// CuTe's `right_inverse` of a layout, restricted to its contiguous prefix: the flat index
/// reaching each offset `0 .. P`, as the leaves that build it (size, weight in the flat index),
/// fastest first. Leaves are taken by stride 1, then the running product; `_` leaves and
/// leaves of size 1 are skipped (CuTe's `filter`).
fn right_inverse_leaves(l: &Layout) -> Result<Vec<(i64, i64)>, Error> {
    let modes = l.modes();
    let mut weights = vec![1i64; modes.len()];
    let mut acc = 1i64;
    for (i, m) in modes.iter().enumerate().rev() {
        weights[i] = acc;
        acc = acc.checked_mul(m.size).ok_or_else(overflow)?;
    }
    let mut used = vec![false; modes.len()];
    let mut out = Vec::new();
    let mut next = 1i64;
    loop {
        let found = modes
            .iter()
            .enumerate()
            .find(|(i, m)| !used[*i] && m.size > 1 && m.stride == Stride::Int(next));
        let Some((i, m)) = found else {
            break;
        };
        used[i] = true;
        out.push((m.size, weights[i]));
        next = next.checked_mul(m.size).ok_or_else(overflow)?;
    }
    Ok(out)
}

/// The flat index that a right inverse built by [`right_inverse_leaves`] gives offset `n`, or
/// `None` past the contiguous prefix.
fn inverse_at(leaves: &[(i64, i64)], mut n: i64) -> Option<i64> {
    let mut flat = 0i64;
    for &(size, weight) in leaves {
        let digit = n.checked_rem(size)?;
        n = n.checked_div(size)?;
        flat = flat.checked_add(digit.checked_mul(weight)?)?;
    }
    (n == 0).then_some(flat)
}

/// CuTe's `max_common_vector(a, b)`: the number of consecutive offsets `0, 1, …, N-1` that `b`
/// reaches (through its right inverse) at logical positions where `a` reaches the same offsets.
///
/// CuTe defines it as the size of the first mode of `coalesce(composition(a, right_inverse(b)))`
/// when that mode's stride is the static 1, else 1: `N` is then the largest with
/// `a(b⁻¹(n)) = n` for every `n < N`, `b⁻¹` taking the smallest stride first and coordinate 0
/// on `_` (stride-0) modes. Here `N` is computed by evaluating exactly that; it is at least 1
/// (one element is always a vector) and at most the size. Where we differ:
///
/// - CuTe answers 1 as soon as the shape or the stride is dynamic (a run-time leading
///   dimension); the values here are always known, so the answer is the same as with the
///   static values.
/// - With a swizzle on either side (`σ ∘ L`), CuTe answers the common vector of the layouts
///   without the swizzles, capped by `2^M` (no cap when both swizzles are the same); here the
///   swizzles are applied (`b⁻¹(n) = L_b⁻¹(σ_b(n))`), so the answer is exact: at least
///   CuTe's when the swizzle keeps `[0, 2^M)` in place, larger where the swizzle also keeps
///   larger blocks, smaller where the two swizzles disagree inside CuTe's cap.
///
/// `a` and `b` are maps over the same logical positions. Offsets count from each map's offset
/// at position 0: 0 for a layout or a swizzled layout; for a restriction (a thread's partition,
/// a `local_tile`) its base, which CuTe keeps in the tensor's pointer and not in its layout. A
/// layout or a swizzled layout `b` is inverted without enumeration (`a` is evaluated `N + 1`
/// times); any other `b` (a composite, a restriction) is enumerated once, up to
/// [`COMMON_VECTOR_LIMIT`] positions, the smallest flat index reaching an offset inverting it.
///
/// ```
/// use layout_core::{copy::max_common_vector, Annotated, Layout, Map, Space, Swizzle, SwizzleUnit};
/// let map = |cute: &str| -> Result<Map, layout_core::Error> {
///     Ok(Annotated::new(Layout::from_cute(cute)?, Space::Logical, Space::Physical)?.into())
/// };
/// // A row-major 8×64 tile and a column-major one share no vector; two row-major ones, all.
/// assert_eq!(max_common_vector(&map("(8,64):(64,1)")?, &map("(8,64):(1,8)")?)?, 1);
/// assert_eq!(max_common_vector(&map("(8,64):(64,1)")?, &map("(8,64):(64,1)")?)?, 512);
/// // Swizzle<3,3,3> keeps 8 consecutive elements together, and offsets below 64 in place.
/// let sw = map("(8,64):(64,1)")?.swizzle(Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements)?)?;
/// assert_eq!(max_common_vector(&sw, &map("(8,64):(64,1)")?)?, 64);
/// // Row 3 of a row-major tile with leading dimension 72 against the 8×64 rows: 64, from its base.
/// let row3 = map("(8,64):(72,1)")?.restrict(&[(1, 3)])?;
/// let plain_row = map("(8,64):(64,1)")?.restrict(&[(1, 3)])?;
/// assert_eq!(max_common_vector(&row3, &plain_row)?, 64);
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::CommonVectorSize`] when the sizes differ; [`Error::CommonVectorTooLarge`] for a
/// `b` to enumerate past [`COMMON_VECTOR_LIMIT`] positions; evaluation errors
/// ([`Error::Overflow`]).
pub fn max_common_vector(a: &Map, b: &Map) -> Result<i64, Error> {
    if a.size() != b.size() {
        return Err(Error::CommonVectorSize {
            a: a.size(),
            b: b.size(),
        });
    }
    let size = a.size();
    let offset_overflow = || Error::Overflow {
        mode: ModePath::ROOT,
        what: Quantity::Offset,
    };
    let a0 = a.eval_index(0)?;
    let inverse: Inverse = match swizzle_and_layout(b) {
        Some((sb, lb)) => Inverse::Layout(sb, right_inverse_leaves(lb)?),
        None => {
            if size > COMMON_VECTOR_LIMIT {
                return Err(Error::CommonVectorTooLarge {
                    size,
                    limit: COMMON_VECTOR_LIMIT,
                });
            }
            let b0 = b.eval_index(0)?;
            // size ≤ COMMON_VECTOR_LIMIT: an index of the table.
            let mut first = vec![-1i64; usize::try_from(size).unwrap_or(0)];
            for i in 0..size {
                let o = b
                    .eval_index(i)?
                    .checked_sub(b0)
                    .ok_or_else(offset_overflow)?;
                if let Some(slot) = usize::try_from(o).ok().and_then(|o| first.get_mut(o))
                    && *slot < 0
                {
                    *slot = i;
                }
            }
            Inverse::Table(first)
        }
    };
    let mut n = 0i64;
    while n < size {
        let flat = match &inverse {
            Inverse::Layout(sb, leaves) => inverse_at(leaves, sb.map_or(n, |s| s.apply(n))),
            Inverse::Table(t) => usize::try_from(n)
                .ok()
                .and_then(|i| t.get(i))
                .copied()
                .filter(|&i| i >= 0),
        };
        let Some(flat) = flat else {
            break;
        };
        let off = a
            .eval_index(flat)?
            .checked_sub(a0)
            .ok_or_else(offset_overflow)?;
        if off != n {
            break;
        }
        n = n.saturating_add(1);
    }
    Ok(n.max(1))
}

/// The most positions [`max_common_vector`] enumerates to invert a map that is neither a
/// layout nor a swizzled layout.
pub const COMMON_VECTOR_LIMIT: i64 = 1 << 22;

/// `b⁻¹` of [`max_common_vector`]: a swizzle and a layout's right inverse, or a table.
enum Inverse {
    Layout(Option<Swizzle>, Vec<(i64, i64)>),
    Table(Vec<i64>),
}

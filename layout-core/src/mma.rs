//! A CTA's tiled MMA and the copies that feed it: CuTe's `make_tiled_mma` with identity
//! permutations, its partitions of A, B and C, and `make_tiled_copy_A/B` with `retile`, as
//! checked thread-value layouts.
//!
//! Every layout here has the domain `(value: .., thread: ..)` in seed order: two named top-level
//! entries, so that [`Map::restrict_named`] with `thread = t` fixes one thread. The thread
//! entry's flat index is CuTe's thread index (`threadIdx.x`: the lane fastest, then the warps in
//! the order of CuTe's `AtomLayoutMNK`, M before N); the value entry's flat index is the index of
//! CuTe's fragment (`partition_C`: `(FrgV, RestM, RestN)`, first mode fastest).
//!
//! A map into logical must be a dense bijection, and an operand that several warps read is not
//! one: the warps along N all read the same A. So [`TiledMma::a`] maps onto a **replicated** tile,
//! `copies × (K, M)` in seed order (copy index slowest), whose copy index is the warp's N
//! coordinate; a storage map of the `(K, M)` tile is repeated by [`crate::broadcast`] over the
//! copies (the same addresses, read-only), and the composite is the thread-value -> physical
//! partition. [`TiledMma::partition_a`] does both steps.
//!
//! An atom that reads A or B whole for every thread (GMMA's `_SS` operands, which `wgmma` reads
//! from shared memory; [`MmaAtom::is_broadcast`]) replicates the tile once more per thread of
//! the atom: each thread maps onto its own copy ([`TiledMma::copies`]), and the partition is
//! the same offsets for every thread of a warpgroup, a read-only broadcast of the storage.
//!
//! ```
//! use layout_core::mma::{MmaAtom, TiledMma};
//! use layout_core::{Annotated, Layout, Map, Space};
//!
//! // SM80_16x8x16_F16F16F16F16_TN, CuTe's ALayout, BLayout, CLayout.
//! let atom = MmaAtom::new(
//!     [16, 8, 16],
//!     Layout::from_cute("((4,8),(2,2,2)):((32,1),(16,8,128))")?,
//!     Layout::from_cute("((4,8),(2,2)):((16,1),(8,64))")?,
//!     Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))")?,
//! )?;
//! // 2×2 warps, a CTA tile of 128×128×64 (sgemm_sm80's hgemm).
//! let mma = TiledMma::new(atom, [2, 2, 1], [128, 128, 64])?;
//! assert_eq!(mma.threads(), 128);
//! // C stored column-major over the 128×128 tile (seed: logical(N, M)).
//! let gc: Map = Annotated::new("(128,128):(128,1)".parse()?, Space::Logical, Space::Physical)?
//!     .with_tiles(Some(vec![128, 128]), None)?
//!     .into();
//! let tc = mma.partition_c(&gc)?.restrict_named(&[("thread", 37)])?;
//! // Lane 5 of warp (1, 0) (M warp 1): row 16 + 1, columns 2 and 3 (its first two values).
//! assert_eq!(tc.eval_index(0)?, 17 + 128 * 2);
//! assert_eq!(tc.eval_index(1)?, 17 + 128 * 3);
//! # Ok::<(), layout_core::Error>(())
//! ```

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use crate::error::Error;
use crate::layout::Layout;
use crate::map::{Annotated, Map, compose};
use crate::space::Space;
use crate::tree::{Stride, Tree};

/// One operand of an MMA: A (M×K), B (N×K) or C (M×N).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The M×K operand.
    A,
    /// The N×K operand.
    B,
    /// The M×N accumulator.
    C,
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operand::A => "A",
            Operand::B => "B",
            Operand::C => "C",
        })
    }
}

/// A warp-level MMA instruction: its M×N×K shape and the thread-value layouts of its three
/// operands (CuTe's `MMA_Traits`: `ALayout`, `BLayout`, `CLayout`, with `ThrID` the identity).
///
/// Each layout is in seed order, domain `(value, thread)` (CuTe's `(thread, value)` reversed:
/// [`Layout::from_cute`] reads CuTe's text), a dense bijection onto its tile's positions in
/// elements: A onto `m + M·k`, B onto `n + N·k`, C onto `m + M·n`. The typed constants of
/// `layout_typed::atoms` give the same layouts (`atom::A.to_map()?.as_layout()`).
///
/// An A or B operand that every thread of the atom reads whole (GMMA's `_SS` operands, which
/// `wgmma` reads from shared memory through a descriptor; CuTe's `ALayout`
/// `(_128,(_64,_16)):(_0,(_1,_64))`) is taken as a **broadcast**: its thread entry has only
/// broadcast strides (`_`, CuTe's 0) and its value entry is a dense bijection onto the tile.
/// Its partitions ([`TiledMma::partition_a`], [`TiledMma::partition_b`]) are read-only
/// broadcasts of the storage, the same offsets for every thread of the atom
/// ([`MmaAtom::is_broadcast`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaAtom {
    mnk: [i64; 3],
    a: Layout,
    b: Layout,
    c: Layout,
    threads: i64,
    /// Whether A (index 0) and B (index 1) are broadcasts over the atom's threads.
    broadcast: [bool; 2],
}

/// The size of a shape tree; `None` on overflow.
fn tree_size(t: &Tree<i64>) -> Option<i64> {
    t.leaves()
        .into_iter()
        .try_fold(1i64, |a, &n| a.checked_mul(n))
}

/// The two top-level entries `(value, thread)` of a thread-value layout, shape and stride.
fn value_thread(l: &Layout) -> Option<[(Tree<i64>, Tree<Stride>); 2]> {
    match (l.shape(), l.stride()) {
        (Tree::Tuple(s), Tree::Tuple(d)) if s.len() == 2 && d.len() == 2 => {
            Some([(s[0].clone(), d[0].clone()), (s[1].clone(), d[1].clone())])
        }
        _ => None,
    }
}

fn overflow() -> Error {
    Error::Overflow {
        mode: crate::ModePath::ROOT,
        what: crate::Quantity::Positions,
    }
}

fn mul(a: i64, b: i64) -> Result<i64, Error> {
    a.checked_mul(b).ok_or_else(overflow)
}

/// `a / b` for positive `b` (an error, never a panic, for 0).
fn div(a: i64, b: i64) -> Result<i64, Error> {
    a.checked_div(b).ok_or_else(overflow)
}

/// `a mod b` for positive `b`.
fn rem(a: i64, b: i64) -> Result<i64, Error> {
    a.checked_rem(b).ok_or_else(overflow)
}

/// One top-level entry (or leaf) of a layout: its shape and its stride.
type Entry = (Tree<i64>, Tree<Stride>);

impl MmaAtom {
    /// An atom of shape `mnk` = `[M, N, K]` with operand layouts `a`, `b`, `c` (see the type).
    ///
    /// A or B may be a broadcast over the atom's threads (see the type): its thread entry's
    /// strides all `_`, its value entry a dense bijection onto the tile.
    ///
    /// ```
    /// use layout_core::mma::{MmaAtom, Operand};
    /// use layout_core::Layout;
    /// // SM90_64x64x16_F16F16F16_SS<K,K>: A and B read whole by the 128 threads.
    /// let ab = Layout::from_cute("(128,(64,16)):(0,(1,64))")?;
    /// let c = Layout::from_cute("((4,8,4),(2,2,8)):((128,1,16),(64,8,512))")?;
    /// let atom = MmaAtom::new([64, 64, 16], ab.clone(), ab, c)?;
    /// assert!(atom.is_broadcast(Operand::A) && !atom.is_broadcast(Operand::C));
    /// assert_eq!(atom.threads(), 128);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::TileExtent`] for an extent below 1; [`Error::NotDense`] (or another error of
    /// [`crate::check_dense_bijection`]) for an operand that is not a dense bijection (for a
    /// broadcast A or B: whose value entry is not one); [`Error::MmaAtomOperand`] for an
    /// operand without the two entries `(value, thread)`, of another size than its tile (a
    /// broadcast: its value entry), or whose thread entry differs in size from C's.
    pub fn new(mnk: [i64; 3], a: Layout, b: Layout, c: Layout) -> Result<MmaAtom, Error> {
        if let Some((position, &extent)) = mnk.iter().enumerate().find(|(_, k)| **k < 1) {
            return Err(Error::TileExtent { position, extent });
        }
        let [m, n, k] = mnk;
        let threads = value_thread(&c)
            .and_then(|[_, (t, _)]| tree_size(&t))
            .unwrap_or(0);
        let mut broadcast = [false; 2];
        for (operand, l, tile) in [
            (Operand::C, &c, mul(m, n)?),
            (Operand::A, &a, mul(m, k)?),
            (Operand::B, &b, mul(n, k)?),
        ] {
            let vt = value_thread(l);
            // A broadcast over the threads: every thread stride `_`, the values dense.
            let values = match (&vt, operand) {
                (Some([(vs, vd), (_, td)]), Operand::A | Operand::B)
                    if td.leaves().iter().all(|d| matches!(d, Stride::Broadcast)) =>
                {
                    let v = Layout::new(vs.clone(), vd.clone())?;
                    crate::check_dense_bijection(&v)?;
                    broadcast[usize::from(operand == Operand::B)] = true;
                    v.size()
                }
                _ => {
                    crate::check_dense_bijection(l)?;
                    l.size()
                }
            };
            let t = vt
                .as_ref()
                .and_then(|[_, (t, _)]| tree_size(t))
                .unwrap_or(0);
            if vt.is_none() || values != tile || t != threads {
                return Err(Error::MmaAtomOperand {
                    operand,
                    rank: l.shape().rank(),
                    size: values,
                    tile,
                    threads: t,
                    expected_threads: threads,
                });
            }
        }
        Ok(MmaAtom {
            mnk,
            a,
            b,
            c,
            threads,
            broadcast,
        })
    }

    /// Whether `operand` is read whole by every thread of the atom (a broadcast over its
    /// threads, GMMA's `_SS` A and B); never for C.
    #[must_use]
    pub fn is_broadcast(&self, operand: Operand) -> bool {
        match operand {
            Operand::A => self.broadcast[0],
            Operand::B => self.broadcast[1],
            Operand::C => false,
        }
    }

    /// The shape `[M, N, K]`.
    #[must_use]
    pub fn shape(&self) -> [i64; 3] {
        self.mnk
    }

    /// The threads of one atom (32 for `mma.sync`).
    #[must_use]
    pub fn threads(&self) -> i64 {
        self.threads
    }

    /// The layout of an operand, as given.
    #[must_use]
    pub fn layout(&self, operand: Operand) -> &Layout {
        match operand {
            Operand::A => &self.a,
            Operand::B => &self.b,
            Operand::C => &self.c,
        }
    }
}

/// Re-expresses a tree of leaves whose strides index a tile of extents `from` (seed order, last
/// fastest, index `Σ digitᵣ·wᵣ` with `wᵣ` the product of the later extents) as strides of the
/// same digits weighted by `to` (one weight per mode). A leaf whose steps cross from one mode
/// into the next is split into a tuple `(outer, inner)`, which keeps its flat index; a leaf
/// that crosses unevenly is [`Error::EmbedStride`].
fn embed(
    shape: &Tree<i64>,
    stride: &Tree<Stride>,
    from: &[i64],
    to: &[i64],
) -> Result<(Tree<i64>, Tree<Stride>), Error> {
    match (shape, stride) {
        (Tree::Tuple(ss), Tree::Tuple(ds)) => {
            let mut s = Vec::with_capacity(ss.len());
            let mut d = Vec::with_capacity(ss.len());
            for (si, di) in ss.iter().zip(ds) {
                let (a, b) = embed(si, di, from, to)?;
                s.push(a);
                d.push(b);
            }
            Ok((Tree::Tuple(s), Tree::Tuple(d)))
        }
        (Tree::Leaf(n), Tree::Leaf(st)) => {
            let (mut n, mut d) = (*n, st.value());
            if n == 1 {
                return Ok((Tree::Leaf(1), Tree::Leaf(Stride::Int(1))));
            }
            let bad = |extent| Error::EmbedStride {
                stride: st.value(),
                size: *shape_leaf(shape),
                extent,
            };
            // Weights of the modes, fastest last.
            let mut w = vec![1i64; from.len()];
            let mut acc = 1i64;
            for (wr, &f) in w.iter_mut().zip(from).rev() {
                *wr = acc;
                acc = mul(acc, f)?;
            }
            let mut pieces: Vec<(i64, i64)> = Vec::new(); // fastest first
            loop {
                let r = (0..from.len())
                    .rev()
                    .find(|&r| d >= w[r] && d < w[r].saturating_mul(from[r]))
                    .ok_or_else(|| bad(0))?;
                if rem(d, w[r])? != 0 {
                    return Err(bad(from[r]));
                }
                let q = div(d, w[r])?;
                if q.checked_mul(n).is_some_and(|x| x <= from[r]) {
                    pieces.push((n, mul(q, to[r])?));
                    break;
                }
                if rem(from[r], q)? != 0 || rem(n, div(from[r], q)?)? != 0 {
                    return Err(bad(from[r]));
                }
                let inner = div(from[r], q)?;
                pieces.push((inner, mul(q, to[r])?));
                n = div(n, inner)?;
                d = mul(d, inner)?;
            }
            Ok(if pieces.len() == 1 {
                (
                    Tree::Leaf(pieces[0].0),
                    Tree::Leaf(Stride::Int(pieces[0].1)),
                )
            } else {
                (
                    Tree::Tuple(pieces.iter().rev().map(|p| Tree::Leaf(p.0)).collect()),
                    Tree::Tuple(
                        pieces
                            .iter()
                            .rev()
                            .map(|p| Tree::Leaf(Stride::Int(p.1)))
                            .collect(),
                    ),
                )
            })
        }
        _ => Err(Error::ProfileMismatch {
            mode: crate::ModePath::ROOT,
            shape_rank: shape.rank(),
            stride_rank: stride.rank(),
        }),
    }
}

fn shape_leaf(t: &Tree<i64>) -> &i64 {
    match t {
        Tree::Leaf(n) => n,
        Tree::Tuple(_) => &1,
    }
}

/// One top-level entry from parts listed slowest first: parts of size 1 are left out, except
/// the last (the atom's own), which is kept; one remaining part is the entry itself.
fn entry(parts: Vec<(Tree<i64>, Tree<Stride>)>) -> (Tree<i64>, Tree<Stride>) {
    let last = parts.len().saturating_sub(1);
    let kept: Vec<_> = parts
        .into_iter()
        .enumerate()
        .filter(|(i, (s, _))| *i == last || tree_size(s) != Some(1))
        .map(|(_, p)| p)
        .collect();
    if kept.len() == 1 {
        kept.into_iter()
            .next()
            .unwrap_or((Tree::Leaf(1), Tree::Leaf(Stride::Int(1))))
    } else {
        let (s, d): (Vec<_>, Vec<_>) = kept.into_iter().unzip();
        (Tree::Tuple(s), Tree::Tuple(d))
    }
}

fn leaf(n: i64, d: i64) -> (Tree<i64>, Tree<Stride>) {
    (Tree::Leaf(n), Tree::Leaf(Stride::Int(d)))
}

/// A `(value, thread)` layout, checked as a dense bijection `thread-value -> logical` onto a
/// tile of extents `tile` (seed order).
fn thread_value(
    value: (Tree<i64>, Tree<Stride>),
    thread: (Tree<i64>, Tree<Stride>),
    tile: Vec<i64>,
) -> Result<Map, Error> {
    let layout = Layout::new(
        Tree::Tuple(vec![value.0, thread.0]),
        Tree::Tuple(vec![value.1, thread.1]),
    )?
    .with_names(vec![
        Some(String::from("value")),
        Some(String::from("thread")),
    ])?;
    Ok(Annotated::new(layout, Space::ThreadValue, Space::Logical)?
        .with_tiles(None, Some(tile))?
        .into())
}

/// CuTe's `TiledMMA` of `make_tiled_mma(atom, Layout<Shape<WM,WN,_1>>, Tile<..>)` with identity
/// permutations, over a CTA tile: its thread-value layouts of A, B and C and its partitions.
///
/// Warps are laid out column-major over M×N (CuTe's compact `AtomLayoutMNK`), so thread
/// `t = lane + T·(wm + WM·wn)` (`T` the atom's threads). The CTA tile `[M, N, K]` is covered by
/// value repeats: `M / (atom M · WM)` along M, `N / (atom N · WN)` along N, `K / atom K` along K.
/// An identity permutation tile (CuTe's `Tile<..>`) leaves these partitions' functions as they
/// are; it sets the tile of the copies that feed the MMA ([`TiledMma::with_permutation`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledMma {
    atom: MmaAtom,
    warps: [i64; 3],
    tile: [i64; 3],
    permutation: [i64; 3],
}

impl TiledMma {
    /// The tiled MMA of `atom` over warps `[WM, WN, WK]` and a CTA tile `[M, N, K]`.
    ///
    /// # Errors
    /// [`Error::TileExtent`] for a warp count below 1; [`Error::MmaWarpsK`] for `WK > 1`;
    /// [`Error::MmaTile`] when an extent of the tile is not a positive multiple of the atom's
    /// extent times the warps; [`Error::Overflow`] when the atom's extents times the warps, or
    /// the threads (the atom's times `WM·WN`), do not fit `i64`.
    pub fn new(atom: MmaAtom, warps: [i64; 3], tile: [i64; 3]) -> Result<TiledMma, Error> {
        if let Some((position, &extent)) = warps.iter().enumerate().find(|(_, k)| **k < 1) {
            return Err(Error::TileExtent { position, extent });
        }
        if warps[2] != 1 {
            return Err(Error::MmaWarpsK { warps: warps[2] });
        }
        let mut permutation = [0; 3];
        for (d, p) in permutation.iter_mut().enumerate() {
            *p = mul(atom.mnk[d], warps[d])?;
        }
        // The threads, `atom threads · WM · WN`, fit `i64` ([`TiledMma::threads`]).
        mul(mul(atom.threads, warps[0])?, warps[1])?;
        let mma = TiledMma {
            atom,
            warps,
            tile,
            permutation,
        };
        mma.check_tile(&tile, &permutation)?;
        Ok(mma)
    }

    fn check_tile(&self, tile: &[i64; 3], step: &[i64; 3]) -> Result<(), Error> {
        for d in 0..3 {
            if tile[d] < 1 || rem(tile[d], step[d])? != 0 {
                return Err(Error::MmaTile {
                    dim: u8::try_from(d).unwrap_or(u8::MAX),
                    extent: tile[d],
                    step: step[d],
                });
            }
        }
        Ok(())
    }

    /// The same tiled MMA with CuTe's permutation tile `Tile<PM, PN, PK>` of identity
    /// permutations. It does not change [`TiledMma::a`], [`TiledMma::b`], [`TiledMma::c`]; it is
    /// the tile of [`TiledMma::copy_a`] and [`TiledMma::copy_b`] (CuTe's `tile_size`).
    ///
    /// # Errors
    /// [`Error::MmaTile`] when an extent is not a multiple of the atom's extent times the warps,
    /// or does not divide the CTA tile.
    pub fn with_permutation(mut self, tile: [i64; 3]) -> Result<TiledMma, Error> {
        let mut step = [0; 3];
        for (d, s) in step.iter_mut().enumerate() {
            *s = mul(self.atom.mnk[d], self.warps[d])?;
        }
        self.check_tile(&tile, &step)?;
        self.check_tile(&self.tile, &tile)?;
        self.permutation = tile;
        Ok(self)
    }

    /// The atom.
    #[must_use]
    pub fn atom(&self) -> &MmaAtom {
        &self.atom
    }

    /// The CTA tile `[M, N, K]`.
    #[must_use]
    pub fn tile(&self) -> [i64; 3] {
        self.tile
    }

    /// The permutation tile `[PM, PN, PK]` (the atom's extents times the warps unless set).
    #[must_use]
    pub fn permutation(&self) -> [i64; 3] {
        self.permutation
    }

    /// The threads: the atom's threads times the warps (checked by [`TiledMma::new`] to fit).
    #[must_use]
    pub fn threads(&self) -> i64 {
        // `new` refused a product past `i64`: the saturation is never reached.
        self.atom
            .threads
            .saturating_mul(self.warps[0])
            .saturating_mul(self.warps[1])
    }

    /// The thread entry, `(WN, WM, atom threads)` in seed order, each warp leaf with the
    /// given stride (the atom's threads re-expressed by `lane`).
    fn thread_entry(
        &self,
        lane: (Tree<i64>, Tree<Stride>),
        wm: i64,
        wn: i64,
    ) -> (Tree<i64>, Tree<Stride>) {
        entry(vec![leaf(self.warps[1], wn), leaf(self.warps[0], wm), lane])
    }

    /// The atom's operand layout with its strides re-expressed in a tile whose fastest
    /// extent is `fast_to` instead of the atom's `fast`: `[value, thread]` entries.
    fn atom_entries(
        &self,
        operand: Operand,
        slow: i64,
        fast: i64,
        fast_to: i64,
    ) -> Result<[Entry; 2], Error> {
        let l = self.atom.layout(operand);
        let e = embed(l.shape(), l.stride(), &[slow, fast], &[fast_to, 1])?;
        match e {
            (Tree::Tuple(mut s), Tree::Tuple(mut d)) if s.len() == 2 => {
                let (t, dt) = (s.pop(), d.pop());
                let (v, dv) = (s.pop(), d.pop());
                match (v, dv, t, dt) {
                    (Some(v), Some(dv), Some(t), Some(dt)) => Ok([(v, dv), (t, dt)]),
                    _ => Err(overflow()),
                }
            }
            _ => Err(overflow()),
        }
    }

    /// C: thread-value -> logical over the CTA's M×N tile (index `m + M·n`, tile `(N, M)` in
    /// seed order), a dense bijection. Value `(RestN, RestM, FrgV)` (CuTe's `partition_C`
    /// fragment `(FrgV, RestM, RestN)`), thread `(WN, WM, lane)`; in both entries a part of
    /// size 1 other than the atom's own is left out, which keeps the flat indices.
    ///
    /// # Errors
    /// [`Error::EmbedStride`] for an atom whose leaves do not step along its tile's modes;
    /// [`Error::Overflow`].
    pub fn c(&self) -> Result<Map, Error> {
        let [m, n, _] = self.tile;
        let [am, an, _] = self.atom.mnk;
        let [wm, wn, _] = self.warps;
        let [fv, lane] = self.atom_entries(Operand::C, an, am, m)?;
        let value = entry(vec![
            leaf(div(n, mul(an, wn)?)?, mul(mul(m, an)?, wn)?),
            leaf(div(m, mul(am, wm)?)?, mul(am, wm)?),
            fv,
        ]);
        let thread = self.thread_entry(lane, am, mul(m, an)?);
        thread_value(value, thread, vec![n, m])
    }

    /// The atom's operand entries re-expressed in the CTA's operand tile (as
    /// [`TiledMma::atom_entries`]) and the copies of that tile each warp's lanes read: for a
    /// broadcast operand the lane entry is one leaf of the atom's threads, each lane reading
    /// its own copy of the tile (`tile` positions apart), and the copies are the threads;
    /// otherwise 1.
    fn operand_entries(
        &self,
        operand: Operand,
        slow: i64,
        fast: i64,
        fast_to: i64,
        tile: i64,
    ) -> Result<([Entry; 2], i64), Error> {
        if self.atom.is_broadcast(operand) {
            let l = self.atom.layout(operand);
            let [(vs, vd), _] = value_thread(l).ok_or_else(overflow)?;
            let fv = embed(&vs, &vd, &[slow, fast], &[fast_to, 1])?;
            let t = self.atom.threads;
            Ok(([fv, leaf(t, tile)], t))
        } else {
            Ok((self.atom_entries(operand, slow, fast, fast_to)?, 1))
        }
    }

    /// The copies of an operand's tile that [`TiledMma::a`] / [`TiledMma::b`] map onto (the
    /// slowest extent of their replicated tile): the warps that repeat the operand (along N
    /// for A, along M for B; 1 for C), times the atom's threads when the atom reads it whole.
    #[must_use]
    pub fn copies(&self, operand: Operand) -> i64 {
        let t = if self.atom.is_broadcast(operand) {
            self.atom.threads
        } else {
            1
        };
        match operand {
            Operand::A => self.warps[1].saturating_mul(t),
            Operand::B => self.warps[0].saturating_mul(t),
            Operand::C => 1,
        }
    }

    /// A: thread-value -> logical onto the replicated tile `WN × (K, M)` (index
    /// `m + M·k + M·K·wn`, tile `(WN, K, M)` in seed order), a dense bijection whose copy index
    /// is the warp's N coordinate. Value `(RestK, RestM, FrgV)` (CuTe's `partition_A` fragment
    /// `(FrgV, RestM, RestK)`), thread `(WN, WM, lane)`.
    ///
    /// For an atom that reads A whole ([`MmaAtom::is_broadcast`], GMMA `_SS`) every lane reads
    /// its own copy: the tile is `(WN·T, K, M)` (`T` the atom's threads, index
    /// `m + M·k + M·K·(lane + T·wn)`), `FrgV` is the atom's value entry and the lane entry one
    /// leaf of stride `M·K`; [`TiledMma::copies`] gives `WN·T`.
    ///
    /// # Errors
    /// As [`TiledMma::c`].
    pub fn a(&self) -> Result<Map, Error> {
        let [m, _, k] = self.tile;
        let [am, _, ak] = self.atom.mnk;
        let [wm, wn, _] = self.warps;
        let ([fv, lane], lanes) = self.operand_entries(Operand::A, ak, am, m, mul(m, k)?)?;
        let value = entry(vec![
            leaf(div(k, ak)?, mul(m, ak)?),
            leaf(div(m, mul(am, wm)?)?, mul(am, wm)?),
            fv,
        ]);
        let thread = self.thread_entry(lane, am, mul(mul(m, k)?, lanes)?);
        thread_value(value, thread, vec![mul(wn, lanes)?, k, m])
    }

    /// B: thread-value -> logical onto the replicated tile `WM × (K, N)` (index
    /// `n + N·k + N·K·wm`, tile `(WM, K, N)` in seed order), a dense bijection whose copy index
    /// is the warp's M coordinate. Value `(RestK, RestN, FrgV)` (CuTe's `partition_B` fragment
    /// `(FrgV, RestN, RestK)`), thread `(WN, WM, lane)`.
    ///
    /// For an atom that reads B whole, as [`TiledMma::a`]: the tile is `(WM·T, K, N)`, index
    /// `n + N·k + N·K·(lane + T·wm)`.
    ///
    /// # Errors
    /// As [`TiledMma::c`].
    pub fn b(&self) -> Result<Map, Error> {
        let [_, n, k] = self.tile;
        let [_, an, ak] = self.atom.mnk;
        let [wm, wn, _] = self.warps;
        let ([fv, lane], lanes) = self.operand_entries(Operand::B, ak, an, n, mul(n, k)?)?;
        let value = entry(vec![
            leaf(div(k, ak)?, mul(n, ak)?),
            leaf(div(n, mul(an, wn)?)?, mul(an, wn)?),
            fv,
        ]);
        let thread = self.thread_entry(lane, mul(mul(n, k)?, lanes)?, an);
        thread_value(value, thread, vec![mul(wm, lanes)?, k, n])
    }

    /// CuTe's `thr_mma.partition_C(gC)` for every thread at once: `storage ∘ c()`, where
    /// `storage` maps the M×N tile (index `m + M·n`, tile `(N, M)`) to memory.
    ///
    /// # Errors
    /// [`Error::TileMismatch`] when `storage` carries no tile and its top-level entries are not
    /// the tile `(N, M)` (a transposed storage); as [`TiledMma::c`], then as [`compose`].
    pub fn partition_c(&self, storage: &Map) -> Result<Map, Error> {
        check_storage(storage, &[self.tile[1], self.tile[0]])?;
        compose(storage, &self.c()?)
    }

    /// CuTe's `thr_mma.partition_A(sA)` for every thread at once:
    /// `broadcast(storage, copies(A)) ∘ a()`, read-only when [`TiledMma::copies`] is above 1
    /// (warps along N, or an atom that reads A whole: then every thread of a warpgroup has the
    /// same offsets); `storage` maps the M×K tile (index `m + M·k`, tile `(K, M)`) to memory.
    ///
    /// # Errors
    /// [`Error::TileMismatch`] when `storage` carries no tile and its top-level entries are not
    /// the tile `(K, M)` (a transposed storage); as [`TiledMma::a`], then as [`broadcast_map`]
    /// and [`compose`].
    pub fn partition_a(&self, storage: &Map) -> Result<Map, Error> {
        check_storage(storage, &[self.tile[2], self.tile[0]])?;
        compose(
            &broadcast_map(storage, self.copies(Operand::A))?,
            &self.a()?,
        )
    }

    /// CuTe's `thr_mma.partition_B(sB)` for every thread at once:
    /// `broadcast(storage, copies(B)) ∘ b()`, read-only when [`TiledMma::copies`] is above 1;
    /// `storage` maps the N×K tile (index `n + N·k`, tile `(K, N)`) to memory.
    ///
    /// # Errors
    /// [`Error::TileMismatch`] when `storage` carries no tile and its top-level entries are not
    /// the tile `(K, N)` (a transposed storage); as [`TiledMma::b`], then as [`broadcast_map`]
    /// and [`compose`].
    pub fn partition_b(&self, storage: &Map) -> Result<Map, Error> {
        check_storage(storage, &[self.tile[2], self.tile[1]])?;
        compose(
            &broadcast_map(storage, self.copies(Operand::B))?,
            &self.b()?,
        )
    }
}

/// Checks that `storage` is over the operand's tile `expected` (seed order, e.g. `(K, M)`): where
/// it carries a domain tile, [`compose`] compares the two; otherwise its top-level entries,
/// grouped consecutively, must have exactly the extents of `expected`, so that a storage of the
/// transposed tile (or of another shape of the same size) is refused instead of partitioned as
/// if it were this one. A storage of one entry is read as the documented flat index.
///
/// # Errors
/// [`Error::TileMismatch`] (the storage's entry sizes on the left, the operand's tile on the
/// right) when no grouping of the entries gives `expected`.
fn check_storage(storage: &Map, expected: &[i64]) -> Result<(), Error> {
    if storage.domain_tile().is_some() || storage.domain_tile_shape().is_some() {
        return Ok(());
    }
    let sizes = storage.domain_entry_sizes();
    if sizes.len() <= 1 {
        return Ok(());
    }
    // Consecutive groups of the entries whose products are the expected extents, in order.
    let mut groups = alloc::vec::Vec::with_capacity(expected.len());
    let mut product = 1i64;
    for &n in &sizes {
        product = product.checked_mul(n).ok_or(Error::Overflow {
            mode: crate::ModePath::ROOT,
            what: crate::Quantity::Positions,
        })?;
        if expected.get(groups.len()) == Some(&product) {
            groups.push(product);
            product = 1;
        }
    }
    if product == 1 && groups.as_slice() == expected {
        Ok(())
    } else {
        crate::check_same_tile(&sizes, expected)
    }
}

/// `copies` copies of a map from logical, at the same values: the domain gains a slowest entry
/// of size `copies` (copy index slowest, as [`crate::broadcast`] places it), and a domain tile
/// gains the extent `copies` in front. A layout is broadcast by [`crate::broadcast`]; a swizzled
/// map broadcasts the map it follows; a composite `L ∘ R` is `broadcast(L) ∘ (copies × R)`,
/// where `copies × R` repeats the dense `R` once per copy (a dense bijection again); a
/// restriction of a layout or of a swizzled layout (one stage of a pipeline buffer) is the
/// restriction of its broadcast, the copies a new first entry and the fixed entries kept.
///
/// ```
/// use layout_core::mma::broadcast_map;
/// use layout_core::{Annotated, Map, Space, Swizzle, SwizzleUnit};
/// let s: Map = Annotated::new("(8,64):(64,1)".parse()?, Space::Logical, Space::Physical)?.into();
/// let s = s.swizzle(Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements)?)?;
/// let b = broadcast_map(&s, 2)?;
/// for i in 0..512 {
///     assert_eq!(b.eval_index(i)?, s.eval_index(i)?);
///     assert_eq!(b.eval_index(512 + i)?, s.eval_index(i)?);
/// }
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::BroadcastRestriction`] for a restriction of a composite (or a composite holding a
/// restriction);
/// [`Error::BroadcastNotDense`] when the map is into logical (a broadcast is legal only into
/// physical); [`Error::Overflow`].
pub fn broadcast_map(storage: &Map, copies: i64) -> Result<Map, Error> {
    let tile = |t: Option<&[i64]>| {
        t.map(|t| {
            let mut v = vec![copies];
            v.extend_from_slice(t);
            v
        })
    };
    match storage {
        Map::Layout(a) => {
            let l = crate::ops::broadcast(a.layout(), &Tree::Leaf(copies))?;
            Ok(Annotated::new(l, storage.domain(), storage.codomain())?
                .with_tiles(tile(storage.domain_tile()), None)?
                .into())
        }
        Map::Swizzled { swizzle, inner } => broadcast_map(inner, copies)?.swizzle(*swizzle),
        Map::Composite(c) => compose(
            &broadcast_map(&c.left(), copies)?,
            &lift(&c.right(), copies)?,
        ),
        Map::Restricted { fixed, inner } => Ok(Map::Restricted {
            fixed: fixed
                .iter()
                .map(|&(e, v)| Ok((e.checked_add(1).ok_or_else(overflow)?, v)))
                .collect::<Result<_, Error>>()?,
            inner: alloc::boxed::Box::new(broadcast_front(inner, copies)?),
        }),
    }
}

/// The broadcast of a layout (or a swizzled layout) with the copies as a new first top-level
/// entry of its domain, its own entries kept as they are: what a restriction of it needs, so
/// that its fixed entries stay top-level entries (one further on).
fn broadcast_front(m: &Map, copies: i64) -> Result<Map, Error> {
    match m {
        Map::Layout(a) => {
            let l = a.layout();
            let (mut shape, mut stride) = (
                vec![Tree::Leaf(copies)],
                vec![Tree::Leaf(Stride::Broadcast)],
            );
            match (l.shape(), l.stride()) {
                (Tree::Tuple(s), Tree::Tuple(d)) => {
                    shape.extend(s.iter().cloned());
                    stride.extend(d.iter().cloned());
                }
                (s, d) => {
                    shape.push(s.clone());
                    stride.push(d.clone());
                }
            }
            let mut names = l.names().to_vec();
            if !names.is_empty() {
                names.insert(0, None);
            }
            let layout = Layout::new(Tree::Tuple(shape), Tree::Tuple(stride))?.with_names(names)?;
            let tile = m.domain_tile().map(|t| {
                let mut v = vec![copies];
                v.extend_from_slice(t);
                v
            });
            Ok(Annotated::new(layout, m.domain(), m.codomain())?
                .with_tiles(tile, None)?
                .into())
        }
        Map::Swizzled { swizzle, inner } => broadcast_front(inner, copies)?.swizzle(*swizzle),
        Map::Composite(_) | Map::Restricted { .. } => Err(Error::BroadcastRestriction),
    }
}

/// `copies × R` for a map `R` into logical: `(copies, R) ↦ copy·size(R) + R(..)`.
fn lift(right: &Map, copies: i64) -> Result<Map, Error> {
    let tile = |t: Option<&[i64]>| {
        t.map(|t| {
            let mut v = vec![copies];
            v.extend_from_slice(t);
            v
        })
    };
    match right {
        Map::Layout(a) => {
            let c = Layout::new(Tree::Leaf(copies), Tree::Leaf(Stride::Int(1)))?;
            let l = crate::ops::interleave(&c, a.layout())?;
            Ok(Annotated::new(l, right.domain(), right.codomain())?
                .with_tiles(tile(right.domain_tile()), tile(right.codomain_tile()))?
                .into())
        }
        Map::Composite(c) => compose(&lift(&c.left(), copies)?, &lift(&c.right(), copies)?),
        Map::Swizzled { .. } | Map::Restricted { .. } => Err(Error::BroadcastRestriction),
    }
}

/// A copy atom (CuTe's `Copy_Traits`), in elements: the source and destination thread-value
/// layouts, each in seed order with domain `(value, thread)` and codomain the element of the
/// copied block (`ldmatrix`: `8·row + column` of 16-bit elements). The destination is the
/// reference layout (CuTe's `RefLayout`, which is `DstLayout` for `ldmatrix`).
///
/// CuTe's atoms count bits; `layout_typed::atoms::bits_to_elements` converts them, and the
/// `_B16` constants of `layout_typed::atoms` are the 16-bit forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyAtom {
    src: Layout,
    dst: Layout,
    threads: i64,
    values: i64,
}

impl CopyAtom {
    /// The atom copying through `src` to `dst` (see the type).
    ///
    /// # Errors
    /// [`Error::NotDense`] (or another error of [`crate::check_dense_bijection`]) when either
    /// is not a dense bijection (an `ldmatrix` x1/x2 source, whose threads repeat, is not
    /// taken here); [`Error::SizeMismatch`] when their sizes differ;
    /// [`Error::CopyAtomThreads`] when either is not `(value, thread)` or their thread counts
    /// differ.
    pub fn new(src: Layout, dst: Layout) -> Result<CopyAtom, Error> {
        crate::check_dense_bijection(&src)?;
        crate::check_dense_bijection(&dst)?;
        if src.size() != dst.size() {
            return Err(Error::SizeMismatch {
                left: src.size(),
                right: dst.size(),
            });
        }
        let threads = |l: &Layout| {
            value_thread(l)
                .and_then(|[_, (t, _)]| tree_size(&t))
                .unwrap_or(0)
        };
        let (ts, td) = (threads(&src), threads(&dst));
        if ts == 0 || ts != td {
            return Err(Error::CopyAtomThreads { src: ts, dst: td });
        }
        Ok(CopyAtom {
            values: div(dst.size(), td)?,
            threads: td,
            src,
            dst,
        })
    }

    /// The threads of the atom.
    #[must_use]
    pub fn threads(&self) -> i64 {
        self.threads
    }

    /// The values (elements) per thread.
    #[must_use]
    pub fn values(&self) -> i64 {
        self.values
    }
}

/// CuTe's `make_tiled_copy_A/B(copy_atom, tiled_mma)` for one operand: the copy's source and
/// destination thread-value layouts over the operand's replicated CTA tile, and `retile`.
///
/// CuTe returns a `TiledCopy`; here it is its own type, apart from [`crate::copy::TiledCopy`]
/// (`make_tiled_copy` from a thread and a value layout), because its layouts map onto the
/// operand's replicated tile and its partitions are read-only broadcasts.
///
/// Both layouts have the domain `(value, thread)` with the tiled MMA's threads; the value
/// entry's flat index is CuTe's `partition_S`/`partition_D` fragment index `(CPY, CPY_M, CPY_K)`
/// (the copy's values in one permutation tile, then the tiles along M (N for B), then along
/// K). They map onto the same replicated tile as [`TiledMma::a`] / [`TiledMma::b`], so
/// [`OperandCopy::partition_s`] is a read-only broadcast of the storage over the repeating warps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperandCopy {
    source: Map,
    destination: Map,
    retile: Map,
    copies: i64,
    /// The operand's tile in seed order, `(K, M)` or `(K, N)`.
    tile: [i64; 2],
}

impl OperandCopy {
    /// The source side: thread-value -> logical onto the operand's replicated tile.
    #[must_use]
    pub fn source(&self) -> &Map {
        &self.source
    }

    /// The destination side: thread-value -> logical onto the operand's replicated tile (the
    /// same positions as the MMA's operand layout, in the copy's value order).
    #[must_use]
    pub fn destination(&self) -> &Map {
        &self.destination
    }

    /// CuTe's `thr_copy.partition_S(sA)` for every thread at once:
    /// `broadcast(storage, copies) ∘ source()`; `storage` maps the operand's tile (A: index
    /// `m + M·k`, tile `(K, M)`; B: `n + N·k`, tile `(K, N)`) to memory.
    ///
    /// # Errors
    /// [`Error::TileMismatch`] when `storage` carries no tile and its top-level entries are not
    /// the operand's tile (a transposed storage); as [`broadcast_map`], then as [`compose`].
    pub fn partition_s(&self, storage: &Map) -> Result<Map, Error> {
        check_storage(storage, &self.tile)?;
        compose(&broadcast_map(storage, self.copies)?, &self.source)
    }

    /// CuTe's `retile_D`: the destination's values, in the copy's order, -> the value of the
    /// MMA fragment (CuTe's `partition_fragment_A/B`, `(FrgV, RestM, RestK)`) that holds the
    /// same position; the same for every thread. A dense bijection `thread-value -> logical`
    /// whose one entry is named `value`.
    #[must_use]
    pub fn retile(&self) -> &Map {
        &self.retile
    }

    /// `fragment ∘ retile()`: a thread's MMA fragment (`logical -> physical` over its values,
    /// e.g. the registers) indexed in the copy's destination order (CuTe's
    /// `thr_copy.retile_D(tCrA)`).
    ///
    /// # Errors
    /// As [`compose`].
    pub fn retile_d(&self, fragment: &Map) -> Result<Map, Error> {
        compose(fragment, &self.retile)
    }
}

/// The coarsest layout of a composite of layouts (Theorem 1), over the right operand's
/// domain shape, with the names `(value, thread)`.
fn decided(map: &Map) -> Result<Layout, Error> {
    let shape = map.domain_shape();
    crate::decide::decide(map, false)?
        .coarsest_layout(&shape)
        .ok_or(Error::TiledCopyNotLayout)
}

/// A layout re-annotated `logical -> logical` (the same function; its domain index read as
/// a tile index), so that it can be the left operand of a composition.
fn as_logical(l: Layout) -> Result<Map, Error> {
    Ok(Annotated::new(l, Space::Logical, Space::Logical)?.into())
}

fn layout_of(m: &Map) -> Result<Layout, Error> {
    m.as_layout().cloned().ok_or(Error::TiledCopyNotLayout)
}

impl TiledMma {
    /// CuTe's `make_tiled_copy_A(copy_atom, tiled_mma)`: the copy of A through `atom` (e.g.
    /// `SM75_U32x4_LDSM_N` for 16-bit elements), tiled over the permutation tile
    /// ([`TiledMma::with_permutation`]) and repeated over the CTA tile.
    ///
    /// Built from the layouts, not from a table: `R = inverse(dst) ∘ src` (Theorem 1 decides
    /// it a layout) takes a source (value, thread) of the atom to the reference (value, thread)
    /// it fills; its leaves, re-expressed in the tiled MMA's thread-value index and joined by
    /// the leaves of the atom's repeats (CuTe's `zipped_divide` of the MMA's thread-value layout
    /// by the atom's threads × values), give `ρ`; `a() ∘ ρ` over the permutation tile is decided
    /// a layout again, and its leaves re-expressed in the CTA tile with the tiles as the slowest
    /// values. Every result is checked a dense bijection.
    ///
    /// # Errors
    /// [`Error::CopyAtomFit`] when the atom's values do not divide the operand's values per
    /// thread in one permutation tile, or its threads the tiled MMA's;
    /// [`Error::TiledCopyNotLayout`] when a composite is not a layout;
    /// [`Error::DecideTooLarge`] when deciding one needs a table past [`crate::DECIDE_LIMIT`]
    /// positions; [`Error::MmaOperandBroadcast`] when the atom reads A whole (GMMA `_SS`: the
    /// instruction reads shared memory itself, no thread holds a part of A); as
    /// [`TiledMma::a`].
    pub fn copy_a(&self, atom: &CopyAtom) -> Result<OperandCopy, Error> {
        self.copy(atom, Operand::A)
    }

    /// CuTe's `make_tiled_copy_B(copy_atom, tiled_mma)`; see [`TiledMma::copy_a`].
    ///
    /// # Errors
    /// As [`TiledMma::copy_a`].
    pub fn copy_b(&self, atom: &CopyAtom) -> Result<OperandCopy, Error> {
        self.copy(atom, Operand::B)
    }

    fn copy(&self, atom: &CopyAtom, operand: Operand) -> Result<OperandCopy, Error> {
        if self.atom.is_broadcast(operand) {
            return Err(Error::MmaOperandBroadcast { operand });
        }
        let per_tile = TiledMma {
            tile: self.permutation,
            ..self.clone()
        };
        let (tv_tile, tv_cta) = match operand {
            Operand::A => (per_tile.a()?, self.a()?),
            _ => (per_tile.b()?, self.b()?),
        };
        let threads = self.threads();
        let values = div(tv_tile.size(), threads)?;
        if rem(values, atom.values)? != 0 || rem(threads, atom.threads)? != 0 {
            return Err(Error::CopyAtomFit {
                atom_values: atom.values,
                values,
                atom_threads: atom.threads,
                threads,
            });
        }
        let tile_map = as_logical(layout_of(&tv_tile)?)?;
        let inv_dst = as_logical(crate::ops::inverse(&atom.dst)?)?;
        let side = |trg: &Layout| -> Result<Map, Error> {
            // R: the atom's (value, thread) of `trg` -> the reference's flat index.
            let trg: Map = Annotated::new(trg.clone(), Space::ThreadValue, Space::Logical)?.into();
            let r = decided(&compose(&inv_dst, &trg)?)?;
            let [rv, rt] = value_thread(&r).ok_or(Error::TiledCopyNotLayout)?;
            // ρ: re-expressed in the MMA's flat thread-value index `t + T·v`, with the repeats.
            let from = [atom.values, atom.threads];
            let to = [threads, 1];
            let (vs, vd) = embed(&rv.0, &rv.1, &from, &to)?;
            let (ts, td) = embed(&rt.0, &rt.1, &from, &to)?;
            let value = entry(vec![
                leaf(div(values, atom.values)?, mul(atom.values, threads)?),
                (vs, vd),
            ]);
            let thread = entry(vec![
                leaf(div(threads, atom.threads)?, atom.threads),
                (ts, td),
            ]);
            let rho = thread_value(value, thread, vec![values, threads])?;
            // Over the permutation tile, then over the CTA tile.
            let in_tile = decided(&compose(&tile_map, &rho)?)?;
            self.over_cta(&in_tile, operand)
        };
        let source = side(&atom.src)?;
        let destination = side(&atom.dst)?;
        let retile = self.retile(&destination, &tv_cta)?;
        let copies = match operand {
            Operand::A => self.warps[1],
            _ => self.warps[0],
        };
        let tile = match operand {
            Operand::A => [self.tile[2], self.tile[0]],
            _ => [self.tile[2], self.tile[1]],
        };
        Ok(OperandCopy {
            source,
            destination,
            retile,
            copies,
            tile,
        })
    }

    /// A `(value, thread)` layout onto the replicated permutation tile `copies × (PK, P)`,
    /// re-expressed onto the replicated CTA tile `copies × (K, X)` with the tiles as the
    /// slowest values: value `(tiles along K, tiles along X, in-tile values)`.
    fn over_cta(&self, in_tile: &Layout, operand: Operand) -> Result<Map, Error> {
        let (x, px, copies) = match operand {
            Operand::A => (self.tile[0], self.permutation[0], self.warps[1]),
            _ => (self.tile[1], self.permutation[1], self.warps[0]),
        };
        let (k, pk) = (self.tile[2], self.permutation[2]);
        let [v, t] = value_thread(in_tile).ok_or(Error::TiledCopyNotLayout)?;
        let from = [copies, pk, px];
        let to = [mul(x, k)?, x, 1];
        let v = embed(&v.0, &v.1, &from, &to)?;
        let t = embed(&t.0, &t.1, &from, &to)?;
        let value = entry(vec![
            leaf(div(k, pk)?, mul(pk, x)?),
            leaf(div(x, px)?, px),
            v,
        ]);
        thread_value(value, t, vec![copies, k, x])
    }

    /// `retile`: from `inverse(tv) ∘ destination` (decided a layout), whose thread entry must
    /// be the identity, the value entry with its strides divided by the threads.
    fn retile(&self, destination: &Map, tv: &Map) -> Result<Map, Error> {
        let threads = self.threads();
        let inv = as_logical(crate::ops::inverse(&layout_of(tv)?)?)?;
        let both = decided(&compose(&inv, destination)?)?;
        let [v, t] = value_thread(&both).ok_or(Error::TiledCopyNotLayout)?;
        // The thread entry is the identity: thread t of the copy is thread t of the MMA.
        let thread = Layout::new(t.0, t.1)?;
        for i in 0..threads {
            if thread.eval_index(i)? != i {
                return Err(Error::TiledCopyNotLayout);
            }
        }
        let mut bad = false;
        let stride = v.1.map(&mut |s: &Stride| {
            let d = s.value();
            bad |= d.checked_rem(threads) != Some(0);
            Stride::Int(d.checked_div(threads).unwrap_or(0))
        });
        if bad {
            return Err(Error::TiledCopyNotLayout);
        }
        let layout = Layout::new(Tree::Tuple(vec![v.0]), Tree::Tuple(vec![stride]))?
            .with_names(vec![Some(String::from("value"))])?;
        Ok(Annotated::new(layout, Space::ThreadValue, Space::Logical)?.into())
    }
}

/// One leaf of a fragment's partition: its size, its stride (in the storage's unswizzled
/// offsets) and whether CuTe's stride for it is a run-time value (a leaf through a swizzle's
/// fields, see [`fragment_like`]).
#[derive(Clone, Copy)]
struct Piece {
    size: i64,
    stride: i64,
    dynamic: bool,
}

/// The bits `[lo, hi)` of a leaf `n:d` with `n`, `d` powers of two (`d ≥ 1`), or `None`.
fn bit_range(size: i64, stride: i64) -> Option<(u32, u32)> {
    if size < 1 || stride < 1 || size.count_ones() != 1 || stride.count_ones() != 1 {
        return None;
    }
    let lo = stride.trailing_zeros();
    Some((lo, lo.saturating_add(size.trailing_zeros())))
}

/// The bit `b` as a mask (0 past bit 63).
fn bit(b: u32) -> u64 {
    1u64.checked_shl(b).unwrap_or(0)
}

/// The bits `[lo, hi)` as a mask.
fn bit_mask(lo: u32, hi: u32) -> u64 {
    (lo..hi).fold(0, |m, b| m | bit(b))
}

/// A power of two `2^b` as a stride or size.
fn pow2(b: u32) -> Result<i64, Error> {
    1i64.checked_shl(b).filter(|&x| x > 0).ok_or_else(overflow)
}

/// CuTe's register order of a thread's MMA fragment (`thr_mma.partition_fragment_A/B(sX)`,
/// which is `make_fragment_like(partition_A/B(sX))`): the register of each value of the thread's
/// partition.
///
/// `partition` is the thread's partition of the storage **without its swizzle**, over the
/// thread's values (seed order, flat index = CuTe's fragment index `(FrgV, RestM, RestK)`, first
/// fastest, as [`TiledMma::partition_a`] restricted to a thread gives it); `atom_values` is the
/// size of CuTe's first mode (`FrgV`, the atom's values per thread); `swizzle` the storage's
/// swizzle, if any. The result is a layout over the partition's leaves (flattened, in seed order,
/// a leaf split where CuTe's is: the same flat index) to the register index.
///
/// CuTe's rule (`make_fragment_like`, `include/cute/layout.hpp`, for a static shape): the first
/// mode is compact in its own order (registers `0..atom_values`); the other leaves are compact
/// in the order of their strides (`make_ordered_layout`), each register step times
/// `atom_values`, where a stride that is a run-time value counts as larger than every static
/// one, run-time ones in CuTe's mode order (first fastest). Which strides are run-time values is
/// CuTe's too: slicing a swizzled layout at a thread (`slice_and_offset` of a swizzled
/// `ComposedLayout`, `include/cute/swizzle_layout.hpp`) turns it into a plain layout unless the
/// thread's values reach both a bit of the swizzle's source field and the destination bit it
/// moves into; then the leaves, split at the fields' bits, take run-time strides (`±2^i`) on the
/// bits of either field and keep static strides elsewhere. Otherwise (no swizzle, or both bits
/// reached) every stride is static. So the registers of an operand read through a swizzled
/// shared memory are not, in general, in the order of the values: FlashAttention-2's `tSrQ`
/// takes the tiles along M first, then the 64-column halves of K, then the 16-column steps.
///
/// The order is the same for every thread: it depends on the strides of the values only.
///
/// ```
/// use layout_core::mma::fragment_like;
/// use layout_core::{Layout, Swizzle, SwizzleUnit};
///
/// // A thread's partition of FlashAttention-2's Q (seed order): K tiles ((2,(2,2)) of 8192, 32,
/// // 16), 2 M tiles of 4096, the atom's 8 values.
/// let p: Layout = "((2,(2,2)),2,(2,2,2)):((8192,(32,16)),4096,(8,512,1))".parse()?;
/// let sw = Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements)?;
/// let regs = fragment_like(&p, 8, Some(sw))?;
/// // CuTe: ((_2,_2,_2),_2,((_2,_2),_2)):((_1,_2,_4),_8,((_32,_64),_16)).
/// assert_eq!(regs.to_string(), "(2,2,2,2,2,2,2):(16,64,32,8,4,2,1)");
/// // Without the swizzle the 16-column steps come first (static strides, ordered).
/// let plain = fragment_like(&p, 8, None)?;
/// assert_eq!(plain.eval_index(16)?, 8);
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::FragmentSplit`] when the fastest leaves do not make exactly `atom_values` values
/// (a leaf would be split unevenly); [`Error::FragmentSwizzleLeaf`] with a swizzle, for a leaf
/// of size > 1 whose size or stride is not a power of two (or is negative);
/// [`Error::FragmentStrideTie`] when two leaves of size > 1 ordered by stride have the same
/// stride (CuTe would give them the same registers); [`Error::Overflow`].
pub fn fragment_like(
    partition: &Layout,
    atom_values: i64,
    swizzle: Option<crate::Swizzle>,
) -> Result<Layout, Error> {
    // The leaves, fastest first (CuTe's flat order).
    let mut leaves: Vec<(i64, i64)> = partition
        .leaves()
        .iter()
        .rev()
        .map(|m| (m.size(), m.stride().value()))
        .collect();
    // CuTe's first mode: the fastest leaves up to `atom_values` values, a leaf split if needed.
    let mut mode0: Vec<(i64, i64)> = Vec::new();
    let mut have = 1i64;
    let mut i = 0;
    while have < atom_values {
        let Some(&(n, d)) = leaves.get(i) else {
            return Err(Error::FragmentSplit {
                values: atom_values,
                size: partition.size(),
            });
        };
        let need = div(atom_values, have)?;
        if n <= need {
            if rem(need, n)? != 0 {
                return Err(Error::FragmentSplit {
                    values: atom_values,
                    size: partition.size(),
                });
            }
            mode0.push((n, d));
            have = mul(have, n)?;
            i = i.saturating_add(1);
        } else {
            if rem(n, need)? != 0 {
                return Err(Error::FragmentSplit {
                    values: atom_values,
                    size: partition.size(),
                });
            }
            mode0.push((need, d));
            leaves[i] = (div(n, need)?, mul(d, need)?);
            have = mul(have, need)?;
        }
    }
    if have != atom_values {
        return Err(Error::FragmentSplit {
            values: atom_values,
            size: partition.size(),
        });
    }
    let rest: Vec<(i64, i64)> = leaves[i.min(leaves.len())..].to_vec();
    // Whether CuTe decays the swizzled slice to a plain layout with run-time strides.
    let fields = swizzle.map(|s| {
        (
            bit_mask(s.src(), s.src().saturating_add(s.bits())),
            bit_mask(s.dst(), s.dst().saturating_add(s.bits())),
            s,
        )
    });
    let mut pieces: Vec<Piece> = Vec::new();
    let decays = match fields {
        None => false,
        Some((y, z, s)) => {
            let mut active = 0u64;
            for &(n, d) in mode0.iter().chain(&rest) {
                if n == 1 {
                    continue;
                }
                let (lo, hi) =
                    bit_range(n, d).ok_or(Error::FragmentSwizzleLeaf { size: n, stride: d })?;
                active |= bit_mask(lo, hi) & (y | z);
            }
            // Both a source bit and the destination bit it moves into: not reducible.
            let moved = if s.src() > s.dst() {
                (active & y)
                    .checked_shr(s.src().abs_diff(s.dst()))
                    .unwrap_or(0)
            } else {
                (active & y)
                    .checked_shl(s.dst().abs_diff(s.src()))
                    .unwrap_or(0)
            };
            moved & active & z == 0
        }
    };
    for &(n, d) in &rest {
        match fields {
            Some((y, z, _)) if decays && n > 1 => {
                let (lo, hi) =
                    bit_range(n, d).ok_or(Error::FragmentSwizzleLeaf { size: n, stride: d })?;
                // Split at the fields' bits, fastest first; a run of static bits stays one leaf.
                let mut b = lo;
                while b < hi {
                    let in_field = |b: u32| (y | z) & bit(b) != 0;
                    if in_field(b) {
                        pieces.push(Piece {
                            size: 2,
                            stride: pow2(b)?,
                            dynamic: true,
                        });
                        b = b.saturating_add(1);
                    } else {
                        let start = b;
                        while b < hi && !in_field(b) {
                            b = b.saturating_add(1);
                        }
                        pieces.push(Piece {
                            size: pow2(b.saturating_sub(start))?,
                            stride: pow2(start)?,
                            dynamic: false,
                        });
                    }
                }
            }
            _ => pieces.push(Piece {
                size: n,
                stride: d,
                dynamic: false,
            }),
        }
    }
    // The order: static strides ascending, then run-time ones in CuTe's mode order.
    let mut order: Vec<usize> = (0..pieces.len()).filter(|&k| !pieces[k].dynamic).collect();
    order.sort_by_key(|&k| pieces[k].stride);
    let wide: Vec<i64> = order
        .iter()
        .filter(|&&k| pieces[k].size > 1)
        .map(|&k| pieces[k].stride)
        .collect();
    if let Some(w) = wide.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::FragmentStrideTie { stride: w[0] });
    }
    order.extend((0..pieces.len()).filter(|&k| pieces[k].dynamic));
    let mut registers = vec![0i64; pieces.len()];
    let mut step = atom_values.max(1);
    for &k in &order {
        registers[k] = step;
        step = mul(step, pieces[k].size)?;
    }
    // The result, seed order (slowest first): the rest pieces, then the first mode compact.
    let mut shape: Vec<Tree<i64>> = Vec::new();
    let mut stride: Vec<Tree<Stride>> = Vec::new();
    for (k, p) in pieces.iter().enumerate().rev() {
        shape.push(Tree::Leaf(p.size));
        stride.push(Tree::Leaf(Stride::Int(registers[k])));
    }
    let mut compact = vec![0i64; mode0.len()];
    let mut s = 1i64;
    for (c, &(n, _)) in compact.iter_mut().zip(&mode0) {
        *c = s;
        s = mul(s, n)?;
    }
    for (k, &(n, _)) in mode0.iter().enumerate().rev() {
        shape.push(Tree::Leaf(n));
        stride.push(Tree::Leaf(Stride::Int(compact[k])));
    }
    if shape.is_empty() {
        shape.push(Tree::Leaf(1));
        stride.push(Tree::Leaf(Stride::Int(1)));
    }
    Layout::new(Tree::Tuple(shape), Tree::Tuple(stride))
}

/// A storage map without its swizzle (the swizzle of a swizzled map, of the left side of a
/// composite such as a transposed view, or of the map a restriction such as a pipeline stage
/// fixes), and the swizzle.
fn unswizzled(storage: &Map) -> Result<(Map, Option<crate::Swizzle>), Error> {
    Ok(match storage {
        Map::Swizzled { swizzle, inner } => ((**inner).clone(), Some(*swizzle)),
        Map::Restricted { fixed, inner } => match unswizzled(inner)? {
            (plain, Some(swizzle)) => (
                Map::Restricted {
                    fixed: fixed.clone(),
                    inner: alloc::boxed::Box::new(plain),
                },
                Some(swizzle),
            ),
            (_, None) => (storage.clone(), None),
        },
        Map::Composite(c) => match &*c.left() {
            Map::Swizzled { swizzle, inner } => (compose(inner, &c.right())?, Some(*swizzle)),
            _ => (storage.clone(), None),
        },
        _ => (storage.clone(), None),
    })
}

impl TiledMma {
    /// CuTe's `thr_mma.partition_fragment_A(sA)`: the register of each value of a thread's A
    /// fragment, in CuTe's order ([`fragment_like`] of the thread's partition of `storage`
    /// without its swizzle, with the swizzle), the same for every thread. The domain is the
    /// thread's values, flat index as [`TiledMma::partition_a`] restricted to a thread.
    ///
    /// ```
    /// use layout_core::mma::{MmaAtom, TiledMma};
    /// use layout_core::{Annotated, Layout, Map, Space};
    ///
    /// let atom = MmaAtom::new(
    ///     [16, 8, 16],
    ///     Layout::from_cute("((4,8),(2,2,2)):((32,1),(16,8,128))")?,
    ///     Layout::from_cute("((4,8),(2,2)):((16,1),(8,64))")?,
    ///     Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))")?,
    /// )?;
    /// let mma = TiledMma::new(atom, [2, 2, 1], [64, 64, 32])?;
    /// // A row-major (K-major) A without a swizzle: the K tiles (stride 16) before the M tiles
    /// // (stride 32·32), so value 8 (M tile 1) is register 16.
    /// let sa: Map = Annotated::new(Layout::from_cute("(64,32):(32,1)")?, Space::Logical,
    ///     Space::Physical)?.with_tiles(Some(vec![32, 64]), None)?.into();
    /// let regs = mma.fragment_a(&sa)?;
    /// assert_eq!(regs.eval_index(8)?, 16);
    /// assert_eq!(regs.eval_index(16)?, 8);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`TiledMma::partition_a`]; [`Error::TiledCopyNotLayout`] when the thread's partition
    /// of the unswizzled storage is not a layout; as [`fragment_like`].
    pub fn fragment_a(&self, storage: &Map) -> Result<Layout, Error> {
        self.fragment(storage, Operand::A)
    }

    /// CuTe's `thr_mma.partition_fragment_B(sB)`; see [`TiledMma::fragment_a`].
    ///
    /// # Errors
    /// As [`TiledMma::fragment_a`].
    pub fn fragment_b(&self, storage: &Map) -> Result<Layout, Error> {
        self.fragment(storage, Operand::B)
    }

    /// CuTe's `partition_fragment_C(tiled_mma, shape)` over the CTA's M×N tile: a compact
    /// fragment, value `i` in register `i` (CuTe's `make_fragment_C` of the partition's shape),
    /// over the shape of the value entry of [`TiledMma::c`].
    ///
    /// # Errors
    /// As [`TiledMma::c`].
    pub fn fragment_c(&self) -> Result<Layout, Error> {
        let c = self.c()?;
        let l = layout_of(&c)?;
        let [v, _] = value_thread(&l).ok_or(Error::TiledCopyNotLayout)?;
        crate::ops::canonical(&v.0)
    }

    fn fragment(&self, storage: &Map, operand: Operand) -> Result<Layout, Error> {
        let (plain, swizzle) = unswizzled(storage)?;
        let part = match operand {
            Operand::A => self.partition_a(&plain)?,
            _ => self.partition_b(&plain)?,
        };
        let thread = part.restrict_named(&[("thread", 0)])?;
        let decision = crate::decide::decide(&thread, false)?;
        let shape = thread.domain_shape();
        let partition = crate::decide::Decision {
            constant: 0,
            ..decision
        }
        .coarsest_layout(&shape)
        .ok_or(Error::TiledCopyNotLayout)?;
        let values = div(self.atom.layout(operand).size(), self.atom.threads)?;
        fragment_like(&partition, values, swizzle)
    }
}

//! Annotated layouts, swizzles and composition as maps (spec: Constructible annotations; spec: Swizzles; spec: Composition).

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::error::Error;
use crate::layout::Layout;
use crate::space::{Space, check};
use crate::swizzle::Swizzle;
use crate::tree::Tree;

/// The top-level entries of a layout's shape (a leaf is one entry).
fn entries(shape: &Tree<i64>) -> Vec<Tree<i64>> {
    match shape {
        Tree::Leaf(_) => alloc::vec![shape.clone()],
        Tree::Tuple(v) => v.clone(),
    }
}

/// The size of a shape (the product of its leaves); `None` on overflow.
fn shape_size(shape: &Tree<i64>) -> Option<i64> {
    match shape {
        Tree::Leaf(n) => Some(*n),
        Tree::Tuple(ts) => ts
            .iter()
            .try_fold(1i64, |a, t| a.checked_mul(shape_size(t)?)),
    }
}

/// A layout with its two spaces and, on a logical side, an optional tile shape (spec: Logical tile shapes;
/// "logical index order"), checked by [`Annotated::new`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Annotated(
    /// Shared, and one pointer wide: a map that holds this layout (a composite, a swizzle)
    /// copies a pointer.
    Arc<Parts>,
);

impl core::fmt::Debug for Annotated {
    /// The fields, as a struct named `Annotated` (the sharing is not shown).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let p = &self.0;
        f.debug_struct("Annotated")
            .field("layout", &p.layout)
            .field("domain", &p.domain)
            .field("codomain", &p.codomain)
            .field("domain_tile", &p.domain_tile)
            .field("codomain_tile", &p.codomain_tile)
            .finish()
    }
}

/// What an [`Annotated`] holds.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Parts {
    layout: Layout,
    domain: Space,
    codomain: Space,
    domain_tile: Option<Vec<i64>>,
    codomain_tile: Option<Vec<i64>>,
}

impl Annotated {
    /// Checks `layout` as a `domain -> codomain` layout ([`check`]).
    ///
    /// # Errors
    /// As [`check`].
    pub fn new(layout: Layout, domain: Space, codomain: Space) -> Result<Annotated, Error> {
        check(&layout, domain, codomain)?;
        Ok(Annotated(Arc::new(Parts {
            layout,
            domain,
            codomain,
            domain_tile: None,
            codomain_tile: None,
        })))
    }

    /// Attaches tile shapes (seed order, slowest extent first) to the logical sides.
    ///
    /// # Errors
    /// [`Error::TileNotLogical`] for a tile on a side that is not logical, [`Error::TileSize`]
    /// when the extents do not multiply to the layout's size.
    pub fn with_tiles(
        mut self,
        domain_tile: Option<Vec<i64>>,
        codomain_tile: Option<Vec<i64>>,
    ) -> Result<Annotated, Error> {
        for (tile, space) in [
            (&domain_tile, self.0.domain),
            (&codomain_tile, self.0.codomain),
        ] {
            if let Some(t) = tile {
                check_tile(t, space, self.0.layout.size())?;
            }
        }
        // Not yet shared when just built; otherwise copied once.
        let parts = Arc::make_mut(&mut self.0);
        parts.domain_tile = domain_tile;
        parts.codomain_tile = codomain_tile;
        Ok(self)
    }

    /// The layout.
    #[must_use]
    pub fn layout(&self) -> &Layout {
        &self.0.layout
    }

    /// Whether the layout is a dense bijection onto `[0, size)` by construction: its codomain
    /// is logical or thread-value, which [`check`] admits only for one.
    #[inline(always)]
    pub(crate) fn is_dense_bijection(&self) -> bool {
        self.0.codomain.requires_dense()
    }
}

/// The parts of a sub-shape `shape` of a domain entry that a value mirroring it names, depth
/// first: each a sub-shape and its fixed flat index (`None`: free). `path` is the sub-shape's
/// mode path (entry first).
fn slice_parts(
    shape: &Tree<i64>,
    value: &Tree<Option<i64>>,
    path: &mut Vec<usize>,
    out: &mut Vec<(Tree<i64>, Option<i64>)>,
) -> Result<(), Error> {
    match (value, shape) {
        (Tree::Leaf(None), _) => out.push((shape.clone(), None)),
        (Tree::Leaf(Some(v)), _) => {
            let size = shape_size(shape).unwrap_or(i64::MAX);
            if !(0..size).contains(v) {
                return Err(Error::CoordOutOfRange {
                    mode: crate::ModePath::from_indices(path)?,
                    value: *v,
                    size,
                });
            }
            out.push((shape.clone(), Some(*v)));
        }
        (Tree::Tuple(vs), Tree::Tuple(ss)) if vs.len() == ss.len() => {
            for (i, (v, s)) in vs.iter().zip(ss).enumerate() {
                path.push(i);
                slice_parts(s, v, path, out)?;
                path.pop();
            }
        }
        (Tree::Tuple(vs), _) => {
            return Err(Error::CoordProfile {
                mode: crate::ModePath::from_indices(path)?,
                shape_rank: shape.rank(),
                coord_rank: vs.len(),
            });
        }
    }
    Ok(())
}

/// Checks a tile shape on a side of the given space and size: only a logical side carries one,
/// and its extents multiply to `size`.
///
/// # Errors
/// [`Error::TileNotLogical`], [`Error::TileSize`] (also when the product overflows).
pub fn check_tile(tile: &[i64], space: Space, size: i64) -> Result<(), Error> {
    if space != Space::Logical {
        return Err(Error::TileNotLogical { space });
    }
    if let Some((position, &extent)) = tile.iter().enumerate().find(|(_, k)| **k < 1) {
        return Err(Error::TileExtent { position, extent });
    }
    match tile.iter().try_fold(1i64, |acc, &k| acc.checked_mul(k)) {
        Some(p) if p == size => Ok(()),
        Some(p) => Err(Error::TileSize { tile: p, size }),
        None => Err(Error::Overflow {
            mode: crate::ModePath::ROOT,
            what: crate::Quantity::Positions,
        }),
    }
}

/// Compares the tile shapes of the two sides a composition joins.
///
/// # Errors
/// [`Error::TileMismatch`] at the first differing extent, or when the ranks differ.
pub fn check_same_tile(left: &[i64], right: &[i64]) -> Result<(), Error> {
    if left == right {
        return Ok(());
    }
    let position = left
        .iter()
        .zip(right)
        .position(|(a, b)| a != b)
        .unwrap_or(left.len().min(right.len()));
    Err(Error::TileMismatch {
        left_rank: left.len(),
        right_rank: right.len(),
        position,
        left: left.get(position).copied().unwrap_or(0),
        right: right.get(position).copied().unwrap_or(0),
    })
}

/// A map built from checked layouts: a layout, a swizzle after a map into physical, or a
/// composition (spec: Composition). Evaluated at flat indices of its domain (last mode fastest).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Map {
    /// One annotated layout.
    Layout(Annotated),
    /// `σ ∘ inner`, `inner` into physical.
    Swizzled {
        /// The swizzle.
        swizzle: Swizzle,
        /// The map it follows.
        inner: Box<Map>,
    },
    /// `left ∘ right`: `right` first. Two annotated layouts are held inline (building the
    /// composite allocates nothing); any other pair shares one allocation. Cloning a composite
    /// copies pointers.
    Composite(Composite),
    /// `inner|p` (spec: Restriction): `inner` with some top-level entries of its domain
    /// fixed. Its domain is the remaining entries, in order.
    Restricted {
        /// `(entry, value)` pairs: entry numbers of `inner`'s domain (0-based), each value a flat
        /// index into that entry (unflattened into it, last leaf fastest). Sorted by entry.
        fixed: Vec<(usize, i64)>,
        /// The map being sliced; never itself `Restricted`. After a slice with free parts
        /// ([`Map::slice_entries`]) its domain's entries are the parts of the entries that were
        /// split (its function is the original map's).
        inner: Box<Map>,
    },
}

/// The operands of a [`Map::Composite`], `left ∘ right` (`right` first), held together:
/// two annotated layouts as two shared pointers, inline; any other pair in one shared
/// allocation. Built only by [`compose`] (and the operations made of it), so its operands
/// always satisfy [`compose`]'s checks.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Composite(Operands);

/// How a [`Composite`] holds its operands. Two annotated layouts are always `Layouts` (never
/// `Maps`), so that the derived equality is the equality of the operands.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Operands {
    /// `left`, `right`: two annotated layouts.
    Layouts(Annotated, Annotated),
    /// `(left, right)`, at least one of them not an annotated layout.
    Maps(Arc<(Map, Map)>),
}

impl Composite {
    /// The composite of `left` and `right`, which passed [`compose`]'s checks.
    pub(crate) fn new(left: Map, right: Map) -> Composite {
        Composite(match (left, right) {
            (Map::Layout(l), Map::Layout(r)) => Operands::Layouts(l, r),
            (left, right) => Operands::Maps(Arc::new((left, right))),
        })
    }

    /// The outer map, domain logical: borrowed, or, when both operands are annotated layouts,
    /// a [`Map::Layout`] sharing the layout (a pointer copied).
    #[must_use]
    pub fn left(&self) -> Cow<'_, Map> {
        match &self.0 {
            Operands::Layouts(l, _) => Cow::Owned(Map::Layout(l.clone())),
            Operands::Maps(p) => Cow::Borrowed(&p.0),
        }
    }

    /// The inner map, into logical, a dense bijection onto the left domain: borrowed, or, when
    /// both operands are annotated layouts, a [`Map::Layout`] sharing the layout.
    #[must_use]
    pub fn right(&self) -> Cow<'_, Map> {
        match &self.0 {
            Operands::Layouts(_, r) => Cow::Owned(Map::Layout(r.clone())),
            Operands::Maps(p) => Cow::Borrowed(&p.1),
        }
    }

    /// The two operands, `(left, right)`, when both are annotated layouts.
    #[must_use]
    #[inline]
    pub fn layouts(&self) -> Option<(&Annotated, &Annotated)> {
        match &self.0 {
            Operands::Layouts(l, r) => Some((l, r)),
            Operands::Maps(_) => None,
        }
    }

    /// Whether `other` holds the very same operands, not copies, by pointer: what a clone of a
    /// composite shares with it. Two composites of two annotated layouts that `compose` built
    /// apart from the same operands share them too (an [`Annotated`] is a shared pointer); two
    /// built apart from other operands (a swizzled or restricted one, a composite) do not.
    #[must_use]
    pub fn shares_operands(&self, other: &Composite) -> bool {
        match (&self.0, &other.0) {
            (Operands::Layouts(l, r), Operands::Layouts(l2, r2)) => {
                Arc::ptr_eq(&l.0, &l2.0) && Arc::ptr_eq(&r.0, &r2.0)
            }
            (Operands::Maps(p), Operands::Maps(q)) => Arc::ptr_eq(p, q),
            _ => false,
        }
    }

    /// The two operands, `(left, right)`, when at least one is not an annotated layout.
    #[inline]
    fn maps(&self) -> Option<&(Map, Map)> {
        match &self.0 {
            Operands::Layouts(..) => None,
            Operands::Maps(p) => Some(p),
        }
    }
}

impl core::fmt::Debug for Composite {
    /// The operands, as a struct named `Composite` with the fields `left` and `right`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Composite")
            .field("left", &*self.left())
            .field("right", &*self.right())
            .finish()
    }
}

impl From<Annotated> for Map {
    fn from(a: Annotated) -> Map {
        Map::Layout(a)
    }
}

impl Map {
    /// The layout itself when the map is one annotated layout; `None` for a composite, a
    /// swizzle or a restriction (whose function is not this one value).
    ///
    /// ```
    /// use layout_core::{Annotated, Map, Space};
    /// let m: Map = Annotated::new("(4,8):(8,1)".parse()?, Space::Logical, Space::Physical)?.into();
    /// assert_eq!(m.as_layout().map(ToString::to_string).as_deref(), Some("(4,8):(8,1)"));
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    #[must_use]
    pub fn as_layout(&self) -> Option<&Layout> {
        match self {
            Map::Layout(a) => Some(a.layout()),
            _ => None,
        }
    }

    /// The space of the domain.
    #[must_use]
    #[inline]
    pub fn domain(&self) -> Space {
        match self {
            Map::Layout(a) => a.0.domain,
            Map::Swizzled { inner, .. } => inner.domain(),
            Map::Composite(c) => match &c.0 {
                Operands::Layouts(_, r) => r.0.domain,
                Operands::Maps(p) => p.1.domain(),
            },
            Map::Restricted { inner, .. } => inner.domain(),
        }
    }

    /// The space of the codomain.
    #[must_use]
    #[inline]
    pub fn codomain(&self) -> Space {
        match self {
            Map::Layout(a) => a.0.codomain,
            Map::Swizzled { .. } => Space::Physical,
            Map::Composite(c) => match &c.0 {
                Operands::Layouts(l, _) => l.0.codomain,
                Operands::Maps(p) => p.0.codomain(),
            },
            Map::Restricted { inner, .. } => inner.codomain(),
        }
    }

    /// Number of coordinates of the domain.
    #[must_use]
    #[inline]
    pub fn size(&self) -> i64 {
        // The domain is set by the innermost right operand: walk down to it without recursion.
        let mut m = self;
        loop {
            match m {
                Map::Layout(a) => return a.0.layout.size(),
                Map::Swizzled { inner, .. } => m = inner,
                Map::Composite(c) => match &c.0 {
                    Operands::Layouts(_, r) => return r.0.layout.size(),
                    Operands::Maps(p) => m = &p.1,
                },
                Map::Restricted { .. } => return m.restricted_size(),
            }
        }
    }

    /// The size of a restriction's domain: the product of its free entries.
    #[cold]
    fn restricted_size(&self) -> i64 {
        self.domain_shape().leaves().into_iter().product()
    }

    /// The shape of the domain, in seed order: the layout's shape, the right operand's for a
    /// composite, the free entries for a restriction.
    #[must_use]
    pub fn domain_shape(&self) -> Tree<i64> {
        match self {
            Map::Layout(a) => a.0.layout.shape().clone(),
            Map::Swizzled { inner, .. } => inner.domain_shape(),
            Map::Composite(c) => c.right().domain_shape(),
            Map::Restricted { .. } => {
                let free = self.domain_entries();
                match free.len() {
                    1 => free.into_iter().next().unwrap_or(Tree::Leaf(1)),
                    0 => Tree::Leaf(1),
                    _ => Tree::Tuple(free),
                }
            }
        }
    }

    /// The top-level entries of the domain, in order: those of the layout's shape (a leaf
    /// shape is one entry), the right operand's for a composite, and for a restriction the
    /// entries its inner map leaves free. A restriction that leaves one entry free has that
    /// one entry, whatever its shape: its [`Map::domain_shape`] is the entry itself (a rank-1
    /// tuple is its entry; spec: Notation), whose children are not entries of the domain. Every
    /// numbering of entries ([`Map::restrict`], [`Map::entry_index`], run-time values, the
    /// by-mode coordinates of emitted code) counts these.
    ///
    /// ```
    /// use layout_core::{Annotated, Map, Space, Tree};
    /// let r: Map = Annotated::new("(2,(3,4)):(12,(4,1))".parse()?, Space::Logical, Space::Physical)?.into();
    /// let slice = r.restrict(&[(0, 1)])?;
    /// let entry = Tree::Tuple(vec![Tree::Leaf(3), Tree::Leaf(4)]);
    /// assert_eq!(slice.domain_entries(), vec![entry.clone()]);
    /// assert_eq!(slice.domain_shape(), entry);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    #[must_use]
    pub fn domain_entries(&self) -> Vec<Tree<i64>> {
        match self {
            Map::Layout(a) => entries(a.0.layout.shape()),
            Map::Swizzled { inner, .. } => inner.domain_entries(),
            Map::Composite(c) => c.right().domain_entries(),
            Map::Restricted { fixed, inner } => inner
                .domain_entries()
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !fixed.iter().any(|(e, _)| e == i))
                .map(|(_, t)| t)
                .collect(),
        }
    }

    /// The sizes of the domain's top-level entries ([`Map::domain_entries`]), each the
    /// product of its leaves (at most the domain's size, which fits `i64`).
    #[must_use]
    pub fn domain_entry_sizes(&self) -> Vec<i64> {
        // Walked without cloning the entries: a restriction's evaluation needs these sizes at
        // every index.
        match self {
            Map::Layout(a) => match a.0.layout.shape() {
                Tree::Tuple(ts) => ts
                    .iter()
                    .map(|t| shape_size(t).unwrap_or(i64::MAX))
                    .collect(),
                t => alloc::vec![shape_size(t).unwrap_or(i64::MAX)],
            },
            Map::Swizzled { inner, .. } => inner.domain_entry_sizes(),
            Map::Composite(c) => c.right().domain_entry_sizes(),
            Map::Restricted { fixed, inner } => inner
                .domain_entry_sizes()
                .into_iter()
                .enumerate()
                .filter(|(i, _)| !fixed.iter().any(|(e, _)| e == i))
                .map(|(_, n)| n)
                .collect(),
        }
    }

    /// The names of the domain's top-level entries (empty when none is named).
    #[must_use]
    pub fn domain_names(&self) -> Vec<Option<String>> {
        match self {
            Map::Layout(a) => a.0.layout.names().to_vec(),
            Map::Swizzled { inner, .. } => inner.domain_names(),
            Map::Composite(c) => c.right().domain_names(),
            Map::Restricted { fixed, inner } => {
                let names = inner.domain_names();
                if names.is_empty() {
                    return names;
                }
                names
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| !fixed.iter().any(|(e, _)| e == i))
                    .map(|(_, n)| n)
                    .collect()
            }
        }
    }

    /// `self|p`: fixes top-level entries of the domain (spec: Restriction).
    /// Entries are numbered from 0 among the entries still free (the seed numbers from 1);
    /// each value is a flat index into its entry. Restricting a restriction fixes the union.
    /// Only for maps into physical: a slice is not dense, so it can never feed a composition.
    ///
    /// ```
    /// use layout_core::{Annotated, Map, Space};
    /// let f: Map = Annotated::new("(4,8,4):(32,1,8)".parse()?, Space::Logical, Space::Physical)?.into();
    /// let slice = f.restrict(&[(0, 2)])?;            // (spec: Restriction): 64 + r + 8·v
    /// assert_eq!(slice.eval_index(0)?, 64);
    /// assert_eq!(slice.eval_index(4 + 1)?, 64 + 1 + 8);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::RestrictNotPhysical`], [`Error::RestrictEntry`] for an entry past the free
    /// ones, [`Error::RepeatedMode`] for an entry fixed twice, [`Error::CoordOutOfRange`] for a
    /// value outside its entry.
    pub fn restrict(&self, fixed: &[(usize, i64)]) -> Result<Map, Error> {
        if self.codomain() != Space::Physical {
            return Err(Error::RestrictNotPhysical {
                codomain: self.codomain(),
            });
        }
        let (base, mut all) = match self {
            Map::Restricted { fixed, inner } => (inner.as_ref(), fixed.clone()),
            other => (other, Vec::new()),
        };
        let entries = base.domain_entries();
        let mut free: Vec<usize> = (0..entries.len())
            .filter(|i| !all.iter().any(|(e, _)| e == i))
            .collect();
        let rank = free.len();
        let mut taken = Vec::new();
        for &(entry, value) in fixed {
            let Some(&original) = free.get(entry) else {
                return Err(Error::RestrictEntry { entry, rank });
            };
            if taken.contains(&entry) {
                return Err(Error::RepeatedMode { index: entry });
            }
            taken.push(entry);
            let size: i64 = entries[original].leaves().into_iter().product();
            if !(0..size).contains(&value) {
                return Err(Error::CoordOutOfRange {
                    mode: crate::ModePath::from_indices(&[original])?,
                    value,
                    size,
                });
            }
            all.push((original, value));
        }
        free.retain(|i| !all.iter().any(|(e, _)| e == i));
        all.sort_unstable();
        Ok(Map::Restricted {
            fixed: all,
            inner: Box::new(base.clone()),
        })
    }

    /// `self|p` with free parts (CuTe's `slice` with `_`): fixes parts of top-level entries of
    /// the domain, at any depth, and leaves the others free.
    ///
    /// Each pair is an entry, numbered from 0 among the entries still free (as
    /// [`Map::restrict`] numbers them), and a value that mirrors the entry's shape:
    /// `Leaf(Some(v))` fixes the whole sub-shape it stands for at flat index `v` (last leaf
    /// fastest), `Leaf(None)` (`_`) leaves that sub-shape free, and a `Tuple` has one value per
    /// entry of the sub-shape's tuple. Entries not listed stay free.
    ///
    /// The domain of the result is the free parts in order, each keeping its shape, as the
    /// `_` modes of CuTe's `slice`: the domain's entries in order, an entry not listed (or
    /// whose value is `_`) as one part; an entry with a tuple value contributes, depth first,
    /// the sub-shape of each `_` of its value, each as one top-level entry of the result (a
    /// nested free part is not kept inside the tuple it came from: its siblings that were fixed
    /// are gone). With one free part the domain is that part; with none it is the one
    /// coordinate of size 1. Names stay on the entries that are free whole; a part of an
    /// entry has none. Slicing a restriction fixes the union, as [`Map::restrict`] does.
    ///
    /// ```
    /// use layout_core::{Annotated, Map, Space, Tree};
    /// // ((2,4),8):((64,8),1): fix the 2 of the first entry to 1 and the 8 to 3, keep the 4.
    /// let f: Map = Annotated::new("((2,4),8):((64,8),1)".parse()?, Space::Logical, Space::Physical)?.into();
    /// let value = Tree::Tuple(vec![Tree::Leaf(Some(1)), Tree::Leaf(None)]);
    /// let s = f.slice_entries(&[(0, value), (1, Tree::Leaf(Some(3)))])?;
    /// assert_eq!(s.domain_shape(), Tree::Leaf(4));
    /// assert_eq!(s.eval_index(2)?, 64 + 2 * 8 + 3);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::RestrictNotPhysical`]; [`Error::RestrictEntry`] for an entry past the free ones,
    /// [`Error::RepeatedMode`] for one listed twice; [`Error::CoordProfile`] where a tuple value's rank differs from the
    /// sub-shape's (a tuple against an integer has rank 1 there); [`Error::CoordOutOfRange`]
    /// for a value outside its sub-shape (its mode path counts the entries of the map's inner
    /// domain, as [`Map::restrict`]'s does).
    pub fn slice_entries(&self, fixed: &[(usize, Tree<Option<i64>>)]) -> Result<Map, Error> {
        if self.codomain() != Space::Physical {
            return Err(Error::RestrictNotPhysical {
                codomain: self.codomain(),
            });
        }
        let (base, own) = match self {
            Map::Restricted { fixed, inner } => (inner.as_ref(), fixed.clone()),
            other => (other, Vec::new()),
        };
        let entries = base.domain_entries();
        let free: Vec<usize> = (0..entries.len())
            .filter(|i| !own.iter().any(|(e, _)| e == i))
            .collect();
        // Per entry of `base`: its parts, each a sub-shape and its value (`None`: free).
        let mut parts: Vec<Vec<(Tree<i64>, Option<i64>)>> = entries
            .iter()
            .map(|t| alloc::vec![(t.clone(), None)])
            .collect();
        let mut split = false;
        let mut taken = Vec::new();
        for (entry, value) in fixed {
            let Some(&original) = free.get(*entry) else {
                return Err(Error::RestrictEntry {
                    entry: *entry,
                    rank: free.len(),
                });
            };
            if taken.contains(entry) {
                return Err(Error::RepeatedMode { index: *entry });
            }
            taken.push(*entry);
            let mut out = Vec::new();
            let mut path = alloc::vec![original];
            slice_parts(&entries[original], value, &mut path, &mut out)?;
            split |= matches!(value, Tree::Tuple(_));
            parts[original] = out;
        }
        // The base with every split entry's parts as top-level entries; the entries already
        // fixed are whole (never split), renumbered past the parts before them.
        let mut new_index = Vec::with_capacity(parts.len());
        let mut next = 0usize;
        for p in &parts {
            new_index.push(next);
            next = next.saturating_add(p.len());
        }
        let base = if split {
            let shapes: Vec<Vec<Tree<i64>>> = parts
                .iter()
                .map(|p| p.iter().map(|(t, _)| t.clone()).collect())
                .collect();
            base.split_domain(&shapes)?
        } else {
            base.clone()
        };
        // `own` holds entries of `base` (a restriction built by hand may hold others: refused).
        let mut all: Vec<(usize, i64)> = own
            .iter()
            .map(|&(e, v)| {
                new_index
                    .get(e)
                    .map(|&i| (i, v))
                    .ok_or(Error::RestrictEntry {
                        entry: e,
                        rank: entries.len(),
                    })
            })
            .collect::<Result<_, _>>()?;
        for (e, p) in parts.iter().enumerate() {
            for (k, (_, v)) in p.iter().enumerate() {
                if let Some(v) = v {
                    all.push((new_index[e].saturating_add(k), *v));
                }
            }
        }
        all.sort_unstable();
        Ok(Map::Restricted {
            fixed: all,
            inner: Box::new(base),
        })
    }

    /// [`Map::slice_entries`] by one value for the whole domain, CuTe's `tensor(_, _, k)`: a
    /// tuple with one element per top-level entry of the domain (free entries, for a
    /// restriction), or, for a domain of one entry, that entry's value.
    ///
    /// ```
    /// use layout_core::{Annotated, Map, Space, Tree};
    /// let f: Map = Annotated::new("(4,8,2):(16,1,8)".parse()?, Space::Logical, Space::Physical)?.into();
    /// let k = Tree::Tuple(vec![Tree::Leaf(None), Tree::Leaf(None), Tree::Leaf(Some(1))]);
    /// let s = f.slice(&k)?;
    /// assert_eq!(s.domain_shape(), Tree::Tuple(vec![Tree::Leaf(4), Tree::Leaf(8)]));
    /// assert_eq!(s.eval_index(8 + 3)?, 16 + 3 + 8);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::CoordProfile`] at the root when a tuple's rank is not the number of entries
    /// (an integer or `_` for a domain of several entries has rank 1); then as
    /// [`Map::slice_entries`].
    pub fn slice(&self, value: &Tree<Option<i64>>) -> Result<Map, Error> {
        let rank = self.domain_entries().len();
        if rank == 1 {
            return self.slice_entries(&[(0, value.clone())]);
        }
        match value {
            Tree::Tuple(v) if v.len() == rank => {
                let pairs: Vec<(usize, Tree<Option<i64>>)> = v
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| !matches!(t, Tree::Leaf(None)))
                    .map(|(i, t)| (i, t.clone()))
                    .collect();
                self.slice_entries(&pairs)
            }
            _ => Err(Error::CoordProfile {
                mode: crate::ModePath::ROOT,
                shape_rank: rank,
                coord_rank: value.rank(),
            }),
        }
    }

    /// The same map with its domain's top-level entries regrouped: entry `i` is replaced by
    /// the entries `parts[i]`, whose leaves are its leaves in order (one part: kept, with its
    /// name; several: unnamed). The function of a flat index is unchanged.
    fn split_domain(&self, parts: &[Vec<Tree<i64>>]) -> Result<Map, Error> {
        match self {
            Map::Layout(a) => {
                let l = a.layout();
                let strides = l.stride().leaves().into_iter().copied().collect::<Vec<_>>();
                let mut strides = strides.into_iter();
                let mut shape = Vec::new();
                let mut stride = Vec::new();
                let names = l.names();
                let mut new_names = Vec::new();
                for (i, p) in parts.iter().enumerate() {
                    for t in p {
                        stride
                            .push(t.map(&mut |_| strides.next().unwrap_or(crate::Stride::Int(1))));
                        shape.push(t.clone());
                        new_names.push(if p.len() == 1 {
                            names.get(i).cloned().flatten()
                        } else {
                            None
                        });
                    }
                }
                let (shape, stride) = if shape.len() == 1 {
                    (shape.swap_remove(0), stride.swap_remove(0))
                } else {
                    (Tree::Tuple(shape), Tree::Tuple(stride))
                };
                // A domain tile of the top-level sizes stays one: the new entries' sizes.
                let sizes =
                    |v: &[Tree<i64>]| -> Option<Vec<i64>> { v.iter().map(shape_size).collect() };
                let split: Vec<Tree<i64>> = parts.iter().flatten().cloned().collect();
                let tile = match &a.0.domain_tile {
                    Some(t) if sizes(&entries(l.shape())).as_ref() == Some(t) => sizes(&split),
                    t => t.clone(),
                };
                let layout = Layout::new(shape, stride)?.with_names(new_names)?;
                Ok(Annotated::new(layout, a.0.domain, a.0.codomain)?
                    .with_tiles(tile, a.0.codomain_tile.clone())?
                    .into())
            }
            Map::Swizzled { swizzle, inner } => Ok(Map::Swizzled {
                swizzle: *swizzle,
                inner: Box::new(inner.split_domain(parts)?),
            }),
            Map::Composite(c) => compose(&c.left(), &c.right().split_domain(parts)?),
            Map::Restricted { .. } => Err(Error::RestrictEntry { entry: 0, rank: 0 }),
        }
    }

    /// The flat index, within top-level entry `entry` of the domain, of a coordinate of that
    /// entry's shape (natural or coarser, last leaf fastest): what [`Map::restrict`] takes when a
    /// value is written as a coordinate (spec: Restriction; "a value is an integer … or a coordinate of the
    /// entry's shape").
    ///
    /// ```
    /// use layout_core::{Annotated, Map, Space, Tree};
    /// let f: Map = Annotated::new("((2,4),8):((64,8),1)".parse()?, Space::Logical, Space::Physical)?.into();
    /// let c = Tree::Tuple(vec![Tree::Leaf(1), Tree::Leaf(3)]);
    /// assert_eq!(f.entry_index(0, &c)?, 7);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::RestrictEntry`] past the domain's entries; [`Error::CoordOutOfRange`] /
    /// [`Error::CoordProfile`] for a coordinate that does not fit the entry.
    pub fn entry_index(&self, entry: usize, coord: &Tree<i64>) -> Result<i64, Error> {
        let entries = self.domain_entries();
        let shape = entries.get(entry).ok_or(Error::RestrictEntry {
            entry,
            rank: entries.len(),
        })?;
        crate::ops::canonical(shape)?.eval(coord)
    }

    /// [`Map::restrict`] by the names of top-level entries (`thread`, or `rest` after `divide`).
    ///
    /// # Errors
    /// [`Error::UnknownModeName`], then as [`Map::restrict`].
    pub fn restrict_named(&self, fixed: &[(&str, i64)]) -> Result<Map, Error> {
        let names = self.domain_names();
        let mut by_index = Vec::new();
        for (name, value) in fixed {
            let i = names
                .iter()
                .position(|n| n.as_deref() == Some(*name))
                .ok_or(Error::UnknownModeName)?;
            by_index.push((i, *value));
        }
        self.restrict(&by_index)
    }

    /// The tile shape of the domain, if it carries one.
    #[must_use]
    #[inline]
    pub fn domain_tile(&self) -> Option<&[i64]> {
        match self {
            Map::Layout(a) => a.0.domain_tile.as_deref(),
            Map::Swizzled { inner, .. } => inner.domain_tile(),
            Map::Composite(c) => match &c.0 {
                Operands::Layouts(_, r) => r.0.domain_tile.as_deref(),
                Operands::Maps(p) => p.1.domain_tile(),
            },
            Map::Restricted { .. } => None,
        }
    }

    /// The tile shape of the domain, if it carries one, also for a restriction: the unrestricted
    /// domain's tile less the fixed entries when that tile is the domain's top-level sizes (a
    /// restricted domain indexes the free entries in the same order). Any other tile of a
    /// restricted domain is returned whole, so that a composition checks it against the right
    /// operand's tile (and refuses it) instead of dropping it.
    #[must_use]
    pub fn domain_tile_shape(&self) -> Option<Vec<i64>> {
        let Map::Restricted { fixed, inner } = self else {
            return self.domain_tile().map(<[i64]>::to_vec);
        };
        let tile = inner.domain_tile_shape()?;
        let sizes: Option<Vec<i64>> = inner.domain_entries().iter().map(shape_size).collect();
        if sizes.as_ref() != Some(&tile) {
            return Some(tile);
        }
        let free: Vec<i64> = tile
            .iter()
            .enumerate()
            .filter(|(i, _)| !fixed.iter().any(|(e, _)| e == i))
            .map(|(_, &k)| k)
            .collect();
        Some(if free.is_empty() {
            alloc::vec![1]
        } else {
            free
        })
    }

    /// The tile shape of the codomain, if it carries one.
    #[must_use]
    #[inline]
    pub fn codomain_tile(&self) -> Option<&[i64]> {
        match self {
            Map::Layout(a) => a.0.codomain_tile.as_deref(),
            Map::Swizzled { .. } => None,
            Map::Composite(c) => match &c.0 {
                Operands::Layouts(l, _) => l.0.codomain_tile.as_deref(),
                Operands::Maps(p) => p.0.codomain_tile(),
            },
            Map::Restricted { inner, .. } => inner.codomain_tile(),
        }
    }

    /// Whether a swizzle is the last step.
    #[must_use]
    #[inline]
    pub fn is_swizzled(&self) -> bool {
        match self {
            Map::Layout(_) => false,
            Map::Swizzled { .. } => true,
            Map::Composite(c) => c.maps().is_some_and(|(left, _)| left.is_swizzled()),
            Map::Restricted { inner, .. } => inner.is_swizzled(),
        }
    }

    /// Whether this is a restriction (never a right operand of a composition).
    #[must_use]
    #[inline]
    pub fn is_restricted(&self) -> bool {
        matches!(self, Map::Restricted { .. })
    }

    /// `σ ∘ self`.
    ///
    /// # Errors
    /// [`Error::SwizzleNotPhysical`] unless this map is into physical,
    /// [`Error::SwizzleNegativeOffset`] when it reaches a negative offset (every form of map is
    /// checked, a restriction by its exact smallest offset); [`Error::DecideTooLarge`] when
    /// that offset of a restriction of a composite needs an enumeration past
    /// [`crate::DECIDE_LIMIT`] coordinates.
    pub fn swizzle(self, swizzle: Swizzle) -> Result<Map, Error> {
        if self.codomain() != Space::Physical {
            return Err(Error::SwizzleNotPhysical {
                codomain: self.codomain(),
            });
        }
        if let Some(min) = self.negative_min()? {
            return Err(Error::SwizzleNegativeOffset { min });
        }
        Ok(Map::Swizzled {
            swizzle,
            inner: Box::new(self),
        })
    }

    /// The smallest offset when it is negative, exactly; `None` when every offset is at least
    /// 0. A layout: its span. A swizzled map: never (its inner map was checked, and a swizzle
    /// flips bits below bit 62 only, so it keeps the sign). A composite: its left operand's
    /// (the right operand is a bijection onto the left's domain, so the offsets agree). A
    /// restriction reaches a subset of its inner map's offsets: none is negative when none of
    /// the inner map's is; otherwise its exact smallest offset, from the decided layout (its
    /// constant plus the negative pieces, O(rank) for a restriction of a layout) or, when the
    /// slice is not a layout, by enumeration.
    fn negative_min(&self) -> Result<Option<i64>, Error> {
        let min = match self {
            Map::Layout(a) => a.0.layout.span().0,
            Map::Swizzled { .. } => return Ok(None),
            Map::Composite(c) => return c.left().negative_min(),
            Map::Restricted { inner, .. } => {
                if inner.negative_min()?.is_none() {
                    return Ok(None);
                }
                self.restricted_min()?
            }
        };
        Ok((min < 0).then_some(min))
    }

    /// The exact smallest offset of a restriction (see [`Map::negative_min`]).
    fn restricted_min(&self) -> Result<i64, Error> {
        let overflow = Error::Overflow {
            mode: crate::ModePath::ROOT,
            what: crate::Quantity::Offset,
        };
        let d = crate::decide::decide(self, false)?;
        if let Ok(chains) = &d.result {
            let mut min = i128::from(d.constant);
            for c in chains {
                for (&m, &s) in c.shape.iter().zip(c.strides) {
                    let reach = i128::from(m.checked_sub(1).ok_or(overflow)?)
                        .checked_mul(i128::from(s))
                        .ok_or(overflow)?;
                    min = min.checked_add(reach.min(0)).ok_or(overflow)?;
                }
            }
            return i64::try_from(min).map_err(|_| overflow);
        }
        // Not a layout: `decide` tabulated it, so its size is within the limit.
        (0..self.size()).try_fold(i64::MAX, |min, i| Ok(min.min(self.eval_index(i)?)))
    }

    /// The value at flat index `index` of the domain.
    ///
    /// # Errors
    /// [`Error::IndexOutOfRange`] outside `[0, size)`.
    pub fn eval_index(&self, index: i64) -> Result<i64, Error> {
        match self {
            Map::Layout(a) => a.0.layout.eval_index(index),
            Map::Swizzled { swizzle, inner } => Ok(swizzle.apply(inner.eval_index(index)?)),
            Map::Composite(c) => match &c.0 {
                Operands::Layouts(l, r) => l.0.layout.eval_index(r.0.layout.eval_index(index)?),
                Operands::Maps(p) => p.0.eval_index(p.1.eval_index(index)?),
            },
            Map::Restricted { fixed, inner } => {
                // Rebuild the inner flat index: free entries take digits of `index` (last
                // fastest), fixed entries their value.
                let sizes = inner.domain_entry_sizes();
                // The restriction's size: the product of the free entries' sizes.
                let size = sizes
                    .iter()
                    .enumerate()
                    .filter(|(e, _)| !fixed.iter().any(|(f, _)| f == e))
                    .try_fold(1i64, |a, (_, &n)| a.checked_mul(n))
                    .unwrap_or(i64::MAX);
                if !(0..size).contains(&index) {
                    return Err(Error::IndexOutOfRange { index, size });
                }
                let mut rest = index;
                let mut weight = 1i64;
                let mut flat = 0i64;
                let overflow = Error::Overflow {
                    mode: crate::ModePath::ROOT,
                    what: crate::Quantity::Positions,
                };
                for (e, &n) in sizes.iter().enumerate().rev() {
                    let digit = match fixed.iter().find(|(f, _)| *f == e) {
                        Some((_, v)) => *v,
                        None => {
                            let d = rest.checked_rem(n).ok_or(overflow)?;
                            rest = rest.checked_div(n).ok_or(overflow)?;
                            d
                        }
                    };
                    let term = digit.checked_mul(weight).ok_or(overflow)?;
                    flat = flat.checked_add(term).ok_or(overflow)?;
                    weight = weight.checked_mul(n).ok_or(overflow)?;
                }
                inner.eval_index(flat)
            }
        }
    }
}

/// `left ∘ right` (spec: Composition): `right : X -> logical` first, then
/// `left : logical -> Y`, giving `X -> Y`. CuTe: `composition(left, right)`.
///
/// The one precondition is that `right` is a dense bijection onto `[0, size(left))`. Its
/// codomain being logical makes it dense (checked when it was built), so what remains is
/// `size(right) = size(left)`, and equal tile shapes where both sides carry one.
///
/// ```
/// use layout_core::{compose, Annotated, Layout, Map, Space};
/// let smem = Annotated::new("(16,32):(32,1)".parse()?, Space::Logical, Space::Physical)?;
/// let tv = Annotated::new("(128,4):(4,1)".parse()?, Space::ThreadValue, Space::Logical)?;
/// let addr = compose(&smem.into(), &tv.into())?;
/// assert_eq!((addr.domain(), addr.codomain()), (Space::ThreadValue, Space::Physical));
/// assert_eq!(addr.eval_index(5)?, 5);
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::RightSwizzled`], [`Error::RightNotLogical`], [`Error::LeftDomainNotLogical`],
/// [`Error::SizeMismatch`], [`Error::TileMismatch`], in that order.
#[inline(always)]
pub fn compose(left: &Map, right: &Map) -> Result<Map, Error> {
    // The common case, two annotated layouts that compose: every check of the general path
    // below passes, read in one look at the two operands' parts. Any other case, and every
    // error, takes the general path, so that the errors and their order are its own.
    if let (Map::Layout(l), Map::Layout(r)) = (left, right)
        && layouts_compose(l, r)
    {
        return Ok(Map::Composite(Composite(Operands::Layouts(
            l.clone(),
            r.clone(),
        ))));
    }
    compose_general(left, right)
}

/// Whether every check of [`compose`] passes for `left ∘ right` of two annotated layouts, read
/// in one look at their parts: `right` into logical, `left` from logical, equal sizes, equal
/// tile shapes where both carry one. `false` says only that the general path must look (it
/// gives the error, or the composite).
#[inline(always)]
pub(crate) fn layouts_compose(l: &Annotated, r: &Annotated) -> bool {
    let (lp, rp) = (&*l.0, &*r.0);
    rp.codomain == Space::Logical
        && lp.domain == Space::Logical
        && lp.layout.size() == rp.layout.size()
        && match (&lp.domain_tile, &rp.codomain_tile) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
}

/// [`compose`] for any operands: its checks in their documented order, then the composite.
/// Kept out of line, so that [`compose`]'s common case inlines into its callers.
#[inline(never)]
fn compose_general(left: &Map, right: &Map) -> Result<Map, Error> {
    if right.is_restricted() {
        return Err(Error::RightNotLogical {
            codomain: right.codomain(),
        });
    }
    if right.is_swizzled() {
        return Err(Error::RightSwizzled);
    }
    if right.codomain() != Space::Logical {
        return Err(Error::RightNotLogical {
            codomain: right.codomain(),
        });
    }
    if left.domain() != Space::Logical {
        return Err(Error::LeftDomainNotLogical {
            domain: left.domain(),
        });
    }
    if left.size() != right.size() {
        return Err(Error::SizeMismatch {
            left: left.size(),
            right: right.size(),
        });
    }
    if let Some(r) = right.codomain_tile() {
        // Only a restriction's tile is computed; any other is borrowed.
        if left.is_restricted() {
            if let Some(l) = left.domain_tile_shape() {
                check_same_tile(&l, r)?;
            }
        } else if let Some(l) = left.domain_tile() {
            check_same_tile(l, r)?;
        }
    }
    Ok(Map::Composite(Composite::new(left.clone(), right.clone())))
}

#[cfg(test)]
mod tests {
    // Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
    // failed cast in a test panics, which fails the test.
    #![allow(clippy::arithmetic_side_effects)]

    use super::*;
    use alloc::format;
    use alloc::string::ToString;
    use alloc::vec;

    /// The annotations a layout can carry.
    const PAIRS: [(Space, Space); 5] = [
        (Space::Logical, Space::Physical),
        (Space::Logical, Space::Logical),
        (Space::ThreadValue, Space::Logical),
        (Space::Logical, Space::ThreadValue),
        (Space::ThreadValue, Space::ThreadValue),
    ];

    /// An operand of a given form (0 a layout, 1 swizzled, 2 a composite, 3 a restriction;
    /// a form the layout cannot take falls back to the layout): flat modes `sizes`, strides
    /// the row-major weights of the modes rotated by `rot` times `scale` (into physical only),
    /// the spaces `PAIRS[pair]`, tiles picked by `tiles` (none, the mode sizes, the whole
    /// size, the mode sizes reversed) on the logical sides.
    fn operand(
        sizes: &[i64],
        rot: usize,
        scale: i64,
        pair: usize,
        tiles: (usize, usize),
        form: usize,
    ) -> Map {
        let (domain, codomain) = PAIRS[pair];
        let scale = if codomain == Space::Physical {
            scale
        } else {
            1
        };
        let n = sizes.len();
        let mut strides = vec![0i64; n];
        let mut w = 1;
        for k in (0..n).rev() {
            let i = (k + rot) % n;
            strides[i] = w * scale;
            w *= sizes[i];
        }
        let tile = |space: Space, pick: usize| -> Option<Vec<i64>> {
            match (space, pick) {
                (Space::Logical, 1) => Some(sizes.to_vec()),
                (Space::Logical, 2) => Some(vec![sizes.iter().product()]),
                (Space::Logical, 3) => Some(sizes.iter().rev().copied().collect()),
                _ => None,
            }
        };
        let join = |v: &[i64]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        let layout: Layout = format!("({}):({})", join(sizes), join(&strides))
            .parse()
            .expect("layout");
        let size = layout.size();
        let m: Map = Annotated::new(layout, domain, codomain)
            .and_then(|a| a.with_tiles(tile(domain, tiles.0), tile(codomain, tiles.1)))
            .expect("annotated")
            .into();
        let other = match form {
            1 => m
                .clone()
                .swizzle(Swizzle::new(1, 0, 1).expect("swizzle"))
                .ok(),
            2 if domain == Space::Logical => {
                // `m` after a permutation of its logical domain, from either space.
                let from = if rot.is_multiple_of(2) {
                    Space::Logical
                } else {
                    Space::ThreadValue
                };
                let p: Layout = format!("({size}):(1)").parse().expect("layout");
                let p = Annotated::new(p, from, Space::Logical).expect("annotated");
                compose_general(&m, &p.into()).ok()
            }
            3 => m.restrict(&[(0, 0)]).ok(),
            _ => None,
        };
        other.unwrap_or(m)
    }

    /// `decide_composition` gives what `compose` and then `decide` give — the error of
    /// `compose`, or the decision, by leaf and by mode — for operands of every form,
    /// annotation, size and tile; its one-pass case (two annotated layouts that compose) is
    /// reached, and so are `compose`'s errors for two layouts.
    #[test]
    fn borrowed_decision_is_compose_then_decide() {
        use crate::{decide, decide_composition};
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let mut runner = TestRunner::new(Config {
            // Enough cases that the counts below are reached whatever the seed (about one
            // case in 40 is a lean decision).
            cases: 4000,
            ..Config::default()
        });
        let side = (
            (0usize..3, prop::sample::select(vec![1i64, 2, -1])),
            (0usize..PAIRS.len(), (0usize..4, 0usize..4)),
            prop::sample::select(vec![0usize, 0, 0, 1, 2, 3]),
        );
        let sizes = prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, 6]), 1..4);
        let (lean, errors) = (core::cell::Cell::new(0), core::cell::Cell::new(0));
        runner
            .run(
                &(
                    sizes,
                    any::<bool>(),
                    0usize..4,
                    side.clone(),
                    side,
                    any::<bool>(),
                ),
                |(sizes, reversed, grow, (lr, lp, lf), (rr, rp, rf), by_mode)| {
                    let mut left_sizes = sizes.clone();
                    let mut right_sizes = sizes;
                    if reversed {
                        right_sizes.reverse();
                    }
                    match grow {
                        1 => right_sizes.push(2),
                        2 => left_sizes.push(3),
                        _ => {}
                    }
                    let left = operand(&left_sizes, lr.0, lr.1, lp.0, lp.1, lf);
                    let right = operand(&right_sizes, rr.0, rr.1, rp.0, rp.1, rf);
                    let borrowed = decide_composition(&left, &right, by_mode);
                    let built = compose(&left, &right).and_then(|m| decide(&m, by_mode));
                    prop_assert_eq!(&borrowed, &built);
                    if let (Map::Layout(_), Map::Layout(_)) = (&left, &right) {
                        let count = match (&borrowed, by_mode) {
                            (Ok(_), false) => &lean,
                            (Err(_), _) => &errors,
                            _ => return Ok(()),
                        };
                        count.set(count.get() + 1);
                    }
                    Ok(())
                },
            )
            .expect("agrees");
        assert!(
            lean.get() > 30 && errors.get() > 50,
            "{} {}",
            lean.get(),
            errors.get()
        );
    }

    /// `compose`'s common case (two annotated layouts) gives what the general path gives, the
    /// composite or the error, for operands of every form, annotation, size and tile; and the
    /// common case is reached, with and without success.
    #[test]
    fn compose_fast_path_is_the_general_path() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let mut runner = TestRunner::new(Config {
            cases: 3000,
            ..Config::default()
        });
        let side = (
            (0usize..3, prop::sample::select(vec![1i64, 2, -1])),
            (0usize..PAIRS.len(), (0usize..4, 0usize..4)),
            prop::sample::select(vec![0usize, 0, 0, 1, 2, 3]),
        );
        let sizes = prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, 6]), 1..4);
        let (fast_ok, fast_err) = (core::cell::Cell::new(0), core::cell::Cell::new(0));
        runner
            .run(
                &(sizes, any::<bool>(), 0usize..4, side.clone(), side),
                |(sizes, reversed, grow, (lr, lp, lf), (rr, rp, rf))| {
                    // Equal sizes, the right operand's modes reversed, or one side larger.
                    let mut left_sizes = sizes.clone();
                    let mut right_sizes = sizes;
                    if reversed {
                        right_sizes.reverse();
                    }
                    match grow {
                        1 => right_sizes.push(2),
                        2 => left_sizes.push(3),
                        _ => {}
                    }
                    let left = operand(&left_sizes, lr.0, lr.1, lp.0, lp.1, lf);
                    let right = operand(&right_sizes, rr.0, rr.1, rp.0, rp.1, rf);
                    let fast = compose(&left, &right);
                    prop_assert_eq!(&fast, &compose_general(&left, &right));
                    if let (Map::Layout(_), Map::Layout(_)) = (&left, &right) {
                        let count = if fast.is_ok() { &fast_ok } else { &fast_err };
                        count.set(count.get() + 1);
                    }
                    Ok(())
                },
            )
            .expect("agrees");
        assert!(
            fast_ok.get() > 50 && fast_err.get() > 50,
            "{} {}",
            fast_ok.get(),
            fast_err.get()
        );
    }
}

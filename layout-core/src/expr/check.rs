//! Checking a declaration: every independent error at once, each at its token.

use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{Decl, LayoutExpr, Node, Operand, SeedTrees, Side, SwizzleSpec};
use super::{Located, MAX_TILE_EXTENTS, MAX_TYPED_LEAVES, MAX_TYPED_RANK, Note, NoteKind};
use crate::emit::IntType;
use crate::error::{Error, ModePath};
use crate::layout::{Layout, mode_errors};
use crate::map::{Annotated, Map, check_tile};
use crate::space::{Space, check_annotation, check_codomain};
use crate::swizzle::{Swizzle, SwizzleUnit};
use crate::tree::{Stride, Tree};

/// A declaration that passed every check, in seed order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Checked<S> {
    /// The layout (run-time leaves as placeholders: size 1, stride `_`).
    pub layout: Layout,
    /// The domain.
    pub domain: Space,
    /// The codomain.
    pub codomain: Space,
    /// The domain's tile (seed order), when it passed its check.
    pub domain_tile: Option<Vec<i64>>,
    /// The codomain's tile (seed order), when it passed its check.
    pub codomain_tile: Option<Vec<i64>>,
    /// The swizzle on element offsets.
    pub swizzle: Option<Swizzle>,
    /// The index type (`i64` unless written).
    pub index: IntType,
    /// Per leaf (seed order) the run-time size and stride spans; empty for a static layout.
    pub runtime: Vec<(Option<S>, Option<S>)>,
    /// The least and greatest offsets, in elements: exact (the swizzled range too), except
    /// where [`check_decl`] reported the swizzled range undecided, where the greatest is the
    /// swizzle's bound [`Swizzle::max_offset`] over the layout's.
    pub offset_range: (i64, i64),
    /// The operand clauses with their element widths in bytes, in the order written
    /// ([`check_operand`]: checked here for a static layout; a layout with run-time leaves is
    /// checked when its value is built).
    pub operands: Vec<(Operand, i64)>,
}

impl<S> Checked<S> {
    /// The map the declaration denotes: the annotated layout with its tiles, then its swizzle.
    ///
    /// # Errors
    /// As [`Annotated::new`], [`Annotated::with_tiles`] and [`Map::swizzle`] (never for a
    /// declaration [`check_decl`] passed).
    pub fn map(&self) -> Result<Map, Error> {
        let a = Annotated::new(self.layout.clone(), self.domain, self.codomain)?
            .with_tiles(self.domain_tile.clone(), self.codomain_tile.clone())?;
        let m: Map = a.into();
        match self.swizzle {
            Some(s) => m.swizzle(s),
            None => Ok(m),
        }
    }
}

/// A flat index as a coordinate of a seed-order shape, in the order written.
fn coordinate(shape: &Tree<i64>, mut i: i64, cute: bool) -> Tree<i64> {
    fn go(t: &Tree<i64>, i: &mut i64) -> Tree<i64> {
        match t {
            Tree::Leaf(n) => {
                // Sizes are positive: neither operation can fail.
                let c = i.checked_rem(*n).unwrap_or(0);
                *i = i.checked_div(*n).unwrap_or(0);
                Tree::Leaf(c)
            }
            Tree::Tuple(v) => {
                let mut parts: Vec<_> = v.iter().rev().map(|x| go(x, i)).collect();
                parts.reverse();
                Tree::Tuple(parts)
            }
        }
    }
    let c = go(shape, &mut i);
    if cute { c.reversed() } else { c }
}

fn node_span<S: Clone>(n: Option<&Node<S>>, l: &LayoutExpr<S>) -> S {
    n.map_or_else(|| l.span.clone(), |n| n.span().clone())
}

/// An error about a layout (as [`crate::check_codomain`] or [`Layout::new`] report it, mode
/// paths in seed order), located at the token of its mode (the stride when `stride`, else the
/// size), or over the whole layout; its mode path rewritten to the written order. An aliasing
/// pair gets a note at the other mode's stride; an aliasing error without a pair, the
/// coordinates of its two indices (when `layout` is given).
#[must_use]
pub fn locate_layout_error<S: Clone>(
    l: &LayoutExpr<S>,
    layout: Option<&Layout>,
    e: &Error,
    stride: bool,
) -> Located<S> {
    match *e {
        Error::Aliasing {
            first,
            second,
            offset,
            modes: Some((a, b)),
        } => {
            let (wa, _, sa) = l.locate(&a);
            let (wb, _, sb) = l.locate(&b);
            let shown = Error::Aliasing {
                first,
                second,
                offset,
                modes: Some((wa, wb)),
            };
            Located {
                error: shown,
                span: node_span(sa, l),
                mode: Some(wa),
                notes: alloc::vec![Note {
                    kind: NoteKind::CollidingStride,
                    span: node_span(sb, l),
                }],
            }
        }
        Error::Aliasing { first, second, .. } => {
            let mut out = Located::new(*e, l.span.clone());
            if let Some(lay) = layout {
                out.notes.push(Note {
                    kind: NoteKind::Coordinates {
                        first: coordinate(lay.shape(), first, l.cute),
                        second: coordinate(lay.shape(), second, l.cute),
                    },
                    span: l.span.clone(),
                });
            }
            out
        }
        _ => match e.mode() {
            Some(m) => {
                let (w, sh, st) = l.locate(&m);
                match if stride { st } else { sh } {
                    Some(n) => Located {
                        error: e.with_mode(w),
                        span: n.span().clone(),
                        mode: Some(w),
                        notes: Vec::new(),
                    },
                    None => Located::new(*e, l.span.clone()),
                }
            }
            None => Located::new(*e, l.span.clone()),
        },
    }
}

/// Every mode-local error of a layout (profiles, sizes, zero strides, nesting), each at its
/// token: a profile mismatch at the stride with a note at the shape, a zero stride at the
/// stride, the others at the size.
fn mode_local<S: Clone>(l: &LayoutExpr<S>, out: &mut Vec<Located<S>>) {
    mode_local_of(l, &l.seed(), out);
}

/// [`mode_local`] with `l`'s trees in seed order already made (`seed`).
fn mode_local_of<S: Clone>(l: &LayoutExpr<S>, seed: &SeedTrees<S>, out: &mut Vec<Located<S>>) {
    for e in mode_errors(&seed.shape, &seed.stride) {
        let mode = e.mode().unwrap_or(ModePath::ROOT);
        let (w, sh, st) = l.locate(&mode);
        let shown = e.with_mode(w);
        let loc = |span: S| Located {
            error: shown,
            span,
            mode: Some(w),
            notes: Vec::new(),
        };
        match e {
            Error::ProfileMismatch { .. } => {
                let mut x = loc(node_span(st, l));
                x.notes.push(Note {
                    kind: NoteKind::MatchingShape,
                    span: node_span(sh, l),
                });
                out.push(x);
            }
            Error::ZeroStride { .. } => out.push(loc(node_span(st, l))),
            _ => out.push(loc(node_span(sh, l))),
        }
    }
}

/// Checks a layout alone (no spaces): every mode-local error at its token, else the layout.
///
/// # Errors
/// Every mode-local error, or the one error of [`Layout::new`] / [`Layout::with_names`] over
/// the whole layout.
pub fn check_layout<S: Clone>(l: &LayoutExpr<S>) -> Result<Layout, Vec<Located<S>>> {
    let mut errs = Vec::new();
    mode_local(l, &mut errs);
    if !errs.is_empty() {
        return Err(errs);
    }
    let seed = l.seed();
    build_layout(l, seed.shape, seed.stride, seed.names)
}

/// The layout of `l` from its trees in seed order, once its mode-local errors are known to be
/// none: the one error of [`Layout::new`] / [`Layout::with_names`], located.
fn build_layout<S: Clone>(
    l: &LayoutExpr<S>,
    shape: Tree<i64>,
    stride: Tree<Stride>,
    names: Vec<Option<String>>,
) -> Result<Layout, Vec<Located<S>>> {
    let built = Layout::new(shape, stride).and_then(|x| {
        if names.is_empty() {
            Ok(x)
        } else {
            x.with_names(names)
        }
    });
    built.map_err(|e| alloc::vec![locate_layout_error(l, None, &e, false)])
}

/// A side's tile in seed order.
fn seed_tile<S>(side: &Side<S>, cute: bool) -> Option<Vec<i64>> {
    side.tile.as_ref().map(|t| {
        let mut v: Vec<i64> = t.extents.iter().map(|(k, _)| *k).collect();
        if cute {
            v.reverse();
        }
        v
    })
}

/// Runs every check of a declaration (spec: Rules): the annotation, the swizzle, every
/// mode-local error of the layout, the tiles, the codomain's rule (Lemma 1 or alias-freedom),
/// the index type's range. Returns the checked declaration when the layout could be built at
/// all (so a front end can go on without cascading errors), and every error found, each at
/// its token, with mode paths in the written order.
///
/// Run-time leaves are placeholders: what depends on them is checked when the value is built;
/// a swizzle or a tile needs a layout without them.
#[must_use]
pub fn check_decl<S: Clone>(d: &Decl<S>) -> (Option<Checked<S>>, Vec<Located<S>>) {
    let mut errs: Vec<Located<S>> = Vec::new();
    let (dom, cod) = (d.domain.space, d.codomain.space);
    let cute = d.layout.cute;

    if let Err(e) = check_annotation(dom, cod) {
        // The side that breaks the rule: a physical domain, else the codomain.
        let span = if dom == Space::Physical {
            d.domain.span.clone()
        } else {
            d.codomain.span.clone()
        };
        errs.push(Located::new(e, span));
    }

    let swizzle = d.swizzle.as_ref().and_then(|(sw, span)| {
        if cod != Space::Physical {
            errs.push(Located::new(
                Error::SwizzleNotPhysical { codomain: cod },
                span.clone(),
            ));
        }
        sw.build()
            .map_err(|e| errs.push(Located::new(e, span.clone())))
            .ok()
    });

    // The trees in seed order, made once for every check below.
    let seed = d.layout.seed();
    let mut local = Vec::new();
    mode_local_of(&d.layout, &seed, &mut local);
    for side in [&d.domain, &d.codomain] {
        if let Some(t) = &side.tile
            && (t.extents.is_empty() || t.extents.len() > MAX_TILE_EXTENTS)
        {
            local.push(Located::new(
                Error::TileExtents {
                    count: t.extents.len(),
                },
                t.span.clone(),
            ));
        }
    }
    let SeedTrees {
        shape,
        stride,
        names,
        runtime,
    } = seed;
    let layout = if local.is_empty() {
        match build_layout(&d.layout, shape, stride, names) {
            Ok(l) => Some(l),
            Err(e) => {
                errs.extend(e);
                None
            }
        }
    } else {
        errs.extend(local);
        None
    };

    let dynamic = !runtime.is_empty();
    if dynamic {
        if let Some((_, span)) = &d.swizzle {
            errs.push(Located::new(Error::RuntimeSwizzle, span.clone()));
        }
        for side in [&d.domain, &d.codomain] {
            if let Some(t) = &side.tile {
                errs.push(Located::new(Error::RuntimeTile, t.span.clone()));
            }
        }
    }
    let index = d.index.as_ref().map_or(IntType::I64, |i| i.0);
    // The offset range `Checked` carries (set below whenever the layout was built).
    let mut range = (0, 0);
    if let Some(l) = &layout {
        // The static modes must be alias-free among themselves (the run-time ones are `_`
        // placeholders, which the test ignores); density needs every value.
        if !(dynamic && cod.requires_dense())
            && let Err(e) = check_codomain(l, cod)
        {
            errs.push(locate_layout_error(&d.layout, Some(l), &e, true));
        }
        if let (Some((_, span)), (min, _)) = (&d.swizzle, l.span())
            && min < 0
        {
            errs.push(Located::new(
                Error::SwizzleNegativeOffset { min },
                span.clone(),
            ));
        }
        for side in [&d.domain, &d.codomain] {
            if let (Some(t), Some(written)) = (seed_tile(side, cute), &side.tile)
                && !dynamic
                && let Err(e) = check_tile(&t, side.space, l.size())
            {
                errs.push(Located::new(e, written.span.clone()));
            }
        }
        let (mut min, mut max) = l.span();
        // The swizzled range is exact; a search past its limit is an error at the swizzle, and
        // the index type is then checked against a bound.
        if let (Some(s), Some((_, span))) = (swizzle, &d.swizzle)
            && !dynamic
            && min >= 0
            && cod == Space::Physical
            && check_codomain(l, Space::Physical).is_ok()
        {
            match swizzled_range(l, s) {
                Ok(r) => (min, max) = r,
                Err(e) => {
                    errs.push(Located::new(e, span.clone()));
                    max = s.max_offset(max);
                }
            }
        }
        range = (min, max);
        let (type_min, type_max) = index.range();
        if !dynamic && (min < type_min || max > type_max) {
            let span = d
                .index
                .as_ref()
                .map_or_else(|| d.layout.span.clone(), |i| i.1.clone());
            errs.push(Located::new(
                Error::IndexTypeRange {
                    min,
                    max,
                    type_min,
                    type_max,
                },
                span,
            ));
        }
    }

    // The operand clauses: each one's element width, then (a static layout without other
    // errors) the descriptor or tensor map it requires.
    let mut operands = Vec::new();
    for c in &d.operands {
        match operand_width(d, c) {
            Ok(bytes) => operands.push((c.operand, bytes)),
            Err(e) => errs.push(e),
        }
    }
    if errs.is_empty()
        && !dynamic
        && let Some(l) = &layout
    {
        let built = Checked::<S> {
            layout: l.clone(),
            domain: dom,
            codomain: cod,
            domain_tile: seed_tile(&d.domain, cute),
            codomain_tile: seed_tile(&d.codomain, cute),
            swizzle,
            index,
            runtime: Vec::new(),
            offset_range: range,
            operands: Vec::new(),
        }
        .map();
        for (c, &(operand, bytes)) in d.operands.iter().zip(&operands) {
            if let Err(e) = built
                .clone()
                .and_then(|m| check_operand(&m, operand, bytes))
            {
                errs.push(Located::new(e, operand_error_span(d, c, &e)));
            }
        }
    }

    // A tile that failed its check is left off, so a front end can go on.
    let keep = |side: &Side<S>, size: i64| {
        seed_tile(side, cute)
            .filter(|t| t.len() <= MAX_TILE_EXTENTS && check_tile(t, side.space, size).is_ok())
    };
    let checked = layout.map(|layout| Checked {
        domain_tile: keep(&d.domain, layout.size()),
        codomain_tile: keep(&d.codomain, layout.size()),
        layout,
        domain: dom,
        codomain: cod,
        swizzle,
        index,
        runtime,
        offset_range: range,
        operands,
    });
    (checked, errs)
}

/// The element width of an operand clause, in bytes: written after `of`, or the swizzle's
/// `over bytes of N-bit elements`.
fn operand_width<S: Clone>(d: &Decl<S>, c: &super::OperandClause<S>) -> Result<i64, Located<S>> {
    let from_swizzle = match &d.swizzle {
        Some((
            SwizzleSpec::Cute {
                unit: SwizzleUnit::Bytes { elem_bits },
                ..
            },
            span,
        )) => Some((*elem_bits, span.clone())),
        _ => None,
    };
    let operand = c.operand;
    let (bits, span) = match (&c.elem_bits, from_swizzle) {
        (Some((written, wspan)), Some((swizzle, _))) if *written != swizzle => {
            return Err(Located::new(
                Error::OperandElementConflict {
                    operand,
                    written: *written,
                    swizzle,
                },
                wspan.clone(),
            ));
        }
        (Some((bits, span)), _) => (*bits, span.clone()),
        (None, Some(found)) => found,
        (None, None) => {
            return Err(Located::new(
                Error::OperandElementMissing { operand },
                c.span.clone(),
            ));
        }
    };
    if bits == 0 || bits % 8 != 0 {
        return Err(Located::new(
            Error::OperandElementBits { operand, bits },
            span,
        ));
    }
    Ok(i64::from(bits / 8))
}

/// Where a refusal of an operand clause points: the element width, the swizzle, the codomain
/// or the layout where the rule names them, else the clause.
fn operand_error_span<S: Clone>(d: &Decl<S>, c: &super::OperandClause<S>, e: &Error) -> S {
    let swizzle = d.swizzle.as_ref().map(|(_, s)| s.clone());
    match e {
        Error::GmmaElementBytes { .. } | Error::TmaElement { .. } => c
            .elem_bits
            .as_ref()
            .map(|(_, s)| s.clone())
            .or(swizzle)
            .unwrap_or_else(|| c.span.clone()),
        Error::GmmaSwizzle { .. } | Error::GmmaTwoSwizzles => {
            swizzle.unwrap_or_else(|| c.span.clone())
        }
        Error::GmmaSpaces { .. } | Error::TmaSpaces { .. } => {
            if d.domain.space == Space::Logical {
                d.codomain.span.clone()
            } else {
                d.domain.span.clone()
            }
        }
        Error::GmmaEntries { .. } | Error::TmaRank { .. } => d.layout.span.clone(),
        _ => c.span.clone(),
    }
}

/// Checks that a shared-memory map is the operand a clause names, its offsets counting
/// `element_bytes`-byte elements from a buffer aligned as the hardware requires (to 1024
/// bytes):
///
/// - [`Operand::Wgmma`]: [`crate::gmma::descriptor`] describes it (the tile at shared-memory
///   address 0, so the start address and the base offset never refuse);
/// - [`Operand::TmaBox`]: the map is `logical -> physical` and [`crate::tma::tensor_map`]
///   writes it as one box of a
///   representative global tensor, whose modes are the map's top-level domain entries, each
///   one extent as large as the tile's. Its innermost (stride-1) mode is the entry whose first
///   step moves one element in shared memory (unswizzled; the last entry when none does);
///   the others follow in the order of their first steps, each stride the extent of the
///   previous ones, rounded up to 16 bytes and strictly growing. Such a global always passes
///   the rules on global strides ([`Error::TmaInnerStride`], [`Error::TmaStride`]): those
///   depend on the run-time strides and are checked when the tensor map is built.
///
/// ```
/// use layout_core::expr::{check_operand, Operand};
/// use layout_core::gmma::Major;
/// use layout_core::{Annotated, Layout, Map, Space, Swizzle, SwizzleUnit};
/// // CuTe's K-major 128-byte-swizzle atom of fp16, 64×16 of A: seed (16,64):(1,64).
/// let tile: Map = Annotated::new("(16,64):(1,64)".parse()?, Space::Logical, Space::Physical)?.into();
/// let sw = tile.swizzle(Swizzle::from_cute(3, 4, 3, SwizzleUnit::Bytes { elem_bits: 16 })?)?;
/// check_operand(&sw, Operand::Wgmma(Major::K), 2)?;
/// assert!(check_operand(&sw, Operand::Wgmma(Major::MN), 2).is_err());
/// // A 64×64 box of the same swizzle, K innermost.
/// let boxed: Map = Annotated::new("(64,64):(64,1)".parse()?, Space::Logical, Space::Physical)?.into();
/// check_operand(&boxed.swizzle(sw_of(3))?, Operand::TmaBox, 2)?;
/// # fn sw_of(b: i64) -> Swizzle { Swizzle::from_cute(b, 4, 3, SwizzleUnit::Bytes { elem_bits: 16 }).unwrap() }
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// As [`crate::gmma::descriptor`] and [`crate::tma::tensor_map`]; [`Error::TmaSpaces`] for a
/// box of a map that is not `logical -> physical`; [`Error::Overflow`] when the
/// representative global's strides overflow.
pub fn check_operand(map: &Map, operand: Operand, element_bytes: i64) -> Result<(), Error> {
    match operand {
        Operand::Wgmma(major) => crate::gmma::descriptor(map, element_bytes, major, 0).map(|_| ()),
        Operand::TmaBox => {
            if (map.domain(), map.codomain()) != (Space::Logical, Space::Physical) {
                return Err(Error::TmaSpaces {
                    domain: map.domain(),
                    codomain: map.codomain(),
                });
            }
            let global = representative_global(map, element_bytes)?;
            crate::tma::tensor_map(&global, map, element_bytes).map(|_| ())
        }
    }
}

/// The global tensor [`check_operand`] loads a box of (see there).
fn representative_global(map: &Map, element_bytes: i64) -> Result<Layout, Error> {
    let overflow = Error::Overflow {
        mode: ModePath::ROOT,
        what: crate::Quantity::Offset,
    };
    let sizes = map.domain_entry_sizes();
    let inner = match map {
        Map::Swizzled { inner, .. } => inner.as_ref(),
        m => m,
    };
    // The first step of each entry: the offset at the flat index of its coordinate 1.
    let mut steps = Vec::with_capacity(sizes.len());
    let mut below = 1i64;
    for &n in sizes.iter().rev() {
        let step = if n > 1 { inner.eval_index(below)? } else { 0 };
        steps.push(step.checked_sub(inner.eval_index(0)?).ok_or(overflow)?);
        below = below.checked_mul(n).ok_or(overflow)?;
    }
    steps.reverse();
    let rank = sizes.len();
    let first = (0..rank)
        .find(|&m| steps.get(m) == Some(&1))
        .unwrap_or(rank.saturating_sub(1));
    let mut order: Vec<usize> = (0..rank).filter(|&m| m != first).collect();
    order.sort_by_key(|&m| steps.get(m).map_or(0, |s| s.unsigned_abs()));
    order.insert(0, first);
    // Strides in elements: 16-byte multiples past the innermost.
    let unit = 16i64
        .checked_div(element_bytes)
        .filter(|&u| u > 0)
        .unwrap_or(1);
    let round = |x: i64| -> Result<i64, Error> {
        x.checked_add(unit.saturating_sub(1))
            .and_then(|y| y.checked_div(unit))
            .and_then(|y| y.checked_mul(unit))
            .ok_or(overflow)
    };
    let mut strides = alloc::vec![1i64; rank];
    let (mut prev, mut prev_extent) = (1i64, 1i64);
    for (i, &m) in order.iter().enumerate() {
        let stride = if i == 0 {
            1
        } else {
            let s = round(prev.checked_mul(prev_extent).ok_or(overflow)?)?;
            if s > prev {
                s
            } else {
                round(prev.checked_add(1).ok_or(overflow)?)?
            }
        };
        if let Some(x) = strides.get_mut(m) {
            *x = stride;
        }
        prev = stride;
        prev_extent = sizes.get(m).copied().unwrap_or(1);
    }
    let shape: Vec<Tree<i64>> = sizes.iter().map(|&n| Tree::Leaf(n)).collect();
    let stride: Vec<Tree<Stride>> = strides
        .iter()
        .map(|&s| Tree::Leaf(Stride::Int(s)))
        .collect();
    if rank == 1 {
        let (n, s) = (
            sizes.first().copied().unwrap_or(1),
            strides.first().copied().unwrap_or(1),
        );
        return Layout::new(Tree::Leaf(n), Tree::Leaf(Stride::Int(s)));
    }
    Layout::new(Tree::Tuple(shape), Tree::Tuple(stride))
}

/// The typed API's limits on a layout as written (the rules [`Error::TypedRank`], at each
/// tuple of more than [`MAX_TYPED_RANK`] entries, and [`Error::TypedLeaves`], over the whole
/// layout past [`MAX_TYPED_LEAVES`] leaves): what `layout!` checks before it builds a typed
/// value. The command has no typed values and no such limits.
pub fn check_typed_limits<S: Clone>(l: &LayoutExpr<S>) -> Vec<Located<S>> {
    fn walk<S: Clone>(n: &Node<S>, out: &mut Vec<Located<S>>) {
        if let Node::Tuple(v, span) = n {
            if v.len() > MAX_TYPED_RANK {
                out.push(Located::new(
                    Error::TypedRank { rank: v.len() },
                    span.clone(),
                ));
            }
            v.iter().for_each(|t| walk(t, out));
        }
    }
    let mut out = Vec::new();
    walk(&l.shape, &mut out);
    let leaves = l.shape.leaves().len();
    if leaves > MAX_TYPED_LEAVES {
        out.push(Located::new(Error::TypedLeaves { leaves }, l.span.clone()));
    }
    out
}

/// The typed API's limits on a shape (a computed result's): the same rules as
/// [`check_typed_limits`], unlocated.
///
/// # Errors
/// [`Error::TypedLeaves`] past [`MAX_TYPED_LEAVES`] leaves, else [`Error::TypedRank`] for a
/// tuple of more than [`MAX_TYPED_RANK`] entries.
pub fn typed_limits(shape: &Tree<i64>) -> Result<(), Error> {
    fn max_rank(t: &Tree<i64>) -> usize {
        match t {
            Tree::Leaf(_) => 1,
            Tree::Tuple(v) => v.iter().map(max_rank).max().unwrap_or(0).max(v.len()),
        }
    }
    let leaves = shape.leaves().len();
    if leaves > MAX_TYPED_LEAVES {
        return Err(Error::TypedLeaves { leaves });
    }
    let rank = max_rank(shape);
    if rank > MAX_TYPED_RANK {
        return Err(Error::TypedRank { rank });
    }
    Ok(())
}

/// The exact least and greatest offsets of `swizzle ∘ layout` (as a map into physical space).
fn swizzled_range(layout: &Layout, swizzle: Swizzle) -> Result<(i64, i64), Error> {
    let inner: Map = Annotated::new(layout.clone(), Space::Logical, Space::Physical)?.into();
    inner.swizzle(swizzle)?.offset_range()
}

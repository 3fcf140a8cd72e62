//! Checking a declaration: every independent error at once, each at its token.

use alloc::vec::Vec;

use super::ast::{Decl, LayoutExpr, Node, Side};
use super::{Located, MAX_TILE_EXTENTS, MAX_TYPED_LEAVES, MAX_TYPED_RANK, Note, NoteKind};
use crate::emit::IntType;
use crate::error::{Error, ModePath};
use crate::layout::{Layout, mode_errors};
use crate::map::{Annotated, Map, check_tile};
use crate::space::{Space, check_annotation, check_codomain};
use crate::swizzle::Swizzle;
use crate::tree::Tree;

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
    let seed = l.seed();
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
    let built = Layout::new(seed.shape, seed.stride).and_then(|x| {
        if seed.names.is_empty() {
            Ok(x)
        } else {
            x.with_names(seed.names)
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

    let mut local = Vec::new();
    mode_local(&d.layout, &mut local);
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
    let seed = d.layout.seed();
    let layout = if local.is_empty() {
        match check_layout(&d.layout) {
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

    let dynamic = !seed.runtime.is_empty();
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
        runtime: seed.runtime,
        offset_range: range,
    });
    (checked, errs)
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

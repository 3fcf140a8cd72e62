//! `coalesce`, `composition` and `complement` with CuTe's semantics (pycute's algorithms), each
//! result checked by its postconditions before it is returned.

use alloc::vec::Vec;

use super::condition::{CuteOp, Refusal};
use super::diag::{Ctx, Diagnostic};
use super::layout::{CuteLayout, ceil_div, floor_div};
use super::tiler::Tiler;
use super::{post, strict};
use crate::decide::{DECIDE_LIMIT, decide_values};
use crate::error::{Error, ModePath, Quantity};
use crate::tree::Tree;

fn overflow() -> Error {
    Error::Overflow {
        mode: ModePath::ROOT,
        what: Quantity::Offset,
    }
}

/// A flat list of `(size, stride)` as a layout: an integer for one mode, else a tuple.
pub(crate) fn from_modes(modes: &[(i64, i64)]) -> Result<CuteLayout, Error> {
    match modes {
        [(n, d)] => CuteLayout::leaf(*n, *d),
        _ => CuteLayout::new(
            Tree::Tuple(modes.iter().map(|m| Tree::Leaf(m.0)).collect()),
            Tree::Tuple(modes.iter().map(|m| Tree::Leaf(m.1)).collect()),
        ),
    }
}

/// CuTe's `coalesce(L)` (pycute's algorithm): over the leaves, skip size-1 modes, replace a
/// leading size-1 mode, merge a mode into the previous one when `size·stride` of the previous
/// equals its stride, else append. `1:0` when nothing is left.
pub(crate) fn coalesce_formula(l: &CuteLayout) -> Result<CuteLayout, Error> {
    let mut out: Vec<(i64, i64)> = alloc::vec![(1, 0)];
    for (n, d) in l.leaves() {
        let last = out.len().saturating_sub(1);
        let (pn, pd) = out[last];
        if n == 1 {
            continue;
        } else if pn == 1 {
            out[last] = (n, d);
        } else if pn.checked_mul(pd) == Some(d) {
            out[last].0 = pn.checked_mul(n).ok_or_else(overflow)?;
        } else {
            out.push((n, d));
        }
    }
    from_modes(&out)
}

fn coalesce_profile(ctx: Ctx, l: &CuteLayout, profile: &Tree<i64>) -> Result<CuteLayout, Error> {
    match profile {
        Tree::Leaf(_) => coalesce_formula(l),
        Tree::Tuple(ps) => {
            if ps.len() > l.rank() {
                return Err(ctx.refused(
                    CuteOp::Coalesce,
                    Refusal::TilerRank {
                        rank: l.rank(),
                        tiler: ps.len(),
                    },
                ));
            }
            let mut modes = Vec::with_capacity(l.rank());
            for (i, m) in l.modes().iter().enumerate() {
                modes.push(match ps.get(i) {
                    Some(p) => coalesce_profile(ctx.child(i), m, p)?,
                    None => m.clone(),
                });
            }
            CuteLayout::make(&modes)
        }
    }
}

/// `coalesce(L)` or, with a profile, `coalesce(L, profile)` — checked.
pub(crate) fn coalesce(
    ctx: Ctx,
    l: &CuteLayout,
    profile: Option<&Tree<i64>>,
) -> Result<CuteLayout, Error> {
    let r = match profile {
        None => coalesce_formula(l)?,
        Some(p) => coalesce_profile(ctx, l, p)?,
    };
    post::coalesce(
        ctx,
        l,
        &r,
        profile.is_none_or(|p| matches!(p, Tree::Leaf(_))),
    )?;
    Ok(r)
}

/// pycute's composition of `A` (coalesced to `modes`) with the rank-1 layout `n:r`.
fn compose_leaf(
    ctx: Ctx,
    modes: &[(i64, i64)],
    n: i64,
    r: i64,
) -> Result<(Tree<i64>, Tree<i64>), Error> {
    if r == 0 {
        return Ok((Tree::Leaf(n), Tree::Leaf(0)));
    }
    let mut shape = Vec::new();
    let mut stride = Vec::new();
    let (mut rest_shape, mut rest_stride) = (n, r);
    let Some(((_, last), init)) = modes.split_last() else {
        return Ok((Tree::Leaf(n), Tree::Leaf(0)));
    };
    for (k, &(m, d)) in init.iter().enumerate() {
        let refuse = || {
            ctx.refused(
                CuteOp::Composition,
                Refusal::StrideDivisibility {
                    a_mode: k,
                    shape: m,
                    stride: rest_stride,
                },
            )
        };
        if rest_stride == 0
            || (m.checked_rem(rest_stride) != Some(0) && rest_stride.checked_rem(m) != Some(0))
        {
            return Err(refuse());
        }
        let new = floor_div(m, rest_stride)
            .ok_or_else(overflow)?
            .max(1)
            .min(rest_shape);
        if new != 1 {
            shape.push(new);
            stride.push(rest_stride.checked_mul(d).ok_or_else(overflow)?);
        }
        rest_shape = floor_div(rest_shape, new).ok_or_else(overflow)?;
        rest_stride = ceil_div(rest_stride, m).ok_or_else(overflow)?;
    }
    if rest_shape != 1 || shape.is_empty() {
        shape.push(rest_shape);
        stride.push(rest_stride.checked_mul(*last).ok_or_else(overflow)?);
    }
    Ok(if shape.len() == 1 {
        (Tree::Leaf(shape[0]), Tree::Leaf(stride[0]))
    } else {
        (
            Tree::Tuple(shape.into_iter().map(Tree::Leaf).collect()),
            Tree::Tuple(stride.into_iter().map(Tree::Leaf).collect()),
        )
    })
}

fn compose_tree(
    ctx: Ctx,
    modes: &[(i64, i64)],
    s: &Tree<i64>,
    d: &Tree<i64>,
) -> Result<(Tree<i64>, Tree<i64>), Error> {
    match (s, d) {
        (Tree::Leaf(n), Tree::Leaf(r)) => compose_leaf(ctx, modes, *n, *r),
        (Tree::Tuple(ss), Tree::Tuple(ds)) => {
            let mut shape = Vec::with_capacity(ss.len());
            let mut stride = Vec::with_capacity(ss.len());
            for (i, (s, d)) in ss.iter().zip(ds).enumerate() {
                let (a, b) = compose_tree(ctx.child(i), modes, s, d)?;
                shape.push(a);
                stride.push(b);
            }
            Ok((Tree::Tuple(shape), Tree::Tuple(stride)))
        }
        // Profiles agree in a checked layout.
        _ => Err(Error::ProfileMismatch {
            mode: ctx.mode,
            shape_rank: s.rank(),
            stride_rank: d.rank(),
        }),
    }
}

/// pycute's `composition(A, B)` for a layout `B`: distributes over `B`'s modes; each leaf
/// `n:r` divides its stride through the coalesced `A`'s modes. Refusals only, no checks.
pub(crate) fn composition_formula(
    ctx: Ctx,
    a: &CuteLayout,
    b: &CuteLayout,
) -> Result<CuteLayout, Error> {
    let modes = coalesce_formula(a)?.leaves();
    let (shape, stride) = compose_tree(ctx, &modes, b.shape(), b.stride())?;
    CuteLayout::new(shape, stride)
}

/// The layout the composite `i ↦ A(B(i))` is, per leaf of `B` (its coarsest refinement, seed
/// 000 Theorem 1 through [`crate::decide_values`]), when every `B(i) ≥ 0` and it is a layout.
pub(crate) fn suggest(a: &CuteLayout, b: &CuteLayout) -> Option<CuteLayout> {
    if b.size() > DECIDE_LIMIT {
        return None;
    }
    let (af, bf) = (a.flat(), b.flat());
    let mut values = Vec::with_capacity(usize::try_from(b.size()).ok()?);
    for i in 0..b.size() {
        let x = bf.eval(i).ok()?;
        if x < 0 {
            return None;
        }
        values.push(af.eval(x).ok()?);
    }
    // Seed order lists the leaves reversed: its flat index is CuTe's integral coordinate.
    let leaves = b.leaves();
    let sizes: Vec<i64> = leaves.iter().rev().map(|&(n, _)| n).collect();
    let chains = decide_values(&sizes, &values).ok()?;
    let mut per_leaf = chains.into_iter().rev().map(|c| {
        let shape: Vec<i64> = c.shape.into_iter().rev().collect();
        let stride: Vec<i64> = c.strides.into_iter().rev().collect();
        if shape.len() == 1 {
            (Tree::Leaf(shape[0]), Tree::Leaf(stride[0]))
        } else {
            (
                Tree::Tuple(shape.into_iter().map(Tree::Leaf).collect()),
                Tree::Tuple(stride.into_iter().map(Tree::Leaf).collect()),
            )
        }
    });
    fn rebuild(
        t: &Tree<i64>,
        it: &mut impl Iterator<Item = (Tree<i64>, Tree<i64>)>,
    ) -> Option<(Tree<i64>, Tree<i64>)> {
        match t {
            Tree::Leaf(_) => it.next(),
            Tree::Tuple(v) => {
                let mut s = Vec::with_capacity(v.len());
                let mut d = Vec::with_capacity(v.len());
                for x in v {
                    let (a, b) = rebuild(x, it)?;
                    s.push(a);
                    d.push(b);
                }
                Some((Tree::Tuple(s), Tree::Tuple(d)))
            }
        }
    }
    let (shape, stride) = rebuild(b.shape(), &mut per_leaf)?;
    let suggestion = CuteLayout::new(shape, stride).ok()?;
    // Offered only when it is the composite at every coordinate.
    let sf = suggestion.flat();
    (0..b.size())
        .all(|i| sf.eval(i).ok() == usize::try_from(i).ok().and_then(|i| values.get(i)).copied())
        .then_some(suggestion)
}

/// `composition(A, B)` for a layout `B`: strict conditions, the formula, the checks; a failure
/// offers the layout the composite is, if it is one.
pub(crate) fn composition_layout(
    ctx: Ctx,
    a: &CuteLayout,
    b: &CuteLayout,
) -> Result<CuteLayout, Diagnostic> {
    let run = || -> Result<CuteLayout, Error> {
        if ctx.strict {
            strict::composition(ctx, a, b)?;
        }
        let r = composition_formula(ctx, a, b)?;
        post::composition(ctx, a, b, &r)?;
        Ok(r)
    };
    run().map_err(|e| {
        let suggestion = match e {
            Error::CutePostcondition { .. }
            | Error::CuteRefused { .. }
            | Error::CuteStrict { .. } => suggest(a, b),
            _ => None,
        };
        Diagnostic::new(e).with_suggestion(suggestion)
    })
}

/// Applies `f` to each mode of `a` with the matching entry of a by-mode tiler, keeping the modes
/// past the tiler; a failure keeps the first diagnostic and offers the whole layout when every
/// failing mode offers one.
pub(crate) fn by_mode(
    ctx: Ctx,
    op: CuteOp,
    a: &CuteLayout,
    tilers: &[Tiler],
    f: &mut dyn FnMut(Ctx, &CuteLayout, &Tiler) -> Result<CuteLayout, Diagnostic>,
) -> Result<CuteLayout, Diagnostic> {
    if tilers.len() > a.rank() {
        return Err(ctx
            .refused(
                op,
                Refusal::TilerRank {
                    rank: a.rank(),
                    tiler: tilers.len(),
                },
            )
            .into());
    }
    let mut modes = Vec::with_capacity(a.rank());
    let mut first: Option<Diagnostic> = None;
    let mut offered = true;
    for (i, m) in a.modes().into_iter().enumerate() {
        match tilers.get(i) {
            None => modes.push(m),
            Some(t) => match f(ctx.child(i), &m, t) {
                Ok(r) => modes.push(r),
                Err(d) => {
                    match d.suggestion() {
                        Some(s) => modes.push(s.clone()),
                        None => offered = false,
                    }
                    first.get_or_insert(d);
                }
            },
        }
    }
    match first {
        None => Ok(CuteLayout::make(&modes)?),
        Some(d) => {
            let s = if offered {
                CuteLayout::make(&modes).ok()
            } else {
                None
            };
            Err(d.with_suggestion(s))
        }
    }
}

/// `composition(A, tiler)`.
pub(crate) fn composition(ctx: Ctx, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    match t {
        Tiler::Underscore => Ok(a.clone()),
        Tiler::Layout(b) => composition_layout(ctx, a, b),
        Tiler::Modes(ts) => by_mode(ctx, CuteOp::Composition, a, ts, &mut |c, m, t| {
            composition(c, m, t)
        }),
    }
}

/// pycute's `complement(L, cotarget)`: modes of size > 1 and stride ≠ 0 sorted by stride; each
/// contributes the quotient `d / current` with stride `current`, then `current = N·d`; finally
/// `ceil(cotarget / current) : current`; coalesced. Refusals only, no checks.
pub(crate) fn complement_formula(
    ctx: Ctx,
    l: &CuteLayout,
    cotarget: i64,
) -> Result<CuteLayout, Error> {
    let op = CuteOp::Complement;
    if cotarget < 1 {
        return Err(ctx.refused(op, Refusal::Cotarget { cotarget }));
    }
    let modes = strict::complement_modes(ctx, l)?;
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(modes.len().saturating_add(1));
    let mut current = 1i64;
    for (d, n, path) in modes {
        if d < current {
            return Err(ctx.at(path).refused(
                op,
                Refusal::ComplementOverlap {
                    stride: d,
                    reach: current,
                },
            ));
        }
        out.push((d.checked_div(current).unwrap_or(0), current));
        current = n.checked_mul(d).ok_or_else(overflow)?;
    }
    out.push((ceil_div(cotarget, current).ok_or_else(overflow)?, current));
    let raw = CuteLayout::new(
        Tree::Tuple(out.iter().map(|m| Tree::Leaf(m.0)).collect()),
        Tree::Tuple(out.iter().map(|m| Tree::Leaf(m.1)).collect()),
    )?;
    coalesce_formula(&raw)
}

/// The complement inside a divide or a product: strict conditions and CuTe's formula; its
/// checks (1)–(4) decide nothing on their own, since the operation around it has its own
/// postconditions. The result, and the first check it fails (a
/// [`Error::CutePostcondition`], or [`Error::CuteCheckLimit`] when it is too large to check), if
/// any. CuTe's refusals are errors.
pub(crate) fn inner_complement(
    ctx: Ctx,
    l: &CuteLayout,
    cotarget: i64,
) -> Result<(CuteLayout, Option<Error>), Error> {
    if ctx.strict {
        strict::complement(ctx, l, cotarget)?;
    }
    let r = complement_formula(ctx, l, cotarget)?;
    match post::complement(ctx, l, cotarget, &r) {
        Ok(()) => Ok((r, None)),
        // A check too large to run decides nothing either: the operation's own checks do.
        Err(e @ (Error::CutePostcondition { .. } | Error::CuteCheckLimit { .. })) => {
            Ok((r, Some(e)))
        }
        Err(e) => Err(e),
    }
}

/// `complement(L, cotarget)`: strict conditions, the formula, checks (1)–(4).
pub(crate) fn complement(ctx: Ctx, l: &CuteLayout, cotarget: i64) -> Result<CuteLayout, Error> {
    if ctx.strict {
        strict::complement(ctx, l, cotarget)?;
    }
    let r = complement_formula(ctx, l, cotarget)?;
    post::complement(ctx, l, cotarget, &r)?;
    Ok(r)
}

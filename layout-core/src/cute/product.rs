//! `logical_product` and its zipped, tiled, flat, blocked and raked forms, with CuTe's
//! semantics.
//!
//! `logical_product(A, B) = make_layout(A, composition(complement(A, size(A)·cosize(B)), B))`
//! for a layout `B` (checked as the complement and the composition it is made of); by mode for
//! a by-mode tiler; `A` itself for `_`. An integer tiler `n` is the layout `n:1`, as in C++
//! CuTe (pycute's `logical_product` sends an integer to `logical_divide` instead).
//! `zipped_product`, `tiled_product` and `flat_product` regroup it like the divides;
//! `blocked_product(A, B)` and `raked_product(A, B)` pad both to the larger rank with `1:0`
//! modes, take the logical product, and zip the two halves mode by mode — `(A_i, B'_i)` for
//! blocked, `(B'_i, A_i)` for raked — without coalescing (as CuTe 4.2 and the corpus). Every
//! regrouping is checked to equal its source at every coordinate.

use alloc::vec::Vec;

use super::condition::{CuteOp, Refusal};
use super::diag::{Ctx, Diagnostic};
use super::divide::{flat_form, regrouped, tiled_form, unzip};
use super::layout::CuteLayout;
use super::ops::{by_mode, composition_layout, inner_complement};
use super::post;
use super::tiler::Tiler;
use crate::error::{Error, ModePath, Quantity};
use crate::tree::Tree;

fn product_layout(ctx: Ctx, a: &CuteLayout, b: &CuteLayout) -> Result<CuteLayout, Diagnostic> {
    let cotarget = product_cotarget(a, b)?;
    let (rest, failed) = inner_complement(ctx, a, cotarget)?;
    let r = match composition_layout(ctx, &rest, b) {
        Ok(copies) => CuteLayout::make(&[a.clone(), copies])?,
        Err(d) => return Err(d.map_suggestion(|s| CuteLayout::make(&[a.clone(), s.clone()]).ok())),
    };
    // The complement's checks guard the disjointness of the copies; where one fails, the
    // product is still CuTe's and right when its copies are disjoint (reported as a note).
    if let Some(e) = failed
        && !post::product_disjoint(a, b, &r)?
    {
        return Err(e.into());
    }
    Ok(r)
}

fn product_cotarget(a: &CuteLayout, b: &CuteLayout) -> Result<i64, Error> {
    a.size().checked_mul(b.cosize()?).ok_or(Error::Overflow {
        mode: ModePath::ROOT,
        what: Quantity::Positions,
    })
}

/// The failed checks of the complements inside a successful logical product of `a` by `t`
/// (each a [`Error::CutePostcondition`] at its tiler mode), appended to `out`.
pub(crate) fn product_notes(ctx: Ctx, a: &CuteLayout, t: &Tiler, out: &mut Vec<Error>) {
    match t {
        Tiler::Underscore => {}
        Tiler::Modes(ts) => {
            for (i, (m, ti)) in a.modes().iter().zip(ts).enumerate() {
                product_notes(ctx.child(i), m, ti, out);
            }
        }
        Tiler::Layout(b) => {
            if let Ok(cotarget) = product_cotarget(a, b)
                && let Ok((_, Some(e))) = inner_complement(ctx, a, cotarget)
            {
                out.push(e);
            }
        }
    }
}

/// [`product_notes`] of a blocked or raked product (its operands padded to the same rank).
pub(crate) fn rank_sensitive_notes(ctx: Ctx, a: &CuteLayout, b: &CuteLayout, out: &mut Vec<Error>) {
    let r = a.rank().max(b.rank());
    if let (Ok(pa), Ok(pb)) = (pad(a, r), pad(b, r)) {
        product_notes(ctx, &pa, &Tiler::Layout(pb), out);
    }
}

/// CuTe's logical product (see the module docs).
pub(crate) fn logical_product(
    ctx: Ctx,
    a: &CuteLayout,
    t: &Tiler,
) -> Result<CuteLayout, Diagnostic> {
    match t {
        Tiler::Underscore => Ok(a.clone()),
        Tiler::Modes(ts) => by_mode(ctx, ctx.within, a, ts, &mut |c, m, t| {
            logical_product(c, m, t)
        }),
        Tiler::Layout(b) => product_layout(ctx, a, b),
    }
}

/// CuTe's zipped product.
pub(crate) fn zipped_product(
    ctx: Ctx,
    a: &CuteLayout,
    t: &Tiler,
) -> Result<CuteLayout, Diagnostic> {
    regrouped(
        ctx,
        CuteOp::ZippedProduct,
        logical_product(ctx, a, t),
        &|l, z| unzip(l, t, z),
    )
}

/// CuTe's tiled product.
pub(crate) fn tiled_product(ctx: Ctx, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    regrouped(
        ctx,
        CuteOp::TiledProduct,
        logical_product(ctx, a, t),
        &|l, z| tiled_form(&unzip(l, t, z)?),
    )
}

/// CuTe's flat product.
pub(crate) fn flat_product(ctx: Ctx, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    regrouped(
        ctx,
        CuteOp::FlatProduct,
        logical_product(ctx, a, t),
        &|l, z| flat_form(&unzip(l, t, z)?),
    )
}

/// CuTe's `append<R>(l)`: `l`'s modes followed by `1:0` up to rank `r` (unchanged at rank `r`).
fn pad(l: &CuteLayout, r: usize) -> Result<CuteLayout, Error> {
    if l.rank() >= r {
        return Ok(l.clone());
    }
    let mut modes = l.modes();
    while modes.len() < r {
        modes.push(CuteLayout::leaf(1, 0)?);
    }
    CuteLayout::make(&modes)
}

/// C++ `zip(p_0, p_1)` of the logical product's two halves (`swap`: `zip(p_1, p_0)`):
/// `((p_0[i], p_1[i]))` per mode `i` when both are tuples of the same rank, `((p_0, p_1))` when
/// the first has an integer shape; otherwise C++ fails `static_assert` "Mismatched Ranks"
/// ([`Refusal::ZipRank`], only possible for rank-1 operands).
fn zip_halves(ctx: Ctx, op: CuteOp, p: &CuteLayout, swap: bool) -> Result<CuteLayout, Error> {
    let half = |k: usize| {
        p.mode(k).ok_or(Error::ModeIndex {
            index: k,
            rank: p.rank(),
        })
    };
    let (first, second) = if swap {
        (half(1)?, half(0)?)
    } else {
        (half(0)?, half(1)?)
    };
    let rank = |l: &CuteLayout| match l.shape() {
        Tree::Leaf(_) => 0,
        Tree::Tuple(v) => v.len(),
    };
    match (rank(&first), rank(&second)) {
        (0, _) => CuteLayout::make(&[CuteLayout::make(&[first, second])?]),
        (r, s) if r == s => {
            let (a, b) = (first.modes(), second.modes());
            let modes = a
                .into_iter()
                .zip(b)
                .map(|(x, y)| CuteLayout::make(&[x, y]))
                .collect::<Result<Vec<_>, _>>()?;
            CuteLayout::make(&modes)
        }
        (first, second) => Err(ctx.refused(op, Refusal::ZipRank { first, second })),
    }
}

fn rank_sensitive(
    ctx: Ctx,
    op: CuteOp,
    a: &CuteLayout,
    b: &CuteLayout,
    swap: bool,
) -> Result<CuteLayout, Diagnostic> {
    let r = a.rank().max(b.rank());
    let (pa, pb) = (pad(a, r)?, pad(b, r)?);
    regrouped(ctx, op, product_layout(ctx, &pa, &pb), &|p, _| {
        zip_halves(ctx, op, p, swap)
    })
}

/// CuTe's blocked product.
pub(crate) fn blocked_product(
    ctx: Ctx,
    a: &CuteLayout,
    b: &CuteLayout,
) -> Result<CuteLayout, Diagnostic> {
    rank_sensitive(ctx, CuteOp::BlockedProduct, a, b, false)
}

/// CuTe's raked product.
pub(crate) fn raked_product(
    ctx: Ctx,
    a: &CuteLayout,
    b: &CuteLayout,
) -> Result<CuteLayout, Diagnostic> {
    rank_sensitive(ctx, CuteOp::RakedProduct, a, b, true)
}

//! `logical_divide` and its zipped, tiled and flat forms, with CuTe's semantics.
//!
//! `logical_divide(A, B) = composition(A, make_layout(B, complement(B, size(A))))` for a layout
//! tile `B` (checked as the complement and the composition it is made of); by mode for a
//! by-mode tiler; `A` itself for `_`. The other forms regroup its modes (pycute's `hier_unzip`,
//! CuTe's `tile_unzip`): `zipped_divide` gives `((tiles…), (rests…))`, `tiled_divide`
//! `((tiles…), rests…)`, `flat_divide` `(tiles…, rests…)`; each is checked to equal the logical
//! divide it regroups at every coordinate.

use alloc::vec::Vec;

use super::condition::CuteOp;
use super::diag::{Ctx, Diagnostic};
use super::layout::CuteLayout;
use super::ops::{by_mode, composition_layout, inner_complement};
use super::tiler::Tiler;
use super::{post, strict};
use crate::error::Error;

fn mode(l: &CuteLayout, i: usize) -> Result<CuteLayout, Error> {
    l.mode(i).ok_or(Error::ModeIndex {
        index: i,
        rank: l.rank(),
    })
}

/// CuTe's logical divide (see the module docs).
pub(crate) fn logical_divide(
    ctx: Ctx,
    a: &CuteLayout,
    t: &Tiler,
) -> Result<CuteLayout, Diagnostic> {
    match t {
        Tiler::Underscore => Ok(a.clone()),
        Tiler::Modes(ts) => by_mode(ctx, ctx.within, a, ts, &mut |c, m, t| {
            logical_divide(c, m, t)
        }),
        Tiler::Layout(b) => {
            if ctx.strict {
                strict::divide(ctx, a, b)?;
            }
            let (rest, failed) = inner_complement(ctx, b, a.size())?;
            let tile = CuteLayout::make(&[b.clone(), rest])?;
            // The complement's checks guard the divide's partition of `A`; where one fails, the
            // divide is still CuTe's and right when the partition holds (reported as a note).
            if let Some(e) = failed
                && !post::divide_partition(a.size(), &tile)?
            {
                return Err(e.into());
            }
            composition_layout(ctx, a, &tile)
        }
    }
}

/// The failed checks of the complements inside a successful logical divide of `a` by `t`
/// (each a [`Error::CutePostcondition`] at its tiler mode), appended to `out`.
pub(crate) fn divide_notes(ctx: Ctx, a: &CuteLayout, t: &Tiler, out: &mut Vec<Error>) {
    match t {
        Tiler::Underscore => {}
        Tiler::Modes(ts) => {
            for (i, (m, ti)) in a.modes().iter().zip(ts).enumerate() {
                divide_notes(ctx.child(i), m, ti, out);
            }
        }
        Tiler::Layout(b) => {
            if let Ok((_, Some(e))) = inner_complement(ctx, b, a.size()) {
                out.push(e);
            }
        }
    }
}

/// pycute's `hier_unzip` applied to a finished logical divide or product `l` of the tiler `t`:
/// `((tiles…), (rests…, untouched modes…))`; `(1:filler, l)` for `_` (`filler` is CuTe's 0; the
/// regrouping check labels the new leaf apart).
pub(crate) fn unzip(l: &CuteLayout, t: &Tiler, filler: i64) -> Result<CuteLayout, Error> {
    match t {
        Tiler::Underscore => CuteLayout::make(&[CuteLayout::leaf(1, filler)?, l.clone()]),
        Tiler::Layout(_) => Ok(l.clone()),
        Tiler::Modes(ts) => {
            let mut tiles = Vec::with_capacity(ts.len());
            let mut rests = Vec::with_capacity(l.rank());
            for (i, ti) in ts.iter().enumerate() {
                let split = unzip(&mode(l, i)?, ti, filler)?;
                tiles.push(mode(&split, 0)?);
                rests.push(mode(&split, 1)?);
            }
            for j in ts.len()..l.rank() {
                rests.push(mode(l, j)?);
            }
            CuteLayout::make(&[CuteLayout::make(&tiles)?, CuteLayout::make(&rests)?])
        }
    }
}

/// `((tiles…), rests…)` from a zipped layout.
pub(crate) fn tiled_form(z: &CuteLayout) -> Result<CuteLayout, Error> {
    let mut modes = alloc::vec![mode(z, 0)?];
    modes.extend(mode(z, 1)?.modes());
    CuteLayout::make(&modes)
}

/// `(tiles…, rests…)` from a zipped layout.
pub(crate) fn flat_form(z: &CuteLayout) -> Result<CuteLayout, Error> {
    let mut modes = mode(z, 0)?.modes();
    modes.extend(mode(z, 1)?.modes());
    CuteLayout::make(&modes)
}

/// `source` regrouped by `f` (which may add size-1 leaves with the stride it is given), checked
/// to be the same function up to the regrouping; a diagnostic's suggestion is regrouped the
/// same way.
pub(crate) fn regrouped(
    ctx: Ctx,
    op: CuteOp,
    source: Result<CuteLayout, Diagnostic>,
    f: &dyn Fn(&CuteLayout, i64) -> Result<CuteLayout, Error>,
) -> Result<CuteLayout, Diagnostic> {
    let src = source.map_err(|d| d.map_suggestion(|s| f(s, 0).ok()))?;
    let result = f(&src, 0)?;
    // The same regrouping of the source's leaf numbers gives, per leaf of the result, the
    // source leaf it is (or none, for an added size-1 leaf).
    let mut k = 0i64;
    let numbers = src.shape().map(&mut |_| {
        k = k.saturating_add(1);
        k.saturating_sub(1)
    });
    let labels = f(&CuteLayout::new(src.shape().clone(), numbers)?, -1)?;
    let perm: Vec<Option<usize>> = labels
        .leaves()
        .into_iter()
        .map(|(_, d)| usize::try_from(d).ok())
        .collect();
    post::regroup(ctx, op, &src, &result, &perm)?;
    Ok(result)
}

/// CuTe's zipped divide.
pub(crate) fn zipped_divide(ctx: Ctx, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    regrouped(
        ctx,
        CuteOp::ZippedDivide,
        logical_divide(ctx, a, t),
        &|l, z| unzip(l, t, z),
    )
}

/// CuTe's tiled divide.
pub(crate) fn tiled_divide(ctx: Ctx, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    regrouped(
        ctx,
        CuteOp::TiledDivide,
        logical_divide(ctx, a, t),
        &|l, z| tiled_form(&unzip(l, t, z)?),
    )
}

/// CuTe's flat divide.
pub(crate) fn flat_divide(ctx: Ctx, a: &CuteLayout, t: &Tiler) -> Result<CuteLayout, Diagnostic> {
    regrouped(
        ctx,
        CuteOp::FlatDivide,
        logical_divide(ctx, a, t),
        &|l, z| flat_form(&unzip(l, t, z)?),
    )
}

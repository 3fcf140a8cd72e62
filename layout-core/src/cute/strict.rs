//! Strict mode: the admissibility conditions (spec: Strict mode), required before computing.
//!
//! * complement of `(N_0..N_α):(d_0..d_α)` (modes of size > 1 and stride ≠ 0, sorted by stride)
//!   in `M`: `N_{i-1}·d_{i-1} | d_i` for every `i`, and `N_α·d_α | M`;
//! * composition `A ∘ B`, with `A` coalesced as CuTe does to `M_0..M_α`: for every leaf `(N):(r)`
//!   of `B` (size > 1, stride ≠ 0; `|r|` for a negative stride, as CuTe's `abs`),
//!   `r = M_0⋯M_{i-1}·c` with `c < M_i` — the prefix divides `r` ("prefix-divides"), `c | M_i`
//!   ("leftover-divides"), and the rest `(M_i/c, M_{i+1}, …)` is weakly left divisible by `N`
//!   ("weakly-divisible"); nothing past the end of `A` is read ("in-bounds"); and the intervals
//!   `[|r|, |r|·N)` of the leaves are pairwise disjoint ("disjoint");
//! * divides: `k | n`, the tile's size divides the size of the mode it tiles.
//!
//! Inverses and coalesce have no such condition (spec: Strict mode).

use alloc::vec::Vec;

use super::condition::{Admissibility, CuteOp, Refusal};
use super::diag::Ctx;
use super::layout::CuteLayout;
use super::ops::coalesce_formula;
use crate::error::{Error, ModePath, Quantity};
use crate::tree::Tree;

fn overflow() -> Error {
    Error::Overflow {
        mode: ModePath::ROOT,
        what: Quantity::Offset,
    }
}

/// The leaves of a tree pair with their CuTe-order paths.
pub(crate) fn leaves_with_paths(l: &CuteLayout) -> Vec<(i64, i64, ModePath)> {
    fn go(path: ModePath, s: &Tree<i64>, d: &Tree<i64>, out: &mut Vec<(i64, i64, ModePath)>) {
        match (s, d) {
            (Tree::Leaf(n), Tree::Leaf(x)) => out.push((*n, *x, path)),
            (Tree::Tuple(a), Tree::Tuple(b)) => {
                for (i, (s, d)) in a.iter().zip(b).enumerate() {
                    go(path.child(i).unwrap_or(path), s, d, out);
                }
            }
            // Profiles agree in a checked layout.
            _ => {}
        }
    }
    let mut out = Vec::new();
    go(ModePath::ROOT, l.shape(), l.stride(), &mut out);
    out
}

/// The modes a complement works on: size > 1 and stride ≠ 0, sorted by `(stride, size)` as
/// pycute sorts them; a negative stride is CuTe's refusal.
pub(crate) fn complement_modes(
    ctx: Ctx,
    l: &CuteLayout,
) -> Result<Vec<(i64, i64, ModePath)>, Error> {
    let mut modes: Vec<(i64, i64, ModePath)> = leaves_with_paths(l)
        .into_iter()
        .filter(|&(n, d, _)| n != 1 && d != 0)
        .map(|(n, d, p)| (d, n, p))
        .collect();
    if let Some(&(stride, _, path)) = modes.iter().find(|m| m.0 < 0) {
        return Err(ctx.at(path).refused(
            CuteOp::Complement,
            Refusal::ComplementNegativeStride { stride },
        ));
    }
    modes.sort_by_key(|&(d, n, _)| (d, n));
    Ok(modes)
}

/// The two complement conditions (spec: Strict mode).
pub(crate) fn complement(ctx: Ctx, l: &CuteLayout, cotarget: i64) -> Result<(), Error> {
    let modes = complement_modes(ctx, l)?;
    let op = CuteOp::Complement;
    let mut previous: Option<i64> = None;
    for &(d, n, path) in &modes {
        if let Some(product) = previous
            && d.checked_rem(product) != Some(0)
        {
            return Err(ctx.at(path).inadmissible(
                op,
                Admissibility::ComplementStrideDivides { product, stride: d },
            ));
        }
        previous = Some(n.checked_mul(d).ok_or_else(overflow)?);
    }
    if let (Some(product), Some(&(_, _, path))) = (previous, modes.last())
        && cotarget.checked_rem(product) != Some(0)
    {
        return Err(ctx.at(path).inadmissible(
            op,
            Admissibility::ComplementCotargetDivides { product, cotarget },
        ));
    }
    Ok(())
}

/// The composition conditions (spec: Strict mode) for `A ∘ B` (`B` a layout).
pub(crate) fn composition(ctx: Ctx, a: &CuteLayout, b: &CuteLayout) -> Result<(), Error> {
    let op = CuteOp::Composition;
    let shapes: Vec<i64> = coalesce_formula(a)?
        .leaves()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let size_a = a.size();
    let mut intervals: Vec<(i64, i64, ModePath)> = Vec::new();
    for (n, r, path) in leaves_with_paths(b) {
        if n == 1 || r == 0 {
            continue;
        }
        let here = ctx.at(path);
        let r = r.checked_abs().ok_or_else(overflow)?;
        let reach = r.checked_mul(n.saturating_sub(1)).ok_or_else(overflow)?;
        let past_end = here.inadmissible(
            op,
            Admissibility::CompositionInBounds {
                reach,
                size: size_a,
            },
        );
        // The stride: r = M_0⋯M_{i-1}·c with c < M_i.
        let mut rest = r;
        let mut found = None;
        for (k, &m) in shapes.iter().enumerate() {
            if rest < m {
                if rest > 1 && m.checked_rem(rest) != Some(0) {
                    return Err(here.inadmissible(
                        op,
                        Admissibility::CompositionLeftoverDivides {
                            a_mode: k,
                            leftover: rest,
                            shape: m,
                        },
                    ));
                }
                found = Some((k, rest));
                break;
            }
            if rest.checked_rem(m) != Some(0) {
                return Err(here.inadmissible(
                    op,
                    Admissibility::CompositionPrefixDivides {
                        a_mode: k,
                        shape: m,
                        stride: rest,
                    },
                ));
            }
            rest = rest.checked_div(m).unwrap_or(0);
        }
        let Some((i, c)) = found else {
            return Err(past_end);
        };
        // The rest (M_i/c, M_{i+1}, …) is weakly left divisible by N.
        let mut need = n;
        let mut fits = false;
        for (k, &m) in shapes.iter().enumerate().skip(i) {
            let m = if k == i {
                m.checked_div(c).unwrap_or(0)
            } else {
                m
            };
            if need <= m {
                fits = true;
                break;
            }
            if need.checked_rem(m) != Some(0) {
                return Err(here.inadmissible(
                    op,
                    Admissibility::CompositionWeaklyDivisible {
                        a_mode: k,
                        remaining: need,
                        shape: m,
                    },
                ));
            }
            need = need.checked_div(m).unwrap_or(0);
        }
        if !fits && need > 1 {
            return Err(past_end);
        }
        intervals.push((r, r.checked_mul(n).ok_or_else(overflow)?, path));
    }
    intervals.sort_by_key(|&(start, end, _)| (start, end));
    for w in intervals.windows(2) {
        let ((_, other_end, other), (start, _, path)) = (w[0], w[1]);
        if other_end > start {
            return Err(ctx.at(path).inadmissible(
                op,
                Admissibility::CompositionDisjoint {
                    other,
                    other_end,
                    start,
                },
            ));
        }
    }
    Ok(())
}

/// `k | n` for a divide by a layout tile.
pub(crate) fn divide(ctx: Ctx, a: &CuteLayout, tile: &CuteLayout) -> Result<(), Error> {
    if a.size().checked_rem(tile.size()) != Some(0) {
        return Err(ctx.inadmissible(
            ctx.within,
            Admissibility::DivideTileDivides {
                tile: tile.size(),
                size: a.size(),
            },
        ));
    }
    Ok(())
}

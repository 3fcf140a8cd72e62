//! Alias-freedom of a map into physical space (spec: Alias-freedom): exact, with a fast path.

use alloc::vec;
use alloc::vec::Vec;

use crate::error::Error;
use crate::layout::Layout;
use crate::tree::Stride;

/// Largest offset range the exact fallback marks in a bitset (2²⁶ bits = 8 MiB); over a wider
/// range it sorts the offsets instead, of at most [`ALIAS_SORT_LIMIT`] coordinates.
pub const ALIAS_BITSET_RANGE_LIMIT: i64 = 1 << 26;
/// Most coordinates the exact fallback visits over a bitset (it stops at the first collision,
/// so more coordinates than offsets in a range of at most this width are decided too).
pub const ALIAS_ENUMERATION_LIMIT: i64 = 1 << 19;
/// Most coordinates the exact fallback sorts, when the range is wider than
/// [`ALIAS_BITSET_RANGE_LIMIT`].
pub const ALIAS_SORT_LIMIT: i64 = 1 << 15;

/// A leaf mode that takes part in addressing: size > 1, integer stride, with its canonical
/// weight in the flat index of the whole layout.
#[derive(Clone, Copy, Debug)]
struct Part {
    path: crate::ModePath,
    size: i64,
    stride: i64,
    weight: i64,
}

fn parts(layout: &Layout) -> Vec<Part> {
    let modes = layout.modes();
    let mut weight = 1i64;
    let mut out = Vec::new();
    for m in modes.iter().rev() {
        if m.size > 1
            && let Stride::Int(d) = m.stride
        {
            out.push(Part {
                path: m.path,
                size: m.size,
                stride: d,
                weight,
            });
        }
        // Weights are divisors of size(L), which fits in i64 (checked at construction).
        weight = weight.saturating_mul(m.size);
    }
    out.reverse();
    out
}

const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while let Some(t) = a.checked_rem(b) {
        a = b;
        b = t;
    }
    a
}

const OVERFLOW: Error = Error::Overflow {
    mode: crate::ModePath::ROOT,
    what: crate::Quantity::Offset,
};

/// The answer of the two fast tests (spec: Alias-freedom), without enumeration: `Some(true)` when, sorted by
/// |stride|, each |stride| exceeds the spread of the smaller modes; `Some(false)` when a pair
/// of modes collides (`|s_j|/g ≤ n_i − 1` and `|s_i|/g ≤ n_j − 1`, `g = gcd`), and
/// `Some(true)` when only two modes address memory and they do not collide (the pair test is
/// exact for two modes); `None` when neither decides (the `fast: null` of the case files).
/// Broadcast and size-1 modes are ignored.
#[must_use]
pub fn fast_alias_test(layout: &Layout) -> Option<bool> {
    match fast(layout) {
        Fast::Free => Some(true),
        Fast::Alias(_) => Some(false),
        Fast::Unknown => None,
    }
}

enum Fast {
    Free,
    Alias(Error),
    Unknown,
}

fn fast(layout: &Layout) -> Fast {
    let mut ps = parts(layout);
    ps.sort_by_key(|p| p.stride.unsigned_abs());
    let mut spread: i128 = 0;
    let mut separated = true;
    for p in &ps {
        if i128::from(p.stride.unsigned_abs()) <= spread {
            separated = false;
            break;
        }
        spread = spread.saturating_add(
            i128::from(p.stride.unsigned_abs())
                .saturating_mul(i128::from(p.size.saturating_sub(1))),
        );
    }
    if separated {
        return Fast::Free;
    }
    for (x, pi) in ps.iter().enumerate() {
        for pj in ps.get(x.saturating_add(1)..).unwrap_or_default() {
            let (si, sj) = (pi.stride.unsigned_abs(), pj.stride.unsigned_abs());
            // Strides are nonzero, so g ≥ 1 and the quotients are at most |s| ≤ 2^63.
            let g = gcd(si, sj);
            let (Some(a), Some(b)) = (sj.checked_div(g), si.checked_div(g)) else {
                continue;
            };
            if let (Ok(a), Ok(b)) = (i64::try_from(a), i64::try_from(b))
                && a < pi.size
                && b < pj.size
            {
                // a·s_i and b·s_j have the same magnitude: with equal signs the coordinates
                // (i = a) and (j = b) collide; with opposite signs (i = a, j = b) meets the origin.
                // a < n_i and b < n_j: these are flat indices and an offset of the layout.
                let same_sign = (pi.stride > 0) == (pj.stride > 0);
                let (Some(wa), Some(wb), Some(oa)) = (
                    a.checked_mul(pi.weight),
                    b.checked_mul(pj.weight),
                    a.checked_mul(pi.stride),
                ) else {
                    continue;
                };
                let (first, second, offset) = if same_sign {
                    (wa, wb, oa)
                } else {
                    let Some(sum) = wa.checked_add(wb) else {
                        continue;
                    };
                    (0, sum, 0)
                };
                let (first, second) = (first.min(second), first.max(second));
                return Fast::Alias(Error::Aliasing {
                    first,
                    second,
                    offset,
                    modes: Some((pi.path, pj.path)),
                });
            }
        }
    }
    // With two addressing modes the pair test is exact: x·s_i = −y·s_j with 0 < |x| < n_i,
    // 0 < |y| < n_j needs |x| ≥ |s_j|/g and |y| ≥ |s_i|/g, which it just ruled out.
    if ps.len() == 2 {
        return Fast::Free;
    }
    Fast::Unknown
}

/// Whether `layout` is alias-free (spec: Alias-freedom): `L(c) = L(c')` only when `c` and `c'` differ at
/// broadcast modes alone. Exact: the two fast tests of [`fast_alias_test`], then a symbolic
/// reduction (padded and blocked tiles, divisible strides: see below), and only where neither
/// decides, an enumeration of at most [`ALIAS_ENUMERATION_LIMIT`] coordinates (each limit
/// keeps one check near 100 ms in an unoptimised build, as a proc-macro runs).
///
/// The reduction asks whether two coordinates lie closer than `t` (`t = 1`: collide), i.e.
/// whether some difference `δ ≠ 0`, `|δᵢ| < nᵢ`, has `|Σ δᵢ·dᵢ| < t`. A mode with `|d| < t`
/// answers yes; a common factor `g` of the strides divides out (`t → ⌈t/g⌉`); strides sorted
/// with each at least `t` above the spread of the smaller ones answer no; the largest mode
/// drops out when it is that far above all the others; and a mode of stride ±1 drops out
/// while `t` grows by its size − 1 (the others must then keep that distance: the rows of a
/// padded tile, the blocks of a tiling). Each step is exact, and a yes carries its `δ`.
///
/// ```
/// use layout_core::{is_alias_free, Layout};
/// assert_eq!(is_alias_free(&"(4,8):(9,1)".parse::<Layout>()?)?, true);   // padded rows
/// assert_eq!(is_alias_free(&"(8,4):(4,1)".parse::<Layout>()?)?, true);
/// assert_eq!(is_alias_free(&"(4,8):(2,1)".parse::<Layout>()?)?, false);  // rows overlap
/// # Ok::<(), layout_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::AliasUndecided`] when neither the fast tests nor the reduction decide and the
/// enumeration would visit more than [`ALIAS_ENUMERATION_LIMIT`] coordinates (more than
/// [`ALIAS_SORT_LIMIT`] over a range wider than [`ALIAS_BITSET_RANGE_LIMIT`]).
pub fn is_alias_free(layout: &Layout) -> Result<bool, Error> {
    match check_alias_free(layout) {
        Ok(()) => Ok(true),
        Err(Error::Aliasing { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// [`is_alias_free`] with a witness when it fails.
///
/// # Errors
/// [`Error::Aliasing`] with two flat indices (last mode fastest) that share an offset, and the
/// two colliding modes when a pair explains it; [`Error::AliasUndecided`] past the limits.
pub fn check_alias_free(layout: &Layout) -> Result<(), Error> {
    match fast(layout) {
        Fast::Free => Ok(()),
        Fast::Alias(e) => Err(e),
        Fast::Unknown => {
            let ps = parts(layout);
            let modes: Vec<(i64, i64, usize)> = ps
                .iter()
                .enumerate()
                .map(|(i, p)| (p.size, p.stride, i))
                .collect();
            match collision(modes, 1) {
                Verdict::Free => Ok(()),
                // Within the enumeration's limits its witness (the first collision in flat
                // order) is reported; past them, the difference found.
                Verdict::Collide(delta) => match enumerate(layout) {
                    Err(Error::AliasUndecided { .. }) => {
                        witness(&ps, &delta).map_or_else(|| enumerate(layout), Err)
                    }
                    other => other,
                },
                Verdict::Unknown => enumerate(layout),
            }
        }
    }
}

/// The answer of the reduction for a list of `(size, stride, part)` modes and a distance `t`.
enum Verdict {
    /// No two coordinates lie closer than `t`.
    Free,
    /// This difference `(part, δ)` has `|Σ δ·d| < t` (parts not listed have `δ = 0`).
    Collide(Vec<(usize, i64)>),
    /// No rule applies.
    Unknown,
}

/// Whether some `δ ≠ 0` with `|δᵢ| < nᵢ` has `|Σ δᵢ·dᵢ| < t` ([`is_alias_free`]'s reduction).
/// Every mode has `n > 1` and `d ≠ 0`; `t ≥ 1`.
fn collision(mut modes: Vec<(i64, i64, usize)>, t: i64) -> Verdict {
    // A single step of one mode is already closer than t.
    if let Some(&(_, _, i)) = modes
        .iter()
        .find(|m| i128::from(m.1.unsigned_abs()) < i128::from(t))
    {
        return Verdict::Collide(vec![(i, 1)]);
    }
    if modes.is_empty() {
        return Verdict::Free;
    }
    // A common factor of the strides scales every sum.
    let g = modes.iter().fold(0u64, |g, m| gcd(g, m.1.unsigned_abs()));
    if g > 1 {
        // g ≥ 2 divides every stride, so each quotient fits in i64.
        let Ok(g) = i64::try_from(g) else {
            return Verdict::Unknown;
        };
        for m in &mut modes {
            m.1 = m.1.checked_div(g).unwrap_or(0);
        }
        // ⌈t/g⌉ for t ≥ 1.
        let t = t
            .saturating_sub(1)
            .checked_div(g)
            .unwrap_or(0)
            .saturating_add(1);
        return collision(modes, t);
    }
    modes.sort_by_key(|m| m.1.unsigned_abs());
    let reach = |m: &(i64, i64, usize)| {
        i128::from(m.1.unsigned_abs()).saturating_mul(i128::from(m.0.saturating_sub(1)))
    };
    // Separated: the largest nonzero δᵢ alone is at least t away from what the rest reach.
    let mut spread: i128 = 0;
    let mut separated = true;
    for m in &modes {
        if i128::from(m.1.unsigned_abs()) < spread.saturating_add(i128::from(t)) {
            separated = false;
            break;
        }
        spread = spread.saturating_add(reach(m));
    }
    if separated {
        return Verdict::Free;
    }
    // The largest mode, far above all the others, never takes part in a close pair.
    let others: i128 = modes
        .iter()
        .take(modes.len().saturating_sub(1))
        .map(reach)
        .fold(0, i128::saturating_add);
    if let Some(top) = modes.last()
        && i128::from(top.1.unsigned_abs()) >= others.saturating_add(i128::from(t))
    {
        modes.pop();
        return collision(modes, t);
    }
    // A stride ±1 (the gcd is 1 now, so only the smallest can divide all others): Σ δ·d =
    // S + δⱼ·dⱼ with S the others' sum, and δⱼ cancels up to nⱼ − 1 of it.
    if let Some(&(n, d, j)) = modes.first()
        && d.unsigned_abs() == 1
    {
        let Some(wider) = t.checked_add(n.saturating_sub(1)) else {
            return Verdict::Unknown;
        };
        let rest: Vec<(i64, i64, usize)> = modes.get(1..).map(<[_]>::to_vec).unwrap_or_default();
        return match collision(rest.clone(), wider) {
            Verdict::Collide(mut delta) => {
                let sum: i128 = delta
                    .iter()
                    .map(|&(i, x)| {
                        let di = rest.iter().find(|m| m.2 == i).map_or(0, |m| m.1);
                        i128::from(x).saturating_mul(i128::from(di))
                    })
                    .fold(0, i128::saturating_add);
                let reach = i128::from(n.saturating_sub(1));
                let cancel = sum.saturating_neg().clamp(reach.saturating_neg(), reach);
                // δⱼ·dⱼ = cancel with dⱼ = ±1.
                let dj = i64::try_from(cancel).unwrap_or(0).saturating_mul(d);
                if dj != 0 {
                    delta.push((j, dj));
                }
                Verdict::Collide(delta)
            }
            other => other,
        };
    }
    differences(&modes, t)
}

/// Most differences [`differences`] tries.
const DIFFERENCE_LIMIT: i128 = 1 << 18;

/// [`collision`] by trying every difference of all modes but the largest (half of them: `δ`
/// and `−δ` are the same question), and for each the difference of the largest mode nearest to
/// cancelling it: exact, in `∏ (2nᵢ − 1) / 2` steps over the smaller modes, where enumerating
/// coordinates would take `∏ nᵢ`. The largest mode alone (`δ = 0` elsewhere) stays at least
/// `|d| ≥ t` away. `Unknown` past [`DIFFERENCE_LIMIT`] steps.
fn differences(modes: &[(i64, i64, usize)], t: i64) -> Verdict {
    let Some(big) = (0..modes.len()).max_by_key(|&k| modes.get(k).map_or(0, |m| m.0)) else {
        return Verdict::Free;
    };
    let Some(&(nb, db, ib)) = modes.get(big) else {
        return Verdict::Free;
    };
    let rest: Vec<(i64, i64, usize)> = modes
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != big)
        .map(|(_, m)| *m)
        .collect();
    let steps = rest.iter().fold(1i128, |acc, m| {
        acc.saturating_mul(i128::from(m.0).saturating_mul(2).saturating_sub(1))
    });
    if steps > DIFFERENCE_LIMIT.saturating_mul(2) {
        return Verdict::Unknown;
    }
    let (db, nb) = (i128::from(db), i128::from(nb));
    // An odometer over δ of the other modes, each in −(n−1)..=n−1, starting at all −(n−1);
    // only vectors whose first nonzero entry is positive are tried.
    // Sizes and strides are i64, so every product and sum below fits in i128 many times over
    // (at most 64 terms of magnitude below 2^126 would not, but a domain of 2^63 positions has
    // fewer than 64 modes of size > 1).
    let mut delta: Vec<i64> = rest
        .iter()
        .map(|m| m.0.saturating_sub(1).saturating_neg())
        .collect();
    loop {
        if delta.iter().find(|&&x| x != 0).is_some_and(|&x| x > 0) {
            let sum: i128 = delta
                .iter()
                .zip(&rest)
                .map(|(&x, m)| i128::from(x).saturating_mul(i128::from(m.1)))
                .fold(0, i128::saturating_add);
            let Some(q) = sum.saturating_neg().checked_div_euclid(db) else {
                return Verdict::Unknown;
            };
            let top = nb.saturating_sub(1);
            for y in [q.saturating_sub(1), q, q.saturating_add(1)] {
                let y = y.clamp(top.saturating_neg(), top);
                if sum.saturating_add(y.saturating_mul(db)).saturating_abs() < i128::from(t) {
                    let mut out: Vec<(usize, i64)> = delta
                        .iter()
                        .zip(&rest)
                        .filter(|(x, _)| **x != 0)
                        .map(|(&x, m)| (m.2, x))
                        .collect();
                    match i64::try_from(y) {
                        Ok(0) => {}
                        Ok(y) => out.push((ib, y)),
                        Err(_) => return Verdict::Unknown,
                    }
                    return Verdict::Collide(out);
                }
            }
        }
        // Next δ, last entry fastest.
        let mut k = delta.len();
        loop {
            let Some(prev) = k.checked_sub(1) else {
                return Verdict::Free;
            };
            k = prev;
            let (Some(x), Some(m)) = (delta.get_mut(k), rest.get(k)) else {
                return Verdict::Unknown;
            };
            if *x < m.0.saturating_sub(1) {
                *x = x.saturating_add(1);
                break;
            }
            *x = m.0.saturating_sub(1).saturating_neg();
        }
    }
}

/// The aliasing error for a difference `δ` with `Σ δ·d = 0`: the coordinates of its positive
/// and negative parts. `None` if `δ` does not check out (never expected).
fn witness(ps: &[Part], delta: &[(usize, i64)]) -> Option<Error> {
    let (mut first, mut second, mut offset, mut other) = (0i64, 0i64, 0i64, 0i64);
    for &(i, x) in delta {
        let p = ps.get(i)?;
        if x.unsigned_abs() >= p.size.unsigned_abs() {
            return None;
        }
        let (flat, off) = (
            x.abs().checked_mul(p.weight)?,
            x.abs().checked_mul(p.stride)?,
        );
        if x > 0 {
            first = first.checked_add(flat)?;
            offset = offset.checked_add(off)?;
        } else {
            second = second.checked_add(flat)?;
            other = other.checked_add(off)?;
        }
    }
    if offset != other || first == second {
        return None;
    }
    Some(Error::Aliasing {
        first: first.min(second),
        second: first.max(second),
        offset,
        modes: None,
    })
}

fn enumerate(layout: &Layout) -> Result<(), Error> {
    let ps = parts(layout);
    let count = ps
        .iter()
        .try_fold(1i64, |acc, p| acc.checked_mul(p.size))
        .unwrap_or(i64::MAX);
    // The offsets lie within the layout's span, which fits in i64; its width may not.
    let (min, max) = layout.span();
    let range = max
        .checked_sub(min)
        .and_then(|w| w.checked_add(1))
        .unwrap_or(i64::MAX);
    // The walk stops at the first collision, at the latest after range + 1 coordinates.
    let visits = count.min(range.saturating_add(1));
    if (range <= ALIAS_BITSET_RANGE_LIMIT && visits > ALIAS_ENUMERATION_LIMIT)
        || (range > ALIAS_BITSET_RANGE_LIMIT && count > ALIAS_SORT_LIMIT)
    {
        return Err(Error::AliasUndecided { size: count, range });
    }
    // Walk every coordinate of the addressing modes, last fastest, yielding (flat index, offset).
    // Every running value is a flat index or an offset of the layout, so the checked steps
    // never fail on a layout that was built.
    let walk = |f: &mut dyn FnMut(i64, i64) -> bool| -> Result<(), Error> {
        let mut c = vec![0i64; ps.len()];
        let (mut flat, mut off) = (0i64, 0i64);
        for _ in 0..count {
            if f(flat, off) {
                return Ok(());
            }
            for (ck, p) in c.iter_mut().zip(&ps).rev() {
                if *ck < p.size.saturating_sub(1) {
                    *ck = ck.saturating_add(1);
                    flat = flat.checked_add(p.weight).ok_or(OVERFLOW)?;
                    off = off.checked_add(p.stride).ok_or(OVERFLOW)?;
                    break;
                }
                let back = |x: i64| x.checked_mul(p.size.saturating_sub(1)).ok_or(OVERFLOW);
                flat = flat.checked_sub(back(p.weight)?).ok_or(OVERFLOW)?;
                off = off.checked_sub(back(p.stride)?).ok_or(OVERFLOW)?;
                *ck = 0;
            }
        }
        Ok(())
    };
    let mut hit: Option<(i64, i64)> = None;
    if range <= ALIAS_BITSET_RANGE_LIMIT {
        // range ≤ 2^26: fits usize on every target this crate supports (≥ 32 bits).
        let words = usize::try_from(range).map_err(|_| OVERFLOW)?.div_ceil(64);
        let mut seen = vec![0u64; words];
        walk(&mut |flat, off| {
            // off − min ∈ [0, range): the offset lies in the span.
            let Some(bit) = off.checked_sub(min).and_then(|b| usize::try_from(b).ok()) else {
                return false;
            };
            let Some(word) = seen.get_mut(bit / 64) else {
                return false;
            };
            let mask = 1u64 << (bit % 64);
            if *word & mask != 0 {
                hit = Some((flat, off));
                return true;
            }
            *word |= mask;
            false
        })?;
    } else {
        let mut all = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
        walk(&mut |flat, off| {
            all.push((off, flat));
            false
        })?;
        all.sort_unstable();
        hit = all.windows(2).find_map(|w| match w {
            [(o1, f1), (o2, f2)] if o1 == o2 => Some((*f1.max(f2), *o1)),
            _ => None,
        });
    }
    let Some((second, offset)) = hit else {
        return Ok(());
    };
    let mut first = second;
    walk(&mut |flat, off| {
        if off == offset {
            first = flat;
            return true;
        }
        false
    })?;
    Err(Error::Aliasing {
        first: first.min(second),
        second: first.max(second),
        offset,
        modes: None,
    })
}

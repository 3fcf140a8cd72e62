//! Alias-freedom of a map into physical space (SPEC §2): exact, with a fast path.

use alloc::vec;
use alloc::vec::Vec;

use crate::error::Error;
use crate::layout::Layout;
use crate::tree::Stride;

/// Largest offset range the exact fallback enumerates over a bitset (2²⁶ bits = 8 MiB).
pub const ENUMERATION_RANGE_LIMIT: i64 = 1 << 26;
/// Largest number of coordinates the exact fallback sorts when the range is wider.
pub const ENUMERATION_SIZE_LIMIT: i64 = 1 << 20;

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
        // Weights are divisors of size(L), which fits in i64.
        weight = weight.saturating_mul(m.size);
    }
    out.reverse();
    out
}

const fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// The answer of SPEC §2's two fast tests, without enumeration: `Some(true)` when, sorted by
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
        spread += i128::from(p.stride.unsigned_abs()) * i128::from(p.size - 1);
    }
    if separated {
        return Fast::Free;
    }
    for (x, pi) in ps.iter().enumerate() {
        for pj in &ps[x + 1..] {
            // A stride of i64::MIN has no i64 magnitude. It only passes the offset-range check
            // in a mode of size 2 beside non-negative strides, and it meets another mode only
            // at a multiple of 2^63, outside i64: such a pair never collides.
            if pi.stride == i64::MIN || pj.stride == i64::MIN {
                continue;
            }
            let (si, sj) = (pi.stride.abs(), pj.stride.abs());
            let g = gcd(si, sj);
            let (a, b) = (sj / g, si / g);
            if a < pi.size && b < pj.size {
                // a·s_i and b·s_j have the same magnitude: with equal signs the coordinates
                // (i = a) and (j = b) collide; with opposite signs (i = a, j = b) meets the origin.
                let same_sign = (pi.stride > 0) == (pj.stride > 0);
                let (first, second, offset) = if same_sign {
                    (a * pi.weight, b * pj.weight, a * pi.stride)
                } else {
                    (0, a * pi.weight + b * pj.weight, 0)
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

/// Whether `layout` is alias-free (SPEC §2): `L(c) = L(c')` only when `c` and `c'` differ at
/// broadcast modes alone. Exact: the two fast tests of [`fast_alias_test`], then an
/// enumeration over a bitset of the offset range.
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
/// [`Error::AliasUndecided`] when the fast tests do not decide and the enumeration would
/// exceed [`ENUMERATION_RANGE_LIMIT`] bits and [`ENUMERATION_SIZE_LIMIT`] coordinates.
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
        Fast::Unknown => enumerate(layout),
    }
}

fn enumerate(layout: &Layout) -> Result<(), Error> {
    let ps = parts(layout);
    let count: i64 = ps.iter().map(|p| p.size).product();
    let (min, max) = ps.iter().fold((0i64, 0i64), |(lo, hi), p| {
        let r = (p.size - 1) * p.stride;
        if r < 0 { (lo + r, hi) } else { (lo, hi + r) }
    });
    // The span of offsets that each fit i64 may itself exceed i64: saturate (past the limit).
    let range = max.saturating_sub(min).saturating_add(1);
    // Walk every coordinate of the addressing modes, last fastest, yielding (flat index, offset).
    let walk = |f: &mut dyn FnMut(i64, i64) -> bool| {
        let mut c = vec![0i64; ps.len()];
        let (mut flat, mut off) = (0i64, 0i64);
        for _ in 0..count {
            if f(flat, off) {
                return;
            }
            for k in (0..ps.len()).rev() {
                // Wrapping: a step past a mode's end may leave i64, but the value at every
                // coordinate of the domain is an offset that fits, and the steps back are exact
                // modulo 2^64.
                c[k] += 1;
                flat = flat.wrapping_add(ps[k].weight);
                off = off.wrapping_add(ps[k].stride);
                if c[k] < ps[k].size {
                    break;
                }
                flat = flat.wrapping_sub(ps[k].weight.wrapping_mul(ps[k].size));
                off = off.wrapping_sub(ps[k].stride.wrapping_mul(ps[k].size));
                c[k] = 0;
            }
        }
    };
    let mut hit: Option<(i64, i64)> = None;
    if range <= ENUMERATION_RANGE_LIMIT {
        let mut seen = vec![0u64; (range as usize).div_ceil(64)];
        walk(&mut |flat, off| {
            let bit = (off - min) as usize;
            if seen[bit / 64] & (1 << (bit % 64)) != 0 {
                hit = Some((flat, off));
                return true;
            }
            seen[bit / 64] |= 1 << (bit % 64);
            false
        });
    } else if count <= ENUMERATION_SIZE_LIMIT {
        let mut all = Vec::with_capacity(count as usize);
        walk(&mut |flat, off| {
            all.push((off, flat));
            false
        });
        all.sort_unstable();
        hit = all
            .windows(2)
            .find(|w| w[0].0 == w[1].0)
            .map(|w| (w[0].1.max(w[1].1), w[0].0));
    } else {
        return Err(Error::AliasUndecided { size: count, range });
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
    });
    Err(Error::Aliasing {
        first: first.min(second),
        second: first.max(second),
        offset,
        modes: None,
    })
}

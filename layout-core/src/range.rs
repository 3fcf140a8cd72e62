//! Exact offset ranges of maps: the smallest and largest value over the whole domain, without
//! enumerating it.
//!
//! A map's image is reduced to an affine set `c + Σᵢ xᵢ·dᵢ` (`0 ≤ xᵢ < nᵢ`) followed by the
//! swizzles it passes through: a layout is one; a composite has its left operand's image (the
//! right operand is a bijection onto the left's domain); a restriction of a layout is a
//! constant plus a layout; a restriction of a composite is one of the decided layout (Theorem 1).
//! Without a swizzle the extremes are sums of per-mode extremes. A swizzle changes only the
//! bits of its destination field, so over an interval `[lo, hi]` its values lie between the
//! smallest `x & !M` and the largest `x | M` (`M` the destination bits, both computed exactly
//! by the bit search of Hacker's Delight §4-3); a best-first branch-and-bound halves the
//! coordinate intervals of the modes, evaluates the swizzle at the ends of each box, and stops
//! when no box can beat the best value found — the extreme is then exact.

use alloc::collections::BinaryHeap;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::decide::{DECIDE_LIMIT, decide};
use crate::error::{Error, ModePath, Quantity};
use crate::layout::Layout;
use crate::map::Map;
use crate::swizzle::Swizzle;
use crate::tree::Tree;

/// Most boxes the branch-and-bound of a swizzled range splits, for each extreme
/// ([`Map::offset_range`]).
pub const RANGE_SEARCH_LIMIT: i64 = 1 << 14;

/// The most positions [`Map::offset_range`] enumerates when the search over a swizzle needs
/// more than [`RANGE_SEARCH_LIMIT`] steps (about 10 ms in a debug build).
pub const RANGE_ENUMERATION_LIMIT: i64 = 1 << 18;

const OVERFLOW: Error = Error::Overflow {
    mode: ModePath::ROOT,
    what: Quantity::Offset,
};

/// The image of a map: a base set, then the swizzles in the order they apply.
struct Image {
    base: Base,
    swizzles: Vec<Swizzle>,
}

enum Base {
    /// `constant + Σ xᵢ·dᵢ`, `0 ≤ xᵢ < nᵢ`, as `(nᵢ, dᵢ)` with `nᵢ > 1`, `dᵢ ≠ 0`.
    Affine {
        constant: i64,
        modes: Vec<(i64, i64)>,
    },
    /// Every value, listed.
    Table(Vec<i64>),
}

/// The number of top-level entries of a shape (a leaf is one entry) and the leaves of each.
fn entry_leaf_counts(shape: &Tree<i64>) -> Vec<usize> {
    match shape {
        Tree::Leaf(_) => vec![1],
        Tree::Tuple(v) => v.iter().map(|t| t.leaves().len()).collect(),
    }
}

/// The image of `layout` with the top-level entries in `fixed` set to the given flat indices;
/// entry `e` is the next `counts[e]` leaves.
fn affine(layout: &Layout, counts: &[usize], fixed: &[(usize, i64)]) -> Result<Image, Error> {
    if let Some(&(entry, _)) = fixed.iter().find(|(e, _)| *e >= counts.len()) {
        return Err(Error::RestrictEntry {
            entry,
            rank: counts.len(),
        });
    }
    let leaves = layout.leaves();
    let mut constant = 0i64;
    let mut modes = Vec::new();
    let mut start = 0usize;
    for (entry, &count) in counts.iter().enumerate() {
        let end = start.checked_add(count).ok_or(OVERFLOW)?;
        let group = leaves.get(start..end).ok_or(OVERFLOW)?;
        start = end;
        match fixed.iter().find(|(e, _)| *e == entry) {
            Some(&(_, value)) => {
                let size = group
                    .iter()
                    .try_fold(1i64, |acc, m| acc.checked_mul(m.size()))
                    .ok_or(OVERFLOW)?;
                if !(0..size).contains(&value) {
                    return Err(Error::CoordOutOfRange {
                        mode: ModePath::from_indices(&[entry])?,
                        value,
                        size,
                    });
                }
                let mut rest = value;
                for m in group.iter().rev() {
                    let c = rest.checked_rem(m.size()).ok_or(OVERFLOW)?;
                    rest = rest.checked_div(m.size()).ok_or(OVERFLOW)?;
                    let term = c.checked_mul(m.stride().value()).ok_or(OVERFLOW)?;
                    constant = constant.checked_add(term).ok_or(OVERFLOW)?;
                }
            }
            None => modes.extend(
                group
                    .iter()
                    .filter(|m| m.size() > 1 && m.stride().value() != 0)
                    .map(|m| (m.size(), m.stride().value())),
            ),
        }
    }
    Ok(Image {
        base: Base::Affine { constant, modes },
        swizzles: Vec::new(),
    })
}

/// The image of `map` with the top-level entries of its domain in `fixed` set.
fn image(map: &Map, fixed: &[(usize, i64)]) -> Result<Image, Error> {
    match map {
        Map::Layout(a) => affine(a.layout(), &entry_leaf_counts(a.layout().shape()), fixed),
        Map::Swizzled { swizzle, inner } => {
            let mut im = image(inner, fixed)?;
            im.swizzles.push(*swizzle);
            Ok(im)
        }
        Map::Restricted { fixed: own, inner } => {
            let rank = entry_leaf_counts(&inner.domain_shape()).len();
            let free: Vec<usize> = (0..rank)
                .filter(|e| !own.iter().any(|(x, _)| x == e))
                .collect();
            let mut all = own.clone();
            for &(entry, value) in fixed {
                let original = *free.get(entry).ok_or(Error::RestrictEntry {
                    entry,
                    rank: free.len(),
                })?;
                all.push((original, value));
            }
            image(inner, &all)
        }
        Map::Composite(c) => {
            if fixed.is_empty() {
                // `right` is a bijection onto the domain of `left`.
                return image(&c.left(), &[]);
            }
            if let Map::Swizzled { swizzle, inner } = &*c.left() {
                // The same checks hold: the inner map has the swizzled map's domain.
                let unswizzled = Map::Composite(crate::map::Composite::new(
                    inner.as_ref().clone(),
                    c.right().into_owned(),
                ));
                let mut im = image(&unswizzled, fixed)?;
                im.swizzles.push(*swizzle);
                return Ok(im);
            }
            // Decided to be a layout: each leaf of the domain became the pieces of its chain.
            let shape = map.domain_shape();
            if let Ok(d) = decide(map, false)
                && let Some(l) = d.coarsest_layout(&shape)
                && let Ok(chains) = &d.result
            {
                let mut pieces = chains.iter().map(|c| c.shape.len());
                let counts: Vec<usize> = entry_leaf_counts(&shape)
                    .into_iter()
                    .map(|n| pieces.by_ref().take(n).sum())
                    .collect();
                return affine(&l, &counts, fixed);
            }
            let mut sorted = fixed.to_vec();
            sorted.sort_unstable();
            let restricted = Map::Restricted {
                fixed: sorted,
                inner: alloc::boxed::Box::new(map.clone()),
            };
            let size = restricted.size();
            if size > DECIDE_LIMIT {
                return Err(Error::RangeUndecided {
                    size,
                    limit: DECIDE_LIMIT,
                });
            }
            let values = (0..size)
                .map(|i| restricted.eval_index(i))
                .collect::<Result<Vec<i64>, Error>>()?;
            Ok(Image {
                base: Base::Table(values),
                swizzles: Vec::new(),
            })
        }
    }
}

/// An interval that contains `σ(x)` for every `x` in `[lo, hi]`. σ changes only the bits of
/// its destination field, and only those that the source field can set there: when every `x`
/// has the same bits above the source field, the field rises with `x`, so it is at most its
/// value at `hi` and sets no bit above that value's highest; otherwise any bit of the field.
/// Then `σ(x)` lies between `x & !K` and `x | K` for that mask `K`.
fn swizzle_bounds(s: Swizzle, lo: i64, hi: i64) -> (i64, i64) {
    let field = 1i64
        .checked_shl(s.bits())
        .map_or(i64::MAX, |v| v.wrapping_sub(1));
    let top = s.src().saturating_add(s.bits());
    let same_high =
        lo.checked_shr(top).unwrap_or(lo >> 63) == hi.checked_shr(top).unwrap_or(hi >> 63);
    let reach = if same_high {
        let f = hi.checked_shr(s.src()).unwrap_or(0) & field;
        // Every bit at or below the highest set bit of f.
        match f.checked_ilog2() {
            Some(k) => 1i64
                .checked_shl(k.saturating_add(1))
                .map_or(i64::MAX, |v| v.wrapping_sub(1)),
            None => 0,
        }
    } else {
        field
    };
    let k = reach.checked_shl(s.dst()).unwrap_or(0) & i64::MAX;
    (min_and(lo, hi, k), max_or(lo, hi, k))
}

/// [`swizzle_bounds`] through a chain, in order.
fn chain_bounds(swizzles: &[Swizzle], lo: i64, hi: i64) -> (i64, i64) {
    swizzles
        .iter()
        .fold((lo, hi), |(lo, hi), &s| swizzle_bounds(s, lo, hi))
}

fn apply_all(swizzles: &[Swizzle], x: i64) -> i64 {
    swizzles.iter().fold(x, |v, s| s.apply(v))
}

/// `max { x | m : a ≤ x ≤ b }` over unsigned integers (Hacker's Delight, `maxOR` with the
/// second interval `[m, m]`).
fn max_or_unsigned(a: u64, mut b: u64, m: u64) -> u64 {
    let mut bit = 1u64 << 63;
    while bit != 0 {
        if b & m & bit != 0 {
            // Clear this bit of b and set every bit below it: still ≥ a, and the OR with m
            // restores the cleared bit.
            let t = (b & !bit) | bit.wrapping_sub(1);
            if t >= a {
                b = t;
                break;
            }
        }
        bit >>= 1;
    }
    b | m
}

/// `min { x & !m : a ≤ x ≤ b }` over unsigned integers (Hacker's Delight, `minAND` with the
/// second interval `[!m, !m]`).
fn min_and_unsigned(mut a: u64, b: u64, m: u64) -> u64 {
    let keep = !m;
    let mut bit = 1u64 << 63;
    while bit != 0 {
        if !a & m & bit != 0 {
            // Set this bit of a and clear every bit below it: still ≤ b, and the AND with
            // !m clears the bits below that m covers.
            let t = (a | bit) & bit.wrapping_neg();
            if t <= b {
                a = t;
                break;
            }
        }
        bit >>= 1;
    }
    a & keep
}

/// Reinterprets the bits (the orders of `i64` and `u64` agree within one sign).
#[allow(clippy::cast_sign_loss, clippy::cast_possible_wrap)]
const fn bits_of(x: i64) -> u64 {
    x as u64
}

#[allow(clippy::cast_sign_loss, clippy::cast_possible_wrap)]
const fn from_bits(x: u64) -> i64 {
    x as i64
}

/// The largest `x | m` over `lo ≤ x ≤ hi` (`m ≥ 0`): an upper bound of any swizzle chain that
/// changes only the bits of `m`.
fn max_or(lo: i64, hi: i64, m: i64) -> i64 {
    // A negative x keeps its sign bit under `| m`, so the non-negative part wins when present.
    let lo = if hi >= 0 { lo.max(0) } else { lo };
    from_bits(max_or_unsigned(bits_of(lo), bits_of(hi), bits_of(m)))
}

/// The smallest `x & !m` over `lo ≤ x ≤ hi` (`m ≥ 0`): a lower bound of any swizzle chain that
/// changes only the bits of `m`.
fn min_and(lo: i64, hi: i64, m: i64) -> i64 {
    let hi = if lo < 0 { hi.min(-1) } else { hi };
    from_bits(min_and_unsigned(bits_of(lo), bits_of(hi), bits_of(m)))
}

/// A box of coordinates `[aᵢ, bᵢ]` per mode, with the bound of its best value.
struct Node {
    bound: i128,
    boxes: Vec<(i64, i64)>,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.bound == other.bound
    }
}
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Node {
    fn cmp(&self, other: &Self) -> Ordering {
        self.bound.cmp(&other.bound)
    }
}

/// The extreme of `swizzles(constant + Σ xᵢ·dᵢ)`: the largest value when `largest`, else the
/// smallest. Scores are values (largest) or negated values (smallest), so one search serves
/// both.
fn search(
    constant: i64,
    modes: &[(i64, i64)],
    swizzles: &[Swizzle],
    largest: bool,
    size: i64,
) -> Result<i64, Error> {
    let score = |v: i64| -> i128 {
        if largest {
            i128::from(v)
        } else {
            i128::from(v).wrapping_neg()
        }
    };
    // The offsets at the two ends of a box, and the two points that reach them.
    let ends = |boxes: &[(i64, i64)]| -> Result<(i64, i64), Error> {
        let (mut lo, mut hi) = (constant, constant);
        for (&(a, b), &(_, d)) in boxes.iter().zip(modes) {
            let (x, y) = (
                a.checked_mul(d).ok_or(OVERFLOW)?,
                b.checked_mul(d).ok_or(OVERFLOW)?,
            );
            lo = lo.checked_add(x.min(y)).ok_or(OVERFLOW)?;
            hi = hi.checked_add(x.max(y)).ok_or(OVERFLOW)?;
        }
        Ok((lo, hi))
    };
    let mut best = i128::MIN;
    let visit = |boxes: Vec<(i64, i64)>, best: &mut i128| -> Result<Option<Node>, Error> {
        let (lo, hi) = ends(&boxes)?;
        for v in [lo, hi] {
            *best = (*best).max(score(apply_all(swizzles, v)));
        }
        let (below, above) = chain_bounds(swizzles, lo, hi);
        let bound = score(if largest { above } else { below });
        let single = boxes.iter().all(|(a, b)| a == b);
        Ok((!single && bound > *best).then_some(Node { bound, boxes }))
    };
    let root: Vec<(i64, i64)> = modes
        .iter()
        .map(|&(n, _)| n.checked_sub(1).map(|top| (0, top)).ok_or(OVERFLOW))
        .collect::<Result<_, _>>()?;
    let mut heap = BinaryHeap::new();
    if let Some(node) = visit(root, &mut best)? {
        heap.push(node);
    }
    let mut steps = 0i64;
    while let Some(node) = heap.pop() {
        if node.bound <= best {
            break;
        }
        steps = steps.saturating_add(1);
        if steps > RANGE_SEARCH_LIMIT {
            return Err(Error::RangeUndecided {
                size,
                limit: RANGE_SEARCH_LIMIT,
            });
        }
        // Halve the mode whose interval spans the most offsets.
        let widest = node
            .boxes
            .iter()
            .zip(modes)
            .enumerate()
            .max_by_key(|(_, ((a, b), (_, d)))| {
                i128::from(b.wrapping_sub(*a)).wrapping_mul(i128::from(d.unsigned_abs()))
            })
            .map(|(k, _)| k);
        let Some(k) = widest else { continue };
        let Some(&(a, b)) = node.boxes.get(k) else {
            continue;
        };
        let mid = a
            .checked_add(b.checked_sub(a).ok_or(OVERFLOW)? / 2)
            .ok_or(OVERFLOW)?;
        for half in [(a, mid), (mid.checked_add(1).ok_or(OVERFLOW)?, b)] {
            let mut boxes = node.boxes.clone();
            if let Some(slot) = boxes.get_mut(k) {
                *slot = half;
            }
            if let Some(child) = visit(boxes, &mut best)? {
                heap.push(child);
            }
        }
    }
    let value = if largest { best } else { best.wrapping_neg() };
    i64::try_from(value).map_err(|_| OVERFLOW)
}

impl Map {
    /// The smallest and largest offset over the whole domain, exactly (elements).
    ///
    /// A layout: the sums of per-mode extremes (its `span`). A composite: its left operand's
    /// range (the right operand is a bijection onto the left's domain). A restriction: a
    /// constant plus a layout (of the composite decided to be one, Theorem 1, when the
    /// restricted map is a composite). A swizzle: a branch-and-bound over the modes' coordinate
    /// intervals, bounded by the bits the swizzle changes, that stops only when the extremes
    /// are attained — exact, without enumerating the domain.
    ///
    /// ```
    /// use layout_core::{Annotated, Map, Space, Swizzle, SwizzleUnit};
    /// let tile: Map = Annotated::new("(8192,4096):(4096,1)".parse()?, Space::Logical, Space::Physical)?.into();
    /// assert_eq!(tile.offset_range()?, (0, (1 << 25) - 1));
    /// let s = tile.swizzle(Swizzle::from_cute(3, 4, 3, SwizzleUnit::Elements)?)?; // a bijection of each 1024 block
    /// assert_eq!(s.offset_range()?, (0, (1 << 25) - 1));
    /// let rows: Map = Annotated::new("(4,8):(16,1)".parse()?, Space::Logical, Space::Physical)?.into();
    /// let r = rows.swizzle(Swizzle::new(2, 4, 1)?)?;
    /// assert_eq!(r.offset_range()?, (0, 55)); // 48 + (7 ^ (3 << 1)) at the last row
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::RangeUndecided`] when the search needs more than [`RANGE_SEARCH_LIMIT`] steps
    /// on a map of more than [`RANGE_ENUMERATION_LIMIT`] positions, or a restriction of a composite that is not a layout has more than [`DECIDE_LIMIT`]
    /// coordinates; [`Error::Overflow`] when an offset does not fit `i64`; the errors of an
    /// ill-formed restriction ([`Error::RestrictEntry`], [`Error::CoordOutOfRange`]).
    pub fn offset_range(&self) -> Result<(i64, i64), Error> {
        let im = image(self, &[])?;
        match im.base {
            Base::Table(values) => {
                let mut it = values.into_iter().map(|v| apply_all(&im.swizzles, v));
                let first = it.next().unwrap_or(0);
                Ok(it.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v))))
            }
            Base::Affine { constant, modes } => {
                if im.swizzles.is_empty() {
                    let (mut lo, mut hi) = (constant, constant);
                    for &(n, d) in &modes {
                        let reach = n
                            .checked_sub(1)
                            .and_then(|t| t.checked_mul(d))
                            .ok_or(OVERFLOW)?;
                        if reach < 0 {
                            lo = lo.checked_add(reach).ok_or(OVERFLOW)?;
                        } else {
                            hi = hi.checked_add(reach).ok_or(OVERFLOW)?;
                        }
                    }
                    return Ok((lo, hi));
                }
                let size = self.size();
                let searched = search(constant, &modes, &im.swizzles, false, size)
                    .and_then(|lo| Ok((lo, search(constant, &modes, &im.swizzles, true, size)?)));
                match searched {
                    // A small map the search does not settle quickly is enumerated.
                    Err(Error::RangeUndecided { .. }) if size <= RANGE_ENUMERATION_LIMIT => {
                        let mut range = (i64::MAX, i64::MIN);
                        for i in 0..size {
                            let v = self.eval_index(i)?;
                            range = (range.0.min(v), range.1.max(v));
                        }
                        Ok(range)
                    }
                    other => other,
                }
            }
        }
    }

    /// Bounds that contain every offset (elements), in O(size of the map's description), never
    /// failing on a well-formed map: the exact range of a layout, a composite's left operand's
    /// bounds, a restriction's unrestricted bounds, and for a swizzle the smallest `x & !M` and
    /// largest `x | M` over its inner bounds (`M` the bits it changes). Not exact: for checks
    /// that only need containment (an index type's range), when [`Map::offset_range`] fails.
    ///
    /// ```
    /// use layout_core::{Annotated, Map, Space, Swizzle};
    /// let rows: Map = Annotated::new("(4,8):(16,1)".parse()?, Space::Logical, Space::Physical)?.into();
    /// let r = rows.swizzle(Swizzle::new(2, 4, 1)?)?;
    /// let (lo, hi) = r.offset_bounds();
    /// assert!(lo <= 0 && hi >= 55);
    /// # Ok::<(), layout_core::Error>(())
    /// ```
    #[must_use]
    pub fn offset_bounds(&self) -> (i64, i64) {
        match self {
            Map::Layout(a) => a.layout().span(),
            Map::Composite(c) => c.left().offset_bounds(),
            Map::Restricted { inner, .. } => inner.offset_bounds(),
            Map::Swizzled { swizzle, inner } => {
                let (lo, hi) = inner.offset_bounds();
                swizzle_bounds(*swizzle, lo, hi)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interval bounds against every interval of small numbers, both signs.
    #[test]
    fn interval_bit_bounds_are_exact() {
        for m in [0i64, 1, 2, 6, 0b1010, 0b1100, 0b111] {
            for lo in -20i64..20 {
                for hi in lo..20 {
                    let max = (lo..=hi).map(|x| x | m).max().unwrap_or(0);
                    let min = (lo..=hi).map(|x| x & !m).min().unwrap_or(0);
                    assert_eq!(max_or(lo, hi, m), max, "max [{lo},{hi}] | {m}");
                    assert_eq!(min_and(lo, hi, m), min, "min [{lo},{hi}] & !{m}");
                }
            }
        }
    }
}

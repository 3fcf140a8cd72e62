//! CuTe's own unit-test postconditions, checked by evaluation on every result before it is
//! returned (spec: CuTe interoperability). Each function returns the first violation found, with its numbers.
//!
//! | operation | CuTe test | checked here |
//! |---|---|---|
//! | `coalesce` | `test_coalesce` | `size(R) == size(L)`, `R(i) == L(i)` for all `i`, `depth(R) <= 1` |
//! | `composition` | `test_composition` | `compatible(B, R)`, `R(i) == A(B(i))` for all `i` |
//! | `complement` | `test_complement` | checks (1)–(4) |
//! | `right_inverse` | `test_right_inverse` | `R(i)` is a coordinate of `L` and `L(R(i)) == i` |
//! | `left_inverse` | `test_left_inverse` | `R(L(i))` is a coordinate of `L` and `L(R(L(i))) == L(i)` |
//! | regroupings | — | the regrouped layout equals its source at every coordinate |

use alloc::vec::Vec;

use super::condition::{CuteOp, Postcondition};
use super::diag::Ctx;
use super::layout::{CHECK_LIMIT, CuteLayout};
use crate::error::{Error, ModePath, Quantity};
use crate::tree::Tree;

/// Fails with [`Error::CuteCheckLimit`] when a check would make more than [`CHECK_LIMIT`]
/// evaluations.
pub(crate) fn limit(op: CuteOp, n: i64) -> Result<(), Error> {
    if n > CHECK_LIMIT {
        Err(Error::CuteCheckLimit {
            op,
            size: n,
            limit: CHECK_LIMIT,
        })
    } else {
        Ok(())
    }
}

fn overflow() -> Error {
    Error::Overflow {
        mode: ModePath::ROOT,
        what: Quantity::Offset,
    }
}

/// `test_coalesce`: same size, same value at every integral coordinate, and (for a full
/// coalesce) depth at most 1.
pub(crate) fn coalesce(ctx: Ctx, l: &CuteLayout, r: &CuteLayout, full: bool) -> Result<(), Error> {
    let op = CuteOp::Coalesce;
    if r.size() != l.size() {
        return Err(ctx.post(
            op,
            Postcondition::CoalesceSize {
                expected: l.size(),
                found: r.size(),
            },
        ));
    }
    if full && r.depth() > 1 {
        return Err(ctx.post(op, Postcondition::CoalesceDepth { depth: r.depth() }));
    }
    if l.size() > 1 << 16 && full {
        // Many coordinates: check the identity that makes a merge exact instead of evaluating
        // (equally exact, O(leaves)). Each leaf (N, D) of R must be a run of L's leaves (size-1 leaves skipped)
        // (n_1, d_1), …, (n_k, d_k) with d_1 = D, d_(j+1) = n_j·d_j and N = n_1⋯n_k; then
        // R(i) = L(i) for every i, since (i mod n_1)·d_1 + (⌊i/n_1⌋ mod n_2)·n_1·d_1 =
        // (i mod n_1·n_2)·d_1.
        return merge_certificate(ctx, l, r);
    }
    limit(op, l.size())?;
    let (lf, rf) = (l.flat(), r.flat());
    for i in 0..l.size() {
        let (expected, found) = (lf.eval(i)?, rf.eval(i)?);
        if expected != found {
            return Err(ctx.post(
                op,
                Postcondition::CoalesceValue {
                    index: i,
                    expected,
                    found,
                },
            ));
        }
    }
    Ok(())
}

fn merge_certificate(ctx: Ctx, l: &CuteLayout, r: &CuteLayout) -> Result<(), Error> {
    let fail = |index: i64| {
        Err(ctx.post(
            CuteOp::Coalesce,
            Postcondition::CoalesceValue {
                index,
                expected: l.eval_index(index).unwrap_or(0),
                found: r.eval_index(index).unwrap_or(0),
            },
        ))
    };
    let mut src = l.leaves().into_iter().filter(|&(n, _)| n != 1).peekable();
    let mut weight = 1i64;
    for (n, d) in r.leaves() {
        if n == 1 {
            continue;
        }
        let (mut size, mut next) = (1i64, d);
        while size < n {
            match src.next() {
                Some((m, e)) if e == next => {
                    size = size.checked_mul(m).ok_or_else(overflow)?;
                    next = m.checked_mul(e).ok_or_else(overflow)?;
                }
                _ => return fail(weight),
            }
        }
        if size != n {
            return fail(weight);
        }
        weight = weight.checked_mul(n).ok_or_else(overflow)?;
    }
    match src.next() {
        None => Ok(()),
        Some(_) => fail(weight.min(l.size().saturating_sub(1))),
    }
}

/// CuTe `compatible(B, R)`: where `B` has an integer, `R` has a subtree of that size; where `B`
/// has a tuple, `R` has a tuple of the same rank, recursively. The first mismatch: its path in
/// `B` and the two sizes (or ranks).
fn compatible(path: ModePath, b: &Tree<i64>, r: &Tree<i64>) -> Option<(ModePath, i64, i64)> {
    match (b, r) {
        (Tree::Leaf(n), _) => {
            let size: i64 = r.leaves().into_iter().product();
            (size != *n).then_some((path, *n, size))
        }
        (Tree::Tuple(bs), Tree::Tuple(rs)) if bs.len() == rs.len() => bs
            .iter()
            .zip(rs)
            .enumerate()
            .find_map(|(i, (x, y))| compatible(path.child(i).unwrap_or(path), x, y)),
        _ => Some((path, to_i64(b.rank()), to_i64(r.rank()))),
    }
}

/// `test_composition`: `compatible(B, R)` and `R(i) == A(B(i))` for every integral coordinate
/// `i` of `B`, with `A` on CuTe's extended domain ([`CuteLayout::eval_extended`]).
pub(crate) fn composition(
    ctx: Ctx,
    a: &CuteLayout,
    b: &CuteLayout,
    r: &CuteLayout,
) -> Result<(), Error> {
    let op = CuteOp::Composition;
    if let Some((path, expected, found)) = compatible(ModePath::ROOT, b.shape(), r.shape()) {
        return Err(ctx
            .at(path)
            .post(op, Postcondition::CompositionCompatible { expected, found }));
    }
    limit(op, b.size())?;
    let (af, bf, rf) = (a.flat(), b.flat(), r.flat());
    for i in 0..b.size() {
        let expected = af.eval(bf.eval(i)?)?;
        let found = rf.eval(i)?;
        if expected != found {
            return Err(ctx.post(
                op,
                Postcondition::CompositionValue {
                    index: i,
                    expected,
                    found,
                },
            ));
        }
    }
    Ok(())
}

/// `test_complement` checks (1)–(4) for `R = complement(L, cotarget)`:
/// (1) `cosize(make_layout(L, R)) >= cotarget`, (2) `cosize(R) <= round_up(cotarget,
/// cosize(L))`, (3) `R(i-1) < R(i)`, (4) `R(i) != L(j)` for `i >= 1` and every `j`.
pub(crate) fn complement(
    ctx: Ctx,
    l: &CuteLayout,
    cotarget: i64,
    r: &CuteLayout,
) -> Result<(), Error> {
    let op = CuteOp::Complement;
    let completed = CuteLayout::make(&[l.clone(), r.clone()])?;
    let cosize = completed.cosize()?;
    if cosize < cotarget {
        return Err(ctx.post(op, Postcondition::ComplementCoverage { cosize, cotarget }));
    }
    let lc = l.cosize()?;
    let bound = if lc >= 1 {
        super::layout::ceil_div(cotarget, lc)
            .and_then(|q| q.checked_mul(lc))
            .ok_or_else(overflow)?
    } else {
        // CuTe's round_up is undefined here; complement refuses negative strides before.
        cotarget
    };
    let rc = r.cosize()?;
    if rc > bound {
        return Err(ctx.post(op, Postcondition::ComplementBound { cosize: rc, bound }));
    }
    limit(op, r.size().checked_add(l.size()).unwrap_or(i64::MAX))?;
    let rf = r.flat();
    let mut previous = rf.eval(0)?;
    for i in 1..r.size() {
        let value = rf.eval(i)?;
        if previous >= value {
            return Err(ctx.post(
                op,
                Postcondition::ComplementOrdered {
                    index: i,
                    previous,
                    value,
                },
            ));
        }
        previous = value;
    }
    let lf = l.flat();
    let mut image: Vec<(i64, i64)> = (0..l.size())
        .map(|j| lf.eval(j).map(|v| (v, j)))
        .collect::<Result<_, _>>()?;
    image.sort_unstable();
    for i in 1..r.size() {
        let value = rf.eval(i)?;
        let k = image.partition_point(|&(v, _)| v < value);
        if let Some(&(v, j)) = image.get(k)
            && v == value
        {
            return Err(ctx.post(
                op,
                Postcondition::ComplementDisjoint {
                    index: i,
                    value,
                    layout_index: j,
                },
            ));
        }
    }
    Ok(())
}

/// `test_right_inverse`: for every integral coordinate `i` of `R`, `R(i)` is a coordinate of
/// `L` and `L(R(i)) == i`.
pub(crate) fn right_inverse(ctx: Ctx, l: &CuteLayout, r: &CuteLayout) -> Result<(), Error> {
    let op = CuteOp::RightInverse;
    limit(op, r.size())?;
    let (lf, rf) = (l.flat(), r.flat());
    for i in 0..r.size() {
        let value = rf.eval(i)?;
        if !(0..l.size()).contains(&value) {
            return Err(ctx.post(
                op,
                Postcondition::RightInverseDomain {
                    index: i,
                    value,
                    size: l.size(),
                },
            ));
        }
        let found = lf.eval(value)?;
        if found != i {
            return Err(ctx.post(
                op,
                Postcondition::RightInverseValue {
                    index: i,
                    value,
                    found,
                },
            ));
        }
    }
    Ok(())
}

/// `test_left_inverse`: for every integral coordinate `i` of `L`, `R(L(i))` (with `R` on its
/// extended domain) is a coordinate of `L` and `L(R(L(i))) == L(i)`. For an injective `L` this
/// is `R(L(i)) == i`.
pub(crate) fn left_inverse(ctx: Ctx, l: &CuteLayout, r: &CuteLayout) -> Result<(), Error> {
    let op = CuteOp::LeftInverse;
    limit(op, l.size())?;
    let (lf, rf) = (l.flat(), r.flat());
    for i in 0..l.size() {
        let expected = lf.eval(i)?;
        let value = rf.eval(expected)?;
        if !(0..l.size()).contains(&value) {
            return Err(ctx.post(
                op,
                Postcondition::LeftInverseDomain {
                    index: i,
                    value,
                    size: l.size(),
                },
            ));
        }
        let found = lf.eval(value)?;
        if found != expected {
            return Err(ctx.post(
                op,
                Postcondition::LeftInverseValue {
                    index: i,
                    expected,
                    found,
                },
            ));
        }
    }
    Ok(())
}

/// A regrouping: `result`'s leaf `k` is `source`'s leaf `perm[k]`, or a new leaf of size 1
/// (`None`). Checks that `perm` uses every source leaf once, with its size, and that
/// `result(z) == source(π(z))` at every integral coordinate `z`, where `π` carries `z`'s digits to
/// the source's leaves.
pub(crate) fn regroup(
    ctx: Ctx,
    op: CuteOp,
    source: &CuteLayout,
    result: &CuteLayout,
    perm: &[Option<usize>],
) -> Result<(), Error> {
    let src = source.leaves();
    let res = result.leaves();
    let mut used = alloc::vec![false; src.len()];
    let bad = |index: i64, expected: i64, found: i64| {
        ctx.post(
            op,
            Postcondition::Regroup {
                index,
                expected,
                found,
            },
        )
    };
    if perm.len() != res.len() {
        return Err(bad(0, to_i64(res.len()), to_i64(perm.len())));
    }
    for (k, p) in perm.iter().enumerate() {
        match p {
            None if res[k].0 == 1 => {}
            Some(p) => match used.get_mut(*p) {
                Some(u) if !*u && src[*p].0 == res[k].0 => *u = true,
                _ => return Err(bad(0, to_i64(src.len()), to_i64(*p))),
            },
            None => return Err(bad(0, 1, res[k].0)),
        }
    }
    if used.iter().any(|u| !u) {
        return Err(bad(0, to_i64(src.len()), to_i64(res.len())));
    }
    // Weights of the source's digits (colexicographic).
    let mut weights = alloc::vec![0i64; src.len()];
    let mut w = 1i64;
    for (k, &(n, _)) in src.iter().enumerate() {
        weights[k] = w;
        w = w.checked_mul(n).ok_or_else(overflow)?;
    }
    limit(op, result.size())?;
    let (sf, rf) = (source.flat(), result.flat());
    for z in 0..result.size() {
        let mut rest = z;
        let mut index = 0i64;
        for (k, &(n, _)) in res.iter().enumerate() {
            let digit = rest.checked_rem(n).unwrap_or(0);
            rest = rest.checked_div(n).unwrap_or(0);
            if let Some(p) = perm[k] {
                index = digit
                    .checked_mul(weights[p])
                    .and_then(|t| index.checked_add(t))
                    .ok_or_else(overflow)?;
            }
        }
        let (expected, found) = (sf.eval(index)?, rf.eval(z)?);
        if expected != found {
            return Err(bad(z, expected, found));
        }
    }
    Ok(())
}

/// The values of `l` at every integral coordinate, sorted and without repeats; `None` past
/// [`CHECK_LIMIT`] coordinates.
fn image(l: &CuteLayout) -> Result<Option<Vec<i64>>, Error> {
    if l.size() > CHECK_LIMIT {
        return Ok(None);
    }
    let f = l.flat();
    let mut v = (0..l.size())
        .map(|i| f.eval(i))
        .collect::<Result<Vec<i64>, Error>>()?;
    v.sort_unstable();
    v.dedup();
    Ok(Some(v))
}

/// A divide's own postcondition on its tile-and-rest layout `T = (B, complement(B, n))`: every
/// coordinate `x < n` of the divided layout is `T(i)` for exactly one `i` (each element lies in
/// exactly one tile). `false` also when `T` is too large to check.
pub(crate) fn divide_partition(n: i64, t: &CuteLayout) -> Result<bool, Error> {
    let Some(values) = image(t)? else {
        return Ok(false);
    };
    let injective = i64::try_from(values.len()).is_ok_and(|k| k == t.size());
    let below = values.partition_point(|&v| v < n);
    let covers =
        values.first().is_none_or(|&v| v >= 0) && i64::try_from(below).is_ok_and(|k| k == n);
    Ok(injective && covers)
}

/// A product's own postcondition on `R = (A, complement(A, ..) ∘ B)`: the copies of `A` at
/// distinct offsets of `B` are disjoint, i.e. `R` takes `|A(·)|·|B(·)|` distinct values (sets of
/// values at every integral coordinate). `false` also when a layout is too large to check.
pub(crate) fn product_disjoint(
    a: &CuteLayout,
    b: &CuteLayout,
    r: &CuteLayout,
) -> Result<bool, Error> {
    let (Some(ia), Some(ib), Some(ir)) = (image(a)?, image(b)?, image(r)?) else {
        return Ok(false);
    };
    Ok(ia.len().checked_mul(ib.len()) == Some(ir.len()))
}

/// A count as `i64` (counts of modes and entries are far below `i64::MAX`).
fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

//! `right_inverse` and `left_inverse` with CuTe's semantics (pycute's algorithms), checked.

use alloc::vec::Vec;

use super::diag::Ctx;
use super::layout::CuteLayout;
use super::ops::{coalesce_formula, complement_formula, from_modes};
use super::post;
use crate::error::{Error, ModePath, Quantity};

/// pycute's `right_inverse(L)`: the leaves sorted by `(stride, size, prefix product)`; starting
/// at stride 1, each leaf whose stride continues the running product `size·stride` contributes
/// `size : prefix product`; the first that does not ends the walk (a stride-0 mode ends it at
/// once). Coalesced; `1:0` when nothing is found.
pub(crate) fn right_inverse_formula(l: &CuteLayout) -> Result<CuteLayout, Error> {
    let overflow = || Error::Overflow {
        mode: ModePath::ROOT,
        what: Quantity::Offset,
    };
    let mut leaves: Vec<(i64, i64, i64)> = Vec::new();
    let mut prefix = 1i64;
    for (n, d) in l.leaves() {
        leaves.push((d, n, prefix));
        prefix = prefix.checked_mul(n).ok_or_else(overflow)?;
    }
    leaves.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::new();
    let mut current = 1i64;
    for (d, n, rstride) in leaves {
        if n == 1 {
            continue;
        }
        if current != d {
            break;
        }
        out.push((n, rstride));
        current = n.checked_mul(d).ok_or_else(overflow)?;
    }
    if out.is_empty() {
        return CuteLayout::leaf(1, 0);
    }
    coalesce_formula(&from_modes(&out)?)
}

/// CuTe's `right_inverse(L)`, checked: `L(R(i)) == i` for every `i < size(R)`.
pub(crate) fn right_inverse(ctx: Ctx, l: &CuteLayout) -> Result<CuteLayout, Error> {
    let r = right_inverse_formula(l)?;
    post::right_inverse(ctx, l, &r)?;
    Ok(r)
}

/// CuTe's `left_inverse(L) = right_inverse(make_layout(L, complement(L)))` with pycute's
/// default cotarget 1, checked: `R(L(i))` is a coordinate of `L` and `L(R(L(i))) == L(i)`.
/// CuTe's refusals of the complement inside it (overlapping or negative strides) are reported.
pub(crate) fn left_inverse(ctx: Ctx, l: &CuteLayout) -> Result<CuteLayout, Error> {
    let rest = complement_formula(ctx, l, 1)?;
    let r = right_inverse_formula(&CuteLayout::make(&[l.clone(), rest])?)?;
    post::left_inverse(ctx, l, &r)?;
    Ok(r)
}

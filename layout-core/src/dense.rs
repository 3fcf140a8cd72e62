//! Lemma 1 (spec: Dense bijections): a dense bijection is decided from sizes and strides alone.

use smallvec::SmallVec;

use crate::error::Error;
use crate::layout::{Layout, Leaf};
use crate::tree::Stride;

/// Whether `layout` is a dense bijection onto `[0, size)` (Lemma 1; spec: Dense bijections).
///
/// Modes of size 1 are dropped; a broadcast `_` of size > 1 fails; the remaining modes sorted by
/// stride must have strides `1, n₁, n₁n₂, …` (the running products of the sorted sizes).
/// O(k log k) in the number of leaves, never an enumeration: a layout of size 2⁶⁰ is as fast
/// as one of size 4.
///
/// ```
/// use layout_core::{is_dense_bijection, Layout};
/// assert!(is_dense_bijection(&"(2,3,4):(1,8,2)".parse::<Layout>()?));
/// assert!(!is_dense_bijection(&"(4,8):(9,1)".parse::<Layout>()?));
/// # Ok::<(), layout_core::Error>(())
/// ```
#[must_use]
pub fn is_dense_bijection(layout: &Layout) -> bool {
    check_dense_bijection(layout).is_ok()
}

/// [`is_dense_bijection`] with the reason when it fails.
///
/// # Errors
/// [`Error::BroadcastNotDense`] for a `_` mode of size > 1; [`Error::NotDense`] naming the
/// first mode, in stride order, whose stride is not the running product, with the stride
/// expected and the stride found.
pub fn check_dense_bijection(layout: &Layout) -> Result<(), Error> {
    let mut modes: SmallVec<[(usize, &Leaf); 8]> = layout
        .leaves()
        .iter()
        .enumerate()
        .filter(|(_, m)| m.size() > 1)
        .collect();
    if let Some((i, m)) = modes.iter().find(|(_, m)| m.stride() == Stride::Broadcast) {
        return Err(Error::BroadcastNotDense {
            mode: layout.leaf_path(*i),
            size: m.size(),
        });
    }
    modes.sort_by_key(|(_, m)| m.stride().value());
    let mut expected = 1i64;
    for &(i, m) in &modes {
        let found = m.stride().value();
        if found != expected {
            return Err(Error::NotDense {
                mode: layout.leaf_path(i),
                expected,
                found,
            });
        }
        // The running product is a divisor of size(L), which fits in i64.
        expected = expected.saturating_mul(m.size());
    }
    Ok(())
}

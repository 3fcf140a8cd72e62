//! Brute-force models of maps for the slicing and regrouping tests: a flat layout as its
//! leaves `(size, stride)`, slowest first, evaluated by unflattening the flat index (last leaf
//! fastest); a slice as the flat indices of the full domain whose fixed leaves carry their
//! values, kept in order (the `k`-th kept one is the slice's flat index `k`). Nothing here calls
//! the code under test except to read the value it is compared with.

use layout_typed::{IndexType, Layout};

/// `L(i)`: `i` unflattened over the leaves (last fastest), times the strides.
#[must_use]
pub fn eval(leaves: &[(i64, i64)], i: i64) -> i64 {
    let mut rest = i;
    let mut acc = 0;
    for &(n, d) in leaves.iter().rev() {
        acc += (rest % n) * d;
        rest /= n;
    }
    acc
}

/// The slice of `f` over a domain of leaves `sizes` with some leaves fixed (`Some`), in flat
/// order.
///
/// # Panics
/// When `sizes` and `fixed` differ in length.
#[must_use]
pub fn slice(sizes: &[i64], fixed: &[Option<i64>], f: &dyn Fn(i64) -> i64) -> Vec<i64> {
    assert_eq!(sizes.len(), fixed.len());
    let size: i64 = sizes.iter().product();
    (0..size)
        .filter(|&i| {
            crate::expr::digits(i, sizes)
                .iter()
                .zip(fixed)
                .all(|(d, x)| x.is_none_or(|x| x == *d))
        })
        .map(f)
        .collect()
}

/// The offsets of a typed value at every flat index.
#[must_use]
pub fn offsets<T: Layout>(l: T) -> Vec<i64> {
    (0..T::SIZE)
        .map(|i| l.offset_index(i).to_isize() as i64)
        .collect()
}

/// The same expression evaluated at run time by the expression language, at every flat index.
///
/// # Panics
/// When the text is refused or a value cannot be computed.
#[must_use]
pub fn at_run_time(defs: &str, expr: &str) -> Vec<i64> {
    let m = layout_core::expr::evaluate_text(&format!("{defs} {expr}"))
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
    (0..m.size()).map(|i| m.eval_index(i).unwrap()).collect()
}

/// The panic message of `f`, which must panic.
///
/// # Panics
/// When `f` returns.
pub fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let p = std::panic::catch_unwind(f).expect_err("panics");
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

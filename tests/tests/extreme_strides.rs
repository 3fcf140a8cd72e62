//! `layout!` with a stride that is `i64::MIN` (its magnitude is no `i64`): declared, its offsets
//! are exact at every coordinate.

use layout_typed::{Layout, layout};

layout! {
    const LOW = (1,2):(-9223372036854775808,1), logical -> physical;
    const BOTH = (2,2):(9223372036854775807,-9223372036854775808), logical -> physical;
}

#[test]
fn minimum_stride_offsets() {
    let l = LOW;
    let got: Vec<i64> = (0..2).map(|i| l.offset_index(i)).collect();
    assert_eq!(got, vec![0, 1]);
    let b = BOTH;
    let got: Vec<i128> = (0..4).map(|i| i128::from(b.offset_index(i))).collect();
    let want: Vec<i128> = (0..4i128)
        .map(|i| (i / 2) * i128::from(i64::MAX) + (i % 2) * i128::from(i64::MIN))
        .collect();
    assert_eq!(got, want);
    assert_eq!((BOTH::MIN_OFFSET, BOTH::MAX_OFFSET), (i64::MIN, i64::MAX));
}

/// Restrictions of it: the generated code spells a constant or a coefficient `i64::MIN`.
#[test]
fn minimum_stride_restrictions() {
    let fixed_min = layout!(restrict(BOTH, 1 = 1));
    let got: Vec<i128> = (0..2)
        .map(|i| i128::from(fixed_min.offset_index(i)))
        .collect();
    let want: Vec<i128> = (0..2i128)
        .map(|i| i128::from(i64::MIN) + i * i128::from(i64::MAX))
        .collect();
    assert_eq!(got, want);
    let fixed_max = layout!(restrict(BOTH, 0 = 1));
    let got: Vec<i128> = (0..2)
        .map(|i| i128::from(fixed_max.offset_index(i)))
        .collect();
    let want: Vec<i128> = (0..2i128)
        .map(|i| i128::from(i64::MAX) + i * i128::from(i64::MIN))
        .collect();
    assert_eq!(got, want);
}

//! Lemma 1 (`is_dense_bijection`) against brute-force enumeration on every flat layout of rank
//! ≤ 3 with sizes 1..=4 and strides −2..=12 or `_`.

use layout_core::{Error, ModePath, check_dense_bijection, is_dense_bijection};
use layout_tests::{Flat, all_flat, small_strides};

/// The first mode of size > 1 with literal stride 0, as `Layout::new` must report it.
fn first_zero_stride(f: &Flat) -> Option<(ModePath, i64)> {
    let rank = f.modes.len();
    f.modes.iter().enumerate().find_map(|(k, &(n, d))| {
        (n > 1 && d == Some(0)).then(|| {
            // A rank-1 tuple is the bare leaf, whose path is the root.
            let path = if rank == 1 {
                ModePath::ROOT
            } else {
                ModePath::from_indices(&[k]).expect("small path")
            };
            (path, n)
        })
    })
}

/// Lemma 1's reason computed independently: sort the modes of size > 1 by stride (stably) and
/// walk the running product; `(expected, found)` at the first break.
fn first_break(f: &Flat) -> Option<(i64, i64)> {
    let mut m: Vec<(i64, i64)> = f
        .modes
        .iter()
        .filter(|m| m.0 > 1)
        .map(|&(n, d)| (n, d.expect("no broadcast here")))
        .collect();
    m.sort_by_key(|x| x.1);
    let mut expected = 1;
    for (n, d) in m {
        if d != expected {
            return Some((expected, d));
        }
        expected *= n;
    }
    None
}

#[test]
fn lemma1_equals_enumeration_on_all_small_flat_layouts() {
    let (mut dense, mut not_dense, mut rejected) = (0u32, 0u32, 0u32);
    for (k, f) in all_flat(3, &[1, 2, 3, 4], &small_strides())
        .iter()
        .enumerate()
    {
        let built = f.to_layout();
        if let Some((mode, size)) = first_zero_stride(f) {
            assert_eq!(built, Err(Error::ZeroStride { mode, size }), "{f:?}");
            rejected += 1;
            continue;
        }
        let l = built.unwrap_or_else(|e| panic!("{f:?}: {e}"));
        assert_eq!(l.size(), f.size());
        if k % 11 == 0 {
            for i in 0..f.size() {
                assert_eq!(l.eval_index(i), Ok(f.eval(i)), "{l} at {i}");
            }
        }
        let brute = f.brute_dense();
        assert_eq!(is_dense_bijection(&l), brute, "{l}");
        match check_dense_bijection(&l) {
            Ok(()) => assert!(brute),
            Err(Error::BroadcastNotDense { size, .. }) => {
                assert!(size > 1);
                assert!(f.modes.iter().any(|m| m.0 == size && m.1.is_none()));
            }
            Err(Error::NotDense {
                expected, found, ..
            }) => {
                assert!(f.modes.iter().all(|m| m.0 == 1 || m.1.is_some()));
                assert_eq!(first_break(f), Some((expected, found)), "{l}");
            }
            Err(e) => panic!("{l}: unexpected {e:?}"),
        }
        if brute {
            dense += 1;
        } else {
            not_dense += 1;
        }
    }
    println!(
        "lemma 1 exhaustive: {dense} dense, {not_dense} not dense, {rejected} rejected (zero stride)"
    );
    assert!(dense >= 100 && not_dense >= 100 && rejected >= 100);
}

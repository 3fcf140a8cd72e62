//! Property tests beyond the exhaustive sets: random flat layouts of rank ≤ 6 against the
//! brute-force oracles.

use layout_core::{Error, check_alias_free, fast_alias_test, is_alias_free, is_dense_bijection};
use layout_tests::Flat;
use proptest::prelude::*;

fn flat_layout() -> impl Strategy<Value = Flat> {
    let mode = (
        1i64..=6,
        prop_oneof![9 => (-24i64..=64).prop_map(Some), 1 => Just(None)],
    );
    proptest::collection::vec(mode, 1..=6).prop_map(|modes| Flat {
        modes: modes
            .into_iter()
            .map(|(n, d)| (n, if n > 1 && d == Some(0) { Some(1) } else { d }))
            .collect(),
    })
}

/// Dense permutations of canonical layouts: shuffled modes with canonical strides.
fn dense_layout() -> impl Strategy<Value = Flat> {
    proptest::collection::vec(1i64..=5, 1..=6)
        .prop_flat_map(|sizes| {
            let k = sizes.len();
            (Just(sizes), Just((0..k).collect::<Vec<_>>()).prop_shuffle())
        })
        .prop_map(|(sizes, order)| {
            // Canonical strides in the permuted order, then listed in the original order.
            let mut stride = vec![0; sizes.len()];
            let mut w = 1;
            for &i in order.iter().rev() {
                stride[i] = w;
                w *= sizes[i];
            }
            Flat {
                modes: sizes
                    .into_iter()
                    .zip(stride)
                    .map(|(n, d)| (n, Some(d)))
                    .collect(),
            }
        })
}

proptest! {
    // Lemma 1 agrees (spec: Reference results) with enumeration on 400 random layouts (and the exhaustive set
    // of dense_bijection.rs).
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn lemma1_matches_enumeration(f in flat_layout()) {
        let l = f.to_layout().expect("valid");
        prop_assert_eq!(is_dense_bijection(&l), f.brute_dense());
    }

    #[test]
    fn permuted_canonical_layouts_are_dense(f in dense_layout()) {
        let l = f.to_layout().expect("valid");
        prop_assert!(f.brute_dense());
        prop_assert!(is_dense_bijection(&l));
    }

    #[test]
    fn alias_free_matches_enumeration(f in flat_layout()) {
        let l = f.to_layout().expect("valid");
        let brute = f.brute_alias_free();
        prop_assert_eq!(is_alias_free(&l), Ok(brute));
        if let Some(v) = fast_alias_test(&l) {
            prop_assert_eq!(v, brute);
        }
        if let Err(Error::Aliasing { first, second, offset, .. }) = check_alias_free(&l) {
            prop_assert!(first != second && !f.equivalent(first, second));
            prop_assert_eq!(f.eval(first), offset);
            prop_assert_eq!(f.eval(second), offset);
        }
    }
}

//! Alias-freedom (`is_alias_free`, `check_alias_free`, `fast_alias_test`) against brute-force
//! enumeration on every flat layout of rank ≤ 3 with sizes 1..=4 and strides −2..=12 or `_`.

use layout_core::{Error, check_alias_free, fast_alias_test, is_alias_free};
use layout_tests::{all_flat, small_strides};

#[test]
fn alias_free_equals_enumeration_on_all_small_flat_layouts() {
    let (mut free, mut aliasing) = (0u32, 0u32);
    let (mut fast_free, mut fast_alias, mut fast_none) = (0u32, 0u32, 0u32);
    for f in all_flat(3, &[1, 2, 3, 4], &small_strides()) {
        if f.modes.iter().any(|m| m.0 > 1 && m.1 == Some(0)) {
            continue; // a construction error, tested with Lemma 1
        }
        let l = f.to_layout().unwrap_or_else(|e| panic!("{f:?}: {e}"));
        let brute = f.brute_alias_free();
        assert_eq!(is_alias_free(&l), Ok(brute), "{l}");
        match check_alias_free(&l) {
            Ok(()) => assert!(brute, "{l}"),
            Err(Error::Aliasing {
                first,
                second,
                offset,
                ..
            }) => {
                assert!(!brute, "{l}");
                assert_ne!(first, second, "{l}");
                assert!(!f.equivalent(first, second), "{l}: {first} ~ {second}");
                assert_eq!(f.eval(first), offset, "{l}");
                assert_eq!(f.eval(second), offset, "{l}");
                assert_eq!(l.eval_index(first), Ok(offset), "{l}");
                assert_eq!(l.eval_index(second), Ok(offset), "{l}");
            }
            Err(e) => panic!("{l}: unexpected {e:?}"),
        }
        match fast_alias_test(&l) {
            Some(v) => {
                assert_eq!(v, brute, "fast test on {l}");
                if v {
                    fast_free += 1;
                } else {
                    fast_alias += 1;
                }
            }
            None => fast_none += 1,
        }
        if brute {
            free += 1;
        } else {
            aliasing += 1;
        }
    }
    println!("alias-free exhaustive: {free} alias-free, {aliasing} aliasing");
    println!("fast test: {fast_free} free, {fast_alias} alias, {fast_none} undecided");
    assert!(free >= 100 && aliasing >= 100);
    assert!(fast_free >= 100 && fast_alias >= 100 && fast_none >= 1);
}

//! No public entry point panics on sizes and strides near the ends of `i64` (2^62, i64::MAX,
//! i64::MIN, sizes whose product passes 2^63): every call is made under `catch_unwind`, and
//! where a result is defined it is checked against values computed here in `i128`.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use layout_core::cute;
use layout_core::{
    Annotated, Error, Layout, Map, Space, Swizzle, Tree, broadcast, check, check_alias_free,
    compose, decide, decide_values, divide, emit, interleave, inverse, is_alias_free,
    is_dense_bijection, repeat, scan, written,
};

const P62: i64 = 1 << 62;

/// Layout texts at the ends of the integer range.
fn extreme_texts() -> Vec<String> {
    let max = i64::MAX;
    let min = i64::MIN;
    vec![
        format!("2:{max}"),
        format!("2:-{max}"),
        format!("2:{min}"),
        format!("(2,2):({P62},1)"),
        format!("(2,2):({P62},-{P62})"),
        format!("(2,2,3):({P62},-{},1)", P62 - 1),
        format!("(2,2,3):({P62},{},1)", P62 - 1),
        format!("(3,3):({P62},1)"),
        format!("({P62},2):(1,{P62})"),
        "(2147483648,4294967296):(4294967296,1)".into(),
        format!("{max}:1"),
        format!("({max}):(_)"),
        "(3037000500,3037000500):(3037000500,1)".into(),
        "(3037000499,3037000499):(3037000499,1)".into(),
        format!("((2,2),(2,2)):(({P62},{}),(2,1))", P62 / 2),
        format!("(4,{}):({},1)", P62 / 4, P62 / 4),
        format!("(2,2):({min},{max})"),
        format!("(2,3):(_,{max})"),
    ]
}

/// The leaves (size, stride) of a layout, last fastest.
fn leaves(l: &Layout) -> Vec<(i64, i64)> {
    l.modes()
        .iter()
        .map(|m| (m.size, m.stride.value()))
        .collect()
}

/// The offset at a flat index, in i128.
fn offset(leaves: &[(i64, i64)], mut i: i128) -> i128 {
    let mut v = 0i128;
    for &(n, d) in leaves.iter().rev() {
        v += (i % i128::from(n)) * i128::from(d);
        i /= i128::from(n);
    }
    v
}

fn no_panic<T>(what: &str, text: &str, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| panic!("{what} panicked on {text}"))
}

#[test]
fn every_entry_point_survives_extreme_layouts() {
    let mut built = 0;
    let mut alias_decided = 0;
    for text in extreme_texts() {
        let t = text.as_str();
        let parsed = no_panic("parse", t, || t.parse::<Layout>());
        let _ = no_panic("from_cute", t, || Layout::from_cute(t));
        let Ok(l) = parsed else {
            continue;
        };
        built += 1;
        let ls = leaves(&l);
        // The span is exact.
        let reaches: Vec<i128> = ls
            .iter()
            .map(|&(n, d)| i128::from(n - 1) * i128::from(d))
            .collect();
        let lo: i128 = reaches.iter().filter(|r| **r < 0).sum();
        let hi: i128 = reaches.iter().filter(|r| **r > 0).sum();
        assert_eq!(l.span(), (lo as i64, hi as i64), "{t}");
        // The last index evaluates to the value computed here.
        let last = no_panic("eval_index", t, || l.eval_index(l.size() - 1));
        assert_eq!(
            last.map(i128::from),
            Ok(offset(&ls, i128::from(l.size() - 1))),
            "{t}"
        );
        for (d, c) in [
            (Space::Logical, Space::Physical),
            (Space::Logical, Space::Logical),
            (Space::ThreadValue, Space::Logical),
        ] {
            let _ = no_panic("check", t, || check(&l, d, c));
        }
        let _ = no_panic("is_dense_bijection", t, || is_dense_bijection(&l));
        match no_panic("check_alias_free", t, || check_alias_free(&l)) {
            Err(Error::Aliasing {
                first,
                second,
                offset: o,
                ..
            }) => {
                alias_decided += 1;
                assert_ne!(first, second, "{t}");
                assert_eq!(offset(&ls, i128::from(first)), i128::from(o), "{t}");
                assert_eq!(offset(&ls, i128::from(second)), i128::from(o), "{t}");
            }
            Ok(()) => alias_decided += 1,
            Err(_) => {}
        }
        let _ = no_panic("is_alias_free", t, || is_alias_free(&l));
        let _ = no_panic("divide", t, || divide(&l, &[2]));
        let _ = no_panic("repeat", t, || repeat(&l, &l));
        let _ = no_panic("interleave", t, || interleave(&l, &l));
        let _ = no_panic("broadcast", t, || broadcast(&l, &Tree::Leaf(i64::MAX)));
        let _ = no_panic("inverse", t, || inverse(&l));
        // The same text as a CuTe layout (`_` is not CuTe's notation: those are skipped).
        if let Ok(c) = no_panic("cute parse", t, || t.parse::<cute::CuteLayout>()) {
            let _ = no_panic("cute::coalesce", t, || cute::coalesce(&c));
            let _ = no_panic("cute::composition", t, || cute::composition(&c, &c));
            let _ = no_panic("cute::complement", t, || cute::complement(&c, i64::MAX));
            let _ = no_panic("cute::right_inverse", t, || cute::right_inverse(&c));
            let _ = no_panic("cute::left_inverse", t, || cute::left_inverse(&c));
            let _ = no_panic("cute::logical_divide", t, || {
                cute::logical_divide(&c, &cute::Tiler::Layout(c.clone()))
            });
            let _ = no_panic("cute::logical_product", t, || {
                cute::logical_product(&c, &cute::Tiler::Layout(c.clone()))
            });
        }
        if let Ok(a) = Annotated::new(l.clone(), Space::Logical, Space::Physical) {
            let m: Map = a.into();
            let range = no_panic("offset_range", t, || m.offset_range());
            assert_eq!(range, Ok((lo as i64, hi as i64)), "{t}");
            let _ = no_panic("offset_bounds", t, || m.offset_bounds());
            let _ = no_panic("restrict", t, || m.restrict(&[(0, 1)]));
            let _ = no_panic("decide", t, || decide(&m, false));
            let _ = no_panic("emit", t, || emit(&m, false));
            let _ = no_panic("written", t, || written(&m, true));
            for (b, src, dst) in [(3, 59, 0), (1, 61, 60), (2, 0, 60)] {
                let s = Swizzle::new(b, src, dst).expect("fields");
                if let Ok(sw) = no_panic("swizzle", t, || m.clone().swizzle(s)) {
                    let _ = no_panic("swizzled offset_range", t, || sw.offset_range());
                    let _ = no_panic("swizzled eval", t, || sw.eval_index(sw.size() - 1));
                    let _ = no_panic("swizzled emit", t, || emit(&sw, false));
                }
            }
            // A composite with the identity of the same size, when it can be built.
            if let Ok(id) = Annotated::new(
                format!("{}:1", l.size()).parse().expect("identity"),
                Space::ThreadValue,
                Space::Logical,
            ) && let Ok(c) = no_panic("compose", t, || compose(&m, &id.into()))
            {
                let _ = no_panic("composite decide", t, || decide(&c, false));
                assert_eq!(c.offset_range(), Ok((lo as i64, hi as i64)), "{t}");
            }
        }
    }
    assert!(built >= 12, "only {built} extreme layouts built");
    assert!(alias_decided >= 10, "only {alias_decided} alias verdicts");
}

/// A layout whose offsets span more than i64 (from −(2^62 − 1) to 2^62 + 2) that neither fast
/// test decides: 2^62 − (2^62 − 1) = 1 collides with the stride-1 mode.
#[test]
fn alias_check_across_the_whole_range() {
    let l: Layout = format!("(2,2,3):({P62},-{},1)", P62 - 1)
        .parse()
        .expect("layout");
    assert_eq!(is_alias_free(&l), Ok(false));
    let l: Layout = format!("(2,2,2):({P62},-{},1)", P62 - 3)
        .parse()
        .expect("layout");
    // Differences: 2^62 − (2^62 − 3) = 3 > 1, and the pairs are far apart: alias-free.
    assert_eq!(is_alias_free(&l), Ok(true));
}

/// Hand-built maps and tables that no constructor checked do not panic either.
#[test]
fn unchecked_inputs_are_errors() {
    let inner: Map = Annotated::new(
        "(4,4):(4,1)".parse().expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("annotation")
    .into();
    let bogus = Map::Restricted {
        fixed: vec![(0, i64::MAX)],
        inner: Box::new(inner),
    };
    assert!(no_panic("eval", "restricted", || bogus.eval_index(0)).is_err());
    assert!(no_panic("offset_range", "restricted", || bogus.offset_range()).is_err());
    // A table shorter than its sizes.
    assert!(
        no_panic("decide_values", "short", || decide_values(
            &[4, 4],
            &[0, 1, 2]
        ))
        .is_err()
    );
    assert!(no_panic("decide_values", "zero", || decide_values(&[0], &[])).is_err());
    // The scan on values whose differences pass i64.
    let g = [0, i64::MAX, i64::MIN, -1];
    let _ = no_panic("scan", "extremes", || scan(&g));
    assert_eq!(
        scan(&[0, i64::MAX]).map(|c| c.strides.to_vec()),
        Ok(vec![i64::MAX])
    );
}

//! `layout_core::cute` on random input: it never panics (text of any shape, numbers at the
//! ends of `i64`), and every result it returns satisfies the operation's postcondition by an
//! evaluation written here, independently of `layout-core`.

use layout_core::cute::{Cute, CuteLayout, CuteOp};
use layout_tests::{cute_complement_checks, cute_eval_extended};
use proptest::prelude::*;

/// Text over the alphabet of layouts, tilers and swizzles.
fn noise() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop::sample::select("()<>,:_-0123456789 oSwizle[]WS".chars().collect::<Vec<_>>()),
        0..40,
    )
    .prop_map(|v| v.into_iter().collect())
}

/// A nested tuple of leaves drawn from `leaf`, as CuTe text.
fn tree(
    leaf: impl Strategy<Value = i64> + Clone + 'static,
) -> impl Strategy<Value = (String, usize)> {
    let leaf_text = leaf.prop_map(|x| (x.to_string(), 1usize));
    leaf_text.prop_recursive(3, 8, 3, |inner| {
        proptest::collection::vec(inner, 1..=3).prop_map(|v| {
            let n = v.iter().map(|x| x.1).sum();
            let texts: Vec<String> = v.into_iter().map(|x| x.0).collect();
            (format!("({})", texts.join(",")), n)
        })
    })
}

/// A layout text with leaves from `sizes` and `strides` (the stride tree mirrors the shape's).
fn layout_text(
    sizes: impl Strategy<Value = i64> + Clone + 'static,
    strides: impl Strategy<Value = i64> + Clone + 'static,
) -> impl Strategy<Value = String> {
    tree(sizes).prop_flat_map(move |(shape, n)| {
        proptest::collection::vec(strides.clone(), n).prop_map(move |ds| {
            // Replace the shape's leaves by the strides, in order.
            let mut it = ds.into_iter();
            let mut stride = String::new();
            let mut digits = false;
            for c in shape.chars() {
                if c.is_ascii_digit() || c == '-' {
                    if !digits {
                        stride.push_str(&it.next().unwrap_or(0).to_string());
                    }
                    digits = true;
                } else {
                    digits = false;
                    stride.push(c);
                }
            }
            format!("{shape}:{stride}")
        })
    })
}

fn extreme() -> impl Strategy<Value = i64> + Clone {
    prop_oneof![
        Just(i64::MAX),
        Just(i64::MIN),
        Just(i64::MAX / 2),
        Just(1i64 << 40),
        Just(-(1i64 << 40)),
        Just(3_037_000_500),
        -3i64..=70,
    ]
}

fn op() -> impl Strategy<Value = CuteOp> {
    prop::sample::select(CuteOp::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn text_never_panics(op in op(), a in noise(), b in noise(), strict in any::<bool>()) {
        let cute = if strict { Cute::strict() } else { Cute::new() };
        let _ = cute.apply(op, &[&a, &b]);
        let _ = cute.apply(op, &[&a]);
        let _ = a.parse::<CuteLayout>();
        let _ = a.parse::<layout_core::cute::Tiler>();
        let _ = a.parse::<layout_core::cute::Composed>();
    }

    #[test]
    fn extreme_numbers_never_panic(
        op in op(),
        a in layout_text(extreme().prop_filter("size", |&n| n != 0), extreme()),
        b in layout_text(extreme().prop_filter("size", |&n| n != 0), extreme()),
        strict in any::<bool>(),
    ) {
        let cute = if strict { Cute::strict() } else { Cute::new() };
        let second = match op {
            CuteOp::Complement => "9223372036854775807".to_string(),
            CuteOp::Swizzle => "3,4,3".to_string(),
            _ => b,
        };
        let _ = cute.apply(op, &[&a, &second]);
        let _ = cute.apply(op, &[&a]);
    }

    #[test]
    fn composition_results_are_compositions(
        a in layout_text(1i64..=6, -4i64..=40),
        b in layout_text(1i64..=6, -4i64..=40),
        strict in any::<bool>(),
    ) {
        let (al, bl): (CuteLayout, CuteLayout) = (a.parse().unwrap(), b.parse().unwrap());
        let cute = if strict { Cute::strict() } else { Cute::new() };
        if let Ok(r) = cute.composition(&al, &bl.clone().into()) {
            prop_assert_eq!(r.size(), bl.size());
            let (av, bv) = (al.leaves(), bl.leaves());
            for i in 0..bl.size() {
                let want = cute_eval_extended(&av, cute_eval_extended(&bv, i));
                prop_assert_eq!(r.eval_index(i).unwrap(), want, "{} o {} = {} at {}", a, b, r, i);
            }
        }
    }

    #[test]
    fn complement_results_pass_checks_1_to_4(
        l in layout_text(1i64..=5, 0i64..=24),
        m in 1i64..=96,
        strict in any::<bool>(),
    ) {
        let layout: CuteLayout = l.parse().unwrap();
        let cute = if strict { Cute::strict() } else { Cute::new() };
        if let Ok(r) = cute.complement(&layout, m) {
            let checks = cute_complement_checks(&layout.leaves(), &r.leaves(), m);
            prop_assert_eq!(checks, [false; 4], "complement({}, {}) = {}", l, m, r);
        }
    }

    #[test]
    fn inverse_results_are_inverses(l in layout_text(1i64..=5, -2i64..=24)) {
        let layout: CuteLayout = l.parse().unwrap();
        let lv = layout.leaves();
        if let Ok(r) = Cute::new().right_inverse(&layout) {
            for i in 0..r.size() {
                let x = r.eval_index(i).unwrap();
                prop_assert!((0..layout.size()).contains(&x));
                prop_assert_eq!(cute_eval_extended(&lv, x), i);
            }
        }
        if let Ok(r) = Cute::new().left_inverse(&layout) {
            let rv = r.leaves();
            for i in 0..layout.size() {
                let y = cute_eval_extended(&lv, i);
                let x = cute_eval_extended(&rv, y);
                prop_assert!((0..layout.size()).contains(&x));
                prop_assert_eq!(cute_eval_extended(&lv, x), y);
            }
        }
    }
}

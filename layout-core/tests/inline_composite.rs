//! A composite of two annotated layouts holds them inline; any other composite holds its
//! operands in one shared allocation. Both forms are checked against a model written here:
//! the operands read back are the ones given (the same allocations, not copies), the value at
//! every index is `left(right(i))` enumerated from the operands' leaves, the spaces, size,
//! tiles, domain and `Debug` text are the operands', and equality is the operands' equality
//! whichever way a composite was built. The left operands have size-1 modes, broadcasts,
//! negative strides and strides near the `i64` limits.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::borrow::Cow;

use layout_core::{Annotated, Layout, Map, Space, compose, decide};
use proptest::prelude::*;

/// Flat leaves `(size, stride)`, `None` for the broadcast `_`.
type Leaves = Vec<(i64, Option<i64>)>;

fn layout(leaves: &[(i64, Option<i64>)]) -> Option<Layout> {
    let s: Vec<String> = leaves.iter().map(|m| m.0.to_string()).collect();
    let d: Vec<String> = leaves
        .iter()
        .map(|m| m.1.map_or("_".to_string(), |d| d.to_string()))
        .collect();
    format!("({}):({})", s.join(","), d.join(",")).parse().ok()
}

fn map(leaves: &[(i64, Option<i64>)], domain: Space, codomain: Space) -> Option<Map> {
    Some(
        Annotated::new(layout(leaves)?, domain, codomain)
            .ok()?
            .into(),
    )
}

/// The value at flat index `i` (last leaf fastest), in `i128` so that the model cannot wrap.
fn offset(leaves: &[(i64, Option<i64>)], mut i: i64) -> i128 {
    let mut v = 0i128;
    for &(n, d) in leaves.iter().rev() {
        v += i128::from(i % n) * i128::from(d.unwrap_or(0));
        i /= n;
    }
    v
}

/// The row-major strides of `sizes` with the modes taken in the order `order` (a bijection
/// onto `[0, size)`).
fn bijection(sizes: &[i64], order: &[usize]) -> Leaves {
    let mut out: Leaves = sizes.iter().map(|&n| (n, Some(0))).collect();
    let mut w = 1;
    for &k in order.iter().rev() {
        out[k].1 = Some(w);
        w *= sizes[k];
    }
    out
}

/// Sizes (1 to 4, 1 to 4 leaves), an order of them, strides for the left operand (from a list
/// with `_`, signs and values near `i64::MAX`), a second order.
type Drawn = (Vec<i64>, Vec<usize>, Vec<Option<i64>>, Vec<usize>);

fn arb() -> impl Strategy<Value = Drawn> {
    prop::collection::vec(1i64..=4, 1..=4).prop_flat_map(|sizes| {
        let k = sizes.len();
        let order: Vec<usize> = (0..k).collect();
        let stride = prop::sample::select(vec![
            Some(1i64),
            Some(-1),
            Some(5),
            Some(-7),
            None,
            Some(i64::MAX / 4),
            Some(-(i64::MAX / 4)),
            Some(i64::MAX),
            Some(i64::MIN + 1),
        ]);
        (
            Just(sizes),
            Just(order.clone()).prop_shuffle(),
            prop::collection::vec(stride, k),
            Just(order).prop_shuffle(),
        )
    })
}

/// What a composite's `Debug` printed when it was `Arc<Composite>` with the fields `left` and
/// `right`.
fn debug_of(left: &Map, right: &Map) -> String {
    format!("Composite(Composite {{ left: {left:?}, right: {right:?} }})")
}

/// Both forms of composite agree with the model, for every drawn case whose left operand is a
/// layout; returns whether it was one.
fn agrees((sizes, order, strides, order2): Drawn) -> Result<bool, TestCaseError> {
    let left_leaves: Leaves = sizes.iter().copied().zip(strides).collect();
    // A left operand whose offsets do not fit `i64` is not a layout: nothing to compose.
    let Some(left) = map(&left_leaves, Space::Logical, Space::Physical) else {
        return Ok(false);
    };
    let right_leaves = bijection(&sizes, &order);
    let inner_leaves = bijection(&sizes, &order2);
    let right = map(&right_leaves, Space::ThreadValue, Space::Logical).expect("bijection");
    let middle = map(&right_leaves, Space::Logical, Space::Logical).expect("bijection");
    let inner = map(&inner_leaves, Space::ThreadValue, Space::Logical).expect("bijection");
    let total: i64 = sizes.iter().product();

    // Two annotated layouts: held inline, the very operands given.
    let c = compose(&left, &right).expect("composable");
    let Map::Composite(node) = &c else {
        panic!("not a composite")
    };
    let (Some((l, r)), Cow::Owned(lm), Cow::Owned(rm)) =
        (node.layouts(), node.left(), node.right())
    else {
        panic!("two layouts not inline: {c:?}")
    };
    prop_assert_eq!((&lm, &rm), (&left, &right));
    prop_assert_eq!(
        (Map::from(l.clone()), Map::from(r.clone())),
        (left.clone(), right.clone())
    );
    let Map::Composite(copy) = c.clone() else {
        panic!("not a composite")
    };
    prop_assert!(copy.shares_operands(node));
    // Equal operands built apart: an equal composite that shares nothing with this one.
    let apart = compose(
        &map(&left_leaves, Space::Logical, Space::Physical).expect("layout"),
        &map(&right_leaves, Space::ThreadValue, Space::Logical).expect("bijection"),
    )
    .expect("composable");
    prop_assert_eq!(&apart, &c);
    let Map::Composite(apart_node) = &apart else {
        panic!("not a composite")
    };
    prop_assert!(!apart_node.shares_operands(node));
    prop_assert_eq!(
        compose(&left, &inner).expect("composable") == c,
        inner == right
    );
    prop_assert_eq!(format!("{c:?}"), debug_of(&left, &right));
    prop_assert_eq!(
        (c.domain(), c.codomain(), c.size()),
        (Space::ThreadValue, Space::Physical, total)
    );
    prop_assert_eq!(c.domain_shape(), right.domain_shape());
    prop_assert_eq!(c.domain_entries(), right.domain_entries());
    prop_assert_eq!((c.domain_tile(), c.codomain_tile()), (None, None));
    prop_assert!(!c.is_swizzled() && !c.is_restricted());
    let mut seen = (i128::MAX, i128::MIN);
    for i in 0..total {
        let want = offset(&left_leaves, offset(&right_leaves, i) as i64);
        prop_assert_eq!(i128::from(c.eval_index(i).expect("in range")), want);
        seen = (seen.0.min(want), seen.1.max(want));
    }
    let (lo, hi) = c.offset_bounds();
    prop_assert!(i128::from(lo) <= seen.0 && seen.1 <= i128::from(hi));
    prop_assert!(c.eval_index(total).is_err() && c.eval_index(-1).is_err());

    // Composites of a composite: one shared allocation, the operands borrowed.
    let outer = compose(&left, &middle).expect("composable");
    let mid_inner = compose(&middle, &inner).expect("composable");
    let nested_left = compose(&outer, &inner).expect("composable");
    let nested_right = compose(&left, &mid_inner).expect("composable");
    for (m, (a, b)) in [
        (&nested_left, (&outer, &inner)),
        (&nested_right, (&left, &mid_inner)),
    ] {
        let Map::Composite(node) = m else {
            panic!("not a composite")
        };
        prop_assert!(node.layouts().is_none());
        let (Cow::Borrowed(ma), Cow::Borrowed(mb)) = (node.left(), node.right()) else {
            panic!("operands of a nested composite copied")
        };
        prop_assert_eq!((ma, mb), (a, b));
        let Map::Composite(copy) = m.clone() else {
            panic!("not a composite")
        };
        prop_assert!(copy.shares_operands(node));
        prop_assert_eq!(format!("{m:?}"), debug_of(a, b));
        prop_assert_eq!(
            (m.domain(), m.codomain(), m.size()),
            (Space::ThreadValue, Space::Physical, total)
        );
        for i in 0..total {
            let want = offset(
                &left_leaves,
                offset(&right_leaves, offset(&inner_leaves, i) as i64) as i64,
            );
            prop_assert_eq!(i128::from(m.eval_index(i).expect("in range")), want);
        }
    }
    // The inline and the shared form of one function decide alike: `c`, and `left` after
    // the identity of its domain, then `right`.
    let identity = map(&[(total, Some(1))], Space::Logical, Space::Logical).expect("identity");
    let shared =
        compose(&compose(&left, &identity).expect("composable"), &right).expect("composable");
    let Map::Composite(node) = &shared else {
        panic!("not a composite")
    };
    prop_assert!(node.layouts().is_none());
    for by_mode in [false, true] {
        prop_assert_eq!(decide(&shared, by_mode), decide(&c, by_mode));
    }
    prop_assert_ne!(&nested_left, &c);
    Ok(true)
}

/// The property over 400 drawn cases, most of whose left operands are layouts (the strides
/// near the limits make some of them not one).
#[test]
fn both_forms_agree_with_the_model() {
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config {
        cases: 400,
        ..Config::default()
    });
    let reached = std::cell::Cell::new(0);
    runner
        .run(&arb(), |drawn| {
            if agrees(drawn)? {
                reached.set(reached.get() + 1);
            }
            Ok(())
        })
        .expect("agrees");
    assert!(reached.get() > 150, "{}", reached.get());
}

/// The left operand of the benchmark's composition, `(2,6):(2,8)` (CuTe's `(6,2):(8,2)`),
/// after the transposition of its domain, and a left operand with a broadcast, a size-1 mode
/// and a negative stride near the limit.
#[test]
fn examples() {
    for (sizes, order, strides) in [
        (vec![2, 6], vec![1, 0], vec![Some(2), Some(8)]),
        (
            vec![3, 1, 4],
            vec![2, 0, 1],
            vec![None, Some(i64::MAX), Some(-(i64::MAX / 4))],
        ),
    ] {
        let order2 = order.iter().rev().copied().collect();
        let got = agrees((sizes, order, strides, order2));
        assert!(matches!(got, Ok(true)), "{got:?}");
    }
}

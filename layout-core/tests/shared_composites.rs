//! A composite holds its two operands in one shared node: building one allocates once, cloning
//! one copies a pointer, and its value at every index is still `left(right(i))`, checked here
//! against an enumeration written in the test, for composites of layouts, composites nested on
//! either side, and restrictions of composites.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{Annotated, Map, Space, compose};
use proptest::prelude::*;

/// Seed text of the flat layout with these `(size, stride)` leaves.
fn text(leaves: &[(i64, i64)]) -> String {
    let s: Vec<String> = leaves.iter().map(|m| m.0.to_string()).collect();
    let d: Vec<String> = leaves.iter().map(|m| m.1.to_string()).collect();
    format!("({}):({})", s.join(","), d.join(","))
}

/// The offset of flat index `i` (last leaf fastest) of the flat layout `leaves`.
fn offset(leaves: &[(i64, i64)], mut i: i64) -> i64 {
    let mut o = 0;
    for &(n, d) in leaves.iter().rev() {
        o += (i % n) * d;
        i /= n;
    }
    o
}

/// A dense bijection with leaves `sizes`: the leaf at `order[0]` has stride 1, the next the
/// product of those before it.
fn bijection(sizes: &[i64], order: &[usize]) -> Vec<(i64, i64)> {
    let mut leaves: Vec<(i64, i64)> = sizes.iter().map(|&n| (n, 0)).collect();
    let mut stride = 1;
    for &k in order {
        leaves[k].1 = stride;
        stride *= sizes[k];
    }
    leaves
}

fn map(leaves: &[(i64, i64)], domain: Space, codomain: Space) -> Map {
    Annotated::new(text(leaves).parse().expect("valid"), domain, codomain)
        .expect("annotated")
        .into()
}

/// An alias-free layout with leaves `sizes`: as [`bijection`], each stride past the first
/// padded by `pads[k]`.
fn padded(sizes: &[i64], order: &[usize], pads: &[i64]) -> Vec<(i64, i64)> {
    let mut leaves: Vec<(i64, i64)> = sizes.iter().map(|&n| (n, 0)).collect();
    let mut stride = 1;
    for &k in order {
        leaves[k].1 = stride;
        stride = stride * sizes[k] + pads[k];
    }
    leaves
}

/// Sizes, the right operand's order, the left operand's order and paddings, a second order.
type Drawn = (Vec<i64>, Vec<usize>, (Vec<usize>, Vec<i64>), Vec<usize>);

/// Sizes (1 to 4 each, 1 to 5 leaves), a permutation of them, an order and paddings for the
/// left operand, and a second permutation for a right operand of the right operand.
fn arb() -> impl Strategy<Value = Drawn> {
    prop::collection::vec(1i64..=4, 1..=5).prop_flat_map(|sizes| {
        let k = sizes.len();
        let order: Vec<usize> = (0..k).collect();
        (
            Just(sizes),
            Just(order.clone()).prop_shuffle(),
            (
                Just(order.clone()).prop_shuffle(),
                prop::collection::vec(0i64..=3, k),
            ),
            Just(order).prop_shuffle(),
        )
    })
}

fn shares_operands(m: &Map) -> bool {
    let copy = m.clone();
    match (m, &copy) {
        (Map::Composite(a), Map::Composite(b)) => a.shares_operands(b) && copy == *m,
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `left ∘ right`, `(left ∘ right) ∘ inner` and `left ∘ (right ∘ inner)`: every value is the
    /// enumerated one; the operands are the ones given; a clone shares the node.
    #[test]
    fn composites_evaluate_to_the_enumeration((sizes, order, (order1, pads), order2) in arb()) {
        let left_leaves = padded(&sizes, &order1, &pads);
        let right_leaves = bijection(&sizes, &order);
        let inner_leaves = bijection(&sizes, &order2);
        let total: i64 = sizes.iter().product();
        let left = map(&left_leaves, Space::Logical, Space::Physical);
        let right = map(&right_leaves, Space::ThreadValue, Space::Logical);
        let middle = map(&right_leaves, Space::Logical, Space::Logical);
        let inner = map(&inner_leaves, Space::ThreadValue, Space::Logical);

        let c = compose(&left, &right).expect("composable");
        let Map::Composite(node) = &c else { panic!("not a composite") };
        prop_assert_eq!(&*node.left(), &left);
        prop_assert_eq!(&*node.right(), &right);
        prop_assert!(shares_operands(&c));
        prop_assert_eq!((c.domain(), c.codomain(), c.size()), (Space::ThreadValue, Space::Physical, total));
        for i in 0..total {
            let want = offset(&left_leaves, offset(&right_leaves, i));
            prop_assert_eq!(c.eval_index(i).expect("in range"), want);
        }

        let outer = compose(&left, &middle).expect("composable");
        let nested_left = compose(&outer, &inner).expect("composable");
        let nested_right = compose(&left, &compose(&middle, &inner).expect("composable")).expect("composable");
        for m in [&nested_left, &nested_right] {
            prop_assert!(shares_operands(m));
            prop_assert_eq!(m.size(), total);
            for i in 0..total {
                let want = offset(&left_leaves, offset(&right_leaves, offset(&inner_leaves, i)));
                prop_assert_eq!(m.eval_index(i).expect("in range"), want);
            }
        }

        // Fix the first entry of the composite's domain at each of its values.
        for v in 0..sizes[0] {
            let r = c.restrict(&[(0, v)]).expect("restrictable");
            let rest: i64 = sizes[1..].iter().product();
            prop_assert_eq!(r.size(), rest);
            for i in 0..rest {
                let want = offset(&left_leaves, offset(&right_leaves, v * rest + i));
                prop_assert_eq!(r.eval_index(i).expect("in range"), want);
            }
        }
    }
}

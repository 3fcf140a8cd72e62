//! `compose` of two annotated layouts, its common case, agrees with a model written in the
//! test: the documented checks in their order (right codomain, left domain, sizes, tiles) with
//! the exact error values, and on success a composite whose spaces, size and tiles are the
//! operands' and whose value at every index is `left(right(i))`, enumerated from the operands'
//! leaves. The operands range over every annotation, sizes that agree and that do not, tiles
//! on either side that agree, differ in an extent or differ in rank, and strides of both signs.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{Annotated, Error, Map, Space, compose};
use proptest::prelude::*;

/// The annotations a layout can carry.
const PAIRS: [(Space, Space); 5] = [
    (Space::Logical, Space::Physical),
    (Space::Logical, Space::Logical),
    (Space::ThreadValue, Space::Logical),
    (Space::Logical, Space::ThreadValue),
    (Space::ThreadValue, Space::ThreadValue),
];

/// One operand as the model sees it: flat leaves, spaces and tiles.
#[derive(Clone, Debug)]
struct Operand {
    leaves: Vec<(i64, i64)>,
    domain: Space,
    codomain: Space,
    domain_tile: Option<Vec<i64>>,
    codomain_tile: Option<Vec<i64>>,
}

/// Flat leaves of sizes `sizes`, the strides the row-major weights of the modes rotated by
/// `rot` (a dense bijection), times `scale`.
fn leaves(sizes: &[i64], rot: usize, scale: i64) -> Vec<(i64, i64)> {
    let n = sizes.len();
    let mut out: Vec<(i64, i64)> = sizes.iter().map(|&s| (s, 0)).collect();
    let mut w = 1;
    for k in (0..n).rev() {
        let i = (k + rot) % n;
        out[i].1 = w * scale;
        w *= sizes[i];
    }
    out
}

/// The tile picked by `pick` for a side of `space` over modes `sizes`: none, the mode sizes,
/// the whole size, or the mode sizes reversed.
fn tile(sizes: &[i64], space: Space, pick: usize) -> Option<Vec<i64>> {
    if space != Space::Logical {
        return None;
    }
    match pick {
        1 => Some(sizes.to_vec()),
        2 => Some(vec![sizes.iter().product()]),
        3 => Some(sizes.iter().rev().copied().collect()),
        _ => None,
    }
}

fn operand(sizes: Vec<i64>, rot: usize, scale: i64, pair: usize, tiles: (usize, usize)) -> Operand {
    let (domain, codomain) = PAIRS[pair];
    // Only a map into physical may stride apart or backwards.
    let scale = if codomain == Space::Physical {
        scale
    } else {
        1
    };
    Operand {
        leaves: leaves(&sizes, rot, scale),
        domain,
        codomain,
        domain_tile: tile(&sizes, domain, tiles.0),
        codomain_tile: tile(&sizes, codomain, tiles.1),
    }
}

fn operand_strategy() -> impl Strategy<Value = Operand> {
    (
        prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, 6]), 1..4),
        0usize..3,
        prop::sample::select(vec![1i64, 2, -1]),
        0usize..PAIRS.len(),
        (0usize..4, 0usize..4),
    )
        .prop_map(|(s, r, k, p, t)| operand(s, r, k, p, t))
}

fn map(o: &Operand) -> Map {
    let s: Vec<String> = o.leaves.iter().map(|m| m.0.to_string()).collect();
    let d: Vec<String> = o.leaves.iter().map(|m| m.1.to_string()).collect();
    let layout = format!("({}):({})", s.join(","), d.join(","))
        .parse()
        .expect("layout");
    Annotated::new(layout, o.domain, o.codomain)
        .and_then(|a| a.with_tiles(o.domain_tile.clone(), o.codomain_tile.clone()))
        .expect("annotated")
        .into()
}

fn size(o: &Operand) -> i64 {
    o.leaves.iter().map(|m| m.0).product()
}

/// The offset of flat index `i` (last leaf fastest).
fn offset(leaves: &[(i64, i64)], mut i: i64) -> i64 {
    let mut v = 0;
    for &(n, d) in leaves.iter().rev() {
        v += (i % n) * d;
        i /= n;
    }
    v
}

/// What `compose(left, right)` must return, by the documented rule.
fn expected_error(left: &Operand, right: &Operand) -> Option<Error> {
    if right.codomain != Space::Logical {
        return Some(Error::RightNotLogical {
            codomain: right.codomain,
        });
    }
    if left.domain != Space::Logical {
        return Some(Error::LeftDomainNotLogical {
            domain: left.domain,
        });
    }
    if size(left) != size(right) {
        return Some(Error::SizeMismatch {
            left: size(left),
            right: size(right),
        });
    }
    if let (Some(l), Some(r)) = (&left.domain_tile, &right.codomain_tile)
        && l != r
    {
        let mut position = 0;
        while position < l.len() && position < r.len() && l[position] == r[position] {
            position += 1;
        }
        return Some(Error::TileMismatch {
            left_rank: l.len(),
            right_rank: r.len(),
            position,
            left: l.get(position).copied().unwrap_or(0),
            right: r.get(position).copied().unwrap_or(0),
        });
    }
    None
}

fn agrees(left: &Operand, right: &Operand) {
    let got = compose(&map(left), &map(right));
    match (expected_error(left, right), got) {
        (Some(e), got) => assert_eq!(got, Err(e), "{left:?} ∘ {right:?}"),
        (None, Err(e)) => panic!("{left:?} ∘ {right:?}: {e:?}"),
        (None, Ok(m)) => {
            assert!(matches!(m, Map::Composite(_)), "{m:?}");
            assert_eq!((m.domain(), m.codomain()), (right.domain, left.codomain));
            assert_eq!(m.size(), size(right));
            assert_eq!(m.domain_tile(), right.domain_tile.as_deref());
            assert_eq!(m.codomain_tile(), left.codomain_tile.as_deref());
            assert!(!m.is_swizzled() && !m.is_restricted());
            for i in 0..size(right) {
                let want = offset(&left.leaves, offset(&right.leaves, i));
                assert_eq!(m.eval_index(i), Ok(want), "{left:?} ∘ {right:?} at {i}");
            }
        }
    }
}

/// The benchmark's operands, CuTe's documented composition, and each check failing alone.
#[test]
fn examples() {
    let a = operand(vec![2, 6], 0, 1, 0, (0, 0));
    let a = Operand {
        leaves: vec![(2, 2), (6, 8)],
        ..a
    };
    let b = Operand {
        leaves: vec![(3, 1), (4, 3)],
        ..operand(vec![3, 4], 0, 1, 2, (0, 0))
    };
    agrees(&a, &b);
    let m = compose(&map(&a), &map(&b)).expect("composable");
    let values: Vec<i64> = (0..12)
        .map(|i| m.eval_index(i).expect("in range"))
        .collect();
    assert_eq!(values, [0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42]);
    // Right into physical, left from thread-value, sizes, tiles.
    let phys = operand(vec![3, 4], 0, 1, 0, (0, 0));
    agrees(&a, &phys);
    let tv_left = operand(vec![2, 6], 0, 1, 4, (0, 0));
    agrees(&tv_left, &b);
    agrees(&operand(vec![2, 3], 0, 1, 0, (0, 0)), &b);
    let left_tiled = operand(vec![3, 4], 0, 1, 0, (1, 0));
    let right_tiled = operand(vec![4, 3], 1, 1, 2, (0, 1));
    assert!(expected_error(&left_tiled, &right_tiled).is_some());
    agrees(&left_tiled, &right_tiled);
    agrees(&left_tiled, &operand(vec![3, 4], 1, 1, 2, (0, 1)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn compose_of_two_layouts(left in operand_strategy(), right in operand_strategy()) {
        agrees(&left, &right);
    }

    /// Operands of equal size, so that the later checks (sizes, tiles) and success are reached
    /// often.
    #[test]
    fn compose_of_two_layouts_of_one_size(
        sizes in prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, 6]), 1..4),
        rots in (0usize..3, 0usize..3),
        scale in prop::sample::select(vec![1i64, 2, -1]),
        pairs in (0usize..PAIRS.len(), 0usize..PAIRS.len()),
        tiles in ((0usize..4, 0usize..4), (0usize..4, 0usize..4)),
        reversed in any::<bool>(),
    ) {
        let left = operand(sizes.clone(), rots.0, scale, pairs.0, tiles.0);
        let mut right_sizes = sizes;
        if reversed {
            right_sizes.reverse();
        }
        let right = operand(right_sizes, rots.1, scale, pairs.1, tiles.1);
        agrees(&left, &right);
    }
}

//! A layout stores its leaves as sizes and strides only and computes their paths from its
//! nesting when asked for. Here every path that `modes()` and the errors report is compared
//! with the path found by walking the shape and stride trees in the test, for parsed layouts
//! (nested, named, below and above the inline capacity) and for what `divide`,
//! `divide_modes`, `inverse`, `reversed` and `with_names` build.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{
    Error, Layout, ModePath, Stride, Tree, check_dense_bijection, divide, divide_modes, inverse,
};
use proptest::prelude::*;

/// Every leaf of the trees in preorder: its path (indices, outermost first), size and stride.
fn walk(shape: &Tree<i64>, stride: &Tree<Stride>) -> Vec<(Vec<u8>, i64, Stride)> {
    fn go(
        at: &mut Vec<u8>,
        s: &Tree<i64>,
        d: &Tree<Stride>,
        out: &mut Vec<(Vec<u8>, i64, Stride)>,
    ) {
        match (s, d) {
            (Tree::Leaf(n), Tree::Leaf(x)) => out.push((at.clone(), *n, *x)),
            (Tree::Tuple(a), Tree::Tuple(b)) => {
                for (i, (s, d)) in a.iter().zip(b).enumerate() {
                    at.push(i as u8);
                    go(at, s, d, out);
                    at.pop();
                }
            }
            _ => panic!("profiles differ"),
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), shape, stride, &mut out);
    out
}

/// The modes of `l` are the leaves of its trees, with the paths found by walking them.
fn paths_are_the_walked_ones(l: &Layout) {
    let got: Vec<(Vec<u8>, i64, Stride)> = l
        .modes()
        .iter()
        .map(|m| (m.path.indices().to_vec(), m.size, m.stride))
        .collect();
    assert_eq!(got, walk(l.shape(), l.stride()), "{l}");
}

/// A layout in seed text: leaves `(size, stride)` (stride 0 at size > 1 written `_`) in
/// top-level modes of `widths` leaves, each mode of three or more leaves nested once more when
/// `deep`, modes named where `named`.
fn text(leaves: &[(i64, i64)], widths: &[usize], deep: bool, named: &[bool]) -> String {
    let stride = |n: i64, d: i64| {
        if d == 0 && n > 1 {
            "_".to_string()
        } else {
            d.to_string()
        }
    };
    let (mut shape, mut strides, mut at) = (Vec::new(), Vec::new(), 0);
    for (i, &w) in widths.iter().enumerate() {
        let mode = &leaves[at..at + w];
        at += w;
        let s: Vec<String> = mode.iter().map(|m| m.0.to_string()).collect();
        let d: Vec<String> = mode.iter().map(|m| stride(m.0, m.1)).collect();
        let join = |v: &[String]| {
            if v.len() == 1 {
                v[0].clone()
            } else if deep && v.len() >= 3 {
                format!("(({},{}),{})", v[0], v[1], v[2..].join(","))
            } else {
                format!("({})", v.join(","))
            }
        };
        let name = if named[i] {
            format!("m{i}: ")
        } else {
            String::new()
        };
        shape.push(format!("{name}{}", join(&s)));
        strides.push(join(&d));
    }
    format!("({}):({})", shape.join(","), strides.join(","))
}

type Drawn = (Vec<(i64, i64)>, Vec<usize>, bool, Vec<bool>);

fn arb_layout() -> impl Strategy<Value = Drawn> {
    (1usize..=12).prop_flat_map(|k| {
        (
            prop::collection::vec((1i64..=4, -5i64..=5), k),
            prop::collection::vec(1usize..=4, k),
            any::<bool>(),
            prop::collection::vec(any::<bool>(), k),
        )
            .prop_map(|(leaves, cuts, deep, named)| {
                let mut widths = Vec::new();
                let mut left = leaves.len();
                for c in cuts {
                    if left == 0 {
                        break;
                    }
                    let w = c.min(left);
                    widths.push(w);
                    left -= w;
                }
                let named = named[..widths.len()].to_vec();
                (leaves, widths, deep, named)
            })
    })
}

/// The path, in the trees, of the mode that [`check_dense_bijection`] must name, found by
/// sorting the walked leaves of size > 1 (a broadcast first, else the first stride that breaks
/// the running product).
fn expected_dense_error(l: &Layout) -> Option<Error> {
    let mut leaves: Vec<(Vec<u8>, i64, Stride)> = walk(l.shape(), l.stride())
        .into_iter()
        .filter(|m| m.1 > 1)
        .collect();
    let path = |p: &[u8]| {
        ModePath::from_indices(&p.iter().map(|&i| usize::from(i)).collect::<Vec<_>>())
            .expect("path")
    };
    if let Some(m) = leaves.iter().find(|m| m.2 == Stride::Broadcast) {
        return Some(Error::BroadcastNotDense {
            mode: path(&m.0),
            size: m.1,
        });
    }
    leaves.sort_by_key(|m| m.2.value());
    let mut expected = 1;
    for m in &leaves {
        if m.2.value() != expected {
            return Some(Error::NotDense {
                mode: path(&m.0),
                expected,
                found: m.2.value(),
            });
        }
        expected *= m.1;
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Parsed, reversed and renamed layouts, and every division by tiles cutting each mode at
    /// a divisor of its size: the paths are the walked ones.
    #[test]
    fn paths_of_built_layouts((leaves, widths, deep, named) in arb_layout(),
                              picks in prop::collection::vec(any::<usize>(), 12)) {
        let l: Layout = text(&leaves, &widths, deep, &named).parse().expect("valid");
        paths_are_the_walked_ones(&l);
        paths_are_the_walked_ones(&l.reversed());
        let unnamed = l.clone().with_names(vec![None; l.rank()]).expect("names");
        paths_are_the_walked_ones(&unnamed);
        let names = (0..l.rank()).map(|i| Some(format!("n{i}"))).collect();
        paths_are_the_walked_ones(&l.clone().with_names(names).expect("names"));
        let sizes: Vec<i64> = match l.shape() {
            Tree::Tuple(v) => v.iter().map(|t| t.leaves().into_iter().product()).collect(),
            t => vec![t.leaves().into_iter().product()],
        };
        let tile: Vec<i64> = sizes
            .iter()
            .zip(&picks)
            .map(|(&n, &p)| {
                let divisors: Vec<i64> = (1..=n).filter(|k| n % k == 0).collect();
                divisors[p % divisors.len()]
            })
            .collect();
        // A tile that splits a leaf is an error naming it; either way the paths are checked.
        if let Ok(d) = divide(&l, &tile) {
            paths_are_the_walked_ones(&d);
        }
        if let Ok(d) = divide_modes(&l, &tile) {
            paths_are_the_walked_ones(&d);
        }
        prop_assert_eq!(check_dense_bijection(&l).err(), expected_dense_error(&l));
    }

    /// Dense bijections (each leaf's stride the product of the sizes before it in a random
    /// order), nested and named: `inverse` builds a layout whose paths are the walked ones, and
    /// the inverse of the inverse is the function again.
    #[test]
    fn paths_of_inverses(sizes in prop::collection::vec(1i64..=4, 1..=10),
                         order_seed in any::<u64>(),
                         widths_seed in any::<u64>(), deep in any::<bool>(),
                         named in prop::collection::vec(any::<bool>(), 10)) {
        let k = sizes.len();
        let mut order: Vec<usize> = (0..k).collect();
        let mut s = order_seed;
        for i in (1..k).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            order.swap(i, (s >> 33) as usize % (i + 1));
        }
        let mut leaves: Vec<(i64, i64)> = sizes.iter().map(|&n| (n, 0)).collect();
        let mut stride = 1;
        for &i in &order {
            leaves[i].1 = if sizes[i] == 1 { 1 } else { stride };
            stride *= sizes[i];
        }
        let (mut widths, mut left, mut w) = (Vec::new(), k, widths_seed);
        while left > 0 {
            let take = ((w % 4) as usize + 1).min(left);
            w /= 4;
            widths.push(take);
            left -= take;
        }
        let l: Layout = text(&leaves, &widths, deep, &named[..widths.len()]).parse().expect("valid");
        prop_assert_eq!(check_dense_bijection(&l), Ok(()));
        let inv = inverse(&l).expect("a bijection");
        paths_are_the_walked_ones(&inv);
        for i in 0..l.size() {
            prop_assert_eq!(inv.eval_index(l.eval_index(i).expect("in range")).expect("in range"), i);
        }
    }
}

/// A leaf that a tile would split is named by its path in the trees, at every nesting.
#[test]
fn tile_split_names_the_leaf() {
    for (text, tile, path) in [
        ("(4,(2,3)):(6,(3,1))", vec![1, 2], vec![1, 1]),
        ("((2,3),4):((12,4),1)", vec![2, 1], vec![0, 1]),
        ("(4,((2,3),5)):(30,((15,5),1))", vec![1, 2], vec![1, 1]),
        ("(4,((2,3),5)):(30,((15,5),1))", vec![1, 10], vec![1, 0, 1]),
    ] {
        let l: Layout = text.parse().expect("valid");
        let want = ModePath::from_indices(&path).expect("path");
        for got in [divide(&l, &tile), divide_modes(&l, &tile)] {
            match got {
                Err(Error::TileSplit { mode, .. }) => assert_eq!(mode, want, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}

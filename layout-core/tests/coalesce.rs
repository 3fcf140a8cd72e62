//! `coalesce` keeps the function on every flat index and leaves no leaf to merge: checked
//! against enumeration written here (the flat index read over the leaves, last fastest) for
//! layouts of every nesting, named, with broadcasts, negative strides and size-1 leaves, past
//! the inline leaf capacity, and near `i64::MAX`; with CuTe's own example, and equal to CuTe's
//! `coalesce` (`layout_core::cute`, itself checked against pycute) up to mode order.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::cute::CuteLayout;
use layout_core::{Layout, Stride, Tree, coalesce};
use proptest::prelude::*;

/// The value at flat index `i` of the leaves `(size, stride)` (`None`: a broadcast), last leaf
/// fastest.
fn at(leaves: &[(i64, Option<i64>)], mut i: i64) -> i64 {
    let mut v = 0;
    for &(n, d) in leaves.iter().rev() {
        v += (i % n) * d.unwrap_or(0);
        i /= n;
    }
    v
}

/// The leaves of a layout as `(size, stride)`.
fn leaves_of(l: &Layout) -> Vec<(i64, Option<i64>)> {
    fn walk(s: &Tree<i64>, d: &Tree<Stride>, out: &mut Vec<(i64, Option<i64>)>) {
        match (s, d) {
            (Tree::Leaf(n), Tree::Leaf(Stride::Int(x))) => out.push((*n, Some(*x))),
            (Tree::Leaf(n), Tree::Leaf(Stride::Broadcast)) => out.push((*n, None)),
            (Tree::Tuple(a), Tree::Tuple(b)) => a.iter().zip(b).for_each(|(s, d)| walk(s, d, out)),
            _ => panic!("profiles differ"),
        }
    }
    let mut out = Vec::new();
    walk(l.shape(), l.stride(), &mut out);
    out
}

/// Whether the result is flat: its shape a leaf or a tuple of leaves.
fn is_flat(l: &Layout) -> bool {
    match l.shape() {
        Tree::Leaf(_) => true,
        Tree::Tuple(v) => v.iter().all(|m| matches!(m, Tree::Leaf(_))),
    }
}

/// A layout in seed text: `leaves` split into top-level modes of `widths` leaves (a mode of
/// three or more leaves nests its first two once more), modes named where `named` says.
fn text(leaves: &[(i64, Option<i64>)], widths: &[usize], named: &[bool]) -> String {
    let stride = |d: Option<i64>| d.map_or("_".to_string(), |d| d.to_string());
    let join = |v: Vec<String>| {
        if v.len() == 1 {
            v[0].clone()
        } else {
            format!("({})", v.join(","))
        }
    };
    let (mut shape, mut strides, mut at) = (Vec::new(), Vec::new(), 0);
    for (i, &w) in widths.iter().enumerate() {
        let mode = &leaves[at..at + w];
        at += w;
        let (s, d): (Vec<String>, Vec<String>) = if w >= 3 {
            let first = (
                format!("({},{})", mode[0].0, mode[1].0),
                format!("({},{})", stride(mode[0].1), stride(mode[1].1)),
            );
            let rest = mode[2..].iter().map(|m| (m.0.to_string(), stride(m.1)));
            std::iter::once(first).chain(rest).unzip()
        } else {
            mode.iter().map(|m| (m.0.to_string(), stride(m.1))).unzip()
        };
        let name = if named.get(i) == Some(&true) {
            format!("m{i}: ")
        } else {
            String::new()
        };
        shape.push(format!("{name}{}", join(s)));
        strides.push(join(d));
    }
    format!("({}):({})", shape.join(","), strides.join(","))
}

/// Checks `coalesce(l)` against `l` by enumeration, and that it is flat and minimal: no size-1
/// leaf (unless the size is 1) and no adjacent pair where the slower continues the faster.
fn check(l: &Layout) -> Layout {
    let c = coalesce(l).unwrap_or_else(|e| panic!("{l}: {e}"));
    let (mine, theirs) = (leaves_of(l), leaves_of(&c));
    let size: i64 = mine.iter().map(|m| m.0).product();
    assert_eq!(
        theirs.iter().map(|m| m.0).product::<i64>(),
        size,
        "{l} -> {c}"
    );
    if size <= 1 << 14 {
        for i in 0..size {
            assert_eq!(at(&theirs, i), at(&mine, i), "{l} -> {c} at {i}");
        }
    }
    assert!(is_flat(&c), "{l} -> {c}");
    if size > 1 {
        assert!(theirs.iter().all(|m| m.0 > 1), "{l} -> {c}");
    } else {
        assert_eq!(theirs.len(), 1, "{l} -> {c}");
    }
    for w in theirs.windows(2) {
        let ((_, a), (nb, b)) = (w[0], w[1]);
        let mergeable = match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => a == nb * b,
            _ => false,
        };
        assert!(!mergeable, "{l} -> {c}: {w:?} merge");
    }
    c
}

#[test]
fn cutes_example_and_the_edges() {
    // CuTe's `coalesce((2,(1,6)):(1,(6,2)))` is `12:1`; in seed order the layout is
    // `((6,1),2):((2,6),1)`.
    let l: Layout = "((6,1),2):((2,6),1)".parse().unwrap();
    assert_eq!(check(&l).to_string(), "12:1");
    for (from, to) in [
        ("(1,1):(3,5)", "1:5"),
        ("1:7", "1:7"),
        ("(2,3):(_,_)", "6:_"),
        ("(2,(3,4)):(_,(_,1))", "(6,4):(_,1)"),
        ("(2,3,4):(-12,-4,-1)", "24:-1"),
        ("(4,2):(1,4)", "(4,2):(1,4)"),
        ("(x: 2, y: 3):(3, 1)", "6:1"),
        ("(x: 2, y: (3, 1)):(5, (1, 9))", "(x:2,y:3):(5,1)"),
        ("(x: (2, 4), y: 3):((4, 1), 8)", "(x:8,y:3):(1,8)"),
        ("(x: 1, y: 8):(3, 1)", "(y:8):(1)"),
        ("(4,(2,4)):(8,(4,1))", "32:1"),
        ("(1,(2,1,4),8):(7,(32,5,8),1)", "64:1"),
        // Near `i64::MAX`: the merged size is 2^62.
        (
            "(2147483648,2147483648):(2147483648,1)",
            "4611686018427387904:1",
        ),
    ] {
        let l: Layout = from.parse().unwrap();
        assert_eq!(check(&l).to_string(), to, "{from}");
    }
    // Past the inline leaf capacity: 40 leaves of size 2, one leaf of 2^40.
    let shape = vec!["2"; 40].join(",");
    let strides: Vec<String> = (0..40).rev().map(|k| (1i64 << k).to_string()).collect();
    let l: Layout = format!("({shape}):({})", strides.join(","))
        .parse()
        .unwrap();
    assert_eq!(check(&l).to_string(), "1099511627776:1");
}

/// Leaves `(size, stride)`, the leaf count of each top-level mode, which modes are named.
type Drawn = (Vec<(i64, Option<i64>)>, Vec<usize>, Vec<bool>);

fn leaves_strategy() -> impl Strategy<Value = Drawn> {
    // Each leaf: its size and how its stride is chosen (0: continue the next faster leaf, 1: a
    // broadcast, 2: a small stride, possibly negative).
    let leaf = (1i64..5, 0u8..3, -4i64..9);
    prop::collection::vec(leaf, 1..10).prop_flat_map(|raw| {
        let n = raw.len();
        (
            Just(raw),
            prop::collection::vec(1usize..4, n),
            prop::collection::vec(any::<bool>(), n),
        )
            .prop_map(|(raw, widths, named)| {
                let mut leaves = vec![(1i64, None); raw.len()];
                let mut next: Option<(i64, Option<i64>)> = None;
                for (k, &(size, how, small)) in raw.iter().enumerate().rev() {
                    let stride = match (how, next) {
                        (0, Some((n, Some(d)))) => Some(n * d),
                        (0, None) => Some(1),
                        (1, _) => None,
                        _ => Some(if small == 0 { 1 } else { small }),
                    };
                    leaves[k] = (size, stride);
                    next = Some((size, stride));
                }
                // Split into modes of the widths (the last takes what is left).
                let mut w = Vec::new();
                let mut left = leaves.len();
                for x in widths {
                    if left == 0 {
                        break;
                    }
                    let x = x.min(left);
                    w.push(x);
                    left -= x;
                }
                (leaves, w, named)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn coalesce_keeps_the_function_and_merges_every_pair((leaves, widths, named) in leaves_strategy()) {
        let t = text(&leaves, &widths, &named);
        let l: Layout = t.parse().unwrap_or_else(|e| panic!("{t}: {e}"));
        let c = check(&l);
        // CuTe's coalesce of the same layout in CuTe order: the same leaves, fastest first (a
        // layout of size 1 aside, which CuTe makes `1:0`).
        if l.size() > 1 {
            let unnamed: Layout = text(&leaves, &widths, &[]).parse().unwrap();
            let theirs = unnamed.to_cute().to_string().parse::<CuteLayout>().unwrap();
            let theirs = layout_core::cute::coalesce(&theirs).unwrap_or_else(|e| panic!("{t}: {e}"));
            let merged = leaves_of(&c);
            let ours: Layout = text(&merged, &vec![1; merged.len()], &[]).parse().unwrap();
            prop_assert_eq!(ours.to_cute().to_string(), theirs.to_string(), "{}", t);
        }
        // A name survives only on a leaf that is exactly its mode's leaves of size > 1.
        let names = c.names();
        for (j, name) in names.iter().enumerate() {
            if let Some(name) = name {
                let i: usize = name[1..].parse().unwrap();
                let start: usize = widths[..i].iter().sum();
                let mode = &leaves[start..start + widths[i]];
                let size: i64 = mode.iter().map(|m| m.0).product();
                let leaf = leaves_of(&c)[j];
                prop_assert_eq!(leaf.0, size, "{} -> {}", t, c);
            }
        }
    }
}

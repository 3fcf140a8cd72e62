//! Evaluation at natural and coarser coordinates equals evaluation at the flat index, on every
//! corpus layout: the natural coordinate is built here by unflattening over the shape tree
//! (last leaf fastest), the coarse one by giving each top-level mode a single integer.

use layout_core::{Error, Layout, Tree};
use layout_tests::{CuteText, corpus, looks_like_layout, sample_indices};

fn tree_size(t: &Tree<i64>) -> i64 {
    t.leaves().into_iter().product()
}

/// Unflattens `i` over `shape`, last entry fastest, down to the leaves.
fn natural(shape: &Tree<i64>, i: i64) -> Tree<i64> {
    match shape {
        Tree::Leaf(_) => Tree::Leaf(i),
        Tree::Tuple(v) => {
            let mut rest = i;
            let mut out: Vec<Tree<i64>> = Vec::new();
            for s in v.iter().rev() {
                let n = tree_size(s);
                out.push(natural(s, rest % n));
                rest /= n;
            }
            out.reverse();
            Tree::Tuple(out)
        }
    }
}

/// One integer per top-level mode.
fn coarse(shape: &Tree<i64>, i: i64) -> Tree<i64> {
    match shape {
        Tree::Leaf(_) => Tree::Leaf(i),
        Tree::Tuple(v) => {
            let mut rest = i;
            let mut out = Vec::new();
            for s in v.iter().rev() {
                let n = tree_size(s);
                out.push(Tree::Leaf(rest % n));
                rest /= n;
            }
            out.reverse();
            Tree::Tuple(out)
        }
    }
}

#[test]
fn natural_and_coarse_coordinates_agree_with_the_flat_index() {
    let mut layouts = 0;
    let mut points = 0;
    for case in corpus("layout_eval").iter().chain(&corpus("mma_atom")) {
        for v in case["inputs"].as_object().expect("inputs").values() {
            let Some(text) = v.as_str().filter(|s| looks_like_layout(s)) else {
                continue;
            };
            let Ok(l) = Layout::from_cute(text) else {
                continue;
            };
            let oracle = CuteText::parse(text).expect("CuTe text");
            layouts += 1;
            for i in sample_indices(l.size(), 4096) {
                let expected = oracle.eval(i);
                assert_eq!(l.eval_index(i), Ok(expected), "{text} at {i}");
                assert_eq!(
                    l.eval(&natural(l.shape(), i)),
                    Ok(expected),
                    "{text} natural at {i}"
                );
                assert_eq!(
                    l.eval(&coarse(l.shape(), i)),
                    Ok(expected),
                    "{text} coarse at {i}"
                );
                assert_eq!(
                    l.eval(&Tree::Leaf(i)),
                    Ok(expected),
                    "{text} integer at {i}"
                );
                points += 1;
            }
        }
    }
    println!("{layouts} layouts, {points} points");
    assert!(layouts > 80 && points > 10_000);
}

#[test]
fn out_of_range_and_misshapen_coordinates_are_errors() {
    let l: Layout = "((2,2),(8,4)):((8,16),(1,32))".parse().expect("layout");
    assert_eq!(
        l.eval_index(128),
        Err(Error::IndexOutOfRange {
            index: 128,
            size: 128
        })
    );
    let bad = Tree::Tuple(vec![Tree::Leaf(4), Tree::Leaf(0)]);
    assert!(matches!(
        l.eval(&bad),
        Err(Error::CoordOutOfRange {
            value: 4,
            size: 4,
            ..
        })
    ));
    let wrong_rank = Tree::Tuple(vec![Tree::Leaf(0), Tree::Leaf(0), Tree::Leaf(0)]);
    assert!(matches!(
        l.eval(&wrong_rank),
        Err(Error::CoordProfile {
            shape_rank: 2,
            coord_rank: 3,
            ..
        })
    ));
}

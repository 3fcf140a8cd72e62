//! Dropping and cloning layouts on both sides of `Layout`'s drop: layouts that own no heap
//! memory (inline leaves and profile, no names or borrowed ones, no trees built) and layouts
//! that own some, one kind at a time and all together (more than eight leaves, more than
//! sixteen profile tokens, allocated names, built trees), moved out of results, cloned,
//! replaced and dropped in loops, their trees built from several threads at once. Every value
//! read back is checked against the text it was parsed from; the process's allocator (and a
//! leak or double free checker, where one runs the tests) sees every path.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{Layout, Tree, divide};

/// Layouts of each kind, with the text each prints as.
fn kinds() -> Vec<(&'static str, String)> {
    let wide = (0..12)
        .map(|i| format!("{}", i % 3 + 1))
        .collect::<Vec<_>>();
    let strides = (0..12).map(|i| format!("{}", 1 << i)).collect::<Vec<_>>();
    // Nine nested pairs: 28 profile tokens, 18 leaves.
    let deep_s = ["(2,1)"; 9].join(",");
    let deep_d = ["(1,_)"; 9].join(",");
    vec![
        ("inline", "(4,8):(8,1)".to_string()),
        ("bare leaf", "7:-3".to_string()),
        ("broadcast", "(4,(2,3)):(_,(3,1))".to_string()),
        ("named", "(a:4,b:8):(8,1)".to_string()),
        (
            "spilled leaves",
            format!("({}):({})", wide.join(","), strides.join(",")),
        ),
        ("spilled profile", format!("({deep_s}):({deep_d})")),
        (
            "all of it",
            format!(
                "(x:({}),y:({deep_s})):(({}),({deep_d}))",
                wide.join(","),
                strides.join(",")
            ),
        ),
    ]
}

/// The offsets of a layout by its shape and stride trees, last leaf fastest (independent of
/// `eval_index`, which the comparison checks).
fn offsets(l: &Layout) -> Vec<i64> {
    fn leaves<T: Clone>(t: &Tree<T>, out: &mut Vec<T>) {
        match t {
            Tree::Leaf(x) => out.push(x.clone()),
            Tree::Tuple(v) => v.iter().for_each(|c| leaves(c, out)),
        }
    }
    let (mut s, mut d) = (Vec::new(), Vec::new());
    leaves(l.shape(), &mut s);
    leaves(l.stride(), &mut d);
    let mut out = vec![0i64];
    for (n, d) in s.iter().zip(&d) {
        out = out
            .iter()
            .flat_map(|&o| (0..*n).map(move |c| o + c * d.value()))
            .collect();
    }
    out
}

#[test]
fn every_kind_reads_back_after_clones_moves_and_drops() {
    for (kind, text) in kinds() {
        let first: Layout = text.parse().unwrap_or_else(|e| panic!("{kind}: {e}"));
        let printed = first.to_string();
        let want = offsets(&first);
        assert_eq!(want.len() as i64, first.size(), "{kind}");
        for (i, &o) in want.iter().enumerate() {
            assert_eq!(first.eval_index(i as i64), Ok(o), "{kind} at {i}");
        }
        let mut kept = Vec::new();
        for round in 0..200 {
            // A fresh parse (trees built by validation), a clone (no trees), a clone whose
            // trees are built on demand, a move out of a `Result`, a replacement in place.
            let parsed: Result<Layout, _> = text.parse();
            let parsed = parsed.unwrap_or_else(|e| panic!("{kind}: {e}"));
            let clone = first.clone();
            let built = first.clone();
            assert_eq!(built.shape(), first.shape(), "{kind}");
            let moved = Ok::<Layout, ()>(clone.clone()).map_or(0, |l| l.rank());
            assert_eq!(moved, first.rank(), "{kind}");
            let mut slot = parsed.clone();
            slot = if round % 2 == 0 { built.clone() } else { slot };
            for l in [&parsed, &clone, &built, &slot] {
                assert_eq!(l, &first, "{kind}");
                assert_eq!(l.to_string(), printed, "{kind}");
            }
            if round % 7 == 0 {
                kept.push(parsed);
                kept.push(built);
            }
            if kept.len() > 8 {
                kept.drain(..4);
            }
        }
        assert!(kept.iter().all(|l| offsets(l) == want), "{kind}");
    }
}

/// Divide results (inline, borrowed names) and their reversals and renamings (owned names,
/// built trees) dropped in a loop; each result's offsets are the operand's, permuted.
#[test]
fn divide_results_drop_inline_and_owned() {
    let l: Layout = "(128,128):(128,1)".parse().expect("layout");
    let mut want = offsets(&l);
    want.sort_unstable();
    for round in 0..300 {
        let d = divide(&l, &[32, 64]).expect("divides");
        assert_eq!(
            d.to_string(),
            "(tile:(32,64),rest:(4,2)):((128,1),(4096,64))"
        );
        let r = d.reversed();
        let named = d
            .clone()
            .with_names(vec![Some(format!("t{round}")), None])
            .expect("names");
        for x in [&d, &r, &named] {
            let mut got = offsets(x);
            got.sort_unstable();
            assert_eq!(got, want);
        }
        let unnamed = named.with_names(vec![None, None]).expect("unnamed");
        assert_eq!(unnamed.names(), &[] as &[Option<String>]);
    }
}

/// The trees of one layout built by several threads at once: one value is kept, every thread
/// reads the same trees, and the layout drops once.
#[test]
fn trees_built_from_threads() {
    for (kind, text) in kinds() {
        for _ in 0..20 {
            let l: Layout = text.parse().expect("layout");
            let fresh = l.clone();
            let want = (l.shape().clone(), l.stride().clone());
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..4)
                    .map(|_| s.spawn(|| (fresh.shape().clone(), fresh.stride().clone())))
                    .collect();
                for h in handles {
                    assert_eq!(h.join().expect("thread"), want, "{kind}");
                }
            });
            assert!(core::ptr::eq(fresh.shape(), fresh.shape()), "{kind}");
        }
    }
}

//! The layouts that `divide`, `divide_modes` and `inverse` build without re-validation equal
//! the layouts that full validation builds from their printed text (same trees, leaf paths,
//! names, size and span), and obey their laws at every coordinate, for layouts below and above
//! the inline leaf capacity, nested, named, with broadcasts and near `i64::MAX`.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use layout_core::{Error, Layout, Quantity, Stride, Tree, divide, divide_modes, inverse};
use proptest::prelude::*;

/// A layout in seed text: `leaves` split into top-level modes of `widths` leaves (a mode of
/// several leaves is a tuple, its first two leaves nested once more when `deep`), names on the
/// modes picked by `named`.
fn text(leaves: &[(i64, Option<i64>)], widths: &[usize], deep: bool, named: &[bool]) -> String {
    let stride = |d: Option<i64>| d.map_or("_".to_string(), |d| d.to_string());
    let mut shape = Vec::new();
    let mut strides = Vec::new();
    let mut at = 0;
    for (i, &w) in widths.iter().enumerate() {
        let mode = &leaves[at..at + w];
        at += w;
        let (s, d): (Vec<String>, Vec<String>) = if w >= 3 && deep {
            let (s0, d0) = (
                format!("({},{})", mode[0].0, mode[1].0),
                format!("({},{})", stride(mode[0].1), stride(mode[1].1)),
            );
            let rest = mode[2..].iter().map(|m| (m.0.to_string(), stride(m.1)));
            std::iter::once((s0, d0)).chain(rest).unzip()
        } else {
            mode.iter().map(|m| (m.0.to_string(), stride(m.1))).unzip()
        };
        let join = |v: Vec<String>| {
            if v.len() == 1 {
                v[0].clone()
            } else {
                format!("({})", v.join(","))
            }
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

fn hash(l: &Layout) -> u64 {
    let mut h = DefaultHasher::new();
    l.hash(&mut h);
    h.finish()
}

/// `l` equals the layout that validation builds from its text, in every observable part.
fn same_as_validated(l: &Layout) {
    let v: Layout = l.to_string().parse().expect("prints valid text");
    assert_eq!(l, &v, "{l}");
    assert_eq!(hash(l), hash(&v), "{l}");
    assert_eq!(l.shape(), v.shape(), "{l}");
    assert_eq!(l.stride(), v.stride(), "{l}");
    assert_eq!(l.modes(), v.modes(), "{l}");
    assert_eq!(l.names(), v.names(), "{l}");
    assert_eq!(
        (l.rank(), l.size(), l.span()),
        (v.rank(), v.size(), v.span()),
        "{l}"
    );
    assert_eq!(l.clone(), v, "{l}");
}

/// Every offset, by enumeration over the leaves (last fastest), independent of `eval_index`.
fn offsets(leaves: &[(i64, Option<i64>)]) -> Vec<i64> {
    let mut out = vec![0i64];
    for &(n, d) in leaves {
        let d = d.unwrap_or(0);
        out = out
            .iter()
            .flat_map(|&o| (0..n).map(move |c| o + c * d))
            .collect();
    }
    // The first leaf is the slowest: the last one pushed must vary fastest.
    out
}

fn top_sizes(l: &Layout) -> Vec<i64> {
    match l.shape() {
        Tree::Tuple(v) => v.iter().map(|t| t.leaves().into_iter().product()).collect(),
        t @ Tree::Leaf(_) => vec![t.leaves().into_iter().product()],
    }
}

/// A layout as its leaves `(size, stride or None for _)`, mode widths, nesting and names.
type Drawn = (Vec<(i64, Option<i64>)>, Vec<usize>, bool, Vec<bool>);

fn arb_layout() -> impl Strategy<Value = Drawn> {
    (1usize..=12)
        .prop_flat_map(|k| {
            (
                // Past 6 leaves, sizes 1 and 2 only: every coordinate stays enumerable.
                prop::collection::vec(
                    (
                        prop::sample::select(if k <= 6 {
                            vec![1i64, 2, 3, 4]
                        } else {
                            vec![1i64, 2]
                        }),
                        -6i64..=6,
                    ),
                    k,
                ),
                prop::collection::vec(1usize..=4, k),
                any::<bool>(),
                prop::collection::vec(any::<bool>(), k),
            )
        })
        .prop_map(|(leaves, cuts, deep, named)| {
            let leaves: Vec<(i64, Option<i64>)> = leaves
                .into_iter()
                .map(|(n, d)| (n, if d == 0 && n > 1 { None } else { Some(d) }))
                .collect();
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
            (leaves, widths, deep, named)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Parsed layouts, below and above the inline capacity: the leaves are the written ones
    /// and every offset is the enumeration's.
    #[test]
    fn parsed_layouts_keep_their_leaves((leaves, widths, deep, named) in arb_layout()) {
        let l: Layout = text(&leaves, &widths, deep, &named).parse().expect("valid");
        let got: Vec<(i64, Option<i64>)> = l
            .modes()
            .iter()
            .map(|m| (m.size, match m.stride { Stride::Int(d) => Some(d), Stride::Broadcast => None }))
            .collect();
        prop_assert_eq!(&got, &leaves);
        let all = offsets(&leaves);
        prop_assert_eq!(l.size(), all.len() as i64);
        for (i, &o) in all.iter().enumerate() {
            prop_assert_eq!(l.eval_index(i as i64).expect("in range"), o);
        }
        prop_assert_eq!(l.span(), (*all.iter().min().unwrap(), *all.iter().max().unwrap()));
        same_as_validated(&l);
        same_as_validated(&l.reversed());
    }

    /// `divide` and `divide_modes` by every tile that cuts each mode at a divisor of its
    /// size: equal to the validated layout of their text, and the laws at every coordinate.
    #[test]
    fn divisions_are_their_validated_layouts((leaves, widths, deep, named) in arb_layout(),
                                             picks in prop::collection::vec(any::<usize>(), 12)) {
        let l: Layout = text(&leaves, &widths, deep, &named).parse().expect("valid");
        let sizes = top_sizes(&l);
        let tile: Vec<i64> = sizes
            .iter()
            .zip(&picks)
            .map(|(&n, &p)| {
                let ds: Vec<i64> = (1..=n).filter(|k| n % k == 0).collect();
                ds[p % ds.len()]
            })
            .collect();
        let all = offsets(&leaves);
        match divide(&l, &tile) {
            Ok(d) => {
                same_as_validated(&d);
                prop_assert_eq!(d.names()[0].as_deref(), Some("tile"));
                prop_assert_eq!(d.names()[1].as_deref(), Some("rest"));
                // (t, r) per mode -> L(r·k + t) per mode: enumerate every coordinate.
                let rests: Vec<i64> = sizes.iter().zip(&tile).map(|(n, k)| n / k).collect();
                let t_total: i64 = tile.iter().product();
                let r_total: i64 = rests.iter().product();
                for t in 0..t_total {
                    for r in 0..r_total {
                        let (mut tt, mut rr, mut flat, mut w) = (t, r, 0i64, 1i64);
                        for i in (0..sizes.len()).rev() {
                            let (ti, ri) = (tt % tile[i], rr % rests[i]);
                            tt /= tile[i];
                            rr /= rests[i];
                            flat += (ri * tile[i] + ti) * w;
                            w *= sizes[i];
                        }
                        let got = d.eval(&Tree::Tuple(vec![Tree::Leaf(t), Tree::Leaf(r)]));
                        prop_assert_eq!(got.expect("in range"), all[flat as usize]);
                    }
                }
            }
            Err(e) => prop_assert!(matches!(e, Error::TileSplit { .. }), "{e:?}"),
        }
        if let Ok(dm) = divide_modes(&l, &tile) {
            same_as_validated(&dm);
            prop_assert_eq!(dm.names(), l.names());
            for (i, &o) in all.iter().enumerate() {
                prop_assert_eq!(dm.eval_index(i as i64).expect("in range"), o);
            }
        }
    }

    /// `inverse` of dense bijections of up to 12 leaves (past the inline capacity), named or
    /// not: the validated layout of its text, and `inv(L(i)) = i` at every index.
    #[test]
    fn inverses_are_their_validated_layouts(sizes in prop::collection::vec(prop::sample::select(vec![1i64, 2, 3]), 1..=12),
                                            order in any::<u64>(),
                                            named in prop::collection::vec(any::<bool>(), 12)) {
        // A dense bijection: the leaves' strides are the running products in a shuffled order.
        let k = sizes.len();
        let mut perm: Vec<usize> = (0..k).collect();
        let mut rng = order;
        for i in (1..k).rev() {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            perm.swap(i, ((rng >> 33) % (i as u64 + 1)) as usize);
        }
        let mut strides = vec![0i64; k];
        let mut w = 1;
        for &i in &perm {
            strides[i] = w;
            w *= sizes[i];
        }
        let leaves: Vec<(i64, Option<i64>)> = sizes.iter().zip(&strides).map(|(&n, &d)| (n, Some(d))).collect();
        let l: Layout = text(&leaves, &vec![1; k], false, &named).parse().expect("valid");
        let inv = inverse(&l).expect("dense");
        same_as_validated(&inv);
        for i in 0..l.size() {
            prop_assert_eq!(inv.eval_index(l.eval_index(i).expect("in range")).expect("in range"), i);
        }
    }
}

/// A cut stride `c·d` past `i64::MAX` is an overflow naming the leaf, never a wrap; the same
/// layout divided where the stride fits keeps its extreme span.
#[test]
fn divide_overflow_near_i64_max() {
    let big = 1i64 << 62;
    let l: Layout = format!("(2,4):({big},1)").parse().expect("fits");
    assert_eq!(
        divide(&l, &[2, 4]),
        Err(Error::Overflow {
            mode: layout_core::ModePath::from_indices(&[0]).expect("path"),
            what: Quantity::Offset,
        })
    );
    let d = divide(&l, &[1, 4]).expect("fits");
    assert_eq!(d.span(), (0, big + 3));
    same_as_validated(&d);
    let l: Layout = format!("(2,4):({},1)", -big).parse().expect("fits");
    let d = divide_modes(&l, &[1, 2]).expect("fits");
    assert_eq!(d.span(), (-big, 3));
    same_as_validated(&d);
}

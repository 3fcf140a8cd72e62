//! `divide` of a flat layout (one leaf per top-level mode), the benchmark's case, agrees with
//! the rule written out in the test: the result is the layout validation builds from the text
//! `(tile: (k_1..k_m), rest: (n_1/k_1..n_m/k_m)) : ((d_1..d_m), (k_1·d_1..k_m·d_m))`, equal in
//! every observable part, and the errors are the documented ones in mode order (the tile's rank,
//! then per mode divisibility and the rest stride's overflow), for layouts of one to six leaves,
//! named or not, a bare leaf, broadcasts, negative strides and strides near `i64::MAX`.
//! Every offset of the result is also enumerated against the operand's (one to five leaves).

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{Error, Layout, ModePath, Quantity, divide};
use proptest::prelude::*;

fn stride_text(d: Option<i64>) -> String {
    d.map_or("_".to_string(), |d| d.to_string())
}

/// The flat layout of `leaves` (`None`: `_`), named `m0, m1, …` when `named`, a bare leaf when
/// it has one unnamed leaf.
fn text(leaves: &[(i64, Option<i64>)], named: bool) -> String {
    let s: Vec<String> = leaves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            if named {
                format!("m{i}: {}", m.0)
            } else {
                m.0.to_string()
            }
        })
        .collect();
    let d: Vec<String> = leaves.iter().map(|m| stride_text(m.1)).collect();
    if leaves.len() == 1 && !named {
        format!("{}:{}", s[0], d[0])
    } else {
        format!("({}):({})", s.join(","), d.join(","))
    }
}

/// What `divide` must give, by the documented rule.
fn expected(leaves: &[(i64, Option<i64>)], named: bool, tile: &[i64]) -> Result<Layout, Error> {
    let m = leaves.len();
    if tile.len() != m {
        return Err(Error::TileRank {
            rank: m,
            tile: tile.len(),
        });
    }
    let bare = m == 1 && !named;
    let mut tiles = Vec::new();
    let mut rests = Vec::new();
    for (i, (&(n, d), &k)) in leaves.iter().zip(tile).enumerate() {
        let path = if bare {
            ModePath::ROOT
        } else {
            ModePath::ROOT.child(i).expect("path")
        };
        if k < 1 || n % k != 0 {
            return Err(Error::NotDivisible {
                mode: path,
                size: n,
                tile: k,
            });
        }
        let rest = match d {
            None => None,
            Some(d) => Some(d.checked_mul(k).ok_or(Error::Overflow {
                mode: path,
                what: Quantity::Offset,
            })?),
        };
        tiles.push((k, d));
        rests.push((n / k, rest));
    }
    let group = |g: &[(i64, Option<i64>)]| {
        let s: Vec<String> = g.iter().map(|p| p.0.to_string()).collect();
        let d: Vec<String> = g.iter().map(|p| stride_text(p.1)).collect();
        if g.len() == 1 {
            (s[0].clone(), d[0].clone())
        } else {
            (format!("({})", s.join(",")), format!("({})", d.join(",")))
        }
    };
    let ((ts, td), (rs, rd)) = (group(&tiles), group(&rests));
    Ok(format!("(tile: {ts}, rest: {rs}):({td}, {rd})")
        .parse()
        .expect("the rule's text is a layout"))
}

fn agrees(leaves: &[(i64, Option<i64>)], named: bool, tile: &[i64]) {
    let Ok(l) = text(leaves, named).parse::<Layout>() else {
        return;
    };
    let got = divide(&l, tile);
    let want = expected(leaves, named, tile);
    assert_eq!(got, want, "{l} by {tile:?}");
    if let (Ok(a), Ok(b)) = (&got, &want) {
        assert_eq!(
            (a.size(), a.span()),
            (b.size(), b.span()),
            "{l} by {tile:?}"
        );
        assert_eq!((a.shape(), a.stride()), (b.shape(), b.stride()));
        assert_eq!(a.modes(), b.modes());
        assert_eq!(a.to_string(), b.to_string());
        assert_eq!((a.size(), a.span()), (l.size(), l.span()));
    }
}

/// The benchmark's tile, and each error alone.
#[test]
fn examples() {
    let l: Layout = "(128,128):(128,1)".parse().expect("layout");
    let d = divide(&l, &[32, 64]).expect("divides");
    assert_eq!(
        d.to_string(),
        "(tile:(32,64),rest:(4,2)):((128,1),(4096,64))"
    );
    agrees(&[(128, Some(128)), (128, Some(1))], false, &[32, 64]);
    agrees(&[(128, Some(128)), (128, Some(1))], false, &[32]);
    agrees(&[(128, Some(128)), (128, Some(1))], true, &[32, 48]);
    agrees(&[(2, Some(1 << 62)), (4, Some(1))], false, &[2, 2]);
    agrees(&[(12, None)], false, &[4]);
    agrees(&[(12, Some(-3))], true, &[0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn divide_of_a_flat_layout(
        leaves in prop::collection::vec(
            (
                prop::sample::select(vec![1i64, 2, 3, 4, 6, 8, 12]),
                prop::sample::select(vec![
                    Some(1i64), Some(2), Some(-3), None, Some(i64::MAX / 64),
                    Some(1 << 62), Some(-(1 << 62) - 1),
                ]),
            ),
            1..7,
        ),
        named in any::<bool>(),
        picks in prop::collection::vec((0usize..8, prop::sample::select(vec![0i64, -2, 5, 16])), 7),
        rank_off in 0usize..8,
    ) {
        let mut tile: Vec<i64> = leaves
            .iter()
            .zip(&picks)
            .map(|(&(n, _), &(pick, other))| {
                let divisors: Vec<i64> = (1..=n).filter(|d| n % d == 0).collect();
                if pick < 6 { divisors[pick % divisors.len()] } else { other }
            })
            .collect();
        match rank_off {
            0 => tile.push(1),
            1 => {
                tile.pop();
            }
            _ => {}
        }
        agrees(&leaves, named, &tile);
    }
}

/// Every offset of `divide`'s result, enumerated: at flat index `i` (the rest group fastest,
/// then the tile group, the last mode fastest in each) the tile coordinates `t_j < k_j` and
/// the rest coordinates `r_j < n_j/k_j` address the operand's coordinate `t_j + k_j·r_j` of
/// mode `j`, whose offset is `Σ (t_j + k_j·r_j)·d_j` (0 for `_`). For flat layouts of one to
/// five leaves (past the flat path's four), named or not, by every tile that divides.
fn offsets_agree(leaves: &[(i64, Option<i64>)], named: bool, tile: &[i64]) {
    let l: Layout = text(leaves, named).parse().expect("small layout");
    let d = divide(&l, tile).expect("every entry divides");
    assert_eq!(
        d.names(),
        [Some("tile".to_string()), Some("rest".to_string())]
    );
    assert_eq!((d.size(), d.rank()), (l.size(), 2));
    let rests: Vec<i64> = leaves.iter().zip(tile).map(|(m, k)| m.0 / k).collect();
    for i in 0..d.size() {
        let mut at = i;
        let mut r = vec![0; leaves.len()];
        for j in (0..leaves.len()).rev() {
            r[j] = at % rests[j];
            at /= rests[j];
        }
        let mut want = 0;
        for j in (0..leaves.len()).rev() {
            let t = at % tile[j];
            at /= tile[j];
            want += (t + tile[j] * r[j]) * leaves[j].1.unwrap_or(0);
        }
        assert_eq!(d.eval_index(i), Ok(want), "{l} by {tile:?} at {i}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn divide_of_a_flat_layout_by_offsets(
        leaves in prop::collection::vec(
            (
                prop::sample::select(vec![1i64, 2, 3, 4, 6]),
                prop::sample::select(vec![Some(1i64), Some(7), Some(-3), Some(40), None]),
            ),
            1..6,
        ),
        named in any::<bool>(),
        picks in prop::collection::vec(0usize..4, 5),
    ) {
        let tile: Vec<i64> = leaves
            .iter()
            .zip(&picks)
            .map(|(&(n, _), &pick)| {
                let divisors: Vec<i64> = (1..=n).filter(|d| n % d == 0).collect();
                divisors[pick % divisors.len()]
            })
            .collect();
        offsets_agree(&leaves, named, &tile);
    }
}

//! `divide` of random layouts (one to three top-level modes, each a leaf or a tuple of up to
//! five leaves: size-1 leaves, broadcasts, negative strides, more than eight leaves so that
//! they spill to the heap, named modes) by random tiles, checked against a brute-force
//! evaluation written here from the documented law: for every tile coordinate `t` and rest
//! coordinate `r`, `divide(L, S)(tile: t, rest: r) = Σ_i L_i(r_i·k_i + t_i)`, with `L_i` mode
//! `i` of `L` read at its flat index (last leaf fastest) and the result read through its own
//! shape and stride trees. A tile entry that is not a positive divisor of its mode must fail;
//! one that is must succeed when the mode is a single leaf. Each result is also cloned and
//! dropped, and compared after a round trip through its text.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{Error, Layout, Stride, Tree, divide};

/// xorshift64*: a fixed sequence, so that a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A mode: its leaves `(size, stride)`, slowest first; `None` is `_`.
type Mode = Vec<(i64, Option<i64>)>;

fn random_mode(rng: &mut Rng, wide: bool) -> Mode {
    let len = if wide {
        3 + rng.below(3)
    } else {
        1 + rng.below(3)
    } as usize;
    (0..len)
        .map(|_| {
            // Larger sizes on narrow modes (a tile entry above 3 with more than one tile),
            // smaller ones on wide modes (every coordinate is enumerated).
            let n = if wide {
                [1, 1, 2, 2, 3, 4, 6][rng.below(7) as usize]
            } else {
                [1, 2, 3, 4, 6, 8, 12, 16][rng.below(8) as usize]
            };
            let d = match rng.below(8) {
                0 => None,
                1 => Some(0),
                _ => Some(rng.below(61) as i64 - 30),
            };
            // A literal 0 stride is only valid on a size-1 leaf.
            let d = if d == Some(0) && n > 1 { None } else { d };
            (n, d)
        })
        .collect()
}

fn stride_text(d: Option<i64>) -> String {
    d.map_or("_".to_string(), |d| d.to_string())
}

/// The text of a layout of `modes`; a mode of one leaf is written as that leaf, or as a
/// tuple of one leaf when `wrap` says so (the same layout).
fn text(modes: &[Mode], names: &[Option<String>], wrap: &[bool]) -> String {
    let mut s = Vec::new();
    let mut d = Vec::new();
    for (i, m) in modes.iter().enumerate() {
        let (ms, md) = if m.len() == 1 && !wrap[i] {
            (m[0].0.to_string(), stride_text(m[0].1))
        } else {
            (
                format!(
                    "({})",
                    m.iter()
                        .map(|x| x.0.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                format!(
                    "({})",
                    m.iter()
                        .map(|x| stride_text(x.1))
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            )
        };
        s.push(match &names[i] {
            Some(n) => format!("{n}: {ms}"),
            None => ms,
        });
        d.push(md);
    }
    // One unnamed mode of one leaf is that leaf; anything else is a tuple of modes (a mode of
    // several leaves alone is `((..)):((..))`).
    if modes.len() == 1 && names[0].is_none() && modes[0].len() == 1 {
        format!("{}:{}", s[0], d[0])
    } else {
        format!("({}):({})", s.join(","), d.join(","))
    }
}

fn size(m: &Mode) -> i64 {
    m.iter().map(|x| x.0).product()
}

/// Mode `m` at flat index `x` (last leaf fastest), from the generator's own leaves.
fn mode_at(m: &Mode, mut x: i64) -> i64 {
    let mut acc = 0;
    for &(n, d) in m.iter().rev() {
        acc += (x % n) * d.unwrap_or(0);
        x /= n;
    }
    assert_eq!(x, 0);
    acc
}

/// The leaves of a tree, in order.
fn leaves(t: &Tree<i64>, s: &Tree<Stride>, out: &mut Vec<(i64, i64)>) {
    match (t, s) {
        (Tree::Leaf(n), Tree::Leaf(d)) => out.push((*n, d.value())),
        (Tree::Tuple(a), Tree::Tuple(b)) => a.iter().zip(b).for_each(|(x, y)| leaves(x, y, out)),
        _ => panic!("profile mismatch"),
    }
}

/// A subtree at flat index `x` (last leaf fastest), and its size.
fn tree_at(t: &Tree<i64>, s: &Tree<Stride>, x: i64) -> i64 {
    let mut l = Vec::new();
    leaves(t, s, &mut l);
    let mut rest = x;
    let mut acc = 0;
    for &(n, d) in l.iter().rev() {
        acc += (rest % n) * d;
        rest /= n;
    }
    assert_eq!(rest, 0, "index past the subtree");
    acc
}

fn tree_size(t: &Tree<i64>) -> i64 {
    match t {
        Tree::Leaf(n) => *n,
        Tree::Tuple(v) => v.iter().map(tree_size).product(),
    }
}

/// Entry `i` of a group of `m` modes: the group itself for one mode.
fn entry<'a>(
    t: &'a Tree<i64>,
    s: &'a Tree<Stride>,
    i: usize,
    m: usize,
) -> (&'a Tree<i64>, &'a Tree<Stride>) {
    if m == 1 {
        return (t, s);
    }
    match (t, s) {
        (Tree::Tuple(a), Tree::Tuple(b)) => (&a[i], &b[i]),
        _ => panic!("a group of {m} modes is a tuple"),
    }
}

/// Checks one case; returns whether `divide` succeeded.
fn check(modes: &[Mode], names: &[Option<String>], wrap: &[bool], tile: &[i64]) -> bool {
    let src = text(modes, names, wrap);
    let l: Layout = src.parse().unwrap_or_else(|e| panic!("{src}: {e}"));
    let got = divide(&l, tile);
    let m = modes.len();
    let divisible = tile.len() == m
        && modes
            .iter()
            .zip(tile)
            .all(|(md, &k)| k >= 1 && size(md) % k == 0);
    let d = match got {
        Ok(d) => d,
        Err(e) => {
            let single = modes.iter().all(|md| md.len() == 1);
            assert!(
                !divisible || (!single && matches!(e, Error::TileSplit { .. })),
                "{src} by {tile:?}: {e:?}"
            );
            return false;
        }
    };
    assert!(divisible, "{src} by {tile:?} divided: {d}");
    assert_eq!(
        (d.size(), d.span()),
        (l.size(), l.span()),
        "{src} by {tile:?}"
    );
    assert_eq!(
        d.names(),
        &[Some("tile".to_string()), Some("rest".to_string())]
    );
    let (Tree::Tuple(gs), Tree::Tuple(gd)) = (d.shape(), d.stride()) else {
        panic!("{d}: two groups");
    };
    assert_eq!(gs.len(), 2, "{d}");
    // Sizes of the entries: `k_i` and `n_i / k_i`.
    for (i, md) in modes.iter().enumerate() {
        let (ts, _) = entry(&gs[0], &gd[0], i, m);
        let (rs, _) = entry(&gs[1], &gd[1], i, m);
        assert_eq!(tree_size(ts), tile[i], "{d}");
        assert_eq!(tree_size(rs), size(md) / tile[i], "{d}");
    }
    // Every (tile, rest) coordinate, mode by mode (the law is a sum over modes).
    for (i, md) in modes.iter().enumerate() {
        let k = tile[i];
        let (ts, td) = entry(&gs[0], &gd[0], i, m);
        let (rs, rd) = entry(&gs[1], &gd[1], i, m);
        for r in 0..size(md) / k {
            for t in 0..k {
                assert_eq!(
                    tree_at(ts, td, t) + tree_at(rs, rd, r),
                    mode_at(md, r * k + t),
                    "{src} by {tile:?} -> {d}: mode {i}, tile {t}, rest {r}"
                );
            }
        }
    }
    // Whole-layout offsets: the result's flat enumeration is a permutation of the operand's
    // (on the smaller layouts: the law above already covers every coordinate).
    if l.size() > 4096 {
        return true;
    }
    let mut a: Vec<i64> = (0..l.size())
        .map(|x| l.eval_index(x).expect("in range"))
        .collect();
    let mut b: Vec<i64> = (0..d.size())
        .map(|x| d.eval_index(x).expect("in range"))
        .collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "{src} by {tile:?}");
    // A clone and a reparse are the same layout; all of them drop.
    let c = d.clone();
    assert_eq!(c, d);
    let back: Layout = d.to_string().parse().expect("prints a layout");
    assert_eq!(back, d);
    true
}

#[test]
fn random_layouts_by_random_tiles() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut ok, mut cases, mut spilled) = (0, 0, 0);
    for _ in 0..20_000 {
        let m = 1 + rng.below(3) as usize;
        let wide = rng.below(4) == 0;
        let modes: Vec<Mode> = (0..m).map(|_| random_mode(&mut rng, wide)).collect();
        let names: Vec<Option<String>> = (0..m)
            .map(|i| (rng.below(3) == 0).then(|| format!("n{i}")))
            .collect();
        let wrap: Vec<bool> = (0..m).map(|_| rng.below(4) == 0).collect();
        let n_leaves: usize = modes.iter().map(Vec::len).sum();
        spilled += usize::from(n_leaves > 8);
        // Mostly a divisor of each mode (a random one), sometimes anything (errors).
        let mut tile: Vec<i64> = modes
            .iter()
            .map(|md| {
                let n = size(md);
                if rng.below(6) == 0 {
                    rng.below(n as u64 + 2) as i64
                } else {
                    let divisors: Vec<i64> = (1..=n).filter(|k| n % k == 0).collect();
                    divisors[rng.below(divisors.len() as u64) as usize]
                }
            })
            .collect();
        if rng.below(40) == 0 {
            tile.push(1);
        }
        cases += 1;
        ok += usize::from(check(&modes, &names, &wrap, &tile));
    }
    // The generator reaches both outcomes and the heap path.
    assert!(ok > cases / 3, "{ok} of {cases} divided");
    assert!(ok < cases, "{ok} of {cases} divided");
    assert!(spilled > 100, "{spilled} layouts of more than eight leaves");
}

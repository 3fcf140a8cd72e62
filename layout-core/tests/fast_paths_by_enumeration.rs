//! `divide` of flat layouts and the decision of a composite of two layouts, against brute
//! force written here: every offset enumerated from the sizes and strides as given, in `i128`,
//! and Theorem 1 run on the enumerated table. Extremes of the leaf (strides `i64::MIN`/`MAX`,
//! negative, `_`, size-1 modes, sizes near overflow), names, nested profiles that look flat,
//! tiles that do not divide, one to six leaves.

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

use layout_core::{
    Annotated, Error, Layout, Map, NotLayout, Space, Stride, Tree, compose, decide,
    decide_composition, divide, divide_modes, inverse,
};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len())]
    }
}

/// A stride as text.
fn stride_text(d: Stride) -> String {
    match d {
        Stride::Broadcast => "_".into(),
        Stride::Int(v) => v.to_string(),
    }
}

/// The value of a stride: 0 for `_`.
fn value(d: Stride) -> i128 {
    match d {
        Stride::Broadcast => 0,
        Stride::Int(v) => i128::from(v),
    }
}

/// Whether leaves (size, stride) make a layout: no stride 0 but `_` on a mode of size > 1,
/// the size and both ends of the offsets fit.
fn fits(leaves: &[(i64, Stride)]) -> bool {
    if leaves.iter().any(|&(n, d)| n > 1 && d == Stride::Int(0)) {
        return false;
    }
    let (mut size, mut lo, mut hi) = (1i128, 0i128, 0i128);
    for &(n, d) in leaves {
        size = size.saturating_mul(i128::from(n));
        let reach = i128::from(n - 1) * value(d);
        if reach >= 0 {
            hi = hi.saturating_add(reach);
        } else {
            lo = lo.saturating_add(reach);
        }
    }
    let r = i128::from(i64::MIN)..=i128::from(i64::MAX);
    r.contains(&size) && r.contains(&lo) && r.contains(&hi)
}

/// The offset at flat index `i` of leaves (size, stride), the last leaf fastest, in `i128`.
fn offset(leaves: &[(i64, Stride)], mut i: i128) -> i128 {
    let mut acc = 0;
    for &(n, d) in leaves.iter().rev() {
        let n = i128::from(n);
        acc += (i % n) * value(d);
        i /= n;
    }
    acc
}

fn hash(l: &Layout) -> u64 {
    let mut h = DefaultHasher::new();
    l.hash(&mut h);
    h.finish()
}

/// The flat layout of `leaves`, written as text in one of its flat spellings: a bare leaf
/// (one leaf), a tuple, a tuple with names.
fn flat_text(leaves: &[(i64, Stride)], form: usize) -> String {
    let sizes: Vec<String> = leaves
        .iter()
        .enumerate()
        .map(|(i, (n, _))| match form {
            2 => format!("m{i}:{n}"),
            _ => n.to_string(),
        })
        .collect();
    let strides: Vec<String> = leaves.iter().map(|&(_, d)| stride_text(d)).collect();
    if form == 0 && leaves.len() == 1 {
        format!("{}:{}", leaves[0].0, strides[0])
    } else {
        format!("({}):({})", sizes.join(","), strides.join(","))
    }
}

/// The same leaves, each top-level mode a tuple of one leaf (a profile that is not flat).
fn nested_text(leaves: &[(i64, Stride)]) -> String {
    let s: Vec<String> = leaves.iter().map(|(n, _)| format!("({n})")).collect();
    let d: Vec<String> = leaves
        .iter()
        .map(|&(_, d)| format!("({})", stride_text(d)))
        .collect();
    format!("({}):({})", s.join(","), d.join(","))
}

/// `divide(L, tile)` of a flat layout as the law says, written out: the error, or the text of
/// `(tile:(k…),rest:(n/k…)):((d…),(k·d…))` (each group the leaf itself for one mode); the
/// errors mode by mode, the first mode's first.
fn divided(leaves: &[(i64, Stride)], tile: &[i64]) -> Result<String, &'static str> {
    // Mode by mode, the first mode's error.
    let mut rest = Vec::new();
    for (&(n, d), &k) in leaves.iter().zip(tile) {
        if k < 1 || n % k != 0 {
            return Err("NotDivisible");
        }
        let d = match d {
            Stride::Broadcast => Stride::Broadcast,
            Stride::Int(v) => Stride::Int(v.checked_mul(k).ok_or("Overflow")?),
        };
        rest.push((n / k, d));
    }
    let group = |p: &[(i64, Stride)]| -> (String, String) {
        let s: Vec<String> = p.iter().map(|(n, _)| n.to_string()).collect();
        let d: Vec<String> = p.iter().map(|&(_, d)| stride_text(d)).collect();
        if p.len() == 1 {
            (s[0].clone(), d[0].clone())
        } else {
            (format!("({})", s.join(",")), format!("({})", d.join(",")))
        }
    };
    let tiles: Vec<(i64, Stride)> = leaves
        .iter()
        .zip(tile)
        .map(|(&(_, d), &k)| (k, d))
        .collect();
    let (ts, td) = group(&tiles);
    let (rs, rd) = group(&rest);
    Ok(format!("(tile:{ts},rest:{rs}):({td},{rd})"))
}

/// Leaves at the extremes: strides `i64::MIN`/`MAX`, negative, `_`, 0, sizes near overflow.
fn extreme_leaves(rng: &mut Rng, m: usize) -> Vec<(i64, Stride)> {
    let sizes = [1i64, 1, 2, 3, 4, 6, 8, 12, 1 << 31, 1 << 62, i64::MAX];
    let strides = [
        Stride::Int(i64::MIN),
        Stride::Int(i64::MIN + 1),
        Stride::Int(i64::MIN / 2),
        Stride::Int(-7),
        Stride::Int(-1),
        Stride::Int(0),
        Stride::Int(1),
        Stride::Int(2),
        Stride::Int(5),
        Stride::Int(1 << 40),
        Stride::Int(i64::MAX / 3),
        Stride::Int(i64::MAX),
        Stride::Broadcast,
        Stride::Broadcast,
    ];
    (0..m)
        .map(|_| (rng.pick(&sizes), rng.pick(&strides)))
        .collect()
}

/// A tile entry for a mode of size `n`: a divisor (1, `n`, a small one) or not.
fn tile_entry(rng: &mut Rng, n: i64) -> i64 {
    let small: Vec<i64> = (1..=12).filter(|k| n % k == 0).collect();
    match rng.below(8) {
        0 => n,
        1 => 1,
        2 => rng.pick(&[0, -1, -2, i64::MIN, n.saturating_add(1), 5, 7]),
        3 if n > 2 && n % 2 == 0 => n / 2,
        _ => rng.pick(&small),
    }
}

/// `divide` of flat layouts of 1 to 6 leaves in each flat spelling, at the extremes, agrees
/// with the law written out: the result's text, its trees, its every offset (enumerated when
/// small, in `i128` from the operand's sizes and strides), its size and span; it reads back
/// from its text, equal and with an equal hash; the errors are the law's. The nested spelling
/// of the same leaves (each mode a tuple of one leaf) gives the same result.
#[test]
fn flat_divide_is_the_law() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut ok, mut errs, mut enumerated) = (0usize, 0usize, 0usize);
    for round in 0..6000 {
        let m = 1 + round % 6;
        let leaves = extreme_leaves(&mut rng, m);
        if !fits(&leaves) {
            continue;
        }
        let tile: Vec<i64> = leaves
            .iter()
            .map(|&(n, _)| tile_entry(&mut rng, n))
            .collect();
        let want = divided(&leaves, &tile);
        for form in 0..3 {
            let text = flat_text(&leaves, form);
            let l: Layout = text.parse().unwrap_or_else(|e| panic!("{text}: {e:?}"));
            let got = divide(&l, &tile);
            // `divide_modes`: the same errors; `L` regrouped, the same offset at every flat
            // index, each mode keeping its name.
            match (&got, divide_modes(&l, &tile)) {
                (Err(a), Err(b)) => assert_eq!(a, &b, "{text} / {tile:?}"),
                (Ok(_), Ok(dm)) => {
                    assert_eq!((dm.size(), dm.span()), (l.size(), l.span()), "{text}");
                    assert_eq!(dm.names(), l.names(), "{text} / {tile:?}");
                    if l.size() <= 4096 {
                        for i in 0..l.size() {
                            let at = dm.eval_index(i).unwrap();
                            assert_eq!(
                                i128::from(at),
                                offset(&leaves, i128::from(i)),
                                "{text} at {i}"
                            );
                        }
                    }
                }
                (a, b) => panic!("{text} / {tile:?}: divide {a:?}, divide_modes {b:?}"),
            }
            match (&want, &got) {
                (Err(w), Err(e)) => {
                    let same = match *w {
                        "NotDivisible" => matches!(e, Error::NotDivisible { .. }),
                        _ => matches!(e, Error::Overflow { .. }),
                    };
                    assert!(same, "{text} / {tile:?}: {w} wanted, got {e:?}");
                    errs += 1;
                }
                (Ok(w), Ok(d)) => {
                    assert_eq!(&d.to_string(), w, "{text} / {tile:?}");
                    let back: Layout = w.parse().unwrap();
                    assert_eq!(&back, d, "{text} / {tile:?}");
                    assert_eq!(hash(&back), hash(d), "{text} / {tile:?}");
                    assert_eq!(d.shape(), back.shape());
                    assert_eq!(d.stride(), back.stride());
                    assert_eq!(d.size(), l.size());
                    assert_eq!(d.span(), l.span(), "{text} / {tile:?}");
                    // Every offset: (t, r) ↦ L(t_i + k_i·r_i), tile slowest.
                    let size = i128::from(l.size());
                    if size <= 4096 {
                        enumerated += 1;
                        let rest: Vec<(i64, Stride)> = leaves
                            .iter()
                            .zip(&tile)
                            .map(|(&(n, _), &k)| (n / k, Stride::Int(0)))
                            .collect();
                        let rest_size: i128 = rest.iter().map(|&(n, _)| i128::from(n)).product();
                        for i in 0..size {
                            let (mut t, mut r) = (i / rest_size, i % rest_size);
                            let mut coord = vec![0i128; m];
                            for j in (0..m).rev() {
                                let (k, q) = (i128::from(tile[j]), i128::from(rest[j].0));
                                coord[j] = t % k + k * (r % q);
                                t /= k;
                                r /= q;
                            }
                            let mut flat = 0i128;
                            for (j, c) in coord.iter().enumerate() {
                                flat = flat * i128::from(leaves[j].0) + c;
                            }
                            let want = offset(&leaves, flat);
                            let got = d.eval_index(i64::try_from(i).unwrap()).unwrap();
                            assert_eq!(i128::from(got), want, "{text} / {tile:?} at {i}");
                        }
                    }
                    ok += 1;
                }
                _ => panic!("{text} / {tile:?}: {want:?} wanted, got {got:?}"),
            }
        }
        // Each mode a tuple of one leaf: the general path, the same result.
        let text = nested_text(&leaves);
        let l: Layout = text.parse().unwrap();
        match (&want, divide(&l, &tile)) {
            (Ok(w), Ok(d)) => assert_eq!(&d.to_string(), w, "{text} / {tile:?}"),
            (Err(_), Err(_)) => {}
            (w, got) => panic!("{text} / {tile:?}: {w:?} wanted, got {got:?}"),
        }
        // A tile of the wrong rank.
        for wrong in [tile[..m - 1].to_vec(), [tile.clone(), vec![1]].concat()] {
            assert!(matches!(divide(&l, &wrong), Err(Error::TileRank { .. })));
        }
    }
    assert!(
        ok > 3000 && errs > 800 && enumerated > 500,
        "{ok} {errs} {enumerated}"
    );
}

/// The table of `left ∘ right` by the right operand's leaves, computed here from the sizes
/// and strides: `None` where a right offset leaves `[0, size(left))`.
fn composite_table(left: &[(i64, Stride)], right: &[(i64, Stride)]) -> Option<Vec<i128>> {
    let size: i128 = right.iter().map(|&(n, _)| i128::from(n)).product();
    let left_size: i128 = left.iter().map(|&(n, _)| i128::from(n)).product();
    (0..size)
        .map(|i| {
            let r = offset(right, i);
            (0..left_size).contains(&r).then(|| offset(left, r))
        })
        .collect()
}

/// Theorem 1 on a table over `sizes` (last fastest), written from the spec: separability at
/// the first coordinate (flat order) where it fails, then the scan of each coordinate with
/// every subtraction made at once. Per coordinate: (chain, shape, strides, recorded).
type Chains = Vec<(Vec<i64>, Vec<i64>, Vec<i64>, Vec<(i64, i128)>)>;

fn theorem_1(sizes: &[i64], f: &[i128]) -> Result<Chains, NotLayout> {
    let k = sizes.len();
    let mut weights = vec![1i128; k];
    for j in (0..k.saturating_sub(1)).rev() {
        weights[j] = weights[j + 1] * i128::from(sizes[j + 1]);
    }
    for (i, &v) in f.iter().enumerate() {
        let i = i128::try_from(i).unwrap();
        let coord: Vec<i128> = (0..k)
            .map(|j| (i / weights[j]) % i128::from(sizes[j]))
            .collect();
        let sum: i128 = (0..k)
            .map(|j| f[usize::try_from(coord[j] * weights[j]).unwrap()])
            .sum();
        if sum != v {
            return Err(NotLayout::Separability {
                witness: coord.iter().map(|&c| i64::try_from(c).unwrap()).collect(),
            });
        }
    }
    let mut out = Vec::new();
    for j in 0..k {
        let n = usize::try_from(sizes[j]).unwrap();
        let g: Vec<i128> = (0..n)
            .map(|x| f[usize::try_from(i128::try_from(x).unwrap() * weights[j]).unwrap()])
            .collect();
        let mut rho: Vec<i128> = (0..n)
            .map(|t| if t == 0 { 0 } else { g[t] - g[t - 1] })
            .collect();
        let (mut w_last, mut recorded) = (1usize, Vec::new());
        for t in 1..n {
            let a = rho[t];
            if a == 0 {
                continue;
            }
            if n % t != 0 || t % w_last != 0 {
                return Err(NotLayout::Scan {
                    coordinate: j,
                    t: i64::try_from(t).unwrap(),
                });
            }
            recorded.push((i64::try_from(t).unwrap(), a));
            w_last = t;
            for r in rho.iter_mut().skip(t).step_by(t) {
                *r -= a;
            }
        }
        let mut chain = vec![1i64];
        chain.extend(recorded.iter().map(|&(t, _)| t).filter(|&t| t != 1));
        let n64 = i64::try_from(n).unwrap();
        let (mut shape, mut strides) = (Vec::new(), Vec::new());
        for q in (0..chain.len()).rev() {
            let next = chain.get(q + 1).copied().unwrap_or(n64);
            shape.push(next / chain[q]);
            let at = g
                .get(usize::try_from(chain[q]).unwrap())
                .copied()
                .unwrap_or(0);
            strides.push(i64::try_from(at).unwrap());
        }
        // The chain's layout reproduces g, and no entry of the chain can be dropped.
        let rebuilt = |chain: &[i64]| -> bool {
            (0..n).all(|x| {
                let mut acc = 0i128;
                for (q, &w) in chain.iter().enumerate() {
                    let next = chain.get(q + 1).copied().unwrap_or(n64);
                    let digit = (i64::try_from(x).unwrap() / w) % (next / w);
                    acc += i128::from(digit) * g.get(usize::try_from(w).unwrap()).unwrap_or(&0);
                }
                acc == g[x]
            })
        };
        assert!(rebuilt(&chain), "{g:?} {chain:?}");
        for q in 1..chain.len() {
            let mut fewer = chain.clone();
            fewer.remove(q);
            assert!(!rebuilt(&fewer), "{g:?} {chain:?} not coarsest");
        }
        out.push((chain, shape, strides, recorded));
    }
    Ok(out)
}

/// Strides that make leaves of `sizes` compact in a random order: a bijection onto
/// `[0, ∏ sizes)`.
fn compact_strides(rng: &mut Rng, sizes: &[i64]) -> Vec<i64> {
    let m = sizes.len();
    let mut order: Vec<usize> = (0..m).collect();
    for i in (1..m).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut strides = vec![0i64; m];
    let mut w = 1i64;
    for &i in &order {
        strides[i] = w;
        w *= sizes[i];
    }
    strides
}

/// A random factorization of `total` into leaves, and strides that make it a bijection onto
/// `[0, total)` (compact in a random order), sometimes spoiled (a stride doubled, zeroed,
/// negated, made `_`) so that it is not one.
fn right_leaves(rng: &mut Rng, total: i64) -> Vec<(i64, Stride)> {
    let mut sizes = Vec::new();
    let mut rest = total;
    while rest > 1 {
        let ds: Vec<i64> = (2..=rest).filter(|d| rest % d == 0).collect();
        let d = rng.pick(&ds);
        sizes.push(d);
        rest /= d;
        if rng.below(6) == 0 {
            sizes.push(1);
        }
    }
    if sizes.is_empty() || rng.below(8) == 0 {
        sizes.insert(rng.below(sizes.len() + 1), 1);
    }
    let m = sizes.len();
    let strides = compact_strides(rng, &sizes);
    let mut leaves: Vec<(i64, Stride)> = sizes
        .iter()
        .zip(&strides)
        .map(|(&n, &d)| (n, Stride::Int(d)))
        .collect();
    // A size-1 leaf's stride is any stride.
    for leaf in &mut leaves {
        if leaf.0 == 1 && rng.below(2) == 0 {
            leaf.1 = rng.pick(&[
                Stride::Int(i64::MIN),
                Stride::Int(i64::MAX),
                Stride::Int(-5),
                Stride::Int(0),
                Stride::Broadcast,
            ]);
        }
    }
    if rng.below(5) == 0 {
        let i = rng.below(m);
        leaves[i].1 = match rng.below(5) {
            0 => Stride::Int(strides[i] * 2),
            1 => Stride::Int(i64::from(sizes[i] == 1)),
            2 => Stride::Int(-strides[i]),
            3 => Stride::Broadcast,
            _ => Stride::Int(i64::MIN),
        };
    }
    leaves
}

/// Left leaves of a total size: a random factorization, strides small, negative, `_`, 0,
/// extreme where the size allows, or compact in a random order.
fn left_leaves(rng: &mut Rng, total: i64) -> Vec<(i64, Stride)> {
    let mut leaves = right_leaves(rng, total);
    for leaf in &mut leaves {
        if rng.below(3) == 0 {
            leaf.1 = rng.pick(&[
                Stride::Int(-3),
                Stride::Int(-1),
                Stride::Int(0),
                Stride::Broadcast,
                Stride::Int(1),
                Stride::Int(3),
                Stride::Int(7),
                Stride::Int(1 << 50),
                Stride::Int(i64::MAX / 64),
                Stride::Int(i64::MIN / 64),
            ]);
        }
    }
    leaves
}

/// Leaves written as a layout: flat, or with their modes grouped in twos (a nested profile).
fn layout_of(leaves: &[(i64, Stride)], nested: bool) -> Layout {
    let leaf = |&(n, d): &(i64, Stride)| (Tree::Leaf(n), Tree::Leaf(d));
    let (s, d): (Vec<_>, Vec<_>) = if nested && leaves.len() > 2 {
        leaves
            .chunks(2)
            .map(|c| {
                let (s, d): (Vec<_>, Vec<_>) = c.iter().map(leaf).unzip();
                (Tree::Tuple(s), Tree::Tuple(d))
            })
            .unzip()
    } else {
        leaves.iter().map(leaf).unzip()
    };
    let (s, d) = if s.len() == 1 && !nested {
        (s.into_iter().next().unwrap(), d.into_iter().next().unwrap())
    } else {
        (Tree::Tuple(s), Tree::Tuple(d))
    };
    Layout::new(s, d).unwrap()
}

/// The decision of `left ∘ right` for two annotated layouts — through `decide` of the
/// composite and through `decide_composition` — is Theorem 1 on the enumerated table of
/// `left(right(i))`: the coordinate sizes, the verdict and its witness, and per coordinate the
/// chain, the coarsest shape, its strides and the recorded values. The coarsest layout it
/// makes has that table.
#[test]
fn composite_decision_is_theorem_1_on_the_table() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let totals = [1i64, 2, 4, 6, 8, 12, 16, 24, 32, 36, 48, 64, 96, 128, 144];
    let (mut layouts, mut not_layouts, mut refused) = (0usize, 0usize, 0usize);
    for _ in 0..4000 {
        let total = rng.pick(&totals);
        let left = left_leaves(&mut rng, total);
        let right = right_leaves(&mut rng, total);
        if !fits(&left) || !fits(&right) {
            continue;
        }
        let (ln, rn) = (rng.below(2) == 0, rng.below(2) == 0);
        let (ll, rl) = (layout_of(&left, ln), layout_of(&right, rn));
        let (Ok(a), Ok(b)) = (
            Annotated::new(ll.clone(), Space::Logical, Space::Physical),
            Annotated::new(rl.clone(), Space::ThreadValue, Space::Logical),
        ) else {
            refused += 1;
            continue;
        };
        let (a, b): (Map, Map) = (a.into(), b.into());
        let composite = compose(&a, &b).unwrap();
        let got = decide(&composite, false);
        assert_eq!(decide_composition(&a, &b, false), got, "{ll} ∘ {rl}");
        let Some(table) = composite_table(&left, &right) else {
            // A right offset outside the left's domain: an error, never a decision.
            assert!(got.is_err(), "{ll} ∘ {rl}: {got:?}");
            continue;
        };
        let got = got.unwrap_or_else(|e| panic!("{ll} ∘ {rl}: {e:?}"));
        let sizes: Vec<i64> = right.iter().map(|&(n, _)| n).collect();
        assert_eq!(got.coordinate_shape, sizes, "{ll} ∘ {rl}");
        assert_eq!(got.constant, 0);
        match (theorem_1(&sizes, &table), &got.result) {
            (Ok(want), Ok(chains)) => {
                layouts += 1;
                assert_eq!(want.len(), chains.len(), "{ll} ∘ {rl}");
                for (w, c) in want.iter().zip(chains) {
                    assert_eq!(c.chain(), w.0, "{ll} ∘ {rl}");
                    assert_eq!(c.shape, w.1, "{ll} ∘ {rl}");
                    assert_eq!(c.strides, w.2, "{ll} ∘ {rl}");
                    assert_eq!(c.recorded(), w.3, "{ll} ∘ {rl}");
                }
                let coarsest = got
                    .coarsest_layout(&composite.domain_shape())
                    .unwrap_or_else(|| panic!("{ll} ∘ {rl}"));
                for (i, &v) in table.iter().enumerate() {
                    let at = coarsest.eval_index(i64::try_from(i).unwrap()).unwrap();
                    assert_eq!(i128::from(at), v, "{ll} ∘ {rl} as {coarsest} at {i}");
                }
            }
            (Err(want), Err(why)) => {
                not_layouts += 1;
                assert_eq!(&want, why, "{ll} ∘ {rl}");
            }
            (want, _) => panic!("{ll} ∘ {rl}: {want:?} wanted, got {got:?}"),
        }
    }
    assert!(
        layouts > 1000 && not_layouts > 100 && refused < 2000,
        "{layouts} {not_layouts} {refused}"
    );
}

/// `decide_composition` gives what `compose` then `decide` give for every pairing of the
/// spaces, equal and unequal sizes, and tiles that agree or not, errors included.
#[test]
fn composition_decision_errors_are_composes() {
    let spaces = [Space::Logical, Space::ThreadValue, Space::Physical];
    let layouts = [
        "(4,2):(1,4)",
        "(2,4):(4,1)",
        "(8):(1)",
        "(2,2):(1,2)",
        "4:_",
    ];
    let tiles = [None, Some(vec![2, 4]), Some(vec![4, 2]), Some(vec![8])];
    let mut compared = 0usize;
    for lt in layouts {
        for rt in layouts {
            let mut four = Vec::new();
            for a in spaces {
                for b in spaces {
                    for c in spaces {
                        for d in spaces {
                            four.push((a, b, c, d));
                        }
                    }
                }
            }
            for (ld, lc, rd, rc) in four {
                for (lt_tile, rt_tile) in [(0, 0), (1, 1), (1, 2), (3, 1), (0, 2)] {
                    let Ok(a) = Annotated::new(lt.parse().unwrap(), ld, lc) else {
                        continue;
                    };
                    let Ok(b) = Annotated::new(rt.parse().unwrap(), rd, rc) else {
                        continue;
                    };
                    let on = |s: Space, t: usize| {
                        (s == Space::Logical).then(|| tiles[t].clone()).flatten()
                    };
                    let (Ok(a), Ok(b)) = (
                        a.with_tiles(on(ld, lt_tile), None),
                        b.with_tiles(None, on(rc, rt_tile)),
                    ) else {
                        continue;
                    };
                    let (a, b): (Map, Map) = (a.into(), b.into());
                    for by_mode in [false, true] {
                        let want = compose(&a, &b).and_then(|m| decide(&m, by_mode));
                        assert_eq!(
                            decide_composition(&a, &b, by_mode),
                            want,
                            "{lt} {ld:?}->{lc:?} ∘ {rt} {rd:?}->{rc:?}"
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// Leaves grouped into a random nesting: flat, pairs, or one tuple holding the rest.
fn nested_of(leaves: &[(i64, Stride)], how: usize) -> (Tree<i64>, Tree<Stride>) {
    let leaf = |&(n, d): &(i64, Stride)| (Tree::Leaf(n), Tree::Leaf(d));
    let tuple = |v: Vec<(Tree<i64>, Tree<Stride>)>| {
        let (s, d): (Vec<_>, Vec<_>) = v.into_iter().unzip();
        (Tree::Tuple(s), Tree::Tuple(d))
    };
    match how {
        0 if leaves.len() == 1 => leaf(&leaves[0]),
        1 => tuple(
            leaves
                .chunks(2)
                .map(|c| tuple(c.iter().map(leaf).collect()))
                .collect(),
        ),
        2 if leaves.len() > 1 => tuple(vec![
            leaf(&leaves[0]),
            tuple(leaves[1..].iter().map(leaf).collect()),
        ]),
        _ => tuple(leaves.iter().map(leaf).collect()),
    }
}

/// A layout keeps each leaf as written, at the extremes (strides `i64::MIN`/`MAX`, `_`, sizes
/// near overflow, nestings): it is built exactly when its size and offsets fit (an error
/// otherwise, never a wrap), reads back its trees and modes, evaluates as the leaves say
/// (computed here in `i128`) at the ends and inside, refuses indices outside, knows its span
/// and whether it broadcasts, and reads back from its text, equal, with an equal hash, and
/// from CuTe's text.
#[test]
fn leaves_at_the_extremes_are_kept() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut built, mut refused) = (0usize, 0usize);
    for round in 0..20000 {
        let leaves = extreme_leaves(&mut rng, 1 + round % 6);
        let (s, d) = nested_of(&leaves, rng.below(4));
        let l = match Layout::new(s.clone(), d.clone()) {
            Ok(l) => l,
            Err(e) => {
                let zero = leaves.iter().any(|&(n, d)| n > 1 && d == Stride::Int(0));
                assert!(!fits(&leaves), "{s:?}:{d:?}: {e:?}");
                assert!(
                    zero || matches!(e, Error::Overflow { .. }),
                    "{s:?}:{d:?}: {e:?}"
                );
                refused += 1;
                continue;
            }
        };
        assert!(fits(&leaves), "{l}");
        built += 1;
        // The trees as given, a tuple of one entry read as that entry.
        fn unwrap(t: &Tree<i64>) -> Tree<i64> {
            match t {
                Tree::Tuple(v) if v.len() == 1 => unwrap(&v[0]),
                Tree::Tuple(v) => Tree::Tuple(v.iter().map(unwrap).collect()),
                Tree::Leaf(n) => Tree::Leaf(*n),
            }
        }
        assert_eq!(unwrap(l.shape()), unwrap(&s), "{l}");
        let strides: Vec<Stride> = d.leaves().into_iter().copied().collect();
        assert_eq!(
            l.stride().leaves().into_iter().copied().collect::<Vec<_>>(),
            strides
        );
        let modes: Vec<(i64, Stride)> = l.modes().iter().map(|m| (m.size, m.stride)).collect();
        assert_eq!(modes, leaves, "{l}");
        let size: i128 = leaves.iter().map(|&(n, _)| i128::from(n)).product();
        assert_eq!(i128::from(l.size()), size);
        let (mut lo, mut hi) = (0i128, 0i128);
        for &(n, d) in &leaves {
            let reach = i128::from(n - 1) * value(d);
            *(if reach < 0 { &mut lo } else { &mut hi }) += reach;
        }
        assert_eq!(
            l.span(),
            (i64::try_from(lo).unwrap(), i64::try_from(hi).unwrap()),
            "{l}"
        );
        assert_eq!(
            l.is_broadcast(),
            leaves.iter().any(|&(n, d)| n > 1 && d == Stride::Broadcast)
        );
        let sample = rng.next() as i128 % size;
        for i in [0, 1, size / 2, size - 2, size - 1, sample] {
            if (0..size).contains(&i) {
                let i64_i = i64::try_from(i).unwrap();
                assert_eq!(
                    i128::from(l.eval_index(i64_i).unwrap()),
                    offset(&leaves, i),
                    "{l} at {i}"
                );
            }
        }
        for i in [-1, l.size(), i64::MIN, i64::MAX] {
            if i < 0 || i >= l.size() {
                assert!(l.eval_index(i).is_err(), "{l} at {i}");
            }
        }
        let back: Layout = l
            .to_string()
            .parse()
            .unwrap_or_else(|e| panic!("{l}: {e:?}"));
        assert_eq!(back, l);
        assert_eq!(hash(&back), hash(&l));
        // CuTe writes `_` as 0: a size-1 broadcast reads back as the stride 0, nothing else
        // changes.
        let cute = Layout::from_cute(&l.to_cute().to_string()).unwrap();
        let want: Vec<(i64, Stride)> = leaves
            .iter()
            .map(|&(n, d)| match (n, d) {
                (1, Stride::Broadcast) => (1, Stride::Int(0)),
                m => m,
            })
            .collect();
        let got: Vec<(i64, Stride)> = cute.modes().iter().map(|m| (m.size, m.stride)).collect();
        assert_eq!(got, want, "{}", l.to_cute());
        assert_eq!(unwrap(cute.shape()), unwrap(&s), "{}", l.to_cute());
    }
    assert!(built > 4000 && refused > 2000, "{built} {refused}");
}

/// `inverse` of a bijection onto `[0, n)` (a random factorization, compact in a random order,
/// size-1 leaves of any stride among them, nested or not) undoes it at every index.
#[test]
fn inverse_undoes_a_bijection() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let totals = [1i64, 2, 6, 8, 12, 24, 36, 64, 96, 144];
    let mut inverted = 0usize;
    for _ in 0..2000 {
        let total = rng.pick(&totals);
        let leaves = right_leaves(&mut rng, total);
        // Only the spoils that keep a bijection: a size-1 leaf's stride.
        let dense = leaves
            .iter()
            .all(|&(n, d)| n == 1 || matches!(d, Stride::Int(v) if v > 0));
        let table: Vec<i128> = (0..i128::from(total)).map(|i| offset(&leaves, i)).collect();
        let mut seen = table.clone();
        seen.sort_unstable();
        if !dense || seen != (0..i128::from(total)).collect::<Vec<_>>() {
            continue;
        }
        let (s, d) = nested_of(&leaves, rng.below(4));
        let l = Layout::new(s, d).unwrap();
        let inv = inverse(&l).unwrap_or_else(|e| panic!("{l}: {e:?}"));
        assert_eq!(inv.size(), total, "{l} ↦ {inv}");
        for (i, &v) in table.iter().enumerate() {
            let back = inv.eval_index(i64::try_from(v).unwrap()).unwrap();
            assert_eq!(back, i64::try_from(i).unwrap(), "{l} ↦ {inv} at {i}");
        }
        inverted += 1;
    }
    assert!(inverted > 1000, "{inverted}");
}

/// Theorem 1 on a table written a second time, for the attack below: `f` over `sizes` (last
/// fastest) as one `i128` per flat index; separability first (the first flat index where
/// `f(c) ≠ Σ f(cⱼ·eⱼ)`, its coordinate), then per coordinate the scan with every `ρ(t)`
/// subtracted at once, read back as (chain, coarsest shape slowest first, its strides,
/// records). Each chain is checked to rebuild `g` and to be coarsest.
fn scan_all(sizes: &[i64], f: &[i128]) -> Result<Chains, NotLayout> {
    let k = sizes.len();
    // Digits of a flat index, last fastest.
    let digits = |mut i: usize| -> Vec<usize> {
        let mut c = vec![0usize; k];
        for j in (0..k).rev() {
            let n = sizes[j] as usize;
            c[j] = i % n;
            i /= n;
        }
        c
    };
    let mut stride_of = vec![1usize; k];
    for j in (0..k.saturating_sub(1)).rev() {
        stride_of[j] = stride_of[j + 1] * sizes[j + 1] as usize;
    }
    for (i, &v) in f.iter().enumerate() {
        let c = digits(i);
        let sum: i128 = c.iter().zip(&stride_of).map(|(&x, &s)| f[x * s]).sum();
        if sum != v {
            return Err(NotLayout::Separability {
                witness: c.iter().map(|&x| x as i64).collect(),
            });
        }
    }
    let mut out = Vec::new();
    for j in 0..k {
        let n = sizes[j] as usize;
        let g: Vec<i128> = (0..n).map(|x| f[x * stride_of[j]]).collect();
        let mut rho = vec![0i128; n];
        for t in 1..n {
            rho[t] = g[t] - g[t - 1];
        }
        let mut last = 1usize;
        let mut rec: Vec<(i64, i128)> = Vec::new();
        for t in 1..n {
            if rho[t] == 0 {
                continue;
            }
            if !n.is_multiple_of(t) || !t.is_multiple_of(last) {
                return Err(NotLayout::Scan {
                    coordinate: j,
                    t: t as i64,
                });
            }
            let a = rho[t];
            rec.push((t as i64, a));
            last = t;
            let mut m = t;
            while m < n {
                rho[m] -= a;
                m += t;
            }
        }
        let mut chain: Vec<i64> = vec![1];
        for &(t, _) in &rec {
            if t != 1 {
                chain.push(t);
            }
        }
        let mut bounds = chain.clone();
        bounds.push(n as i64);
        let shape: Vec<i64> = bounds.windows(2).rev().map(|w| w[1] / w[0]).collect();
        let strides: Vec<i64> = chain
            .iter()
            .rev()
            .map(|&w| i64::try_from(*g.get(w as usize).unwrap_or(&0)).unwrap())
            .collect();
        // Rebuilt from (shape, strides) alone, and no two neighbours could be one mode.
        for (x, &gx) in g.iter().enumerate() {
            let (mut rest, mut acc) = (x as i64, 0i128);
            for (&m, &s) in shape.iter().zip(&strides).rev() {
                acc += i128::from(rest % m) * i128::from(s);
                rest /= m;
            }
            assert_eq!(acc, gx, "{g:?}: {shape:?}:{strides:?}");
        }
        for q in 1..shape.len() {
            assert_ne!(
                i128::from(strides[q - 1]),
                i128::from(shape[q]) * i128::from(strides[q]),
                "{g:?}: {shape:?}:{strides:?} not coarsest"
            );
        }
        out.push((chain, shape, strides, rec));
    }
    Ok(out)
}

/// A random bijection onto `[0, total)`: the factors `parts` as leaves in a random order,
/// strides compact in another random order, size-1 leaves with any stride added.
fn bijection(rng: &mut Rng, parts: &[i64]) -> Vec<(i64, Stride)> {
    let mut sizes = parts.to_vec();
    for i in (1..sizes.len()).rev() {
        sizes.swap(i, rng.below(i + 1));
    }
    let strides = compact_strides(rng, &sizes);
    let mut leaves: Vec<(i64, Stride)> = sizes
        .iter()
        .zip(&strides)
        .map(|(&n, &d)| (n, Stride::Int(d)))
        .collect();
    for _ in 0..rng.below(3) {
        let d = rng.pick(&[
            Stride::Int(i64::MIN),
            Stride::Int(i64::MAX),
            Stride::Int(-7),
            Stride::Int(1),
            Stride::Broadcast,
        ]);
        leaves.insert(rng.below(leaves.len() + 1), (1, d));
    }
    leaves
}

/// A random factorization of `total` into factors > 1, each split further with some chance.
fn factors(rng: &mut Rng, total: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut rest = total;
    while rest > 1 {
        let ds: Vec<i64> = (2..=rest).filter(|d| rest % d == 0).collect();
        let d = if rng.below(3) == 0 {
            ds[0]
        } else {
            rng.pick(&ds)
        };
        out.push(d);
        rest /= d;
    }
    out
}

/// Left strides: runs that continue each other (so that they merge), `_`, negatives, and
/// strides near the ends of `i64` scaled so that the offsets still fit (records past `i64`).
fn left_of(rng: &mut Rng, parts: &[i64]) -> Vec<(i64, Stride)> {
    let mut leaves: Vec<(i64, Stride)> = Vec::new();
    let mut sizes = parts.to_vec();
    for i in (1..sizes.len()).rev() {
        sizes.swap(i, rng.below(i + 1));
    }
    if rng.below(4) == 0 {
        sizes.insert(rng.below(sizes.len() + 1), 1);
    }
    let budget = |n: i64, k: usize| i64::MAX / (n.max(2) - 1) / (k as i64 + 1);
    let k = sizes.len();
    // Fastest first, so that a run's stride is the size times the stride of the one after.
    let mut next: Option<(i64, i64)> = None;
    for &n in sizes.iter().rev() {
        let half = i64::MAX / (n.max(2) - 1) / 2;
        let d = match rng.below(10) {
            8 => Stride::Int(half),
            9 => Stride::Int(-half),
            0 | 1 => match next {
                Some((m, s))
                    if s.checked_mul(m)
                        .is_some_and(|v| v.unsigned_abs() <= budget(n, k) as u64) =>
                {
                    Stride::Int(s * m)
                }
                _ => Stride::Int(1),
            },
            2 => Stride::Broadcast,
            3 => Stride::Int(-(rng.below(9) as i64) - 1),
            4 => Stride::Int(budget(n, k)),
            5 => Stride::Int(-budget(n, k)),
            6 => Stride::Int(rng.pick(&[1, 2, 3, 4, 6, 8, 12, 16, 24])),
            _ => Stride::Int(budget(n, k) / 3 * 2 + 1),
        };
        let d = if n == 1 && rng.below(2) == 0 {
            rng.pick(&[Stride::Int(i64::MAX), Stride::Int(i64::MIN), Stride::Int(0)])
        } else {
            d
        };
        next = Some((n, value(d) as i64));
        leaves.push((n, d));
    }
    leaves.reverse();
    leaves
}

/// Leaves in a random nesting: flat, grouped from the front in runs of 1 to 3, or one leaf.
fn random_nesting(rng: &mut Rng, leaves: &[(i64, Stride)]) -> Layout {
    if leaves.len() == 1 && rng.below(2) == 0 {
        return Layout::new(Tree::Leaf(leaves[0].0), Tree::Leaf(leaves[0].1)).unwrap();
    }
    let (mut s, mut d) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < leaves.len() {
        let take = if rng.below(2) == 0 {
            1
        } else {
            1 + rng.below(3)
        }
        .min(leaves.len() - i);
        let chunk = &leaves[i..i + take];
        if take == 1 && rng.below(2) == 0 {
            s.push(Tree::Leaf(chunk[0].0));
            d.push(Tree::Leaf(chunk[0].1));
        } else {
            s.push(Tree::Tuple(chunk.iter().map(|c| Tree::Leaf(c.0)).collect()));
            d.push(Tree::Tuple(chunk.iter().map(|c| Tree::Leaf(c.1)).collect()));
        }
        i += take;
    }
    Layout::new(Tree::Tuple(s), Tree::Tuple(d)).unwrap()
}

/// Whether the cut points of both operands (each mode of size > 1: its weight and the next,
/// the left's in flat order, the right's from its strides) are one divisibility chain.
fn one_chain(left: &[(i64, Stride)], right: &[(i64, Stride)]) -> bool {
    let mut b = vec![1i128];
    let mut w = 1i128;
    for &(n, _) in left.iter().rev() {
        if n > 1 {
            b.extend([w, w * i128::from(n)]);
        }
        w *= i128::from(n);
    }
    for &(n, d) in right {
        if n > 1 {
            b.extend([value(d), value(d) * i128::from(n)]);
        }
    }
    b.sort_unstable();
    b.dedup();
    b.windows(2).all(|p| p[1] % p[0] == 0)
}

/// The decision of `left ∘ right` against [`scan_all`] on the enumerated composite, for right
/// operands whose ranges tile `[1, size)` and whose cuts at the left's boundaries are one chain
/// or not, left operands with size-1 modes, runs that merge, `_`, negative strides and strides
/// near the ends of `i64`, and more modes than the one pass keeps (up to twelve a side).
#[test]
fn composite_decision_attacked_by_a_second_enumeration() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let totals = [
        2i64, 4, 6, 8, 9, 12, 16, 18, 24, 30, 36, 48, 60, 64, 72, 96, 128, 144, 216, 256, 360, 512,
        1024, 2048,
    ];
    let (mut chained, mut unchained, mut layouts, mut wide, mut many) = (0, 0, 0, 0, 0);
    let mut refused = 0usize;
    for case in 0..6000 {
        let total = rng.pick(&totals);
        // The left's factors, and the right's: the same, a refinement, or another split.
        let lp = factors(&mut rng, total);
        let rp = match rng.below(3) {
            0 => lp.clone(),
            1 => lp.iter().flat_map(|&n| factors(&mut rng, n)).collect(),
            _ => factors(&mut rng, total),
        };
        let left = left_of(&mut rng, &lp);
        let right = bijection(&mut rng, &rp);
        if !fits(&left) {
            continue;
        }
        let (ll, rl) = (
            random_nesting(&mut rng, &left),
            random_nesting(&mut rng, &right),
        );
        // Into physical a left operand must be alias-free (`_` aside).
        let Ok(a) = Annotated::new(ll.clone(), Space::Logical, Space::Physical) else {
            refused += 1;
            continue;
        };
        let a: Map = a.into();
        let b: Map = Annotated::new(rl.clone(), Space::ThreadValue, Space::Logical)
            .unwrap_or_else(|e| panic!("{rl}: {e:?}"))
            .into();
        if one_chain(&left, &right) {
            chained += 1;
        } else {
            unchained += 1;
        }
        many += usize::from(left.len() > 8 || right.len() > 8);
        let composite = compose(&a, &b).unwrap();
        let got = decide(&composite, false).unwrap_or_else(|e| panic!("{ll} ∘ {rl}: {e:?}"));
        assert_eq!(
            decide_composition(&a, &b, false),
            Ok(got.clone()),
            "{case}: {ll} ∘ {rl}"
        );
        let table: Vec<i128> = (0..i128::from(total))
            .map(|i| offset(&left, offset(&right, i)))
            .collect();
        let sizes: Vec<i64> = right.iter().map(|&(n, _)| n).collect();
        assert_eq!(got.coordinate_shape, sizes, "{case}: {ll} ∘ {rl}");
        assert_eq!(got.constant, 0, "{case}: {ll} ∘ {rl}");
        match (scan_all(&sizes, &table), &got.result) {
            (Ok(want), Ok(chains)) => {
                layouts += 1;
                assert_eq!(want.len(), chains.len(), "{case}: {ll} ∘ {rl}");
                for (w, c) in want.iter().zip(chains) {
                    let got = (c.chain().to_vec(), c.shape.to_vec(), c.strides.to_vec());
                    assert_eq!(
                        got,
                        (w.0.clone(), w.1.clone(), w.2.clone()),
                        "{case}: {ll} ∘ {rl}"
                    );
                    assert_eq!(c.recorded().to_vec(), w.3, "{case}: {ll} ∘ {rl}");
                    wide += usize::from(w.3.iter().any(|r| i64::try_from(r.1).is_err()));
                }
            }
            (Err(want), Err(why)) => assert_eq!(&want, why, "{case}: {ll} ∘ {rl}"),
            (want, _) => panic!("{case}: {ll} ∘ {rl}: {want:?} wanted, got {got:?}"),
        }
    }
    eprintln!(
        "chained {chained} unchained {unchained} layouts {layouts} wide {wide} many {many} refused {refused}"
    );
    assert!(
        chained > 1000 && unchained > 1000 && layouts > 1500 && wide > 20 && many > 20,
        "chained {chained} unchained {unchained} layouts {layouts} wide {wide} many {many}"
    );
}

/// Every ordered factorization of `n` into factors > 1.
fn ordered_factorizations(n: i64) -> Vec<Vec<i64>> {
    if n == 1 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for d in 2..=n {
        if n % d == 0 {
            for mut rest in ordered_factorizations(n / d) {
                rest.insert(0, d);
                out.push(rest);
            }
        }
    }
    out
}

/// Every permutation of `0..k`.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(k - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, k - 1);
            out.push(q);
        }
    }
    out
}

/// Every compact layout of `total` (leaves slowest first): each ordered factorization with its
/// strides compact in every order.
fn compact_layouts(total: i64) -> Vec<Vec<(i64, i64)>> {
    let mut out = Vec::new();
    for sizes in ordered_factorizations(total) {
        for order in permutations(sizes.len()) {
            let mut strides = vec![0i64; sizes.len()];
            let mut w = 1;
            for &i in &order {
                strides[i] = w;
                w *= sizes[i];
            }
            out.push(sizes.iter().copied().zip(strides).collect());
        }
    }
    out
}

/// The decision of `left ∘ right` for every pair of compact layouts of a few sizes (every
/// factorization, every order of the strides: every way the cuts of one can fall inside the
/// modes of the other), the left also with its strides scaled by 3 and negated, against
/// [`scan_all`] on the enumerated composite.
#[test]
fn composite_decision_of_every_small_pair_is_the_enumerations() {
    let (mut layouts, mut not) = (0usize, 0usize);
    for total in [8i64, 12, 18, 24] {
        let all = compact_layouts(total);
        for l in &all {
            for scale in [1i64, -3] {
                let left: Vec<(i64, Stride)> = l
                    .iter()
                    .map(|&(n, d)| (n, Stride::Int(d * scale)))
                    .collect();
                let ll = layout_of(&left, false);
                let a: Map = Annotated::new(ll.clone(), Space::Logical, Space::Physical)
                    .unwrap()
                    .into();
                for r in &all {
                    let right: Vec<(i64, Stride)> =
                        r.iter().map(|&(n, d)| (n, Stride::Int(d))).collect();
                    let rl = layout_of(&right, false);
                    let b: Map = Annotated::new(rl.clone(), Space::ThreadValue, Space::Logical)
                        .unwrap()
                        .into();
                    let got = decide_composition(&a, &b, false).unwrap();
                    assert_eq!(decide(&compose(&a, &b).unwrap(), false), Ok(got.clone()));
                    let table: Vec<i128> = (0..i128::from(total))
                        .map(|i| offset(&left, offset(&right, i)))
                        .collect();
                    let sizes: Vec<i64> = right.iter().map(|&(n, _)| n).collect();
                    assert_eq!(got.coordinate_shape, sizes);
                    match (scan_all(&sizes, &table), &got.result) {
                        (Ok(want), Ok(chains)) => {
                            layouts += 1;
                            assert_eq!(want.len(), chains.len(), "{ll} ∘ {rl}");
                            for (w, c) in want.iter().zip(chains) {
                                let got =
                                    (c.chain().to_vec(), c.shape.to_vec(), c.strides.to_vec());
                                assert_eq!(
                                    got,
                                    (w.0.clone(), w.1.clone(), w.2.clone()),
                                    "{ll} ∘ {rl}"
                                );
                                assert_eq!(c.recorded().to_vec(), w.3, "{ll} ∘ {rl}");
                            }
                        }
                        (Err(want), Err(why)) => {
                            not += 1;
                            assert_eq!(&want, why, "{ll} ∘ {rl}");
                        }
                        (want, _) => panic!("{ll} ∘ {rl}: {want:?} wanted, got {got:?}"),
                    }
                }
            }
        }
    }
    eprintln!("layouts {layouts} not {not}");
    assert!(layouts > 1000 && not > 1000, "{layouts} {not}");
}

/// The decision of `left ∘ right` for sizes far past enumeration (up to `2^62`), strides
/// scaled up to the end of `i64` and negated: wherever both operands' cuts are one chain it is
/// a layout and is answered, and every answer is checked at sampled coordinates (each chain
/// rebuilds `g(t) = left(right(t·e))` in `i128`, neighbours do not merge, the chain and the
/// records follow from the shape and strides, `f` is the sum of its coordinates' values).
#[test]
fn composite_decision_past_enumeration_is_sampled_right() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let primes = [2i64, 2, 2, 2, 3, 3, 5, 7];
    let (mut answered, mut checked) = (0usize, 0usize);
    for case in 0..3000 {
        // A multiset of primes (past the enumeration's limit), grouped into factors twice: once per operand.
        let mut ps = Vec::new();
        let mut total = 1i64;
        while ps.len() < 40 {
            let p = rng.pick(&primes);
            let Some(t) = total.checked_mul(p).filter(|&t| t < 1 << 62) else {
                break;
            };
            if rng.below(12) == 0 && total > 1 << 25 {
                break;
            }
            ps.push(p);
            total = t;
        }
        if total <= 1 << 24 {
            continue;
        }
        // One order of the primes (fastest first), cut into the left's modes at some of its
        // prefixes and into the right's leaves at others: both operands' cuts are one chain.
        // A third of the right operands cut another order of the primes instead.
        for i in (1..ps.len()).rev() {
            ps.swap(i, rng.below(i + 1));
        }
        let cut = |rng: &mut Rng, ps: &[i64]| -> Vec<i64> {
            let mut out: Vec<i64> = Vec::new();
            for &p in ps {
                match out.last_mut() {
                    Some(last) if rng.below(10) < 7 => *last *= p,
                    _ => out.push(p),
                }
            }
            out
        };
        let lp = cut(&mut rng, &ps);
        let mut other = ps.clone();
        if rng.below(3) == 0 {
            for i in (1..other.len()).rev() {
                other.swap(i, rng.below(i + 1));
            }
        }
        let rp = cut(&mut rng, &other);
        // The right: each leaf's stride the product of the faster ones, in a random position.
        let mut right: Vec<(i64, Stride)> = Vec::new();
        let mut w = 1i64;
        for &n in &rp {
            right.push((n, Stride::Int(w)));
            w *= n;
        }
        for i in (1..right.len()).rev() {
            right.swap(i, rng.below(i + 1));
        }
        if rng.below(3) == 0 {
            let d = rng.pick(&[Stride::Int(i64::MIN), Stride::Int(3), Stride::Broadcast]);
            right.insert(rng.below(right.len() + 1), (1, d));
        }
        // The left: the modes slowest first, compact in a random order.
        let sizes: Vec<i64> = lp.iter().rev().copied().collect();
        let mut order: Vec<usize> = (0..sizes.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut compact = vec![(0i64, Stride::Int(0)); sizes.len()];
        let mut w = 1i64;
        for &i in &order {
            compact[i] = (sizes[i], Stride::Int(w));
            w *= sizes[i];
        }
        if rng.below(4) == 0 {
            compact.insert(rng.below(compact.len() + 1), (1, Stride::Int(i64::MAX)));
        }
        let room = i64::MAX / total.max(2);
        let scale = match rng.below(4) {
            0 => 1,
            1 => room,
            2 => -room,
            _ => 1 + i64::try_from(rng.next() % u64::try_from(room).unwrap()).unwrap(),
        };
        let mut left: Vec<(i64, Stride)> = compact
            .iter()
            .map(|&(n, d)| match d {
                Stride::Int(v) if n > 1 => (n, Stride::Int(v * scale)),
                _ => (n, d),
            })
            .collect();
        if rng.below(4) == 0 {
            let i = rng.below(left.len());
            left[i].1 = Stride::Broadcast;
        }
        let (ll, rl) = (
            random_nesting(&mut rng, &left),
            random_nesting(&mut rng, &right),
        );
        let a: Map = Annotated::new(ll.clone(), Space::Logical, Space::Physical)
            .unwrap()
            .into();
        let b: Map = Annotated::new(rl.clone(), Space::ThreadValue, Space::Logical)
            .unwrap()
            .into();
        let got = decide_composition(&a, &b, false);
        assert_eq!(
            decide(&compose(&a, &b).unwrap(), false),
            got,
            "{case}: {ll} ∘ {rl}"
        );
        let got = match got {
            Ok(d) => d,
            Err(Error::DecideTooLarge { .. }) => {
                assert!(!one_chain(&left, &right), "{case}: {ll} ∘ {rl} declined");
                continue;
            }
            Err(e) => panic!("{case}: {ll} ∘ {rl}: {e:?}"),
        };
        let chains = got
            .result
            .clone()
            .unwrap_or_else(|e| panic!("{case}: {ll} ∘ {rl}: {e:?}"));
        answered += 1;
        let sizes: Vec<i64> = right.iter().map(|&(n, _)| n).collect();
        assert_eq!(got.coordinate_shape, sizes, "{case}: {ll} ∘ {rl}");
        assert_eq!(chains.len(), right.len());
        let g = |j: usize, t: i64| -> i128 { offset(&left, i128::from(t) * value(right[j].1)) };
        for (j, c) in chains.iter().enumerate() {
            let n = right[j].0;
            let (shape, strides) = (c.shape.to_vec(), c.strides.to_vec());
            assert_eq!(shape.iter().product::<i64>(), n, "{case}: {ll} ∘ {rl}");
            // Weights fastest first, and what the scan records at each.
            let (mut chain, mut rec) = (Vec::new(), Vec::new());
            let mut w = 1i64;
            for q in (0..shape.len()).rev() {
                chain.push(w);
                let a = if q + 1 == shape.len() {
                    i128::from(strides[q])
                } else {
                    i128::from(strides[q]) - i128::from(shape[q + 1]) * i128::from(strides[q + 1])
                };
                if a != 0 {
                    rec.push((w, a));
                }
                if q + 1 < shape.len() {
                    assert_ne!(a, 0, "{case}: {ll} ∘ {rl}: {c:?} not coarsest");
                }
                w *= shape[q];
            }
            assert_eq!(c.chain().to_vec(), chain, "{case}: {ll} ∘ {rl}");
            assert_eq!(c.recorded().to_vec(), rec, "{case}: {ll} ∘ {rl}");
            let mut ts: Vec<i64> = chain.iter().flat_map(|&w| [w - 1, w, w + 1]).collect();
            ts.extend([0, n - 1]);
            ts.extend(
                (0..40).map(|_| i64::try_from(rng.next() % u64::try_from(n).unwrap()).unwrap()),
            );
            for t in ts.into_iter().filter(|&t| (0..n).contains(&t)) {
                let (mut rest, mut acc) = (t, 0i128);
                for (&m, &s) in shape.iter().zip(&strides).rev() {
                    acc += i128::from(rest % m) * i128::from(s);
                    rest /= m;
                }
                assert_eq!(acc, g(j, t), "{case}: {ll} ∘ {rl}: {c:?} at {t}");
                checked += 1;
            }
        }
        // Separability at sampled coordinates.
        for _ in 0..40 {
            let x: Vec<i64> = sizes
                .iter()
                .map(|&n| i64::try_from(rng.next() % u64::try_from(n).unwrap()).unwrap())
                .collect();
            let flat: i128 = right
                .iter()
                .zip(&x)
                .map(|(&(_, d), &xi)| i128::from(xi) * value(d))
                .sum();
            let sum: i128 = (0..x.len()).map(|j| g(j, x[j])).sum();
            assert_eq!(offset(&left, flat), sum, "{case}: {ll} ∘ {rl} at {x:?}");
        }
    }
    eprintln!("answered {answered} checked {checked}");
    assert!(answered > 1000 && checked > 100_000, "{answered} {checked}");
}

/// The decision of a composite of three layouts, grouped either way (`(a ∘ b) ∘ c` and
/// `a ∘ (b ∘ c)`), whose symbolic path reads the inner composite's chains as leaves, against
/// [`scan_all`] on the enumerated composite.
#[test]
fn composite_of_three_decided_as_enumerated() {
    let mut rng = Rng(0x5851_F42D_4C95_7F2D);
    let totals = [4i64, 6, 8, 12, 16, 24, 36, 48, 64, 72, 96];
    let (mut layouts, mut not, mut refused) = (0usize, 0usize, 0usize);
    for case in 0..3000 {
        let total = rng.pick(&totals);
        let lp = factors(&mut rng, total);
        let left = left_of(&mut rng, &lp);
        let mp = factors(&mut rng, total);
        let mid = bijection(&mut rng, &mp);
        let rp = match rng.below(2) {
            0 => mp.iter().flat_map(|&n| factors(&mut rng, n)).collect(),
            _ => factors(&mut rng, total),
        };
        let right = bijection(&mut rng, &rp);
        if !fits(&left) {
            continue;
        }
        let (ll, ml, rl) = (
            random_nesting(&mut rng, &left),
            random_nesting(&mut rng, &mid),
            random_nesting(&mut rng, &right),
        );
        let Ok(a) = Annotated::new(ll.clone(), Space::Logical, Space::Physical) else {
            refused += 1;
            continue;
        };
        let a: Map = a.into();
        let b: Map = Annotated::new(ml.clone(), Space::Logical, Space::Logical)
            .unwrap()
            .into();
        let c: Map = Annotated::new(rl.clone(), Space::ThreadValue, Space::Logical)
            .unwrap()
            .into();
        let table: Vec<i128> = (0..i128::from(total))
            .map(|i| offset(&left, offset(&mid, offset(&right, i))))
            .collect();
        let sizes: Vec<i64> = right.iter().map(|&(n, _)| n).collect();
        let want = scan_all(&sizes, &table);
        let ab = compose(&a, &b).unwrap();
        let bc = compose(&b, &c).unwrap();
        for m in [compose(&ab, &c).unwrap(), compose(&a, &bc).unwrap()] {
            let got = decide(&m, false).unwrap_or_else(|e| panic!("{case}: {ll} {ml} {rl}: {e:?}"));
            assert_eq!(got.coordinate_shape, sizes, "{case}: {ll} {ml} {rl}");
            match (&want, &got.result) {
                (Ok(want), Ok(chains)) => {
                    layouts += 1;
                    assert_eq!(want.len(), chains.len());
                    for (w, c) in want.iter().zip(chains) {
                        let got = (c.chain().to_vec(), c.shape.to_vec(), c.strides.to_vec());
                        assert_eq!(
                            got,
                            (w.0.clone(), w.1.clone(), w.2.clone()),
                            "{case}: {ll} {ml} {rl}"
                        );
                        assert_eq!(c.recorded().to_vec(), w.3, "{case}: {ll} {ml} {rl}");
                    }
                }
                (Err(want), Err(why)) => {
                    not += 1;
                    assert_eq!(want, why, "{case}: {ll} {ml} {rl}");
                }
                (want, _) => panic!("{case}: {ll} {ml} {rl}: {want:?} wanted, got {got:?}"),
            }
        }
    }
    eprintln!("layouts {layouts} not {not} refused {refused}");
    assert!(layouts > 1000 && not > 500, "{layouts} {not} {refused}");
}

//! The flat list of chains of a `Decision` (`Chains`) against the decision read from the
//! enumerated map: for random pairs `left ∘ right` of annotated layouts (size-1 modes with `_`
//! or any stride, negative strides, strides near `i64::MAX`, and right operands of up to 14
//! leaves, so that the chains hold more pieces than fit inline), `decide_composition` and
//! `decide` of the built composite give the same `Decision`, and each of its fields is what
//! Theorem 1 gives on the table of values computed here, chain by chain and piece by piece.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{
    Annotated, Chain, Chains, Layout, Map, PIECES_INLINE, Space, Stride, Tree, compose, decide,
    decide_composition, decide_values,
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
        (self.next() % n as u64) as usize
    }
}

/// A flat layout of the given sizes and strides (slowest first), or `None` where the layout
/// is refused (an offset that overflows).
fn flat(sizes: &[i64], strides: &[Stride]) -> Option<Layout> {
    Layout::new(
        Tree::Tuple(sizes.iter().map(|&n| Tree::Leaf(n)).collect()),
        Tree::Tuple(strides.iter().map(|&s| Tree::Leaf(s)).collect()),
    )
    .ok()
}

/// Splits `total` (a product of small primes) into random factors, in random order, with a
/// few size-1 modes mixed in.
fn factors(rng: &mut Rng, primes: &[i64], ones: usize) -> Vec<i64> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < primes.len() {
        // Group one to three primes into one factor.
        let take = 1 + rng.below(3);
        let f: i64 = primes[i..(i + take).min(primes.len())].iter().product();
        out.push(f);
        i += take;
    }
    for _ in 0..ones {
        let at = rng.below(out.len() + 1);
        out.insert(at, 1);
    }
    // A random order.
    for k in (1..out.len()).rev() {
        out.swap(k, rng.below(k + 1));
    }
    out
}

/// Compact strides for `sizes` in a random order of the modes: a dense bijection onto
/// `[0, product)`; a size-1 mode gets `_` or any stride.
fn compact(rng: &mut Rng, sizes: &[i64]) -> Vec<Stride> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k + 1));
    }
    let mut strides = vec![Stride::Int(0); sizes.len()];
    let mut w = 1i64;
    for &j in &order {
        if sizes[j] == 1 {
            strides[j] = match rng.below(3) {
                0 => Stride::Broadcast,
                1 => Stride::Int(-7),
                _ => Stride::Int(i64::MAX),
            };
        } else {
            strides[j] = Stride::Int(w);
            w *= sizes[j];
        }
    }
    strides
}

/// The decision of the tabulated composite, by Theorem 1 on the values (`decide_values`).
fn enumerated(map: &Map, sizes: &[i64]) -> Result<Vec<Chain>, layout_core::NotLayout> {
    let base = map.eval_index(0).expect("in range");
    let values: Vec<i64> = (0..map.size())
        .map(|i| map.eval_index(i).expect("in range") - base)
        .collect();
    decide_values(sizes, &values)
}

/// Every field of the decision of `left ∘ right`, both ways, against the enumeration; returns
/// how many pieces the chains have (0 when not a layout or refused).
fn check(left: &Map, right: &Map, what: &str) -> usize {
    let fast = decide_composition(left, right, false);
    let built = compose(left, right).and_then(|m| decide(&m, false));
    assert_eq!(fast, built, "{what}: decide_composition and decide differ");
    let Ok(d) = fast else {
        return 0;
    };
    let map = compose(left, right).expect("composes");
    let Map::Layout(r) = right else {
        panic!("{what}: a layout");
    };
    let sizes: Vec<i64> = r.layout().shape().leaves().into_iter().copied().collect();
    assert_eq!(d.coordinate_shape, sizes, "{what}: coordinate shape");
    assert_eq!(d.constant, 0, "{what}: constant");
    let want = enumerated(&map, &sizes);
    match (&d.result, &want) {
        (Ok(chains), Ok(want)) => {
            assert_eq!(chains.len(), want.len(), "{what}: chain count");
            assert_eq!(chains.is_empty(), want.is_empty(), "{what}");
            for (i, w) in want.iter().enumerate() {
                let c = chains.get(i).expect("in range");
                assert_eq!(c.shape, &w.shape[..], "{what}: chain {i} shape");
                assert_eq!(c.strides, &w.strides[..], "{what}: chain {i} strides");
                assert_eq!(c.chain(), w.chain(), "{what}: chain {i} weights");
                assert_eq!(c.recorded(), w.recorded(), "{what}: chain {i} records");
                assert_eq!(c.to_chain(), *w, "{what}: chain {i}");
            }
            assert_eq!(chains.get(want.len()), None, "{what}: past the last chain");
            assert_eq!(&chains.to_vec(), want, "{what}: to_vec");
            assert_eq!(
                *chains,
                Chains::from(want.clone()),
                "{what}: from the enumeration"
            );
            assert_eq!(format!("{chains:?}"), format!("{want:?}"), "{what}: Debug");
            let back: Vec<Chain> = chains.iter().rev().map(|c| c.to_chain()).collect();
            assert!(back.iter().eq(want.iter().rev()), "{what}: from the back");
            want.iter().map(|c| c.shape.len()).sum()
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{what}: reason");
            0
        }
        (a, b) => panic!("{what}: decided {a:?}, enumerated {b:?}"),
    }
}

/// Random pairs over sizes up to 2¹⁴: the left operand a permuted compact layout whose strides
/// are scaled (by a sign, a gap and a factor up to near `i64::MAX / size`), the right operand
/// a permuted compact layout with size-1 modes; every field checked both ways.
#[test]
fn random_pairs_field_by_field() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut pairs, mut layouts, mut heap) = (0usize, 0usize, 0usize);
    for round in 0..2500 {
        // The total size: a product of up to 6 small primes, or every fifth round 11 to 14
        // twos (right operands of many leaves, chains of more pieces than fit inline).
        let primes: Vec<i64> = if round % 5 == 0 {
            vec![2; 11 + rng.below(4)]
        } else {
            let count = 1 + rng.below(6);
            (0..count).map(|_| [2, 2, 2, 3, 5][rng.below(5)]).collect()
        };
        let total: i64 = primes.iter().product();
        if total > 1 << 14 {
            continue;
        }
        // The right operand: many small leaves when many primes, so that chains overflow.
        let right_sizes = if rng.below(2) == 0 {
            primes.clone()
        } else {
            let ones = rng.below(3);
            factors(&mut rng, &primes, ones)
        };
        let right_strides = compact(&mut rng, &right_sizes);
        let Some(r) = flat(&right_sizes, &right_strides) else {
            continue;
        };
        let right: Map = Annotated::new(r, Space::ThreadValue, Space::Logical)
            .expect("a dense bijection")
            .into();
        // The left operand: compact, scaled.
        let ones = rng.below(3);
        let left_sizes = factors(&mut rng, &primes, ones);
        let scale = match rng.below(4) {
            0 => 1,
            1 => -1,
            2 => 1 + rng.below(5) as i64,
            _ => i64::MAX / total / 2 - rng.below(3) as i64,
        };
        let left_strides: Vec<Stride> = compact(&mut rng, &left_sizes)
            .into_iter()
            .map(|s| match s {
                Stride::Int(d) if d != -7 && d != i64::MAX => {
                    let sign = if rng.below(4) == 0 { -1 } else { 1 };
                    Stride::Int(d.checked_mul(scale * sign).unwrap_or(d))
                }
                s => s,
            })
            .collect();
        let Some(l) = flat(&left_sizes, &left_strides) else {
            continue;
        };
        let Ok(left) = Annotated::new(l, Space::Logical, Space::Physical) else {
            continue;
        };
        let left: Map = left.into();
        let what = format!("{left:?} ∘ {right:?}");
        let pieces = check(&left, &right, &what);
        pairs += 1;
        if pieces > 0 {
            layouts += 1;
        }
        if pieces > PIECES_INLINE {
            heap += 1;
        }
    }
    // The generator reaches every case it is written for.
    assert!(pairs > 2000, "{pairs} pairs");
    assert!(layouts > 1500, "{layouts} layouts");
    assert!(heap > 20, "{heap} decisions past the inline pieces");
}

/// A right operand of 14 leaves of size 2 under a left operand that cuts none of them: 14
/// chains of one piece, past the inline room, equal to the enumeration; and one that cuts them
/// all in two chains of many pieces.
#[test]
fn many_chains_on_the_heap() {
    let n = 14;
    let sizes = vec![2i64; n];
    let strides: Vec<Stride> = (0..n).map(|j| Stride::Int(1 << (n - 1 - j))).collect();
    let right: Map = Annotated::new(
        flat(&sizes, &strides).expect("layout"),
        Space::ThreadValue,
        Space::Logical,
    )
    .expect("dense")
    .into();
    // Reversed: leaf j of the right operand lands on mode j of the left, unmerged (the strides
    // do not continue each other).
    let left_strides: Vec<Stride> = (0..n).map(|j| Stride::Int(3 << j)).collect();
    let left: Map = Annotated::new(
        flat(&sizes, &left_strides).expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("alias-free")
    .into();
    assert_eq!(check(&left, &right, "14 leaves"), n);
    // Under one left mode (the one pass, not the general method): 14 chains of one piece.
    let one: Map = Annotated::new(
        flat(&[1 << n], &[Stride::Int(5)]).expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("alias-free")
    .into();
    assert_eq!(check(&one, &right, "14 leaves in one mode"), n);
    // The right operand as two leaves of 2⁷ over the same left modes: each cut into seven.
    let right2: Map = Annotated::new(
        flat(&[128, 128], &[Stride::Int(128), Stride::Int(1)]).expect("layout"),
        Space::ThreadValue,
        Space::Logical,
    )
    .expect("dense")
    .into();
    assert_eq!(check(&left, &right2, "two cut leaves"), n);
}

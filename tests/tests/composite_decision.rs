//! Property tests of the decision procedure (spec: Theorem 1) against brute
//! force written here and the divisor-chain oracle of `layout_tests` ([`ChainOracle`]):
//!
//! * (a) a random flat layout is always a layout of itself: one piece per coordinate with its
//!   own stride, rebuilding every value;
//! * (b) a function built as a layout of a random chain is accepted by the scan, with the chain
//!   predicted by the floor expansion (a subset of the construction's chain) and the oracle's;
//! * (c) random composites `P ∘ B` (`P` a padded row- or column-major storage, sometimes
//!   swizzled; `B` a random dense bijection onto `P`'s domain, nested into random top-level
//!   modes): `decide`'s verdict, witness, chains and strides equal a brute-force separability
//!   check followed by the oracle per coordinate, over the leaves and by mode;
//! * (d) long inputs (n from 5,000 to 100,000, past the scan's 4096-entry window of `ρ`), layouts
//!   of a random chain, sometimes perturbed at one point: the scan equals the seed's scan as
//!   written (one `ρ` array over all of `[1, n)`), reimplemented here.

use layout_core::{
    Annotated, Chain, Layout, Map, NotLayout, Space, Stride, Swizzle, Tree, compose, decide,
    decide_values, scan,
};
use layout_tests::Rng;
use layout_tests::{ChainOracle, Flat, chain_value};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// (a) random flat layouts

/// Rank 1..=4, sizes 1..=6, strides -8..=20; a 0 on a mode of size > 1 becomes the broadcast `_`
/// (a literal 0 is not a stride there), which contributes 0 all the same.
fn flat_layout() -> impl Strategy<Value = Flat> {
    proptest::collection::vec((1i64..=6, -8i64..=20), 1..=4).prop_map(|modes| Flat {
        modes: modes
            .into_iter()
            .map(|(n, d)| (n, if n > 1 && d == 0 { None } else { Some(d) }))
            .collect(),
    })
}

/// Checks that `chains` rebuild `values` over the coordinates `sizes` (last fastest).
fn rebuilds(sizes: &[i64], chains: &[Chain], values: &[i64]) -> Result<(), TestCaseError> {
    for (i, &v) in values.iter().enumerate() {
        let mut rest = i as i64;
        let mut sum = 0;
        for (&n, c) in sizes.iter().zip(chains).rev() {
            sum += chain_value(rest % n, &c.chain(), &c.shape, &c.strides);
            rest /= n;
        }
        prop_assert_eq!(sum, v, "rebuilt value at {}", i);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// (b) layouts of a random chain

/// Pieces fastest first: `(m_j, s_j)` with `m_j` in 2..=5 and `s_j` in -8..=20.
fn pieces() -> impl Strategy<Value = Vec<(i64, i64)>> {
    proptest::collection::vec((2i64..=5, -8i64..=20), 1..=4)
}

// ---------------------------------------------------------------------------------------------
// (c) random composites P ∘ B

/// The prime factors of `n`, with multiplicity.
fn prime_factors(mut n: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        while n % p == 0 {
            out.push(p);
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

/// Splits `items` into consecutive non-empty groups at random cut points.
fn groups<T: Clone>(rng: &mut Rng, items: &[T]) -> Vec<Vec<T>> {
    let mut out: Vec<Vec<T>> = Vec::new();
    for (i, x) in items.iter().enumerate() {
        if i == 0 || rng.below(2) == 0 {
            out.push(Vec::new());
        }
        out.last_mut().expect("a group").push(x.clone());
    }
    out
}

/// One random composite with everything the brute force needs.
struct Composite {
    /// Storage: `rows × cols`, leading dimension `ld`, row- or column-major.
    rows: i64,
    cols: i64,
    ld: i64,
    row_major: bool,
    /// `(b, src, dst)` of a swizzle after the storage, if any.
    swizzle: Option<(u32, u32, u32)>,
    /// `B`'s leaves, slowest first: `(size, stride)`.
    leaves: Vec<(i64, i64)>,
    /// How many leaves each top-level mode of `B` holds, slowest first.
    modes: Vec<usize>,
}

impl Composite {
    fn new(rows: i64, cols: i64, pad: i64, row_major: bool, seed: u64) -> Composite {
        let mut rng = Rng(seed);
        let ld = if row_major { cols + pad } else { rows + pad };
        // B: the prime factors of rows·cols, shuffled and grouped into leaves; canonical strides
        // in a random order of the leaves (a dense bijection by construction, Lemma 1).
        let mut primes = prime_factors(rows * cols);
        rng.shuffle(&mut primes);
        let sizes: Vec<i64> = groups(&mut rng, &primes)
            .into_iter()
            .map(|g| g.iter().product())
            .collect();
        let mut order: Vec<usize> = (0..sizes.len()).collect();
        rng.shuffle(&mut order);
        let mut strides = vec![0; sizes.len()];
        let mut w = 1;
        for &i in &order {
            strides[i] = w;
            w *= sizes[i];
        }
        let leaves: Vec<(i64, i64)> = sizes.into_iter().zip(strides).collect();
        let modes = groups(&mut rng, &leaves).iter().map(Vec::len).collect();
        // A swizzle on one storage in three, with fields inside the offsets' bits.
        let bits = 64 - (rows * cols * (pad + 1)).leading_zeros();
        let swizzle = (rng.below(3) == 0 && bits >= 2).then(|| {
            let b = 1 + rng.below(2.min(bits as usize / 2)) as u32;
            loop {
                let src = rng.below((bits - b + 1) as usize) as u32;
                let dst = rng.below((bits - b + 1) as usize) as u32;
                if src.abs_diff(dst) >= b {
                    break (b, src, dst);
                }
            }
        });
        Composite {
            rows,
            cols,
            ld,
            row_major,
            swizzle,
            leaves,
            modes,
        }
    }

    /// The map through `layout-core`'s checked constructors.
    fn map(&self) -> Map {
        let storage = if self.row_major {
            format!("({},{}):({},1)", self.rows, self.cols, self.ld)
        } else {
            format!("({},{}):(1,{})", self.rows, self.cols, self.ld)
        };
        let storage: Layout = storage.parse().expect("storage");
        let mut left: Map = Annotated::new(storage, Space::Logical, Space::Physical)
            .expect("padded storage is alias-free")
            .into();
        if let Some((b, src, dst)) = self.swizzle {
            left = left
                .swizzle(Swizzle::new(b, src, dst).expect("disjoint fields"))
                .expect("into physical");
        }
        let mut shape = Vec::new();
        let mut stride = Vec::new();
        let mut next = self.leaves.iter();
        for &k in &self.modes {
            let (s, d): (Vec<_>, Vec<_>) = next
                .by_ref()
                .take(k)
                .map(|&(n, d)| (Tree::Leaf(n), Tree::Leaf(Stride::Int(d))))
                .unzip();
            shape.push(Tree::Tuple(s));
            stride.push(Tree::Tuple(d));
        }
        let b = Layout::new(Tree::Tuple(shape), Tree::Tuple(stride)).expect("B");
        let right: Map = Annotated::new(b, Space::ThreadValue, Space::Logical)
            .expect("B is a dense bijection")
            .into();
        compose(&left, &right).expect("sizes agree")
    }

    /// The value at flat index `i`, by brute force: B's leaves, then the storage, then the
    /// swizzle (spec: Swizzles).
    fn value(&self, i: i64) -> i64 {
        let mut rest = i;
        let mut logical = 0;
        for &(n, d) in self.leaves.iter().rev() {
            logical += (rest % n) * d;
            rest /= n;
        }
        let (r, c) = (logical / self.cols, logical % self.cols);
        let x = if self.row_major {
            r * self.ld + c
        } else {
            r + c * self.ld
        };
        match self.swizzle {
            Some((b, src, dst)) => x ^ (((x >> src) & ((1 << b) - 1)) << dst),
            None => x,
        }
    }

    /// The coordinate sizes: the leaves, or the top-level modes read as one integer each.
    fn coordinate_sizes(&self, by_mode: bool) -> Vec<i64> {
        if !by_mode {
            return self.leaves.iter().map(|l| l.0).collect();
        }
        let mut next = self.leaves.iter();
        self.modes
            .iter()
            .map(|&k| next.by_ref().take(k).map(|l| l.0).product())
            .collect()
    }
}

/// One coordinate's chain and strides (slowest first).
type ChainStrides = (Vec<i64>, Vec<i64>);

/// What the brute force expects of `decide` on the tabulated `values` over `sizes`: the first
/// coordinate (flat order) where `f(c) ≠ Σ f(c_i·e_i)`, else per coordinate the oracle's
/// minimal chain and strides, or its rejection point.
fn expected(sizes: &[i64], values: &[i64]) -> Result<Vec<ChainStrides>, NotLayout> {
    let k = sizes.len();
    let weights: Vec<i64> = (0..k).map(|i| sizes[i + 1..].iter().product()).collect();
    for (i, &v) in values.iter().enumerate() {
        let digits: Vec<i64> = (0..k).map(|j| (i as i64 / weights[j]) % sizes[j]).collect();
        let parts: i64 = (0..k)
            .map(|j| values[(digits[j] * weights[j]) as usize])
            .sum();
        if parts != v {
            return Err(NotLayout::Separability { witness: digits });
        }
    }
    let mut out = Vec::new();
    for (j, (&n, &w)) in sizes.iter().zip(&weights).enumerate() {
        let g: Vec<i64> = (0..n).map(|t| values[(t * w) as usize]).collect();
        let oracle = ChainOracle::new(n as usize);
        let verdict = oracle.check(&g);
        assert!(verdict.minimal_in_all(), "g = {g:?}");
        match verdict.minimal() {
            Some(chain) => out.push((chain.clone(), oracle.strides(chain, &g))),
            None => {
                return Err(NotLayout::Scan {
                    coordinate: j,
                    t: verdict.reject_at.expect("a rejection point"),
                });
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// (d) long inputs against the seed's scan as written

/// The scan exactly as the paper writes it (spec: The scan), with `ρ` over all of `[1, n)`: the recorded
/// `(t, a_t)`, or the `t` that rejects.
fn seed_scan(g: &[i64]) -> Result<Vec<(i64, i64)>, i64> {
    let n = g.len();
    let mut rho: Vec<i64> = (0..n)
        .map(|t| if t == 0 { 0 } else { g[t] - g[t - 1] })
        .collect();
    let mut w_last = 1;
    let mut recorded = Vec::new();
    for t in 1..n {
        if rho[t] != 0 {
            if !n.is_multiple_of(t) || !t.is_multiple_of(w_last) {
                return Err(t as i64);
            }
            let a = rho[t];
            recorded.push((t as i64, a));
            w_last = t;
            for m in (t..n).step_by(t) {
                rho[m] -= a;
            }
        }
    }
    Ok(recorded)
}

/// Pieces of a layout, fastest first: `(m_j, s_j)`.
type Pieces = Vec<(i64, i64)>;

/// Pieces fastest first with `n` from 5,000 to 100,000, and an optional perturbation
/// `(point, delta)`.
fn long_input() -> impl Strategy<Value = (Pieces, Option<(usize, i64)>)> {
    let pieces = proptest::collection::vec((2i64..=9, -8i64..=20), 4..=7)
        .prop_filter("n from 5,000 to 100,000", |p| {
            (5_000..=100_000).contains(&p.iter().map(|x| x.0).product::<i64>())
        });
    (
        pieces,
        proptest::option::of((any::<prop::sample::Index>(), 1i64..=3)),
    )
        .prop_map(|(pieces, perturb)| {
            let n = pieces.iter().map(|x| x.0).product::<i64>() as usize;
            (pieces, perturb.map(|(i, d)| (1 + i.index(n - 1), d)))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// (a) Every flat layout decides to itself: one piece per coordinate with its own stride
    /// (0 for a broadcast or a size-1 mode), rebuilding every value.
    #[test]
    fn flat_layouts_decide_to_themselves(f in flat_layout()) {
        let sizes: Vec<i64> = f.modes.iter().map(|m| m.0).collect();
        let values = f.offsets();
        let chains = decide_values(&sizes, &values);
        prop_assert!(chains.is_ok(), "{:?}: {:?}", f, chains);
        let chains = chains.unwrap();
        for (c, &(n, d)) in chains.iter().zip(&f.modes) {
            let d = if n > 1 { d.unwrap_or(0) } else { 0 };
            prop_assert_eq!((&c.chain().to_vec(), &c.shape.to_vec(), &c.strides.to_vec()), (&vec![1], &vec![n], &vec![d]));
        }
        rebuilds(&sizes, &chains, &values)?;
        // As a logical -> physical map, where the layout is alias-free.
        let l = f.to_layout().expect("valid");
        if let Ok(a) = Annotated::new(l, Space::Logical, Space::Physical) {
            let map: Map = a.into();
            for by_mode in [false, true] {
                let d = decide(&map, by_mode).expect("small");
                prop_assert_eq!(&d.coordinate_shape, &sizes);
                prop_assert_eq!(d.constant, 0);
                prop_assert_eq!(d.result.as_ref().map(|c| c.to_vec()), Ok(chains.clone()));
            }
        }
    }

    /// (b) `g` built as the layout of a random chain: the scan accepts; its chain is `{1}` plus
    /// the construction's `w_j` whose floor-expansion coefficient `a_{w_j} = s_j − m_{j−1}·s_{j−1}`
    /// is not 0 (so a subset of the construction's chain), equal to the oracle's, and rebuilds g.
    #[test]
    fn layouts_of_random_chains_are_accepted(pieces in pieces()) {
        let n: i64 = pieces.iter().map(|p| p.0).product();
        let mut chain = Vec::new();
        let mut w = 1;
        for &(m, _) in &pieces {
            chain.push(w);
            w *= m;
        }
        let g: Vec<i64> = (0..n)
            .map(|v| {
                pieces.iter().zip(&chain).map(|(&(m, s), &w)| s * ((v / w) % m)).sum()
            })
            .collect();
        let c = scan(&g);
        prop_assert!(c.is_ok(), "g = {:?} rejected at {:?}", g, c);
        let c = c.unwrap();
        prop_assert!(c.chain().iter().all(|w| chain.contains(w)), "{:?} ⊄ {:?}", c.chain(), chain);
        let mut predicted = vec![1];
        let mut recorded = Vec::new();
        for j in 0..pieces.len() {
            let a = if j == 0 { pieces[0].1 } else { pieces[j].1 - pieces[j - 1].0 * pieces[j - 1].1 };
            if a != 0 {
                recorded.push((chain[j], i128::from(a)));
                if j > 0 {
                    predicted.push(chain[j]);
                }
            }
        }
        prop_assert_eq!(&c.chain(), &predicted);
        prop_assert_eq!(&c.recorded(), &recorded);
        for (t, &x) in g.iter().enumerate() {
            prop_assert_eq!(chain_value(t as i64, &c.chain(), &c.shape, &c.strides), x);
        }
        let oracle = ChainOracle::new(n as usize);
        let verdict = oracle.check(&g);
        prop_assert!(verdict.minimal_in_all());
        prop_assert_eq!(verdict.minimal(), Some(&c.chain().to_vec()));
        prop_assert_eq!(&c.strides, &oracle.strides(&c.chain(), &g));
        prop_assert_eq!(&c.shape, &oracle.shape(&c.chain()));
    }

    /// (d) Long inputs: the windowed scan equals the seed's scan as written.
    #[test]
    fn long_inputs_match_the_seed_scan((pieces, perturb) in long_input()) {
        let n: i64 = pieces.iter().map(|p| p.0).product();
        let mut g: Vec<i64> = (0..n)
            .map(|v| {
                let (mut w, mut sum) = (1, 0);
                for &(m, s) in &pieces {
                    sum += s * ((v / w) % m);
                    w *= m;
                }
                sum
            })
            .collect();
        if let Some((p, d)) = perturb {
            g[p] += d;
        }
        let expected = seed_scan(&g);
        match scan(&g) {
            Ok(c) => {
                prop_assert_eq!(
                    Ok(c.recorded().to_vec()),
                    expected.map(|r| r.into_iter().map(|(t, a)| (t, i128::from(a))).collect::<Vec<_>>())
                );
                for (t, &x) in g.iter().enumerate() {
                    prop_assert_eq!(chain_value(t as i64, &c.chain(), &c.shape, &c.strides), x);
                }
            }
            Err(t) => prop_assert_eq!(Err(t), expected),
        }
    }

    /// (c) Random composites `P ∘ B`: decide (over the leaves and by mode) equals brute-force
    /// separability followed by the oracle per coordinate.
    #[test]
    fn composites_match_brute_force(
        rows in 1i64..=8,
        cols in 1i64..=8,
        pad in 0i64..=3,
        row_major in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let comp = Composite::new(rows, cols, pad, row_major, seed);
        let map = comp.map();
        let size = rows * cols;
        prop_assert_eq!(map.size(), size);
        let values: Vec<i64> = (0..size).map(|i| comp.value(i)).collect();
        for (i, &v) in values.iter().enumerate() {
            prop_assert_eq!(map.eval_index(i as i64), Ok(v), "value at {}", i);
        }
        for by_mode in [false, true] {
            let sizes = comp.coordinate_sizes(by_mode);
            let d = decide(&map, by_mode).expect("small");
            prop_assert_eq!(&d.coordinate_shape, &sizes);
            prop_assert_eq!(d.constant, 0);
            match (&d.result, expected(&sizes, &values)) {
                (Ok(chains), Ok(exp)) => {
                    prop_assert_eq!(chains.len(), exp.len());
                    for (c, (chain, strides)) in chains.iter().zip(&exp) {
                        prop_assert_eq!(&c.chain(), chain);
                        prop_assert_eq!(&c.strides, strides);
                    }
                    rebuilds(&sizes, &chains.to_vec(), &values)?;
                }
                (Err(got), Err(exp)) => prop_assert_eq!(got, &exp),
                (got, exp) => prop_assert!(false, "by_mode {}: decide {:?}, brute force {:?}", by_mode, got, exp),
            }
        }
    }
}

/// The same comparison on 600 composites drawn from a fixed seed, with a tally of the verdicts
/// (printed with `--nocapture`) that must reach every branch: layouts, separability failures
/// and scan rejections, swizzled or not.
#[test]
fn composites_from_a_fixed_seed_reach_every_verdict() {
    let mut rng = Rng(0x5EED_0000_0000_0600);
    let mut tally = std::collections::BTreeMap::<(bool, bool, &str), usize>::new();
    for _ in 0..600 {
        let rows = 1 + rng.below(8) as i64;
        let cols = 1 + rng.below(8) as i64;
        let pad = rng.below(4) as i64;
        let row_major = rng.below(2) == 0;
        let comp = Composite::new(rows, cols, pad, row_major, rng.next());
        let map = comp.map();
        let values: Vec<i64> = (0..rows * cols).map(|i| comp.value(i)).collect();
        for by_mode in [false, true] {
            let sizes = comp.coordinate_sizes(by_mode);
            let d = decide(&map, by_mode).expect("small");
            let exp = expected(&sizes, &values);
            let verdict = match (&d.result, &exp) {
                (Ok(chains), Ok(exp)) => {
                    let got: Vec<ChainStrides> = chains
                        .iter()
                        .map(|c| (c.chain().to_vec(), c.strides.to_vec()))
                        .collect();
                    assert_eq!(&got, exp);
                    "layout"
                }
                (Err(got), Err(exp)) => {
                    assert_eq!(got, exp);
                    match got {
                        NotLayout::Separability { .. } => "separability",
                        NotLayout::Scan { .. } => "scan",
                    }
                }
                (got, exp) => panic!("decide {got:?}, brute force {exp:?}"),
            };
            *tally
                .entry((comp.swizzle.is_some(), by_mode, verdict))
                .or_default() += 1;
        }
    }
    for ((swizzled, by_mode, verdict), count) in &tally {
        println!("swizzled {swizzled:5} by_mode {by_mode:5} {verdict:12} {count}");
    }
    for swizzled in [false, true] {
        for verdict in ["layout", "separability", "scan"] {
            let n: usize = tally
                .iter()
                .filter(|(k, _)| k.0 == swizzled && k.2 == verdict)
                .map(|(_, v)| v)
                .sum();
            assert!(n > 0, "no {verdict} verdict with swizzled = {swizzled}");
        }
    }
}

//! Random compositions of both forms of composite against a model written here: left
//! operands with broadcasts, size-1 modes, negative strides and strides near the `i64` limits,
//! right operands that factor the left domain differently (other leaf sizes, nested tuples,
//! size-1 leaves), swizzled and restricted left operands, composites of composites on either
//! side, restrictions and slices of composites. For every map built, every value equals the
//! model's `left(right(i))` by enumeration, `offset_range` is the exact enumerated range,
//! `offset_bounds` contains it, `decide` agrees with `decide_values` on the enumerated values
//! (and, between maps of one function built along different paths, with itself), the emitted
//! programs (as written and chosen) give every value, clones are equal, share their operands
//! and print alike, and nothing panics.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{
    Annotated, Map, Space, Swizzle, compose, decide, decide_composition, decide_values, emit,
    written,
};

/// A small deterministic generator (64-bit LCG, high bits).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// Flat leaves `(size, stride)` in seed order (last fastest), `None` for `_`.
type Leaves = Vec<(i64, Option<i64>)>;

/// The model of a map: its value at a flat index, in `i128` (no wrap possible).
#[derive(Clone, Debug)]
enum Model {
    Leaves(Leaves),
    Swizzled(Box<Model>, Swizzle),
    Composite(Box<Model>, Box<Model>),
    /// The inner model with its first top-level entry (of `first` positions) fixed at `value`.
    Restricted(Box<Model>, i64, i64),
    /// The inner model over flat leaves of these sizes, some fixed (`Some(v)`), the others
    /// free and forming the domain in order.
    Sliced(Box<Model>, Vec<(i64, Option<i64>)>),
}

impl Model {
    fn size(&self) -> i64 {
        match self {
            Model::Leaves(l) => l.iter().map(|m| m.0).product(),
            Model::Swizzled(m, _) => m.size(),
            Model::Composite(_, r) => r.size(),
            Model::Restricted(m, first, _) => m.size() / first,
            Model::Sliced(_, leaves) => leaves
                .iter()
                .filter(|l| l.1.is_none())
                .map(|l| l.0)
                .product(),
        }
    }
    fn at(&self, i: i64) -> i128 {
        assert!(
            0 <= i && i < self.size(),
            "model index {i} of {}",
            self.size()
        );
        match self {
            Model::Leaves(l) => {
                let (mut rest, mut v) = (i, 0i128);
                for &(n, d) in l.iter().rev() {
                    v += i128::from(rest % n) * i128::from(d.unwrap_or(0));
                    rest /= n;
                }
                v
            }
            Model::Swizzled(m, s) => {
                let x = m.at(i);
                let (b, src, dst) = (s.bits(), s.src(), s.dst());
                x ^ (((x >> src) & ((1i128 << b) - 1)) << dst)
            }
            Model::Composite(l, r) => l.at(i64::try_from(r.at(i)).expect("a logical index")),
            Model::Restricted(m, first, value) => m.at(value * (m.size() / first) + i),
            Model::Sliced(m, leaves) => {
                let (mut rest, mut full, mut w) = (i, 0, 1);
                for &(n, fixed) in leaves.iter().rev() {
                    let digit = fixed.unwrap_or_else(|| {
                        let d = rest % n;
                        rest /= n;
                        d
                    });
                    full += digit * w;
                    w *= n;
                }
                m.at(full)
            }
        }
    }
}

/// The layout text of `leaves`, the leaves grouped into nested tuples by `groups` (a list of
/// group lengths covering the leaves; `[]` for a flat tuple).
fn text(leaves: &[(i64, Option<i64>)], groups: &[usize]) -> String {
    let shape: Vec<String> = leaves.iter().map(|m| m.0.to_string()).collect();
    let stride: Vec<String> = leaves
        .iter()
        .map(|m| m.1.map_or("_".to_string(), |d| d.to_string()))
        .collect();
    let group = |v: &[String]| -> String {
        if groups.is_empty() {
            return format!("({})", v.join(","));
        }
        let mut parts = Vec::new();
        let mut k = 0;
        for &g in groups {
            let piece = &v[k..k + g];
            parts.push(if g == 1 {
                piece[0].clone()
            } else {
                format!("({})", piece.join(","))
            });
            k += g;
        }
        format!("({})", parts.join(","))
    };
    format!("{}:{}", group(&shape), group(&stride))
}

fn annotated(text: &str, domain: Space, codomain: Space) -> Option<Map> {
    Some(
        Annotated::new(text.parse().ok()?, domain, codomain)
            .ok()?
            .into(),
    )
}

/// A random grouping of `k` leaves (lengths summing to `k`), or flat.
fn groups(rng: &mut Rng, k: usize) -> Vec<usize> {
    if k < 2 || rng.below(2) == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut left = k;
    while left > 0 {
        let g = 1 + rng.below(left as u64) as usize;
        out.push(g);
        left -= g;
    }
    out
}

/// A random dense bijection of size `total`: its leaves are a random grouping of the prime
/// factors of `total` (two merged with probability `1/merge`; and some size-1 leaves), ordered
/// at random.
fn bijection(rng: &mut Rng, total: i64, merge: u64) -> Leaves {
    let mut primes = Vec::new();
    let mut n = total;
    let mut p = 2;
    while n > 1 {
        while n % p == 0 {
            primes.push(p);
            n /= p;
        }
        p += 1;
    }
    rng.shuffle(&mut primes);
    let mut sizes: Vec<i64> = Vec::new();
    for q in primes {
        match sizes.last_mut() {
            Some(last) if rng.below(merge) == 0 => *last *= q,
            _ => sizes.push(q),
        }
    }
    if sizes.is_empty() {
        sizes.push(1);
    }
    for _ in 0..rng.below(if merge > 2 { 5 } else { 2 }) {
        let at = rng.below(sizes.len() as u64 + 1) as usize;
        sizes.insert(at, 1);
    }
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    rng.shuffle(&mut order);
    let mut out: Leaves = sizes.iter().map(|&n| (n, Some(0))).collect();
    let mut w = 1;
    for &k in order.iter().rev() {
        // A size-1 leaf takes any stride; give some of them a large one.
        out[k].1 = Some(if sizes[k] == 1 && rng.below(2) == 0 {
            -(i64::MAX / 3)
        } else {
            w
        });
        w *= sizes[k];
    }
    out
}

/// A map and its model, and what it is called in a failure.
struct Case {
    map: Map,
    model: Model,
    what: String,
}

/// Every check on one map against its model.
fn check(c: &Case) {
    let (m, f, what) = (&c.map, &c.model, &c.what);
    let n = f.size();
    assert_eq!(m.size(), n, "{what}: size");
    let mut values = Vec::with_capacity(n as usize);
    for i in 0..n {
        let want = f.at(i);
        let got = m.eval_index(i);
        assert_eq!(got.map(i128::from), Ok(want), "{what}: index {i}");
        values.push(want as i64);
    }
    assert!(m.eval_index(n).is_err(), "{what}: past the end");
    assert!(m.eval_index(-1).is_err(), "{what}: -1");
    let lo = *values.iter().min().expect("non-empty");
    let hi = *values.iter().max().expect("non-empty");
    assert_eq!(m.offset_range(), Ok((lo, hi)), "{what}: offset_range");
    let (blo, bhi) = m.offset_bounds();
    assert!(blo <= lo && hi <= bhi, "{what}: offset_bounds {blo}..{bhi}");
    // `decide` by leaf against the decision of the enumerated values. It decides `f − f(0)`:
    // where a difference leaves `i64`, an overflow error is its answer.
    let shifted: Option<Vec<i64>> = values
        .iter()
        .map(|&v| i64::try_from(i128::from(v) - i128::from(values[0])).ok())
        .collect();
    let Some(shifted) = shifted else {
        for by_mode in [false, true] {
            match decide(m, by_mode) {
                Err(layout_core::Error::Overflow { .. }) => {}
                other => panic!("{what}: differences past i64 decided {other:?}"),
            }
        }
        return check_clones(c);
    };
    let d = decide(m, false).unwrap_or_else(|e| panic!("{what}: decide {e:?}"));
    assert_eq!(i128::from(d.constant), f.at(0), "{what}: constant");
    let sizes: Vec<i64> = d.coordinate_shape.to_vec();
    assert_eq!(sizes.iter().product::<i64>(), n, "{what}: coordinate shape");
    let want = decide_values(&sizes, &shifted);
    match (&d.result, &want) {
        (Ok(a), Ok(b)) => assert_eq!(a.to_vec(), *b, "{what}: chains"),
        (Err(_), Err(_)) => {}
        _ => panic!("{what}: decide {:?} but the values {:?}", d.result, want),
    }
    if d.result.is_ok() && d.constant == 0 {
        let layout = d
            .coarsest_layout(&m.domain_shape())
            .unwrap_or_else(|| panic!("{what}: a coarsest layout"));
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(
                layout.eval_index(i as i64),
                Ok(v),
                "{what}: coarsest at {i}"
            );
        }
    }
    let by_mode = decide(m, true).unwrap_or_else(|e| panic!("{what}: decide by mode {e:?}"));
    assert_eq!(by_mode.constant, d.constant, "{what}: constant by mode");
    assert_eq!(
        by_mode.is_layout(),
        decide_values(&by_mode.coordinate_shape, &shifted).is_ok(),
        "{what}: by mode"
    );
    // The emitted programs, as written and chosen, at every coordinate.
    for by_mode in [false, true] {
        let e = emit(m, by_mode).unwrap_or_else(|err| panic!("{what}: emit {err:?}"));
        for p in [&e.program, &written(m, by_mode)] {
            assert_eq!(p.sizes.iter().product::<i64>(), n, "{what}: program sizes");
            for (i, &v) in values.iter().enumerate() {
                let mut rest = i as i64;
                let mut coords = vec![0; p.sizes.len()];
                for (c, &size) in coords.iter_mut().zip(&p.sizes).rev() {
                    *c = rest % size;
                    rest /= size;
                }
                assert_eq!(
                    p.eval(&coords),
                    Ok(v),
                    "{what}: program {by_mode} at {i}: {}",
                    p.to_python()
                );
            }
        }
    }
    check_clones(c);
}

/// Clones of `c`'s map are equal, share its operands and print alike; a composite rebuilt from
/// its operands is the same map and decides alike.
fn check_clones(c: &Case) {
    let (m, what) = (&c.map, &c.what);
    // Clones: equal, the same operands, the same text.
    let copy = m.clone();
    assert_eq!(&copy, m, "{what}: clone");
    assert_eq!(format!("{copy:?}"), format!("{m:?}"), "{what}: Debug");
    if let (Map::Composite(a), Map::Composite(b)) = (&copy, m) {
        assert!(a.shares_operands(b), "{what}: shared");
        assert_eq!(
            format!("{m:?}"),
            format!(
                "Composite(Composite {{ left: {:?}, right: {:?} }})",
                a.left(),
                a.right()
            ),
            "{what}: Debug of the operands"
        );
        assert_eq!(
            a.layouts().is_some(),
            matches!((&*a.left(), &*a.right()), (Map::Layout(_), Map::Layout(_))),
            "{what}: inline exactly for two layouts"
        );
        // Rebuilt from its operands: the same map, and the same decisions.
        let again = compose(&a.left(), &a.right()).expect("its operands compose");
        assert_eq!(&again, m, "{what}: rebuilt");
        for by_mode in [false, true] {
            assert_eq!(
                decide(&again, by_mode),
                decide(m, by_mode),
                "{what}: rebuilt decides"
            );
            assert_eq!(
                decide_composition(&a.left(), &a.right(), by_mode),
                decide(m, by_mode),
                "{what}: decide_composition"
            );
        }
    }
}

/// One drawn left operand (into physical), its model, its text.
fn left_operand(rng: &mut Rng, wide: bool) -> (Map, Leaves, String, i64) {
    let dense = [
        Some(1i64),
        Some(2),
        Some(4),
        Some(8),
        Some(-16),
        Some(64),
        None,
    ];
    let strides = [
        Some(1i64),
        Some(-1),
        Some(3),
        Some(-5),
        Some(16),
        None,
        Some(i64::MAX / 5),
        Some(-(i64::MAX / 5)),
        Some(i64::MAX),
        Some(i64::MIN + 1),
        Some(i64::MIN),
        Some(1 << 40),
    ];
    loop {
        let leaves: Leaves = if wide {
            // Many leaves: decisions past the inline capacity of their coordinates and chains.
            let k = 8 + rng.below(5) as usize;
            (0..k)
                .map(|_| {
                    let d = if rng.below(4) == 0 {
                        rng.pick(&strides)
                    } else {
                        rng.pick(&dense)
                    };
                    (rng.pick(&[1, 2, 2, 2, 3]), d)
                })
                .collect()
        } else {
            let k = 1 + rng.below(4) as usize;
            (0..k)
                .map(|_| (rng.pick(&[1, 1, 2, 2, 3, 4, 5, 6]), rng.pick(&strides)))
                .collect()
        };
        if leaves.iter().map(|m| m.0).product::<i64>() > 4096 {
            continue;
        }
        let g = groups(rng, leaves.len());
        let t = text(&leaves, &g);
        if let Some(m) = annotated(&t, Space::Logical, Space::Physical) {
            let first = first_entry(&leaves, &g);
            return (m, leaves, t, first);
        }
    }
}

fn right_operand(
    rng: &mut Rng,
    total: i64,
    domain: Space,
) -> (Map, Leaves, String, i64, Vec<usize>) {
    let merge = if total >= 128 { 8 } else { 2 };
    let leaves = bijection(rng, total, merge);
    let g = groups(rng, leaves.len());
    let t = text(&leaves, &g);
    let m = annotated(&t, domain, Space::Logical)
        .unwrap_or_else(|| panic!("a bijection: {t} of {total}"));
    let first = first_entry(&leaves, &g);
    (m, leaves, t, first, g)
}

#[test]
fn random_compositions_against_the_model() {
    random_compositions(0x5eed_c0de_2026_1202, 1500, false);
}

/// As [`random_compositions_against_the_model`], with 8 to 12 leaves on the left and as many
/// on the right as the prime factors give: more coordinates and chains than a decision holds
/// inline.
#[test]
fn random_compositions_of_many_leaves_against_the_model() {
    random_compositions(0x1eaf_2026_1202, 250, true);
}

fn random_compositions(seed: u64, n: usize, wide: bool) {
    let mut rng = Rng(seed);
    let mut counts = [0usize; 8];
    let mut past_inline = 0;
    for case in 0..n {
        let (left, left_leaves, lt, left_first) = left_operand(&mut rng, wide);
        let total = Model::Leaves(left_leaves.clone()).size();
        let dom = rng.pick(&[Space::Logical, Space::ThreadValue]);
        let (right, right_leaves, rt, right_first, right_groups) =
            right_operand(&mut rng, total, dom);
        let (mid, mid_leaves, mt, _, _) = right_operand(&mut rng, total, Space::Logical);
        let lm = Model::Leaves(left_leaves.clone());
        let rm = Model::Leaves(right_leaves.clone());
        let mm = Model::Leaves(mid_leaves.clone());
        let comp =
            |a: &Model, b: &Model| Model::Composite(Box::new(a.clone()), Box::new(b.clone()));
        let mut cases = Vec::new();

        // Two layouts: inline.
        let c = compose(&left, &right).expect("composable");
        let Map::Composite(node) = &c else {
            panic!("a composite")
        };
        assert!(node.layouts().is_some(), "inline");
        if decide(&c, false).is_ok_and(|d| d.coordinate_shape.len() > 8) {
            past_inline += 1;
        }
        cases.push(Case {
            map: c.clone(),
            model: comp(&lm, &rm),
            what: format!("#{case} [{lt}] o [{rt}]"),
        });
        counts[0] += 1;
        // `left ∘ mid ∘ right`: its two bracketings are one function, decided alike.
        let a = compose(&compose(&left, &mid).expect("l∘m"), &right).expect("(l∘m)∘r");
        let b = compose(&left, &compose(&mid, &right).expect("m∘r")).expect("l∘(m∘r)");
        for (m, w) in [(&a, "(l∘m)∘r"), (&b, "l∘(m∘r)")] {
            cases.push(Case {
                map: m.clone(),
                model: comp(&comp(&lm, &mm), &rm),
                what: format!("#{case} {w}: [{lt}] [{mt}] [{rt}]"),
            });
            counts[1] += 1;
        }
        for by_mode in [false, true] {
            assert_eq!(
                decide(&a, by_mode),
                decide(&b, by_mode),
                "#{case}: bracketings decide alike {by_mode}"
            );
        }
        assert_ne!(a, b, "#{case}: different structures are different maps");
        // The identity in the middle: the function of `c`, decided alike.
        let id_l =
            annotated(&format!("({total}):(1)"), Space::Logical, Space::Logical).expect("identity");
        let via_id = compose(&compose(&left, &id_l).expect("l∘id"), &right).expect("(l∘id)∘r");
        let via_id2 = compose(&left, &compose(&id_l, &right).expect("id∘r")).expect("l∘(id∘r)");
        for m in [&via_id, &via_id2] {
            for by_mode in [false, true] {
                assert_eq!(
                    decide(m, by_mode).map(|d| (d.constant, d.result)),
                    decide(&c, by_mode).map(|d| (d.constant, d.result)),
                    "#{case}: through the identity decides like the inline form ({by_mode}): [{lt}] o [{rt}]"
                );
            }
            assert_ne!(m, &c);
        }
        // Built twice from equal operands written apart: equal, nothing shared.
        let apart = compose(
            &annotated(&lt, Space::Logical, Space::Physical).expect("left"),
            &annotated(&rt, dom, Space::Logical).expect("right"),
        )
        .expect("composable");
        assert_eq!(apart, c, "#{case}: equal operands, equal composites");
        if let (Map::Composite(x), Map::Composite(y)) = (&apart, &c) {
            assert!(!x.shares_operands(y));
        }

        // A composite on the left, where the right operand's domain is logical.
        if dom == Space::Logical {
            let (r2, r2_leaves, r2t, _, _) = right_operand(&mut rng, total, Space::ThreadValue);
            let m = compose(&c, &r2).expect("composite ∘ layout");
            cases.push(Case {
                map: m,
                model: comp(&comp(&lm, &rm), &Model::Leaves(r2_leaves)),
                what: format!("#{case} ([{lt}] o [{rt}]) o [{r2t}]"),
            });
            counts[2] += 1;
        }

        // A swizzled left operand.
        let bits = rng.pick(&[1u32, 2, 3]);
        let dst = rng.pick(&[0u32, 1, 2, 4]);
        let src = dst + bits + rng.pick(&[0u32, 1, 3, 40]);
        if let Ok(s) = Swizzle::new(bits, src, dst)
            && let Ok(sw) = left.clone().swizzle(s)
        {
            let swm = Model::Swizzled(Box::new(lm.clone()), s);
            let m = compose(&sw, &right).expect("swizzled ∘ layout");
            cases.push(Case {
                map: m.clone(),
                model: comp(&swm, &rm),
                what: format!("#{case} sw{bits},{src},{dst}[{lt}] o [{rt}]"),
            });
            counts[3] += 1;
            // A restriction of it: the composite of the swizzle's inner map, then the swizzle.
            let first = m.domain_entry_sizes()[0];
            if first > 1 {
                let v = rng.below(first as u64) as i64;
                assert_eq!(first, right_first, "#{case}: first entry");
                let r = m.restrict(&[(0, v)]).expect("restrict");
                cases.push(Case {
                    map: r,
                    model: Model::Restricted(Box::new(comp(&swm, &rm)), first, v),
                    what: format!("#{case} (sw[{lt}] o [{rt}])|0={v}"),
                });
                counts[4] += 1;
            }
        }

        // A restriction of the inline composite.
        let first = c.domain_entry_sizes()[0];
        if first > 1 && first < total {
            let v = rng.below(first as u64) as i64;
            assert_eq!(first, right_first, "#{case}: first entry");
            let r = c.restrict(&[(0, v)]).expect("restrict");
            cases.push(Case {
                map: r,
                model: Model::Restricted(Box::new(comp(&lm, &rm)), first, v),
                what: format!("#{case} ([{lt}] o [{rt}])|0={v}"),
            });
            counts[5] += 1;
        }

        // A slice of one grouped entry of the domain, some of its leaves fixed, the others
        // free: of the inline composite and of a nested one.
        let ent = entries(&right_leaves, &right_groups);
        if let Some(e) = ent.iter().position(|g| g.len() >= 2) {
            let fixed: Vec<Option<i64>> = ent[e]
                .iter()
                .enumerate()
                .map(|(j, &(n, _))| {
                    (j == 0 || rng.below(2) == 0).then(|| rng.below(n as u64) as i64)
                })
                .collect();
            let mut fixed = fixed;
            if fixed.iter().all(Option::is_some) {
                fixed[1] = None;
            }
            let value = layout_core::Tree::Tuple(
                fixed.iter().map(|&f| layout_core::Tree::Leaf(f)).collect(),
            );
            let before: usize = ent[..e].iter().map(Vec::len).sum();
            let mut leaves: Vec<(i64, Option<i64>)> =
                right_leaves.iter().map(|&(n, _)| (n, None)).collect();
            for (j, &f) in fixed.iter().enumerate() {
                leaves[before + j].1 = f;
            }
            for (map, model, w) in [
                (&c, comp(&lm, &rm), "inline"),
                (&b, comp(&comp(&lm, &mm), &rm), "nested"),
            ] {
                let sliced = map
                    .slice_entries(&[(e, value.clone())])
                    .unwrap_or_else(|err| panic!("#{case} slice {w}: {err:?}"));
                cases.push(Case {
                    map: sliced,
                    model: Model::Sliced(Box::new(model), leaves.clone()),
                    what: format!("#{case} {w} [{lt}] o [{rt}] sliced at {e} by {fixed:?}"),
                });
                counts[7] += 1;
            }
        }

        // A restricted left operand.
        let first = left.domain_entry_sizes()[0];
        assert_eq!(first, left_first, "#{case}: first entry of the left");
        if first > 1 && first < total {
            let v = rng.below(first as u64) as i64;
            let rl = left.restrict(&[(0, v)]).expect("restrict");
            let (r3, r3_leaves, r3t, _, _) = right_operand(&mut rng, total / first, dom);
            let rlm = Model::Restricted(Box::new(lm.clone()), first, v);
            match compose(&rl, &r3) {
                Ok(m) => {
                    cases.push(Case {
                        map: m,
                        model: comp(&rlm, &Model::Leaves(r3_leaves)),
                        what: format!("#{case} ([{lt}]|0={v}) o [{r3t}]"),
                    });
                    counts[6] += 1;
                }
                Err(e) => panic!("#{case}: restricted left {e:?}"),
            }
        }
        for k in &cases {
            check(k);
        }
    }
    assert!(counts.iter().all(|&k| k > n / 15), "{counts:?}");
    assert!(!wide || past_inline > n / 10, "{past_inline}");
}

/// The size of the first top-level entry of leaves grouped by `groups` (see [`text`]).
fn first_entry(leaves: &[(i64, Option<i64>)], groups: &[usize]) -> i64 {
    let g = groups.first().copied().unwrap_or(1);
    leaves[..g].iter().map(|m| m.0).product()
}

/// The top-level entries of leaves grouped by `groups` (see [`text`]), each as its leaves.
fn entries(leaves: &[(i64, Option<i64>)], groups: &[usize]) -> Vec<Leaves> {
    if groups.is_empty() {
        return leaves.iter().map(|&m| vec![m]).collect();
    }
    let mut out = Vec::new();
    let mut k = 0;
    for &g in groups {
        out.push(leaves[k..k + g].to_vec());
        k += g;
    }
    out
}

/// Composites built by the expression evaluator from text are the ones `compose` builds from
/// the same operands (equal, printed alike, decided alike, the same values), and a regrouping
/// of a composite (`permute`, `flatten`) is the composite of the left operand and the
/// regrouped right operand, against the model.
#[test]
fn composites_from_text_and_regrouped() {
    use layout_core::expr::evaluate_text;
    let mut rng = Rng(0x0dd_ba11_2026);
    let mut permuted = 0;
    for case in 0..600 {
        let (left, left_leaves, lt, _) = left_operand(&mut rng, false);
        let total = Model::Leaves(left_leaves.clone()).size();
        let (dom, dom_text) = rng.pick(&[
            (Space::Logical, "logical"),
            (Space::ThreadValue, "thread-value"),
        ]);
        let leaves = bijection(&mut rng, total, 2);
        let g = groups(&mut rng, leaves.len());
        let rt = text(&leaves, &g);
        let right = annotated(&rt, dom, Space::Logical).expect("a bijection");
        let defs = format!("[L = {lt}, logical -> physical] [R = {rt}, {dom_text} -> logical]");
        let c = compose(&left, &right).expect("composable");
        let e = evaluate_text(&format!("{defs} compose(L, R)"))
            .unwrap_or_else(|err| panic!("#{case} {defs}: {err:?}"));
        assert_eq!(e, c, "#{case} {defs}: the evaluator's composite");
        assert_eq!(format!("{e:?}"), format!("{c:?}"), "#{case}");
        for by_mode in [false, true] {
            assert_eq!(decide(&e, by_mode), decide(&c, by_mode), "#{case} {defs}");
        }
        let lm = Model::Leaves(left_leaves.clone());
        // A permutation of the right operand's top-level entries.
        let ent = entries(&leaves, &g);
        if ent.len() >= 2 {
            let mut perm: Vec<usize> = (0..ent.len()).collect();
            rng.shuffle(&mut perm);
            let p: Vec<String> = perm.iter().map(usize::to_string).collect();
            let got = evaluate_text(&format!(
                "{defs} permute(compose(L, R), ({}))",
                p.join(", ")
            ))
            .unwrap_or_else(|err| panic!("#{case} {defs} permute {perm:?}: {err:?}"));
            // The permuted right operand: entry j of the new domain is entry perm[j].
            let mut pl: Leaves = Vec::new();
            let mut pg: Vec<usize> = Vec::new();
            for &j in &perm {
                pl.extend(&ent[j]);
                pg.push(ent[j].len());
            }
            let prt = text(&pl, &pg);
            let want_map = compose(
                &left,
                &annotated(&prt, dom, Space::Logical).expect("permuted"),
            )
            .expect("composable");
            check(&Case {
                map: got.clone(),
                model: Model::Composite(Box::new(lm.clone()), Box::new(Model::Leaves(pl))),
                what: format!("#{case} {defs} permute {perm:?}"),
            });
            for i in 0..total {
                assert_eq!(got.eval_index(i), want_map.eval_index(i), "#{case}");
            }
            for by_mode in [false, true] {
                assert_eq!(
                    decide(&got, by_mode),
                    decide(&want_map, by_mode),
                    "#{case} {defs} permute {perm:?}"
                );
            }
            permuted += 1;
        }
        // Flattened: the right operand's leaves, flat.
        let got = evaluate_text(&format!("{defs} flatten(compose(L, R))"))
            .unwrap_or_else(|err| panic!("#{case} {defs} flatten: {err:?}"));
        check(&Case {
            map: got.clone(),
            model: Model::Composite(Box::new(lm), Box::new(Model::Leaves(leaves.clone()))),
            what: format!("#{case} {defs} flatten"),
        });
        assert_eq!(got.domain_entry_sizes().len(), leaves.len(), "#{case} flat");
    }
    assert!(permuted > 100, "{permuted}");
}

//! `Map::offset_range` is exact: against brute-force enumeration by an evaluator written here
//! (flat leaves, last fastest; the swizzle formula; composition by table lookup; restriction by
//! fixing digits) over random layouts, swizzles, composites and restrictions, and against
//! extremes derived by hand for domains past every enumeration limit.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use layout_core::{
    Annotated, Error, Map, RANGE_ENUMERATION_LIMIT, RANGE_SEARCH_LIMIT, Space, Swizzle, SwizzleUnit,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// A flat layout as the test sees it: top-level entries, each a list of (size, stride) leaves
/// (stride 0 = broadcast), slowest first.
#[derive(Clone, Debug)]
struct Flat {
    entries: Vec<Vec<(i64, i64)>>,
}

impl Flat {
    fn text(&self) -> String {
        let entry = |e: &Vec<(i64, i64)>, f: &dyn Fn(&(i64, i64)) -> String| {
            if e.len() == 1 {
                f(&e[0])
            } else {
                format!("({})", e.iter().map(f).collect::<Vec<_>>().join(","))
            }
        };
        let shape: Vec<String> = self
            .entries
            .iter()
            .map(|e| entry(e, &|l| l.0.to_string()))
            .collect();
        let stride: Vec<String> = self
            .entries
            .iter()
            .map(|e| {
                entry(e, &|l| {
                    if l.1 == 0 {
                        "_".into()
                    } else {
                        l.1.to_string()
                    }
                })
            })
            .collect();
        format!("({}):({})", shape.join(","), stride.join(","))
    }
    fn leaves(&self) -> Vec<(i64, i64)> {
        self.entries.iter().flatten().copied().collect()
    }
    fn size(&self) -> i64 {
        self.leaves().iter().map(|l| l.0).product()
    }
    fn entry_size(&self, e: usize) -> i64 {
        self.entries[e].iter().map(|l| l.0).product()
    }
    /// Every value at flat indices 0.., last leaf fastest.
    fn values(&self) -> Vec<i64> {
        let mut out = vec![0i64];
        for &(n, d) in &self.leaves() {
            out = out
                .iter()
                .flat_map(|&v| (0..n).map(move |c| v + c * d))
                .collect();
        }
        out
    }
    fn map(&self, domain: Space, codomain: Space) -> Map {
        Annotated::new(self.text().parse().expect("layout"), domain, codomain)
            .expect("annotation")
            .into()
    }
}

fn swizzle_value(b: u32, src: u32, dst: u32, x: i64) -> i64 {
    x ^ (((x >> src) & ((1i64 << b) - 1)) << dst)
}

fn random_flat(rng: &mut Rng, positive: bool) -> Flat {
    let entries = (0..rng.range(1, 3))
        .map(|_| {
            (0..rng.range(1, 2))
                .map(|_| {
                    let n = rng.range(1, 5);
                    let d = if rng.below(8) == 0 {
                        0
                    } else if positive {
                        rng.range(1, 40)
                    } else {
                        let d = rng.range(1, 40);
                        if rng.below(3) == 0 { -d } else { d }
                    };
                    (n, d)
                })
                .collect()
        })
        .collect();
    Flat { entries }
}

/// A random swizzle whose fields lie in bits 0..8.
fn random_swizzle(rng: &mut Rng) -> (u32, u32, u32) {
    loop {
        let b = rng.range(1, 3) as u32;
        let src = rng.range(0, 7) as u32;
        let dst = rng.range(0, 7) as u32;
        if src.abs_diff(dst) >= b {
            return (b, src, dst);
        }
    }
}

fn extremes(values: &[i64]) -> (i64, i64) {
    (
        *values.iter().min().expect("values"),
        *values.iter().max().expect("values"),
    )
}

/// A random dense bijection onto `0..n` as a flat layout of thread-value -> logical: the prime
/// factors of n in random groups and order, strides the running products.
fn random_bijection(rng: &mut Rng, n: i64) -> Flat {
    let mut factors = Vec::new();
    let mut rest = n;
    for p in [2i64, 3, 5, 7] {
        while rest % p == 0 {
            factors.push(p);
            rest /= p;
        }
    }
    if rest > 1 {
        factors.push(rest);
    }
    let mut sizes: Vec<i64> = Vec::new();
    for f in factors {
        match sizes.last_mut() {
            Some(last) if rng.below(2) == 0 => *last *= f,
            _ => sizes.push(f),
        }
    }
    if sizes.is_empty() {
        sizes.push(1);
    }
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut strides = vec![0i64; sizes.len()];
    let mut w = 1;
    for &i in &order {
        strides[i] = w;
        w *= sizes[i];
    }
    Flat {
        entries: sizes.into_iter().zip(strides).map(|l| vec![l]).collect(),
    }
}

/// Fixes entry `entry` to `value` in `values` (flat over `flat`'s entries, last fastest).
fn restricted_values(flat: &Flat, values: &[i64], entry: usize, value: i64) -> Vec<i64> {
    let sizes: Vec<i64> = (0..flat.entries.len())
        .map(|e| flat.entry_size(e))
        .collect();
    let inner: i64 = sizes[entry + 1..].iter().product();
    (0..values.len() as i64)
        .filter(|i| (i / inner) % sizes[entry] == value)
        .map(|i| values[i as usize])
        .collect()
}

/// Layouts, with negative and broadcast strides: the sums of per-mode extremes.
#[test]
fn layouts_and_restrictions_of_layouts() {
    let mut rng = Rng(1);
    let mut restricted = 0;
    for _ in 0..400 {
        let flat = random_flat(&mut rng, false);
        let Ok(map) = Annotated::new(
            flat.text().parse().expect("layout"),
            Space::Logical,
            Space::Physical,
        ) else {
            continue; // aliasing
        };
        let map: Map = map.into();
        let values = flat.values();
        assert_eq!(map.offset_range(), Ok(extremes(&values)), "{}", flat.text());
        let entry = rng.below(flat.entries.len() as u64) as usize;
        let value = rng.range(0, flat.entry_size(entry) - 1);
        let r = map.restrict(&[(entry, value)]).expect("restricts");
        let expected = extremes(&restricted_values(&flat, &values, entry, value));
        assert_eq!(
            r.offset_range(),
            Ok(expected),
            "{} | {entry} = {value}",
            flat.text()
        );
        restricted += 1;
    }
    assert!(restricted > 250, "only {restricted} alias-free layouts");
}

/// Swizzles after layouts, composites and restrictions, and restrictions of swizzled maps.
#[test]
fn swizzled_maps() {
    let mut rng = Rng(2);
    let mut counts = [0usize; 4];
    for _ in 0..600 {
        let flat = random_flat(&mut rng, true);
        let Ok(a) = Annotated::new(
            flat.text().parse().expect("layout"),
            Space::Logical,
            Space::Physical,
        ) else {
            continue;
        };
        let base: Map = a.into();
        let (b, src, dst) = random_swizzle(&mut rng);
        let sw = Swizzle::new(b, src, dst).expect("disjoint fields");
        let values = flat.values();
        let swizzled: Vec<i64> = values
            .iter()
            .map(|&x| swizzle_value(b, src, dst, x))
            .collect();
        let m = base.clone().swizzle(sw).expect("physical");
        assert_eq!(
            m.offset_range(),
            Ok(extremes(&swizzled)),
            "{} {sw}",
            flat.text()
        );
        counts[0] += 1;

        // Restriction of the swizzled map, and swizzle of the restriction.
        let entry = rng.below(flat.entries.len() as u64) as usize;
        let value = rng.range(0, flat.entry_size(entry) - 1);
        let expected = extremes(&restricted_values(&flat, &swizzled, entry, value));
        let r = m.restrict(&[(entry, value)]).expect("restricts");
        assert_eq!(
            r.offset_range(),
            Ok(expected),
            "{} {sw} | {entry}={value}",
            flat.text()
        );
        let rs = base
            .restrict(&[(entry, value)])
            .expect("restricts")
            .swizzle(sw)
            .expect("physical");
        assert_eq!(rs.offset_range(), Ok(expected));
        counts[1] += 1;

        // A composite: the swizzled map after a random dense bijection, then restricted.
        let n = flat.size();
        let right = random_bijection(&mut rng, n);
        let rmap = right.map(Space::ThreadValue, Space::Logical);
        let composite = layout_core::compose(&m, &rmap).expect("sizes");
        let rvalues = right.values();
        let composed: Vec<i64> = rvalues.iter().map(|&i| swizzled[i as usize]).collect();
        assert_eq!(composite.offset_range(), Ok(extremes(&composed)));
        counts[2] += 1;
        let entry = rng.below(right.entries.len() as u64) as usize;
        let value = rng.range(0, right.entry_size(entry) - 1);
        let expected = extremes(&restricted_values(&right, &composed, entry, value));
        let r = composite.restrict(&[(entry, value)]).expect("restricts");
        assert_eq!(
            r.offset_range(),
            Ok(expected),
            "{} {sw} ∘ {}",
            flat.text(),
            right.text()
        );
        // The same composite without the swizzle, restricted (decided to be a layout or not).
        let plain = layout_core::compose(&base, &rmap).expect("sizes");
        let plain_values: Vec<i64> = rvalues.iter().map(|&i| values[i as usize]).collect();
        let expected = extremes(&restricted_values(&right, &plain_values, entry, value));
        let r = plain.restrict(&[(entry, value)]).expect("restricts");
        assert_eq!(r.offset_range(), Ok(expected));
        counts[3] += 1;
    }
    assert!(
        counts.iter().all(|&c| c > 300),
        "cases per kind: {counts:?}"
    );
}

/// Past 2^24 positions: a swizzle whose source bits only vary past flat index 2^24 (the
/// largest offset there is derived bit by bit), and a padded swizzled tile enumerated here
/// with plain loops.
#[test]
fn domains_past_the_enumeration_limits() {
    let tile: Map = Annotated::new(
        "(8192,4096):(4096,1)".parse().expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("annotation")
    .into();
    // Offsets are 0..2^25; σ copies bits 21..=24 onto bits 28..=31, which are 0. The largest
    // value has every bit 0..=24 set and therefore bits 28..=31 too; the smallest is σ(0) = 0.
    let s = tile
        .clone()
        .swizzle(Swizzle::new(4, 21, 28).expect("fields"))
        .expect("physical");
    let max = ((1i64 << 25) - 1) | (0b1111 << 28);
    assert_eq!(s.offset_range(), Ok((0, max)));
    // A CuTe 128-byte swizzle permutes each aligned 1024-block: the range stays [0, 2^25).
    let s = tile
        .swizzle(Swizzle::from_cute(3, 4, 3, SwizzleUnit::Elements).expect("fields"))
        .expect("physical");
    assert_eq!(s.offset_range(), Ok((0, (1 << 25) - 1)));

    // Padded rows (stride 4100) and a swizzle reading bits above the row: enumerate.
    let padded: Map = Annotated::new(
        "(8192,4096):(4100,1)".parse().expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("annotation")
    .into();
    let (b, src, dst) = (3, 13, 2);
    let s = padded
        .swizzle(Swizzle::new(b, src, dst).expect("fields"))
        .expect("physical");
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for r in 0..8192i64 {
        for c in 0..4096i64 {
            let v = swizzle_value(b, src, dst, r * 4100 + c);
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    assert_eq!(s.offset_range(), Ok((lo, hi)));
}

/// Larger random layouts (up to 32k positions, strides up to 5000) under swizzles anywhere in
/// bits 0..18: the branch-and-bound stays exact where many boxes tie.
#[test]
fn larger_swizzled_layouts() {
    let mut rng = Rng(3);
    let mut checked = 0;
    for _ in 0..150 {
        let flat = Flat {
            entries: (0..rng.range(2, 3))
                .map(|_| vec![(rng.range(2, 32), rng.range(1, 5000))])
                .collect(),
        };
        let Ok(a) = Annotated::new(
            flat.text().parse().expect("layout"),
            Space::Logical,
            Space::Physical,
        ) else {
            continue;
        };
        let (b, src, dst) = loop {
            let b = rng.range(1, 6) as u32;
            let (src, dst) = (rng.range(0, 12) as u32, rng.range(0, 12) as u32);
            if src.abs_diff(dst) >= b {
                break (b, src, dst);
            }
        };
        let m = Map::from(a)
            .swizzle(Swizzle::new(b, src, dst).expect("fields"))
            .expect("physical");
        let values: Vec<i64> = flat
            .values()
            .iter()
            .map(|&x| swizzle_value(b, src, dst, x))
            .collect();
        assert_eq!(
            m.offset_range(),
            Ok(extremes(&values)),
            "{} b={b} src={src} dst={dst}",
            flat.text()
        );
        checked += 1;
    }
    assert!(checked > 100, "only {checked} alias-free layouts");
}

/// Where the search would need more than its limit it says so, naming the limit, and the
/// containing bounds still contain every value (enumerated here).
#[test]
fn the_search_limit_is_an_error() {
    // σ copies the low 20 bits of 3·i to bits 30..50: the largest value needs the largest low
    // part among multiples of 3, which interval bounds cannot separate.
    let map: Map = Annotated::new(
        "1048576:3".parse().expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("annotation")
    .into();
    let s = map
        .swizzle(Swizzle::new(20, 0, 30).expect("fields"))
        .expect("physical");
    assert_eq!(
        s.offset_range(),
        Err(Error::RangeUndecided {
            size: 1 << 20,
            limit: RANGE_SEARCH_LIMIT
        })
    );
    let values: Vec<i64> = (0..1i64 << 20)
        .map(|i| swizzle_value(20, 0, 30, 3 * i))
        .collect();
    let (lo, hi) = extremes(&values);
    let (blo, bhi) = s.offset_bounds();
    assert!(blo <= lo && hi <= bhi, "[{blo}, {bhi}] misses [{lo}, {hi}]");
}

/// A map of at most `RANGE_ENUMERATION_LIMIT` positions whose swizzle the search does not
/// settle within its limit is enumerated: exact, never an error (both cases failed with
/// `RangeUndecided` before).
#[test]
fn small_maps_the_search_does_not_settle_are_enumerated() {
    // 134,082 positions; σ reads bits 7..9 and writes bits 33..35.
    let map: Map = Annotated::new(
        "(117,191,6):(1024,2,1048576)".parse().expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("annotation")
    .into();
    let s = map
        .swizzle(Swizzle::new(2, 7, 33).expect("fields"))
        .expect("physical");
    let mut values = Vec::new();
    for i in 0..117i64 {
        for j in 0..191i64 {
            for k in 0..6i64 {
                values.push(swizzle_value(2, 7, 33, i * 1024 + j * 2 + k * 1_048_576));
            }
        }
    }
    assert_eq!(s.offset_range(), Ok(extremes(&values)));
    // The shape of the search-limit case, at the enumeration limit: 2^18 multiples of 3 whose
    // low 18 bits are copied to bits 30..48.
    let n = RANGE_ENUMERATION_LIMIT;
    let map: Map = Annotated::new(
        format!("{n}:3").parse().expect("layout"),
        Space::Logical,
        Space::Physical,
    )
    .expect("annotation")
    .into();
    let s = map
        .swizzle(Swizzle::new(18, 0, 30).expect("fields"))
        .expect("physical");
    let values: Vec<i64> = (0..n).map(|i| swizzle_value(18, 0, 30, 3 * i)).collect();
    assert_eq!(s.offset_range(), Ok(extremes(&values)));
}

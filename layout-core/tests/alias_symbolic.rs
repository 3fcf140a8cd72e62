//! `is_alias_free` decides symbolically where the structure allows and fails fast elsewhere:
//! against brute force (every coordinate's offset, compared here) on random small layouts, and
//! on layouts far past the enumeration limits whose answer is derived here by hand.

// Test code is exempt from the checked-arithmetic lints of the workspace: an overflow or a
// failed cast in a test panics, which fails the test.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use layout_core::{
    ALIAS_ENUMERATION_LIMIT, ALIAS_SORT_LIMIT, Error, Layout, check_alias_free, is_alias_free,
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
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// Flat (size, stride) leaves, stride 0 = broadcast; text in seed notation with one level of
/// nesting when `nest` is set.
fn text(leaves: &[(i64, i64)], nest: bool) -> String {
    let st = |d: i64| {
        if d == 0 {
            "_".to_string()
        } else {
            d.to_string()
        }
    };
    if nest && leaves.len() >= 2 {
        let (a, b) = leaves.split_at(leaves.len() / 2);
        let group = |g: &[(i64, i64)], f: &dyn Fn(&(i64, i64)) -> String| {
            let v: Vec<String> = g.iter().map(f).collect();
            if v.len() == 1 {
                v[0].clone()
            } else {
                format!("({})", v.join(","))
            }
        };
        format!(
            "({},{}):({},{})",
            group(a, &|l| l.0.to_string()),
            group(b, &|l| l.0.to_string()),
            group(a, &|l| st(l.1)),
            group(b, &|l| st(l.1))
        )
    } else {
        let s: Vec<String> = leaves.iter().map(|l| l.0.to_string()).collect();
        let d: Vec<String> = leaves.iter().map(|l| st(l.1)).collect();
        format!("({}):({})", s.join(","), d.join(","))
    }
}

/// Offsets at every flat index (last leaf fastest), and whether two indices that differ
/// outside broadcast modes share an offset.
fn brute(leaves: &[(i64, i64)]) -> (Vec<i64>, bool) {
    let mut values = vec![(0i64, Vec::<i64>::new())];
    for &(n, d) in leaves {
        values = values
            .iter()
            .flat_map(|(v, c)| {
                (0..n).map(move |x| {
                    let mut c = c.clone();
                    if d != 0 {
                        c.push(x);
                    }
                    (v + x * d, c)
                })
            })
            .collect();
    }
    let mut seen: HashMap<i64, Vec<i64>> = HashMap::new();
    let mut free = true;
    for (v, c) in &values {
        if let Some(prev) = seen.get(v) {
            if prev != c {
                free = false;
            }
        } else {
            seen.insert(*v, c.clone());
        }
    }
    (values.into_iter().map(|(v, _)| v).collect(), free)
}

#[test]
fn equals_brute_force_on_random_small_layouts() {
    let mut rng = Rng(7);
    let (mut free, mut aliasing) = (0, 0);
    for case in 0..4000 {
        let rank = rng.range(1, 5) as usize;
        let leaves: Vec<(i64, i64)> = (0..rank)
            .map(|_| {
                let n = rng.range(1, 6);
                let d = match rng.range(0, 9) {
                    0 => 0,
                    1 => -rng.range(1, 30),
                    // Structured strides: products of earlier sizes, plus padding.
                    2..=4 => {
                        let base: i64 = (1..=rng.range(1, 3)).map(|_| rng.range(1, 6)).product();
                        base + rng.range(0, 2)
                    }
                    _ => rng.range(1, 60),
                };
                (n, d)
            })
            .collect();
        let t = text(&leaves, case % 2 == 0);
        let l: Layout = t.parse().unwrap_or_else(|e| panic!("{t}: {e}"));
        let (values, expected) = brute(&leaves);
        assert_eq!(is_alias_free(&l), Ok(expected), "{t}");
        match check_alias_free(&l) {
            Ok(()) => free += 1,
            Err(Error::Aliasing {
                first,
                second,
                offset,
                ..
            }) => {
                aliasing += 1;
                assert_ne!(first, second, "{t}");
                assert_eq!(values[first as usize], offset, "{t}");
                assert_eq!(values[second as usize], offset, "{t}");
            }
            Err(e) => panic!("{t}: {e:?}"),
        }
    }
    assert!(
        free > 1000 && aliasing > 1000,
        "free {free}, aliasing {aliasing}"
    );
}

fn timed(t: &str) -> (Result<bool, Error>, Duration) {
    let l: Layout = t.parse().unwrap_or_else(|e| panic!("{t}: {e}"));
    let start = Instant::now();
    let r = is_alias_free(&l);
    (r, start.elapsed())
}

/// Layouts far past the enumeration limits (2^30 coordinates and more) that neither fast
/// test decides: the reduction does. Each answer is derived beside it.
#[test]
fn structured_layouts_past_the_limits_are_decided() {
    let cases: &[(&str, bool)] = &[
        // 5a + 7b + x (a < 3, b < 2, x < 2) takes 12 distinct values in 0..=18, and the
        // 2^30-long mode of stride 64 > 18 repeats them without overlap.
        ("(1073741824,3,2,2):(64,5,7,1)", true),
        // The same nested and scaled by 3 (every offset times 3): still distinct.
        ("((1073741824,3),(2,2)):((192,15),(21,3))", true),
        // With x < 3: 7 = 5 + 2 collides.
        ("(1073741824,3,2,3):(64,5,7,1)", false),
        // Rows of 3 (stride 1) inside rows of width 4 padded to 4 with a 2^40 mode on top:
        // 4a + x with x < 3 never meets 4a' + x' unless equal; then 5b + ... see below.
        ("(1048576,1048576,3):(1099511627776,4,1)", true),
        // A stride-1 run of 5 inside a pitch of 4: offset 4 = 1·4 = 4·1.
        ("(1048576,1048576,5):(1099511627776,4,1)", false),
        // Strides 6, 10, 15 over big sizes: 10·3 = 15·2 collides (pair test).
        ("(1000000,1000000,1000000):(6,10,15)", false),
    ];
    for &(t, expected) in cases {
        let (r, elapsed) = timed(t);
        assert_eq!(r, Ok(expected), "{t}");
        assert!(elapsed < Duration::from_millis(100), "{t}: {elapsed:?}");
    }
    // The witnesses point at two coordinates with one offset, computed here.
    for t in [
        "(1073741824,3,2,3):(64,5,7,1)",
        "(1048576,1048576,5):(1099511627776,4,1)",
    ] {
        let l: Layout = t.parse().expect("layout");
        let leaves: Vec<(i64, i64)> = l
            .modes()
            .iter()
            .map(|m| (m.size, m.stride.value()))
            .collect();
        let eval = |mut i: i64| {
            let mut v = 0;
            for &(n, d) in leaves.iter().rev() {
                v += (i % n) * d;
                i /= n;
            }
            v
        };
        match check_alias_free(&l) {
            Err(Error::Aliasing {
                first,
                second,
                offset,
                ..
            }) => {
                assert_ne!(first, second);
                assert_eq!((eval(first), eval(second)), (offset, offset), "{t}");
            }
            other => panic!("{t}: {other:?}"),
        }
    }
}

/// Where no rule applies, the enumeration is bounded: an answer or `AliasUndecided`, fast.
#[test]
fn unstructured_layouts_fail_fast() {
    // Three unrelated strides over 2^30 coordinates: no rule applies, and the enumeration
    // would pass its limit.
    let t = "(1024,1024,1024):(7000001,11000003,13000027)";
    let (r, elapsed) = timed(t);
    assert_eq!(
        r,
        Err(Error::AliasUndecided {
            size: 1 << 30,
            range: 1023 * (7000001 + 11000003 + 13000027) + 1
        })
    );
    assert!(elapsed < Duration::from_millis(100), "{t}: {elapsed:?}");
    // 2^20 coordinates over a range past the bitset: decided from the differences of the two
    // smaller modes (a collision needs 1000003·a + 1000033·b + 1000037·c = 0, so a + b + c = 0
    // and 30·b + 34·c = 0: b = 17, c = −15, a = −2 collides). The brute force is the judge.
    let t = "(128,128,64):(1000003,1000033,1000037)";
    let (r, elapsed) = timed(t);
    let expected = brute(&[(128, 1000003), (128, 1000033), (64, 1000037)]).1;
    assert_eq!(r, Ok(expected), "{t}");
    assert!(elapsed < Duration::from_millis(100), "{t}: {elapsed:?}");
    // Where the differences are too many too (twenty modes of size 2 with unrelated strides),
    // the coordinates are walked up to the limit, else the error names it, quickly.
    let strides: Vec<i64> = (0..20).map(|k| 1_000_003 + 7919 * k * k).collect();
    let text = |k: usize| {
        let s = vec!["2"; k].join(",");
        let d: Vec<String> = strides[..k].iter().map(i64::to_string).collect();
        format!("({s}):({})", d.join(","))
    };
    let (r, elapsed) = timed(&text(20));
    assert_eq!(
        r,
        Err(Error::AliasUndecided {
            size: 1 << 20,
            range: strides.iter().sum::<i64>() + 1
        })
    );
    assert!(elapsed < Duration::from_millis(100), "{elapsed:?}");
    const { assert!(1 << 20 > ALIAS_SORT_LIMIT && (1 << 20) > ALIAS_ENUMERATION_LIMIT) };
    let small = text(14);
    let (r, elapsed) = timed(&small);
    let leaves: Vec<(i64, i64)> = strides[..14].iter().map(|&d| (2, d)).collect();
    assert_eq!(r, Ok(brute(&leaves).1), "{small}");
    assert!(elapsed < Duration::from_millis(100), "{small}: {elapsed:?}");
    // Two modes are always decided exactly (pair test), whatever their size.
    let l: Layout = "(4096,4096):(4097,4095)".parse().expect("layout");
    assert_eq!(
        is_alias_free(&l),
        Ok(true),
        "4097a = -4095b needs |b| >= 4097"
    );
    let l: Layout = "(2048,2048,2048):(3,5,7)".parse().expect("layout");
    assert_eq!(is_alias_free(&l), Ok(false), "3·5 = 5·3");
}

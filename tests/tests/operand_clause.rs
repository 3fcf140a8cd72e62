//! The `tma box` clause of a declaration accepts exactly the tiles that some tiled tensor map
//! writes: checked against a brute force written here (every order of the tile's entries as
//! the box's dimensions, every swizzle, the box limits, the image at every position) over
//! sampled row-major tiles of 1 to 3 entries, padded or not, swizzled or not, of 1-, 2- and
//! 4-byte elements. And the `wgmma` clause refuses exactly what `gmma::descriptor` refuses,
//! at the clause.

use layout_core::Error;
use layout_core::expr::{self, Options};

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// The errors of checking one declaration.
fn check(text: &str) -> Vec<Error> {
    let d = expr::parse_decl(text, &Options::default()).unwrap_or_else(|l| {
        panic!("{text}: {:?}", l.error);
    });
    let (_, errs) = expr::check_decl(&d);
    errs.into_iter().map(|l| l.error).collect()
}

/// CuTe's `Swizzle<b,4,3>` on a byte address (the same bits as a tensor map's swizzle).
fn swizzle_bytes(bytes: i64, b: u32) -> i64 {
    let mask = (1i64 << b) - 1;
    bytes ^ (((bytes >> 7) & mask) << 4)
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// The seed-order coordinates of a shape (last entry fastest), in flat-index order.
fn coordinates(sizes: &[i64]) -> Vec<Vec<i64>> {
    let total: i64 = sizes.iter().product();
    (0..total)
        .map(|mut i| {
            let mut c = vec![0; sizes.len()];
            for m in (0..sizes.len()).rev() {
                c[m] = i % sizes[m];
                i /= sizes[m];
            }
            c
        })
        .collect()
}

/// Whether a tiled tensor map writes `offset` (element offsets per coordinate): some order of
/// the entries as box dimensions (innermost first) and some swizzle whose limits hold and
/// whose image is `offset` everywhere.
fn some_tensor_map_writes(sizes: &[i64], eb: i64, offset: &dyn Fn(&[i64]) -> i64) -> bool {
    let coords = coordinates(sizes);
    permutations(sizes.len()).into_iter().any(|order| {
        let dims: Vec<i64> = order.iter().map(|&m| sizes[m]).collect();
        if dims.iter().any(|&d| !(1..=256).contains(&d)) || (dims[0] * eb) % 16 != 0 {
            return false;
        }
        (0..4u32).any(|b| {
            if b > 0 && dims[0] * eb > 16 << b {
                return false;
            }
            coords.iter().all(|c| {
                let mut linear = 0;
                for (d, &m) in order.iter().enumerate().rev() {
                    linear = linear * dims[d] + c[m];
                }
                swizzle_bytes(linear * eb, b) / eb == offset(c)
            })
        })
    })
}

#[test]
fn tma_box_clause_accepts_exactly_what_a_tensor_map_writes() {
    let mut rng = Lcg(0x5eed_0b0c);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..600 {
        let eb = [1i64, 2, 4][rng.below(3) as usize];
        let rank = 1 + rng.below(3) as usize;
        let sizes: Vec<i64> = (0..rank)
            .map(|_| [1i64, 2, 4, 8, 16, 32, 64, 128][rng.below(8) as usize])
            .collect();
        if sizes.iter().product::<i64>() > 4096 {
            continue;
        }
        // Row-major in a random order of the entries, the second dimension maybe padded.
        let order =
            &permutations(rank)[rng.below(if rank == 3 { 6 } else { rank as u64 }) as usize];
        let pad = [0i64, 0, 1, 16 / eb][rng.below(4) as usize];
        let mut strides = vec![0i64; rank];
        let mut next = 1;
        for (d, &m) in order.iter().enumerate() {
            strides[m] = next;
            next = next * sizes[m] + if d == 0 { pad * next } else { 0 };
        }
        let b = rng.below(4) as u32;
        let bits = eb * 8;
        let layout = if rank == 1 {
            format!("{}:{}", sizes[0], strides[0])
        } else {
            let s: Vec<String> = sizes.iter().map(i64::to_string).collect();
            let d: Vec<String> = strides.iter().map(i64::to_string).collect();
            format!("({}):({})", s.join(","), d.join(","))
        };
        let text = if b == 0 {
            format!("{layout}, logical -> physical, tma box of {bits}-bit elements")
        } else {
            format!(
                "{layout}, logical -> physical, Swizzle<{b},4,3> over bytes of {bits}-bit elements, tma box"
            )
        };
        let offset = |c: &[i64]| {
            let plain: i64 = c.iter().zip(&strides).map(|(x, s)| x * s).sum();
            swizzle_bytes(plain * eb, b) / eb
        };
        let want = some_tensor_map_writes(&sizes, eb, &offset);
        let errs = check(&text);
        // Declarations refused by another rule (a swizzle the layout's offsets cannot take)
        // say nothing about the clause.
        if errs.iter().any(|e| !e.rule().starts_with("tma")) {
            continue;
        }
        assert_eq!(errs.is_empty(), want, "{text}: {errs:?}");
        if want {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    assert!(
        accepted > 100 && refused > 100,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn wgmma_clause_refuses_what_the_descriptor_refuses() {
    use layout_core::gmma::{Major, descriptor};
    use layout_core::{Annotated, Map, Space, Swizzle, SwizzleUnit};
    // Every K- and MN-major tile of 16-bit elements over (K, MN) = (16, 64) whose core
    // matrices are laid out row-major in some order of its four modes, under each swizzle.
    let mut seen = (0, 0);
    for b in 0..4u32 {
        for order in permutations(4) {
            // Seed entries ((k1, k0), (m1, m0)) of sizes ((2, 8), (8, 8)): strides from the
            // order, the fastest first.
            let sizes = [2i64, 8, 8, 8];
            let mut strides = [0i64; 4];
            let mut next = 1;
            for &m in &order {
                strides[m] = next;
                next *= sizes[m];
            }
            let layout = format!(
                "((2,8),(8,8)):(({},{}),({},{}))",
                strides[0], strides[1], strides[2], strides[3]
            );
            let swizzle = if b == 0 {
                String::new()
            } else {
                format!(", Swizzle<{b},4,3> over bytes of 16-bit elements")
            };
            for (major, word) in [(Major::K, "K"), (Major::MN, "MN")] {
                let text = format!(
                    "{layout}, logical -> physical{swizzle}, wgmma {word}-major of 16-bit elements"
                );
                let errs = check(&text);
                let plain: Map =
                    Annotated::new(layout.parse().unwrap(), Space::Logical, Space::Physical)
                        .unwrap()
                        .into();
                let map = if b == 0 {
                    plain
                } else {
                    let s = Swizzle::from_cute(
                        i64::from(b),
                        4,
                        3,
                        SwizzleUnit::Bytes { elem_bits: 16 },
                    )
                    .unwrap();
                    plain.swizzle(s).unwrap()
                };
                match descriptor(&map, 2, major, 0) {
                    Ok(_) => {
                        assert!(errs.is_empty(), "{text}: {errs:?}");
                        seen.0 += 1;
                    }
                    Err(e) => {
                        assert_eq!(errs, vec![e], "{text}");
                        seen.1 += 1;
                    }
                }
            }
        }
    }
    // The dense orders include interleaved tiles of both major-nesses, 32-byte-swizzled
    // K-major and 128-byte-swizzled MN-major ones.
    assert!(seen.0 >= 4 && seen.1 > 100, "{seen:?}");
}

/// A tile too small to reach a swizzle's higher address bits has the same image under a wider
/// swizzle: a 32-byte swizzle of 128-byte rows is refused only if no wider one writes it.
#[test]
fn a_wider_swizzle_with_the_same_image_is_taken() {
    use layout_core::tma::{TmaSwizzle, tensor_map};
    use layout_core::{Annotated, Layout, Map, Space, Swizzle, SwizzleUnit};
    // Two rows of 32 floats (256 bytes): only address bit 7 is ever set above bit 6.
    let global = Layout::from_cute("(2,32):(32,1)").unwrap();
    let tile: Map = Annotated::new(
        "(32,2):(1,32)".parse().unwrap(),
        Space::Logical,
        Space::Physical,
    )
    .unwrap()
    .into();
    let narrow = Swizzle::from_cute(1, 4, 3, SwizzleUnit::Bytes { elem_bits: 32 }).unwrap();
    let t = tensor_map(&global, &tile.swizzle(narrow).unwrap(), 4).unwrap();
    assert_eq!(t.swizzle, TmaSwizzle::B128);
    assert_eq!(t.box_dims, vec![32, 2]);
    // Four rows reach bit 8, where the 128-byte swizzle differs: the span is refused.
    let tall: Map = Annotated::new(
        "(32,4):(1,32)".parse().unwrap(),
        Space::Logical,
        Space::Physical,
    )
    .unwrap()
    .into();
    let global = Layout::from_cute("(4,32):(32,1)").unwrap();
    assert_eq!(
        tensor_map(&global, &tall.swizzle(narrow).unwrap(), 4),
        Err(layout_core::Error::TmaSwizzleSpan {
            bytes: 128,
            span: 32
        })
    );
}

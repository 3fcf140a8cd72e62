//! The offset range of a swizzled layout is exact at every size: `MIN_OFFSET`, `MAX_OFFSET`
//! and `COSIZE` of `layout!(.., swizzle(..))` (and of a swizzle in an algebra expression) equal
//! the least and greatest `σ(L(c))` found by enumerating every coordinate here, including
//! layouts past 2^16 coordinates and swizzles that read bits no offset reaches; a `View` over
//! a buffer of exactly `COSIZE` elements is accepted and one element less is refused.
//!
//! The layout and the swizzle are written out here (`Σ cᵢ·dᵢ`, then
//! `x ^ (((x >> src) & (2^b − 1)) << dst)`), not taken from `layout-core`.

use layout_typed::{Layout, View, layout};

/// The least and greatest swizzled offset over every coordinate of `sizes:strides` (flat
/// leaves; a broadcast stride is 0).
fn brute(sizes: &[i64], strides: &[i64], b: u32, src: u32, dst: u32) -> (i64, i64) {
    let mask = (1i64 << b) - 1;
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    let mut c = vec![0i64; sizes.len()];
    loop {
        let x: i64 = c.iter().zip(strides).map(|(c, d)| c * d).sum();
        let y = x ^ (((x >> src) & mask) << dst);
        lo = lo.min(y);
        hi = hi.max(y);
        let mut k = sizes.len();
        loop {
            if k == 0 {
                return (lo, hi);
            }
            k -= 1;
            c[k] += 1;
            if c[k] < sizes[k] {
                break;
            }
            c[k] = 0;
        }
    }
}

/// Asserts the exact range, the cosize, and that a buffer of exactly `COSIZE` bytes suffices.
fn check<L: Layout<Codomain = layout_typed::SwizzledPhysicalSpace> + Copy>(
    l: L,
    sizes: &[i64],
    strides: &[i64],
    sw: (u32, u32, u32),
    what: &str,
) {
    let (lo, hi) = brute(sizes, strides, sw.0, sw.1, sw.2);
    assert_eq!((L::MIN_OFFSET, L::MAX_OFFSET), (lo, hi), "{what}: range");
    let cosize = usize::try_from(hi + 1).expect("non-negative");
    assert_eq!(L::COSIZE, cosize, "{what}: COSIZE");
    assert_eq!(l.cosize(), cosize, "{what}: cosize()");
    assert!(
        View::try_new(&vec![0u8; cosize][..], l).is_ok(),
        "{what}: a buffer of exactly COSIZE elements"
    );
    assert!(
        View::try_new(&vec![0u8; cosize - 1][..], l).is_err(),
        "{what}: one element short"
    );
}

macro_rules! case {
    ($s:tt : $d:tt, [$($n:expr),*], [$($st:expr),*], $b:tt, $src:tt, $dst:tt) => {
        check(
            layout!($s:$d, logical -> physical, swizzle(b = $b, src = $src, dst = $dst)),
            &[$($n),*],
            &[$($st),*],
            ($b, $src, $dst),
            stringify!($s:$d, $b, $src, $dst),
        )
    };
}

#[test]
fn examples() {
    // 2^17 coordinates; the swizzle moves bit 9 to bit 7.
    let l = layout!((256,512):(1024,1), logical -> physical, swizzle(b = 1, src = 9, dst = 7));
    check(l, &[256, 512], &[1024, 1], (1, 9, 7), "(256,512):(1024,1)");
    assert_eq!(l.cosize(), 261_632);
    // The swizzle reads bit 40, which no offset reaches: the identity on the image.
    let l = layout!((512,256):(256,1), logical -> physical, swizzle(b = 1, src = 40, dst = 0));
    check(l, &[512, 256], &[256, 1], (1, 40, 0), "(512,256):(256,1)");
    assert_eq!(l.cosize(), 131_072);
}

#[test]
fn algebra_results() {
    let l = layout!(swizzle([(256,512):(1024,1), logical -> physical], b = 1, src = 9, dst = 7));
    check(
        l,
        &[256, 512],
        &[1024, 1],
        (1, 9, 7),
        "swizzle of a declaration",
    );
    // A divide re-indexes the domain: the same offsets, so the same range.
    let l = layout!(swizzle(
        divide([(256,512):(512,1), logical -> physical], (16, 32)),
        b = 3, src = 13, dst = 2
    ));
    check(
        l,
        &[256, 512],
        &[512, 1],
        (3, 13, 2),
        "swizzle of an operation's result",
    );
    let l = layout!(swizzle(
        divide([(512,256):(256,1), logical -> physical], (8, 64)),
        b = 1, src = 40, dst = 0
    ));
    check(
        l,
        &[512, 256],
        &[256, 1],
        (1, 40, 0),
        "a swizzle past every offset's bits",
    );
}

/// Random declarations (drawn once with a fixed seed; every third one past 2^16 coordinates),
/// nested and flat, with broadcasts, and swizzles reading bits past every offset.
#[test]
fn random_declarations() {
    case!((4096,24):(350,3), [4096, 24], [350, 3], 3, 8, 12);
    case!((64,32,1):(1,64,2048), [64, 32, 1], [1, 64, 2048], 2, 12, 20);
    case!(((3,4),64,3):((1,9),210,90), [3, 4, 64, 3], [1, 9, 210, 90], 4, 37, 10);
    case!(131072:5, [131072], [5], 4, 3, 15);
    case!(256:5, [256], [5], 1, 2, 10);
    case!(((8,6),3,128):((1,40),_,_), [8, 6, 3, 128], [1, 40, 0, 0], 4, 15, 1);
    case!(((4,16),96,16):((736,1),2944,48), [4, 16, 96, 16], [736, 1, 2944, 48], 3, 8, 15);
    case!(4:1, [4], [1], 3, 16, 12);
    case!((16,32,128):(2,31,_), [16, 32, 128], [2, 31, 0], 1, 11, 15);
    case!(((128,8),128):((1,16384),128), [128, 8, 128], [1, 16384, 128], 3, 12, 15);
    case!((64,5):(13,3), [64, 5], [13, 3], 1, 11, 19);
    case!((4,2):(3,2), [4, 2], [3, 2], 1, 9, 7);
    case!(((6,4),12,256):((36,_),1,_), [6, 4, 12, 256], [36, 0, 1, 0], 2, 42, 19);
    case!((3,12,3):(1,9,3), [3, 12, 3], [1, 9, 3], 1, 4, 17);
    case!((5,5,1,32):(2,45,18,189), [5, 5, 1, 32], [2, 45, 18, 189], 4, 42, 14);
    case!((4096,32):(1,20480), [4096, 32], [1, 20480], 1, 40, 9);
    case!(64:3, [64], [3], 4, 6, 18);
    case!((6,6):(12,1), [6, 6], [12, 1], 3, 20, 4);
    case!(((4,8),4096):((737280,5),36), [4, 8, 4096], [737280, 5, 36], 2, 15, 4);
    case!((2,32):(32,1), [2, 32], [32, 1], 3, 7, 12);
    case!(128:1, [128], [1], 4, 2, 6);
    case!(((8,128),128,2):((255,2),8160,6120), [8, 128, 128, 2], [255, 2, 8160, 6120], 3, 18, 1);
    case!(5:2, [5], [2], 4, 20, 11);
    case!(16:1, [16], [1], 1, 31, 19);
}

//! The type-level numbers of `layout!` at and just past the bounds of the aliases it names
//! instead of writing literals (`layout_core::interned`: leaf sizes to 2^12, strides to ±2^20,
//! `Size` to 2^24, `Tile2` extents to 2^12), and mixtures of aliased and literal leaves in one
//! type. Every offset (or a dense sample of a large domain) is compared with an evaluator of
//! the declared text written here (seed and CuTe order, in `i128`), for declarations, items,
//! algebra results (compose, divide, restrict, repeat, interleave, broadcast, swizzle,
//! inverse), negative strides, size-1 modes, 32-bit index types, named modes and logical tiles
//! of rank 1 to 3. The types are checked too: the same layout written in seed and in CuTe order
//! is one type, and each is the type written out with literal numbers. A layout's type, which
//! `layout!` writes through one alias per combination of spaces, access and index type, is the
//! full `Static<F, Spec<..>>` for every combination a declaration, a swizzle, an item inside a
//! function body or an algebra result reaches, and declarations that differ only in those, in
//! tiles or in mode names are different types.

// The types are written out in full on purpose: they are what the aliases must equal.
#![allow(clippy::type_complexity)]

use layout_typed::prelude::*;
use layout_typed::{
    Bcast, Dim, Exclusive, IndexType, LogicalSpace, NoTile, PhysicalSpace, ReadOnly, Size, Spec,
    Static, ThreadValueSpace, Tile1, Tile2, Tile3,
};

// ---------------------------------------------------------------------------------------------
// The evaluator of the declared text.

/// A shape:stride tree; a leaf's stride is `None` for a broadcast `_`.
#[derive(Clone, Debug)]
enum Node {
    Leaf(u128, Option<i128>),
    Tuple(Vec<Node>),
}

/// A shape or stride tree before the two are zipped.
#[derive(Clone, Debug)]
enum Half {
    Num(Option<i128>),
    Tuple(Vec<Half>),
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            cur.push(c);
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Reads one half at `t[*k..]`, skipping mode names (`name :` inside a tuple).
fn half(t: &[String], k: &mut usize) -> Half {
    if t[*k] == "(" {
        *k += 1;
        let mut items = Vec::new();
        loop {
            // A name: an identifier followed by `:` that is not a number.
            if t[*k + 1] == ":" && t[*k].parse::<i128>().is_err() && t[*k] != "_" {
                *k += 2;
            }
            items.push(half(t, k));
            let sep = &t[*k];
            *k += 1;
            match sep.as_str() {
                "," if t[*k] == ")" => {
                    *k += 1;
                    break;
                }
                "," => {}
                ")" => break,
                other => panic!("unexpected {other}"),
            }
        }
        Half::Tuple(items)
    } else if t[*k] == "_" {
        *k += 1;
        Half::Num(None)
    } else if t[*k] == "-" {
        *k += 1;
        let v: i128 = t[*k].parse().expect("a number");
        *k += 1;
        Half::Num(Some(-v))
    } else {
        let v: i128 = t[*k].parse().expect("a number");
        *k += 1;
        Half::Num(Some(v))
    }
}

fn zip(shape: Half, stride: Half) -> Node {
    match (shape, stride) {
        (Half::Num(Some(n)), Half::Num(d)) => Node::Leaf(n as u128, d),
        (Half::Tuple(a), Half::Tuple(b)) => {
            assert_eq!(a.len(), b.len());
            Node::Tuple(a.into_iter().zip(b).map(|(a, b)| zip(a, b)).collect())
        }
        other => panic!("profiles differ: {other:?}"),
    }
}

fn reverse(n: Node) -> Node {
    match n {
        Node::Tuple(v) => Node::Tuple(v.into_iter().rev().map(reverse).collect()),
        leaf => leaf,
    }
}

fn flatten(n: &Node, out: &mut Vec<(u128, i128)>) {
    match n {
        Node::Leaf(s, d) => out.push((*s, d.unwrap_or(0))),
        Node::Tuple(v) => v.iter().for_each(|c| flatten(c, out)),
    }
}

/// A layout read from its `layout!` text (`cute` reverses it): its leaves in seed order.
#[derive(Clone, Debug)]
struct Brute {
    leaves: Vec<(u128, i128)>,
}

impl Brute {
    fn parse(text: &str) -> Brute {
        let t = tokens(text);
        let mut k = 0;
        let cute = t[0] == "cute";
        if cute {
            k = 1;
        }
        let shape = half(&t, &mut k);
        assert_eq!(t[k], ":", "{text}");
        k += 1;
        let stride = half(&t, &mut k);
        let mut node = zip(shape, stride);
        if cute {
            node = reverse(node);
        }
        let mut leaves = Vec::new();
        flatten(&node, &mut leaves);
        Brute { leaves }
    }

    fn size(&self) -> u128 {
        self.leaves.iter().map(|l| l.0).product()
    }

    /// `Σ cⱼ·dⱼ` at flat index `i`, last leaf fastest.
    fn at(&self, i: u128) -> i128 {
        assert!(i < self.size());
        let (mut rest, mut acc) = (i, 0i128);
        for &(n, d) in self.leaves.iter().rev() {
            acc += (rest % n) as i128 * d;
            rest /= n;
        }
        acc
    }

    fn min_max(&self) -> (i128, i128) {
        let mut lo = 0;
        let mut hi = 0;
        for &(n, d) in &self.leaves {
            let far = (n as i128 - 1) * d;
            lo += far.min(0);
            hi += far.max(0);
        }
        (lo, hi)
    }
}

/// The flat indices checked in a domain of `n` positions: all of them up to 2^18, else both
/// ends, every power of two and a pseudo-random sample.
fn indices(n: u128) -> Vec<u128> {
    if n <= 1 << 18 {
        return (0..n).collect();
    }
    let mut v: Vec<u128> = (0..4096).chain(n - 4096..n).collect();
    let mut p = 1;
    while p < n {
        v.extend([p - 1, p, p + 1].into_iter().filter(|&x| x < n));
        p <<= 1;
    }
    let mut x: u128 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..60_000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407)
            & u64::MAX as u128;
        v.push(x % n);
    }
    v
}

fn value<L: Layout>(l: &L, i: u128) -> i128 {
    l.offset_index(i as usize).to_isize() as i128
}

/// Every offset of `l` (or the sample of `indices`) against `f`, and its size and range.
fn check_fn<L: Layout>(l: L, size: u128, f: impl Fn(u128) -> i128, what: &str) {
    assert_eq!(L::SIZE as u128, size, "{what}: SIZE");
    let mut lo = i128::MAX;
    let mut hi = i128::MIN;
    for i in indices(size) {
        let want = f(i);
        assert_eq!(value(&l, i), want, "{what}: flat index {i}");
        lo = lo.min(want);
        hi = hi.max(want);
    }
    assert!(
        L::MIN_OFFSET as i128 <= lo && hi <= L::MAX_OFFSET as i128,
        "{what}: range"
    );
}

/// A declaration against its own text: every offset, the size and the exact offset range.
fn check<L: Layout>(l: L, text: &str) {
    let b = Brute::parse(text);
    check_fn(l, b.size(), |i| b.at(i), text);
    let (lo, hi) = b.min_max();
    assert_eq!(
        (L::MIN_OFFSET as i128, L::MAX_OFFSET as i128),
        (lo, hi),
        "{text}: range"
    );
}

macro_rules! decl {
    ($($t:tt)*) => {
        check(layout!($($t)*), stringify!($($t)*))
    };
}

// ---------------------------------------------------------------------------------------------
// Declarations at and past every bound.

#[test]
fn declarations_at_and_past_the_bounds() {
    // Leaf sizes: 4096 has an alias, 8192 has not.
    decl!((4096,2):(1,4096), logical -> physical);
    decl!((8192,2):(1,8192), logical -> physical);
    decl!((2,4096):(4096,1), logical -> logical);
    decl!((2,8192):(8192,1), logical -> logical);
    decl!(4096:1, logical -> physical);
    decl!(8192:1, logical -> physical);
    decl!(4096:-1, logical -> physical);
    decl!(8192:-1, logical -> physical);
    // Strides: ±2^20 have aliases, ±2^21 have not.
    decl!((2,4096):(1048576,1), logical -> physical);
    decl!((2,4096):(2097152,1), logical -> physical);
    decl!((2,4096):(-1048576,1), logical -> physical);
    decl!((2,4096):(-2097152,1), logical -> physical);
    decl!((2,4096):(-1048576,-1), logical -> physical);
    decl!((2,2):(1048576,-2097152), logical -> physical);
    decl!((4096,2):(1048576,-1), logical -> physical);
    decl!((8192,2):(1048576,1), logical -> physical);
    decl!((4096,2):(2097152,1), logical -> physical);
    // Numbers just around powers of two, which never have an alias.
    decl!((4095,2):(1,4095), logical -> physical);
    decl!((4097,2):(1,4097), logical -> physical);
    decl!((2,3):(1048575,1048577), logical -> physical);
    decl!((2,3):(-1048575,-1048577), logical -> physical);
    // Broadcasts: `Bcast<4096>` has an alias, `Bcast<8192>` has not.
    decl!((4096,2):(_,1), logical -> physical);
    decl!((8192,2):(_,1), logical -> physical);
    decl!((2,4096,8192):(1048576,_,2), logical -> physical);
    // Size-1 modes: any stride, aliased or not.
    decl!((1,4096):(1048576,1), logical -> physical);
    decl!((1,8):(2097152,1), logical -> physical);
    decl!((4096,1):(1,-1048576), logical -> physical);
    decl!((8192,1,1):(1,-2097152,3), logical -> physical);
    decl!((1,1):(1,1), logical -> physical);
    // Mixtures of aliased and literal leaves in one type, nested.
    decl!((3,4096,8192,2):(-1,8,32768,4), logical -> physical);
    decl!(((3,4096),(8192,2)):((-1,8),(32768,268435456)), logical -> physical);
    decl!(((3,4096),(2,32)):((-1,8),(1048576,32768)), logical -> physical);
    decl!(((4096,4),(8192,(2,1))):((4,1),(16384,(-134217728,5))), logical -> physical);
    // CuTe order: the same layouts reversed.
    decl!(cute (2,4096):(4096,1), logical -> physical);
    decl!(cute (2,8192):(8192,1), logical -> physical);
    decl!(cute (4096,2):(1,-1048576), logical -> physical);
    decl!(cute (4096,2):(1,-2097152), logical -> physical);
    decl!(cute ((4096,3),(2,8192)):((8,-1),(268435456,32768)), logical -> physical);
    decl!(cute (2,4096):(0,1), logical -> physical);
    decl!(cute (2,8192):(0,1), logical -> physical);
}

#[test]
fn sizes_at_the_size_marker_bound() {
    // `Size<2^24>` has an alias, `Size<2^25>` has not.
    decl!((4096,4096):(4096,1), logical -> logical);
    decl!((8192,4096):(4096,1), logical -> logical);
    decl!((4096,8192):(1,4096), logical -> logical);
    decl!(((2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2)):((8388608,4194304,2097152,1048576,524288,262144,131072,65536),(32768,16384,8192,4096,2048,1024,512,256),(128,64,32,16,8,4,2,1)), logical -> logical);
    decl!(((2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),(2,2,2,2,2,2,2,2),2):((16777216,8388608,4194304,2097152,1048576,524288,262144,131072),(65536,32768,16384,8192,4096,2048,1024,512),(256,128,64,32,16,8,4,2),1), logical -> logical);
    decl!((4096,4096):(_,1), logical -> physical);
    decl!((8192,4096):(_,1), logical -> physical);
    decl!((4096,4095):(4095,1), logical -> logical);
    decl!((4096,4097):(4097,1), logical -> logical);
}

#[test]
fn thirty_two_bit_index_types_at_the_bounds() {
    // 4095·2^20 + 1 < 2^32: the largest offset fits `u32` only.
    decl!((4096,2):(1048576,1), logical -> physical, index = u32);
    decl!((2048,2):(-1048576,1), logical -> physical, index = i32);
    decl!((2048,2):(1048576,1), logical -> physical, index = i32);
    decl!((1024,2):(2097152,1), logical -> physical, index = u32);
    decl!((1024,2):(-2097152,1), logical -> physical, index = i32);
    decl!((4096,8192):(_,1), logical -> physical, index = u32);
    decl!(cute (2,4096):(1,1048576), logical -> physical, index = u32);
    decl!((4096,4096):(4096,1), logical -> logical, index = u32);
    decl!((8192,4096):(4096,1), logical -> logical, index = i32);
}

#[test]
fn named_modes_and_logical_tiles() {
    decl!((row: 4096, col: 2):(2,1), logical -> physical);
    decl!((row: 8192, col: 2):(2,1), logical -> physical);
    decl!((thread: 4096, value: 2):(1,4096), thread-value -> logical(2,4096));
    decl!((thread: 8192, value: 2):(1,8192), thread-value -> logical(2,8192));
    decl!(cute (value: 2, thread: 4096):(4096,1), thread-value -> logical(4096,2));
    decl!((2,4096):(4096,1), logical(2,4096) -> physical);
    decl!((2,8192):(8192,1), logical(2,8192) -> physical);
    decl!((4096,4096):(4096,1), logical(4096,4096) -> physical);
    decl!((8192,4096):(4096,1), logical(8192,4096) -> physical);
    decl!((4096,8192):(8192,1), logical(4096,8192) -> physical);
    decl!((4096):(1048576), logical(4096) -> physical);
    decl!((8192):(-2097152), logical(8192) -> physical);
    decl!((2,4096,8):(32768,8,1), logical(2,4096,8) -> physical);
    decl!((2,8192,8):(65536,8,1), logical(2,8192,8) -> physical);
    decl!(cute (8,4096,2):(1,8,32768), logical(8,4096,2) -> physical);
}

// ---------------------------------------------------------------------------------------------
// Type identity: notations, aliases and literals name one type.

layout! {
    const SEED_A = (2,4096):(1048576,1), logical(2,4096) -> physical;
    const CUTE_A = cute (4096,2):(1,1048576), logical(4096,2) -> physical;
    const SEED_B = (2,8192):(-2097152,1), logical(2,8192) -> physical;
    const CUTE_B = cute (8192,2):(1,-2097152), logical(8192,2) -> physical;
    const SEED_MIX = ((3,4096),(8192,2)):((-1,8),(32768,268435456)), logical -> physical;
    const CUTE_MIX = cute ((2,8192),(4096,3)):((268435456,32768),(8,-1)), logical -> physical;
    const SEED_TV = (thread: 4096, value: 2):(1,4096), thread-value -> logical(2,4096);
    const CUTE_TV = cute (value: 2, thread: 4096):(4096,1), thread-value -> logical(4096,2);
    const SEED_BIG = (4096,4096):(4096,1), logical(4096,4096) -> logical;
    const CUTE_BIG = cute (4096,4096):(1,4096), logical(4096,4096) -> logical;
    const SEED_BCAST = (4096,2,8192):(_,4096,_), logical -> physical, index = u32;
    const CUTE_BCAST = cute (8192,2,4096):(0,4096,0), logical -> physical, index = u32;
    const SEED_TILE3 = (2,4096,8):(32768,8,1), logical(2,4096,8) -> physical;
    const CUTE_TILE3 = cute (8,4096,2):(1,8,32768), logical(8,4096,2) -> physical;
}

#[test]
fn one_layout_in_two_notations_is_one_type() {
    let _: SEED_A = CUTE_A;
    let _: CUTE_A = SEED_A;
    let _: SEED_B = CUTE_B;
    let _: SEED_MIX = CUTE_MIX;
    let _: SEED_TV = CUTE_TV;
    let _: SEED_BIG = CUTE_BIG;
    let _: SEED_BCAST = CUTE_BCAST;
    let _: SEED_TILE3 = CUTE_TILE3;
    // And one value: the same offsets.
    for i in 0..8192 {
        assert_eq!(SEED_A.offset_index(i), CUTE_A.offset_index(i));
        assert_eq!(SEED_TV.offset_index(i), CUTE_TV.offset_index(i));
    }
}

type Phys<F, Sz, DT = NoTile, Idx = i64, Acc = Exclusive> =
    Static<F, Spec<LogicalSpace, PhysicalSpace, Sz, Acc, DT, NoTile, Idx>>;

#[test]
fn declarations_are_the_types_written_with_literals() {
    let _: Phys<(Dim<2, 1048576>, Dim<4096, 1>), Size<8192>, Tile2<2, 4096>> = SEED_A;
    let _: Phys<(Dim<2, -2097152>, Dim<8192, 1>), Size<16384>, Tile2<2, 8192>> = SEED_B;
    let _: Phys<
        (
            (Dim<3, -1>, Dim<4096, 8>),
            (Dim<8192, 32768>, Dim<2, 268435456>),
        ),
        Size<201326592>,
    > = SEED_MIX;
    let _: Static<
        (Dim<4096, 1>, Dim<2, 4096>),
        Spec<ThreadValueSpace, LogicalSpace, Size<8192>, Exclusive, NoTile, Tile2<2, 4096>, i64, _>,
    > = SEED_TV;
    let _: Static<
        (Dim<4096, 4096>, Dim<4096, 1>),
        Spec<LogicalSpace, LogicalSpace, Size<16777216>, Exclusive, Tile2<4096, 4096>, NoTile, i64>,
    > = SEED_BIG;
    let _: Phys<(Bcast<4096>, Dim<2, 4096>, Bcast<8192>), Size<67108864>, NoTile, u32, ReadOnly> =
        SEED_BCAST;
    let _: Phys<(Dim<2, 32768>, Dim<4096, 8>, Dim<8, 1>), Size<65536>, Tile3<2, 4096, 8>> =
        SEED_TILE3;
    let _: Phys<Dim<4096, 1048576>, Size<4096>, Tile1<4096>> =
        layout!((4096):(1048576), logical(4096) -> physical);
    let _: Phys<Dim<8192, -2097152>, Size<8192>, Tile1<8192>> =
        layout!((8192):(-2097152), logical(8192) -> physical);
    let _: Phys<(Dim<4096, -1048576>, Dim<8192, -1>), Size<33554432>, Tile2<4096, 8192>> =
        layout!((4096,8192):(-1048576,-1), logical(4096,8192) -> physical);
    let _: Phys<(Dim<4096, 1>, Dim<2, 4096>), Size<8192>, Tile2<4096, 2>> =
        layout!((4096,2):(1,4096), logical(4096,2) -> physical);
}

// ---------------------------------------------------------------------------------------------
// `compose`: the type-level rules near the bounds, and the offsets.

layout! {
    const S4096 = (2,4096):(4096,1), logical(2,4096) -> physical;
    const T4096 = (thread: 4096, value: 2):(1,4096), thread-value -> logical(2,4096);
    const S8192 = (2,8192):(-8192,1), logical(2,8192) -> physical;
    const T8192 = (thread: 8192, value: 2):(1,8192), thread-value -> logical(2,8192);
    const S_SIZE24 = (4096,4096):(1,4096), logical -> physical;
    const T_SIZE24 = (4096,4096):(4096,1), thread-value -> logical;
    const S_SIZE25 = (8192,4096):(1,8192), logical -> physical;
    const T_SIZE25 = (4096,8192):(1,4096), thread-value -> logical;
    const S_MIX = (4096,3):(1,4096), logical(4096,3) -> physical;
    const T_MIX = (6,2048):(1,6), thread-value -> logical(4096,3);
}

fn composed_check(c: impl Layout, left: &str, right: &str) {
    let (l, r) = (Brute::parse(left), Brute::parse(right));
    check_fn(
        c,
        r.size(),
        |i| l.at(r.at(i) as u128),
        &format!("{left} o {right}"),
    );
}

#[test]
fn compose_accepts_equal_sizes_and_tiles_at_the_bounds() {
    let a = compose(S4096, T4096);
    composed_check(a, "(2,4096):(4096,1)", "(4096,2):(1,4096)");
    let b = compose(S8192, T8192);
    composed_check(b, "(2,8192):(-8192,1)", "(8192,2):(1,8192)");
    let c = compose(S_SIZE24, T_SIZE24);
    composed_check(c, "(4096,4096):(1,4096)", "(4096,4096):(4096,1)");
    let d = compose(S_SIZE25, T_SIZE25);
    composed_check(d, "(8192,4096):(1,8192)", "(4096,8192):(1,4096)");
    let e = compose(S_MIX, T_MIX);
    composed_check(e, "(4096,3):(1,4096)", "(6,2048):(1,6)");
    // The same in `layout!`: decided or generated, with the same offsets.
    let f = layout!(compose(S4096, T4096));
    composed_check(f, "(2,4096):(4096,1)", "(4096,2):(1,4096)");
    let g = layout!(compose(S8192, T8192));
    composed_check(g, "(2,8192):(-8192,1)", "(8192,2):(1,8192)");
    let h = layout!(compose(S_MIX, T_MIX));
    composed_check(h, "(4096,3):(1,4096)", "(6,2048):(1,6)");
    let k = layout!(compose(S_SIZE25, T_SIZE25));
    composed_check(k, "(8192,4096):(1,8192)", "(4096,8192):(1,4096)");
}

// ---------------------------------------------------------------------------------------------
// Algebra results against their definitions on the evaluator.

layout! {
    const WIDE = (8192,4):(4,1), logical -> physical;
    const TILES = divide(WIDE, (4096,2));
    const GAP = (512,2048):(2048,1), logical -> physical;
}

#[test]
fn divide_and_restrict_across_the_bounds() {
    let w = Brute::parse("(8192,4):(4,1)");
    // `divide(L, (k1,k2))` at ((t1,t2),(r1,r2)) is L at (r1·k1 + t1, r2·k2 + t2).
    let divided = |k1: u128, k2: u128| {
        let w = w.clone();
        move |i: u128| {
            let (n1, n2) = (8192u128, 4u128);
            let (r1, r2) = (n1 / k1, n2 / k2);
            let b = i % r2;
            let a = i / r2 % r1;
            let t2 = i / (r2 * r1) % k2;
            let t1 = i / (r2 * r1 * k2);
            w.at((a * k1 + t1) * n2 + b * k2 + t2)
        }
    };
    check_fn(TILES, 32768, divided(4096, 2), "divide(WIDE, (4096,2))");
    check_fn(
        layout!(divide(WIDE, (4096, 2))),
        32768,
        divided(4096, 2),
        "inline divide",
    );
    check_fn(
        layout!(divide(WIDE, (8192, 4))),
        32768,
        divided(8192, 4),
        "divide 8192",
    );
    check_fn(
        layout!(divide(WIDE, (2048, 1))),
        32768,
        divided(2048, 1),
        "divide 2048",
    );
    check_fn(
        layout!(divide([(8192,4):(4,1), logical -> physical], (4096,2))),
        32768,
        divided(4096, 2),
        "literal operand",
    );
    for (r1, r2) in [(0u128, 0u128), (1, 1), (0, 1)] {
        let at = |i: u128| w.at(((r1 * 4096 + i / 2) * 4) + r2 * 2 + i % 2);
        let name = format!("restrict rest = ({r1},{r2})");
        match (r1, r2) {
            (0, 0) => check_fn(layout!(restrict(TILES, rest = (0, 0))), 8192, at, &name),
            (1, 1) => check_fn(layout!(restrict(TILES, rest = (1, 1))), 8192, at, &name),
            _ => check_fn(layout!(restrict(TILES, rest = (0, 1))), 8192, at, &name),
        }
    }
    // A run-time restriction through the same tiles.
    for (r1, r2) in [(1usize, 0usize), (1, 1)] {
        let t = layout!(restrict(TILES, rest = (r1, r2)));
        for i in 0..8192usize {
            let want =
                w.at(((r1 as u128 * 4096 + i as u128 / 2) * 4) + r2 as u128 * 2 + i as u128 % 2);
            assert_eq!(t.offset_index(i) as i128, want, "run-time restrict {i}");
        }
    }
}

#[test]
fn repeat_interleave_and_broadcast_across_the_bounds() {
    let g = Brute::parse("(512,2048):(2048,1)");
    // cosize(GAP) = 2^20: copies 2^20 apart, and 2^21 for the slower mode of (2,2):(2,1).
    let m = 1i128 << 20;
    let g1 = g.clone();
    check_fn(
        layout!(repeat(GAP, (2,2):(2,1))),
        4 << 20,
        move |i| m * (i >> 20) as i128 + g1.at(i & ((1 << 20) - 1)),
        "repeat (2,2):(2,1)",
    );
    let g2 = g.clone();
    check_fn(
        layout!(repeat(GAP, (4):(1))),
        4 << 20,
        move |i| m * (i >> 20) as i128 + g2.at(i & ((1 << 20) - 1)),
        "repeat 4",
    );
    // interleave(L, A): (l, a) ↦ size(A)·L(l) + A(a).
    let g3 = g.clone();
    check_fn(
        layout!(interleave(GAP, (2):(1))),
        2 << 20,
        move |i| 2 * g3.at(i >> 1) + (i & 1) as i128,
        "interleave 2",
    );
    let small = Brute::parse("(4096,2):(1,4096)");
    let s1 = small.clone();
    check_fn(
        layout!(interleave([(4096,2):(1,4096), logical -> physical], (512):(1))),
        4096 * 2 * 512,
        move |i| 512 * s1.at(i / 512) + (i % 512) as i128,
        "interleave 512",
    );
    // broadcast(L, S): (s, l) ↦ L(l).
    let s2 = small.clone();
    check_fn(
        layout!(broadcast([(4096,2):(1,4096), logical -> physical], (4096))),
        4096 * 8192,
        move |i| s2.at(i % 8192),
        "broadcast 4096",
    );
    let s3 = small.clone();
    check_fn(
        layout!(broadcast([(4096,2):(1,4096), logical -> physical], (8192))),
        8192 * 8192,
        move |i| s3.at(i % 8192),
        "broadcast 8192",
    );
    let s4 = small;
    check_fn(
        layout!(broadcast([(4096,2):(1,4096), logical -> physical], (3, 4096))),
        3 * 4096 * 8192,
        move |i| s4.at(i % 8192),
        "broadcast (3, 4096)",
    );
}

#[test]
fn swizzle_and_inverse_across_the_bounds() {
    let l = Brute::parse("(64,4096):(4096,1)");
    let sw = |x: i128, b: u32, src: u32, dst: u32| x ^ (((x >> src) & ((1 << b) - 1)) << dst);
    let l1 = l.clone();
    check_fn(
        layout!(swizzle([(64,4096):(4096,1), logical -> physical], b = 3, src = 15, dst = 4)),
        1 << 18,
        move |i| sw(l1.at(i), 3, 15, 4),
        "swizzle 3,15,4",
    );
    let l2 = Brute::parse("(2,8192):(1048576,1)");
    check_fn(
        layout!((2,8192):(1048576,1), logical -> physical, swizzle(b = 2, src = 19, dst = 2)),
        1 << 14,
        move |i| sw(l2.at(i), 2, 19, 2),
        "swizzle option",
    );
    // inverse(TV)(TV(i)) = i.
    for (text, inv) in [
        (
            "(4096,2):(1,4096)",
            layout!(inverse([(4096,2):(1,4096), thread-value -> logical])).to_map(),
        ),
        (
            "(2,8192):(1,2)",
            layout!(inverse([(2,8192):(1,2), thread-value -> logical])).to_map(),
        ),
    ] {
        let b = Brute::parse(text);
        let inv = inv.expect("a map");
        for i in 0..b.size() {
            assert_eq!(
                inv.eval_index(b.at(i) as i64).expect("in range"),
                i as i64,
                "{text}"
            );
        }
    }
    let typed = layout!(inverse([(4096,2):(1,4096), thread-value -> logical]));
    let b = Brute::parse("(4096,2):(1,4096)");
    for i in 0..8192u128 {
        assert_eq!(value(&typed, b.at(i) as u128), i as i128);
    }
    let typed = layout!(inverse([(2,8192):(1,2), thread-value -> logical]));
    let b = Brute::parse("(2,8192):(1,2)");
    for i in 0..16384u128 {
        assert_eq!(value(&typed, b.at(i) as u128), i as i128);
    }
}

// ---------------------------------------------------------------------------------------------
// Another crate: `layout-typed` renamed, `layout!` through `macro_rules!`, `no_std`, both profiles.

#[test]
fn a_no_std_crate_with_a_renamed_dependency_and_its_own_macros() {
    use std::path::Path;
    use std::process::Command;
    let all = |text: &str| -> Vec<i128> {
        let b = Brute::parse(text);
        (0..b.size()).map(|i| b.at(i)).collect()
    };
    let join = |name: &str, v: &[i128]| {
        let v: Vec<String> = v.iter().map(i128::to_string).collect();
        format!("{name} {}", v.join(","))
    };
    let seed_a = all("(2,4096):(1048576,1)");
    let tv = all("(4096,2):(1,4096)");
    let addr: Vec<i128> = tv.iter().map(|&i| seed_a[i as usize]).collect();
    let lit_b = all("(2,8192):(-2097152,1)");
    let tile: Vec<i128> = (0..8192)
        .map(|i| lit_b[i / 4096 * 8192 + 4096 + i % 4096])
        .collect();
    let swizzled: Vec<i128> = seed_a.iter().map(|&x| x ^ (((x >> 20) & 3) << 3)).collect();
    let expected = [
        join("seed-a", &seed_a),
        join("cute-a", &seed_a),
        join("lit-b", &lit_b),
        join("mix", &all("(3,4096,2):(-1,8,32768)")),
        join("addr", &addr),
        join("addr-typed", &addr),
        join("addr-expr", &addr),
        join("tile-1", &tile),
        join("narrow", &all("(4096,2):(1048576,1)")),
        join("swizzled", &swizzled),
        join("literal", &all("(4,8192):(-2097152,1)")),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for profile in [&[][..], &["--release"][..]] {
        let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["run", "--quiet", "--offline", "--manifest-path"])
            .arg(root.join("fixtures/interned/consumer/Cargo.toml"))
            .args(profile)
            // The target folder of the other fixture crates: the same dependencies, built once.
            .env(
                "CARGO_TARGET_DIR",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("operand_crates"),
            )
            .output()
            .expect("cargo runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "the fixture builds and runs {profile:?}:\n{stderr}"
        );
        assert!(
            !stderr.contains("warning"),
            "no warnings {profile:?}:\n{stderr}"
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let got: Vec<&str> = stdout.lines().collect();
        assert_eq!(got.len(), expected.len(), "{profile:?}");
        for (g, e) in got.iter().zip(&expected) {
            assert!(g == e, "{profile:?}: {}", &e[..e.find(' ').unwrap_or(0)]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What a user sees: printed layouts and type names.

layout! {
    const ONE_SEED_ALIASED = (1,4096):(1048576,1), logical -> physical;
    const ONE_CUTE_ALIASED = cute (4096,1):(1,1048576), logical -> physical;
    const ONE_SEED_LITERAL = (1,4096):(2097152,1), logical -> physical;
    const ONE_CUTE_LITERAL = cute (4096,1):(1,2097152), logical -> physical;
    const ONE_SEED_NEGATIVE = (8192,1):(1,-1048576), logical -> physical;
    const ONE_CUTE_NEGATIVE = cute (1,8192):(-1048576,1), logical -> physical;
    const ONE_SEED_ZERO = (1,4096):(0,1), logical -> physical;
    const ONE_CUTE_ZERO = cute (4096,1):(1,0), logical -> physical;
    const ONE_SEED_BCAST = (1,4096,8192):(_,1,_), logical -> physical;
    const RANK1 = 4096:1, logical -> physical;
    const RANK1_TUPLE = (4096):(1), logical -> physical;
    const RANK1_CUTE = cute (4096):(1), logical -> physical;
}

#[test]
fn size_one_modes_and_rank_one_tuples_in_both_notations_are_one_type() {
    let _: ONE_SEED_ALIASED = ONE_CUTE_ALIASED;
    let _: ONE_SEED_LITERAL = ONE_CUTE_LITERAL;
    let _: ONE_SEED_NEGATIVE = ONE_CUTE_NEGATIVE;
    let _: ONE_SEED_ZERO = ONE_CUTE_ZERO;
    let _: RANK1 = RANK1_TUPLE;
    let _: RANK1 = RANK1_CUTE;
    let _: Phys<(Dim<1, 1048576>, Dim<4096, 1>), Size<4096>> = ONE_SEED_ALIASED;
    let _: Phys<(Dim<1, 2097152>, Dim<4096, 1>), Size<4096>> = ONE_SEED_LITERAL;
    let _: Phys<(Dim<8192, 1>, Dim<1, -1048576>), Size<8192>> = ONE_SEED_NEGATIVE;
    let _: Phys<(Bcast<1>, Dim<4096, 1>, Bcast<8192>), Size<33554432>, NoTile, i64, ReadOnly> =
        ONE_SEED_BCAST;
    for i in 0..4096 {
        for v in [
            ONE_SEED_ALIASED.offset_index(i),
            ONE_CUTE_LITERAL.offset_index(i),
            ONE_SEED_ZERO.offset_index(i),
            RANK1_CUTE.offset_index(i),
            ONE_SEED_BCAST.offset_index(i * 8192 + 5),
        ] {
            assert_eq!(v, i as i64);
        }
    }
    for i in 0..8192 {
        assert_eq!(ONE_CUTE_NEGATIVE.offset_index(i), i as i64);
    }
}

#[test]
fn printed_layouts_and_type_names_show_the_numbers() {
    assert_eq!(SEED_A.to_string(), "(2,4096):(1048576,1)");
    assert_eq!(SEED_B.to_string(), "(2,8192):(-2097152,1)");
    assert_eq!(CUTE_A.cute().to_string(), "(4096,2):(1,1048576)");
    assert_eq!(
        SEED_MIX.to_string(),
        "((3,4096),(8192,2)):((-1,8),(32768,268435456))"
    );
    assert_eq!(SEED_BCAST.to_string(), "(4096,2,8192):(_,4096,_)");
    let name = std::any::type_name_of_val(&SEED_A);
    assert!(
        name.contains("Dim<2, 1048576>") && name.contains("Dim<4096, 1>"),
        "{name}"
    );
    assert!(
        name.contains("Size<8192>") && name.contains("Tile2<2, 4096>"),
        "{name}"
    );
    let name = std::any::type_name_of_val(&SEED_B);
    assert!(
        name.contains("Dim<2, -2097152>") && name.contains("Dim<8192, 1>"),
        "{name}"
    );
    let name = std::any::type_name_of_val(&SEED_BCAST);
    assert!(
        name.contains("Bcast<4096>") && name.contains("Bcast<8192>"),
        "{name}"
    );
    assert!(name.contains("Size<67108864>"), "{name}");
}

/// A user's generic code reads the numbers back from the type.
fn leaf_of<const N: usize, const D: isize>(
    _: Static<
        Dim<N, D>,
        Spec<LogicalSpace, PhysicalSpace, Size<N>, Exclusive, NoTile, NoTile, i64>,
    >,
) -> (usize, isize) {
    (N, D)
}

layout! {
    const TV3 = (thread: 8192, value: 8):(8,1), thread-value -> logical(2,4096,8);
}

#[test]
fn generic_code_and_three_dimensional_tiles() {
    assert_eq!(
        leaf_of(layout!(4096:-1048576, logical -> physical)),
        (4096, -1048576)
    );
    assert_eq!(
        leaf_of(layout!(8192:-2097152, logical -> physical)),
        (8192, -2097152)
    );
    assert_eq!(
        leaf_of(layout!(cute 4096:1048576, logical -> physical)),
        (4096, 1048576)
    );
    let c = compose(SEED_TILE3, TV3);
    composed_check(c, "(2,4096,8):(32768,8,1)", "(8192,8):(8,1)");
    let e = layout!(compose(CUTE_TILE3, TV3));
    composed_check(e, "(2,4096,8):(32768,8,1)", "(8192,8):(8,1)");
}

// ---------------------------------------------------------------------------------------------
// The layout type written through its alias (`__n::Static_{D}{C}[_ro]_{idx}`): every
// combination of spaces, access and index type that `layout!` reaches is the full
// `Static<F, Spec<D, C, Sz, Acc, DT, CT, I>>` (the compiler checks each annotation), with the
// offsets of its text, and declarations that differ only in spaces, access, index type, tiles
// or mode names are different types.

use layout_typed::Swizzled;
use std::any::TypeId;

fn type_id_of<T: 'static>(_: &T) -> TypeId {
    TypeId::of::<T>()
}

/// `Spec`'s `NAMES` parameter of a layout's type.
fn names_of<F, D, C, Sz, Acc, DT, CT, I, const N: u128>(
    _: &Static<F, Spec<D, C, Sz, Acc, DT, CT, I, N>>,
) -> u128 {
    N
}

/// No two of `ids` are equal.
fn distinct(ids: &[TypeId], what: &str) {
    for (a, x) in ids.iter().enumerate() {
        for (b, y) in ids.iter().enumerate().skip(a + 1) {
            assert_ne!(x, y, "{what}: {a} and {b} are one type");
        }
    }
}

/// `layout!(text, index = I)` has the type `Static<F, Spec<D, C, Size<N>, Acc, DT, CT, I>>`
/// and the offsets of its text; returns that type's id.
macro_rules! full {
    ($f:ty, $d:ident -> $c:ident, $n:literal, $acc:ident, $dt:ty, $ct:ty, $i:ident; $($t:tt)*) => {{
        let v: Static<$f, Spec<$d, $c, Size<$n>, $acc, $dt, $ct, $i>> =
            layout!($($t)*, index = $i);
        check(v, stringify!($($t)*));
        assert_eq!(names_of(&v), 0, "{}", stringify!($($t)*));
        let id = TypeId::of::<Static<$f, Spec<$d, $c, Size<$n>, $acc, $dt, $ct, $i>>>();
        assert_eq!(type_id_of(&v), id);
        id
    }};
}

/// [`full!`] for each index type.
macro_rules! every_index {
    ($f:ty, $d:ident -> $c:ident, $n:literal, $acc:ident, $dt:ty, $ct:ty; $($t:tt)*) => {
        [
            full!($f, $d -> $c, $n, $acc, $dt, $ct, i32; $($t)*),
            full!($f, $d -> $c, $n, $acc, $dt, $ct, i64; $($t)*),
            full!($f, $d -> $c, $n, $acc, $dt, $ct, u32; $($t)*),
            full!($f, $d -> $c, $n, $acc, $dt, $ct, usize; $($t)*),
        ]
    };
}

type F48 = (Dim<4, 8>, Dim<8, 1>);

#[test]
fn every_declared_combination_is_its_full_type() {
    let mut ids = Vec::new();
    // One layout, every pair of spaces a declaration may carry, every index type.
    ids.extend(
        every_index!(F48, LogicalSpace -> LogicalSpace, 32, Exclusive, NoTile, NoTile;
        (4,8):(8,1), logical -> logical),
    );
    ids.extend(
        every_index!(F48, LogicalSpace -> ThreadValueSpace, 32, Exclusive, NoTile, NoTile;
        (4,8):(8,1), logical -> thread-value),
    );
    ids.extend(
        every_index!(F48, ThreadValueSpace -> LogicalSpace, 32, Exclusive, NoTile, NoTile;
        (4,8):(8,1), thread-value -> logical),
    );
    ids.extend(
        every_index!(F48, ThreadValueSpace -> ThreadValueSpace, 32, Exclusive, NoTile, NoTile;
        (4,8):(8,1), thread-value -> thread-value),
    );
    ids.extend(
        every_index!(F48, LogicalSpace -> PhysicalSpace, 32, Exclusive, NoTile, NoTile;
        (4,8):(8,1), logical -> physical),
    );
    ids.extend(every_index!((Bcast<4>, Dim<8, 1>), LogicalSpace -> PhysicalSpace, 32, ReadOnly, NoTile, NoTile;
        (4,8):(_,1), logical -> physical));
    // Negative offsets: the signed index types.
    ids.push(full!((Dim<4, -8>, Bcast<8>), LogicalSpace -> PhysicalSpace, 32, ReadOnly, NoTile, NoTile, i32;
        cute (8,4):(0,-8), logical -> physical));
    ids.push(full!((Dim<4, -8>, Bcast<8>), LogicalSpace -> PhysicalSpace, 32, ReadOnly, NoTile, NoTile, i64;
        cute (8,4):(0,-8), logical -> physical));
    // Tiles on either side, of rank 1 to 3, with negative strides and size-1 modes.
    ids.extend(
        every_index!(F48, LogicalSpace -> LogicalSpace, 32, Exclusive, Tile2<4, 8>, Tile1<32>;
        (4,8):(8,1), logical(4,8) -> logical(32)),
    );
    ids.extend(
        every_index!(F48, ThreadValueSpace -> LogicalSpace, 32, Exclusive, NoTile, Tile3<2, 2, 8>;
        (4,8):(8,1), thread-value -> logical(2,2,8)),
    );
    ids.push(full!((Dim<4, -8>, Dim<1, 5>, Dim<8, 1>), LogicalSpace -> PhysicalSpace, 32, Exclusive, Tile3<4, 1, 8>, NoTile, i32;
        (4,1,8):(-8,5,1), logical(4,1,8) -> physical));
    ids.push(full!((Dim<4, -8>, Dim<1, 5>, Dim<8, 1>), LogicalSpace -> PhysicalSpace, 32, Exclusive, Tile3<4, 1, 8>, NoTile, i64;
        (4,1,8):(-8,5,1), logical(4,1,8) -> physical));
    ids.extend(every_index!((Dim<4, 8>, Dim<1, 5>, Dim<8, 1>), LogicalSpace -> PhysicalSpace, 32, Exclusive, Tile3<4, 1, 8>, NoTile;
        (4,1,8):(8,5,1), logical(4,1,8) -> physical));
    ids.extend(every_index!((Dim<4, 8>, Bcast<8>), LogicalSpace -> PhysicalSpace, 32, ReadOnly, Tile2<4, 8>, NoTile;
        (4,8):(8,_), logical(4,8) -> physical));
    assert_eq!(ids.len(), 44);
    distinct(&ids, "declarations");
}

#[test]
fn named_modes_keep_the_full_type_and_their_names_make_it_differ() {
    let unnamed = layout!((4,8):(8,1), thread-value -> logical, index = u32);
    let _: Static<
        F48,
        Spec<ThreadValueSpace, LogicalSpace, Size<32>, Exclusive, NoTile, NoTile, u32>,
    > = unnamed;
    let a: Static<
        F48,
        Spec<ThreadValueSpace, LogicalSpace, Size<32>, Exclusive, NoTile, NoTile, u32, _>,
    > = layout!((thread: 4, value: 8):(8,1), thread-value -> logical, index = u32);
    let b: Static<
        F48,
        Spec<ThreadValueSpace, LogicalSpace, Size<32>, Exclusive, NoTile, NoTile, u32, _>,
    > = layout!((value: 4, thread: 8):(8,1), thread-value -> logical, index = u32);
    let c: Static<
        F48,
        Spec<ThreadValueSpace, LogicalSpace, Size<32>, Exclusive, NoTile, NoTile, u32, _>,
    > = layout!((thread: 4, 8):(8,1), thread-value -> logical, index = u32);
    let d: Static<
        F48,
        Spec<ThreadValueSpace, LogicalSpace, Size<32>, Exclusive, NoTile, NoTile, u32, _>,
    > = layout!((4, thread: 8):(8,1), thread-value -> logical, index = u32);
    let e: Static<
        F48,
        Spec<ThreadValueSpace, LogicalSpace, Size<32>, Exclusive, NoTile, NoTile, i64, _>,
    > = layout!((thread: 4, value: 8):(8,1), thread-value -> logical);
    let f: Static<
        F48,
        Spec<LogicalSpace, PhysicalSpace, Size<32>, Exclusive, NoTile, NoTile, u32, _>,
    > = layout!((thread: 4, value: 8):(8,1), logical -> physical, index = u32);
    let g: Static<
        (Bcast<4>, Dim<8, 1>),
        Spec<LogicalSpace, PhysicalSpace, Size<32>, ReadOnly, NoTile, NoTile, u32, _>,
    > = layout!((row: 4, col: 8):(_,1), logical -> physical, index = u32);
    check(g, "(4,8):(_,1)");
    assert_ne!(names_of(&g), 0);
    let text = "(4,8):(8,1)";
    check(unnamed, text);
    check(a, text);
    check(b, text);
    check(c, text);
    check(d, text);
    for n in [names_of(&a), names_of(&b), names_of(&c), names_of(&d)] {
        assert_ne!(n, 0);
    }
    check(e, text);
    check(f, text);
    assert_eq!(names_of(&unnamed), 0);
    assert_eq!(names_of(&a), names_of(&e));
    assert_eq!(names_of(&a), names_of(&f));
    distinct(
        &[
            type_id_of(&unnamed),
            type_id_of(&a),
            type_id_of(&b),
            type_id_of(&c),
            type_id_of(&d),
            type_id_of(&e),
            type_id_of(&f),
        ],
        "names",
    );
    // The same names in CuTe order: the same type.
    let cute_a = layout!(cute (value: 8, thread: 4):(1,8), thread-value -> logical, index = u32);
    assert_eq!(type_id_of(&cute_a), type_id_of(&a));
}

#[test]
fn swizzled_declarations_are_the_full_type_inside_swizzled() {
    let sw = |x: i128, b: u32, src: u32, dst: u32| x ^ (((x >> src) & ((1 << b) - 1)) << dst);
    let s: Swizzled<
        Static<F88, Spec<LogicalSpace, PhysicalSpace, Size<64>, Exclusive, NoTile, NoTile, i64>>,
        2,
        4,
        0,
        0,
        63,
    > = layout!((8,8):(8,1), logical -> physical, swizzle(b = 2, src = 4, dst = 0));
    let l = Brute::parse("(8,8):(8,1)");
    check_fn(s, 64, |i| sw(l.at(i), 2, 4, 0), "swizzle(2,4,0)");
    let t: Swizzled<
        Static<
            (Dim<64, 1>, Dim<64, 64>),
            Spec<LogicalSpace, PhysicalSpace, Size<4096>, Exclusive, NoTile, NoTile, i32>,
        >,
        3,
        6,
        3,
        0,
        4095,
    > = layout!(cute (64,64):(64,1), logical -> physical, Swizzle<3,3,3> over elements, index = i32);
    let l2 = Brute::parse("cute (64,64):(64,1)");
    check_fn(t, 4096, |i| sw(l2.at(i), 3, 6, 3), "Swizzle<3,3,3>");
    let u: Swizzled<
        Static<
            (Bcast<4>, Dim<64, 1>),
            Spec<LogicalSpace, PhysicalSpace, Size<256>, ReadOnly, NoTile, NoTile, u32>,
        >,
        2,
        4,
        0,
        0,
        63,
    > = layout!((4,64):(_,1), logical -> physical, swizzle(b = 2, src = 4, dst = 0), index = u32);
    let l3 = Brute::parse("(4,64):(_,1)");
    check_fn(u, 256, |i| sw(l3.at(i), 2, 4, 0), "read-only swizzle");
    let v: Swizzled<
        Static<
            F88,
            Spec<LogicalSpace, PhysicalSpace, Size<64>, Exclusive, Tile2<8, 8>, NoTile, usize>,
        >,
        2,
        4,
        0,
        0,
        63,
    > = layout!((8,8):(8,1), logical(8,8) -> physical, swizzle(b = 2, src = 4, dst = 0), index = usize);
    check_fn(v, 64, |i| sw(l.at(i), 2, 4, 0), "tiled swizzle");
    // Named modes inside `Swizzled`: the full `Spec` with its names, then the swizzle.
    let named: Swizzled<
        Static<
            F88,
            Spec<LogicalSpace, PhysicalSpace, Size<64>, Exclusive, Tile2<8, 8>, NoTile, u32, _>,
        >,
        2,
        4,
        0,
        0,
        63,
    > = layout!((row: 8, col: 8):(8,1), logical(8,8) -> physical, swizzle(b = 2, src = 4, dst = 0), index = u32);
    check_fn(named, 64, |i| sw(l.at(i), 2, 4, 0), "named swizzle");
    let named_ro: Swizzled<
        Static<
            (Bcast<4>, Dim<64, 1>),
            Spec<LogicalSpace, PhysicalSpace, Size<256>, ReadOnly, NoTile, NoTile, i64, _>,
        >,
        2,
        4,
        0,
        0,
        63,
    > = layout!((row: 4, col: 64):(_,1), logical -> physical, Swizzle<2,0,4> over elements);
    check_fn(
        named_ro,
        256,
        |i| sw(l3.at(i), 2, 4, 0),
        "named read-only swizzle",
    );
    distinct(
        &[
            type_id_of(&s),
            type_id_of(&v),
            type_id_of(
                &layout!((8,8):(8,1), logical -> physical, swizzle(b = 2, src = 4, dst = 0), index = i32),
            ),
            type_id_of(&layout!((8,8):(8,1), logical -> physical)),
            type_id_of(
                &layout!((row: 8, col: 8):(8,1), logical(8,8) -> physical, swizzle(b = 2, src = 4, dst = 0), index = usize),
            ),
        ],
        "swizzled",
    );
}

type F88 = (Dim<8, 8>, Dim<8, 1>);

layout! {
    const AL = (4,8):(8,1), logical(4,8) -> physical;
    const AL_U32 = (4,8):(8,1), logical(4,8) -> physical, index = u32;
    const AL_RO = (4,8):(_,1), logical -> physical;
    const AL_SW = (4,16):(16,1), logical -> physical, swizzle(b = 2, src = 4, dst = 0);
    const BT = (8,4):(1,8), thread-value -> logical(4,8);
    const BT_I32 = (8,4):(1,8), thread-value -> logical(4,8), index = i32;
    const BT_FLAT = (8,4):(1,8), thread-value -> logical;
    const BT64 = (16,4):(1,16), thread-value -> logical;
    const AL_DIV = divide(AL, (2,4));
}

#[test]
fn algebra_results_are_the_full_type() {
    let (a, b) = ("(4,8):(8,1)", "(8,4):(1,8)");
    // compose: thread-value -> physical, reachable only through the algebra. `NAMES` is open
    // (`_`): a composite decided to be a layout carries its composite's fingerprint there.
    let c: Static<
        _,
        Spec<ThreadValueSpace, PhysicalSpace, Size<32>, Exclusive, NoTile, NoTile, i64, _>,
    > = layout!(compose(AL, BT));
    composed_check(c, a, b);
    let c_u: Static<
        _,
        Spec<ThreadValueSpace, PhysicalSpace, Size<32>, Exclusive, NoTile, NoTile, u32, _>,
    > = layout!(compose(AL_U32, BT));
    composed_check(c_u, a, b);
    // The index type is the left operand's (its offsets are the composite's).
    let c_i: Static<
        _,
        Spec<ThreadValueSpace, PhysicalSpace, Size<32>, Exclusive, NoTile, NoTile, i64, _>,
    > = layout!(compose(AL, BT_I32));
    composed_check(c_i, a, b);
    assert_eq!(type_id_of(&c_i), type_id_of(&c));
    let c_ro: Static<
        _,
        Spec<ThreadValueSpace, PhysicalSpace, Size<32>, ReadOnly, NoTile, NoTile, i64, _>,
    > = layout!(compose(AL_RO, BT_FLAT));
    composed_check(c_ro, "(4,8):(_,1)", b);
    // A swizzled composite with a 64-bit index type is generated, not a `Static`.
    let c_sw = layout!(compose(AL_SW, BT64));
    let (l, r) = (Brute::parse("(4,16):(16,1)"), Brute::parse("(16,4):(1,16)"));
    let sw = |x: i128| x ^ ((x >> 4) & 3);
    check_fn(
        c_sw,
        64,
        |i| sw(l.at(r.at(i) as u128)),
        "compose(AL_SW, BT64)",
    );
    // The run-time value of the composite: the same type as the declared one.
    let c_fn = compose(AL, BT);
    composed_check(c_fn, a, b);
    // divide and restrict keep the spaces, the access and the index type.
    // divide names its modes (`tile`, `rest`): the full `Spec` with its names.
    let d: Static<_, Spec<LogicalSpace, PhysicalSpace, Size<32>, Exclusive, _, NoTile, i64, _>> =
        AL_DIV;
    assert_ne!(names_of(&d), 0);
    let r = layout!(restrict(AL_DIV, rest = (1, 0)));
    let w = Brute::parse(a);
    // divide(AL, (2,4)) at ((t1,t2),(r1,r2)); rest = (1,0): t ↦ AL(2 + t1, t2).
    check_fn(r, 8, |i| w.at((2 + i / 4) * 8 + i % 4), "restrict(divide)");
    let ids = [
        type_id_of(&c),
        type_id_of(&c_u),
        type_id_of(&c_ro),
        type_id_of(&layout!((4,8):(8,1), logical -> physical)),
    ];
    distinct(&ids, "algebra");
}

#[test]
fn items_inside_function_bodies_are_the_full_type() {
    fn local() -> (TypeId, Vec<i64>) {
        layout! {
            const X = (4,(2,4)):(8,(4,1)), thread-value -> thread-value, index = usize;
            const Y = (4,8):(_,-1), logical(4,8) -> physical, index = i32;
        }
        let x: Static<
            (Dim<4, 8>, (Dim<2, 4>, Dim<4, 1>)),
            Spec<ThreadValueSpace, ThreadValueSpace, Size<32>, Exclusive, NoTile, NoTile, usize>,
        > = X;
        let y: Static<
            (Bcast<4>, Dim<8, -1>),
            Spec<LogicalSpace, PhysicalSpace, Size<32>, ReadOnly, Tile2<4, 8>, NoTile, i32>,
        > = Y;
        check(x, "(4,(2,4)):(8,(4,1))");
        check(y, "(4,8):(_,-1)");
        (
            type_id_of(&x),
            (0..32).map(|i| y.offset_index(i) as i64).collect(),
        )
    }
    let (id, ys) = local();
    assert_eq!(ys, (0..32).map(|i| -(i % 8)).collect::<Vec<i64>>());
    assert_ne!(
        id,
        type_id_of(&layout!((4,(2,4)):(8,(4,1)), thread-value -> thread-value))
    );
}

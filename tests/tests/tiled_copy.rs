//! Tiled copies (`layout_core::copy`) against CuTe C++ over the CUTLASS 4.2 headers
//! (`tests/cpp/tiled_copy.cpp`, run by `layout_tests::cute_cpp::run`): the thread-value
//! layouts of `make_tiled_copy`, `partition_S` / `partition_D` of gmem tiles with run-time
//! leading dimensions and of swizzled smem (every thread, every value, every repeat of the tile
//! and every stage), `max_common_vector` over chosen and random layouts, the vector rules, and
//! the bank conflicts of a copy's partition against a brute-force model of the banks fed with
//! CuTe's offsets.
//!
//! Outside CI the CuTe comparisons skip when the headers are missing; under `CI=true` that is a
//! failure.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use layout_core::banks::copy_conflicts;
use layout_core::copy::{CopySide, Storage, TiledCopy, max_common_vector};
use layout_core::{Annotated, Error, Layout, Map, Space, Swizzle, SwizzleUnit, Tree, divide};
use layout_tests::CuteText;
use layout_tests::cute_cpp;

const SOURCE: &str = include_str!("../cpp/tiled_copy.cpp");

/// A small deterministic generator (64-bit LCG), so the random cases are the same on every run
/// and the C++ program is compiled once.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random pair of CuTe layouts of one shape for `max_common_vector`: CuTe text and C++ type.
struct RandomPair {
    name: String,
    a: String,
    b: String,
}

/// A CuTe-order tree of integers as text `(4,(2,3))` and as a C++ type `Shape<_4,Shape<_2,_3>>`.
fn texts(tree: &[Vec<i64>], kind: &str) -> (String, String) {
    let leaf = |v: i64| (v.to_string(), format!("Int<{v}>"));
    let mut text = Vec::new();
    let mut ty = Vec::new();
    for mode in tree {
        if mode.len() == 1 {
            let (a, b) = leaf(mode[0]);
            text.push(a);
            ty.push(b);
        } else {
            let (a, b): (Vec<String>, Vec<String>) = mode.iter().map(|&v| leaf(v)).unzip();
            text.push(format!("({})", a.join(",")));
            ty.push(format!("{kind}<{}>", b.join(",")));
        }
    }
    (
        format!("({})", text.join(",")),
        format!("{kind}<{}>", ty.join(",")),
    )
}

fn random_pairs() -> Vec<RandomPair> {
    let mut rng = Lcg(0x5eed_c0de);
    let mut out = Vec::new();
    for case in 0..48 {
        // Two or three modes of one or two leaves from {2, 3, 4, 8}.
        let sizes = [2i64, 3, 4, 8];
        let modes = 2 + rng.below(2);
        let shape: Vec<Vec<i64>> = (0..modes)
            .map(|_| (0..1 + rng.below(2)).map(|_| sizes[rng.below(4)]).collect())
            .collect();
        let leaves: Vec<i64> = shape.iter().flatten().copied().collect();
        let mut strides = || {
            // A random order of the leaves; compact strides in that order, a gap of 2 after a
            // random leaf, and sometimes a broadcast leaf.
            let mut order: Vec<usize> = (0..leaves.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let gap_after = rng.below(leaves.len() + 2);
            let bcast = if rng.below(4) == 0 {
                Some(rng.below(leaves.len()))
            } else {
                None
            };
            let mut d = vec![0i64; leaves.len()];
            let mut acc = 1i64;
            for (k, &i) in order.iter().enumerate() {
                d[i] = if Some(i) == bcast { 0 } else { acc };
                if Some(i) != bcast {
                    acc *= leaves[i];
                }
                if k == gap_after {
                    acc *= 2;
                }
            }
            let mut it = d.into_iter();
            shape
                .iter()
                .map(|m| m.iter().map(|_| it.next().unwrap()).collect::<Vec<i64>>())
                .collect::<Vec<Vec<i64>>>()
        };
        let (sa, sb) = (strides(), strides());
        let (shape_text, shape_ty) = texts(&shape, "Shape");
        let (a_text, a_ty) = texts(&sa, "Stride");
        let (b_text, b_ty) = texts(&sb, "Stride");
        out.push(RandomPair {
            name: format!("random{case}"),
            a: format!("{shape_text}:{a_text}|Layout<{shape_ty},{a_ty}>{{}}"),
            b: format!("{shape_text}:{b_text}|Layout<{shape_ty},{b_ty}>{{}}"),
        });
    }
    out
}

/// A random tiled copy: CuTe texts of its thread and value layouts, the atom's vector, the tile
/// (CuTe order), and the C++ lines that print it.
struct RandomCopy {
    name: String,
    thr: String,
    val: String,
    vector: i64,
    tile: (i64, i64),
    cpp: String,
}

/// A random dense bijection of rank `rank` in CuTe order: one or two leaves per mode from
/// `sizes`, compact strides in a random order of the leaves. Returns (shape, stride, mode sizes).
fn random_dense(
    rng: &mut Lcg,
    rank: usize,
    sizes: &[i64],
) -> (Vec<Vec<i64>>, Vec<Vec<i64>>, Vec<i64>) {
    let shape: Vec<Vec<i64>> = (0..rank)
        .map(|_| {
            (0..1 + rng.below(2))
                .map(|_| sizes[rng.below(sizes.len())])
                .collect()
        })
        .collect();
    let leaves: Vec<i64> = shape.iter().flatten().copied().collect();
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut d = vec![0i64; leaves.len()];
    let mut acc = 1;
    for &i in &order {
        d[i] = acc;
        acc *= leaves[i];
    }
    let mut it = d.into_iter();
    let stride = shape
        .iter()
        .map(|m| m.iter().map(|_| it.next().unwrap()).collect())
        .collect();
    let modes = shape.iter().map(|m| m.iter().product()).collect();
    (shape, stride, modes)
}

fn random_copies() -> Vec<RandomCopy> {
    let mut rng = Lcg(0x00c0_ffee);
    let mut out = Vec::new();
    for case in 0..12 {
        let (ts, td, tm) = random_dense(&mut rng, 2, &[1, 2, 4, 8]);
        let val_rank = 1 + rng.below(2);
        let (vs, vd, vm) = random_dense(&mut rng, val_rank, &[1, 2, 4]);
        let values: i64 = vm.iter().product();
        // The widest UniversalCopy of floats whose vector divides the values.
        let (vector, bits) = [(4, 128), (2, 64), (1, 32)]
            .into_iter()
            .find(|(v, _)| values % v == 0)
            .unwrap();
        let tile = (tm[0] * vm[0], tm[1] * vm.get(1).copied().unwrap_or(1));
        let (thr_s, thr_st) = texts(&ts, "Shape");
        let (thr_d, thr_dt) = texts(&td, "Stride");
        let (val_s, val_st) = texts(&vs, "Shape");
        let (val_d, val_dt) = texts(&vd, "Stride");
        let name = format!("rcopy{case}");
        let cpp = format!(
            "  {{ auto c = make_tiled_copy(Copy_Atom<UniversalCopy<uint_bit_t<{bits}>>, float>{{}}, \
             Layout<{thr_st},{thr_dt}>{{}}, Layout<{val_st},{val_dt}>{{}});\n    \
             print_tv(\"tv_{name}\", c);\n    \
             print_idpart(\"part_{name}\", c, make_shape(Int<{}>{{}}, Int<{}>{{}})); }}\n",
            2 * tile.0,
            3 * tile.1
        );
        out.push(RandomCopy {
            name,
            thr: format!("{thr_s}:{thr_d}"),
            val: format!("{val_s}:{val_d}"),
            vector,
            tile,
            cpp,
        });
    }
    out
}

/// The C++ program with the random cases written in, its output parsed by line name.
fn cute() -> Option<&'static BTreeMap<String, String>> {
    static OUT: OnceLock<Option<BTreeMap<String, String>>> = OnceLock::new();
    OUT.get_or_init(|| {
        let cases: String = random_pairs()
            .iter()
            .map(|p| {
                let ty = |s: &str| s.split('|').nth(1).unwrap().to_string();
                format!("  mcv(\"{}\", {}, {});\n", p.name, ty(&p.a), ty(&p.b))
            })
            .collect();
        let copies: String = random_copies().iter().map(|c| c.cpp.clone()).collect();
        let source = SOURCE
            .replace("  // RANDOM_CASES\n", &cases)
            .replace("  // RANDOM_COPIES\n", &copies);
        let out = cute_cpp::run("tiled_copy", &source)?;
        Some(
            out.lines()
                .filter_map(|l| l.split_once(':'))
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .collect(),
        )
    })
    .as_ref()
}

fn line<'a>(out: &'a BTreeMap<String, String>, key: &str) -> &'a str {
    out.get(key)
        .unwrap_or_else(|| panic!("CuTe printed no line `{key}`"))
}

/// Thread `t`'s offsets of the partition named `name`, in CuTe's flat order.
fn offsets(out: &BTreeMap<String, String>, name: &str, t: i64) -> Vec<i64> {
    line(out, &format!("{name} {t}"))
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect()
}

/// Thread `t`'s tile coordinates `(m, n)` (CuTe order) from the identity tensor.
fn coords(out: &BTreeMap<String, String>, name: &str, t: i64) -> Vec<(i64, i64)> {
    line(out, &format!("{name} {t}"))
        .split_whitespace()
        .map(|c| {
            let (m, n) = c.split_once(',').unwrap();
            (m.parse().unwrap(), n.parse().unwrap())
        })
        .collect()
}

fn physical(cute_text: &str) -> Map {
    Annotated::new(
        Layout::from_cute(cute_text).unwrap(),
        Space::Logical,
        Space::Physical,
    )
    .unwrap()
    .into()
}

fn cp_async() -> TiledCopy {
    TiledCopy::new(
        &Layout::from_cute("(16,8):(8,1)").unwrap(),
        &Layout::from_cute("(1,8):(1,1)").unwrap(),
        8,
    )
    .unwrap()
}

fn universal() -> TiledCopy {
    TiledCopy::new(
        &Layout::from_cute("(32,8):(1,32)").unwrap(),
        &Layout::from_cute("(4,1):(1,4)").unwrap(),
        1,
    )
    .unwrap()
}

fn raked() -> TiledCopy {
    TiledCopy::new(
        &Layout::from_cute("(4,8):(1,4)").unwrap(),
        &Layout::from_cute("(2,4):(4,1)").unwrap(),
        4,
    )
    .unwrap()
}

/// The thread-value layout against CuTe's identity partition: thread `t`'s value `v` is at the
/// tile position `m + M·n` (CuTe's `(m, n)`), for every thread and value.
fn check_tv(copy: &TiledCopy, name: &str, tile_m: i64) {
    let Some(out) = cute() else { return };
    let tv = copy.tv().layout();
    assert_eq!(tv.names()[0].as_deref(), Some("value"));
    assert_eq!(tv.names()[1].as_deref(), Some("thread"));
    let (threads, values) = (copy.threads(), copy.values());
    assert_eq!(tv.size(), threads * values);
    for t in 0..threads {
        let c = coords(out, name, t);
        assert_eq!(c.len() as i64, values, "{name}: thread {t}");
        for (v, &(m, n)) in c.iter().enumerate() {
            let v = v as i64;
            assert_eq!(
                tv.eval_index(v * threads + t).unwrap(),
                m + tile_m * n,
                "{name}: thread {t} value {v}"
            );
            // The thread is one top-level entry: (value, thread) at depth 1.
            let coord = Tree::Tuple(vec![Tree::Leaf(v), Tree::Leaf(t)]);
            assert_eq!(tv.eval(&coord).unwrap(), m + tile_m * n);
        }
    }
}

/// Every thread's partition against CuTe's offsets, through `restrict(.., thread = t)`.
fn check_partition(copy: &TiledCopy, storage: &Map, name: &str) {
    let Some(out) = cute() else { return };
    let all = copy.partition(storage).unwrap();
    for t in 0..copy.threads() {
        let theirs = offsets(out, name, t);
        let mine = all.restrict_named(&[("thread", t)]).unwrap();
        assert_eq!(mine.size(), theirs.len() as i64, "{name}: thread {t}");
        let by_slice = copy.partition_thread(storage, t).unwrap();
        for (i, &o) in theirs.iter().enumerate() {
            assert_eq!(
                mine.eval_index(i as i64).unwrap(),
                o,
                "{name}: thread {t} value {i}"
            );
            assert_eq!(by_slice.eval_index(i as i64).unwrap(), o);
        }
    }
}

#[test]
fn cp_async_thread_value_layout_is_cutes() {
    let copy = cp_async();
    assert_eq!(copy.tile(), &[64, 16]);
    check_tv(&copy, "tv_cp_async", 16);
}

#[test]
fn universal_copy_with_a_column_major_thread_layout() {
    let copy = universal();
    assert_eq!(copy.tile(), &[8, 128]);
    check_tv(&copy, "tv_universal", 128);
    // A column-major 256×16 float tensor with a run-time leading dimension of 260: 2×2 repeats.
    let ld = 256 + 4;
    check_partition(
        &copy,
        &physical(&format!("(256,16):(1,{ld})")),
        "universal_S",
    );
}

#[test]
fn raked_values_in_both_modes() {
    let copy = raked();
    assert_eq!(copy.tile(), &[32, 8]);
    check_tv(&copy, "tv_raked", 8);
    check_partition(&copy, &physical("(16,64):(64,1)"), "raked_D");
}

/// sgemm_sm80's `gA(_, _, k)`: `local_tile(mA, (128, 64), (1, _))` at k-tile 2 of a K-major
/// 384×256 A with a run-time leading dimension, as a restriction of a divide.
fn gmem_tile(ld: i64) -> Map {
    let m_a = Layout::from_cute(&format!("(384,256):({ld},1)")).unwrap();
    let tiles: Map = Annotated::new(
        divide(&m_a, &[64, 128]).unwrap(),
        Space::Logical,
        Space::Physical,
    )
    .unwrap()
    .into();
    // The rest entry is (k-tiles, m-tiles) in seed order: k = 2, m = 1.
    let rest = tiles
        .entry_index(1, &Tree::Tuple(vec![Tree::Leaf(2), Tree::Leaf(1)]))
        .unwrap();
    tiles.restrict(&[(1, rest)]).unwrap()
}

fn swizzled_smem() -> Map {
    physical("((8,16),64,3):((64,512),1,8192)")
        .swizzle(Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements).unwrap())
        .unwrap()
}

#[test]
fn sgemm_sm80_gmem_partition_with_a_runtime_leading_dimension() {
    check_partition(&cp_async(), &gmem_tile(264), "gmem_S");
}

#[test]
fn sgemm_sm80_swizzled_three_stage_smem_partition() {
    check_partition(&cp_async(), &swizzled_smem(), "smem_D");
    check_partition(
        &cp_async(),
        &physical("((8,16),64,3):((64,512),1,8192)"),
        "plain_D",
    );
}

#[test]
fn partition_of_a_tensor_that_the_tile_does_not_divide() {
    let copy = cp_async();
    // 100 rows are not a multiple of the tile's 16 (seed mode 1).
    let e = copy.partition(&physical("(100,64):(64,1)")).unwrap_err();
    assert_eq!(
        e,
        Error::NotDivisible {
            mode: layout_core::ModePath::from_indices(&[1]).unwrap(),
            size: 100,
            tile: 16
        }
    );
    let e = copy.partition(&physical("128:1")).unwrap_err();
    assert_eq!(e, Error::TileRank { rank: 1, tile: 2 });
}

/// The first vector, in thread then value order, that breaks the rules on one side, from the
/// offsets alone: `(thread, value, rule)`.
fn first_break(
    per_thread: &[Vec<i64>],
    base: i64,
    width: usize,
) -> Option<(i64, i64, &'static str)> {
    for (t, offs) in per_thread.iter().enumerate() {
        for first in (0..offs.len()).step_by(width) {
            if (offs[first] + base).rem_euclid(width as i64) != 0 {
                return Some((t as i64, first as i64, "copy-vector-aligned"));
            }
            for k in 1..width {
                if offs[first + k] != offs[first] + k as i64 {
                    return Some((t as i64, (first + k) as i64, "copy-vector-contiguous"));
                }
            }
        }
    }
    None
}

#[test]
fn vector_width_decided_and_checked() {
    let Some(out) = cute() else { return };
    let copy = cp_async();
    let gmem = gmem_tile(264);
    let smem = swizzled_smem();
    let src: Vec<Vec<i64>> = (0..128).map(|t| offsets(out, "gmem_S", t)).collect();
    let dst: Vec<Vec<i64>> = (0..128).map(|t| offsets(out, "smem_D", t)).collect();
    let largest = |s: &[Vec<i64>], d: &[Vec<i64>], sb: i64, db: i64| {
        (1..=8usize)
            .rev()
            .find(|&w| {
                8 % w == 0 && first_break(s, sb, w).is_none() && first_break(d, db, w).is_none()
            })
            .unwrap() as i64
    };
    assert_eq!(largest(&src, &dst, 0, 0), 8);
    assert_eq!(
        copy.max_vector(Storage::new(&gmem), Storage::new(&smem))
            .unwrap(),
        8
    );
    copy.check_vector(Storage::new(&gmem), Storage::new(&smem))
        .unwrap();
    // Every base offset: the widest vector is the largest power of two dividing it (up to 8).
    for base in 0..16 {
        let expected = largest(&src, &dst, base, 0);
        let s = Storage::new(&gmem).with_base(base);
        assert_eq!(
            copy.max_vector(s, Storage::new(&smem)).unwrap(),
            expected,
            "base {base}"
        );
        let (t, v, rule) = match first_break(&src, base, 8) {
            Some(b) => b,
            None => {
                copy.check_vector(s, Storage::new(&smem)).unwrap();
                continue;
            }
        };
        let e = copy.check_vector(s, Storage::new(&smem)).unwrap_err();
        assert_eq!(e.rule(), rule);
        assert!(matches!(
            e,
            Error::CopyVectorAligned { side: CopySide::Source, thread, value, offset, base: b, width: 8 }
                if thread == t && value == v && offset == src[t as usize][v as usize] && b == base
        ));
    }
    // Leading dimensions: the offsets from CuTe's tile coordinates and the leading dimension
    // (row 128 + m, column 128 + n of A), for every ld from 256 to 272.
    let tile: Vec<Vec<(i64, i64)>> = (0..128).map(|t| coords(out, "tv_cp_async", t)).collect();
    for ld in 256..=272 {
        let src: Vec<Vec<i64>> = tile
            .iter()
            .map(|c| {
                (0..8)
                    .flat_map(|rm| {
                        c.iter()
                            .map(move |&(m, n)| (128 + 16 * rm + m) * ld + 128 + n)
                    })
                    .collect()
            })
            .collect();
        let gmem = gmem_tile(ld);
        assert_eq!(
            copy.max_vector(Storage::new(&gmem), Storage::new(&smem))
                .unwrap(),
            largest(&src, &dst, 0, 0),
            "ld {ld}"
        );
        match first_break(&src, 0, 8) {
            None => copy
                .check_vector(Storage::new(&gmem), Storage::new(&smem))
                .unwrap(),
            Some((t, v, rule)) => {
                let e = copy
                    .check_vector(Storage::new(&gmem), Storage::new(&smem))
                    .unwrap_err();
                assert_eq!(e.rule(), rule, "ld {ld}");
                assert!(matches!(
                    e,
                    Error::CopyVectorAligned { side: CopySide::Source, thread, value, .. }
                        if thread == t && value == v
                ));
            }
        }
    }
    // A column-major destination: no two of a thread's values are neighbours.
    let col = physical("(128,64):(1,128)");
    let e = copy
        .check_vector(Storage::new(&gmem), Storage::new(&col))
        .unwrap_err();
    assert_eq!(
        e,
        Error::CopyVectorContiguous {
            side: CopySide::Destination,
            thread: 0,
            value: 1,
            offset: 128,
            expected: 1
        }
    );
    assert_eq!(
        copy.max_vector(Storage::new(&gmem), Storage::new(&col))
            .unwrap(),
        1
    );
    // A width that does not divide the atom's.
    let e = copy
        .check_vector_width(Storage::new(&gmem), Storage::new(&smem), 3)
        .unwrap_err();
    assert_eq!(
        e,
        Error::CopyVector {
            vector: 3,
            values: 8
        }
    );
    copy.check_vector_width(Storage::new(&gmem).with_base(4), Storage::new(&smem), 4)
        .unwrap();
}

#[test]
fn tiled_copy_rules() {
    let thr = Layout::from_cute("(16,8):(8,1)").unwrap();
    let e = TiledCopy::new(&thr, &Layout::from_cute("(1,8):(1,1)").unwrap(), 3).unwrap_err();
    assert_eq!(
        e,
        Error::CopyVector {
            vector: 3,
            values: 8
        }
    );
    let e = TiledCopy::new(
        &Layout::from_cute("(16,8):(8,2)").unwrap(),
        &Layout::from_cute("(1,8):(1,1)").unwrap(),
        8,
    )
    .unwrap_err();
    assert_eq!(e.rule(), "not-dense");
}

#[test]
fn copy_errors_say_which_thread_value_and_side() {
    let e = Error::CopyVectorAligned {
        side: CopySide::Source,
        thread: 8,
        value: 0,
        offset: 33668,
        base: 0,
        width: 8,
    };
    assert_eq!(
        e.to_string(),
        "tiled copy: thread 8's vector from value 0 starts at source offset 33668, base 0: not a multiple of the width 8"
    );
    let e = Error::CopyVectorContiguous {
        side: CopySide::Destination,
        thread: 0,
        value: 1,
        offset: 128,
        expected: 1,
    };
    assert_eq!(
        e.to_string(),
        "tiled copy: thread 0's value 1 is at destination offset 128, not 1: its vector is not contiguous"
    );
    assert_eq!(e.rule(), "copy-vector-contiguous");
    assert_eq!(
        Error::CopyVector {
            vector: 3,
            values: 8
        }
        .rule(),
        "copy-vector"
    );
    assert_eq!(
        Error::CommonVectorTooLarge {
            size: 1 << 23,
            limit: 1 << 22
        }
        .rule(),
        "too-large"
    );
    for e in [
        Error::CopyVector {
            vector: 3,
            values: 8,
        },
        Error::CommonVectorSize { a: 8, b: 16 },
        Error::CommonVectorTooLarge {
            size: 1 << 23,
            limit: 1 << 22,
        },
    ] {
        assert!(!e.to_string().is_empty() && e.help().is_some(), "{e:?}");
    }
}

/// The brute-force bank model: 32 banks of 4 bytes; a warp's instruction moves `bytes` per lane,
/// served in phases of `128 / bytes` lanes; a phase takes as many wavefronts as the most distinct
/// words one bank holds. Returns (total wavefronts, worst ways) of one warp.
fn brute_banks(per_thread: &[Vec<i64>], warp: usize, vector: usize, elem_bytes: i64) -> (u64, u64) {
    let bytes = vector as i64 * elem_bytes;
    let lanes_per_phase = (128 / bytes.max(4)) as usize;
    let (mut total, mut worst) = (0u64, 0u64);
    let values = per_thread[0].len();
    for first in (0..values).step_by(vector) {
        for phase in (0..32).step_by(lanes_per_phase) {
            let mut words: BTreeMap<i64, ()> = BTreeMap::new();
            for lane in phase..phase + lanes_per_phase {
                let o = per_thread[warp * 32 + lane][first];
                let start = o * elem_bytes;
                for w in start / 4..=(start + bytes - 1) / 4 {
                    words.insert(w, ());
                }
            }
            let mut per_bank = [0u64; 32];
            for w in words.keys() {
                per_bank[w.rem_euclid(32) as usize] += 1;
            }
            let wf = *per_bank.iter().max().unwrap();
            total += wf;
            worst = worst.max(wf);
        }
    }
    (total, worst)
}

#[test]
fn bank_conflicts_of_the_cp_async_partition() {
    let Some(out) = cute() else { return };
    let copy = cp_async();
    let sw = Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements).unwrap();
    let cases = [
        (
            "kmajor_sw_D",
            physical("((8,16),(8,8)):((8,512),(1,64))")
                .swizzle(sw)
                .unwrap(),
        ),
        ("kmajor_D", physical("((8,16),(8,8)):((8,512),(1,64))")),
        ("smem_D", swizzled_smem()),
        ("plain_D", physical("((8,16),64,3):((64,512),1,8192)")),
    ];
    let mut totals = BTreeMap::new();
    for (name, smem) in &cases {
        check_partition(&copy, smem, name);
        let per_thread: Vec<Vec<i64>> = (0..128).map(|t| offsets(out, name, t)).collect();
        let mine = copy_conflicts(&copy, smem, 16).unwrap();
        assert_eq!(mine.len(), 4);
        for (warp, c) in mine.iter().enumerate() {
            let (wavefronts, ways) = brute_banks(&per_thread, warp, 8, 2);
            assert_eq!(
                (c.wavefronts, c.ways),
                (wavefronts, ways),
                "{name}: warp {warp}"
            );
            assert_eq!(c.lanes_per_phase, 8);
            *totals.entry(*name).or_insert(0) += c.wavefronts - c.ideal;
        }
    }
    // sgemm_sm80's swizzled smem, one stage of 128×64 and the 3-stage buffer: no conflict; the
    // same K-major atom without its swizzle: 8 lanes of a phase in the same 4 banks, 8-way.
    assert_eq!(totals["kmajor_sw_D"], 0);
    assert_eq!(totals["smem_D"], 0);
    assert_eq!(
        totals["plain_D"], 0,
        "rows of 64 halves: a phase writes one 128-byte row"
    );
    let kmajor = copy_conflicts(&copy, &cases[1].1, 16).unwrap();
    assert!(kmajor.iter().all(|c| c.ways == 8));
    // 8 instructions × 4 phases × 8 wavefronts per warp, where one per phase would do.
    assert!(kmajor.iter().all(|c| (c.wavefronts, c.ideal) == (256, 32)));
    assert_eq!(totals["kmajor_D"], 4 * (256 - 32));
}

/// CuTe's `Swizzle<B,M,S>` on an offset, written from its definition.
fn cute_swizzle(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let mask = ((1i64 << b) - 1) << (m + s);
    x ^ ((x & mask) >> s)
}

/// `max_common_vector` by brute force: `b`'s offsets inverted by enumeration (the smallest flat
/// index reaching each offset), then the longest run `a(b⁻¹(n)) = n`.
fn brute_common(a: &dyn Fn(i64) -> i64, b: &dyn Fn(i64) -> i64, size: i64) -> i64 {
    let mut inv = BTreeMap::new();
    for i in (0..size).rev() {
        inv.insert(b(i), i);
    }
    let mut n = 0;
    while n < size && inv.get(&n).is_some_and(|&i| a(i) == n) {
        n += 1;
    }
    n.max(1)
}

#[test]
fn max_common_vector_against_cute() {
    let Some(out) = cute() else { return };
    let mcv = |name: &str| -> i64 { line(out, &format!("mcv {name}")).parse().unwrap() };
    let plain = |name: &str, a: &str, b: &str| {
        let (ca, cb) = (CuteText::parse(a).unwrap(), CuteText::parse(b).unwrap());
        let expected = brute_common(&|i| ca.eval(i), &|i| cb.eval(i), ca.size());
        assert_eq!(mcv(name), expected, "{name}: CuTe against the brute force");
        assert_eq!(
            max_common_vector(&physical(a), &physical(b)).unwrap(),
            expected,
            "{name}"
        );
    };
    plain("row_col", "(8,64):(64,1)", "(8,64):(1,8)");
    plain("row_row", "(8,64):(64,1)", "(8,64):(64,1)");
    plain("col_col", "(8,64):(1,8)", "(8,64):(1,8)");
    plain("padded", "(8,64):(72,1)", "(8,64):(64,1)");
    plain("nested", "(8,(8,8)):(8,(1,64))", "(8,64):(64,1)");
    plain(
        "nested_self",
        "(8,(8,8)):(8,(1,64))",
        "(8,(8,8)):(8,(1,64))",
    );
    plain("bcast_a", "(4,8):(0,1)", "(4,8):(8,1)");
    plain("bcast_b", "(4,8):(8,1)", "(4,8):(0,1)");
    plain("bcast_both", "(4,8):(0,1)", "(4,8):(0,1)");
    plain("bcast_fast", "(4,8):(1,0)", "(4,8):(1,0)");
    let pairs = random_pairs();
    for p in &pairs {
        let text = |s: &str| s.split('|').next().unwrap().to_string();
        plain(&p.name, &text(&p.a), &text(&p.b));
    }
    // Swizzles: ours is exact (brute force); CuTe's is the unswizzled layouts' vector capped by
    // 2^M, uncapped for two equal swizzles.
    let swizzled =
        |name: &str, a: (&str, Option<(i64, i64, i64)>), b: (&str, Option<(i64, i64, i64)>)| {
            let map = |(t, s): (&str, Option<(i64, i64, i64)>)| {
                let m = physical(t);
                match s {
                    Some((bb, mm, ss)) => m
                        .swizzle(Swizzle::from_cute(bb, mm, ss, SwizzleUnit::Elements).unwrap())
                        .unwrap(),
                    None => m,
                }
            };
            let eval = |(t, s): (&str, Option<(i64, i64, i64)>)| {
                let c = CuteText::parse(t).unwrap();
                move |i: i64| {
                    let o = c.eval(i);
                    s.map_or(o, |(bb, mm, ss)| cute_swizzle(bb, mm, ss, o))
                }
            };
            let size = CuteText::parse(a.0).unwrap().size();
            let exact = brute_common(&eval(a), &eval(b), size);
            assert_eq!(
                max_common_vector(&map(a), &map(b)).unwrap(),
                exact,
                "{name}"
            );
            let inner = max_common_vector(&physical(a.0), &physical(b.0)).unwrap();
            let cap = |s: Option<(i64, i64, i64)>| s.map_or(i64::MAX, |(_, m, _)| 1 << m);
            let theirs = if a.1.is_some() && a.1 == b.1 {
                inner
            } else {
                inner.min(cap(a.1)).min(cap(b.1))
            };
            assert_eq!(mcv(name), theirs, "{name}: CuTe's rule");
            exact
        };
    let row = "(8,64):(64,1)";
    let s333 = Some((3, 3, 3));
    assert_eq!(swizzled("sw_plain", (row, s333), (row, None)), 64);
    assert_eq!(swizzled("plain_sw", (row, None), (row, s333)), 64);
    assert_eq!(swizzled("sw_sw", (row, s333), (row, s333)), 512);
    assert_eq!(swizzled("sw_sw2", (row, s333), (row, Some((2, 3, 3)))), 256);
    assert_eq!(
        swizzled(
            "sw_col",
            ("(8,32):(1,8)", Some((2, 2, 3))),
            ("(8,32):(1,8)", None)
        ),
        32
    );
    // The rules.
    let e = max_common_vector(&physical("8:1"), &physical("16:1")).unwrap_err();
    assert_eq!(e, Error::CommonVectorSize { a: 8, b: 16 });
    let big = physical("(4096,2048):(2048,1)");
    let r = big.restrict(&[(1, 0)]).unwrap();
    assert_eq!(
        max_common_vector(&physical("2048:1"), &r).unwrap(),
        2048,
        "a restriction of 2048 positions is enumerated"
    );
    let all = layout_core::compose(
        &big,
        &Annotated::new(
            Layout::from_cute("(4096,2048):(2048,1)").unwrap(),
            Space::ThreadValue,
            Space::Logical,
        )
        .unwrap()
        .into(),
    )
    .unwrap();
    let e = max_common_vector(&big, &all).unwrap_err();
    assert_eq!(
        e,
        Error::CommonVectorTooLarge {
            size: 1 << 23,
            limit: 1 << 22
        }
    );
}

/// `max_common_vector` of every thread's partitions (restrictions of composites, offsets from
/// their bases) against the brute force on offsets computed from CuTe's tile coordinates, for
/// every pair of storages of the 128×64 tile.
#[test]
fn max_common_vector_of_thread_partitions() {
    let Some(out) = cute() else { return };
    let copy = cp_async();
    let tile: Vec<Vec<(i64, i64)>> = (0..128).map(|t| coords(out, "tv_cp_async", t)).collect();
    type Offset = fn(i64, i64) -> i64;
    let storages: [(&str, Map, Offset); 5] = [
        ("gmem", gmem_tile(264), |r, c| (128 + r) * 264 + 128 + c),
        ("row-major", physical("(128,64):(64,1)"), |r, c| r * 64 + c),
        ("column-major", physical("(128,64):(1,128)"), |r, c| {
            r + 128 * c
        }),
        (
            "thread-major",
            physical("((16,8),(8,8)):((512,8),(1,64))"),
            |r, c| (r % 16) * 512 + (r / 16) * 8 + (c % 8) + (c / 8) * 64,
        ),
        (
            "swizzled",
            physical("((8,16),(8,8)):((8,512),(1,64))")
                .swizzle(Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements).unwrap())
                .unwrap(),
            |r, c| {
                cute_swizzle(
                    3,
                    3,
                    3,
                    (r % 8) * 8 + (r / 8) * 512 + (c % 8) + (c / 8) * 64,
                )
            },
        ),
    ];
    let mut seen = BTreeMap::new();
    for (na, a, fa) in &storages {
        for (nb, b, fb) in &storages {
            for t in (0..128).step_by(7) {
                // Value i of the thread: tile value i % 8 of the (i / 8)-th 16-row block.
                let at = |f: &Offset, i: i64| {
                    let (m, n) = tile[t as usize][(i % 8) as usize];
                    f(16 * (i / 8) + m, n)
                };
                let expected =
                    brute_common(&|i| at(fa, i) - at(fa, 0), &|i| at(fb, i) - at(fb, 0), 64);
                let pa = copy.partition_thread(a, t).unwrap();
                let pb = copy.partition_thread(b, t).unwrap();
                assert_eq!(
                    max_common_vector(&pa, &pb).unwrap(),
                    expected,
                    "{na} against {nb}, thread {t}"
                );
                seen.insert(expected, ());
            }
        }
    }
    // Single elements, 8-element vectors and whole partitions.
    assert_eq!(seen.keys().copied().collect::<Vec<_>>(), [1, 8, 64]);
}

/// Checks a copy's partition of a column-major `(2·M, 3·N)` tensor (CuTe order) against
/// CuTe's partition of an identity tensor of that shape: every thread, value and repeat.
fn check_identity_partition(copy: &TiledCopy, name: &str, shape: (i64, i64)) {
    let Some(out) = cute() else { return };
    let storage = physical(&format!("({},{}):(1,{})", shape.0, shape.1, shape.0));
    let all = copy.partition(&storage).unwrap();
    for t in 0..copy.threads() {
        let theirs = coords(out, name, t);
        let mine = all.restrict_named(&[("thread", t)]).unwrap();
        assert_eq!(mine.size(), theirs.len() as i64, "{name}: thread {t}");
        for (i, &(m, n)) in theirs.iter().enumerate() {
            assert_eq!(
                mine.eval_index(i as i64).unwrap(),
                m + shape.0 * n,
                "{name}: thread {t} value {i}"
            );
        }
    }
}

#[test]
fn value_layouts_of_lower_rank_are_padded_as_cute_pads_them() {
    // make_tiled_copy(atom, thr) with CuTe's default Layout<_1>.
    let one = TiledCopy::new(
        &Layout::from_cute("(32,4):(4,1)").unwrap(),
        &Layout::from_cute("1:1").unwrap(),
        1,
    )
    .unwrap();
    assert_eq!(one.tile(), &[4, 32]);
    check_tv(&one, "tv_default", 32);
    // A rank-1 value layout of 4 values along M.
    let rank1 = TiledCopy::new(
        &Layout::from_cute("(8,4):(4,1)").unwrap(),
        &Layout::from_cute("4:1").unwrap(),
        2,
    )
    .unwrap();
    assert_eq!(rank1.tile(), &[4, 32]);
    check_tv(&rank1, "tv_rank1", 32);
    check_identity_partition(&rank1, "part_rank1", (64, 8));
}

#[test]
fn random_tiled_copies_against_cute() {
    for c in random_copies() {
        let copy = TiledCopy::new(
            &Layout::from_cute(&c.thr).unwrap(),
            &Layout::from_cute(&c.val).unwrap(),
            c.vector,
        )
        .unwrap_or_else(|e| panic!("{}: {} {}: {e}", c.name, c.thr, c.val));
        assert_eq!(copy.tile(), &[c.tile.1, c.tile.0], "{}", c.name);
        check_tv(&copy, &format!("tv_{}", c.name), c.tile.0);
        check_identity_partition(
            &copy,
            &format!("part_{}", c.name),
            (2 * c.tile.0, 3 * c.tile.1),
        );
    }
}

/// The gmem tile of `layout!` with run-time extents and leading dimension (a `DynamicMap`),
/// partitioned through its `layout_core` map: every thread and value against CuTe.
#[test]
fn gmem_partition_of_a_runtime_layout_macro_value() {
    use layout_typed::prelude::*;
    let (m, k, ld) = (384usize, 256usize, 264usize);
    // Seed order: (K, M), CuTe's (M, K):(ld, 1) reversed; the tile (64, 128), k-tile 2, m-tile 1.
    let g_a = layout!(restrict(
        divide([({k}, {m}):(1, {ld}), logical -> physical], (64, 128)),
        rest = (2, 1)
    ))
    .unwrap();
    check_partition(&cp_async(), &g_a.to_map(), "gmem_S");
}

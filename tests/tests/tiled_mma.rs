//! The tiled MMA (`layout_core::mma`) against CuTe C++: `tests/cpp/tiled_mma.cpp` builds CuTe's
//! `make_tiled_mma` for four configurations over the CUTLASS 4.2 headers and prints, for every
//! thread, the offset of every value of `partition_C`, `partition_A` and `partition_B` of a
//! padded storage layout (and, for sgemm_sm80's hgemm, `make_tiled_copy_A/B` with
//! `SM75_U32x4_LDSM_N` over the swizzled shared memory, and `retile_D` of the register
//! fragment). Each is compared with our partition restricted to that thread. The atoms are read
//! from the program's output (CuTe's `ALayout`, `BLayout`, `CLayout`), never retyped.
//!
//! Independently of CuTe, every thread-value layout is checked by enumeration to be a dense
//! bijection onto its (replicated) tile, and every operand partition to reach each storage
//! offset exactly once per copy (a read-only broadcast over the warps that repeat it).

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use layout_core::mma::{CopyAtom, MmaAtom, Operand, TiledMma, broadcast_map};
use layout_core::{Annotated, Error, Layout, Map, Space, Swizzle, SwizzleUnit};
use layout_tests::cute_cpp;

/// CuTe's output: per `(tag, config, thread)` the offsets, and per config the atom.
struct Cute {
    lines: HashMap<(String, String, i64), Vec<i64>>,
    atoms: HashMap<String, ([i64; 3], [String; 3])>,
    copy_atoms: HashMap<(String, String), [String; 2]>,
}

/// The program's output, compiled and run once for all the tests of this file (two tests
/// compiling the same program at once in one process would race for its executable).
fn cute() -> Option<&'static Cute> {
    static CUTE: OnceLock<Option<Cute>> = OnceLock::new();
    CUTE.get_or_init(|| {
        cute_cpp::run("tiled_mma", include_str!("../cpp/tiled_mma.cpp")).map(|out| parse(&out))
    })
    .as_ref()
}

fn parse(out: &str) -> Cute {
    let mut lines = HashMap::new();
    let mut atoms = HashMap::new();
    let mut copy_atoms = HashMap::new();
    for line in out.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["#", ..] | [] => {}
            ["ATOM", cfg, m, n, k, a, b, c] => {
                let mnk = [m.parse().unwrap(), n.parse().unwrap(), k.parse().unwrap()];
                let texts = [a, b, c].map(|t| t.replace('_', ""));
                atoms.insert((*cfg).to_string(), (mnk, texts));
            }
            ["CATOM", cfg, kind, src, dst] => {
                let texts = [src, dst].map(|t| t.replace('_', ""));
                copy_atoms.insert(((*cfg).to_string(), (*kind).to_string()), texts);
            }
            [tag, cfg, t, ":", values @ ..] => {
                let v = values.iter().map(|x| x.parse().unwrap()).collect();
                lines.insert(
                    ((*tag).to_string(), (*cfg).to_string(), t.parse().unwrap()),
                    v,
                );
            }
            _ => panic!("unexpected line `{line}`"),
        }
    }
    Cute {
        lines,
        atoms,
        copy_atoms,
    }
}

/// The configurations of the C++ program: name, warps `[WM, WN, 1]`, CTA tile `[M, N, K]`, and
/// CuTe's permutation tile where the program gives one.
/// A configuration: name, warps, CTA tile, permutation tile.
type Config = (&'static str, [i64; 3], [i64; 3], Option<[i64; 3]>);

const CONFIGS: [Config; 5] = [
    ("hgemm", [2, 2, 1], [128, 128, 64], Some([32, 32, 16])),
    ("k32", [2, 2, 1], [128, 128, 64], Some([32, 32, 32])),
    ("m4x1", [4, 1, 1], [128, 32, 32], None),
    ("m1x2", [1, 2, 1], [32, 32, 16], None),
    ("fa2", [4, 1, 1], [64, 64, 64], Some([64, 16, 16])),
];

fn tiled(c: &Cute, cfg: &str, warps: [i64; 3], tile: [i64; 3], perm: Option<[i64; 3]>) -> TiledMma {
    let (mnk, [a, b, cl]) = &c.atoms[cfg];
    let atom = MmaAtom::new(
        *mnk,
        Layout::from_cute(a).unwrap(),
        Layout::from_cute(b).unwrap(),
        Layout::from_cute(cl).unwrap(),
    )
    .unwrap();
    let mma = TiledMma::new(atom, warps, tile).unwrap();
    match perm {
        Some(p) => mma.with_permutation(p).unwrap(),
        None => mma,
    }
}

fn storage<const N: usize>(text: &str, tile: [i64; N]) -> Map {
    Annotated::new(text.parse().unwrap(), Space::Logical, Space::Physical)
        .unwrap()
        .with_tiles(Some(tile.to_vec()), None)
        .unwrap()
        .into()
}

/// The storage layouts of the C++ program, in seed order: C `(M,N):(1,M+3)`, A
/// `(M,K):(K+2,1)`, B `(N,K):(1,N+5)` in CuTe's.
fn storages(tile: [i64; 3]) -> [Map; 3] {
    let [m, n, k] = tile;
    [
        storage(&format!("({k},{m}):(1,{})", k + 2), [k, m]),
        storage(&format!("({k},{n}):({},1)", n + 5), [k, n]),
        storage(&format!("({n},{m}):({},1)", m + 3), [n, m]),
    ]
}

fn offsets(m: &Map) -> Vec<i64> {
    (0..m.size()).map(|i| m.eval_index(i).unwrap()).collect()
}

#[test]
fn partitions_match_cute_for_every_thread_and_value() {
    let Some(c) = cute() else { return };
    for (cfg, warps, tile, perm) in CONFIGS {
        let mma = tiled(c, cfg, warps, tile, perm);
        let [sa, sb, sc] = storages(tile);
        let parts = [
            ("A", mma.partition_a(&sa).unwrap()),
            ("B", mma.partition_b(&sb).unwrap()),
            ("C", mma.partition_c(&sc).unwrap()),
        ];
        assert_eq!(mma.threads(), 32 * warps[0] * warps[1]);
        for (tag, part) in &parts {
            assert_eq!(
                part.domain_names(),
                [Some("value".into()), Some("thread".into())]
            );
            assert_eq!(part.domain_entry_sizes()[1], mma.threads(), "{cfg} {tag}");
            for t in 0..mma.threads() {
                let ours = offsets(&part.restrict_named(&[("thread", t)]).unwrap());
                let theirs = &c.lines[&((*tag).to_string(), cfg.to_string(), t)];
                assert_eq!(&ours, theirs, "{cfg}: partition_{tag} of thread {t}");
            }
        }
    }
}

/// Every thread-value layout is a dense bijection onto its tile (by enumeration), whose
/// replicated copy index is the repeating warp's coordinate; every operand partition reaches
/// each storage offset exactly `copies` times.
#[test]
fn layouts_are_dense_and_partitions_broadcast_by_enumeration() {
    for (_, warps, tile, _) in CONFIGS {
        let atom = sm80_16x8x8();
        let mma = TiledMma::new(atom, warps, tile).unwrap();
        let [m, n, k] = tile;
        let threads = mma.threads();
        for (op, map, copies, per_copy) in [
            (Operand::A, mma.a().unwrap(), warps[1], m * k),
            (Operand::B, mma.b().unwrap(), warps[0], n * k),
            (Operand::C, mma.c().unwrap(), 1, m * n),
        ] {
            assert_eq!(map.domain(), Space::ThreadValue);
            assert_eq!(map.size(), copies * per_copy, "{op}");
            let seen: BTreeSet<i64> = offsets(&map).into_iter().collect();
            assert_eq!(seen.len() as i64, map.size(), "{op}: not a bijection");
            assert_eq!(seen.last(), Some(&(map.size() - 1)), "{op}: not dense");
            // The copy index of thread t is its warp's N (A) or M (B) coordinate.
            for t in 0..threads {
                let warp = t / 32;
                let copy = match op {
                    Operand::A => warp / warps[0],
                    Operand::B => warp % warps[0],
                    Operand::C => 0,
                };
                let values = map.size() / threads;
                for v in 0..values {
                    let idx = map.eval_index(t + threads * v).unwrap();
                    assert_eq!(idx / per_copy, copy, "{op} thread {t} value {v}");
                }
            }
        }
        // Partitions over a compact storage: each offset `copies` times.
        let [sa, sb, sc] = compact(tile);
        for (map, copies, size) in [
            (mma.partition_a(&sa).unwrap(), warps[1], m * k),
            (mma.partition_b(&sb).unwrap(), warps[0], n * k),
            (mma.partition_c(&sc).unwrap(), 1, m * n),
        ] {
            let mut count = vec![0i64; size as usize];
            for o in offsets(&map) {
                count[o as usize] += 1;
            }
            assert!(count.iter().all(|&x| x == copies), "{warps:?} {tile:?}");
        }
    }
}

fn compact(tile: [i64; 3]) -> [Map; 3] {
    let [m, n, k] = tile;
    [
        storage(&format!("({k},{m}):({m},1)"), [k, m]),
        storage(&format!("({k},{n}):({n},1)"), [k, n]),
        storage(&format!("({n},{m}):({m},1)"), [n, m]),
    ]
}

/// SM80_16x8x8_F16F16F16F16_TN from the typed atoms (the same values CuTe prints).
fn sm80_16x8x8() -> MmaAtom {
    use layout_typed::Layout as _;
    use layout_typed::atoms::sm80_16x8x8_f16f16f16f16_tn as a;
    let l = |m: Map| m.as_layout().unwrap().clone();
    MmaAtom::new(
        [16, 8, 8],
        l(a::A.to_map().unwrap()),
        l(a::B.to_map().unwrap()),
        l(a::C.to_map().unwrap()),
    )
    .unwrap()
}

#[test]
fn errors_are_precise() {
    let atom = sm80_16x8x8();
    // A tile that the atom times the warps does not divide, along each mode.
    for (d, tile) in [[48, 16, 16], [32, 12, 16], [32, 16, 12]]
        .into_iter()
        .enumerate()
    {
        assert_eq!(
            TiledMma::new(atom.clone(), [2, 1, 1], tile).unwrap_err(),
            Error::MmaTile {
                dim: d as u8,
                extent: tile[d],
                step: [32, 8, 8][d]
            }
        );
    }
    assert_eq!(
        TiledMma::new(atom.clone(), [1, 1, 2], [16, 8, 16]).unwrap_err(),
        Error::MmaWarpsK { warps: 2 }
    );
    assert_eq!(
        TiledMma::new(atom.clone(), [0, 1, 1], [16, 8, 8])
            .unwrap_err()
            .rule(),
        "tile-shape"
    );
    // A permutation tile that is not a multiple of atom × warps, or does not divide the tile.
    let mma = TiledMma::new(atom.clone(), [2, 1, 1], [64, 16, 16]).unwrap();
    assert_eq!(
        mma.clone().with_permutation([48, 8, 8]).unwrap_err(),
        Error::MmaTile {
            dim: 0,
            extent: 48,
            step: 32
        }
    );
    assert_eq!(
        mma.clone().with_permutation([32, 16, 16]).unwrap(),
        mma.clone().with_permutation([32, 16, 16]).unwrap()
    );
    assert_eq!(
        TiledMma::new(atom.clone(), [2, 1, 1], [32, 24, 8])
            .unwrap()
            .with_permutation([32, 16, 8])
            .unwrap_err(),
        Error::MmaTile {
            dim: 1,
            extent: 24,
            step: 16
        }
    );
    // An atom operand of the wrong size, rank or thread count.
    let a = atom.layout(Operand::A).clone();
    let c = atom.layout(Operand::C).clone();
    let b = atom.layout(Operand::B).clone();
    let e = MmaAtom::new([16, 8, 16], a.clone(), b.clone(), c.clone()).unwrap_err();
    assert_eq!(e.rule(), "mma-atom");
    assert!(
        matches!(
            e,
            Error::MmaAtomOperand {
                operand: Operand::A,
                size: 128,
                tile: 256,
                ..
            }
        ),
        "{e:?}"
    );
    let flat: Layout = "128:1".parse().unwrap();
    let e = MmaAtom::new([16, 8, 8], flat, b.clone(), c.clone()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::MmaAtomOperand {
                operand: Operand::A,
                rank: 1,
                ..
            }
        ),
        "{e:?}"
    );
    let b64: Layout = "(1,64):(1,1)".parse().unwrap();
    let e = MmaAtom::new([16, 8, 8], a.clone(), b64, c.clone()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::MmaAtomOperand {
                operand: Operand::B,
                threads: 64,
                expected_threads: 32,
                ..
            }
        ),
        "{e:?}"
    );
    // A leaf that wraps a column of the atom's tile unevenly: C of a 4×3 atom whose value
    // leaf steps by 3 down columns of 4 (a dense bijection, but not a layout of the CTA tile).
    let odd = MmaAtom::new(
        [4, 3, 3],
        "(4,3):(1,4)".parse().unwrap(),
        "(3,3):(3,1)".parse().unwrap(),
        "(4,3):(3,1)".parse().unwrap(),
    )
    .unwrap();
    let mma = TiledMma::new(odd, [1, 1, 1], [8, 3, 3]).unwrap();
    assert!(mma.a().is_ok());
    assert_eq!(
        mma.c().unwrap_err(),
        Error::EmbedStride {
            stride: 3,
            size: 4,
            extent: 4
        }
    );
    // A restriction of a composite cannot be broadcast (its fixed entry is the right
    // operand's); a restriction of a layout can (one stage of a buffer, below).
    let mma = TiledMma::new(atom, [1, 2, 1], [16, 16, 8]).unwrap();
    let big = storage("(2,8,16):(128,16,1)", [2, 8, 16]);
    let order: Map = Annotated::new(
        "(2,8,16):(128,16,1)".parse().unwrap(),
        Space::Logical,
        Space::Logical,
    )
    .unwrap()
    .into();
    let slice = layout_core::compose(&big, &order)
        .unwrap()
        .restrict(&[(0, 1)])
        .unwrap();
    assert_eq!(
        mma.partition_a(&slice).unwrap_err(),
        Error::BroadcastRestriction
    );
    assert_eq!(
        broadcast_map(&slice, 2).unwrap_err().rule(),
        "broadcast-restriction"
    );
    // The restriction of the layout itself: each stage broadcast as the stage's slice.
    let stage = big.restrict(&[(0, 1)]).unwrap();
    let b = broadcast_map(&stage, 2).unwrap();
    assert_eq!(b.domain_tile_shape(), Some(vec![2, 8, 16]));
    for c in 0..2 {
        for i in 0..128 {
            assert_eq!(
                b.eval_index(c * 128 + i).unwrap(),
                128 + 16 * (i / 16) + i % 16
            );
        }
    }
    let part = mma.partition_a(&stage).unwrap();
    let whole = mma.partition_a(&storage("(8,16):(16,1)", [8, 16])).unwrap();
    for i in 0..part.size() {
        assert_eq!(
            part.eval_index(i).unwrap(),
            128 + whole.eval_index(i).unwrap()
        );
    }
}

/// A swizzled storage and a composite storage are broadcast as the same function repeated.
#[test]
fn broadcast_of_every_storage_form() {
    let sw = Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements).unwrap();
    let base = storage("(16,64):(64,1)", [16, 64]);
    let swizzled = base.clone().swizzle(sw).unwrap();
    let perm: Map = Annotated::new(
        "(64,16):(1,64)".parse().unwrap(),
        Space::Logical,
        Space::Logical,
    )
    .unwrap()
    .with_tiles(Some(vec![16, 64]), Some(vec![16, 64]))
    .unwrap()
    .into();
    let composite = layout_core::compose(&swizzled, &perm).unwrap();
    for m in [base, swizzled, composite] {
        for copies in [1, 2, 3] {
            let b = broadcast_map(&m, copies).unwrap();
            assert_eq!(b.size(), copies * 1024);
            assert_eq!(b.domain_tile_shape(), Some(vec![copies, 16, 64]));
            for c in 0..copies {
                for i in 0..1024 {
                    assert_eq!(
                        b.eval_index(c * 1024 + i).unwrap(),
                        m.eval_index(i).unwrap()
                    );
                }
            }
        }
    }
}

/// sgemm_sm80's (and FA2's) shared memory of one stage, X×64 over the tile `(K, X)` (index
/// `x + X·k`): `Swizzle<3,3,3>` after CuTe's `tile_to_shape` of an 8×64 K-major atom (`"N"`)
/// or of a 64×8 M-major atom (`"T"`), written in seed order.
fn smem(kind: &str, x: i64) -> Map {
    let inner = match kind {
        "N" => format!("(64,({},8)):(1,(512,64))", x / 8),
        _ => format!("((8,8),({},64)):(({},64),(512,1))", x / 64, 512 * (x / 64)),
    };
    let sw = Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements).unwrap();
    storage(&inner, [64, x]).swizzle(sw).unwrap()
}

/// `make_tiled_copy_A/B` with `SM75_U32x4_LDSM_N` (K-major smem) and `SM75_U16x8_LDSM_T`
/// (M-/N-major smem): `partition_S` for every thread and value, and `retile_D`.
#[test]
fn ldmatrix_copies_match_cute_for_every_thread_and_value() {
    let Some(c) = cute() else { return };
    let mut compared = 0;
    for ((cfg, kind), [src, dst]) in &c.copy_atoms {
        let (_, warps, tile, perm) = CONFIGS.iter().find(|x| x.0 == cfg).copied().unwrap();
        let mma = tiled(c, cfg, warps, tile, perm);
        let atom = CopyAtom::new(
            Layout::from_cute(src).unwrap(),
            Layout::from_cute(dst).unwrap(),
        )
        .unwrap();
        let s = smem(kind, tile[0]);
        for (op, copy, tv) in [
            ("A", mma.copy_a(&atom).unwrap(), mma.a().unwrap()),
            ("B", mma.copy_b(&atom).unwrap(), mma.b().unwrap()),
        ] {
            let part = copy.partition_s(&s).unwrap();
            assert_eq!(
                part.domain_names(),
                [Some("value".into()), Some("thread".into())]
            );
            for t in 0..mma.threads() {
                let ours = offsets(&part.restrict_named(&[("thread", t)]).unwrap());
                let theirs = &c.lines[&(format!("S{op}{kind}"), cfg.clone(), t)];
                assert_eq!(
                    &ours, theirs,
                    "{cfg} {kind}: partition_S of {op}, thread {t}"
                );
            }
            // retile_D of a compact register fragment: its offsets are the fragment's values.
            let theirs = &c.lines[&(format!("R{op}{kind}"), cfg.clone(), 0)];
            assert_eq!(
                &offsets(copy.retile()),
                theirs,
                "{cfg} {kind}: retile of {op}"
            );
            let n = theirs.len() as i64;
            let regs: Map = Annotated::new(
                format!("{n}:1").parse().unwrap(),
                Space::Logical,
                Space::Physical,
            )
            .unwrap()
            .into();
            assert_eq!(&offsets(&copy.retile_d(&regs).unwrap()), theirs);
            // Independently: the destination gives each thread the MMA's positions of that
            // thread, and `retile` finds each in the MMA's fragment.
            let dst = copy.destination();
            let threads = mma.threads();
            let values = dst.size() / threads;
            let retile = offsets(copy.retile());
            for t in 0..threads {
                for j in 0..values {
                    let at = dst.eval_index(t + threads * j).unwrap();
                    let i = retile[j as usize];
                    assert_eq!(tv.eval_index(t + threads * i).unwrap(), at, "{op} {t} {j}");
                }
            }
            for m in [copy.source(), copy.destination()] {
                let seen: BTreeSet<i64> = offsets(m).into_iter().collect();
                assert_eq!(seen.len() as i64, m.size());
                assert_eq!(seen.last(), Some(&(m.size() - 1)));
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 10);
    // Stage 2 of sgemm_sm80's 3-stage buffer (CuTe `((8,16),64,3):((64,512),1,8192)` under the
    // swizzle), restricted before the partition.
    let mma = tiled(c, "hgemm", [2, 2, 1], [128, 128, 64], Some([32, 32, 16]));
    let (_, [src, dst]) = c
        .copy_atoms
        .iter()
        .find(|(k, _)| k.0 == "hgemm" && k.1 == "N")
        .unwrap();
    let atom = CopyAtom::new(
        Layout::from_cute(src).unwrap(),
        Layout::from_cute(dst).unwrap(),
    )
    .unwrap();
    let sw = Swizzle::from_cute(3, 3, 3, SwizzleUnit::Elements).unwrap();
    let buffer = storage("(3,64,(16,8)):(8192,1,(512,64))", [3, 64, 128])
        .swizzle(sw)
        .unwrap();
    let part = mma
        .copy_a(&atom)
        .unwrap()
        .partition_s(&buffer.restrict(&[(0, 2)]).unwrap())
        .unwrap();
    for t in 0..mma.threads() {
        let ours = offsets(&part.restrict_named(&[("thread", t)]).unwrap());
        let theirs = &c.lines[&("SAN3".to_string(), "hgemm".to_string(), t)];
        assert_eq!(&ours, theirs, "stage 2, thread {t}");
    }
}

#[test]
fn copy_errors_are_precise() {
    let mma = TiledMma::new(sm80_16x8x8(), [2, 1, 1], [32, 8, 8]).unwrap();
    // 8 values per thread of an x4 ldmatrix, but A holds 4 per thread in one tile.
    let x4 = CopyAtom::new(
        "(8,32):(1,8)".parse().unwrap(),
        "((4,2),32):((64,1),2)".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(
        mma.copy_a(&x4).unwrap_err(),
        Error::CopyAtomFit {
            atom_values: 8,
            values: 4,
            atom_threads: 32,
            threads: 64
        }
    );
    let e = CopyAtom::new(
        "(8,32):(1,8)".parse().unwrap(),
        "(4,32):(1,4)".parse().unwrap(),
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::SizeMismatch {
            left: 256,
            right: 128
        }
    );
    let e = CopyAtom::new(
        "(8,32):(1,8)".parse().unwrap(),
        "(16,16):(1,16)".parse().unwrap(),
    )
    .unwrap_err();
    assert_eq!(e, Error::CopyAtomThreads { src: 32, dst: 16 });
    assert_eq!(
        e.to_string(),
        "a copy atom's source has 32 threads but its destination 16"
    );
    let e = CopyAtom::new("256:1".parse().unwrap(), "(16,16):(1,16)".parse().unwrap()).unwrap_err();
    assert_eq!(e, Error::CopyAtomThreads { src: 0, dst: 16 });
    // A copy whose source does not land on the reference as a layout: over a 4×3 atom (A:
    // value m, thread k), a source `3·v + t` read through the destination's inverse
    // (`e ↦ 3·(e mod 4) + e div 4`) is not separable (Theorem 1).
    let atom = MmaAtom::new(
        [4, 3, 3],
        "(4,3):(1,4)".parse().unwrap(),
        "(3,3):(3,1)".parse().unwrap(),
        "(4,3):(3,1)".parse().unwrap(),
    )
    .unwrap();
    let mma = TiledMma::new(atom, [1, 1, 1], [4, 3, 3]).unwrap();
    let odd = CopyAtom::new(
        "(4,3):(3,1)".parse().unwrap(),
        "(4,3):(1,4)".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(mma.copy_a(&odd).unwrap_err(), Error::TiledCopyNotLayout);
    // The same atom copying through its own layout is the MMA's layout again.
    let same = CopyAtom::new(
        "(4,3):(1,4)".parse().unwrap(),
        "(4,3):(1,4)".parse().unwrap(),
    )
    .unwrap();
    let copy = mma.copy_a(&same).unwrap();
    assert_eq!(offsets(copy.source()), offsets(&mma.a().unwrap()));
}

/// Each rule of the module: its name, a message with its numbers, and a help.
#[test]
fn rules_have_messages_and_help() {
    let cases = [
        (
            Error::MmaAtomOperand {
                operand: Operand::B,
                rank: 2,
                size: 64,
                tile: 128,
                threads: 32,
                expected_threads: 32,
            },
            "mma-atom",
            "MMA atom operand B has 64 positions but its tile has 128",
        ),
        (
            Error::MmaTile {
                dim: 1,
                extent: 24,
                step: 16,
            },
            "mma-tile",
            "tiled MMA extent 24 along N is not a positive multiple of 16",
        ),
        (
            Error::MmaWarpsK { warps: 2 },
            "mma-warps-k",
            "2 warps along K: a tiled MMA here has one warp along K",
        ),
        (
            Error::EmbedStride {
                stride: 3,
                size: 4,
                extent: 4,
            },
            "embed-stride",
            "a leaf of size 4 and stride 3 does not step along one mode of its tile (extent 4) without wrapping unevenly",
        ),
        (
            Error::CopyAtomFit {
                atom_values: 8,
                values: 4,
                atom_threads: 32,
                threads: 64,
            },
            "copy-atom-fit",
            "a copy atom of 32 threads × 8 values does not fit an operand of 64 threads × 4 values per tile",
        ),
        (
            Error::TiledCopyNotLayout,
            "tiled-copy",
            "the tiled copy is not a layout",
        ),
        (
            Error::BroadcastRestriction,
            "broadcast-restriction",
            "a restriction of a composite cannot be repeated by a broadcast",
        ),
        (
            Error::MmaOperandBroadcast {
                operand: Operand::A,
            },
            "mma-operand-broadcast",
            "MMA operand A is read whole by every thread of the atom",
        ),
    ];
    for (e, rule, message) in cases {
        assert_eq!(e.rule(), rule);
        assert!(e.to_string().starts_with(message), "{e}");
        assert!(!e.help().expect("a help").to_string().is_empty(), "{e:?}");
    }
}

/// The ldmatrix copies of sgemm_sm80 read the swizzled shared memory without a bank conflict
/// (every warp, every instruction: each lane's 16-byte row, 8 lanes a phase), and the same
/// copies of the unswizzled memory with 8-way conflicts. The tile is the replicated one, so the
/// storage is broadcast over the copies.
#[test]
fn ldmatrix_copies_are_conflict_free_on_the_swizzled_memory() {
    use layout_core::banks::{WarpAccess, conflicts};
    let atom = MmaAtom::new(
        [16, 8, 16],
        Layout::from_cute("((4,8),(2,2,2)):((32,1),(16,8,128))").unwrap(),
        Layout::from_cute("((4,8),(2,2)):((16,1),(8,64))").unwrap(),
        Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))").unwrap(),
    )
    .unwrap();
    let mma = TiledMma::new(atom, [2, 2, 1], [128, 128, 64])
        .unwrap()
        .with_permutation([32, 32, 16])
        .unwrap();
    let ldsm = CopyAtom::new(
        Layout::from_cute("(32,8):(8,1)").unwrap(),
        Layout::from_cute("(32,(2,4)):(2,(1,64))").unwrap(),
    )
    .unwrap();
    let plain = storage("(64,(16,8)):(1,(512,64))", [64, 128]);
    for (copy, copies) in [
        (mma.copy_a(&ldsm).unwrap(), 2),
        (mma.copy_b(&ldsm).unwrap(), 2),
    ] {
        let tv = copy.source().as_layout().unwrap().clone();
        for (smem, ways) in [(smem("N", 128), 1), (plain.clone(), 8)] {
            let smem = broadcast_map(&smem, copies).unwrap();
            for warp in 0..4 {
                let access = WarpAccess {
                    element_bits: 16,
                    vector: 8,
                    warp,
                    thread_mode: 1,
                };
                let r = conflicts(&smem, &tv, &access).unwrap();
                assert_eq!(r.ways, ways, "warp {warp}");
            }
        }
    }
}

/// The fragments' register order against CuTe: `tests/cpp/fragment_order.cpp` prints
/// `partition_fragment_A/B` of a 2×2-warp SM80 16x8x16 tiled MMA over 64×64 tiles of A and B for
/// six shared-memory layouts: K-major, padded K-major, M/N-major (no swizzle: every stride
/// static, ordered), `Swizzle<3,3,3>` and `Swizzle<2,3,3>` over K-major atoms (a thread's values
/// reach the destination bits only: CuTe's slice turns them into run-time strides, ordered
/// last) and `Swizzle<3,3,3>` over M/N-major atoms (B's values reach both fields: the swizzle is
/// kept, the strides static). `TiledMma::fragment_a/b` must give CuTe's register for every value.
#[test]
fn fragment_register_order_matches_cute() {
    let Some(out) = cute_cpp::run("fragment_order", include_str!("../cpp/fragment_order.cpp"))
    else {
        return;
    };
    let atom = MmaAtom::new(
        [16, 8, 16],
        Layout::from_cute("((4,8),(2,2,2)):((32,1),(16,8,128))").unwrap(),
        Layout::from_cute("((4,8),(2,2)):((16,1),(8,64))").unwrap(),
        Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))").unwrap(),
    )
    .unwrap();
    let mma = TiledMma::new(atom, [2, 2, 1], [64, 64, 64])
        .unwrap()
        .with_permutation([32, 32, 16])
        .unwrap();
    // CuTe's tile_to_shape(atom, (64, 64)): the atom repeated along M (N) first, then K.
    let tiled = |atom: &str, repeats: &str, sw: Option<(i64, i64, i64)>| -> Map {
        let l = layout_core::repeat_modewise(
            &Layout::from_cute(atom).unwrap(),
            &Layout::from_cute(repeats).unwrap(),
        )
        .unwrap();
        let m: Map = Annotated::new(l, Space::Logical, Space::Physical)
            .unwrap()
            .with_tiles(Some(vec![64, 64]), None)
            .unwrap()
            .into();
        match sw {
            Some((b, mm, s)) => m
                .swizzle(Swizzle::from_cute(b, mm, s, SwizzleUnit::Elements).unwrap())
                .unwrap(),
            None => m,
        }
    };
    let cases = [
        ("kmajor", tiled("(64,64):(64,1)", "(1,1):(1,1)", None)),
        ("padded", tiled("(64,64):(72,1)", "(1,1):(1,1)", None)),
        ("mnmajor", tiled("(64,64):(1,64)", "(1,1):(1,1)", None)),
        (
            "sw333_k",
            tiled("(8,64):(64,1)", "(8,1):(1,8)", Some((3, 3, 3))),
        ),
        (
            "sw233_k",
            tiled("(8,32):(32,1)", "(8,2):(1,8)", Some((2, 3, 3))),
        ),
        (
            "sw333_mn",
            tiled("(64,8):(1,64)", "(1,8):(1,1)", Some((3, 3, 3))),
        ),
    ];
    let mut compared = 0;
    for (name, smem) in &cases {
        for (op, regs) in [
            ("A", mma.fragment_a(smem).unwrap()),
            ("B", mma.fragment_b(smem).unwrap()),
        ] {
            let ours: Vec<i64> = (0..regs.size())
                .map(|i| regs.eval_index(i).unwrap())
                .collect();
            for t in [0, 37, 127] {
                let head = format!("{name} {op} t={t} : ");
                let line = out
                    .lines()
                    .find(|l| l.starts_with(&head))
                    .unwrap_or_else(|| panic!("no line {head}"));
                let theirs: Vec<i64> = line[head.len()..]
                    .split(' ')
                    .map(|x| x.parse().unwrap())
                    .collect();
                assert_eq!(ours, theirs, "{name} {op} t={t}");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 36);
    // Not every order is the values' order: the rule is exercised.
    assert!(
        out.lines()
            .any(|l| l.starts_with("sw233_k A") && l.contains(" 15 32 "))
    );
}

/// `fragment_like`'s own rules, by brute force: the first mode compact, the rest ordered by
/// stride with run-time strides last, on small partitions; and each error.
#[test]
fn fragment_like_rules_and_errors() {
    use layout_core::mma::fragment_like;
    // No swizzle: rest leaves (seed, slowest first) 3:100, 2:7 ordered 7 < 100.
    let p: Layout = "(3,2,4):(100,7,1)".parse().unwrap();
    let r = fragment_like(&p, 4, None).unwrap();
    for i in 0..24 {
        let (v, k, m) = (i % 4, (i / 4) % 2, i / 8);
        assert_eq!(r.eval_index(i).unwrap(), v + 4 * k + 8 * m, "{i}");
    }
    // A leaf split at the first mode's boundary: 8:1 with 2 atom values.
    let s = fragment_like(&"(2,8):(64,1)".parse().unwrap(), 2, None).unwrap();
    // Rest leaves: 4:2 (from the split) before 2:64.
    for i in 0..16 {
        let (v, a, b) = (i % 2, (i / 2) % 4, i / 8);
        assert_eq!(s.eval_index(i).unwrap(), v + 2 * a + 8 * b, "{i}");
    }
    // Swizzle<1,1,1> (src bit 2, dst bit 1): a rest leaf on bit 1 is run-time and goes last.
    let sw = Swizzle::from_cute(1, 1, 1, SwizzleUnit::Elements).unwrap();
    let q = fragment_like(&"(2,2,2):(2,8,1)".parse().unwrap(), 2, Some(sw)).unwrap();
    // Values: v (stride 1), then 8 (static, first), then 2 (bit 1, run-time, last).
    for i in 0..8 {
        let (v, a, b) = (i % 2, (i / 2) % 2, i / 4);
        assert_eq!(q.eval_index(i).unwrap(), v + 2 * a + 4 * b, "{i}");
    }
    // A leaf reaching both bit 1 and bit 2: not reducible, all static (2 < 8).
    let q2 = fragment_like(&"(2,4,2):(16,2,1)".parse().unwrap(), 2, Some(sw)).unwrap();
    for i in 0..16 {
        let (v, a, b) = (i % 2, (i / 2) % 4, i / 8);
        assert_eq!(q2.eval_index(i).unwrap(), v + 2 * a + 8 * b, "{i}");
    }
    assert_eq!(
        fragment_like(&"(3,4):(4,1)".parse().unwrap(), 8, None).unwrap_err(),
        Error::FragmentSplit {
            values: 8,
            size: 12
        }
    );
    assert_eq!(
        fragment_like(&"(3,4):(4,1)".parse().unwrap(), 6, None).unwrap_err(),
        Error::FragmentSplit {
            values: 6,
            size: 12
        }
    );
    assert_eq!(
        fragment_like(&"(3,4):(4,1)".parse().unwrap(), 4, Some(sw)).unwrap_err(),
        Error::FragmentSwizzleLeaf { size: 3, stride: 4 }
    );
    assert_eq!(
        fragment_like(&"(2,(2,2)):(8,(8,1))".parse().unwrap(), 2, None).unwrap_err(),
        Error::FragmentStrideTie { stride: 8 }
    );
    // A size-1 leaf of the same stride between them does not hide the tie.
    assert_eq!(
        fragment_like(&"(2,1,2,2):(8,8,8,1)".parse().unwrap(), 2, None).unwrap_err(),
        Error::FragmentStrideTie { stride: 8 }
    );
    for (e, rule) in [
        (
            Error::FragmentSplit {
                values: 8,
                size: 12,
            },
            "fragment-split",
        ),
        (
            Error::FragmentSwizzleLeaf { size: 3, stride: 4 },
            "fragment-swizzle-leaf",
        ),
        (
            Error::FragmentStrideTie { stride: 8 },
            "fragment-stride-tie",
        ),
    ] {
        assert_eq!(e.rule(), rule);
        assert!(!e.to_string().is_empty());
        assert!(!e.help().expect("a help").to_string().is_empty(), "{e:?}");
    }
}

/// An atom given as CuTe's texts, with the texts kept for the brute-force model.
struct TextAtom {
    mnk: [i64; 3],
    texts: [String; 3],
    lanes: i64,
}

impl TextAtom {
    /// The atom's threads: 4 for the small atoms here, a warpgroup for GMMA.
    fn new(mnk: [i64; 3], a: &str, b: &str, c: &str) -> TextAtom {
        TextAtom {
            mnk,
            texts: [a, b, c].map(str::to_string),
            lanes: if mnk[0] == 64 { 128 } else { 4 },
        }
    }

    fn atom(&self) -> MmaAtom {
        let [a, b, c] = self.texts.each_ref().map(|t| Layout::from_cute(t).unwrap());
        MmaAtom::new(self.mnk, a, b, c).unwrap()
    }
}

/// The brute-force model of `partition_A` (`x = 0`) or `partition_B` (`x = 1`) of a tiled MMA:
/// thread `t = lane + T·(wm + WM·wn)`, fragment value `v = fv + V·(rest + R·restk)` (CuTe's
/// `(FrgV, RestX, RestK)`); the atom's text evaluated colexicographically at `lane + T·fv` gives
/// the position `x_a + X_a·k_a` in the atom's tile (a broadcast atom gives the same for every
/// lane); the warp along X and the rests place it: `x = x_a + X_a·(w + W·rest)`,
/// `k = k_a + K_a·restk`; the storage is `x + (X + 3)·k`.
fn brute_operand(ta: &TextAtom, x: usize, warps: [i64; 3], tile: [i64; 3]) -> Vec<Vec<i64>> {
    let text = layout_tests::CuteText::parse(&ta.texts[x]).unwrap();
    let lanes = ta.lanes;
    let (ax, ak) = (ta.mnk[x], ta.mnk[2]);
    let (w_x, w_k) = (warps[x], tile[2]);
    let big_x = tile[x];
    let values_atom = text.size() / lanes;
    let rest = big_x / (ax * w_x);
    let restk = w_k / ak;
    let threads = lanes * warps[0] * warps[1];
    (0..threads)
        .map(|t| {
            let (lane, w) = (t % lanes, t / lanes);
            let (wm, wn) = (w % warps[0], w / warps[0]);
            let wx = if x == 0 { wm } else { wn };
            (0..values_atom * rest * restk)
                .map(|v| {
                    let (fv, r, rk) = (
                        v % values_atom,
                        (v / values_atom) % rest,
                        v / (values_atom * rest),
                    );
                    let pos = text.eval(lane + lanes * fv);
                    let (xa, ka) = (pos % ax, pos / ax);
                    let xx = xa + ax * (wx + w_x * r);
                    let kk = ka + ak * rk;
                    xx + (big_x + 3) * kk
                })
                .collect()
        })
        .collect()
}

/// Atoms whose A or B every thread reads whole (GMMA `_SS`, `_RS`): taken by `MmaAtom::new`,
/// their partitions equal to the brute-force model for every thread, value and warp
/// arrangement, every thread of a warpgroup seeing the same offsets; C's partition unchanged
/// (a dense bijection). Broadcast A, B or both, a thread entry of one leaf or nested, real
/// GMMA atoms and small ones.
#[test]
fn broadcast_operands_partition_as_the_brute_force_model() {
    use layout_typed::Layout as _;
    use layout_typed::atoms::{
        sm90_64x64x16_f16f16f16_rs_k_k as rs, sm90_64x64x16_f16f16f16_ss_k_k as ss,
    };
    let cute_of = |m: Map| m.as_layout().unwrap().to_cute().to_string();
    let atoms = [
        // Small atoms: 4 threads, 4×4×2. C: thread -> m, value -> n.
        TextAtom::new(
            [4, 4, 2],
            "(4,(4,2)):(0,(1,4))",
            "(4,2):(1,4)",
            "(4,4):(1,4)",
        ),
        TextAtom::new(
            [4, 4, 2],
            "(4,2):(1,4)",
            "((2,2),(4,2)):((0,0),(1,4))",
            "(4,4):(1,4)",
        ),
        TextAtom::new(
            [4, 4, 2],
            "((2,2),(2,4)):((0,0),(4,1))",
            "(4,(4,2)):(0,(1,4))",
            "(4,4):(1,4)",
        ),
        // SM90_64x64x16_F16F16F16_SS<K,K> and _RS<K,K>, from the typed atoms.
        TextAtom::new(
            [64, 64, 16],
            &cute_of(ss::A.to_map().unwrap()),
            &cute_of(ss::B.to_map().unwrap()),
            &cute_of(ss::C.to_map().unwrap()),
        ),
        TextAtom::new(
            [64, 64, 16],
            &cute_of(rs::A.to_map().unwrap()),
            &cute_of(rs::B.to_map().unwrap()),
            &cute_of(rs::C.to_map().unwrap()),
        ),
    ];
    let mut checked = 0;
    for ta in &atoms {
        let atom = ta.atom();
        let [am, an, ak] = ta.mnk;
        let small = am == 4;
        let arrangements: &[[i64; 3]] = if small {
            &[[1, 1, 1], [2, 1, 1], [1, 2, 1], [2, 2, 1]]
        } else {
            &[[1, 1, 1], [2, 1, 1]]
        };
        for &warps in arrangements {
            let reps: &[[i64; 3]] = if small {
                &[[1, 1, 1], [2, 3, 2]]
            } else {
                &[[1, 1, 1]]
            };
            for r in reps {
                let tile = [am * warps[0] * r[0], an * warps[1] * r[1], ak * r[2]];
                let mma = TiledMma::new(atom.clone(), warps, tile).unwrap();
                let [m, n, k] = tile;
                let sa = storage(&format!("({k},{m}):({},1)", m + 3), [k, m]);
                let sb = storage(&format!("({k},{n}):({},1)", n + 3), [k, n]);
                for (x, part) in [
                    (0, mma.partition_a(&sa).unwrap()),
                    (1, mma.partition_b(&sb).unwrap()),
                ] {
                    let expected = brute_operand(ta, x, warps, tile);
                    assert_eq!(expected.len() as i64, mma.threads());
                    for (t, e) in expected.iter().enumerate() {
                        let ours = offsets(&part.restrict_named(&[("thread", t as i64)]).unwrap());
                        assert_eq!(
                            &ours, e,
                            "{:?} operand {x} warps {warps:?} tile {tile:?} thread {t}",
                            ta.texts
                        );
                    }
                    let op = if x == 0 { Operand::A } else { Operand::B };
                    if atom.is_broadcast(op) {
                        // The whole warpgroup reads the same offsets.
                        let lanes = atom.threads() as usize;
                        assert!(expected.chunks(lanes).all(|w| w.iter().all(|l| l == &w[0])));
                        assert_eq!(mma.copies(op), atom.threads() * warps[1 - x]);
                    }
                    checked += 1;
                }
                // C stays a dense bijection onto the M×N tile.
                layout_core::check_dense_bijection(mma.c().unwrap().as_layout().unwrap()).unwrap();
            }
        }
    }
    assert_eq!(checked, 2 * (3 * 4 * 2 + 2 * 2));
}

/// A broadcast operand: its copy (`make_tiled_copy_A/B`) is refused with
/// `MmaOperandBroadcast`; an operand whose thread entry is only partly broadcast, or whose
/// values are not a dense bijection onto the tile, is refused as before.
#[test]
fn broadcast_operand_errors_are_precise() {
    let c = Layout::from_cute("(4,4):(1,4)").unwrap();
    let dense = Layout::from_cute("(4,2):(1,4)").unwrap();
    let bcast = Layout::from_cute("(4,(4,2)):(0,(1,4))").unwrap();
    let atom = MmaAtom::new([4, 4, 2], bcast.clone(), dense.clone(), c.clone()).unwrap();
    assert!(atom.is_broadcast(Operand::A));
    assert!(!atom.is_broadcast(Operand::B));
    let mma = TiledMma::new(atom, [1, 1, 1], [4, 4, 2]).unwrap();
    let copy = CopyAtom::new(
        Layout::from_cute("(4,2):(1,4)").unwrap(),
        Layout::from_cute("(4,2):(1,4)").unwrap(),
    )
    .unwrap();
    let e = mma.copy_a(&copy).unwrap_err();
    assert_eq!(
        e,
        Error::MmaOperandBroadcast {
            operand: Operand::A
        }
    );
    assert_eq!(e.rule(), "mma-operand-broadcast");
    assert!(mma.copy_b(&copy).is_ok());
    // Part of the thread entry broadcast: not a dense bijection, not a broadcast.
    let partial = Layout::from_cute("((2,2),(2,2)):((0,1),(2,4))").unwrap();
    let e = MmaAtom::new([4, 4, 2], partial, dense.clone(), c.clone()).unwrap_err();
    assert!(
        ["not-dense", "broadcast-not-dense"].contains(&e.rule()),
        "{e}"
    );
    // Broadcast values that miss part of the tile (8 values onto 16 positions of 4×4).
    let gappy = Layout::from_cute("(4,(4,2)):(0,(1,8))").unwrap();
    let e = MmaAtom::new(
        [4, 4, 4],
        gappy,
        Layout::from_cute("(4,4):(1,4)").unwrap(),
        c.clone(),
    )
    .unwrap_err();
    assert_eq!(e.rule(), "not-dense");
    // Broadcast values of another size than the tile.
    let e = MmaAtom::new(
        [4, 4, 4],
        bcast,
        Layout::from_cute("(4,4):(1,4)").unwrap(),
        c,
    )
    .unwrap_err();
    assert_eq!(
        e,
        Error::MmaAtomOperand {
            operand: Operand::A,
            rank: 2,
            size: 8,
            tile: 16,
            threads: 4,
            expected_threads: 4
        }
    );
}

/// A storage without a tile whose entries are the transposed operand tile is refused, not
/// partitioned as if it were the operand's (same size, other orientation); a storage whose
/// entries group into the operand's tile (or one flat entry) is taken.
#[test]
fn a_transposed_storage_is_refused() {
    let atom = MmaAtom::new(
        [16, 8, 16],
        Layout::from_cute("((4,8),(2,2,2)):((32,1),(16,8,128))").unwrap(),
        Layout::from_cute("((4,8),(2,2)):((16,1),(8,64))").unwrap(),
        Layout::from_cute("((4,8),(2,2)):((32,1),(16,8))").unwrap(),
    )
    .unwrap();
    // CTA tile M = 64, N = 32, K = 16: A is (K, M) = (16, 64) in seed order.
    let mma = TiledMma::new(atom, [2, 2, 1], [64, 32, 16]).unwrap();
    let phys = |text: &str| -> Map {
        Annotated::new(text.parse().unwrap(), Space::Logical, Space::Physical)
            .unwrap()
            .into()
    };
    let transposed = phys("(64,16):(16,1)");
    assert!(matches!(
        mma.partition_a(&transposed).unwrap_err(),
        Error::TileMismatch { .. }
    ));
    assert!(matches!(
        mma.partition_c(&phys("(64,32):(32,1)")).unwrap_err(),
        Error::TileMismatch { .. }
    ));
    assert!(matches!(
        mma.partition_b(&phys("(32,16):(16,1)")).unwrap_err(),
        Error::TileMismatch { .. }
    ));
    // The operand's tile, as two entries, as three entries grouping into it, and flat.
    let two = mma.partition_a(&phys("(16,64):(64,1)")).unwrap();
    let three = mma.partition_a(&phys("(16,8,8):(64,8,1)")).unwrap();
    let flat = mma.partition_a(&phys("(1024):(1)")).unwrap();
    for i in 0..two.size() {
        let o = two.eval_index(i).unwrap();
        assert_eq!(three.eval_index(i).unwrap(), o);
        assert_eq!(flat.eval_index(i).unwrap(), o);
    }
}

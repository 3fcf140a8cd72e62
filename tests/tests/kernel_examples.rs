//! The kernel examples of `layout-typed/examples/` against CuTe C++ over the CUTLASS 4.2
//! headers: each example prints every layout of a real kernel, built by the algebra, in the line
//! format of a C++ program that builds the same kernel's layouts with CuTe
//! (`tests/cpp/*.cpp`, run by `layout_tests::cute_cpp::run`); the two outputs must be equal line
//! by line. Besides, the properties a kernel relies on, checked here independently of CuTe: the
//! copies' vector width and alignment, and zero shared-memory bank conflicts.
//!
//! Outside CI the CuTe comparisons skip when the headers are missing; under `CI=true` that is a
//! failure.

#[allow(dead_code)]
#[path = "../../layout-typed/examples/sgemm_sm80_layouts.rs"]
mod sgemm_sm80;

#[allow(dead_code)]
#[path = "../../layout-typed/examples/flash_attention2_layouts.rs"]
mod flash_attention2;

use std::sync::OnceLock;

use layout_core::Map;
use layout_core::banks::{WarpAccess, conflicts, copy_conflicts};
use layout_core::copy::Storage;
use layout_core::mma::broadcast_map;
use layout_tests::cute_cpp;

/// The example's output, built once for the tests of this file.
fn sgemm_sm80_output() -> &'static str {
    static OUT: OnceLock<String> = OnceLock::new();
    OUT.get_or_init(|| sgemm_sm80::layouts().expect("the example's layouts"))
}

/// Compares two outputs line by line, naming the first line that differs.
fn assert_same_lines(what: &str, ours: &str, theirs: &str) {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), theirs.lines().collect());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(x, y, "{what}: line {} differs", i + 1);
    }
    assert_eq!(a.len(), b.len(), "{what}: line counts");
    assert!(!a.is_empty(), "{what}: no output");
}

/// sgemm_sm80's layouts: every thread's partitions (gmem tiles of A, B, C: the first and the
/// residue tile of each mode; every smem stage; the ldmatrix sources; the fragments and
/// `retile_D`) and every predicate, equal to CuTe's.
#[test]
fn sgemm_sm80_layouts_match_cute() {
    let ours = sgemm_sm80_output();
    // 128 threads × (4 lines × 3 stages + 4 fragment lines + 4 tiles × (2 k-tiles × 4 + 2)).
    assert_eq!(ours.lines().count(), 128 * (12 + 4 + 4 * 10));
    let Some(theirs) = cute_cpp::run("sgemm_sm80", include_str!("../cpp/sgemm_sm80.cpp")) else {
        return;
    };
    assert_same_lines("sgemm_sm80", ours, &theirs);
}

/// The residue tiles are predicated: in the last tile of each mode some values are off (`-`),
/// each exactly where its coordinate passes the extent.
#[test]
fn sgemm_sm80_residue_tiles_are_predicated() {
    let ours = sgemm_sm80_output();
    let mut off = 0;
    for line in ours.lines().filter(|l| l.starts_with("tApA")) {
        let head = line.split(" : ").next().unwrap();
        let offsets = ours
            .lines()
            .find(|l| l.starts_with(&head.replace("tApA", "tAgA")))
            .unwrap();
        let coords: Vec<&str> = line.split(" : ").nth(1).unwrap().split(' ').collect();
        let offs: Vec<&str> = offsets.split(" : ").nth(1).unwrap().split(' ').collect();
        for (c, o) in coords.iter().zip(&offs) {
            let v: Vec<i64> = c.split(',').map(|x| x.parse().unwrap()).collect();
            let inside = v[0] < 300 && v[1] < 200;
            assert_eq!(v[2] == 1, inside, "{head}: {c}");
            assert_eq!(*o == "-", !inside, "{head}: {c} {o}");
            if inside {
                // A is K-major with leading dimension 208: the offset is m·208 + k.
                assert_eq!(o.parse::<i64>().unwrap(), v[0] * 208 + v[1], "{head}: {c}");
            } else {
                off += 1;
            }
        }
    }
    assert!(off > 0, "the residue tiles have values off");
}

/// The copies' vector: 128-bit (8 halves) between a global tile whose leading dimension is a
/// multiple of 8 and the swizzled shared memory; 4 halves when the leading dimension is only a
/// multiple of 4.
#[test]
fn sgemm_sm80_copy_vector_is_decided_and_checked() {
    let copy = sgemm_sm80::gmem_copy().unwrap();
    let stage = sgemm_sm80::smem().unwrap().restrict(&[(0, 0)]).unwrap();
    for (ld, width) in [(208, 8), (204, 4), (201, 1)] {
        let tile: Map = layout_core::Annotated::new(
            layout_core::Layout::from_cute(&format!("(128,64):({ld},1)")).unwrap(),
            layout_core::Space::Logical,
            layout_core::Space::Physical,
        )
        .unwrap()
        .into();
        let v = copy
            .max_vector(Storage::new(&tile), Storage::new(&stage))
            .unwrap();
        assert_eq!(v, width, "leading dimension {ld}");
    }
}

/// Zero bank conflicts: the 128-bit cp.async writes into the swizzled shared memory, and the
/// ldmatrix reads of A and B from it, for every warp.
#[test]
fn sgemm_sm80_copies_are_conflict_free() {
    let copy = sgemm_sm80::gmem_copy().unwrap();
    let smem = sgemm_sm80::smem().unwrap();
    let stage = smem.restrict(&[(0, 0)]).unwrap();
    let per_warp = copy_conflicts(&copy, &smem, 16).unwrap();
    assert_eq!(per_warp.len(), 4);
    assert!(per_warp.iter().all(|c| c.is_conflict_free()));
    let mma = sgemm_sm80::tiled_mma().unwrap();
    let ldsm = sgemm_sm80::ldsm_atom().unwrap();
    for copy in [mma.copy_a(&ldsm).unwrap(), mma.copy_b(&ldsm).unwrap()] {
        // The A (B) tile is replicated over the 2 warps along N (M): the storage is broadcast.
        let smem = broadcast_map(&stage, 2).unwrap();
        let tv = copy.source().as_layout().unwrap().clone();
        for warp in 0..4 {
            let access = WarpAccess {
                element_bits: 16,
                vector: 8,
                warp,
                thread_mode: 1,
            };
            assert_eq!(
                conflicts(&smem, &tv, &access).unwrap().ways,
                1,
                "warp {warp}"
            );
        }
    }
}

/// FlashAttention-2's example output, built once for the tests of this file.
fn flash_attention2_output() -> &'static str {
    static OUT: OnceLock<String> = OnceLock::new();
    OUT.get_or_init(|| flash_attention2::layouts().expect("the example's layouts"))
}

/// FlashAttention-2's layouts: the swizzled Q, K and transposed V shared memory at every index;
/// for every thread the ldmatrix sources of Q, K and Vᵀ, the fragments' registers in CuTe's
/// order, `retile_D`, the accumulator, its re-layout as P and its rows, equal to CuTe's.
#[test]
fn flash_attention2_layouts_match_cute() {
    let ours = flash_attention2_output();
    // 3 shared-memory lines, then 128 threads × 11 lines.
    assert_eq!(ours.lines().count(), 3 + 128 * 11);
    let Some(theirs) = cute_cpp::run(
        "flash_attention2",
        include_str!("../cpp/flash_attention2.cpp"),
    ) else {
        return;
    };
    assert_same_lines("flash_attention2", ours, &theirs);
}

/// The values of one line of the example's output, by its head (`NAME t=T`).
fn fa2_line(head: &str) -> Vec<i64> {
    let line = flash_attention2_output()
        .lines()
        .find(|l| l.split(" : ").next() == Some(head))
        .unwrap_or_else(|| panic!("no line {head}"));
    line.split(" : ")
        .nth(1)
        .unwrap()
        .split(' ')
        .map(|x| x.parse().unwrap())
        .collect()
}

/// P = the S accumulators re-laid out (`convert_layout_acc_Aregs`) is the A operand of P·V:
/// for every thread, value `j` of the second GEMM's A fragment (row m, key k of P) is the
/// register holding S at (m, k) in the first GEMM's accumulators.
#[test]
fn flash_attention2_p_feeds_the_second_gemm() {
    let mma_s = flash_attention2::tiled_mma([128, 64, 128]).unwrap();
    let mma_o = flash_attention2::tiled_mma([128, 128, 64]).unwrap();
    let (c, a) = (mma_s.c().unwrap(), mma_o.a().unwrap());
    let threads = mma_s.threads();
    assert_eq!((threads, mma_o.threads()), (128, 128));
    for t in 0..threads {
        let p = fa2_line(&format!("tOrP t={t}"));
        assert_eq!(p.len(), 64);
        for (j, &reg) in p.iter().enumerate() {
            // A of P·V: index m + 128·k (one copy: a single warp column).
            let pos_a = a.eval_index(j as i64 * threads + t).unwrap();
            // S: index m + 128·n.
            let pos_s = c.eval_index(reg * threads + t).unwrap();
            assert_eq!(pos_a, pos_s, "thread {t}, value {j}, register {reg}");
        }
    }
}

/// Each thread's rows for the row max and row sum: in the m16n8k16 accumulator, lane `l` of warp
/// `w` holds rows `16w + l/4` and `+ 8` of each 64-row tile (PTX's `groupID`), so the four lanes
/// of a quad hold the same rows and a row reduction is a reduction over the quad.
#[test]
fn flash_attention2_rows_are_the_quads_rows() {
    let mut holders = vec![Vec::new(); 128];
    for t in 0..128i64 {
        let (w, l) = (t / 32, t % 32);
        let want: Vec<i64> = [0, 8, 64, 72].iter().map(|d| 16 * w + l / 4 + d).collect();
        let rows = fa2_line(&format!("rows t={t}"));
        assert_eq!(rows, want, "thread {t}");
        for r in rows {
            holders[r as usize].push(t);
        }
    }
    for (r, h) in holders.iter().enumerate() {
        assert_eq!(h.len(), 4, "row {r}");
        assert!(h.iter().all(|t| t / 4 == h[0] / 4), "row {r}: {h:?}");
    }
}

/// The ldmatrix copies fill the registers the MMA reads, whatever their order: for every thread
/// and copy value `i`, the register `retile_D(frag)(i)` receives the position of the operand
/// tile that the copy's destination gives value `i` (ldmatrix delivers a row to other threads
/// than the one that addresses it), and the MMA value in that register reads the same position.
#[test]
fn flash_attention2_copies_fill_the_fragments() {
    let mma_s = flash_attention2::tiled_mma([128, 64, 128]).unwrap();
    let mma_o = flash_attention2::tiled_mma([128, 128, 64]).unwrap();
    let copy_q = mma_s
        .copy_a(&flash_attention2::ldsm_n_atom().unwrap())
        .unwrap();
    let copy_v = mma_o
        .copy_b(&flash_attention2::ldsm_t_atom().unwrap())
        .unwrap();
    let cases = [
        (
            "tSrQ",
            "tSsQr",
            copy_q.destination().clone(),
            mma_s.a().unwrap(),
        ),
        (
            "tOrVt",
            "tOrVtr",
            copy_v.destination().clone(),
            mma_o.b().unwrap(),
        ),
    ];
    for t in 0..128 {
        for (regs, view, dst, operand) in &cases {
            let regs = fa2_line(&format!("{regs} t={t}"));
            let view = fa2_line(&format!("{view} t={t}"));
            let n = regs.len() as i64;
            assert_eq!(view.len() as i64, n);
            assert_eq!(n * 128, dst.size(), "thread {t}");
            // The registers are a permutation of 0..n.
            let mut sorted = regs.clone();
            sorted.sort_unstable();
            assert!(sorted.iter().copied().eq(0..n), "thread {t}");
            for (i, r) in view.iter().enumerate() {
                let v = regs.iter().position(|x| x == r).unwrap() as i64;
                assert_eq!(
                    operand.eval_index(v * 128 + t).unwrap(),
                    dst.eval_index(i as i64 * 128 + t).unwrap(),
                    "thread {t}, copy value {i}, register {r}"
                );
            }
        }
    }
}

/// Zero bank conflicts for the ldmatrix reads of Q, K and Vᵀ from the swizzled shared memory,
/// every warp.
#[test]
fn flash_attention2_ldmatrix_reads_are_conflict_free() {
    let mma_s = flash_attention2::tiled_mma([128, 64, 128]).unwrap();
    let mma_o = flash_attention2::tiled_mma([128, 128, 64]).unwrap();
    let ldsm_n = flash_attention2::ldsm_n_atom().unwrap();
    let ldsm_t = flash_attention2::ldsm_t_atom().unwrap();
    let cases = [
        (
            mma_s.copy_a(&ldsm_n).unwrap(),
            flash_attention2::smem(128).unwrap(),
            1,
        ),
        (
            mma_s.copy_b(&ldsm_n).unwrap(),
            flash_attention2::smem(64).unwrap(),
            4,
        ),
        (
            mma_o.copy_b(&ldsm_t).unwrap(),
            flash_attention2::smem_vt().unwrap(),
            4,
        ),
    ];
    for (k, (copy, smem, copies)) in cases.iter().enumerate() {
        // The B tiles are replicated over the 4 warps along M: the storage is broadcast.
        let smem = broadcast_map(smem, *copies).unwrap();
        let tv = copy.source().as_layout().unwrap().clone();
        for warp in 0..4 {
            let access = WarpAccess {
                element_bits: 16,
                vector: 8,
                warp,
                thread_mode: 1,
            };
            assert_eq!(
                conflicts(&smem, &tv, &access).unwrap().ways,
                1,
                "copy {k}, warp {warp}"
            );
        }
    }
}

/// `TiledMma::fragment_a/b` of a pipeline stage (a restriction of the swizzled 3-stage buffer):
/// sgemm_sm80's fragments are in value order, as CuTe's `tCrA`, `tCrB` print them (the
/// example's lines, compared with CuTe above).
#[test]
fn sgemm_sm80_fragments_of_a_stage_are_cutes() {
    let mma = sgemm_sm80::tiled_mma().unwrap();
    let stage = sgemm_sm80::smem().unwrap().restrict(&[(0, 0)]).unwrap();
    let out = sgemm_sm80_output();
    for (name, regs) in [
        ("tCrA t=0", mma.fragment_a(&stage).unwrap()),
        ("tCrB t=0", mma.fragment_b(&stage).unwrap()),
    ] {
        let line = out
            .lines()
            .find(|l| l.split(" : ").next() == Some(name))
            .unwrap();
        let theirs: Vec<i64> = line
            .split(" : ")
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        let ours: Vec<i64> = (0..regs.size())
            .map(|i| regs.eval_index(i).unwrap())
            .collect();
        assert_eq!(ours, theirs, "{name}");
    }
}

/// The fragment of V read through its transposed view is the same with and without the view's
/// swizzle (a composite whose left side is swizzled: CuTe keeps that swizzle when it slices, so
/// every stride is static), and it is CuTe's `tOrVt`.
#[test]
fn flash_attention2_fragment_of_the_transposed_view() {
    let mma_o = flash_attention2::tiled_mma([128, 128, 64]).unwrap();
    let swizzled = mma_o
        .fragment_b(&flash_attention2::smem_vt().unwrap())
        .unwrap();
    let plain = mma_o
        .fragment_b(&flash_attention2::smem_vt_plain().unwrap())
        .unwrap();
    let line = fa2_line("tOrVt t=0");
    for regs in [swizzled, plain] {
        let ours: Vec<i64> = (0..regs.size())
            .map(|i| regs.eval_index(i).unwrap())
            .collect();
        assert_eq!(ours, line);
    }
}

#[allow(dead_code)]
#[path = "../../layout-typed/examples/hopper_smem_layouts.rs"]
mod hopper_smem;

/// The Hopper example's output, built once for the tests of this file.
fn hopper_smem_output() -> &'static str {
    static OUT: OnceLock<String> = OnceLock::new();
    OUT.get_or_init(|| hopper_smem::layouts().expect("the example's layouts"))
}

/// The Hopper GEMM's shared-memory side: the SW128 K-major smem over every stage, every
/// thread's wgmma view of A (a broadcast: `same` for every thread after the first), every
/// thread's accumulator partition of the first and the residue C tiles with their predicates,
/// and the TMA box origins of A's tiles, equal to CuTe's.
#[test]
fn hopper_smem_layouts_match_cute() {
    let ours = hopper_smem_output();
    // sA, 128 tCsA lines, 4 C tiles × 128 threads × 2 lines, 2 × 2 box origins.
    assert_eq!(ours.lines().count(), 1 + 128 + 4 * 128 * 2 + 4);
    let Some(theirs) = cute_cpp::run("hopper_smem", include_str!("../cpp/hopper_smem.cpp")) else {
        return;
    };
    assert_same_lines("hopper_smem", ours, &theirs);
}

/// The Hopper shared memory is CuTe's 128-byte swizzle, checked from its definition: element
/// (m, k) of stage p (16-byte chunk `k / 8` of the 128-byte row m) lies at chunk
/// `(k / 8) ^ (m % 8)` of that row, rows 64 elements apart, stages 128·64 apart. So every stage
/// is a bijection onto its own 8192 elements and every 8 consecutive k (one 16-byte vector of
/// TMA and wgmma) are contiguous and aligned.
#[test]
fn hopper_smem_is_the_128_byte_swizzle() {
    let s = hopper_smem::smem().unwrap();
    let mut seen = vec![false; 4 * 128 * 64];
    for p in 0..4i64 {
        for k in 0..64i64 {
            for m in 0..128i64 {
                let expected = 8192 * p + 64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8;
                // Seed order (stage, k, m): m fastest.
                let o = s.eval_index(m + 128 * (k + 64 * p)).unwrap();
                assert_eq!(o, expected, "m {m} k {k} stage {p}");
                assert!(!std::mem::replace(&mut seen[o as usize], true));
            }
        }
    }
}

/// The accumulator partition of the residue C tiles: a value is predicated on exactly when
/// its coordinate lies inside the 300×260 matrix, and its offset is then `m + 304·n`; every
/// element of C is written by exactly one (thread, value) of one tile.
#[test]
fn hopper_smem_c_tiles_are_predicated() {
    let ours = hopper_smem_output();
    let mut written = std::collections::HashSet::new();
    let mut off = 0;
    for line in ours.lines().filter(|l| l.starts_with("tCpC")) {
        let head = line.split(" : ").next().unwrap();
        let offsets = ours
            .lines()
            .find(|l| l.starts_with(&format!("{} :", head.replace("tCpC", "tCgC"))))
            .unwrap();
        let coords: Vec<&str> = line.split(" : ").nth(1).unwrap().split(' ').collect();
        let offs: Vec<&str> = offsets.split(" : ").nth(1).unwrap().split(' ').collect();
        assert_eq!(coords.len(), 128);
        for (c, o) in coords.iter().zip(&offs) {
            let v: Vec<i64> = c.split(',').map(|x| x.parse().unwrap()).collect();
            let inside = v[0] < 300 && v[1] < 260;
            assert_eq!(v[2] == 1, inside, "{head}: {c}");
            if inside {
                assert_eq!(o.parse::<i64>().unwrap(), v[0] + 304 * v[1], "{head}: {c}");
                assert!(written.insert((v[0], v[1])), "{head}: {c} twice");
            } else {
                assert_eq!(*o, "-", "{head}: {c}");
                off += 1;
            }
        }
    }
    // The four tiles printed: (128 or 44) × (128 or 4) elements of C each.
    assert_eq!(written.len(), (128 + 44) * (128 + 4));
    assert_eq!(off, 4 * 128 * 128 - (128 + 44) * (128 + 4));
}

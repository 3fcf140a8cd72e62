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

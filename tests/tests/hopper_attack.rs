//! The Hopper GEMM attacked as a user would call it, without a GPU (`cpp/hopper_attack.cpp`,
//! built with AddressSanitizer and UndefinedBehaviorSanitizer):
//!
//! - the kernel template (`gpu/hopper/kernel.cuh`) over the generated functions on CPU threads
//!   (`gpu/hopper/host_emulation.hpp`) at every boundary it distinguishes, both accumulator
//!   types, A, B and C allocated to exactly their last element: every element equals the naive
//!   product, no padding element of C is written, no access leaves the matrices;
//! - the launcher's admission (`hg_gemm_supported`, `gpu/hopper/supported.hpp`) against a model
//!   written here of what the kernel and the driver do with each problem: every offset and
//!   coordinate the kernel forms, the grid, the tensor maps' rules, C's extent against A's and
//!   B's (the kernel writes C while other CTAs still load A and B). Everything admitted is
//!   correct; everything correct within the documented limits is admitted;
//! - the generator's configuration (`layout-typed/examples/gen_cuda/hopper.rs`): a schedule the
//!   kernel cannot run is refused (`check_schedule`), and the refusal of one stage is exact: the
//!   kernel template over the generated header with one stage deadlocks on CPU threads, with
//!   two it is correct (`cpp/hopper_stages.cpp`).

#[path = "../../layout-typed/examples/gen_cuda/hopper.rs"]
#[allow(dead_code)]
mod hopper;

use std::sync::OnceLock;

use layout_tests::host_cpp::{self, root};

/// The program's stdout (compiled and run once for every test).
fn output() -> &'static str {
    static OUT: OnceLock<String> = OnceLock::new();
    OUT.get_or_init(|| {
        host_cpp::run(
            "hopper-attack",
            include_str!("../cpp/hopper_attack.cpp"),
            &[
                "-std=c++20",
                "-O1",
                "-pthread",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
            ],
        )
    })
}

/// Every shape class, with the accumulator types each runs with: extents of 1 with K = 1; one
/// below, at and one past the tile in M, N and K; the ring exactly full (4 k tiles) and
/// wrapping once (5), twice (8) and into its third pass (9); ten M tiles with two N tiles (two
/// groups of the grouped CTA order, the second one short).
#[test]
fn the_hopper_gemm_is_exact_on_every_boundary_and_stays_inside_its_matrices() {
    let out = output();
    assert!(!out.contains("error:"), "{out}");
    let shapes: Vec<&str> = out.lines().filter(|l| l.starts_with("shape ")).collect();
    let expected = [
        ("k1", "f32", [1, 1, 1]),
        ("below", "f32", [63, 255, 65]),
        ("at", "f32", [64, 256, 64]),
        ("past", "f32", [65, 257, 63]),
        ("n1", "f32", [127, 1, 127]),
        ("both", "f32", [129, 129, 129]),
        ("ring_full", "f32", [255, 256, 256]),
        ("wrap_once", "f32", [256, 1, 257]),
        ("wrap_twice", "f32", [129, 63, 512]),
        ("nine_tiles", "f32", [128, 200, 513]),
        ("groups", "f32", [1153, 257, 8]),
        ("k1", "f16", [1, 1, 1]),
        ("past", "f16", [65, 257, 63]),
        ("wrap_once", "f16", [256, 1, 257]),
        ("groups", "f16", [1153, 257, 8]),
    ];
    assert_eq!(shapes.len(), expected.len(), "{out}");
    for (line, (name, acc, mnk)) in shapes.iter().zip(expected) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 11, "{line}");
        assert_eq!((f[1], f[2]), (name, acc), "{line}");
        let n: Vec<i64> = f[3..].iter().map(|x| x.parse().expect("integer")).collect();
        assert_eq!(n[..3], mnk, "{line}");
        assert_eq!(
            (n[6], n[7]),
            (0, 0),
            "{name} {acc}: wrong elements, clobbered padding"
        );
    }
}

/// Why the kernel cannot compute this problem correctly, or `None`. Written from the kernel
/// (`gpu/hopper/kernel.cuh`), the launcher (`gpu/hopper/launch.cuh`) and the CUDA driver's
/// rules for `cuTensorMapEncodeTiled`, not from `supported.hpp`.
#[allow(clippy::too_many_arguments)]
fn cannot(p: [i128; 9]) -> Option<&'static str> {
    let [m, n, k, lda, ldb, ldc, a, b, c] = p;
    let int_max = i128::from(i32::MAX);
    // The launcher's parameters are `int`.
    if [m, n, k, lda, ldb, ldc].iter().any(|&x| x > int_max) {
        return Some("an int parameter");
    }
    if m < 1 || n < 1 || k < 1 {
        return Some("an empty extent");
    }
    // The tensor maps: A (K, M) and B (K, N), K innermost, fp16.
    for (ptr, rows, ld) in [(a, m, lda), (b, n, ldb)] {
        if ptr == 0 || ptr % 16 != 0 {
            return Some("a tensor map's address");
        }
        if k > 1 << 32 || rows > 1 << 32 {
            return Some("a tensor map's dimension");
        }
        let stride = 2 * ld;
        if stride % 16 != 0 || stride >= 1 << 40 || stride < 2 * k {
            return Some("a tensor map's stride");
        }
    }
    // Box coordinates (int32): kt·64, bm·128, bn·256 for the last tile of each.
    let ceil = |x: i128, d: i128| (x + d - 1) / d;
    let (tk, tm, tn) = (ceil(k, 64), ceil(m, 128), ceil(n, 256));
    if (tk - 1) * 64 > int_max || (tm - 1) * 128 > int_max || (tn - 1) * 256 > int_max {
        return Some("a box coordinate");
    }
    // The 1-D grid (gridDim.x < 2^31) and the CTA order's 8·tn in uint32.
    if tm * tn > int_max || 8 * tn > i128::from(u32::MAX) {
        return Some("the grid");
    }
    // C: fp16 elements, distinct for distinct (m, n), outside A and B.
    if c == 0 || c % 2 != 0 {
        return Some("C's address");
    }
    if ldc < m {
        return Some("C's columns overlap");
    }
    let span = |p: i128, rows: i128, ld: i128, last: i128| (p, p + 2 * ((rows - 1) * ld + last));
    let cs = span(c, n, ldc, m);
    if cs.1 > i128::from(u64::MAX) {
        return Some("C past the address space");
    }
    for (lo, hi) in [span(a, m, lda, k), span(b, n, ldb, k)] {
        if cs.0 < hi && lo < cs.1 {
            return Some("C overlaps A or B");
        }
    }
    None
}

/// The limits the launcher documents (gpu/hopper/supported.hpp): extents up to 65536, leading
/// dimensions up to 2^31 − 1 (the launcher's `int`).
fn documented(p: [i128; 9]) -> bool {
    p[..3].iter().all(|&x| x <= 65536) && p[3..6].iter().all(|&x| x < 1 << 31)
}

/// Everything admitted can be computed; everything that can be, within the documented limits,
/// is admitted. Over extents around 1, 65536, 2^20 and 2^31 − 1; leading dimensions around
/// K, 8, 2^31 and 2^32; pointers null and at every alignment below 16; C before, touching,
/// overlapping and after A and B.
#[test]
fn the_admission_is_exactly_what_the_kernel_can_compute() {
    let out = output();
    let mut wrong = Vec::new();
    let mut counts = [0usize; 2];
    for line in out.lines().filter(|l| l.starts_with("admit ")) {
        let f: Vec<i128> = line
            .split_whitespace()
            .skip(1)
            .map(|x| x.parse().expect("integer"))
            .collect();
        assert_eq!(f.len(), 10, "{line}");
        let p: [i128; 9] = f[..9].try_into().expect("nine fields");
        let admitted = f[9] == 1;
        counts[usize::from(admitted)] += 1;
        let why = cannot(p);
        if admitted && why.is_some() {
            wrong.push(format!("admitted, but {}: {line}", why.unwrap_or_default()));
        }
        if !admitted && why.is_none() && documented(p) {
            wrong.push(format!("refused within the documented limits: {line}"));
        }
    }
    assert!(counts[0] > 500 && counts[1] > 100, "{counts:?}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `tests/cpp/hopper_stages.cpp` over a copy of `gpu/hopper/`, `gpu/host_barrier.hpp` and of the generated header with
/// `HG_STAGES` set to `stages` (the only use of the ring's size in the kernel: stage `kt %
/// HG_STAGES` and its parity): its line.
fn with_stages(stages: u32) -> String {
    let dir = std::env::temp_dir().join(format!(
        "layout-hopper-stages-{stages}-{}",
        std::process::id()
    ));
    for sub in ["gpu/hopper", "gpu/gen"] {
        std::fs::create_dir_all(dir.join(sub)).expect("temp dir");
    }
    for f in std::fs::read_dir(root().join("gpu/hopper")).expect("gpu/hopper") {
        let f = f.expect("entry").path();
        let name = f.file_name().expect("file name");
        std::fs::copy(&f, dir.join("gpu/hopper").join(name)).expect("copy");
    }
    std::fs::copy(
        root().join("gpu/host_barrier.hpp"),
        dir.join("gpu/host_barrier.hpp"),
    )
    .expect("copy");
    let header = std::fs::read_to_string(root().join("gpu/gen/hopper_gemm.cuh")).expect("header");
    let line = "#define HG_STAGES 4\n";
    assert_eq!(header.matches(line).count(), 1, "the header's HG_STAGES");
    let header = header.replace(line, &format!("#define HG_STAGES {stages}\n"));
    std::fs::write(dir.join("gpu/gen/hopper_gemm.cuh"), header).expect("write");
    let include = format!("-I{}", dir.display());
    let out = host_cpp::run(
        "hopper-stages",
        include_str!("../cpp/hopper_stages.cpp"),
        &[
            "-std=c++20",
            "-O2",
            "-pthread",
            "-Wall",
            "-Wextra",
            "-Werror",
            &include,
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// One stage deadlocks from the second k tile on (the consumers release a stage one k tile
/// late), two stages compute the product: the generator refuses exactly fewer than two.
#[test]
fn one_stage_deadlocks_and_the_generator_refuses_it() {
    let one = with_stages(1);
    assert!(
        one.starts_with("stages 1 error: CTA 0: no progress"),
        "one stage: {one}"
    );
    assert_eq!(with_stages(2).trim_end(), "stages 2 ok 0");
    let (p, q) = (hopper::PRODUCER_REGS, hopper::CONSUMER_REGS);
    for stages in -1..=1 {
        let e = hopper::check_schedule(stages, 8, 2, p, q).expect_err("one stage");
        assert!(e.to_string().contains("STAGES"), "{e}");
    }
    for stages in 2..=8 {
        hopper::check_schedule(stages, 8, 2, p, q).expect("two stages and more");
    }
}

/// The register budgets: 384 threads enter with ⌊65536 / 384⌋ = 170 → 168 registers each; the
/// producer's warpgroup releases 128·(168 − P), the two consumers' need 256·(Q − 168). One
/// consumer (256 threads, 248 at entry) would have to lower its budget with `.inc`; three
/// (512 threads, 128 at entry) need 384·104 registers more than 128·88 released. A group of no
/// M tile divides by zero.
#[test]
fn the_generator_refuses_a_schedule_the_kernel_cannot_run() {
    let ok = |s, g, c, p, q| hopper::check_schedule(s, g, c, p, q).is_ok();
    assert!(ok(4, 8, 2, 40, 232));
    assert!(ok(4, 1, 2, 40, 232));
    assert!(!ok(4, 0, 2, 40, 232));
    assert!(!ok(4, 8, 0, 40, 232));
    assert!(!ok(4, 8, 1, 40, 232));
    assert!(!ok(4, 8, 3, 40, 232));
    // 128·(168 − 24) = 18432 = 256·(240 − 168): exactly enough; one register more is not.
    assert!(ok(4, 8, 2, 24, 240));
    assert!(!ok(4, 8, 2, 24, 248));
    assert!(!ok(4, 8, 2, 32, 240));
    assert!(!ok(4, 8, 2, 176, 232));
    assert!(!ok(4, 8, 2, 40, 160));
    // The budgets the generator checks are the kernel's.
    let kernel = std::fs::read_to_string(root().join("gpu/hopper/kernel.cuh")).expect("kernel");
    assert!(kernel.contains(&format!(
        "#define HG_PRODUCER_REGS {}\n",
        hopper::PRODUCER_REGS
    )));
    assert!(kernel.contains(&format!(
        "#define HG_CONSUMER_REGS {}\n",
        hopper::CONSUMER_REGS
    )));
    let launch = std::fs::read_to_string(root().join("gpu/hopper/launch.cuh")).expect("launch");
    assert!(launch.contains("__launch_bounds__(HG_THREADS, 1)"));
}

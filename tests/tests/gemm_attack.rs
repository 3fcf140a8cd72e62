//! The generated GEMM attacked as a user would call it, without a GPU: the kernel template
//! (`gpu/gemm/kernel.cuh`) over the generated functions (`gpu/gen/gemm.cuh`) on CPU threads
//! through the host emulation, over the class of problem shapes, built with AddressSanitizer
//! and UndefinedBehaviorSanitizer (`cpp/gemm_attack.cpp`); and the launcher's problem check
//! (`gpu/gemm/supported.hpp`) against a model of every offset the kernel forms, written here
//! from the kernel's structure (`cpp/gemm_launch.cpp`); and the generated functions, combined
//! as the kernel combines them, against CuTe C++'s partitions of its tutorial kernel
//! (`cpp/gemm_cute.cpp`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Compiles `tests/cpp/NAME.cpp` with the system C++ compiler and the given extra flags.
fn compile(name: &str, flags: &[&str]) -> (PathBuf, PathBuf) {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("layout-{name}-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let exe = dir.join(name);
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    let out = Command::new(&cxx)
        .args(["-std=c++20", "-pthread", "-Wall", "-Wextra", "-Werror"])
        .args(flags)
        .arg("-I")
        .arg(root())
        .arg("-o")
        .arg(&exe)
        .arg(root().join(format!("tests/cpp/{name}.cpp")))
        .output()
        .expect("run the system C++ compiler");
    assert!(
        out.status.success(),
        "{cxx} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, exe)
}

fn finish(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

const SANITIZE: &[&str] = &[
    "-O1",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
];

/// Every shape class the kernel distinguishes (one k tile, fewer, as many and more k tiles than
/// the stages; residues of one vector; M or N of 1, one below, at and one past a tile; minimal
/// and padded leading dimensions; whole tiles with and without predicates), both accumulator
/// types: every element equals the naive product, no element of C's padding is written, and
/// no access leaves A, B or C (allocated to exactly their last element) under the sanitizers.
/// (A pipeline tail that fetches a k tile past K in the kernel without predicates reads past
/// the end of A only by a few vectors: only the exact allocations and AddressSanitizer see it.)
#[test]
fn the_gemm_is_exact_on_every_shape_class_and_stays_inside_its_matrices() {
    let (dir, exe) = compile("gemm_attack", SANITIZE);
    let run = Command::new(&exe).output().expect("run");
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    finish(&dir);
    assert!(
        run.status.success(),
        "the emulated GEMM failed:\n{text}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    // 10 problems as the launcher picks the kernel, 4 whole ones with both kernels; two
    // accumulator types each.
    assert_eq!(lines.len(), 2 * (10 + 2 * 4), "{text}");
    for l in &lines {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 10, "{l}");
        // ACC PRED M N K lda ldb ldc wrong clobbered
        assert_eq!(&f[8..], ["0", "0"], "wrong or clobbered elements: {l}");
    }
    // The kernel without predicates ran on whole tiles only, the predicated one on every residue.
    for l in &lines {
        let f: Vec<i64> = l.split(' ').skip(1).map(|x| x.parse().unwrap()).collect();
        let whole = f[1] % 128 == 0 && f[2] % 128 == 0 && f[3] % 64 == 0;
        assert!(f[0] == 1 || whole, "{l}");
    }
}

/// One problem: extents, leading dimensions, and how many bytes A and B lie past a 16-byte
/// boundary.
#[derive(Clone, Copy, Debug)]
struct Problem {
    m: i64,
    n: i64,
    k: i64,
    lda: i64,
    ldb: i64,
    ldc: i64,
    mis_a: i64,
    mis_b: i64,
}

fn ceil_to(x: i64, t: i64) -> i64 {
    (x + t - 1) / t * t
}

/// The model: what the kernel needs, from its structure. The copies form the offset of every
/// vector of every tile that covers the matrix, residue tiles included (rows up to M rounded
/// up to the CTA tile, k up to K rounded up to the k tile), before the predicate selects; the
/// epilogue forms C's offsets under its predicate only. Returns whether the problem is within
/// the documented contract, and the largest element offset of A, B and C touched or formed
/// (a vector's last element for A and B).
fn model(p: &Problem) -> (bool, [i64; 3]) {
    let extent = |x: i64| (1..=65536).contains(&x);
    let contract = extent(p.m)
        && extent(p.n)
        && extent(p.k)
        && p.k % 8 == 0
        && p.lda >= p.k
        && p.ldb >= p.k
        && p.ldc >= p.m
        && p.lda % 8 == 0
        && p.ldb % 8 == 0
        && p.mis_a % 16 == 0
        && p.mis_b % 16 == 0;
    let kp = ceil_to(p.k, 64);
    let last = [
        (ceil_to(p.m, 128) - 1) * p.lda + kp - 1,
        (ceil_to(p.n, 128) - 1) * p.ldb + kp - 1,
        (p.n - 1) * p.ldc + p.m - 1,
    ];
    (contract, last)
}

fn run_launch(problems: &[Problem]) -> Vec<[i64; 4]> {
    let (dir, exe) = compile(
        "gemm_launch",
        &[
            "-O1",
            "-fsanitize=signed-integer-overflow",
            "-fno-sanitize-recover=all",
        ],
    );
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run");
    {
        let mut input = child.stdin.take().expect("stdin");
        for p in problems {
            writeln!(
                input,
                "{} {} {} {} {} {} {} {}",
                p.m, p.n, p.k, p.lda, p.ldb, p.ldc, p.mis_a, p.mis_b
            )
            .expect("write");
        }
    }
    let out = child.wait_with_output().expect("wait");
    finish(&dir);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        out.status.success(),
        "the launcher check stopped at problem {:?} (an offset the kernel forms overflowed \
         int32_t in a problem the launcher takes):\n{}",
        problems.get(lines.len()),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(lines.len(), problems.len());
    lines
        .iter()
        .map(|l| {
            let v: Vec<i64> = l.split(' ').map(|x| x.parse().expect("integer")).collect();
            [v[0], v[1], v[2], v[3]]
        })
        .collect()
}

/// Problems at the edges of the contract: each rule broken alone, and the int32 limit of each
/// matrix approached from both sides, with and without a residue tile in the mode whose rows
/// the leading dimension multiplies.
fn edge_problems() -> Vec<Problem> {
    let base = Problem {
        m: 100,
        n: 90,
        k: 72,
        lda: 80,
        ldb: 72,
        ldc: 100,
        mis_a: 0,
        mis_b: 0,
    };
    let mut v = vec![base];
    let with = |f: &dyn Fn(&mut Problem)| {
        let mut p = base;
        f(&mut p);
        p
    };
    v.push(with(&|p| p.m = 0));
    v.push(with(&|p| p.n = 0));
    v.push(with(&|p| p.k = 0));
    v.push(with(&|p| p.m = 65537));
    v.push(with(&|p| {
        p.m = 65536;
        p.ldc = 65536;
    }));
    v.push(with(&|p| p.k = 68));
    v.push(with(&|p| p.lda = 64));
    v.push(with(&|p| p.ldb = 76));
    v.push(with(&|p| p.ldc = 99));
    v.push(with(&|p| p.ldb = -72));
    v.push(with(&|p| p.mis_a = 8));
    v.push(with(&|p| p.mis_b = 2));
    // The int32 limit of A (then B, then C), in a mode with and without a residue tile.
    const I32: i64 = i32::MAX as i64;
    for k in [65536, 65528, 4104, 8] {
        for pad in [0, 8, 24] {
            let lda = k + pad;
            let kp = ceil_to(k, 64);
            // The largest row count whose last row fits, and its neighbours.
            let rows = (I32 - kp + 1) / lda + 1;
            for m in [
                rows - 129,
                rows - 128,
                rows - 1,
                rows,
                rows + 1,
                ceil_to(rows, 128),
            ] {
                for m in [m, m / 128 * 128] {
                    if !(1..=65536).contains(&m) {
                        continue;
                    }
                    v.push(Problem {
                        m,
                        n: 128,
                        k,
                        lda,
                        ldb: k,
                        ldc: m,
                        mis_a: 0,
                        mis_b: 0,
                    });
                    v.push(Problem {
                        m: 64,
                        n: m,
                        k,
                        lda: k,
                        ldb: lda,
                        ldc: 64,
                        mis_a: 0,
                        mis_b: 0,
                    });
                }
            }
        }
    }
    for ldc in [65536, 65544, 70000] {
        let n = (I32 - 65536 + 1) / ldc + 1;
        for n in [n - 1, n, n + 1] {
            v.push(Problem {
                m: 65536,
                n,
                k: 8,
                lda: 8,
                ldb: 8,
                ldc,
                mis_a: 0,
                mis_b: 0,
            });
        }
    }
    v
}

fn check_launcher(problems: &[Problem]) -> [usize; 2] {
    let got = run_launch(problems);
    let mut taken = [0, 0];
    for (p, g) in problems.iter().zip(&got) {
        let (contract, last) = model(p);
        // The copies form each vector's first element: the model's last element minus 7.
        if g[1] >= 0 && p.lda >= p.k && p.ldb >= p.k && p.ldc >= p.m {
            assert_eq!(
                [g[1], g[2], g[3]],
                [last[0] - 7, last[1] - 7, last[2]],
                "largest offsets formed in {p:?}"
            );
        }
        let fits = last.iter().all(|&x| x <= i64::from(i32::MAX));
        assert_eq!(
            g[0] == 1,
            contract && fits,
            "{p:?}: the launcher {} it; the contract {contract}, largest offsets {last:?}",
            if g[0] == 1 { "takes" } else { "refuses" }
        );
        taken[usize::from(g[0] == 1)] += 1;
    }
    taken
}

/// The launcher takes exactly the problems within its documented contract whose every offset
/// fits `int32_t`, at the edges of each rule.
#[test]
fn the_launcher_takes_exactly_the_problems_its_functions_cover() {
    let problems: Vec<Problem> = edge_problems()
        .into_iter()
        .filter(|p| {
            // Residue tiles in the rows that the leading dimension multiplies are the subject
            // of the next test.
            let (_, last) = model(p);
            let unpadded = (p.m - 1) * p.lda + ceil_to(p.k, 64) - 1;
            let unpadded_b = (p.n - 1) * p.ldb + ceil_to(p.k, 64) - 1;
            (last[0] <= i64::from(i32::MAX)) == (unpadded <= i64::from(i32::MAX))
                && (last[1] <= i64::from(i32::MAX)) == (unpadded_b <= i64::from(i32::MAX))
        })
        .collect();
    assert!(problems.len() > 100);
    let [refused, taken] = check_launcher(&problems);
    assert!(
        refused > 40 && taken > 40,
        "{refused} refused, {taken} taken"
    );
}

/// Random problems, within and outside the contract (each rule broken now and then), of every
/// size up to the extent limit.
#[test]
fn the_launcher_takes_exactly_the_random_problems_its_functions_cover() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: i64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        i64::try_from(x % u64::try_from(n).expect("positive")).expect("small")
    };
    let mut problems = Vec::new();
    while problems.len() < 400 {
        let big = next(2) == 0;
        let ext = |r: i64| if big { 1 + r } else { 1 + r % 300 };
        let (m, n) = (ext(next(65536)), ext(next(65536)));
        let k = 8 * ext(next(8192)) - if next(10) == 0 { next(8) } else { 0 };
        let pad = |r: i64| if r % 3 == 0 { 0 } else { 8 * (r % 9) };
        let (lda, ldb) = (k + pad(next(100)), k + pad(next(100)));
        let ldc = m + next(20) - if next(10) == 0 { 20 } else { 0 };
        let p = Problem {
            m,
            n,
            k,
            lda: if next(20) == 0 { lda + 4 } else { lda },
            ldb,
            ldc,
            mis_a: if next(20) == 0 { 8 } else { 0 },
            mis_b: 0,
        };
        let (_, last) = model(&p);
        // Problems of the residue-row class belong to the next test.
        let unpadded = (p.m - 1) * p.lda + ceil_to(p.k, 64) - 1;
        let unpadded_b = (p.n - 1) * p.ldb + ceil_to(p.k, 64) - 1;
        if (last[0] <= i64::from(i32::MAX)) == (unpadded <= i64::from(i32::MAX))
            && (last[1] <= i64::from(i32::MAX)) == (unpadded_b <= i64::from(i32::MAX))
        {
            problems.push(p);
        }
    }
    let [refused, taken] = check_launcher(&problems);
    assert!(
        refused > 100 && taken > 100,
        "{refused} refused, {taken} taken"
    );
}

/// The copies form the offset of every row of a residue tile (up to M rounded up to 128)
/// before the predicate selects; the launcher must count those rows too. M = 32763,
/// K = 65536, lda = 65544: the last real row's offsets fit int32_t, the residue tile's row
/// 32767 at `32767 · 65544` does not.
#[test]
fn the_launcher_counts_the_residue_rows_the_copies_form() {
    let all = edge_problems();
    let problems: Vec<Problem> = all
        .into_iter()
        .filter(|p| {
            let (_, last) = model(p);
            let unpadded = (p.m - 1) * p.lda + ceil_to(p.k, 64) - 1;
            let unpadded_b = (p.n - 1) * p.ldb + ceil_to(p.k, 64) - 1;
            (last[0] <= i64::from(i32::MAX)) != (unpadded <= i64::from(i32::MAX))
                || (last[1] <= i64::from(i32::MAX)) != (unpadded_b <= i64::from(i32::MAX))
        })
        .collect();
    assert!(problems.len() > 10, "{}", problems.len());
    assert!(
        problems
            .iter()
            .any(|p| (p.m, p.k, p.lda) == (32763, 65536, 65544))
    );
    // Every one of them is refused: its residue rows' offsets pass int32_t.
    let [refused, _] = check_launcher(&problems);
    assert_eq!(refused, problems.len());
}

/// The generated functions, combined as the kernel template combines them (stage offset plus
/// the thread's part XOR the k-block's plus the copy's; the vector's first value plus its
/// element; registers as 32-bit words), equal CuTe's own partitions of its tutorial kernel
/// `gemm_tn` at every thread, value, stage and k-block, in the first and last tile of each
/// mode: global offsets and predicates (residue tiles, padded leading dimensions, the issue's
/// 4000 × 4000 × 4104), `cp.async` destinations, `ldmatrix` rows, and the registers of the
/// `ldmatrix` copies, the MMA operands and the accumulators (`cpp/gemm_cute.cpp`, CuTe C++ over
/// the CUTLASS 4.2 headers).
#[test]
fn the_generated_functions_equal_cutes_partitions_of_its_tutorial_kernel() {
    let header = include_str!("../../gpu/gen/gemm.cuh");
    let program = include_str!("../cpp/gemm_cute.cpp");
    assert!(program.contains("// @GENERATED@"));
    let source = program.replace("// @GENERATED@", header);
    let Some(out) = layout_tests::cute_cpp::run("gemm_cute", &source) else {
        return;
    };
    // Per thread (128): the value counts of CuTe's tutorial configuration.
    let threads = 128;
    let tiles = 2 * 2; // first and last tile of the two modes of A's, B's or C's CTA tile
    let expected = [
        ("counts", threads * 6),
        // 64 values per k tile, 2 k tiles, offset and predicate.
        ("ga", threads * tiles * 2 * 64 * 2),
        ("gb", threads * tiles * 2 * 64 * 2),
        // 128 accumulator values, offset and predicate.
        ("gc", threads * tiles * 128 * 2),
        // 3 stages, 4 k-blocks, 4 ldmatrix x4 copies, 8 elements each.
        ("la", threads * 3 * 4 * 4 * 8),
        ("lb", threads * 3 * 4 * 4 * 8),
        // ldmatrix: 4 k-blocks, 4 copies, 4 registers of 2 halves; MMA: 4 k-blocks, 4 (A) or
        // 8 (B) atoms, 4 (A) or 2 (B) registers of 2 halves.
        ("ra", threads * (4 * 4 * 4 * 2 + 4 * 4 * 4 * 2)),
        ("rb", threads * (4 * 4 * 4 * 2 + 4 * 8 * 2 * 2)),
        // 4 × 8 atoms of 4 values, fp32 and f16; 128 epilogue values, fp32 and f16.
        ("rc", threads * (4 * 8 * 4 * 2 + 128 * 2)),
        // 3 stages, 64 values.
        ("sa", threads * 3 * 64),
        ("sb", threads * 3 * 64),
    ];
    let problems = [
        "300 260 200 208 216 304",
        "256 128 128 128 136 256",
        "4000 4000 4104 4104 4112 4000",
    ];
    let mut want = Vec::new();
    for p in problems {
        want.push(format!("problem {p}"));
        for (kind, n) in expected {
            want.push(format!("{kind} {n} 0"));
        }
    }
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got, want, "generated functions against CuTe:\n{out}");
}

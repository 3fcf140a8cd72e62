"""The driver behind bench/run.sh: compile-time checking, run-time addressing and the run-time
algebra, ours against CuTe C++ (4.2.0 headers), printed as one table. See
docs/performance.md for what each number means."""

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUTE = sys.argv[1]
PARTS = sys.argv[2:] or ["check", "addressing", "algebra"]
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
CHECK_N = [int(x) for x in os.environ.get("BENCH_CHECK_N", "10,100,1000").split(",")]
WORK = os.path.join(CUTE, "work")
INCLUDES = [
    "-I" + os.path.join(CUTE, "cutlass_library", "source", "include"),
    "-I" + os.path.join(CUTE, "nvidia", "cuda_runtime", "include"),
    "-I" + os.path.join(CUTE, "nvidia", "cuda_cccl", "include"),
    "-I" + os.path.join(CUTE, "nvidia", "cuda_nvcc", "include"),
]
sys.path.insert(0, os.path.join(ROOT, "bench"))
import gen_check  # noqa: E402


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None):
    """Runs `cmd`; returns (seconds, stdout, stderr) or stops with its error output."""
    start = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=dict(os.environ, **(env or {})), capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stderr[-4000:]}")
    return seconds, p.stdout, p.stderr


def timed(cmd, cwd=None, env=None):
    """Wall time and peak RSS (MiB) of `cmd`: GNU time's maximum resident set size, which for a
    process that waits for its children (cargo for rustc) is the largest of the tree."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as f:
        seconds, _, _ = run(["/usr/bin/time", "-f", "%M", "-o", f.name] + cmd, cwd, env)
        rss = int(f.read().strip().splitlines()[-1]) / 1024
    return seconds, rss


# ---------------------------------------------------------------------------------------------
# 1. Compile-time checking


def check():
    ns = [0] + CHECK_N
    os.makedirs(WORK, exist_ok=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_check.py"), WORK] + [str(n) for n in ns],
                   check=True)
    lock = os.path.join(ROOT, "Cargo.lock")
    # The default dev profile, and the proc-macro optimised (`[profile.dev.build-override]
    # opt-level = 3`, one line in a user's Cargo.toml): each with its own target folder.
    configs = [("dev", {}), ("o3", {"CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL": "3"})]
    rows = {}
    for n in ns:
        crate = os.path.join(WORK, f"rust_n{n}")
        if os.path.exists(lock):
            with open(lock) as src, open(os.path.join(crate, "Cargo.lock"), "w") as dst:
                dst.write(src.read())
        rust = {}
        for name, extra in configs:
            env = dict(extra, CARGO_TARGET_DIR=os.path.join(TARGET, f"bench-check-{name}"),
                       CARGO_INCREMENTAL="0", RUSTFLAGS="")
            log(f"check: cargo check ({name}), {n} layouts")
            run(["cargo", "check", "--quiet", "--offline"], crate, env)  # dependencies, once
            times = []
            for _ in range(RUNS):
                os.utime(os.path.join(crate, "src", "lib.rs"))
                times.append(timed(["cargo", "check", "--quiet", "--offline"], crate, env))
            rust[name] = (statistics.median(t for t, _ in times), max(m for _, m in times))
        log(f"check: g++ -fsyntax-only, {n} layouts")
        src = os.path.join(WORK, f"cute_n{n}.cpp")
        cute = [timed(["g++", "-std=c++17", "-fsyntax-only"] + INCLUDES + [src]) for _ in range(RUNS)]
        rows[n] = (rust["dev"], rust["o3"], (statistics.median(t for t, _ in cute), max(m for _, m in cute)))
    return rows


PAIRED_ROUNDS = int(os.environ.get("BENCH_PAIRED_ROUNDS", "7"))


def check_paired(n=1000):
    """The requirement's figures, measured in rounds that pair every measurement with its
    baseline and with the other compiler seconds apart: each round runs `cargo check` (default
    dev profile) at N = n and at N = 0 (the median of three each), then `g++ -fsyntax-only` at
    N = n and at N = 0, and
    gives ours and CuTe's time per unit and their ratio. The machine is shared and its speed
    drifts by tens of percent over minutes (it moves `g++`'s 20 s runs more than ours), so the
    table above, whose columns are minutes apart, can put the ratio anywhere in a wide band;
    the median of the rounds' ratios cannot be moved by a drift that spans a round.
    Reuses the crates and target folder `check()` built."""
    env = dict(CARGO_TARGET_DIR=os.path.join(TARGET, "bench-check-dev"), CARGO_INCREMENTAL="0", RUSTFLAGS="")

    def cargo(k):
        # A `cargo check` is half a second, short enough for a passing spike of the machine to
        # double it: the median of three, within the round.
        crate = os.path.join(WORK, f"rust_n{k}")
        times = []
        for _ in range(3):
            os.utime(os.path.join(crate, "src", "lib.rs"))
            times.append(timed(["cargo", "check", "--quiet", "--offline"], crate, env)[0])
        return statistics.median(times)

    def gxx_check(k):
        return timed(["g++", "-std=c++17", "-fsyntax-only"] + INCLUDES + [os.path.join(WORK, f"cute_n{k}.cpp")])[0]

    rounds = []
    for r in range(PAIRED_ROUNDS):
        log(f"check: paired round {r + 1} of {PAIRED_ROUNDS}")
        ours = (cargo(n) - cargo(0)) / n * 1e3
        cute = (gxx_check(n) - gxx_check(0)) / n * 1e3
        rounds.append((ours, cute))
    return n, rounds


def paired_table(paired):
    n, rounds = paired
    out = [f"Paired rounds at N = {n:,} (each: `cargo check` at {n:,} and 0, the median of three each, "
           f"then `g++` at {n:,} and 0; the requirements are the medians):",
           "",
           "| round | ours per unit | CuTe per layout | CuTe / ours |",
           "|---:|---:|---:|---:|"]
    for i, (ours, cute) in enumerate(rounds, 1):
        out.append(f"| {i} | {ours:.3f} ms | {cute:.1f} ms | {cute / ours:.1f}× |")
    ratios = [c / o for o, c in rounds]
    out.append(f"| median | {statistics.median(o for o, _ in rounds):.3f} ms "
               f"| {statistics.median(c for _, c in rounds):.1f} ms | {statistics.median(ratios):.1f}× |")
    return "\n".join(out)


def check_table(rows):
    (d0, dm0), (o0, om0), (c0, cm0) = rows[0]
    out = ["| N | `cargo check` | per `layout!` | peak RSS | `cargo check`, proc-macro at opt-level 3 | per `layout!` | peak RSS | `g++ -fsyntax-only` | per CuTe layout | peak RSS | CuTe / ours per layout (default; opt-level 3) |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
           f"| 0 (baseline) | {d0:.2f} s | — | {dm0:.0f} MiB | {o0:.2f} s | — | {om0:.0f} MiB | {c0:.2f} s | — | {cm0:.0f} MiB | — |"]
    for n in CHECK_N:
        (d, dm), (o, om), (c, cm) = rows[n]
        pd, po, pc = (d - d0) / n * 1e3, (o - o0) / n * 1e3, (c - c0) / n * 1e3

        def ratio(p):
            return f"{pc / p:.0f}×" if p > 0 else "∞ (below noise)"

        out.append(f"| {n} | {d:.2f} s | {pd:.3f} ms | {dm:.0f} MiB | {o:.2f} s | {po:.3f} ms | {om:.0f} MiB "
                   f"| {c:.2f} s | {pc:.1f} ms | {cm:.0f} MiB | {ratio(pd)}; {ratio(po)} |")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# 2. Run-time addressing

LAYOUTS = [
    ("tiled", "identity-tiled: 128×128 in 64×32 tiles", 16384),
    ("partition", "TV partition of 128×128 (`big_tv_partition_128x128`)", 16384),
    ("swizzled", "swizzled 64×64 smem tile, `Swizzle<3,3,3>`", 4096),
    ("slice", "restricted slice: that tile per thread (256 × 16)", 4096),
]


def cargo_bench_binary(package, bench):
    _, out, _ = run(["cargo", "bench", "--no-run", "--quiet", "-p", package, "--bench", bench,
                     "--message-format=json"], ROOT)
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") and msg["target"]["name"] == bench:
            return msg["executable"]
    raise SystemExit(f"no executable for bench {bench}")


def gxx(src, exe, *flags):
    run(["g++", "-std=c++17", "-O3", *flags] + INCLUDES + [os.path.join(ROOT, "bench", "cpp", src), "-o", exe])
    return exe


def pairs(text):
    return {k: v for k, v in (line.split() for line in text.strip().splitlines())}


def instructions(cmd, kernel, calls):
    """Instructions executed inside `kernel` (inclusive) over `calls` calls, by callgrind."""
    with tempfile.NamedTemporaryFile(suffix=".cg") as f:
        run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={f.name}", f"--toggle-collect=*{kernel}*"]
            + cmd + [kernel, str(calls)])
        for line in open(f.name):
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise SystemExit(f"no callgrind summary for {kernel}")


def addressing():
    log("addressing: building")
    rust = cargo_bench_binary("layout-bench", "addressing")
    os.makedirs(WORK, exist_ok=True)
    c64 = gxx("addressing.cpp", os.path.join(WORK, "addressing_i64"))
    c32 = gxx("addressing.cpp", os.path.join(WORK, "addressing_i32"), "-DCOORD=int")
    c32s = gxx("addressing.cpp", os.path.join(WORK, "addressing_i32_int"), "-DCOORD=int", "-DOUT=int")
    # Every implementation writes the same offsets.
    for key, _, _ in LAYOUTS:
        ours = run([rust, "--dump", f"rust_emitted_{key}"])[1]
        if run([rust, "--dump", f"rust_narrow_{key}"])[1] != ours:
            raise SystemExit(f"{key}: our 32-bit offsets differ from our 64-bit ones")
        for exe in (c64, c32, c32s):
            for kind in ("static", "dynamic"):
                if run([exe, "dump", f"cute_{kind}_{key}"])[1] != ours:
                    raise SystemExit(f"{key}: CuTe {kind} offsets differ from ours")
    log("addressing: timing")
    ns = pairs(run([rust, "--table"])[1])
    ns.update(pairs(run([c64, "time"])[1]))
    ns.update({k + "_i32": v for k, v in pairs(run([c32, "time"])[1]).items()})
    ns.update({k + "_i32_int": v for k, v in pairs(run([c32s, "time"])[1]).items()})
    log("addressing: callgrind")
    calls = 3
    rows = []
    for key, label, n in LAYOUTS:
        cols = [("rust_emitted", rust, "--callgrind", ""), ("rust_hand", rust, "--callgrind", ""),
                ("cute_static", c64, "run", ""), ("cute_dynamic", c64, "run", ""),
                ("cute_static", c32, "run", "_i32"), ("cute_static", c32s, "run", "_i32_int"),
                ("rust_narrow", rust, "--callgrind", "")]
        cells = []
        for prefix, exe, mode, suffix in cols:
            kernel = f"{prefix}_{key}"
            ir = instructions([exe, mode], kernel, calls) / (calls * n)
            cells.append((float(ns[kernel + suffix]), ir))
        rows.append((label, cells))
    return rows


def addressing_table(rows):
    out = ["| layout | (a) ours, `offset` | (b) hand-written Rust | (c) CuTe static | (d) CuTe run-time | (c′) CuTe static, 32-bit `int` | (c″) CuTe static, 32-bit `int`, `int` stored | (a′) ours, 32-bit (`index = i32`, `i32` stored) | (a)/(b) | (a)/(c) | (a′)/(c′) | (a′)/(c″) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, cells in rows:
        fmt = [f"{ns:.2f} ns, {ir:.2f} instr" for ns, ir in cells]
        (a, b, c), (c32, c32s, a32) = (cell[1] for cell in cells[:3]), (cell[1] for cell in cells[4:])
        out.append(f"| {label} | " + " | ".join(fmt)
                   + f" | {a / b:.2f} | {a / c:.2f} | {a32 / c32:.2f} | {a32 / c32s:.2f} |")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# 3. The algebra at run time

OPS = [
    ("compose_small", "composition, CuTe's `(6,2):(8,2) ∘ (4,3):(3,1)`"),
    ("compose_partition", "composition, the 128×128 partition"),
    ("divide", "divide 128×128 by 64×32 (`zipped_divide`)"),
    ("decide_small", "compose + decide, small, `decide_composition` (CuTe: `coalesce(composition)`)"),
    ("decide_partition", "compose + decide, the partition (16384 coordinates), `decide_composition`"),
    ("decide_small_built", "the same, small, `decide(&compose(..)?)`"),
    ("decide_partition_built", "the same, the partition, `decide(&compose(..)?)`"),
    ("inverse_sm80", "inverse, SM80 16×8 C fragment"),
    ("inverse_partition", "inverse, the partition's TV layout"),
]
# The rows measured against another row's CuTe and pycute figures (the same operation, built
# through the composite).
SAME_AS = {"decide_small_built": "decide_small", "decide_partition_built": "decide_partition"}


def algebra():
    log("algebra: building")
    rust = cargo_bench_binary("layout-bench", "runtime_algebra")
    os.makedirs(WORK, exist_ok=True)
    cpp = gxx("algebra.cpp", os.path.join(WORK, "algebra"))
    log("algebra: timing")
    ours = pairs(run([rust, "--table"])[1])
    cute = pairs(run([cpp])[1])
    py = pairs(run([sys.executable, os.path.join(ROOT, "bench", "pycute_algebra.py"), CUTE])[1])
    return [(label, float(ours[k]), cute[SAME_AS.get(k, k)], float(py[SAME_AS.get(k, k)])) for k, label in OPS]


def rate(x):
    return f"{x / 1e6:.2f} M/s" if x >= 1e6 else f"{x / 1e3:.1f} k/s"


def algebra_table(rows):
    out = ["| operation | ours (layout-core) | CuTe C++, run-time ints | pycute | ours / CuTe |",
           "|---|---:|---:|---:|---:|"]
    for label, ours, cute, py in rows:
        if cute == "n/a":
            c, ratio = "n/a (no run-time inverse)", "—"
        else:
            c, ratio = rate(float(cute)), f"{ours / float(cute):.2g}"
        out.append(f"| {label} | {rate(ours)} | {c} | {rate(py)} | {ratio} |")
    return "\n".join(out)


def machine():
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    version = lambda cmd: subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
    load = os.getloadavg()
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
            f"{version(['rustc', '-V'])}; {version(['g++', '--version'])}; {version(['valgrind', '--version'])}; "
            f"load average at the end {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}")


# ---------------------------------------------------------------------------------------------
# The requirements (docs/performance.md): each one measured in this run, met or not.

CHECK_MAX_MS = 1.0  # per checked unit at N = 1,000, default dev profile
CHECK_MIN_RATIO = 40.0  # g++ per CuTe layout / ours per unit, at N = 1,000
ALGEBRA_MIN_RATIO = 0.3  # ours / CuTe with run-time ints, ops/s
ALGEBRA_REQUIRED = ["compose_small", "compose_partition", "divide", "decide_small", "decide_partition"]


def check_requirements(paired):
    """The medians of the paired rounds ([`check_paired`])."""
    _, rounds = paired
    ours = statistics.median(o for o, _ in rounds)
    ratio = statistics.median(c / o if o > 0 else float("inf") for o, c in rounds)
    return [(f"checking: ms per unit at N = 1,000 (default dev profile) ≤ {CHECK_MAX_MS:g}", f"{ours:.3f} ms",
             ours <= CHECK_MAX_MS),
            (f"checking: g++ / ours per unit at N = 1,000 ≥ {CHECK_MIN_RATIO:g} (median of paired rounds)",
             f"{ratio:.1f}×", ratio >= CHECK_MIN_RATIO)]


def addressing_requirements(rows):
    out = []
    for label, cells in rows:
        a, b, c, c32, c32s, a32 = (cells[k][1] for k in (0, 1, 2, 4, 5, 6))
        short = label.split(":")[0]
        out += [(f"addressing, {short}: (a′)/(c′) instructions ≤ 1", f"{a32 / c32:.2f}", a32 <= c32),
                (f"addressing, {short}: (a′)/(c″) instructions ≤ 1", f"{a32 / c32s:.2f}", a32 <= c32s),
                (f"addressing, {short}: (a)/(b) instructions ≤ 1", f"{a / b:.2f}", a <= b),
                (f"addressing, {short}: (a)/(c) instructions ≤ 1", f"{a / c:.2f}", a <= c)]
    return out


def algebra_requirements(rows):
    out = []
    for (key, _), (label, ours, cute, _) in zip(OPS, rows):
        if key in ALGEBRA_REQUIRED:
            r = ours / float(cute)
            out.append((f"algebra, {key}: ours / CuTe ≥ {ALGEBRA_MIN_RATIO:g}", f"{r:.2g}", r >= ALGEBRA_MIN_RATIO))
    return out


def requirements_table(reqs):
    out = ["| requirement | measured | met |", "|---|---:|---|"]
    for what, value, met in reqs:
        out.append(f"| {what} | {value} | {'yes' if met else '**no**'} |")
    return "\n".join(out)


def main():
    sections, reqs = [], []
    if "check" in PARTS:
        rows = check()
        sections.append("## 1. Compile-time checking (median of %d, `CARGO_INCREMENTAL=0`)\n\n%s"
                        % (RUNS, check_table(rows)))
        if 1000 in rows:
            paired = check_paired(1000)
            reqs += check_requirements(paired)
            sections.append(paired_table(paired))
    if "addressing" in PARTS:
        rows = addressing()
        reqs += addressing_requirements(rows)
        sections.append("## 2. Run-time addressing (ns per offset, fastest of 51 rounds; instructions per offset, callgrind)\n\n%s"
                        % addressing_table(rows))
    if "algebra" in PARTS:
        rows = algebra()
        reqs += algebra_requirements(rows)
        sections.append("## 3. The algebra at run time (operations per second)\n\n%s" % algebra_table(rows))
    if reqs:
        sections.append("## Requirements\n\n%s" % requirements_table(reqs))
    print("\n\n".join(sections))
    print(f"\nmachine: {machine()}")


if __name__ == "__main__":
    main()

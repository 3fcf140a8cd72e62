#!/usr/bin/env bash
# The performance comparison against CuTe C++ (docs/performance.md): installs the CuTe baseline
# if missing, runs the three comparisons and prints one table. Not part of .ci/run (it takes
# about ten minutes and needs the network once).
#
#   bench/run.sh                 everything
#   bench/run.sh check           one part: check | addressing | algebra
#
# Environment: CARGO_TARGET_DIR (default target/), BENCH_CUTE_DIR (where the baseline is
# installed, default bench/.cute, ignored by git), BENCH_CHECK_N (default 10,100,1000),
# BENCH_RUNS (timed runs per compile, default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
CUTE="${BENCH_CUTE_DIR:-$PWD/bench/.cute}"
INCLUDE="$CUTE/cutlass_library/source/include"
if [ ! -f "$INCLUDE/cute/layout.hpp" ] || [ ! -d "$CUTE/pycute" ]; then
    echo "installing the CuTe baseline into $CUTE" >&2
    mkdir -p "$CUTE/wheels"
    python3 -m pip download --no-deps --quiet -d "$CUTE/wheels" \
        nvidia-cutlass==4.2.0.0 nvidia-cuda-runtime-cu12==12.9.79 \
        nvidia-cuda-cccl-cu12==12.9.27 nvidia-cuda-nvcc-cu12==12.9.86
    # Only the headers (and pycute) are unpacked: nothing here is built or linked.
    python3 - "$CUTE" <<'PY'
import glob, os, sys, zipfile
out = sys.argv[1]
for wheel in glob.glob(os.path.join(out, "wheels", "*.whl")):
    with zipfile.ZipFile(wheel) as z:
        z.extractall(out, [n for n in z.namelist() if "/include/" in n or n.startswith("pycute/")])
PY
fi
for tool in g++ valgrind cargo python3; do
    command -v "$tool" >/dev/null || { echo "bench/run.sh needs $tool" >&2; exit 1; }
done
exec python3 bench/bench.py "$CUTE" "$@"

#!/usr/bin/env bash
# The HGEMM benchmark on one GPU (sm_90), in one run: builds the generated kernel
# (gpu/gemm/launch.cuh), CuTe's tutorial kernel (gpu/cute_gemm.cu over gpu/.cutlass, see
# gpu/fetch_cute.sh) and the cuBLAS calls into one binary; counts SASS per kernel and per main-loop
# iteration (gpu/gemm_sass.py); checks every element of every kernel and times them
# (gpu/gemm_bench.cu); reads ncu metrics of every kernel, cuBLAS's too, at 4096³ (gpu/gemm_ncu.py); prints the
# table last. Everything goes to OUT_DIR. No network needed.
#
# Usage: gpu/gemm.sh [OUT_DIR] [MxNxK ...]     (OUT_DIR default: $OUT, else /tmp/gemm-out)
# Environment:
#   CUDA_HOME    toolkit root (nvcc, cuobjdump, libcublas); default: nvcc on PATH, else /usr/local/cuda
#   NVCC         the nvcc to use (default $CUDA_HOME/bin/nvcc or nvcc on PATH)
#   LDFLAGS_EXTRA extra link flags (e.g. -L DIR holding libcublas.so)
#   BUILD        build folder (default /tmp/gemm-build)
#   BUILD_ONLY=1 stop after the build and the SASS counts (no GPU needed)
#   NVCC_FLAGS_EXTRA extra nvcc flags (e.g. -D options of gpu/gemm/instructions.cuh)
#   PREBUILT=1   use the binary already in BUILD (built with BUILD_ONLY=1 elsewhere), if there
#   NCU=0        skip ncu; NCU_TIMEOUT seconds for it (default 600)
#   GEMM_TOL_C   the tolerance factor of the checks (gpu/gemm_bench.cu; default 0.25)
# Exit status: non-zero on a build failure, a failed check, a CUDA or cuBLAS error (the table is
# printed anyway). A failing ncu is reported, not fatal.
set -uo pipefail
cd "$(dirname "$0")"
out="${1:-${OUT:-/tmp/gemm-out}}"
[ $# -gt 0 ] && shift
build="${BUILD:-/tmp/gemm-build}"
mkdir -p "$out" "$build"
out="$(cd "$out" && pwd)"

if [ -n "${CUDA_HOME:-}" ]; then
    export PATH="$CUDA_HOME/bin:$PATH"
elif ! command -v nvcc > /dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="/usr/local/cuda/bin:$PATH"
fi
nvcc="${NVCC:-$(command -v nvcc)}"
[ -x "$nvcc" ] || { echo "gemm.sh: no nvcc (set CUDA_HOME or NVCC)" >&2; exit 2; }
bin="$(dirname "$nvcc")"
export PATH="$bin:$PATH:/usr/local/cuda/bin"
"$nvcc" --version | tail -2 | tee "$out/nvcc.txt"

flags=(-O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Xptxas -v)
# shellcheck disable=SC2206
flags+=(${NVCC_FLAGS_EXTRA:-})
cccl="$bin/../include/cccl"
[ -d "$cccl" ] && flags+=(-I"$cccl")
ldflags=(-lcublas)
for d in "$bin/../lib64" "$bin/../lib"; do
    [ -d "$d" ] && ldflags+=(-L"$d" -Xlinker -rpath -Xlinker "$(cd "$d" && pwd)")
done
# shellcheck disable=SC2206
ldflags+=(${LDFLAGS_EXTRA:-})

status=0
if [ "${PREBUILT:-0}" = 1 ] && [ -x "$build/gemm_bench" ] && [ -f "$build/ptxas.txt" ]; then
    # A binary built by this script elsewhere (BUILD_ONLY=1, same BUILD folder carried here).
    echo "using the prebuilt $build/gemm_bench"
    cp "$build/ptxas.txt" "$out/ptxas.txt"
else
: > "$out/ptxas.txt"
objs=("$build/gemm_bench.o")
cute=(-DNO_CUTE)
if [ -d .cutlass/include/cute ] && [ -d .cutlass/tools/util/include ] && [ -f .cutlass/examples/cute/tutorial/sgemm_sm80.cu ]; then
    echo "building CuTe's tutorial kernel (about a minute)"
    if "$nvcc" "${flags[@]}" -I.cutlass/include -I.cutlass/tools/util/include -I.cutlass \
        -c cute_gemm.cu -o "$build/cute_gemm.o" 2>> "$out/ptxas.txt"; then
        objs+=("$build/cute_gemm.o")
        cute=()
    else
        echo "THE CuTe BUILD FAILED:"; tail -30 "$out/ptxas.txt"; status=1
    fi
else
    echo "gpu/.cutlass incomplete (gpu/fetch_cute.sh): NO CuTe ROWS"; status=1
fi
if ! "$nvcc" "${flags[@]}" "${cute[@]}" -c gemm_bench.cu -o "$build/gemm_bench.o" 2>> "$out/ptxas.txt" ||
   ! "$nvcc" -arch=sm_90 -o "$build/gemm_bench" "${objs[@]}" "${ldflags[@]}" 2>> "$out/ptxas.txt"; then
    echo "THE BUILD FAILED:"; tail -40 "$out/ptxas.txt"; exit 1
fi
cp "$out/ptxas.txt" "$build/ptxas.txt"
fi

# SASS: totals and one main-loop iteration per kernel (ours and CuTe's; cuBLAS lives in libcublas)
cuobjdump --dump-sass "$build/gemm_bench" > "$out/sass.txt" || status=1
python3 gemm_sass.py "$out/sass.txt" "$out/ptxas.txt" > "$out/sass_counts.txt" || status=1
cat "$out/sass_counts.txt"
[ "${BUILD_ONLY:-0}" = 1 ] && exit $status

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw \
    --format=csv > "$out/smi.txt" 2>&1
"$build/gemm_bench" "$@" 2>&1 | tee "$out/bench.txt"
bench_status=${PIPESTATUS[0]}
[ "$bench_status" = 0 ] || status=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw \
    --format=csv,noheader >> "$out/smi.txt" 2>&1

if [ "${NCU:-1}" = 1 ] && command -v ncu > /dev/null; then
    ncu --query-metrics > "$out/ncu_query.txt" 2>&1
    metrics="$(python3 gemm_ncu.py metrics "$out/ncu_query.txt")"
    echo "ncu: every kernel at the first size, one launch each, --clock-control none"
    if timeout "${NCU_TIMEOUT:-600}" ncu --clock-control none -k 'regex:gen_gemm|gemm_device|nvjet|xmma|cutlass|sm90_' \
        --metrics "$metrics" --csv --page raw --print-units base "$build/gemm_bench" --ncu > "$out/ncu.csv" 2> "$out/ncu.err"; then
        python3 gemm_ncu.py summary "$out/ncu.csv" | tee "$out/ncu_summary.txt"
    else
        echo "ncu failed (not fatal): $(tail -3 "$out/ncu.err")"
    fi
elif [ "${NCU:-1}" = 1 ]; then
    echo "ncu not found: no ncu metrics"
fi

echo
cat "$out/smi.txt"
echo
cat "$out/sass_counts.txt"
echo
if grep -q '^kernel ' "$out/bench.txt"; then
    sed -n '/^kernel /,$p' "$out/bench.txt" | tee "$out/table.txt"
else
    echo "NO TABLE: the benchmark stopped early (exit $bench_status):"; tail -5 "$out/bench.txt"
fi
[ "$status" = 0 ] || echo "gemm.sh: FAILED (see above; exit 1)"
exit $status

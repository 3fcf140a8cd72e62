#!/usr/bin/env bash
# The GEMM benchmark on one GPU (sm_90a), in one run: builds the generated kernels (the mma.sync
# HGEMM, gpu/gemm/launch.cuh; the TMA + wgmma GEMM, gpu/hopper/launch.cuh), CuTe's tutorial
# kernels (gpu/cute_gemm.cu: sgemm_sm80; gpu/cute_wgmma.cu: hopper/wgmma_sm90;
# gpu/cute_wgmma_tma.cu: hopper/wgmma_tma_sm90; over gpu/.cutlass, see gpu/fetch_cute.sh) and the
# cuBLAS calls into one binary, every translation unit for sm_90a (wgmma and TMA need it); counts
# SASS per kernel and per main-loop iteration (gpu/gemm_sass.py); checks every element of every
# kernel and times them (gpu/gemm_bench.cu); reads ncu metrics of every kernel, cuBLAS's too, at
# 4096³ (gpu/gemm_ncu.py); prints the table last. Everything goes to OUT_DIR. No network needed.
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
# The driver library: the tensor maps of TMA are encoded on the host by the driver's
# cuTensorMapEncodeTiled. CuTe's tutorial and gpu/hopper/launch.cuh reach it through the
# runtime's cudaGetDriverEntryPointByVersion, which needs no -lcuda; where an object calls a
# driver function directly (an undefined `cu*` symbol, listed in BUILD/driver_symbols.txt) the
# binary links -lcuda: against the toolkit's stub (lib64/stubs/libcuda.so, also under
# /usr/local/cuda) or the driver's own libcuda.so; where neither exists (a build machine without
# a driver) and BUILD_ONLY=1, against a stub built here: BUILD/libcuda-stub/libcuda.so, soname
# libcuda.so.1, one empty function per such symbol. Only the link sees it (no rpath to it): at
# run time the binary loads the real driver's libcuda.so.1.
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

arch=(-gencode=arch=compute_90a,code=sm_90a)
flags=(-O3 "${arch[@]}" -std=c++17 --expt-relaxed-constexpr -Xptxas -v)
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
defs=()
# The Hopper GEMM's unit (gpu/gemm_bench_hopper.cu over gpu/hopper/launch.cuh), in the background
# while CuTe's build.
hopper=0
if [ -f hopper/launch.cuh ]; then
    "$nvcc" "${flags[@]}" -c gemm_bench_hopper.cu -o "$build/gemm_bench_hopper.o" > "$build/gemm_bench_hopper.log" 2>&1 &
    hopper=$!
else
    echo "gpu/hopper/launch.cuh missing: NO ROWS OF THE HOPPER GEMM"; status=1
    defs+=(-DNO_HOPPER)
fi
# CuTe's tutorials, one translation unit each (they define the same global names), in parallel;
# their ptxas output goes to ptxas.txt in this order.
cute_units=(cute_gemm cute_wgmma cute_wgmma_tma)
if [ -d .cutlass/include/cute ] && [ -d .cutlass/tools/util/include ] && [ -f .cutlass/examples/cute/tutorial/sgemm_sm80.cu ] &&
   [ -f .cutlass/examples/cute/tutorial/hopper/wgmma_sm90.cu ] && [ -f .cutlass/examples/cute/tutorial/hopper/wgmma_tma_sm90.cu ]; then
    echo "building CuTe's tutorial kernels (a minute or two)"
    for u in "${cute_units[@]}"; do
        "$nvcc" "${flags[@]}" -I.cutlass/include -I.cutlass/tools/util/include -I.cutlass \
            -c "$u.cu" -o "$build/$u.o" > "$build/$u.log" 2>&1 &
        echo $! > "$build/$u.pid"
    done
    for u in "${cute_units[@]}"; do
        wait "$(cat "$build/$u.pid")"
        echo $? > "$build/$u.rc"
    done
    for u in "${cute_units[@]}"; do
        cat "$build/$u.log" >> "$out/ptxas.txt"
        if [ "$(cat "$build/$u.rc")" != 0 ]; then
            echo "THE CuTe BUILD OF gpu/$u.cu FAILED:"; tail -30 "$build/$u.log"; status=1
        fi
    done
    if [ "$(cat "$build/cute_gemm.rc")" = 0 ]; then
        objs+=("$build/cute_gemm.o")
    else
        defs+=(-DNO_CUTE)
    fi
    if [ "$(cat "$build/cute_wgmma.rc")" = 0 ] && [ "$(cat "$build/cute_wgmma_tma.rc")" = 0 ]; then
        objs+=("$build/cute_wgmma.o" "$build/cute_wgmma_tma.o")
    else
        defs+=(-DNO_CUTE_HOPPER)
    fi
else
    echo "gpu/.cutlass incomplete (gpu/fetch_cute.sh): NO CuTe ROWS"; status=1
    defs+=(-DNO_CUTE -DNO_CUTE_HOPPER)
fi
if [ "$hopper" != 0 ]; then
    wait "$hopper"
    rc=$?
    cat "$build/gemm_bench_hopper.log" >> "$out/ptxas.txt"
    if [ "$rc" = 0 ]; then
        objs+=("$build/gemm_bench_hopper.o")
    else
        echo "THE BUILD OF THE HOPPER GEMM FAILED (gpu/gemm_bench_hopper.cu):"; tail -30 "$build/gemm_bench_hopper.log"
        status=1
        defs+=(-DNO_HOPPER)
    fi
fi
if ! "$nvcc" "${flags[@]}" ${defs[@]+"${defs[@]}"} -c gemm_bench.cu -o "$build/gemm_bench.o" 2>> "$out/ptxas.txt"; then
    echo "THE BUILD FAILED:"; tail -40 "$out/ptxas.txt"; exit 1
fi
# -lcuda (see the top), where the objects leave driver (`cu*`) symbols undefined: the toolkit's
# stub or the driver's library, else (BUILD_ONLY=1) a stub of our own.
nm -u "${objs[@]}" 2> /dev/null | awk '$1 == "U" && $2 ~ /^cu[A-Z]/ { print $2 }' | sort -u > "$build/driver_symbols.txt"
if [ -s "$build/driver_symbols.txt" ]; then
    cudalib=""
    for d in "$bin/../lib64/stubs" "$bin/../lib/stubs" "$bin/../targets/x86_64-linux/lib/stubs" \
             /usr/local/cuda/lib64/stubs /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib/wsl/lib; do
        if [ -e "$d/libcuda.so" ]; then cudalib="$d"; break; fi
    done
    if [ -z "$cudalib" ] && [ "${BUILD_ONLY:-0}" = 1 ]; then
        cudalib="$build/libcuda-stub"
        mkdir -p "$cudalib"
        awk '{ printf "void %s(void) {}\n", $1 }' "$build/driver_symbols.txt" > "$cudalib/stub.c"
        if ! cc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$cudalib/libcuda.so" "$cudalib/stub.c"; then
            echo "THE BUILD FAILED: the libcuda stub"; exit 1
        fi
    fi
    echo "linking -lcuda (driver symbols: $(tr '\n' ' ' < "$build/driver_symbols.txt")) against ${cudalib:-the default library path}"
    [ -n "$cudalib" ] && ldflags+=(-L"$cudalib")
    ldflags+=(-lcuda)
fi
if ! "$nvcc" "${arch[@]}" -o "$build/gemm_bench" "${objs[@]}" "${ldflags[@]}" 2>> "$out/ptxas.txt"; then
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
    if timeout "${NCU_TIMEOUT:-600}" ncu --clock-control none -k 'regex:gen_gemm|hg_gemm|gemm_device|nvjet|xmma|cutlass|sm90_' \
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

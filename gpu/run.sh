#!/usr/bin/env bash
# On one GPU: builds every kernel with nvcc -O3 -arch=sm_90, counts SASS instructions per
# kernel (cuobjdump --dump-sass: the function's slots and the instructions without NOP padding), checks every element and times them
# (bench.cu), reads shared-memory bank conflicts with ncu where it works, prints one table last.
# Needs the CuTe headers in gpu/.cutlass/include (docs/gpu.md says how); without them the CuTe
# rows are left out. Usage: gpu/run.sh [OUT_DIR]   (default $OUT, else /tmp/gpu-out)
set -uo pipefail
cd "$(dirname "$0")"
out="${1:-${OUT:-/tmp/gpu-out}}"
build=/tmp/gpu-build
mkdir -p "$out" "$build"
export PATH="$PATH:/usr/local/cuda/bin"
nvcc --version | tail -2 > "$out/nvcc.txt"
cat "$out/nvcc.txt"
flags=(-O3 -arch=sm_90 -std=c++17 -Xptxas -v)
cccl="$(dirname "$(command -v nvcc)")/../include/cccl"
[ -d "$cccl" ] && flags+=(-I"$cccl")
if [ -d .cutlass/include/cute ] && nvcc "${flags[@]}" -I.cutlass/include -o "$build/bench" bench.cu 2> "$out/ptxas.txt"; then
    echo "built with the CuTe baselines"
else
    echo "CuTe headers missing or the CuTe build failed: building without the CuTe rows"
    tail -20 "$out/ptxas.txt" 2>/dev/null
    nvcc "${flags[@]}" -DNO_CUTE -o "$build/bench" bench.cu 2> "$out/ptxas.txt" || { cat "$out/ptxas.txt"; exit 1; }
fi
grep -A3 -E "entry function '(gen|cute|hand)_" "$out/ptxas.txt" | grep -E "entry function|Used" | sed 's/ptxas info *: //'
cuobjdump --dump-sass "$build/bench" > "$out/sass.txt"
# Per kernel: instruction slots of the function (padded with NOPs to 128 bytes, the way the
# reference figure of 88 for CuTe's transpose counts) and the instructions without that padding.
awk '/Function :/ { name = $3 }
     /\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]\*\// { if (name != "") { slots[name]++; if ($2 !~ /^NOP/) n[name]++ } }
     END { for (k in slots) print k, slots[k], n[k] }' "$out/sass.txt" | grep -E '^(gen|cute|hand)_' | sort > "$out/sass_counts.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > "$out/smi.txt" 2>&1
"$build/bench" "$out/sass_counts.txt" > "$out/table.txt" 2>&1
status=$?
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader >> "$out/smi.txt" 2>&1
if command -v ncu > /dev/null && [ "${NCU:-1}" = 1 ]; then
    m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
    m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
    m=$m,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
    m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
    timeout 300 ncu --clock-control none -k regex:'^(gen|cute|hand)_' --metrics "$m" --csv \
        "$build/bench" --once > "$out/ncu.csv" 2> "$out/ncu.err" || echo "ncu failed: $(tail -3 "$out/ncu.err")"
    # kernel, metric, value
    awk -F'","' 'NF > 10 && $0 ~ /(gen|cute|hand)_/ { gsub(/"/, "", $NF); printf "%-18s %-62s %s\n", $5, $(NF-2), $NF }' "$out/ncu.csv" 2>/dev/null | head -80
fi
cat "$out/smi.txt"
cat "$out/table.txt"
exit $status

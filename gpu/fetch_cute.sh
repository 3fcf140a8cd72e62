#!/usr/bin/env bash
# Puts the parts of the PyPI wheel nvidia-cutlass==4.2.0.0 that gpu/run.sh and gpu/gemm.sh need
# into gpu/.cutlass/ (ignored by git, never committed; about 28 MB):
#   include/                               the CuTe/CUTLASS headers
#   tools/util/include/                    cutlass/util/*.hpp, included by the tutorial below
#   examples/cute/tutorial/sgemm_sm80.cu   CuTe's tutorial GEMM, the baseline of gpu/gemm.sh
#   examples/cute/tutorial/hopper/         CuTe's Hopper tutorials (wgmma_sm90.cu, wgmma_tma_sm90.cu),
#                                          the baselines of a wgmma GEMM
# Downloads the wheel with pip (needs PyPI); with CUTLASS_SOURCE=DIR it copies from an unpacked
# wheel instead (DIR = .../site-packages/cutlass_library/source). On a GPU machine without network
# access, copy gpu/.cutlass there with the tree (docs/gpu.md).
set -euo pipefail
cd "$(dirname "$0")"
parts=(include tools/util/include examples/cute/tutorial/sgemm_sm80.cu
       examples/cute/tutorial/hopper/wgmma_sm90.cu examples/cute/tutorial/hopper/wgmma_tma_sm90.cu)
missing=()
for p in "${parts[@]}"; do [ -e ".cutlass/$p" ] || missing+=("$p"); done
[ ${#missing[@]} = 0 ] && { echo "gpu/.cutlass already complete"; exit 0; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ -n "${CUTLASS_SOURCE:-}" ]; then
    src="$CUTLASS_SOURCE"
else
    python3 -m pip download -q --no-deps -d "$tmp" nvidia-cutlass==4.2.0.0
    unzip -q "$tmp"/nvidia_cutlass-4.2.0.0-*.whl 'cutlass_library/source/include/*' \
        'cutlass_library/source/tools/util/include/*' \
        'cutlass_library/source/examples/cute/tutorial/sgemm_sm80.cu' \
        'cutlass_library/source/examples/cute/tutorial/hopper/wgmma_*.cu' -d "$tmp/x"
    src="$tmp/x/cutlass_library/source"
fi
for p in "${missing[@]}"; do
    [ -e "$src/$p" ] || { echo "fetch_cute.sh: $p is not in $src" >&2; exit 1; }
    mkdir -p ".cutlass/$(dirname "$p")"
    cp -R "$src/$p" ".cutlass/$p"
done
echo "gpu/.cutlass: $(du -sh .cutlass | cut -f1) (${missing[*]})"

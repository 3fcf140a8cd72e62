#!/usr/bin/env bash
# Puts the CuTe/CUTLASS headers of the PyPI wheel nvidia-cutlass==4.2.0.0 into gpu/.cutlass/include
# (ignored by git, never committed; about 27 MB), for gpu/run.sh. Runs where pip reaches PyPI; on a
# GPU machine without network access, copy gpu/.cutlass there with the tree (docs/gpu.md).
set -euo pipefail
cd "$(dirname "$0")"
[ -d .cutlass/include/cute ] && { echo "gpu/.cutlass/include already there"; exit 0; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download -q --no-deps -d "$tmp" nvidia-cutlass==4.2.0.0
unzip -q "$tmp"/nvidia_cutlass-4.2.0.0-*.whl 'cutlass_library/source/include/*' -d "$tmp/x"
mkdir -p .cutlass
mv "$tmp/x/cutlass_library/source/include" .cutlass/include
echo "gpu/.cutlass/include: $(du -sh .cutlass | cut -f1)"

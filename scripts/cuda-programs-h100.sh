#!/usr/bin/env bash
# Packs scripts/cuda-programs-h100.ts for the GPU host (no Node, no network there): the bundled
# script, the posts' programs (src/cuda/host/seeds/) and the H100's reference runs
# (docs/runs/2026-11-26-h100-seed-programs/) as app/data, with Node, Dawn and the Vulkan loader
# (../shared/gpu-bundle/pack.sh). Run from the project root:
#   bash scripts/cuda-programs-h100.sh OUT_DIR
# then on the GPU host:  bash OUT_DIR/run.sh data RESULTS_DIR [label…]
set -euo pipefail
out=${1:?usage: cuda-programs-h100.sh OUT_DIR}
pack=${PACK_SH:-../shared/gpu-bundle/pack.sh}
[[ -f $pack ]] || pack=/work/shared/gpu-bundle/pack.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node scripts/run-ts.mjs --bundle-only scripts/cuda-programs-h100.ts "$tmp/main.mjs"
mkdir -p "$tmp/data/seeds" "$tmp/data/runs"
cp src/cuda/host/seeds/*.cu src/cuda/host/seeds/*.cuh "$tmp/data/seeds/"
cp docs/runs/2026-11-26-h100-seed-programs/*.txt "$tmp/data/runs/"
bash "$pack" "$out" "$tmp/main.mjs" "$tmp/data"
echo "cuda-programs-h100: $out ready; on the GPU host: bash $out/run.sh data RESULTS_DIR [label…]"

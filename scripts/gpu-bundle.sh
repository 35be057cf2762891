#!/usr/bin/env bash
# Packs `npm run bench` into a self-contained folder for a GPU host without Node or network
# (the shared pack.sh adds Node, Dawn and the Vulkan loader), with `npm run bench:scan-tuning`
# beside it as app/scan-tuning.mjs. Run from the project root:
#   bash scripts/gpu-bundle.sh [OUT_DIR]      (default .gpu-bundle, git-ignored)
# then on the GPU host:  bash .gpu-bundle/run.sh
# and, once run.sh has unpacked Node to /tmp/gpu-bundle-node and the Vulkan loader:
#   cd .gpu-bundle/app && VK_DRIVER_FILES=<the NVIDIA ICD json> /tmp/gpu-bundle-node scan-tuning.mjs
set -euo pipefail
out=${1:-.gpu-bundle}
pack=${PACK_SH:-../shared/gpu-bundle/pack.sh}
[[ -x $pack || -f $pack ]] || { echo "gpu-bundle: pack.sh not found at $pack (set PACK_SH)" >&2; exit 2; }
tmp=$(mktemp -d)
node scripts/run-ts.mjs --bundle-only scripts/bench.ts "$tmp/bench.mjs"
node scripts/run-ts.mjs --bundle-only scripts/scan-tuning.ts "$tmp/scan-tuning.mjs"
bash "$pack" "$out" "$tmp/bench.mjs" "$tmp/scan-tuning.mjs"
echo "gpu-bundle: $out ready; run it with: bash $out/run.sh"

#!/usr/bin/env bash
# Packs `npm run bench` into a self-contained folder for a GPU host without Node or network
# (the shared pack.sh adds Node, Dawn and the Vulkan loader), with `npm run bench:scan-tuning`
# beside it as app/scan-tuning.mjs, the timing experiments as app/timing-experiments.mjs, the
# histogram experiments as app/histogram-experiments.mjs, the CSR adaptive SpMV sweep as
# app/spmv-adaptive.mjs (and the sliced ELL experiment as app/spmv-sell.mjs with cuSPARSE's figures
# as app/spmv_peers.py), the merge experiments as app/merge-experiments.mjs with its CUDA peer as
# app/merge_wide (built here by nvcc), the top-k experiments as app/topk-experiments.mjs with
# torch.topk as app/topk_merge_peers.py, the f16 comparison as app/f16-dawn.mjs, the PyTorch peers as app/peers.py
# (and the histogram/convolution ones as app/histconv_peers.py with CUB's as app/cub_histogram.cu), and vulkaninfo with its libraries (vtools/, unpacked by
# vtools/vulkaninfo.sh into /tmp, never into /). Run from the project root:
#   bash scripts/gpu-bundle.sh [OUT_DIR]      (default .gpu-bundle, git-ignored)
# then on the GPU host:  bash .gpu-bundle/run.sh
# and, once run.sh has unpacked Node to /tmp/gpu-bundle-node and the Vulkan loader:
#   cd .gpu-bundle/app && VK_DRIVER_FILES=<the NVIDIA ICD json> /tmp/gpu-bundle-node scan-tuning.mjs
set -euo pipefail
out=${1:-.gpu-bundle}
pack=${PACK_SH:-../shared/gpu-bundle/pack.sh}
[[ -x $pack || -f $pack ]] || { echo "gpu-bundle: pack.sh not found at $pack (set PACK_SH)" >&2; exit 2; }
tmp=$(mktemp -d)
lists=$(mktemp -d)
trap 'rm -rf "$tmp" "$lists"' EXIT
node scripts/run-ts.mjs --bundle-only scripts/bench.ts "$tmp/bench.mjs"
node scripts/run-ts.mjs --bundle-only scripts/scan-tuning.ts "$tmp/scan-tuning.mjs"
node scripts/run-ts.mjs --bundle-only scripts/experiments/timing-experiments.ts "$tmp/timing-experiments.mjs"
node scripts/run-ts.mjs --bundle-only scripts/experiments/histogram-experiments.ts "$tmp/histogram-experiments.mjs"
node scripts/run-ts.mjs --bundle-only scripts/experiments/spmv-adaptive.ts "$tmp/spmv-adaptive.mjs"
node scripts/run-ts.mjs --bundle-only scripts/experiments/spmv-sell.ts "$tmp/spmv-sell.mjs"
node scripts/run-ts.mjs --bundle-only scripts/experiments/f16-dawn.ts "$tmp/f16-dawn.mjs"
node scripts/run-ts.mjs --bundle-only scripts/experiments/merge-experiments.ts "$tmp/merge-experiments.mjs"
node scripts/run-ts.mjs --bundle-only scripts/experiments/topk-experiments.ts "$tmp/topk-experiments.mjs"
# The merge peer (CUB's DeviceMerge and CUDA twins of the wide merge) is built here, where nvcc is.
peers=(scripts/peers.py scripts/peers/spmv_peers.py scripts/peers/histconv_peers.py scripts/peers/cub_histogram.cu scripts/peers/merge_wide.cu scripts/peers/topk_merge_peers.py)
nvcc=${NVCC:-/usr/local/bin/nvcc}
if [[ -x $nvcc ]] && "$nvcc" -O3 -std=c++17 -arch=sm_90 -o "$tmp/merge_wide" scripts/peers/merge_wide.cu; then
  peers+=("$tmp/merge_wide")
else
  echo "gpu-bundle: app/merge_wide not built (no nvcc at $nvcc, or the build failed); the rest of the bundle is fine" >&2
fi
bash "$pack" "$out" "$tmp/bench.mjs" "$tmp/scan-tuning.mjs" "$tmp/timing-experiments.mjs" "$tmp/histogram-experiments.mjs" \
  "$tmp/spmv-adaptive.mjs" "$tmp/spmv-sell.mjs" "$tmp/merge-experiments.mjs" "$tmp/topk-experiments.mjs" "$tmp/f16-dawn.mjs" "${peers[@]}"
mkdir -p "$out/vtools"
mkdir -p "$lists/partial"
o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
apt-get $o update >/dev/null 2>&1 || true
(cd "$out/vtools" && apt-get $o download vulkan-tools libwayland-client0 libxcb1 libx11-6 libxau6 libxdmcp6 libbsd0 libmd0 libffi8 >/dev/null 2>&1) \
  || echo "gpu-bundle: vulkaninfo not packed (apt download failed); the rest of the bundle is fine" >&2
cat > "$out/vtools/vulkaninfo.sh" <<'VT'
#!/usr/bin/env bash
# Prints the Vulkan driver's memory heaps and types (vulkaninfo from Debian, unpacked into /tmp).
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p /tmp/vtools && for f in "$here"/*.deb; do dpkg -x "$f" /tmp/vtools; done
LD_LIBRARY_PATH=/tmp/vtools/usr/lib/x86_64-linux-gnu /tmp/vtools/usr/bin/vulkaninfo "$@"
VT
chmod +x "$out/vtools/vulkaninfo.sh"
echo "gpu-bundle: $out ready; run it with: bash $out/run.sh"

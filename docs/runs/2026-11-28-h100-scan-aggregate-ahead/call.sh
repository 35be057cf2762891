#!/usr/bin/env bash
# The one H100 call of 2026-11-28 (branch scan, commit 84c9030), as it ran: placed in the session
# checkout's ignored .gpu-bundle/dev-scan/ with the three kernels in k/ (shaders/scan/single-pass-
# warp-totals.wgsl, and that file with docs/runs/scan-kernels/aggregate-ahead.patch, then also
# aggregate-ahead-8-rows.patch, applied), run as
# `COMMIT=84c9030 bash .gpu-bundle/dev-scan/go.sh`; .gpu-bundle/app/scan-tuning.mjs is
# `npm run bench:scan-tuning` built from main at 7d4a774 (scripts/scan-tuning.ts is unchanged here).
# The 2^28 runs were cut by their own timeouts (62 s, 55 s) before timing: making the 2^28 data and
# its CPU references took 25 s, and each checked kernel about 5 s.
here=$(cd "$(dirname "$0")/.." && pwd); me=$(cd "$(dirname "$0")" && pwd)
for f in "$here"/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
node=/tmp/gpu-bundle-node; [[ -x $node ]] || { xz -d -c "$here/node.xz" > "$node"; chmod +x "$node"; }
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  [[ -f $icd ]] && { export VK_DRIVER_FILES=$icd; break; }
done
out=${OUT:-/tmp/out}; mkdir -p "$out"
cd "$here/app"
export TUNING_EXTRA_WG=512,1024 TUNING_GROUPS=132,264 TUNING_EXTRA_TYPES=u32,f32 TUNING_EXTRA_ABLATION=1
export TUNING_ONLY='^(extra 1 .* wg 1024 (u32|f32)|extra 2 .* wg (1024 groups 132|512 groups 264) (u32|f32)|extra 3 .* wg 512 groups 132 (u32|f32)|ablation extra 2 (without look-back|look-back never waits|copy with its tiling) wg 1024 groups 132|ablation extra 3 (without look-back|look-back never waits) wg 512 groups 132)$'
K="$me/k/single-pass-warp-totals.wgsl $me/k/aggregate-ahead.wgsl $me/k/aggregate-ahead-8-rows.wgsl"
run() { echo "# $1: commit ${COMMIT:-?}, kernels: $K"; TUNING_LOG2=$2 timeout ${3:-80} "$node" scan-tuning.mjs $K; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1
run "run a 2^26" 26 45 > "$out/scan-aggregate-ahead-2p26-a.txt" 2>&1
run "run a 2^28" 28 62 > "$out/scan-aggregate-ahead-2p28-a.txt" 2>&1
timeout 35 python3 peers.py > "$out/torch-peers-scan-aggregate-ahead-call.txt" 2>&1
run "run b 2^26" 26 35 > "$out/scan-aggregate-ahead-2p26-b.txt" 2>&1
run "run b 2^28" 28 55 > "$out/scan-aggregate-ahead-2p28-b.txt" 2>&1
tail -n 25 "$out"/scan-aggregate-ahead-2p26-a.txt "$out"/scan-aggregate-ahead-2p28-b.txt; grep -h "cumsum\|copy" "$out"/torch-peers*.txt | head

#!/bin/bash
# Builds every post program in src/cuda/host/seeds/ with `nvcc -arch=sm_90` and runs it, storing
# each run's stdout, stderr and exit status; also runs the CUDA-runtime oracle
# (src/cuda/host/oracle/cuda-runtime.cu) and compute-sanitizer's memcheck on the programs whose
# kernels read out of bounds. Meant for the GPU host (one device call); with --compile-only it
# only checks that everything compiles (this machine has nvcc and no GPU).
#   bash scripts/cuda-host-seed-runs.sh SEEDS_DIR ORACLE_DIR OUT_DIR [--compile-only]
set -u
seeds=$1; oracle=$2; out=$3; mode=${4:-run}
mkdir -p "$out/bin" "$out/runs"
log="$out/runs/summary.txt"
: > "$log"
{ nvidia-smi -L 2>&1; nvcc --version | tail -n 2; } >> "$log"

# Compile everything in parallel (16 cores on the GPU host).
for f in "$seeds"/*.cu "$oracle"/cuda-runtime.cu; do
  name=$(basename "$f" .cu)
  ( nvcc -arch=sm_90 -I "$seeds" -o "$out/bin/$name" "$f" > "$out/runs/$name.build.txt" 2>&1
    echo "build $name: exit $?" >> "$log" ) &
done
wait
[ "$mode" = "--compile-only" ] && { cat "$log"; exit 0; }

run() { # name label args...
  local name=$1 label=$2; shift 2
  local start end
  start=$(date +%s%N)
  ( cd "$out/runs" && timeout 120 "$out/bin/$name" "$@" > "$label.stdout" 2> "$label.stderr" )
  local rc=$?
  end=$(date +%s%N)
  echo "$rc" > "$out/runs/$label.rc"
  echo "run $label: exit $rc, $(( (end - start) / 1000000 )) ms, $(wc -c < "$out/runs/$label.stdout") bytes of stdout" >> "$log"
}
for f in "$seeds"/*.cu; do
  name=$(basename "$f" .cu)
  run "$name" "$name"
done
run 000-reduce 000-reduce-argv-1 1
run cuda-runtime cuda-runtime
for name in 003-convolution-2d 003-convolution-2d-tiled; do
  ( cd "$out/runs" && timeout 120 compute-sanitizer --tool memcheck --print-limit 5 "$out/bin/$name" \
      > "$name.memcheck.txt" 2>&1; echo "memcheck $name: exit $?" >> "$log" )
done
cat "$log"

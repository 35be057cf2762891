#!/bin/sh
# Regenerates the host-semantics oracle outputs under src/cuda/host/oracle/: each C/C++ program
# there is compiled with gcc/g++ (glibc and libstdc++ on x86-64 are the oracle for what a course
# program prints on Linux) and its output stored beside it as <name>.out; the .cu tables are built
# with nvcc (cudart's own error names and strings). Never edit a .out by hand.
#   sh scripts/cuda-host-oracle.sh
set -eu
dir=$(cd "$(dirname "$0")/../src/cuda/host/oracle" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in "$dir"/*.c; do
  name=$(basename "$c" .c)
  gcc -std=gnu11 -O0 -Wall -Wno-format -Wno-overflow -o "$tmp/$name" "$c" -lm
  "$tmp/$name" > "$dir/$name.out"
  echo "$name.out: $(wc -l < "$dir/$name.out") lines"
done
for c in "$dir"/*.cpp; do
  name=$(basename "$c" .cpp)
  g++ -std=c++17 -O0 -Wall -o "$tmp/$name" "$c"
  "$tmp/$name" > "$dir/$name.out"
  echo "$name.out: $(wc -l < "$dir/$name.out") lines"
done
# CUDA runtime tables that need no GPU (cuda-runtime.cu needs one: scripts/cuda-host-seed-runs.sh).
for c in "$dir"/*.cu; do
  name=$(basename "$c" .cu)
  [ "$name" = cuda-runtime ] && continue
  nvcc -o "$tmp/$name" "$c"
  "$tmp/$name" > "$dir/$name.out"
  echo "$name.out: $(wc -l < "$dir/$name.out") lines"
done
echo "oracle: $(gcc --version | head -n 1); $(ldd --version | head -n 1)"

#!/usr/bin/env bash
# Regenerates the CUDA conformance suite's oracle data: each src/cuda/conformance/oracle/*.cpp is
# host-equivalent C++ of a family of device expressions, compiled with the host compiler under
# CUDA's data model (x86-64 Linux: char signed, long 64-bit) and run; its JSON output is stored
# beside it as <name>.json. Never edit the .json files by hand: change the .cpp and run this.
#
#   scripts/cuda-conformance-oracle.sh            regenerate every .json
#   scripts/cuda-conformance-oracle.sh --check    fail if any stored .json differs from a fresh run
#   scripts/cuda-conformance-oracle.sh --nvcc     also compile every conformance case's CUDA with
#                                                 nvcc (run cases must compile, error cases must
#                                                 fail), when nvcc is on PATH
set -euo pipefail
cd "$(dirname "$0")/.."
dir=src/cuda/conformance/oracle
cxx=${CXX:-g++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check=0
nvcc_too=0
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    --nvcc) nvcc_too=1 ;;
    *) echo "usage: $0 [--check] [--nvcc]" >&2; exit 2 ;;
  esac
done
status=0
for src in "$dir"/*.cpp; do
  name=$(basename "$src" .cpp)
  "$cxx" -std=c++20 -fwrapv -O0 -Wall -Wno-unused -Wno-sign-compare -Wno-format-extra-args -o "$tmp/$name" "$src"
  "$tmp/$name" > "$tmp/$name.json"
  if [ "$check" = 1 ]; then
    if ! cmp -s "$tmp/$name.json" "$dir/$name.json"; then
      echo "$dir/$name.json is stale: run $0" >&2
      status=1
    fi
  else
    mv "$tmp/$name.json" "$dir/$name.json"
    echo "wrote $dir/$name.json"
  fi
done
if [ "$nvcc_too" = 1 ]; then
  if ! command -v nvcc > /dev/null; then
    echo "nvcc is not on PATH: skipping the nvcc check" >&2
  else
    node scripts/run-ts.mjs src/cuda/conformance/dump.ts > "$tmp/cases.json"
    # One folder per case (kernel.cu and its headers), then nvcc on two at a time.
    node -e '
      const fs = require("fs"), path = require("path");
      const [json, out] = process.argv.slice(1);
      JSON.parse(fs.readFileSync(json, "utf8")).forEach((c, k) => {
        const dir = path.join(out, String(k).padStart(3, "0"));
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, "kernel.cu"), c.source);
        for (const [name, text] of Object.entries(c.files)) fs.writeFileSync(path.join(dir, name), text);
        fs.writeFileSync(path.join(dir, "case"), `${c.compiles ? 0 : 1} ${c.id}\n`);
      });' "$tmp/cases.json" "$tmp/cases"
    check() {
      read -r want id < "$1/case"
      if nvcc -std=c++17 -arch=sm_75 -c -o /dev/null "$1/kernel.cu" > "$1/nvcc.log" 2>&1; then got=0; else got=1; fi
      if [ "$got" != "$want" ]; then
        echo "nvcc disagrees ($([ "$want" = 0 ] && echo "expected to compile" || echo "expected an error")): $id"
        sed 's/^/    /' "$1/nvcc.log" | head -5
        touch "$1/DISAGREE"
      fi
    }
    export -f check
    find "$tmp/cases" -mindepth 1 -maxdepth 1 -type d | sort | xargs -P 2 -I{} bash -c 'check {}'
    n=$(find "$tmp/cases" -mindepth 1 -maxdepth 1 -type d | wc -l)
    bad=$(find "$tmp/cases" -name DISAGREE | wc -l)
    echo "nvcc: $n sources checked, $bad disagreements"
    [ "$bad" = 0 ] || status=1
  fi
fi
exit $status

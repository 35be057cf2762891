#!/bin/bash
# Stores what scripts/cuda-host-seed-runs.sh produced on the GPU host under docs/runs/: each run as
# <program>.txt (exit status, stderr, stdout). A stdout over 64 KiB is summarised instead (its first
# 2000 and last 500 bytes, its size, its SHA-256, and the SHA-256 of the stdout without its timing
# lines, those that match /time|Time|elapsed/), so the repository stays small.
#   bash scripts/cuda-host-seed-store.sh RUNS_DIR DEST_DIR
set -eu
runs=$1; dest=$2
mkdir -p "$dest"
cp "$runs/summary.txt" "$dest/summary.txt"
for rc in "$runs"/*.rc; do
  label=$(basename "$rc" .rc)
  out="$runs/$label.stdout"
  {
    echo "exit: $(cat "$rc")"
    echo "stderr: $(wc -c < "$runs/$label.stderr") bytes"
    cat "$runs/$label.stderr"
    bytes=$(wc -c < "$out")
    if [ "$bytes" -le 65536 ]; then
      echo "stdout: $bytes bytes"
      cat "$out"
    else
      echo "stdout: $bytes bytes, $(wc -l < "$out") lines (summarised)"
      echo "sha256: $(sha256sum < "$out" | cut -d' ' -f1)"
      echo "sha256 without timing lines: $(grep -v -E 'time|Time|elapsed' "$out" | sha256sum | cut -d' ' -f1)"
      echo "first 2000 bytes:"
      head -c 2000 "$out"
      echo
      echo "last 500 bytes:"
      tail -c 500 "$out"
    fi
  } > "$dest/$label.txt"
done
for m in "$runs"/*.memcheck.txt; do cp "$m" "$dest/"; done

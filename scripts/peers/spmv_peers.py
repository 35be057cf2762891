#!/usr/bin/env python3
"""Peer figures for the SpMV lab: torch.sparse CSR matrix @ dense vector (cuSPARSE) on the GPU.

The matrices follow the lab's generators (src/labs/spmv/formats.ts) in distribution, not bit for
bit (a different random generator):
  uniform   row lengths = sum of four draws of 0..8 (mean 16, at most 32), distinct random columns
  powerlaw  row lengths floor(6 / u^(1/1.6)), u uniform in (0, 1], capped at the column count
Values and x are small integers 1..4 in float32, as in the lab.

For each matrix: median time of `A @ x` over --repeats timed runs measured with CUDA events after
--warmup untimed runs, GB/s over the least traffic any format needs (values and column indices
once, x once per nonzero, y once: 12 bytes per nonzero + 4 per row), and a device-to-device copy
of the same number of bytes as a reference (GB/s counting read and write, like the lab's copy
baseline).

The product is timed with the 64-bit row offsets and column indices torch builds from numpy's int64
arrays (the figure every earlier run recorded) and again with the same matrix's indices as int32
(cuSPARSE then streams 4 bytes per column index, as the lab's formats do).

Usage (on the GPU machine):  python3 scripts/peers/spmv_peers.py [--log2-rows 22] [--repeats 50]
"""
import argparse
import statistics

import numpy as np
import torch


def row_lengths(kind: str, rows: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "uniform":
        return rng.integers(0, 9, size=(rows, 4)).sum(axis=1)
    if kind == "powerlaw":
        u = 1.0 - rng.random(rows)
        return np.minimum(rows, np.floor(6.0 / u ** (1 / 1.6))).astype(np.int64)
    raise ValueError(f"unknown matrix kind {kind!r}: use uniform or powerlaw")


def build(kind: str, rows: int, seed: int):
    rng = np.random.default_rng(seed)
    lengths = row_lengths(kind, rows, rng)
    crow = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(lengths, out=crow[1:])
    nnz = int(crow[-1])
    # Random columns per row; duplicates within a row are rare at 16 of 2^22 columns and are
    # harmless to the timing (the long power-law rows may hold a few).
    cols = rng.integers(0, rows, size=nnz, dtype=np.int64)
    vals = rng.integers(1, 5, size=nnz).astype(np.float32)
    x = rng.integers(1, 5, size=rows).astype(np.float32)
    return crow, cols, vals, x, lengths


def time_cuda(fn, warmup: int, repeats: int) -> float:
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--log2-rows", type=int, default=22)
    ap.add_argument("--repeats", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("No CUDA device: run this on the GPU machine.")
    dev = torch.device("cuda")
    rows = 2 ** args.log2_rows
    print(f"# SpMV peers: torch {torch.__version__}, {torch.cuda.get_device_name(dev)}, 2^{args.log2_rows} rows")
    print("| matrix | nonzeros | mean | longest | torch CSR @ x ms | GB/s over least traffic | copy GB/s | % of copy | same, int32 indices ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in ("uniform", "powerlaw"):
        crow, cols, vals, x, lengths = build(kind, rows, args.seed)
        nnz = len(vals)
        a = torch.sparse_csr_tensor(
            torch.from_numpy(crow).to(dev), torch.from_numpy(cols).to(dev), torch.from_numpy(vals).to(dev), size=(rows, rows)
        )
        xv = torch.from_numpy(x).to(dev)
        # Check against a float64 product on the CPU (integer values: exact).
        want = np.zeros(rows)
        np.add.at(want, np.repeat(np.arange(rows), lengths), vals.astype(np.float64) * x[cols])
        got = (a @ xv).double().cpu().numpy()
        if not np.array_equal(got, want):
            raise SystemExit(f"{kind}: torch's product differs from the reference at row {int(np.argmax(got != want))}")
        ms = time_cuda(lambda: a @ xv, args.warmup, args.repeats)
        a32 = torch.sparse_csr_tensor(
            torch.from_numpy(crow.astype(np.int32)).to(dev),
            torch.from_numpy(cols.astype(np.int32)).to(dev),
            torch.from_numpy(vals).to(dev),
            size=(rows, rows),
        )
        if a32.crow_indices().dtype != torch.int32:
            raise SystemExit(f"{kind}: torch did not keep the int32 indices")
        if not np.array_equal((a32 @ xv).double().cpu().numpy(), want):
            raise SystemExit(f"{kind}: torch's product with int32 indices differs from the reference")
        ms32 = time_cuda(lambda: a32 @ xv, args.warmup, args.repeats)
        least = 12 * nnz + 4 * rows
        src = torch.empty(least // 4, dtype=torch.float32, device=dev)
        dst = torch.empty_like(src)
        copy_ms = time_cuda(lambda: dst.copy_(src), args.warmup, args.repeats)
        gbps = least / (ms * 1e6)
        copy_gbps = 2 * least / (copy_ms * 1e6)
        print(
            f"| {kind} | {nnz:,} | {nnz / rows:.2f} | {int(lengths.max()):,} | {ms:.4f} | {gbps:.1f} | {copy_gbps:.1f} | {100 * gbps / copy_gbps:.1f} % | {ms32:.4f} |"
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""cuBLAS SGEMM through torch.matmul, the peer of the matrix-multiply lab's bench ladder.

f32 only: TF32 is switched off for matmul and cuDNN, so cuBLAS runs true FP32 SGEMM. Each shape
(M x N x K, C = A @ B with A of M x K and B of K x N) is warmed up for about a second, then timed
with CUDA events around a batch of back-to-back calls, repeated; the median per call is printed
in ms and GFLOP/s (2*M*N*K FLOPs), beside the result of a sampled check against float64.

Run on the GPU host, in the same device call as `npm run bench` (BENCH_ONLY=matmul):
    python3 scripts/peers/matmul_cublas.py            # the ladder of the issue
    python3 scripts/peers/matmul_cublas.py 4096x4096x4096 1000x700x300
"""
import statistics
import sys
import time

import torch

LADDER = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (4000, 3000, 2000)]


def parse(arg):
    m, n, k = (int(x) for x in arg.lower().split("x"))
    return m, n, k


def time_shape(m, n, k, repeats=20):
    gen = torch.Generator(device="cuda").manual_seed(m + n + k)
    a = torch.rand((m, k), device="cuda", dtype=torch.float32, generator=gen) * 2 - 1
    b = torch.rand((k, n), device="cuda", dtype=torch.float32, generator=gen) * 2 - 1
    c = torch.matmul(a, b)
    # Sampled check in float64: 64 elements of C within 2*K*u*sum|a*b|.
    rows = torch.randint(0, m, (64,), device="cuda", generator=gen)
    cols = torch.randint(0, n, (64,), device="cuda", generator=gen)
    exact = (a[rows].double() * b[:, cols].t().double()).sum(dim=1)
    bound = 2 * k * 2.0**-24 * (a[rows].double() * b[:, cols].t().double()).abs().sum(dim=1)
    ok = bool(((c[rows, cols].double() - exact).abs() <= bound).all())
    # Warm-up: about a second of back-to-back calls so the SM clock is up.
    torch.cuda.synchronize()
    t0 = time.time()
    while time.time() - t0 < 1.0:
        for _ in range(10):
            torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
    # Calls per batch: enough for about 20 ms.
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.matmul(a, b, out=c)
    end.record()
    torch.cuda.synchronize()
    batch = max(1, int(20.0 / max(start.elapsed_time(end), 1e-3)))
    samples = []
    for _ in range(repeats):
        start.record()
        for _ in range(batch):
            torch.matmul(a, b, out=c)
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) / batch)
    ms = statistics.median(samples)
    return ms, min(samples), 2.0 * m * n * k / (ms * 1e6), ok, batch


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    shapes = [parse(a) for a in sys.argv[1:]] or LADDER
    print(f"# cuBLAS SGEMM via torch.matmul (torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name()})")
    print("TF32 off; CUDA events around batches of back-to-back calls after ~1 s of warm-up; median of 20\n")
    print("| M × N × K | median ms | min ms | GFLOP/s | calls per batch | check |")
    print("| --- | --- | --- | --- | --- | --- |")
    for m, n, k in shapes:
        ms, lo, gflops, ok, batch = time_shape(m, n, k)
        print(f"| {m} × {n} × {k} | {ms:.4f} | {lo:.4f} | {gflops:.1f} | {batch} | {'ok (64 samples)' if ok else 'WRONG'} |")


if __name__ == "__main__":
    main()

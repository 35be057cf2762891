"""Peers for `npm run bench`, run right after it on the same GPU host (part of the GPU bundle).

Times torch.sum (PyTorch's reduction kernel) and torch.cumsum (CUB's decoupled look-back scan)
at 2^26 and 2^28 on int32 (and cumsum on float32), each in alternating rounds with PyTorch's
device-to-device copy of the same bytes, with CUDA events after a warm-up. Then, from the JSON
that the bench wrote (BENCH_JSON), prints our best variant's time as a ratio to each.

    python3 peers.py [best.json]
"""

import json
import statistics
import sys

import torch

ROUNDS = 15
MIN_PASS_MS = 2.0


def events_ms(fn, k):
    """GPU ms of k back-to-back calls of fn, measured with CUDA events."""
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(k):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


def calls_per_pass(fn):
    k = 1
    while True:
        ms = events_ms(fn, k)
        if ms >= MIN_PASS_MS or k >= 1024:
            return k
        k = min(1024, k * max(2, int(MIN_PASS_MS / max(ms, 0.001)) + 1))


def rounds(op, base):
    """Median ms per call of op and of base, and the median per-round ratio base/op, timed in turn."""
    for _ in range(3):
        op()
        base()
    ko, kb = calls_per_pass(op), calls_per_pass(base)
    # About 300 ms of load so the clocks are up before the timed rounds.
    t = 0.0
    while t < 300:
        t += events_ms(op, ko) + events_ms(base, kb)
    o, b = [], []
    for _ in range(ROUNDS):
        o.append(events_ms(op, ko) / ko)
        b.append(events_ms(base, kb) / kb)
    ratios = [bb / oo for oo, bb in zip(o, b)]
    return statistics.median(o), statistics.median(b), statistics.median(ratios), max(o) / min(o)


def main():
    ours = []
    if len(sys.argv) > 1:
        try:
            with open(sys.argv[1]) as f:
                ours = json.load(f)["best"]
        except (OSError, ValueError, KeyError) as e:
            print(f"(could not read our figures from {sys.argv[1]}: {e})")
    dev = torch.cuda.get_device_name(0)
    print(f"# Peers on {dev}, torch {torch.__version__}, CUDA {torch.version.cuda}; CUDA events, {ROUNDS} rounds, median")
    rows = []
    for log2 in (26, 28):
        n = 2**log2
        g = torch.Generator(device="cuda").manual_seed(log2)
        x = torch.randint(0, 256, (n,), device="cuda", dtype=torch.int32, generator=g)
        xf = x.float()
        dst = torch.empty_like(x)
        copy = lambda: dst.copy_(x)  # noqa: E731 - reads n and writes n: the scan's traffic
        half = torch.empty(n // 2, device="cuda", dtype=torch.int32)
        src_half = x[: n // 2]
        copy_half = lambda: half.copy_(src_half)  # noqa: E731 - 4n bytes of traffic, the sum's
        # Correctness first, modulo 2^32 as our u32 kernels wrap: the last prefix is the total.
        total = int(x.long().sum())
        assert int(torch.sum(x, dtype=torch.int32)) % 2**32 == total % 2**32
        assert int(torch.cumsum(x, 0, dtype=torch.int32)[-1]) % 2**32 == total % 2**32
        cases = [
            ("reduce", "u32", "torch.sum (int32)", lambda: torch.sum(x, dtype=torch.int32), copy_half, 4 * n),
            ("scan", "u32", "torch.cumsum (int32, CUB)", lambda: torch.cumsum(x, 0, dtype=torch.int32), copy, 8 * n),
            ("scan", "f32", "torch.cumsum (float32, CUB)", lambda: torch.cumsum(xf, 0), copy, 8 * n),
        ]
        for op, typ, name, fn, base, nbytes in cases:
            ms, base_ms, ratio, spread = rounds(fn, base)
            mine = next((o for o in ours if o["op"] == op and o["n"] == n and o["type"] == typ), None)
            rows.append((f"2^{log2}", name, ms, nbytes / (ms * 1e6), ratio, spread, mine))
        del x, xf, dst, half
        torch.cuda.empty_cache()
    print("| N | peer | median ms | GB/s | % of torch copy (same bytes) | max/min | ours (variant) | ours ms | ours ÷ peer time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for log2, name, ms, gbps, ratio, spread, mine in rows:
        ours_cell = (mine["variant"], f"{mine['medianMs']:.4f}", f"{mine['medianMs'] / ms:.3f}") if mine else ("—", "—", "—")
        print(f"| {log2} | {name} | {ms:.4f} | {gbps:.0f} | {100 * ratio:.1f} % | {spread:.3f} | {ours_cell[0]} | {ours_cell[1]} | {ours_cell[2]} |")
    print("\nours ÷ peer time below 1: our kernel takes less time than the peer.")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""PyTorch peers for the merge and top-k labs (issue 19), timed with CUDA events after warm-up.

Run on the GPU host, beside `npm run bench` (BENCH_ONLY=merge,topk) from the GPU bundle:

    python3 scripts/peers/topk_merge_peers.py            # defaults: merge 2 x 2^25, top-k 2^26, k = 20
    python3 scripts/peers/topk_merge_peers.py --json     # one JSON object instead of the table

Prints, in the same device call:
  - read and copy baselines in torch (sum of an int32 array; clone of it), for the ratios;
  - torch.topk(k) of 2^26 random int32 (duplicates kept, as the lab's `sem=all`), and of the
    distinct values (torch.unique then topk), the seed's semantics;
  - a merge baseline: torch.sort of the concatenation of two sorted 2^25-element arrays (values
    below 2^31, so int32 holds the u32 keys), and torch.searchsorted-based merge positions.
Every figure is the median of --repeats timed runs after --warmup untimed ones.
"""
import argparse
import json
import statistics

import torch


def time_ms(fn, warmup, repeats):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--merge-log2', type=int, default=25, help='log2 of each merge input (default 25)')
    parser.add_argument('--topk-log2', type=int, default=26, help='log2 of the top-k input (default 26)')
    parser.add_argument('--k', type=int, default=20)
    parser.add_argument('--warmup', type=int, default=10)
    parser.add_argument('--repeats', type=int, default=30)
    parser.add_argument('--json', action='store_true')
    args = parser.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit('topk_merge_peers: no CUDA device visible to torch; run it on the GPU host.')
    dev = torch.device('cuda')
    gen = torch.Generator(device=dev).manual_seed(19)
    rows = []

    def row(name, elements, nbytes, ms):
        rows.append({'name': name, 'elements': elements, 'bytes': nbytes, 'ms': ms, 'GBps': nbytes / (ms * 1e6)})

    # Top-k input and the read/copy baselines over the same bytes.
    n = 1 << args.topk_log2
    values = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device=dev, generator=gen)
    row('read baseline (torch.sum, int32)', n, 4 * n, time_ms(lambda: values.sum(), args.warmup, args.repeats))
    row('copy baseline (clone, int32)', n, 8 * n, time_ms(lambda: values.clone(), args.warmup, args.repeats))
    row(f'torch.topk k={args.k} (duplicates kept)', n, 4 * n, time_ms(lambda: torch.topk(values, args.k), args.warmup, args.repeats))
    row(f'torch.unique + topk k={args.k} (distinct)', n, 4 * n, time_ms(lambda: torch.topk(torch.unique(values), args.k), args.warmup, args.repeats))

    # Merge inputs: two sorted arrays of 2^merge_log2 keys below 2^31.
    m = 1 << args.merge_log2
    a = torch.sort(torch.randint(0, 2**31 - 1, (m,), dtype=torch.int32, device=dev, generator=gen)).values
    b = torch.sort(torch.randint(0, 2**31 - 1, (m,), dtype=torch.int32, device=dev, generator=gen)).values
    both = torch.empty(2 * m, dtype=torch.int32, device=dev)
    row('copy baseline (clone of A‖B)', 2 * m, 8 * 2 * m, time_ms(lambda: both.clone(), args.warmup, args.repeats))
    row('merge: torch.sort(cat(A, B))', 2 * m, 8 * 2 * m, time_ms(lambda: torch.sort(torch.cat((a, b))), args.warmup, args.repeats))

    def searchsorted_merge():
        # Stable merge by ranks: A[i] goes to i + #(B < A[i]), B[j] to j + #(A <= B[j]).
        out = torch.empty(2 * m, dtype=torch.int32, device=dev)
        ar = torch.arange(m, device=dev)
        out[ar + torch.searchsorted(b, a, right=False)] = a
        out[ar + torch.searchsorted(a, b, right=True)] = b
        return out

    row('merge: searchsorted ranks + scatter', 2 * m, 8 * 2 * m, time_ms(searchsorted_merge, args.warmup, args.repeats))
    assert torch.equal(searchsorted_merge(), torch.sort(torch.cat((a, b))).values), 'searchsorted merge disagrees with sort'

    info = {'device': torch.cuda.get_device_name(dev), 'torch': torch.__version__, 'warmup': args.warmup, 'repeats': args.repeats, 'rows': rows}
    if args.json:
        print(json.dumps(info, indent=2))
        return
    print(f"# torch peers on {info['device']} (torch {info['torch']}; median of {args.repeats} after {args.warmup} warm-up)")
    print(f"{'kernel':48} {'elements':>12} {'ms':>10} {'GB/s':>10}")
    for r in rows:
        print(f"{r['name']:48} {r['elements']:>12} {r['ms']:>10.4f} {r['GBps']:>10.1f}")


if __name__ == '__main__':
    main()

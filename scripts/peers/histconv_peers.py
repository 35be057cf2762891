"""Peer figures for the histogram and convolution labs (issue 16), to set beside `npm run bench`.

Times, on the first CUDA device, with CUDA events after a warm-up, median of REPEATS runs:
  * torch.bincount of 2^28 bytes into 256 bins, on uniform bytes and on all-zero bytes
    (the same data the histogram section of `npm run bench` times);
  * torch.nn.functional.conv2d (cuDNN, TF32 off) of an 8192 x 8192 f32 image with a 5 x 5 mask,
    zero padding 2 (ghost cells), as the convolution section times it;
  * a device-to-device copy of the image (one read and one write per pixel) and a sum over the bytes
    (one read), as this process's own bandwidth yardsticks.

Usage (on the GPU machine, with PyTorch installed):
    python3 scripts/peers/histconv_peers.py [--repeats 20] [--log2-bytes 28] [--size 8192] [--mask 5]
Prints one Markdown table; exits non-zero only when CUDA is missing or a result is wrong.
"""
import argparse
import statistics
import sys

import torch


def time_ms(fn, repeats):
    """Median milliseconds of fn() over `repeats` runs, after warm-up runs, by CUDA events."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    # Warm the clocks for about 200 ms, as the WebGPU bench does before it times.
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    one = max(start.elapsed_time(end), 1e-3)
    for _ in range(int(200 / one) + 1):
        fn()
    samples = []
    for _ in range(repeats):
        start.record()
        fn()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end))
    return statistics.median(samples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--log2-bytes", type=int, default=28)
    ap.add_argument("--size", type=int, default=8192)
    ap.add_argument("--mask", type=int, default=5)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("CUDA is not available: run this on the GPU machine.", file=sys.stderr)
        return 2
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    rows = []
    print(f"device: {torch.cuda.get_device_name(dev)}; torch {torch.__version__}; cuDNN {torch.backends.cudnn.version()}")

    n = 1 << args.log2_bytes
    g = torch.Generator(device=dev).manual_seed(3)
    for name, data in (
        ("uniform", torch.randint(0, 256, (n,), dtype=torch.uint8, device=dev, generator=g)),
        ("one-value", torch.zeros(n, dtype=torch.uint8, device=dev)),
    ):
        try:
            counts = torch.bincount(data, minlength=256)
            kind = "uint8"
            fn = lambda: torch.bincount(data, minlength=256)
        except RuntimeError:
            # Older PyTorch refuses uint8 input: time it on int32, and say so.
            wide = data.to(torch.int32)
            counts = torch.bincount(wide, minlength=256)
            kind = "int32 (uint8 refused)"
            fn = lambda: torch.bincount(wide, minlength=256)
        if int(counts.sum()) != n or (name == "one-value" and int(counts[0]) != n):
            print(f"bincount on {name} data counted {int(counts.sum())} of {n}", file=sys.stderr)
            return 1
        ms = time_ms(fn, args.repeats)
        rows.append((f"torch.bincount, {name}, {kind}", f"2^{args.log2_bytes} bytes", ms, n / (ms * 1e6)))
    read_src = torch.randint(0, 256, (n,), dtype=torch.uint8, device=dev, generator=g).view(torch.int32)
    ms = time_ms(lambda: read_src.sum(dtype=torch.int64), args.repeats)
    rows.append(("sum over the bytes (read yardstick)", f"2^{args.log2_bytes} bytes", ms, n / (ms * 1e6)))

    s, m = args.size, args.mask
    image = torch.rand((1, 1, s, s), dtype=torch.float32, device=dev, generator=g)
    mask = torch.rand((1, 1, m, m), dtype=torch.float32, device=dev, generator=g)
    conv = lambda: torch.nn.functional.conv2d(image, mask, padding=m // 2)
    out = conv()
    # Spot check one interior pixel against the definition (cross-correlation, as conv2d computes).
    y, x = s // 2, s // 3
    ref = (image[0, 0, y - m // 2 : y + m // 2 + 1, x - m // 2 : x + m // 2 + 1].double() * mask[0, 0].double()).sum()
    if abs(float(out[0, 0, y, x]) - float(ref)) > 1e-4 * max(1.0, abs(float(ref))):
        print(f"conv2d pixel ({y}, {x}) is {float(out[0, 0, y, x])}, expected {float(ref)}", file=sys.stderr)
        return 1
    ms = time_ms(conv, args.repeats)
    bytes_min = 2 * 4 * s * s  # one read and one write per pixel
    rows.append((f"conv2d {m}x{m}, cuDNN, TF32 off", f"{s} x {s} f32", ms, bytes_min / (ms * 1e6)))
    dst = torch.empty_like(image)
    ms = time_ms(lambda: dst.copy_(image), args.repeats)
    rows.append(("copy of the image (copy yardstick)", f"{s} x {s} f32", ms, bytes_min / (ms * 1e6)))

    print("| peer | size | median ms | GB/s (least traffic) |")
    print("|---|---|---|---|")
    for name, size, ms, rate in rows:
        print(f"| {name} | {size} | {ms:.4f} | {rate:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

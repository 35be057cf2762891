# CUB's scan through PyTorch on the same GPU, beside a device-to-device copy of the same bytes.
import statistics, torch
n = 1 << 26
def timed(f, reps=30):
    for _ in range(5): f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); f(); b.record(); b.synchronize(); ts.append(a.elapsed_time(b))
    return statistics.median(ts)
print(torch.cuda.get_device_name(0), torch.__version__)
for name, x in (('int32', torch.randint(0, 1 << 30, (n,), dtype=torch.int32, device='cuda')), ('float32', torch.rand(n, device='cuda'))):
    y = torch.empty_like(x)
    copy = timed(lambda: y.copy_(x))
    scan = timed(lambda: torch.cumsum(x, 0, dtype=x.dtype, out=y))
    gb = 2 * 4 * n / 1e9
    print(f'{name}: copy {copy:.4f} ms {gb / copy * 1e3:.0f} GB/s; cumsum {scan:.4f} ms {gb / scan * 1e3:.0f} GB/s = {100 * copy / scan:.1f} % of copy')

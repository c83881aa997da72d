#!/usr/bin/env python3
"""PyTorch's figures for the ops of cuda_bench (bench/cuda/cuda_bench.cpp), on
the same GPU: one JSON object per line, {"name": <cuda_bench's benchmark
name>, "GB/s" or "TFLOP/s": value, "ms": time}, so tools/gpu-check can put
each beside tt's. Bytes and flops are counted as cuda_bench counts them
(memcpy: read + written; add: 3 tensors; sum: bytes read; GEMM: 2n^3).

Times follow cuda_bench's protocol under Google Benchmark (manual time,
--benchmark_min_time, --benchmark_repetitions, the median of the
repetitions' means): CUDA events around each op on the current stream; the
iteration count grows as Google Benchmark grows it until one run lasts
--min-time seconds, then --repetitions runs of that many iterations. The GPU
works as long as under cuda_bench, so both meet the same clocks: a median of
a few GEMMs measured a burst at boost clock against tt's sustained load, and
made PyTorch look 5-15% faster on an H100 (docs/performance.md).

Usage: torch_peer.py [--min-time S] [--repetitions N] [--filter REGEX]   (needs torch with CUDA)
"""
import argparse
import json
import re
import statistics
import sys

import torch

ELEMS = 64 << 20  # cuda_bench's kElems
SUM_ELEMS = (ELEMS, 4 * ELEMS)  # cuda_bench's reduction_args: the larger shows what a sum's fixed costs weigh


def event_seconds(op, iterations):
    """Seconds of GPU time `iterations` runs of op took, each between two CUDA events (as cuda_bench's timed())."""
    total = 0.0
    for _ in range(iterations):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        op()
        end.record()
        end.synchronize()
        total += start.elapsed_time(end) / 1e3
    return total


def benchmark_ms(op, min_time, repetitions):
    """Milliseconds per op, as Google Benchmark reports a manual-time benchmark with these flags: grow the
    iteration count (10x a step while a run is under a tenth of min_time, then aiming 40% past it, as its
    BenchmarkRunner::PredictNumItersNeeded) until a run lasts min_time, then the median of `repetitions`
    runs' means."""
    op()  # warm-up: caching allocator, cuBLAS handle, kernels loaded
    torch.cuda.synchronize()
    iterations = 1
    while True:
        seconds = event_seconds(op, iterations)
        if seconds >= min_time or iterations >= 1_000_000_000:
            break
        multiplier = min_time * 1.4 / max(seconds, 1e-9) if seconds / min_time > 0.1 else 10.0
        iterations = max(iterations + 1, int(iterations * multiplier + 0.5))
    means = [seconds / iterations] + [event_seconds(op, iterations) / iterations for _ in range(repetitions - 1)]
    return statistics.median(means) * 1e3


def emit(name, ms, **rate):
    print(json.dumps(dict(name=name, ms=round(ms, 4), **rate)), flush=True)


def rows(dev):
    """(name, make, figures): make() allocates the operands and returns the op to time; figures(ms) its rate,
    counted as cuda_bench counts it."""
    dtypes = dict(f32=torch.float32, f16=torch.float16, bf16=torch.bfloat16, f64=torch.float64)
    size = lambda dt: torch.empty((), dtype=dtypes[dt]).element_size()  # noqa: E731

    def gbs(moved):
        return lambda ms: {"GB/s": round(moved / ms / 1e6, 1)}

    def copy(nbytes):
        src = torch.zeros(nbytes, dtype=torch.uint8, device=dev)
        dst = torch.empty_like(src)
        return lambda: dst.copy_(src)

    def convert(frm, to):
        x = torch.ones(ELEMS, dtype=dtypes[frm], device=dev)
        return lambda: x.to(dtypes[to])

    def add(dt):
        a = torch.ones(ELEMS, dtype=dtypes[dt], device=dev)
        b = torch.ones_like(a)
        return lambda: a + b

    def total(dt, n):
        x = torch.ones(n, dtype=dtypes[dt], device=dev)
        return lambda: x.sum()

    def columns(dt, cols):
        x = torch.ones(ELEMS // cols, cols, dtype=dtypes[dt], device=dev)
        return lambda: x.sum(0)

    def mm(dt, n):
        a = torch.randn(n, n, dtype=dtypes[dt], device=dev)
        b = torch.randn(n, n, dtype=dtypes[dt], device=dev)
        return lambda: torch.mm(a, b)

    for nbytes in (ELEMS, ELEMS * 3, ELEMS * 6):
        yield f"BM_MemcpyD2D/{nbytes}", lambda nbytes=nbytes: copy(nbytes), gbs(2 * nbytes)
    for frm, to in (("f32", "f16"), ("f16", "f32"), ("f32", "bf16"), ("f32", "f64")):
        yield (f"BM_Convert/{frm}_to_{to}/{ELEMS}", lambda frm=frm, to=to: convert(frm, to),
               gbs(ELEMS * (size(frm) + size(to))))
    for dt in ("f32", "f16", "bf16"):
        yield f"BM_Add/{dt}/{ELEMS}", lambda dt=dt: add(dt), gbs(3 * ELEMS * size(dt))
        for n in SUM_ELEMS:
            yield f"BM_Sum/{dt}/{n}", lambda dt=dt, n=n: total(dt, n), gbs(n * size(dt))
    for dt, cols in (("f32", 64), ("f16", 64), ("f16", 65536), ("bf16", 64)):
        yield (f"BM_SumColumns/{dt}_{cols}/{ELEMS}", lambda dt=dt, cols=cols: columns(dt, cols),
               gbs(ELEMS * size(dt)))
    for dt in ("f32", "f16", "bf16"):
        for n in (4096, 8192):
            yield (f"BM_Gemm/{dt}/{n}", lambda dt=dt, n=n: mm(dt, n),
                   lambda ms, n=n: {"TFLOP/s": round(2 * n**3 / ms / 1e9, 1)})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-time", type=float, default=0.3, help="seconds a run lasts at least (default 0.3)")
    ap.add_argument("--repetitions", type=int, default=3, help="runs whose means' median is reported (default 3)")
    ap.add_argument("--filter", default="", help="only the rows whose name this regex finds (as --benchmark_filter)")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_peer.py: torch sees no CUDA device")
    dev = torch.device("cuda:0")
    torch.backends.cuda.matmul.allow_tf32 = False  # cuda_bench's float32 GEMM is plain FP32
    for name, make, figures in rows(dev):
        if not re.search(args.filter, name):
            continue
        op = make()
        ms = benchmark_ms(op, args.min_time, args.repetitions)
        del op  # the operands, before the next row allocates its own
        emit(name, ms, **figures(ms))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""PyTorch's figures for the ops of cuda_bench (bench/cuda/cuda_bench.cpp), on
the same GPU: one JSON object per line, {"name": <cuda_bench's benchmark
name>, "GB/s" or "TFLOP/s": value, "ms": median time}, so tools/gpu-check
can put each beside tt's. Bytes and flops are counted as cuda_bench counts
them (memcpy: read + written; add: 3 tensors; sum: bytes read; GEMM: 2n^3).
Times: CUDA events around each op on the current stream, median of REPS
after a warm-up, as cuda_bench times tt's ops.

Usage: torch_peer.py [--reps N]   (needs torch with CUDA)
"""
import argparse
import json
import statistics
import sys

import torch

ELEMS = 64 << 20  # cuda_bench's kElems


def median_ms(op, reps):
    op()  # warm-up: caching allocator, cuBLAS handle, kernels loaded
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        op()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def emit(name, ms, **rate):
    print(json.dumps(dict(name=name, ms=round(ms, 4), **rate)), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_peer.py: torch sees no CUDA device")
    dev = torch.device("cuda:0")
    torch.backends.cuda.matmul.allow_tf32 = False  # cuda_bench's float32 GEMM is plain FP32
    dtypes = dict(f32=torch.float32, f16=torch.float16, bf16=torch.bfloat16, f64=torch.float64)

    for nbytes in (ELEMS * 3, ELEMS * 6):
        src = torch.zeros(nbytes, dtype=torch.uint8, device=dev)
        dst = torch.empty_like(src)
        ms = median_ms(lambda: dst.copy_(src), args.reps)
        emit(f"BM_MemcpyD2D/{nbytes}", ms, **{"GB/s": round(2 * nbytes / ms / 1e6, 1)})
        del src, dst
    for frm, to in (("f32", "f16"), ("f16", "f32"), ("f32", "bf16"), ("f32", "f64")):
        x = torch.ones(ELEMS, dtype=dtypes[frm], device=dev)
        ms = median_ms(lambda: x.to(dtypes[to]), args.reps)
        moved = ELEMS * (x.element_size() + torch.empty((), dtype=dtypes[to]).element_size())
        emit(f"BM_Convert/{frm}_to_{to}/{ELEMS}", ms, **{"GB/s": round(moved / ms / 1e6, 1)})
        del x
    for name in ("f32", "f16", "bf16"):
        a = torch.ones(ELEMS, dtype=dtypes[name], device=dev)
        b = torch.ones_like(a)
        ms = median_ms(lambda: a + b, args.reps)
        emit(f"BM_Add/{name}/{ELEMS}", ms, **{"GB/s": round(3 * ELEMS * a.element_size() / ms / 1e6, 1)})
        ms = median_ms(lambda: a.sum(), args.reps)
        emit(f"BM_Sum/{name}/{ELEMS}", ms, **{"GB/s": round(ELEMS * a.element_size() / ms / 1e6, 1)})
        del a, b
    for name in ("f32", "f16", "bf16"):
        for n in (4096, 8192):
            a = torch.randn(n, n, dtype=dtypes[name], device=dev)
            b = torch.randn(n, n, dtype=dtypes[name], device=dev)
            ms = median_ms(lambda: torch.mm(a, b), max(5, args.reps // 2))
            emit(f"BM_Gemm/{name}/{n}", ms, **{"TFLOP/s": round(2 * n**3 / ms / 1e9, 1)})
            del a, b


if __name__ == "__main__":
    main()

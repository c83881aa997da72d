#!/usr/bin/env python3
"""tools/gpu-check without a GPU: what it makes of cuda_bench's output, the
targets it derives, how it classifies tensor-run's cases, and a whole `run`
over a stand-in bundle and a stand-in nvidia-smi (a suite with a passing, a
failing and a skipped case), plus the refusals: no GPU, no bundle, a bundle
that does not unpack. The real bundle needs nvcc and a GPU machine; see
docs/performance.md."""
import importlib.machinery
import importlib.util
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "tools", "gpu-check")
loader = importlib.machinery.SourceFileLoader("gpu_check", TOOL)
spec = importlib.util.spec_from_loader("gpu_check", loader)
gc = importlib.util.module_from_spec(spec)
loader.exec_module(gc)

N = 64 << 20


def bench_json(entries):
    return {"context": {}, "benchmarks": entries}


def aggregate(name, kind, **counters):
    return dict(name=f"{name}/manual_time_{kind}", run_name=f"{name}/manual_time", run_type="aggregate",
                aggregate_name=kind, **counters)


class Figures(unittest.TestCase):
    def write(self, doc):
        f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(doc, f)
        f.close()
        self.addCleanup(os.remove, f.name)
        return f.name

    def test_medians_of_repetitions_by_plain_name(self):
        path = self.write(bench_json([
            aggregate(f"BM_Add/f16/{N}", "mean", **{"GB/s": 3000.0}),
            aggregate(f"BM_Add/f16/{N}", "median", **{"GB/s": 3600.04}),
            aggregate(f"BM_Add/f16/{N}", "stddev", **{"GB/s": 5.0}),
            aggregate("BM_Gemm/f16/4096", "median", **{"TFLOP/s": 700.26}),
        ]))
        self.assertEqual(gc.benchmark_figures(path), {f"BM_Add/f16/{N}": {"GB/s": 3600.0},
                                                      "BM_Gemm/f16/4096": {"TFLOP/s": 700.3}})

    def test_a_benchmark_that_skipped_is_an_error_not_a_figure(self):
        path = self.write(bench_json([dict(name="BM_Add/f16/1/manual_time", run_name="BM_Add/f16/1/manual_time",
                                           run_type="iteration", error_occurred=True,
                                           error_message="no CUDA device")]))
        with self.assertRaisesRegex(ValueError, "no CUDA device"):
            gc.benchmark_figures(path)


class Targets(unittest.TestCase):
    def results(self, **parts):
        return {"parts": parts}

    def test_bandwidth_against_the_memcpy_of_the_nearest_traffic(self):
        bench = {f"BM_MemcpyD2D/{3 * N}": {"GB/s": 4000.0}, f"BM_MemcpyD2D/{6 * N}": {"GB/s": 4100.0},
                 f"BM_Add/f16/{N}": {"GB/s": 3700.0}, f"BM_Sum/f16/{N}": {"GB/s": 3000.0},
                 f"BM_Convert/f32_to_f64/{N}": {"GB/s": 3600.0}}
        t = gc.evaluate_targets(self.results(bench=dict(figures=bench)))
        self.assertEqual(t[f"BM_Add/f16/{N} / memcpy"], dict(value=0.925, target=">= 0.9", met=True))
        self.assertEqual(t[f"BM_Sum/f16/{N} / memcpy"]["met"], False)  # 3000 / 4000
        # With a copy of the sum's own traffic (2N bytes read: a copy of N), that one.
        bench[f"BM_MemcpyD2D/{N}"] = {"GB/s": 3200.0}
        t = gc.evaluate_targets(self.results(bench=dict(figures=bench)))
        self.assertEqual(t[f"BM_Sum/f16/{N} / memcpy"]["value"], round(3000 / 3200, 3))
        self.assertEqual(t[f"BM_Add/f16/{N} / memcpy"]["value"], 0.925)  # still the copy of 3N
        self.assertEqual(t[f"BM_Convert/f32_to_f64/{N} / memcpy"]["value"], round(3600 / 4100, 3))  # 12N moved
        self.assertIsNone(t[f"BM_Add/bf16/{N} / memcpy"]["met"])  # not measured

    def test_gemm_against_pytorch_and_missing_peer(self):
        bench = {"BM_Gemm/f16/4096": {"TFLOP/s": 710.0}, "BM_Gemm/bf16/4096": {"TFLOP/s": 650.0},
                 "BM_Gemm/bf16_cublaslt/4096": {"TFLOP/s": 720.0}}
        peer = {"BM_Gemm/f16/4096": {"TFLOP/s": 708.0, "ms": 0.2}, "BM_Gemm/bf16/4096": {"TFLOP/s": 717.0}}
        t = gc.evaluate_targets(self.results(bench=dict(figures=bench), peer=dict(figures=peer)))
        self.assertTrue(t["BM_Gemm/f16/4096 / PyTorch"]["met"])
        self.assertFalse(t["BM_Gemm/bf16/4096 / PyTorch"]["met"])
        self.assertTrue(t["BM_Gemm/bf16_cublaslt/4096 / PyTorch"]["met"])  # the same PyTorch figure
        self.assertIsNone(t["BM_Gemm/f16/8192 / PyTorch"]["met"])

    def test_step_overhead_and_cpu_epoch(self):
        per_step = {"cudaHostAlloc": 0.0, "cudaStreamSynchronize": 1.01, "cudaMemcpy": 0.0}
        cpu = {"tt": {"1": 0.9, "16": 0.5}, "libtorch": {"1": 0.8, "16": 0.6}}
        t = gc.evaluate_targets(self.results(overhead=dict(per_step=per_step), cpu=dict(epochs=cpu)))
        self.assertTrue(t["pinned host allocations per step"]["met"])
        self.assertTrue(t["synchronisations per step"]["met"])
        self.assertEqual(t["cpu epoch at 16 threads, tt / LibTorch"], dict(value=0.833, target="<= 1.0", met=True))
        per_step["cudaStreamSynchronize"] = 7
        t = gc.evaluate_targets(self.results(overhead=dict(per_step=per_step)))
        self.assertFalse(t["synchronisations per step"]["met"])


class Cases(unittest.TestCase):
    def test_tensor_run_cases_are_classified_by_their_markers(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "a.cpp"), "w") as f:
                f.write(textwrap.dedent("""\
                    TT_CASE(clean_one) { auto x = torch::ones({2}); }
                    TT_CASE(moved_wrong) {
                      auto y = x + w;  // BUG(tensor-mixed-device)
                    }
                    TT_CASE(silent) { x.to(torch::kHalf);  // BUG(tensor-discarded-cast)
                    }
                    TT_CASE(own_error) {
                      // GPU: raises "single memory location"
                      x.narrow(0, 1, 7).copy_(x.narrow(0, 0, 7));
                    }
                    TT_CASE(two) {
                      // GPU: needs 2 devices
                      auto c = a + b;  // BUG(tensor-mixed-device)
                    }
                    TT_CASE(one) {
                      // GPU: needs at most 1 device
                    }
                    """))
            self.assertEqual(gc.libtorch_cases_expectations(d), {
                "clean_one": {"expect": "clean"}, "moved_wrong": {"expect": "fails"}, "silent": {"expect": "record"},
                "own_error": {"expect": "raises", "error": "single memory location"},
                "two": {"expect": "fails", "devices": 2}, "one": {"expect": "clean", "max_devices": 1}})

    def test_the_real_cases_have_every_kind(self):
        e = gc.libtorch_cases_expectations(os.path.join(ROOT, "test", "tensor-run", "cases"))
        self.assertEqual({v["expect"] for v in e.values()}, {"clean", "fails", "record", "raises"})
        self.assertEqual(e["two_devices_clean"], {"expect": "clean", "devices": 2})
        self.assertEqual(e["invalid_device"], {"expect": "raises", "error": "invalid device ordinal",
                                               "max_devices": 1})

    def test_a_run_is_judged_by_its_expectation(self):
        self.assertTrue(gc.as_predicted({"expect": "clean", "exit": 0}))
        self.assertFalse(gc.as_predicted({"expect": "clean", "exit": 3}))
        self.assertTrue(gc.as_predicted({"expect": "fails", "exit": 1, "device_error": True}))
        self.assertFalse(gc.as_predicted({"expect": "fails", "exit": 0, "device_error": False}))
        # A program that fails for another reason (a usage error, exit 2) did not show the bug.
        self.assertFalse(gc.as_predicted({"expect": "fails", "exit": 2, "device_error": False}))
        self.assertTrue(gc.DEVICE_ERROR.search("Input and hidden tensors are not at the same device, found input"))
        self.assertTrue(gc.DEVICE_ERROR.search("but found at least two devices, cuda:0 and cpu!"))
        self.assertFalse(gc.DEVICE_ERROR.search("usage: fashion_mnist_buggy_libtorch [--device cpu|cuda]"))
        self.assertTrue(gc.as_predicted({"expect": "raises", "exit": 1, "raised": True}))
        self.assertFalse(gc.as_predicted({"expect": "raises", "exit": 1, "raised": False}))  # another error
        self.assertTrue(gc.as_predicted({"expect": "record", "exit": 1}))
        self.assertFalse(gc.as_predicted({"expect": "clean", "outcome": "does not compile (1)"}))
        self.assertIsNone(gc.as_predicted({"expect": "clean", "outcome": "skipped: needs 2 GPUs, this machine has 1"}))


class PeerProtocol(unittest.TestCase):
    """bench/cuda/torch_peer.py times PyTorch as Google Benchmark times cuda_bench: the iteration count grows
    until a run lasts min_time, then the median of the repetitions' means. Checked against a stand-in torch
    whose events say each op took a fixed time."""

    def setUp(self):
        import types
        self.ops = 0
        fake = types.ModuleType("torch")
        test = self

        class Event:
            def __init__(self, enable_timing):
                pass

            def record(self):
                pass

            def synchronize(self):
                pass

            def elapsed_time(self, end):
                return test.op_ms

        fake.cuda = types.SimpleNamespace(Event=Event, synchronize=lambda: None)
        saved = sys.modules.get("torch")
        sys.modules["torch"] = fake
        self.addCleanup(lambda: sys.modules.__setitem__("torch", saved) if saved else sys.modules.pop("torch"))
        peer_loader = importlib.machinery.SourceFileLoader(
            "torch_peer", os.path.join(ROOT, "bench", "cuda", "torch_peer.py"))
        self.peer = importlib.util.module_from_spec(importlib.util.spec_from_loader("torch_peer", peer_loader))
        peer_loader.exec_module(self.peer)

    def op(self):
        self.ops += 1

    def test_runs_as_long_as_google_benchmark_would(self):
        self.op_ms = 1.5  # an 8192 GEMM
        self.assertAlmostEqual(self.peer.benchmark_ms(self.op, 0.3, 3), 1.5)
        # 1, 10, 100 iterations (0.15 s: not yet 0.3), then 100 * 0.3 * 1.4 / 0.15 = 280; twice more at 280.
        self.assertEqual(self.ops, 1 + 1 + 10 + 100 + 3 * 280)
        self.assertGreaterEqual(280 * self.op_ms / 1e3, 0.3)

    def test_a_long_op_runs_once_per_repetition(self):
        self.op_ms = 500.0
        self.assertAlmostEqual(self.peer.benchmark_ms(self.op, 0.3, 3), 500.0)
        self.assertEqual(self.ops, 1 + 3)


NVCC = "/usr/local/cuda/bin/nvcc"


@unittest.skipUnless(os.path.exists(NVCC), "needs nvcc (CUDA under /usr/local/cuda)")
class CallCounter(unittest.TestCase):
    """bench/cuda/cuda_call_count.c sees the calls of a program built by this
    machine's nvcc, the kernel launch included (CUDA 13 launches through
    __cudaLaunchKernel, not cudaLaunchKernel). Without a GPU every call fails,
    which the counter does not care about: it counts calls, not successes."""

    def test_counts_calls_and_the_launch(self):
        with tempfile.TemporaryDirectory() as d:
            shim = os.path.join(d, "libcount.so")
            subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", shim,
                            os.path.join(ROOT, "bench", "cuda", "cuda_call_count.c"), "-ldl"], check=True)
            with open(os.path.join(d, "k.cu"), "w") as f:
                f.write(textwrap.dedent("""\
                    __global__ void k(int* p) { if (p) *p = 1; }
                    int main() {
                      int d = -1;
                      cudaGetDevice(&d);
                      k<<<1, 1>>>(nullptr);
                      k<<<1, 1>>>(nullptr);
                      cudaStreamSynchronize(0);
                      void* h = nullptr;
                      cudaHostAlloc(&h, 64, 0);
                      return 0;
                    }
                    """))
            subprocess.run([NVCC, "-arch=sm_90", "-cudart", "shared", os.path.join(d, "k.cu"), "-o",
                            os.path.join(d, "k")], check=True)
            out = os.path.join(d, "calls.json")
            env = dict(os.environ, LD_PRELOAD=shim, TT_CUDA_CALLS_OUT=out,
                       LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/lib")
            subprocess.run([os.path.join(d, "k")], env=env, check=True, timeout=60)
            with open(out) as f:
                calls = json.load(f)
        self.assertEqual((calls["cudaGetDevice"], calls["cudaLaunchKernel"], calls["cudaStreamSynchronize"],
                          calls["cudaHostAlloc"], calls["cudaFreeHost"]), (1, 2, 1, 1, 0))


FAKE_SUITE = """#!/bin/sh
case "$1" in
  --gtest_list_tests) printf 'Suite.\\n  Passes\\n  Fails\\n  Skips\\n  Silent\\n'; exit 0;;
  --gtest_filter=Suite.Silent) exit 0;;
  --gtest_filter=Suite.Passes) echo '[  PASSED  ] 1 test.'; exit 0;;
  --gtest_filter=Suite.Fails) echo 'Expected equality of these values'; echo '[  FAILED  ] Suite.Fails'; exit 1;;
  --gtest_filter=Suite.Skips) echo '[  SKIPPED ] 1 test, listed below:'; exit 0;;
esac
exit 2
"""


class Run(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gpu-check-test-")
        self.addCleanup(subprocess.run, ["rm", "-rf", self.tmp])
        self.bin = os.path.join(self.tmp, "fakebin")
        os.makedirs(self.bin)

    def fake_gpu(self):
        with open(os.path.join(self.bin, "nvidia-smi"), "w") as f:
            f.write("#!/bin/sh\necho 'GPU 0: Stand-in GPU (UUID: GPU-0)'\n")
        os.chmod(os.path.join(self.bin, "nvidia-smi"), 0o755)

    def run_tool(self, *args, env=None):
        base = {k: v for k, v in os.environ.items() if k not in ("OUT", "CUDA_VISIBLE_DEVICES")}
        env = dict(base, PATH=self.bin + ":/usr/bin:/bin", **(env or {}))
        p = subprocess.run([sys.executable, TOOL, "run", "--out", os.path.join(self.tmp, "out"), "--work",
                            os.path.join(self.tmp, "work"), *args], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=120)
        results = os.path.join(self.tmp, "out", "gpu-check.json")
        if not os.path.exists(results):
            return p.returncode, p.stdout, None
        with open(results) as f:
            return p.returncode, p.stdout, json.load(f)

    def make_bundle(self, binaries):
        folder = os.path.join(self.tmp, "bundle")
        os.makedirs(folder)
        with tarfile.open(os.path.join(folder, "bundle.tar.xz"), "w:xz") as tar:
            def add(name, text, mode=0o644):
                data = text.encode()
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(data), mode
                tar.addfile(info, io.BytesIO(data))
            placed = os.path.join(self.tmp, "compiled-in")
            add("./manifest.json", json.dumps(dict(binaries=list(binaries), libtorch_expectations={}, compiled_in={
                "record_demo.cpp": placed + "/src/record_demo.cpp", "bin/tt_record_demo": placed + "/bin/demo"})))
            for name, text in binaries.items():
                add(f"./bin/{name}", text, 0o755)
            add("./record_demo.cpp", "// the record demo\n")
        return folder

    def test_without_a_gpu_nothing_is_checked_and_it_says_so(self):
        rc, out, results = self.run_tool("--bundle", self.tmp)
        self.assertEqual(rc, 2, out)
        self.assertIn("no GPU", results["unusable"])
        self.assertEqual({r["status"] for r in results["parts"].values()}, {"pending"})  # none ran

    def test_gpus_hidden_by_cuda_visible_devices_are_no_gpu(self):
        self.fake_gpu()
        rc, out, results = self.run_tool("--bundle", self.tmp, env={"CUDA_VISIBLE_DEVICES": ""})
        self.assertEqual(rc, 2, out)
        self.assertIn("no GPU is visible", results["unusable"])

    def test_a_missing_or_broken_bundle_is_refused(self):
        self.fake_gpu()
        rc, out, results = self.run_tool("--bundle", os.path.join(self.tmp, "nowhere"))
        self.assertEqual(rc, 2, out)
        self.assertIn("no bundle at", results["unusable"])
        broken = os.path.join(self.tmp, "broken")
        os.makedirs(broken)
        with open(os.path.join(broken, "bundle.tar.xz"), "wb") as f:
            f.write(os.urandom(4096))
        rc, out, results = self.run_tool("--bundle", broken)
        self.assertEqual(rc, 2, out)
        self.assertIn("not a usable bundle", results["unusable"])

    def test_unknown_part_is_refused(self):
        rc, out, _ = self.run_tool("--parts", "suite,warp-drive")
        self.assertEqual(rc, 2)
        self.assertIn("unknown part warp-drive", out)

    def test_a_failing_case_fails_the_run_and_is_named(self):
        self.fake_gpu()
        demo = "#!/bin/sh\nexit 0\n"
        folder = self.make_bundle({"tt_cuda_tests": FAKE_SUITE, "tt_record_demo": demo})
        rc, out, results = self.run_tool("--bundle", folder, "--parts", "suite")
        self.assertEqual(rc, 1, out)
        suite = results["parts"]["suite"]
        self.assertEqual((suite["status"], suite["cases"], suite["passed"], suite["skipped"]), ("failed", 4, 1, 1))
        # Exit status 0 without gtest's "[  PASSED  ] 1 test" is no pass either.
        self.assertEqual(suite["failed"], ["Suite.Fails", "Suite.Silent"])
        with tarfile.open(os.path.join(self.tmp, "out", "gpu-check-logs.tar.gz")) as tar:
            log = tar.extractfile("suite.log").read().decode()
        self.assertIn("Expected equality of these values", log)  # the failure's output is kept
        # The record demo went where the runtime suite has its path compiled in.
        with open(os.path.join(self.tmp, "compiled-in", "src", "record_demo.cpp")) as f:
            self.assertEqual(f.read(), "// the record demo\n")

    def test_a_suite_that_only_skips_did_not_pass(self):
        self.fake_gpu()
        skipping = FAKE_SUITE.replace("Passes\\n  Fails\\n  Skips\\n  Silent", "Skips")
        folder = self.make_bundle({"tt_cuda_tests": skipping, "tt_record_demo": "#!/bin/sh\nexit 0\n"})
        rc, out, results = self.run_tool("--bundle", folder, "--parts", "suite")
        self.assertEqual(rc, 1, out)
        self.assertEqual(results["parts"]["suite"]["skipped"], 1)
        self.assertIn("every one skipped", results["parts"]["suite"]["why"])

    def test_env_alone_checks_nothing(self):
        self.fake_gpu()
        folder = self.make_bundle({"tt_cuda_tests": FAKE_SUITE, "tt_record_demo": "#!/bin/sh\nexit 0\n"})
        rc, out, results = self.run_tool("--bundle", folder, "--parts", "env")
        self.assertEqual(rc, 2, out)
        self.assertEqual(results["parts"]["env"]["status"], "passed")
        self.assertIn("no part checked anything", out)

    def test_parts_past_the_budget_are_not_run(self):
        self.fake_gpu()
        folder = self.make_bundle({"tt_cuda_tests": FAKE_SUITE, "tt_record_demo": "#!/bin/sh\nexit 0\n"})
        rc, out, results = self.run_tool("--bundle", folder, "--parts", "suite", "--budget", "0.000001")
        self.assertEqual(rc, 1, out)
        self.assertEqual(results["parts"]["suite"]["status"], "not run")

    def test_a_part_that_breaks_costs_only_itself(self):
        self.fake_gpu()
        folder = self.make_bundle({"tt_cuda_tests": FAKE_SUITE.replace("Fails) echo", "Nope) echo"),
                                   "tt_record_demo": "#!/bin/sh\nexit 0\n"})
        # bench: no cuda_bench in this bundle -> error; suite then still runs.
        rc, out, results = self.run_tool("--bundle", folder, "--parts", "bench,suite")
        self.assertEqual(rc, 1, out)
        self.assertEqual(results["parts"]["bench"]["status"], "error")
        self.assertIn("suite", results["parts"])
        # --out holds the results file and the logs' archive, nothing else (a device call brings back few files).
        self.assertEqual(sorted(os.listdir(os.path.join(self.tmp, "out"))), ["gpu-check-logs.tar.gz",
                                                                             "gpu-check.json"])


if __name__ == "__main__":
    unittest.main()

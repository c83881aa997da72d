#!/usr/bin/env python3
"""cuda/cpu/hipify.py: launches become tt::cuda_on_cpu::launch calls with
the kernel, its four configuration arguments and its arguments in order;
what it cannot rewrite fails with the file and line.

Usage: hipify_test.py PATH/TO/hipify.py
"""
import importlib.util
import subprocess
import sys
import tempfile
import os
import unittest

HIPIFY = None


def load():
    spec = importlib.util.spec_from_file_location("hipify", HIPIFY)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Rewrite(unittest.TestCase):
    def rewrite(self, src):
        return load().rewrite(src, "k.cu")

    def test_template_kernel_with_commas_and_nested_calls(self):
        out = self.rewrite("binary_kernel<T, Out><<<grid_for(n / V + 1, dev), kThreads, 0, ctx.stream>>>(\n"
                           "    args, out.data(), f(a, b), n);")
        self.assertEqual(out, "::tt::cuda_on_cpu::launch((binary_kernel<T, Out>), grid_for(n / V + 1, dev), "
                              "kThreads, 0, ctx.stream, \n    args, out.data(), f(a, b), n);")

    def test_plain_kernel_and_dim3_configuration(self):
        out = self.rewrite("spin<<<dim3(parts, rows), 1, 0, s>>>(x);")
        self.assertEqual(out, "::tt::cuda_on_cpu::launch((spin), dim3(parts, rows), 1, 0, s, x);")

    def test_code_without_launches_is_unchanged(self):
        src = "if (a < b && c > d) x = y >> 2; std::vector<std::pair<int, int>> v;"
        self.assertEqual(self.rewrite(src), src)

    def test_launch_without_stream_fails_with_its_line(self):
        with self.assertRaises(SystemExit) as e:
            self.rewrite("// one\nk<<<1, 256>>>(x);")
        self.assertIn("k.cu:2:", str(e.exception))
        self.assertIn("got 2 arguments", str(e.exception))

    def test_output_file_names_the_source_for_diagnostics(self):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "a.cu"), os.path.join(d, "a.cpp")
            with open(src, "w") as f:
                f.write("k<<<1, 1, 0, s>>>();\n")
            subprocess.run([sys.executable, HIPIFY, src, dst], check=True)
            with open(dst) as f:
                self.assertEqual(f.read(), f'#line 1 "{src}"\n::tt::cuda_on_cpu::launch((k), 1, 1, 0, s);\n')


if __name__ == "__main__":
    HIPIFY = sys.argv.pop(1)
    unittest.main()

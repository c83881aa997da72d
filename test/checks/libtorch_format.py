"""The lit test format of the run against a second LibTorch's headers
(lit.cfg.py, --param libtorch=2.11): only the tests whose RUN lines use the
real headers (%libtorch, %libtorch_root) are discovered. A module of its
own, not a class in lit.cfg.py: lit pickles the format for its workers."""
import lit.formats


class LibTorchTests(lit.formats.ShTest):
    def getTestsForPath(self, testSuite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsForPath(testSuite, path_in_suite, litConfig, localConfig):
            with open(test.getSourcePath(), encoding="utf-8") as f:
                if any("RUN:" in line and "%libtorch" in line for line in f):
                    yield test

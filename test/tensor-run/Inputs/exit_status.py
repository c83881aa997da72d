#!/usr/bin/env python3
"""Runs a command and prints its output, then "exit N" (lit's `not` only
tells zero from non-zero)."""
import subprocess
import sys

r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
sys.stdout.write(r.stdout)
print("exit %d" % r.returncode)

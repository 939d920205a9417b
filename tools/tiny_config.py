#!/usr/bin/env python3
"""Writes a gemmhost config of N tiny results: the C plugin's naive kernel on
one thread, sizes 1x1x1 .. 1x1xN, f32 nn, one repetition, no warm-up. What
the results files cost per result is measured on it (tools/bench_report_files.sh,
tests/cli/test_report_bytes.sh).

Usage: tools/tiny_config.py N PATH"""
import sys


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: tiny_config.py N PATH (N a whole number >= 1)")
    n, path = int(sys.argv[1]), sys.argv[2]
    sizes = [f"1x1x{k}" for k in range(1, n + 1)]
    lines = [", ".join(sizes[i:i + 10]) for i in range(0, n, 10)]
    try:
        with open(path, "w") as f:
            f.write("[run]\nsizes = " + ",\n  ".join(lines) + "\ndtype = f32\ntrans = nn\nwarmup = 0\nrepeat = 1\n")
            f.write("[backend cpu]\nkernels = naive\nthreads = 1\n")
    except OSError as e:
        sys.exit(f"tiny_config.py: cannot write {path}: {e.strerror}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""NVIDIA's machine code for the Vulkan plugin's shaders, out of the driver's shader disk cache.

NVIDIA's Vulkan driver offers no disassembly, but it caches what it compiled:
run gemmhost with __GL_SHADER_DISK_CACHE_PATH=DIR (and
__GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1), bring DIR back, and this prints, for
each cached shader, the instruction counts of its largest loop (the k loop of
a GEMM) and writes its disassembly to OUT/shaderN.sass.

Each cache entry is a zstd frame; a compiled shader holds its raw
instructions, which end with EXIT. Where the code begins is not recorded, so
the start is the earliest offset from which `nvdisasm --binary SMxy` reads the
rest cleanly. Needs python3-zstandard and nvdisasm (CUDA toolkit; Triton's
wheel carries one too).

Usage: tools/vk_sass.py CACHE_DIR OUT_DIR [--arch SM90] [--nvdisasm PATH]
"""
import argparse, collections, os, re, subprocess, sys, tempfile

import zstandard

EXIT = bytes.fromhex("4d79000000000000")  # EXIT's encoding, low 8 bytes
ZSTD_MAGIC = bytes.fromhex("28b52ffd")


def cache_entries(cache_dir):
    """Every zstd frame in every file of the cache, decompressed."""
    for top, _, files in os.walk(cache_dir):
        for name in sorted(files):
            data = open(os.path.join(top, name), "rb").read()
            at = data.find(ZSTD_MAGIC)
            while at >= 0:
                try:
                    yield zstandard.ZstdDecompressor().decompressobj().decompress(data[at:])
                except zstandard.ZstdError:
                    pass  # the magic inside other data
                at = data.find(ZSTD_MAGIC, at + 4)


def disassembles(nvdisasm, arch, code):
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(code)
        f.flush()
        r = subprocess.run([nvdisasm, "-b", arch, f.name], capture_output=True, text=True)
        return r.stdout if r.returncode == 0 and "fatal" not in r.stderr else None


def shader_code(nvdisasm, arch, entry):
    """The disassembly of the instructions that end at the entry's last EXIT."""
    last = entry.rfind(EXIT)
    while last >= 0 and last % 8:
        last = entry.rfind(EXIT, 0, last)
    if last < 0:
        return None
    end = last + 16
    # The earliest 16-byte-aligned start that reads cleanly: a coarse pass, then back to the exact one.
    starts = [s for s in range(end % 16, end, 16 * 32) if disassembles(nvdisasm, arch, entry[s:end])]
    if not starts:
        return None
    start = starts[0]
    while start >= 16 and disassembles(nvdisasm, arch, entry[start - 16:end]):
        start -= 16
    return disassembles(nvdisasm, arch, entry[start:end])


def largest_loop(sass):
    """Opcode counts in the longest backward branch's span."""
    ins = [(int(m.group(1), 16), m.group(2).strip())
           for m in (re.match(r"\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;", l) for l in sass.splitlines()) if m]
    best = None
    for addr, text in ins:
        m = re.search(r"BRA (0x[0-9a-f]+)", text)
        if m and int(m.group(1), 16) < addr and (best is None or addr - int(m.group(1), 16) > best[1] - best[0]):
            best = (int(m.group(1), 16), addr)
    if best is None:
        return None
    body = [t for a, t in ins if best[0] <= a <= best[1]]
    ops = collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", t).split()[0].split(".")[0] for t in body)
    return best, len(body), ops


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cache_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--arch", default="SM90")
    ap.add_argument("--nvdisasm", default="nvdisasm")
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    found = 0
    for entry in cache_entries(args.cache_dir):
        sass = shader_code(args.nvdisasm, args.arch, entry)
        if not sass:
            continue
        path = os.path.join(args.out_dir, "shader%d.sass" % found)
        open(path, "w").write(sass)
        loop = largest_loop(sass)
        if loop:
            (lo, hi), n, ops = loop
            print("%s: loop %#x-%#x, %d instructions (every path through it): %s" %
                  (path, lo, hi, n, ", ".join("%s %d" % kv for kv in ops.most_common(12))))
        else:
            print("%s: no loop" % path)
        found += 1
    if not found:
        sys.exit("no shader code found under %s" % args.cache_dir)


if __name__ == "__main__":
    main()

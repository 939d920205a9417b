#!/usr/bin/env python3
"""vulkan_coopmat_khr: plugins/vulkan/coopmat_khr.py on small shaders that glslc compiles here.

What the spirv-val tests cannot see: that the rewrite refuses what it cannot
do soundly, rather than emit a module with a wrong meaning.
 - A and B of distinct types: rewritten; no NV instruction is left, each KHR
   type carries its use (A 0, B 1, accumulator 2), loads and stores their layout.
 - A and B of one type (a 16 x 16 x 16 multiply without distinct sizes): refused.
 - --bfloat16 on a shader that only copies its 16-bit floats: the type becomes
   bfloat16; on one that adds them: refused.
 - integer matrices: s8 x s8 + s32 multiply-adds marked signed in A, B, C and
   the result (KHR's components are unsigned unless marked); u8 x u8 + u32
   not marked; f16 (above) not marked.
Usage: test_coopmat_khr.py GLSLC REWRITE_SCRIPT
"""
import os
import struct
import subprocess
import sys
import tempfile

HEADER = """#version 450
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { uint16_t bits[]; };
layout(std430, binding = 1) writeonly buffer Out { float sums[]; };
shared float16_t tile[512];
shared float out_tile[256];
"""

DISTINCT = HEADER + """
layout(constant_id = 10) const uint AK = 16;
layout(constant_id = 11) const uint BK = 16;
void main() {
    tile[gl_LocalInvocationIndex] = uint16BitsToFloat16(bits[gl_LocalInvocationIndex]);
    barrier();
    fcoopmatNV<16, gl_ScopeSubgroup, 16, AK> a;
    fcoopmatNV<16, gl_ScopeSubgroup, BK, 16> b;
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> c = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
    coopMatLoadNV(a, tile, 0, 16, false);
    coopMatLoadNV(b, tile, 256, 16, true);
    c = coopMatMulAddNV(a, b, c);
    coopMatStoreNV(c, out_tile, 0, 16, false);
    barrier();
    sums[gl_LocalInvocationIndex] = out_tile[gl_LocalInvocationIndex];
}
"""

SAME_TYPE = HEADER + """
void main() {
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> a, b;
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> c = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
    coopMatLoadNV(a, tile, 0, 16, false);
    coopMatLoadNV(b, tile, 256, 16, false);
    c = coopMatMulAddNV(a, b, c);
    coopMatStoreNV(c, out_tile, 0, 16, false);
}
"""

# DISTINCT, but it adds two 16-bit floats on the way into shared memory.
ADDS = DISTINCT.replace("uint16BitsToFloat16(bits[gl_LocalInvocationIndex]);",
                        "uint16BitsToFloat16(bits[gl_LocalInvocationIndex]) + float16_t(1.0);")

# s8 x s8 + s32 (INT = "i", 8-bit type "int8_t") or u8 x u8 + u32 ("u", "uint8_t").
INTEGER = """#version 450
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 32) in;
layout(std430, binding = 1) writeonly buffer Out { uint sums[]; };
shared uvec4 tile[64];
shared uint out_tile[128];
layout(constant_id = 10) const uint AK = 32;
layout(constant_id = 11) const uint BK = 32;
void main() {
    tile[gl_LocalInvocationIndex] = uvec4(gl_LocalInvocationIndex);
    barrier();
    INTcoopmatNV<8, gl_ScopeSubgroup, 16, AK> a;
    INTcoopmatNV<8, gl_ScopeSubgroup, BK, 8> b;
    INTcoopmatNV<32, gl_ScopeSubgroup, 16, 8> c = INTcoopmatNV<32, gl_ScopeSubgroup, 16, 8>(0);
    coopMatLoadNV(a, tile, 0, 2, false);
    coopMatLoadNV(b, tile, 32, 2, true);
    c = coopMatMulAddNV(a, b, c);
    coopMatStoreNV(c, out_tile, 0, 8, false);
    barrier();
    sums[gl_LocalInvocationIndex] = uint(out_tile[gl_LocalInvocationIndex]);
}
"""
SIGNED = INTEGER.replace("INT", "i")
UNSIGNED = INTEGER.replace("INT", "u")

NV_OPS = {5358, 5359, 5360, 5361, 5362}
passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok:", what)
    else:
        failed += 1
        print("FAIL:", what)
        for line in detail.strip().splitlines():
            print("    |", line)


def instructions(path):
    data = open(path, "rb").read()
    words = struct.unpack("<%dI" % (len(data) // 4), data)
    i = 5
    while i < len(words):
        n, op = words[i] >> 16, words[i] & 0xFFFF
        yield op, list(words[i + 1:i + n])
        i += n


def compile_and_rewrite(glslc, rewrite, source, work, name, bfloat16=False):
    src, nv, khr = (os.path.join(work, name + ext) for ext in (".comp", "_nv.spv", ".spv"))
    open(src, "w").write(source)
    cc = subprocess.run([glslc, "-fshader-stage=compute", "--target-env=vulkan1.1", "-O", "-o", nv, src],
                        capture_output=True, text=True)
    if cc.returncode != 0:
        check(False, name + ": glslc compiles it", cc.stderr)
        return None, None
    args = [sys.executable, rewrite] + (["--bfloat16"] if bfloat16 else []) + [nv, khr]
    run = subprocess.run(args, capture_output=True, text=True)
    return run, khr


def main():
    glslc, rewrite = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as work:
        run, khr = compile_and_rewrite(glslc, rewrite, DISTINCT, work, "distinct")
        if run:
            check(run.returncode == 0, "distinct A and B types: rewritten", run.stderr)
        if run and run.returncode == 0:
            ops = list(instructions(khr))
            constants = {o[1]: o[2] for op, o in ops if op == 43}
            types = [o for op, o in ops if op == 4456]
            uses = sorted(constants.get(t[5]) for t in types)
            layouts = sorted(constants.get(o[3]) for op, o in ops if op == 4457)
            store_layouts = [constants.get(o[2]) for op, o in ops if op == 4458]
            check(not any(op in NV_OPS for op, _ in ops), "no NV instruction is left")
            check(uses == [0, 1, 2], "the KHR types' uses are A, B, accumulator (%s)" % uses)
            check(layouts == [0, 1] and store_layouts == [0],
                  "loads row- and column-major, the store row-major (%s, %s)" % (layouts, store_layouts))
            check(any(op == 17 and o == [6022] for op, o in ops) and not any(op == 17 and o == [5357] for op, o in ops),
                  "capability CooperativeMatrixKHR in place of CooperativeMatrixNV")

        for source, name, mask in ((SIGNED, "s8", 0xF), (UNSIGNED, "u8", None), (DISTINCT, "f16", None)):
            run, khr = compile_and_rewrite(glslc, rewrite, source, work, name + "_muladd")
            if run:
                check(run.returncode == 0, name + ": rewritten", run.stderr)
            if run and run.returncode == 0:
                muladds = [o for op, o in instructions(khr) if op == 4459]
                masks = sorted({o[5] if len(o) > 5 else None for o in muladds}, key=str)
                check(muladds and masks == [mask],
                      "%s: the multiply-add's Cooperative Matrix Operands are %s (%s)"
                      % (name, "0x%x" % mask if mask else "none", masks))

        run, _ = compile_and_rewrite(glslc, rewrite, SAME_TYPE, work, "same_type")
        if run:
            check(run.returncode == 1 and "used as A and as B" in run.stderr,
                  "one type for A and B: refused, saying so", run.stderr or "it was rewritten")

        run, khr = compile_and_rewrite(glslc, rewrite, DISTINCT, work, "bf16_copies", bfloat16=True)
        if run:
            check(run.returncode == 0, "--bfloat16 on copies only: rewritten", run.stderr)
        if run and run.returncode == 0:
            ops = list(instructions(khr))
            floats = [o for op, o in ops if op == 22 and o[1] == 16]
            caps = {o[0] for op, o in ops if op == 17}
            check(floats and floats[0][2:] == [0], "the 16-bit float type is bfloat16 (%s)" % floats)
            check({5116, 5118} <= caps and 9 not in caps,
                  "capabilities BFloat16TypeKHR, BFloat16CooperativeMatrixKHR, no Float16 (%s)" % sorted(caps))

        run, _ = compile_and_rewrite(glslc, rewrite, ADDS, work, "bf16_adds", bfloat16=True)
        if run:
            check(run.returncode == 1 and "computes with 16-bit floats" in run.stderr,
                  "--bfloat16 on a shader adding 16-bit floats: refused, saying so", run.stderr or "it was rewritten")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Rewrites a SPIR-V module from SPV_NV_cooperative_matrix to SPV_KHR_cooperative_matrix.

Why: Debian 12's glslc (glslang 11.13) compiles GL_NV_cooperative_matrix but
not GL_KHR_cooperative_matrix, and the KHR extension is the portable one (AMD,
Intel and NVIDIA drivers offer it; bfloat16 exists only there). The two
extensions have the same model: one matrix type per (component type, scope,
rows, columns), loads and stores through a pointer into an array with a
stride, a multiply-add, a length; they differ in a few operands, so the
rewrite is word by word (SPIR-V binary form, little-endian):

  OpCapability CooperativeMatrixNV (5357)    -> CooperativeMatrixKHR (6022)
  OpExtension "SPV_NV_cooperative_matrix"    -> "SPV_KHR_cooperative_matrix"
  OpTypeCooperativeMatrixNV (5358)           -> OpTypeCooperativeMatrixKHR (4456)
      %t Component Scope Rows Columns           %t Component Scope Rows Columns Use
  OpCooperativeMatrixLoadNV (5359)           -> OpCooperativeMatrixLoadKHR (4457)
      %rt %r Pointer Stride ColumnMajor [mem]    %rt %r Pointer Layout Stride [mem]
  OpCooperativeMatrixStoreNV (5360)          -> OpCooperativeMatrixStoreKHR (4458)
      Pointer Object Stride ColumnMajor [mem]    Pointer Object Layout Stride [mem]
  OpCooperativeMatrixMulAddNV (5361)         -> OpCooperativeMatrixMulAddKHR (4459)
      %rt %r A B C                               %rt %r A B C [Cooperative Matrix Operands]
  OpCooperativeMatrixLengthNV (5362)         -> OpCooperativeMatrixLengthKHR (4460), same operands

Use (MatrixAKHR 0, MatrixBKHR 1, MatrixAccumulatorKHR 2) and Layout
(RowMajorKHR 0, ColumnMajorKHR 1, from the NV boolean constant ColumnMajor)
are ids of new 32-bit integer constants, declared just before the first
matrix type. The use of a type is read from the multiply-adds: the type of
their A operand is MatrixA, of B MatrixB, of C and the result accumulator.
So the shader must give A, B and C types of their own (kernels/vulkan/
coopmat.comp does, with distinct specialization constants for their sizes);
a type met in two roles, or in none, is refused, as is any operand this
script cannot type: the build fails rather than emit a wrong module.

Integer components: an NV matrix's signedness is its component type's
(OpTypeInt 8 1 is signed), a KHR one's is the multiply-add's: unsigned
unless its Cooperative Matrix Operands mark A, B, C or the result signed
(MatrixASignedComponentsKHR 0x1, B 0x2, C 0x4, Result 0x8). So each
multiply-add gets the bits of those of its four matrices whose component
type is a signed integer (kernels/vulkan/coopmat.comp's i8 modules: all
four, s8 x s8 + s32 -> s32); float matrices get none, as before.

--bfloat16 also turns the module's one 16-bit float type into bfloat16
(SPV_KHR_bfloat16: OpTypeFloat 16 BFloat16KHR, capabilities BFloat16TypeKHR
and BFloat16CooperativeMatrixKHR in place of Float16). That is sound only
where the shader never computes with those values, since bfloat16 has no
arithmetic: every 16-bit float it has comes from a bitcast of the stored bits
or a constant zero and goes to shared memory and cooperative matrix loads.
The script checks it: an arithmetic, bit, relational or extended instruction
on a 16-bit float value (scalar, vector or matrix) is refused.

Usage: coopmat_khr.py [--bfloat16] IN.spv OUT.spv
"""
import struct
import sys

MAGIC = 0x07230203

OP_EXT_INST = 12
OP_EXTENSION = 10
OP_CAPABILITY = 17
OP_TYPE_INT = 21
OP_TYPE_FLOAT = 22
OP_TYPE_VECTOR = 23
OP_CONSTANT_TRUE = 41
OP_CONSTANT_FALSE = 42
OP_CONSTANT = 43

NV_TYPE, NV_LOAD, NV_STORE, NV_MULADD, NV_LENGTH = 5358, 5359, 5360, 5361, 5362
KHR_TYPE, KHR_LOAD, KHR_STORE, KHR_MULADD, KHR_LENGTH = 4456, 4457, 4458, 4459, 4460

CAP_FLOAT16 = 9
CAP_COOP_NV = 5357
CAP_COOP_KHR = 6022
CAP_BF16_TYPE = 5116
CAP_BF16_COOP = 5118
FP_ENCODING_BFLOAT16 = 0

USE_A, USE_B, USE_ACC = 0, 1, 2
SIGNED_A, SIGNED_B, SIGNED_C, SIGNED_RESULT = 0x1, 0x2, 0x4, 0x8
USE_NAMES = {USE_A: "A", USE_B: "B", USE_ACC: "accumulator"}
ROW_MAJOR, COLUMN_MAJOR = 0, 1

# Opcodes without a result type: debug, annotation, mode-setting and type
# declarations, stores, barriers and control flow.
NOT_VALUES = (set(range(2, 9)) | set(range(10, 18)) | set(range(19, 40)) | set(range(71, 78))
              | {56, 62, 63, 64, 224, 225, 228, 246, 247, 249, 250, 251, 252, 253, 254, 255, 256, 257,
                 317, 330, 331, 332, 5632, 5633, NV_TYPE, NV_STORE})
# Arithmetic, bit and relational instructions (SPIR-V 3.42.13-15) but
# OpSelect (169), and OpExtInst: what bfloat16 does not allow.
COMPUTING = (set(range(126, 206)) - {169}) | {OP_EXT_INST}


class RewriteError(Exception):
    pass


def encode_string(text):
    raw = text.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 4)
    return list(struct.unpack("<%dI" % (len(raw) // 4), raw))


def decode_string(words):
    raw = struct.pack("<%dI" % len(words), *words)
    return raw.split(b"\0", 1)[0].decode()


def parse(data):
    if len(data) < 20 or len(data) % 4:
        raise RewriteError("not a SPIR-V module (%d bytes)" % len(data))
    words = list(struct.unpack("<%dI" % (len(data) // 4), data))
    if words[0] != MAGIC:
        raise RewriteError("not a little-endian SPIR-V module (magic 0x%08x)" % words[0])
    header, insts, i = words[:5], [], 5
    while i < len(words):
        count, opcode = words[i] >> 16, words[i] & 0xFFFF
        if count == 0 or i + count > len(words):
            raise RewriteError("truncated instruction at word %d" % i)
        insts.append([opcode, words[i + 1:i + count]])
        i += count
    return header, insts


def serialize(header, insts):
    words = list(header)
    for opcode, ops in insts:
        words.append(((len(ops) + 1) << 16) | opcode)
        words.extend(ops)
    return struct.pack("<%dI" % len(words), *words)


def value_types(insts):
    """Result id -> result type id, for every instruction that has both."""
    types = {}
    for opcode, ops in insts:
        if opcode not in NOT_VALUES and len(ops) >= 2:
            types.setdefault(ops[1], ops[0])
    return types


def matrix_uses(insts, matrix_types, types):
    uses = {}

    def note(type_id, use, where):
        if type_id not in matrix_types:
            raise RewriteError("%s of a multiply-add has type %%%d, not a cooperative matrix type" % (where, type_id))
        if uses.setdefault(type_id, use) != use:
            raise RewriteError("cooperative matrix type %%%d is used as %s and as %s: give each role a type of its "
                               "own (e.g. sizes from distinct specialization constants)"
                               % (type_id, USE_NAMES[uses[type_id]], USE_NAMES[use]))

    for opcode, ops in insts:
        if opcode != NV_MULADD:
            continue
        result_type, _, a, b, c = ops[:5]
        for value, use, where in ((a, USE_A, "A"), (b, USE_B, "B"), (c, USE_ACC, "C")):
            if value not in types:
                raise RewriteError("cannot tell the type of %%%d, operand %s of a multiply-add" % (value, where))
            note(types[value], use, "operand " + where)
        note(result_type, USE_ACC, "the result")
    for type_id in matrix_types:
        if type_id not in uses:
            raise RewriteError("cooperative matrix type %%%d meets no multiply-add, so its use (A, B or "
                               "accumulator) is unknown" % type_id)
    return uses


def signed_operands(ops, matrix_types, int_types, types):
    """The Cooperative Matrix Operands of a multiply-add (NV operands `ops`):
    a bit for each matrix whose components are signed integers."""
    result_type, _, a, b, c = ops[:5]
    mask = 0
    for type_id, bit in ((types[a], SIGNED_A), (types[b], SIGNED_B), (types[c], SIGNED_C),
                         (result_type, SIGNED_RESULT)):
        component = matrix_types[type_id][1]
        if int_types.get(component, [0, 0])[1] == 1:
            mask |= bit
    return mask


def check_bfloat16(insts, half, types):
    """Refuses any computation on a value whose type is or holds `half`."""
    half_types = {half}
    for opcode, ops in insts:
        if opcode in (OP_TYPE_VECTOR, NV_TYPE) and ops[1] == half:
            half_types.add(ops[0])
    half_values = {v for v, t in types.items() if t in half_types}
    for opcode, ops in insts:
        if opcode not in COMPUTING:
            continue
        operands = ops[4:] if opcode == OP_EXT_INST else ops[2:]
        if ops[0] in half_types or any(v in half_values for v in operands):
            raise RewriteError("opcode %d computes with 16-bit floats (%s), which bfloat16 does not allow"
                               % (opcode, " ".join("%%%d" % w for w in ops)))


def rewrite(data, bfloat16):
    header, insts = parse(data)
    bound = header[3]
    constants = {ops[1]: (opcode, ops) for opcode, ops in insts
                 if opcode in (OP_CONSTANT, OP_CONSTANT_TRUE, OP_CONSTANT_FALSE)}
    int_types = {ops[0]: ops[1:] for opcode, ops in insts if opcode == OP_TYPE_INT}
    matrix_types = {ops[0]: ops for opcode, ops in insts if opcode == NV_TYPE}
    if not matrix_types:
        raise RewriteError("the module has no OpTypeCooperativeMatrixNV")
    types = value_types(insts)
    uses = matrix_uses(insts, matrix_types, types)

    halves = [ops[0] for opcode, ops in insts if opcode == OP_TYPE_FLOAT and ops[1] == 16]
    if bfloat16:
        if len(halves) != 1:
            raise RewriteError("--bfloat16 needs exactly one 16-bit float type, the module has %d" % len(halves))
        check_bfloat16(insts, halves[0], types)

    # The new constants take the 32-bit integer type of the first matrix
    # type's scope, which is declared before it.
    first_scope = insts[[opcode for opcode, _ in insts].index(NV_TYPE)][1][2]
    scope_def = constants.get(first_scope)
    if not scope_def or scope_def[0] != OP_CONSTANT or int_types.get(scope_def[1][0], [0])[0] != 32:
        raise RewriteError("the scope of the first cooperative matrix type is not a 32-bit integer OpConstant")
    int32 = scope_def[1][0]
    new_constants = {}
    for value in (0, 1, 2):
        new_constants[value] = bound
        bound += 1

    def layout_of(column_major):
        c = constants.get(column_major)
        if not c or c[0] == OP_CONSTANT:
            raise RewriteError("ColumnMajor %%%d is not OpConstantTrue or OpConstantFalse" % column_major)
        return new_constants[COLUMN_MAJOR if c[0] == OP_CONSTANT_TRUE else ROW_MAJOR]

    out, declared, seen = [], False, {"capability": 0, "extension": 0}
    for opcode, ops in insts:
        if opcode == OP_CAPABILITY and ops[0] == CAP_COOP_NV:
            out.append([OP_CAPABILITY, [CAP_COOP_KHR]])
            seen["capability"] += 1
        elif opcode == OP_CAPABILITY and ops[0] == CAP_FLOAT16 and bfloat16:
            out.append([OP_CAPABILITY, [CAP_BF16_TYPE]])
            out.append([OP_CAPABILITY, [CAP_BF16_COOP]])
        elif opcode == OP_EXTENSION and decode_string(ops) == "SPV_NV_cooperative_matrix":
            out.append([OP_EXTENSION, encode_string("SPV_KHR_cooperative_matrix")])
            if bfloat16:
                out.append([OP_EXTENSION, encode_string("SPV_KHR_bfloat16")])
            seen["extension"] += 1
        elif opcode == OP_TYPE_FLOAT and bfloat16 and ops[0] == halves[0]:
            out.append([OP_TYPE_FLOAT, [ops[0], 16, FP_ENCODING_BFLOAT16]])
        elif opcode == NV_TYPE:
            if not declared:
                for value, cid in sorted(new_constants.items()):
                    out.append([OP_CONSTANT, [int32, cid, value]])
                declared = True
            out.append([KHR_TYPE, ops[:5] + [new_constants[uses[ops[0]]]]])
        elif opcode == NV_LOAD:
            out.append([KHR_LOAD, ops[:3] + [layout_of(ops[4]), ops[3]] + ops[5:]])
        elif opcode == NV_STORE:
            out.append([KHR_STORE, ops[:2] + [layout_of(ops[3]), ops[2]] + ops[4:]])
        elif opcode == NV_MULADD:
            if len(ops) != 5:
                raise RewriteError("a multiply-add with %d operands (5 expected)" % len(ops))
            mask = signed_operands(ops, matrix_types, int_types, types)
            out.append([KHR_MULADD, ops + [mask] if mask else ops])
        elif opcode == NV_LENGTH:
            out.append([KHR_LENGTH, ops])
        else:
            out.append([opcode, ops])
    if seen["capability"] != 1 or seen["extension"] != 1:
        raise RewriteError("expected one OpCapability CooperativeMatrixNV and one OpExtension "
                           "\"SPV_NV_cooperative_matrix\"")
    if bfloat16 and not any(opcode == OP_CAPABILITY and ops[0] == CAP_BF16_TYPE for opcode, ops in out):
        raise RewriteError("--bfloat16: the module declares no Float16 capability to replace")
    header = list(header)
    header[3] = bound
    return serialize(header, out)


def main(argv):
    args = [a for a in argv[1:] if a != "--bfloat16"]
    if len(args) != 2:
        sys.stderr.write(__doc__.rsplit("Usage: ", 1)[1])
        return 2
    try:
        with open(args[0], "rb") as f:
            data = f.read()
        result = rewrite(data, "--bfloat16" in argv[1:])
    except (OSError, RewriteError) as e:
        sys.stderr.write("coopmat_khr.py: %s: %s\n" % (args[0], e))
        return 1
    with open(args[1], "wb") as f:
        f.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

/* The kernels as the host sees them (names, dtypes, parameters), and what a
 * launch of one takes: workgroup shape, shared memory, push constants. */
#ifndef GH_VULKAN_KERNELS_H
#define GH_VULKAN_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "gemmhost/plugin.h"

enum {
    VKP_KERNEL_NAIVE = 0,
    VKP_KERNEL_TILED = 1,
    VKP_KERNEL_BLOCKED = 2,
    VKP_KERNEL_WARPTILE = 3,
    VKP_KERNEL_COOPMAT = 4,
    VKP_KERNEL_COUNT = 5
};
extern const gh_kernel_info vkp_kernels[VKP_KERNEL_COUNT];

/* Each kernel's parameter table (naive.c, tiled.c, blocked.c, warptile.c, coopmat.c). */
enum {
    VKP_NAIVE_PARAMS = 1,
    VKP_TILED_PARAMS = 1,
    VKP_BLOCKED_PARAMS = 2,
    VKP_WARPTILE_PARAMS = 5,
    VKP_COOPMAT_PARAMS = 6
};
extern const gh_param_info vkp_naive_params[VKP_NAIVE_PARAMS];
extern const gh_param_info vkp_tiled_params[VKP_TILED_PARAMS];
extern const gh_param_info vkp_blocked_params[VKP_BLOCKED_PARAMS];
extern const gh_param_info vkp_warptile_params[VKP_WARPTILE_PARAMS];
extern const gh_param_info vkp_coopmat_params[VKP_COOPMAT_PARAMS];
/* Pipelines are cached per (kernel, dtype, combination of parameter values);
 * no kernel has more combinations than this (coopmat: 2 bm x 3 bn x 2
 * subgroups x 1 bk x 6 shapes x 2 stages; warptile: 2 x 3 x 2 x 2 x 2 = 48). */
#define VKP_VARIANT_MAX 144
/* and per layout of the operands (warptile: bit 0 trans_a, bit 1 trans_b,
 * bit 2 A read as vectors, bit 3 B; its specialization constant 4, so that
 * the driver folds every index and branch that depends on it). */
#define VKP_LAYOUTS     16
/* SPIR-V modules per (kernel, dtype): one, but blocked has one per work
 * value (2, 4, 8), which sizes its register arrays, warptile one per
 * combination of its parameters (48, of which the 12 unrolled at aspect 2
 * are not built), coopmat one per (bm, bn, subgroups, matrix shape, bk):
 * 10 blocks x 5 shapes x 1 bk (a device uses one cooperative-matrix
 * extension throughout; f16 and bf16 are built at the 3 shapes of K 16 and
 * 8, i8 at the 2 of K 32). */
#define VKP_MODULE_MAX  50

/* (ABI 1.5) Modules and pipelines are kept per type slot: a dtype (A, B
 * and C of one type), or one of the 8-bit flavours of naive, tiled and
 * blocked after them, by C's type (FP8's e4m3 or e5m2 per operand are
 * specialization constants: variant.layout, bit 0 A, bit 1 B, is e5m2). */
enum { VKP_TYPES_FP8_F32 = GH_DTYPE_COUNT, VKP_TYPES_FP8_F16, VKP_TYPES_FP8_BF16, VKP_TYPES_I8_I32, VKP_TYPE_SLOTS };
/* The slot of a GEMM's types (gh_plugin_check_gemm has accepted them), and
 * its name in module files and messages: "f32", "fp8_f16", "i8_i32". */
int vkp_type_slot(gh_dtype a, gh_dtype c);
const char *vkp_type_slot_name(int slot);

/* The matrix shapes (M x N x K) coopmat is built for, in the order it
 * prefers them when the device offers several: f16 and bf16 (16-bit
 * inputs, f32 sums), then i8 (s8 inputs, s32 sums). */
#define VKP_COOP_SHAPES 5
typedef struct vkp_coop_shape {
    uint32_t m, n, k;
    int i8; /* built for i8 x i8 -> i32 (else for f16 and bf16) */
} vkp_coop_shape;
extern const vkp_coop_shape vkp_coop_shapes[VKP_COOP_SHAPES];

/* Descriptor bindings: A, B, C, then A and B again, which warptile reads as
 * 4-vectors where the layout allows (VKP_VECTOR_A, VKP_VECTOR_B). */
#define VKP_BINDINGS 5

/* Push constants, as kernels/vulkan/gemm_common.glsl declares them: twelve
 * uints, then alpha and beta in the arithmetic type (vkp_arith_size). */
#define VKP_PUSH_UINTS 12
#define VKP_PUSH_BYTES (VKP_PUSH_UINTS * 4 + 2 * 8)
/* The twelfth uint's bits (warptile, coopmat): A, B may be read as vectors. */
#define VKP_VECTOR_A   1u
#define VKP_VECTOR_B   2u

/* Bytes of the type the shaders compute in, which alpha, beta and the
 * shared-memory tiles have: f16 and bf16 are stored in 16 bits and computed
 * (and staged) in f32. */
size_t vkp_arith_size(gh_dtype dtype);

/* A kernel's parameter values, as one launch uses them. */
typedef struct vkp_variant {
    int slot;             /* the pipeline's cache index, < VKP_VARIANT_MAX */
    uint32_t side;        /* side of the block of C one workgroup computes:
                            * naive's wg, tiled's and blocked's tile */
    uint32_t block_m;     /* rows of that block: side (warptile: side x aspect), coopmat's bm */
    uint32_t block_n;     /* columns of that block: side, coopmat's bn */
    uint32_t subgroups;   /* coopmat: subgroups per workgroup; else 0 */
    int shape;            /* coopmat: index in vkp_coop_shapes; -1 (the device's first) until
                           * vkp_check_limits resolves it */
    uint32_t work;        /* blocked, warptile: columns (and blocked: rows) of each invocation's
                           * micro-tile; else 1 */
    uint32_t aspect;      /* warptile: rows per column of the block and of the micro-tile
                           * (module _a2); else 1 */
    uint32_t depth;       /* the k step: warptile's and coopmat's parameter, blocked's chosen by
                           * vkp_check_limits; else 0 */
    uint32_t stages;      /* coopmat: buffers of the staged tiles (1, 2); else 0 */
    int unrolled;         /* warptile: its k loop unrolled by glslc (module _unrolled); else 0 */
    uint32_t layout;      /* warptile: the operands' layout, < VKP_LAYOUTS (set by vkp_gemm once
                           * it knows which operands may be read as vectors); 8-bit FP8: which
                           * of A (bit 0) and B (bit 1) is e5m2; else 0 */
    uint32_t invocations; /* per workgroup (coopmat: set by vkp_check_limits) */
    int module;           /* which of the (kernel, dtype)'s modules, < VKP_MODULE_MAX (coopmat:
                           * set by vkp_check_limits) */
    char label[96];       /* "tile = 128, work = 8", for messages */
} vkp_variant;

/* The api's kernel_count and kernel_info. */
int vkp_kernel_count(gh_plugin *ctx);
const gh_kernel_info *vkp_kernel_info(gh_plugin *ctx, int kernel);

/* The launch shape of the kernel's parameter values in args, which
 * gh_plugin_check_params has accepted. */
gh_status vkp_variant_of(int kernel, const gh_gemm_args *args, vkp_variant *v);

struct vkp_device;
/* GH_UNSUPPORTED, naming the limit and the value, when the kernel with
 * those parameters does not fit the device (workgroup invocations and size,
 * shared memory). Sets v->depth for blocked: 16, or 8 where 16 needs more
 * shared memory than the device has (warptile's depth is its parameter).
 * coopmat: GH_UNSUPPORTED with the reason where the device cannot run it in
 * that dtype (coopmat.c) or lacks the shape asked for; resolves the shape,
 * the invocations and the module. warptile: GH_UNSUPPORTED where no module
 * is built for the set (unroll = 1 at aspect 2) or its shader cannot track
 * the loads of a step. */
gh_status vkp_check_limits(const struct vkp_device *d, int kernel, gh_dtype dtype, vkp_variant *v);

/* What vkp_check_limits asks of each kernel's own file: the shared memory
 * its shader declares for v, blocked's k step (16, or 8 where 16 does not
 * fit max_shared_bytes), and the rules of warptile and coopmat (coopmat's
 * also resolve v's shape, invocations and module). */
uint64_t vkp_tiled_shared_bytes(uint32_t tile, gh_dtype dtype);
uint64_t vkp_blocked_shared_bytes(uint32_t tile, uint32_t depth, gh_dtype dtype);
uint32_t vkp_blocked_depth(uint32_t tile, gh_dtype dtype, uint32_t max_shared_bytes);
uint64_t vkp_warptile_shared_bytes(const vkp_variant *v, gh_dtype dtype);
gh_status vkp_warptile_limits(const vkp_variant *v);
uint64_t vkp_coopmat_shared_bytes(const vkp_variant *v, const vkp_coop_shape *s, gh_dtype dtype);
gh_status vkp_coopmat_limits(const struct vkp_device *d, gh_dtype dtype, vkp_variant *v);

#endif

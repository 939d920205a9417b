/* What a device offers the coopmat kernel, and what to enable for it.
 *
 * The kernel's SPIR-V (kernels/vulkan/coopmat.comp, one source rewritten for
 * each extension by coopmat_khr.py) declares: CooperativeMatrixKHR or
 * CooperativeMatrixNV, VulkanMemoryModel (glslang's cooperative matrices
 * imply it), Int16 (the stored 16-bit values are copied as 16-bit integers),
 * GroupNonUniform (gl_SubgroupID), StorageBuffer16BitAccess, and Float16 (f16
 * modules) or BFloat16TypeKHR with BFloat16CooperativeMatrixKHR (bf16). A
 * device runs a dtype when it has each of those and a shape the kernel is
 * built for (vkp_coop_shapes) with f16 x f16 (bf16 x bf16) + f32 -> f32 at
 * subgroup scope; otherwise why[dtype] names the first thing missing, which
 * gemm returns as GH_UNSUPPORTED. The i8 modules (i8 x i8 -> i32, why[GH_I8])
 * declare Int8 and StorageBuffer8BitAccess instead of the 16-bit ones, and
 * need an s8 x s8 + s32 -> s32 shape of K 32.
 *
 * With the option emulate = cooperative_matrix the kernel runs its _emu
 * modules instead, the matrices emulated in plain code: they declare Float16,
 * Int16, GroupNonUniform and StorageBuffer16BitAccess only (i8: GroupNonUniform
 * and StorageBuffer8BitAccess), and every shape and dtype are "offered". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coopmat.h"

#include "errors.h"
#include "gemmhost/plugin_helpers.h"

typedef struct ext_list {
    VkExtensionProperties *props;
    uint32_t n;
} ext_list;

static void list_extensions(struct gh_plugin *ctx, VkPhysicalDevice phys, ext_list *l)
{
    l->props = NULL;
    l->n = 0;
    uint32_t n = 0;
    if (ctx->vk.vkEnumerateDeviceExtensionProperties(phys, NULL, &n, NULL) != VK_SUCCESS || n == 0) return;
    l->props = calloc(n, sizeof *l->props);
    if (l->props && ctx->vk.vkEnumerateDeviceExtensionProperties(phys, NULL, &n, l->props) == VK_SUCCESS) l->n = n;
}

static int has_extension(const ext_list *l, const char *name)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (strcmp(l->props[i].extensionName, name) == 0) return 1;
    return 0;
}

static GH_PLUGIN_PRINTF(2, 3) void say(char *why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(((vkp_coop *)0)->why[0]), fmt, ap);
    va_end(ap);
}

/* The extension to use, or VKP_COOP_NONE with why. */
static vkp_coop_api pick_extension(const struct gh_plugin *ctx, const vkp_device *d, const ext_list *l, char *why)
{
    int khr = has_extension(l, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
    int nv = has_extension(l, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
    if (khr && !(ctx->hide_extensions & VKP_HIDE_KHR_COOP)) return VKP_COOP_KHR;
    if (nv && !(ctx->hide_extensions & VKP_HIDE_NV_COOP)) return VKP_COOP_NV;
    say(why, "device %s has neither VK_KHR_cooperative_matrix nor VK_NV_cooperative_matrix (cooperative matrices)%s",
        d->name, khr || nv ? ", as the option hide_features makes it" : "");
    return VKP_COOP_NONE;
}

/* The dtype a reported shape serves (f16 or bf16 inputs with f32 sums, s8
 * with s32 sums), or GH_DTYPE_COUNT for none. */
static gh_dtype shape_dtype(uint32_t a, uint32_t b, uint32_t c, uint32_t result)
{
    if (b != a || c != result) return GH_DTYPE_COUNT;
    if (a == VK_COMPONENT_TYPE_FLOAT16_KHR && c == VK_COMPONENT_TYPE_FLOAT32_KHR) return GH_F16;
    if (a == (uint32_t)VK_COMPONENT_TYPE_BFLOAT16_KHR && c == VK_COMPONENT_TYPE_FLOAT32_KHR) return GH_BF16;
    if (a == VK_COMPONENT_TYPE_SINT8_KHR && c == VK_COMPONENT_TYPE_SINT32_KHR) return GH_I8;
    return GH_DTYPE_COUNT;
}

/* One reported shape: A x B + C -> result at scope; the types as
 * VkComponentTypeKHR values (the NV enum has the same ones for f16, f32, s8, s32). */
typedef struct reported {
    uint32_t m, n, k, a, b, c, result, scope, saturating;
} reported;

/* The device's shapes, or -1 with why (a query that failed). */
static int query_shapes(struct gh_plugin *ctx, const vkp_device *d, vkp_coop_api api, reported **out, char *why)
{
    uint32_t n = 0;
    VkResult r;
    *out = NULL;
    const char *call = api == VKP_COOP_KHR ? "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"
                                           : "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV";
    if (api == VKP_COOP_KHR ? !ctx->vk.vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR
                            : !ctx->vk.vkGetPhysicalDeviceCooperativeMatrixPropertiesNV) {
        say(why, "the Vulkan loader gives no %s for device %s", call, d->name);
        return -1;
    }
    r = api == VKP_COOP_KHR ? ctx->vk.vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(d->phys, &n, NULL)
                            : ctx->vk.vkGetPhysicalDeviceCooperativeMatrixPropertiesNV(d->phys, &n, NULL);
    reported *shapes = calloc(n ? n : 1, sizeof *shapes);
    VkCooperativeMatrixPropertiesKHR *khr = NULL;
    VkCooperativeMatrixPropertiesNV *nv = NULL;
    if (r == VK_SUCCESS && n > 0) {
        if (api == VKP_COOP_KHR && (khr = calloc(n, sizeof *khr))) {
            for (uint32_t i = 0; i < n; i++) khr[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR;
            r = ctx->vk.vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(d->phys, &n, khr);
        } else if (api == VKP_COOP_NV && (nv = calloc(n, sizeof *nv))) {
            for (uint32_t i = 0; i < n; i++) nv[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV;
            r = ctx->vk.vkGetPhysicalDeviceCooperativeMatrixPropertiesNV(d->phys, &n, nv);
        } else r = VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (!shapes && r == VK_SUCCESS) r = VK_ERROR_OUT_OF_HOST_MEMORY;
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        say(why, "%s failed on device %s: %s", call, d->name, vkp_result_name(r));
        free(shapes);
        free(khr);
        free(nv);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (khr)
            shapes[i] = (reported){khr[i].MSize,      khr[i].NSize, khr[i].KSize,
                                   khr[i].AType,      khr[i].BType, khr[i].CType,
                                   khr[i].ResultType, khr[i].scope, khr[i].saturatingAccumulation};
        else if (nv)
            shapes[i] = (reported){nv[i].MSize, nv[i].NSize, nv[i].KSize, nv[i].AType, nv[i].BType,
                                   nv[i].CType, nv[i].DType, nv[i].scope, VK_FALSE};
    }
    free(khr);
    free(nv);
    *out = shapes;
    return (int)n;
}

/* Appends " MxNxK" to `text` unless it is there already. */
static void append_shape(char *text, size_t size, const reported *s)
{
    char shape[40];
    snprintf(shape, sizeof shape, " %ux%ux%u", s->m, s->n, s->k);
    size_t used = strlen(text);
    if (!strstr(text, shape) && used + strlen(shape) < size) memcpy(text + used, shape, strlen(shape) + 1);
}

/* c->offered from the shape lists of f16, bf16 (f32 sums) and i8 (s32 sums):
 * "cooperative matrices (KHR, f32 sums): f16 16x16x16, bf16 16x16x16, i8
 * 16x8x32 (s32 sums)". */
static void describe_offered(vkp_coop *c, const char *api, const char lists[3][80])
{
    const int f16 = lists[0][0] != '\0', bf16 = lists[1][0] != '\0', i8 = lists[2][0] != '\0';
    if (!f16 && !bf16 && !i8) {
        snprintf(c->offered, sizeof c->offered,
                 "cooperative matrices (%s): none with f16 or bf16 inputs and f32 sums, or s8 inputs and s32 sums",
                 api);
        return;
    }
    snprintf(c->offered, sizeof c->offered, "cooperative matrices (%s%s):%s%s%s%s%s%s%s%s", api,
             f16 || bf16 ? ", f32 sums" : "", f16 ? " f16" : "", lists[0], f16 && bf16 ? "," : "", bf16 ? " bf16" : "",
             lists[1], (f16 || bf16) && i8 ? "," : "", i8 ? " i8" : "", lists[2]);
    if (i8) {
        size_t used = strlen(c->offered);
        snprintf(c->offered + used, sizeof c->offered - used, " (s32 sums)");
    }
}

/* shapes[] and offered from what the device reports: f16 or bf16 inputs
 * with f32 sums, or s8 with s32 sums; subgroup scope, no saturation. A
 * shape counts for a dtype only where the kernel is built for it in that
 * dtype (vkp_coop_shapes' i8). */
static void read_shapes(vkp_coop *c, const reported *shapes, int n)
{
    char lists[3][80] = {"", "", ""}; /* f16, bf16, i8 */
    for (int i = 0; i < n; i++) {
        const reported *s = &shapes[i];
        gh_dtype dtype = shape_dtype(s->a, s->b, s->c, s->result);
        if (dtype == GH_DTYPE_COUNT || s->scope != VK_SCOPE_SUBGROUP_KHR || s->saturating) continue;
        append_shape(lists[dtype == GH_F16 ? 0 : dtype == GH_BF16 ? 1 : 2], sizeof lists[0], s);
        for (int k = 0; k < VKP_COOP_SHAPES; k++)
            if (s->m == vkp_coop_shapes[k].m && s->n == vkp_coop_shapes[k].n && s->k == vkp_coop_shapes[k].k &&
                vkp_coop_shapes[k].i8 == (dtype == GH_I8))
                c->shapes[dtype] |= 1u << k;
    }
    describe_offered(c, c->api == VKP_COOP_KHR ? "KHR" : "NV", lists);
}

/* Why the kernel cannot run `dtype`, or "" when it can. */
static void judge_dtype(const vkp_device *d, const ext_list *l, gh_dtype dtype, int bf16_features, char *why)
{
    const vkp_coop *c = &d->coop;
    const char *t = gh_plugin_dtype_name(dtype);
    why[0] = '\0';
    if (dtype == GH_I8) {
        if (!c->has_int8)
            say(why, "device %s has no shaderInt8 (the kernel's i8 cooperative matrices are int8_t)", d->name);
        else if (!c->shapes[GH_I8])
            say(why,
                "device %s offers no s8 x s8 + s32 cooperative matrix of a shape the kernel is built for (16x16x32, "
                "16x8x32); %s",
                d->name, c->offered);
        return;
    }
    if (!c->has_int16)
        say(why, "device %s has no shaderInt16 (the kernel copies the 16-bit values as 16-bit integers)", d->name);
    else if (dtype == GH_F16 && !c->has_float16)
        say(why, "device %s has no shaderFloat16 (the kernel's f16 cooperative matrices are float16_t)", d->name);
    else if (dtype == GH_BF16 && c->api != VKP_COOP_KHR)
        say(why,
            "bf16 cooperative matrices need VK_KHR_cooperative_matrix, and device %s has only "
            "VK_NV_cooperative_matrix%s",
            d->name,
            (d->ctx->hide_extensions & VKP_HIDE_KHR_COOP) ? " (the option hide_features hides the KHR one)" : "");
    else if (dtype == GH_BF16 &&
             (!has_extension(l, VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME) || (d->ctx->hide_extensions & VKP_HIDE_BF16)))
        say(why, "device %s has no VK_KHR_shader_bfloat16 (bfloat16 in shaders)%s", d->name,
            has_extension(l, VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME) ? ", as the option hide_features makes it" : "");
    else if (dtype == GH_BF16 && !bf16_features)
        say(why, "device %s's VK_KHR_shader_bfloat16 lacks shaderBFloat16Type or shaderBFloat16CooperativeMatrix",
            d->name);
    else if (!c->shapes[dtype])
        say(why,
            "device %s offers no %s x %s + f32 cooperative matrix of a shape the kernel is built for (16x16x16, "
            "16x8x16, 16x8x8); %s",
            d->name, t, t, c->offered);
}

/* The emulated kernel's needs: shaderFloat16, shaderInt16, subgroups of 4
 * or more with gl_SubgroupID in compute shaders. */
static void query_emulated(struct gh_plugin *ctx, vkp_device *d)
{
    vkp_coop *c = &d->coop;
    char why[sizeof c->why[0]] = "";
    VkPhysicalDeviceShaderFloat16Int8Features float16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &float16};
    VkPhysicalDeviceSubgroupProperties subgroup = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &subgroup};
    if (d->props.apiVersion < VK_API_VERSION_1_2 || ctx->instance_version < VK_API_VERSION_1_2 ||
        !ctx->vk.vkGetPhysicalDeviceFeatures2 || !ctx->vk.vkGetPhysicalDeviceProperties2) {
        say(why,
            "device %s is Vulkan %u.%u with a Vulkan %u.%u loader: the emulated coopmat kernel needs 1.2 on "
            "both (shaderFloat16)",
            d->name, VK_API_VERSION_MAJOR(d->props.apiVersion), VK_API_VERSION_MINOR(d->props.apiVersion),
            VK_API_VERSION_MAJOR(ctx->instance_version), VK_API_VERSION_MINOR(ctx->instance_version));
    } else {
        ctx->vk.vkGetPhysicalDeviceFeatures2(d->phys, &features);
        ctx->vk.vkGetPhysicalDeviceProperties2(d->phys, &props);
        if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
            !(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) || subgroup.subgroupSize < 4)
            say(why,
                "device %s has no subgroups of 4 or more invocations with basic operations in compute shaders, "
                "which the emulated coopmat kernel needs",
                d->name);
    }
    /* i8 needs no more (its 8-bit storage gemm checks); f16 and bf16 also
     * shaderFloat16 and shaderInt16. */
    snprintf(c->why[GH_I8], sizeof c->why[0], "%s", why);
    if (!why[0] && (float16.shaderFloat16 != VK_TRUE || features.features.shaderInt16 != VK_TRUE))
        say(why,
            "device %s lacks shaderFloat16 or shaderInt16, which the emulated coopmat kernel needs in f16 and bf16",
            d->name);
    for (int t = 0; t < 2; t++) snprintf(c->why[t ? GH_BF16 : GH_F16], sizeof c->why[0], "%s", why);
    if (c->why[GH_I8][0]) return;
    c->api = VKP_COOP_EMULATED;
    c->subgroup_size = subgroup.subgroupSize;
    c->has_float16 = c->has_int16 = !why[0];
    char lists[3][80] = {"", "", ""};
    for (int k = 0; k < VKP_COOP_SHAPES; k++) {
        const vkp_coop_shape *s = &vkp_coop_shapes[k];
        reported r = {s->m, s->n, s->k, 0, 0, 0, 0, 0, 0};
        for (int t = 0; t < 3; t++) {
            gh_dtype dtype = t == 0 ? GH_F16 : t == 1 ? GH_BF16 : GH_I8;
            if (s->i8 != (dtype == GH_I8) || c->why[dtype][0]) continue;
            c->shapes[dtype] |= 1u << k;
            append_shape(lists[t], sizeof lists[0], &r);
        }
    }
    describe_offered(c, "emulated in shader code", lists);
}

void vkp_coop_query(struct gh_plugin *ctx, vkp_device *d)
{
    vkp_coop *c = &d->coop;
    memset(c, 0, sizeof *c);
    if (ctx->emulate_coop) {
        query_emulated(ctx, d);
        return;
    }
    char why[sizeof c->why[0]] = "";
    ext_list l;
    list_extensions(ctx, d->phys, &l);
    reported *shapes = NULL;
    int n_shapes = -1;

    c->api = pick_extension(ctx, d, &l, why);
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR khr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR};
    VkPhysicalDeviceCooperativeMatrixFeaturesNV nv = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR};
    VkPhysicalDeviceShaderFloat16Int8Features float16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
    VkPhysicalDeviceVulkanMemoryModelFeatures model = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceCooperativeMatrixPropertiesKHR khr_props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_PROPERTIES_KHR};
    VkPhysicalDeviceCooperativeMatrixPropertiesNV nv_props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_PROPERTIES_NV};
    VkPhysicalDeviceSubgroupProperties subgroup = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &subgroup};
    int has_bf16_ext =
        has_extension(&l, VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME) && !(ctx->hide_extensions & VKP_HIDE_BF16);

    if (c->api != VKP_COOP_NONE &&
        (d->props.apiVersion < VK_API_VERSION_1_2 || ctx->instance_version < VK_API_VERSION_1_2 ||
         !ctx->vk.vkGetPhysicalDeviceFeatures2 || !ctx->vk.vkGetPhysicalDeviceProperties2)) {
        say(why,
            "device %s is Vulkan %u.%u with a Vulkan %u.%u loader: the coopmat kernel needs 1.2 on both "
            "(vulkanMemoryModel, shaderFloat16)",
            d->name, VK_API_VERSION_MAJOR(d->props.apiVersion), VK_API_VERSION_MINOR(d->props.apiVersion),
            VK_API_VERSION_MAJOR(ctx->instance_version), VK_API_VERSION_MINOR(ctx->instance_version));
        c->api = VKP_COOP_NONE;
    }
    if (c->api != VKP_COOP_NONE) {
        /* Features and properties, the extension's structs chained only
         * where the device has the extension. */
        model.pNext = &float16;
        if (c->api == VKP_COOP_KHR) {
            float16.pNext = &khr;
            khr_props.pNext = props.pNext;
            props.pNext = &khr_props;
            if (has_bf16_ext) khr.pNext = &bf16;
        } else {
            float16.pNext = &nv;
            nv_props.pNext = props.pNext;
            props.pNext = &nv_props;
        }
        features.pNext = &model;
        ctx->vk.vkGetPhysicalDeviceFeatures2(d->phys, &features);
        ctx->vk.vkGetPhysicalDeviceProperties2(d->phys, &props);
        const char *ext = c->api == VKP_COOP_KHR ? "VK_KHR_cooperative_matrix" : "VK_NV_cooperative_matrix";
        VkBool32 coop = c->api == VKP_COOP_KHR ? khr.cooperativeMatrix : nv.cooperativeMatrix;
        VkShaderStageFlags stages = c->api == VKP_COOP_KHR ? khr_props.cooperativeMatrixSupportedStages
                                                           : nv_props.cooperativeMatrixSupportedStages;
        if (coop != VK_TRUE) say(why, "device %s has %s without its cooperativeMatrix feature", d->name, ext);
        else if (!(stages & VK_SHADER_STAGE_COMPUTE_BIT))
            say(why, "device %s has %s, but not in compute shaders (cooperativeMatrixSupportedStages)", d->name, ext);
        else if (model.vulkanMemoryModel != VK_TRUE)
            say(why,
                "device %s has no vulkanMemoryModel (the kernel's cooperative matrices use the Vulkan memory "
                "model)",
                d->name);
        else if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
                 !(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) || subgroup.subgroupSize == 0)
            say(why, "device %s has no basic subgroup operations in compute shaders (the kernel's gl_SubgroupID)",
                d->name);
        else if ((n_shapes = query_shapes(ctx, d, c->api, &shapes, why)) >= 0) {
            c->subgroup_size = subgroup.subgroupSize;
            c->has_float16 = float16.shaderFloat16 == VK_TRUE;
            c->has_int16 = features.features.shaderInt16 == VK_TRUE;
            c->has_int8 = float16.shaderInt8 == VK_TRUE;
            read_shapes(c, shapes, n_shapes);
        }
        if (n_shapes < 0) c->api = VKP_COOP_NONE;
    }
    free(shapes);

    int bf16_features = bf16.shaderBFloat16Type == VK_TRUE && bf16.shaderBFloat16CooperativeMatrix == VK_TRUE;
    for (int t = 0; t < 3; t++) {
        gh_dtype dtype = t == 0 ? GH_F16 : t == 1 ? GH_BF16 : GH_I8;
        if (c->api == VKP_COOP_NONE) memcpy(c->why[dtype], why, sizeof why);
        else judge_dtype(d, &l, dtype, bf16_features, c->why[dtype]);
    }
    c->has_bf16 = c->api == VKP_COOP_KHR && !c->why[GH_BF16][0];
    /* Nothing to enable where no dtype runs. */
    if (c->why[GH_F16][0] && c->why[GH_BF16][0] && c->why[GH_I8][0]) c->api = VKP_COOP_NONE;
    free(l.props);
}

void vkp_coop_enable(const vkp_device *d, vkp_coop_features *e, void **chain, VkPhysicalDeviceFeatures *core)
{
    memset(e, 0, sizeof *e);
    const vkp_coop *c = &d->coop;
    if (c->api == VKP_COOP_NONE) return;
    /* shaderFloat16 and shaderInt8 (the latter for the i8 modules, not
     * emulated) where the device has them, shaderInt16 likewise */
    if (c->has_float16 || (c->has_int8 && c->api != VKP_COOP_EMULATED)) {
        e->float16 = (VkPhysicalDeviceShaderFloat16Int8Features){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
            .pNext = *chain,
            .shaderFloat16 = c->has_float16 ? VK_TRUE : VK_FALSE,
            .shaderInt8 = c->has_int8 && c->api != VKP_COOP_EMULATED ? VK_TRUE : VK_FALSE,
        };
        *chain = &e->float16;
    }
    if (c->has_int16) core->shaderInt16 = VK_TRUE;
    if (c->api == VKP_COOP_EMULATED) return; /* no extension, no Vulkan memory model */
    if (c->api == VKP_COOP_KHR) {
        e->khr = (VkPhysicalDeviceCooperativeMatrixFeaturesKHR){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR,
            .pNext = *chain,
            .cooperativeMatrix = VK_TRUE,
        };
        *chain = &e->khr;
        e->extensions[e->n_extensions++] = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
    } else {
        e->nv = (VkPhysicalDeviceCooperativeMatrixFeaturesNV){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV,
            .pNext = *chain,
            .cooperativeMatrix = VK_TRUE,
        };
        *chain = &e->nv;
        e->extensions[e->n_extensions++] = VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME;
    }
    e->memory_model = (VkPhysicalDeviceVulkanMemoryModelFeatures){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
        .pNext = *chain,
        .vulkanMemoryModel = VK_TRUE,
    };
    *chain = &e->memory_model;
    if (c->has_bf16) {
        e->bf16 = (VkPhysicalDeviceShaderBfloat16FeaturesKHR){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR,
            .pNext = *chain,
            .shaderBFloat16Type = VK_TRUE,
            .shaderBFloat16CooperativeMatrix = VK_TRUE,
        };
        *chain = &e->bf16;
        e->extensions[e->n_extensions++] = VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME;
    }
}

void vkp_coop_failed(vkp_device *d, VkResult result)
{
    vkp_coop *c = &d->coop;
    const char *what = c->api == VKP_COOP_EMULATED ? "shaderFloat16 and shaderInt16 where the device has them"
                       : c->api == VKP_COOP_NV     ? "VK_NV_cooperative_matrix and its features"
                       : c->has_bf16 ? "VK_KHR_cooperative_matrix, VK_KHR_shader_bfloat16 and their features"
                                     : "VK_KHR_cooperative_matrix and its features";
    for (int t = 0; t < 3; t++)
        say(c->why[t == 0   ? GH_F16
                   : t == 1 ? GH_BF16
                            : GH_I8],
            "vkCreateDevice failed on device %s with what the coopmat kernel enables (%s): %s; the device was made "
            "without them",
            d->name, what, vkp_result_name(result));
    c->api = VKP_COOP_NONE;
    c->has_bf16 = c->has_float16 = c->has_int16 = c->has_int8 = 0;
}

/* ---- the kernel's parameters and limits ---- */

static const int64_t coop_rows[] = {64, 128};
static const int64_t coop_cols[] = {64, 128, 256};
static const int64_t coop_subgroups[] = {4, 8};
/* one module per k step: plugins/vulkan/CMakeLists.txt builds the same */
static const int64_t coop_depths[] = {32};
static const int64_t coop_stages[] = {1, 2};
/* 0, then vkp_coop_shapes as M N K digits */
static const int64_t coop_shape_codes[] = {0, 161616, 16816, 1688, 161632, 16832};
const vkp_coop_shape vkp_coop_shapes[VKP_COOP_SHAPES] = {
    {16, 16, 16, 0}, {16, 8, 16, 0}, {16, 8, 8, 0}, {16, 16, 32, 1}, {16, 8, 32, 1}};

/* Defaults: a 128 x 128 block of 4 subgroups (a 64 x 64 part each, 4 x 4
 * accumulators of 16 x 16), k step 32, double-buffered: 40 KiB of shared
 * memory, within the 48 KiB NVIDIA's Vulkan driver gives a workgroup. 4
 * subgroups rather than 8: twice the multiply-adds per staged byte a subgroup
 * reads, and faster (docs/kernels.md). */
const gh_param_info vkp_coopmat_params[VKP_COOPMAT_PARAMS] = {
    GH_PLUGIN_PARAM("bm", "rows of C a workgroup computes", 128, coop_rows),
    GH_PLUGIN_PARAM("bn", "columns of C a workgroup computes (256: with 8 subgroups only)", 128, coop_cols),
    GH_PLUGIN_PARAM("subgroups",
                    "subgroups per workgroup, laid out 2 x 2 (4) or 2 x 4 (8) over the block; "
                    "each computes its part with cooperative matrices",
                    4, coop_subgroups),
    GH_PLUGIN_PARAM("bk",
                    "k step: the depth of the tiles of A and B staged in shared memory; built into the "
                    "modules (so that glslc unrolls the k loop), 32 only: more values would multiply "
                    "the plugin's build time",
                    32, coop_depths),
    GH_PLUGIN_PARAM("shape",
                    "cooperative matrix shape M x N x K, as its digits (f16, bf16: 161616 = 16x16x16, "
                    "16816 = 16x8x16, 1688 = 16x8x8; i8: 161632 = 16x16x32, 16832 = 16x8x32); 0: the first of "
                    "those the device offers for the dtype (--list shows what it offers)",
                    0, coop_shape_codes),
    GH_PLUGIN_PARAM("stages",
                    "buffers of the staged tiles: 2 (the next step's tiles copied while this one's are "
                    "multiplied, one barrier a step) or 1 (two barriers a step, half the shared memory)",
                    2, coop_stages),
};

/* Shared memory the coopmat shader declares: per stage, the A and B tiles as
 * stored (16 bits; i8: 8), room for either orientation (bm and bn rows of bk
 * elements and 16 bytes), or where larger the epilogue's f32 (i32) scratch of
 * one accumulator per subgroup (kernels/vulkan/coopmat.comp). */
uint64_t vkp_coopmat_shared_bytes(const vkp_variant *v, const vkp_coop_shape *s, gh_dtype dtype)
{
    const uint64_t esize = dtype == GH_I8 ? 1 : 2;
    uint64_t staged = v->stages * (v->block_m + v->block_n) * (esize * v->depth + 16);
    uint64_t scratch = 4ull * v->subgroups * s->m * s->n;
    return staged > scratch ? staged : scratch;
}

/* The (bm, bn, subgroups) coopmat is built for (plugins/vulkan/CMakeLists.txt),
 * in module order; bn = 256 with 8 subgroups only. */
static const uint32_t coop_blocks[][3] = {
    {64, 64, 4},  {64, 64, 8},   {64, 128, 4},  {64, 128, 8}, {128, 64, 4},
    {128, 64, 8}, {128, 128, 4}, {128, 128, 8}, {64, 256, 8}, {128, 256, 8},
};

/* Where the device can run coopmat in that dtype (coopmat.c said so), the
 * shape, invocations and module of v. */
gh_status vkp_coopmat_limits(const vkp_device *d, gh_dtype dtype, vkp_variant *v)
{
    const vkp_coop *c = &d->coop;
    const char *tname = gh_plugin_dtype_name(dtype);
    if (c->why[dtype][0])
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: kernel coopmat: %s: %s", tname, c->why[dtype]);
    if (v->shape < 0)
        for (int s = VKP_COOP_SHAPES - 1; s >= 0; s--)
            if (c->shapes[dtype] & (1u << s)) v->shape = s;
    const vkp_coop_shape *s = &vkp_coop_shapes[v->shape < 0 ? 0 : v->shape];
    if (v->shape < 0 || !(c->shapes[dtype] & (1u << v->shape)))
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel coopmat: %s: %s: device %s offers no %ux%ux%u %s x %s + %s "
                                   "cooperative matrix for it (it offers: %s)",
                                   tname, v->label, d->name, s->m, s->n, s->k, dtype == GH_I8 ? "s8" : tname,
                                   dtype == GH_I8 ? "s8" : tname, dtype == GH_I8 ? "s32" : "f32",
                                   c->offered[0] ? c->offered : "none");
    int block = -1;
    for (int b = 0; b < (int)GH_PLUGIN_COUNT(coop_blocks); b++)
        if (coop_blocks[b][0] == v->block_m && coop_blocks[b][1] == v->block_n && coop_blocks[b][2] == v->subgroups)
            block = b;
    if (block < 0)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel coopmat: %s: %s: a block %u wide needs 8 subgroups (with %u, each "
                                   "would hold %u x %u %s sums, more registers than an invocation has)",
                                   tname, v->label, v->block_n, v->subgroups, v->block_m / 2, v->block_n / 2,
                                   dtype == GH_I8 ? "i32" : "f32");
    v->invocations = v->subgroups * c->subgroup_size;
    /* The module cache's index: one per (bm, bn, subgroups, shape, bk). */
    int depth = -1;
    for (int k = 0; k < (int)GH_PLUGIN_COUNT(coop_depths); k++)
        if (coop_depths[k] == v->depth) depth = k;
    if (depth < 0)
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: kernel coopmat: %s: %s: no module for bk = %u", tname,
                                   v->label, v->depth);
    v->module = (block * VKP_COOP_SHAPES + v->shape) * (int)GH_PLUGIN_COUNT(coop_depths) + depth;
    return GH_OK;
}

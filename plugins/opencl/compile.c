#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "build_log.h"
#include "compile.h"
#include "devices.h"
#include "errors.h"
#include "program_info.h"
#include "ptx_rebuild.h"
#include "sources.h"

/* Every kernel file is compiled after this one, which holds what they share. */
#define COMMON_SOURCE "common.cl"

/* The most registers a ptxas register limit can say (sm_30 and later). */
#define NV_MAX_REGISTERS 255

/* Per dtype, what common.cl is built with: the element type in memory, the
 * arithmetic's type, and the conversion between them where they differ
 * (f16 and bf16: stored in 16 bits, multiplied and summed in f32). */
static const char *const dtype_defines[GH_DTYPE_COUNT] = {
    [GH_F32] = "-DSTORE_T=float -DACC_T=float",
    [GH_F64] = "-DSTORE_T=double -DACC_T=double -DGH_FP64=1",
    [GH_I32] = "-DSTORE_T=int -DACC_T=int",
    [GH_F16] = "-DSTORE_T=half -DACC_T=float -DGH_STORE_F16=1",
    [GH_BF16] = "-DSTORE_T=ushort -DACC_T=float -DGH_STORE_BF16=1",
};

/* (ABI 1.5) 8-bit A and B get their own types after C's (common.cl decodes
 * FP8 in software, i8 is read as char): A's and B's -D options. */
static const char *operand_define(gh_dtype dtype)
{
    switch (dtype) {
    case GH_E4M3: return "E4M3";
    case GH_E5M2: return "E5M2";
    case GH_I8: return "I8";
    default: return NULL;
    }
}

/* "f32", or "e4m3*e5m2->f16" for a type combination. */
static const char *types_name(const gh_plugin_gemm_types *t, char *text, size_t size)
{
    if (t->a == t->b && t->b == t->c) return gh_plugin_dtype_name(t->a);
    snprintf(text, size, "%s*%s->%s", gh_plugin_dtype_name(t->a), gh_plugin_dtype_name(t->b),
             gh_plugin_dtype_name(t->c));
    return text;
}

/* The text the compiler gets: each file after a #line directive naming it,
 * and where each file's lines sit in the whole (for ocl_log_translate). */
typedef struct program_text {
    char *text;
    ocl_source_piece pieces[2];
} program_text;

static unsigned long count_lines(const char *text, size_t len)
{
    unsigned long lines = 0;
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    return lines + (len > 0 && text[len - 1] != '\n'); /* a last line without '\n' */
}

static gh_status assemble(const gh_plugin *ctx, const char *const files[2], program_text *out)
{
    char *texts[2] = {NULL, NULL};
    size_t lengths[2] = {0, 0}, total = 1;
    gh_status status = GH_OK;
    for (int i = 0; i < 2 && status == GH_OK; i++) {
        status = ocl_source_load(ctx->kernel_dir, files[i], &texts[i], &lengths[i]);
        total += lengths[i] + strlen(files[i]) + 16; /* #line 1 "<file>"\n, a '\n' to end the file */
    }
    if (status == GH_OK && !(out->text = malloc(total)))
        status = gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for kernel source");
    if (status == GH_OK) {
        char *o = out->text;
        unsigned long line = 1;
        for (int i = 0; i < 2; i++) {
            o += sprintf(o, "#line 1 \"%s\"\n", files[i]);
            line++;
            memcpy(o, texts[i], lengths[i]);
            o += lengths[i];
            if (lengths[i] > 0 && texts[i][lengths[i] - 1] != '\n') *o++ = '\n';
            out->pieces[i] = (ocl_source_piece){files[i], line, count_lines(texts[i], lengths[i])};
            line += out->pieces[i].lines;
        }
        *o = '\0';
    }
    free(texts[0]);
    free(texts[1]);
    return status;
}

/* The compiler's log, its positions translated (NULL when there is none). */
static char *build_log(cl_program program, cl_device_id device, const program_text *src, int *translated)
{
    *translated = 0;
    char *log = ocl_program_log(program, device);
    if (!log) return NULL;
    char *translated_log = ocl_log_translate(log, src->pieces, 2, translated);
    if (!translated_log) return log;
    free(log);
    return translated_log;
}

/* "-DSTORE_T=float -DACC_T=float -DTILE=16", plus NVIDIA's ptxas options where the device
 * takes them: verbose (registers and spills into the log), and a register
 * limit low enough for the variant's work-group to fit the register file
 * (a 32 x 32 group: 64 registers each of 65536). */
static void build_options(const ocl_device *dev, int kernel, const gh_plugin_gemm_types *types, const ocl_variant *v,
                          int nv, char *options, size_t size)
{
    int used = snprintf(options, size, "%s", dtype_defines[types->c]);
    const char *a = operand_define(types->a), *b = operand_define(types->b);
    if (a) used += snprintf(options + used, size - (size_t)used, " -DGH_A_%s=1", a);
    if (b) used += snprintf(options + used, size - (size_t)used, " -DGH_B_%s=1", b);
    ocl_variant_defines(kernel, v, options + used, size - (size_t)used);
    if (nv && dev->nv_compiler_options) {
        used = (int)strlen(options);
        used += snprintf(options + used, size - (size_t)used, " -cl-nv-verbose");
        const uint64_t items = (uint64_t)v->local[0] * v->local[1];
        if (dev->nv_registers_per_block && items && dev->nv_registers_per_block / items < NV_MAX_REGISTERS)
            snprintf(options + used, size - (size_t)used, " -cl-nv-maxrregcount=%llu",
                     (unsigned long long)(dev->nv_registers_per_block / items));
    }
}

static int build_log_wanted(void)
{
    const char *env = getenv("GEMMHOST_OPENCL_BUILD_LOG");
    return env && *env && strcmp(env, "0") != 0;
}

/* clBuildProgram with the kernel's sources and options; *program is set
 * (for the caller to release) even when building fails. */
static gh_status build(const gh_plugin *ctx, ocl_device *dev, int kernel, const gh_plugin_gemm_types *types,
                       const ocl_variant *v, cl_program *program, char *compiler_info, size_t info_size)
{
    const ocl_kernel_def *def = &ocl_kernels[kernel];
    char type_text[48];
    const char *type_name = types_name(types, type_text, sizeof type_text);
    const char *const files[2] = {COMMON_SOURCE, def->file};
    program_text src = {0};
    gh_status status = assemble(ctx, files, &src);
    if (status != GH_OK) return status;

    char options[512];
    build_options(dev, kernel, types, v, 1, options, sizeof options);

    cl_int err;
    const char *text = src.text;
    *program = clCreateProgramWithSource(dev->context, 1, &text, NULL, &err);
    if (err != CL_SUCCESS) {
        *program = NULL;
        free(src.text);
        return ocl_fail_cl(err, "clCreateProgramWithSource", "kernel %s (%s)", def->info.name, options);
    }
    err = clBuildProgram(*program, 1, &dev->id, options, NULL, NULL);
    if (err == CL_INVALID_BUILD_OPTIONS && dev->nv_compiler_options) {
        /* A driver that takes the extension's options in another spelling:
         * build without them rather than not at all. */
        build_options(dev, kernel, types, v, 0, options, sizeof options);
        err = clBuildProgram(*program, 1, &dev->id, options, NULL, NULL);
    }
    int translated = 0;
    char *log = build_log(*program, dev->id, &src, &translated);
    free(src.text);
    const ocl_ptx_edit edit = {.sm90a = def->sm90a, .max_registers = v->register_cap};
    if (err == CL_SUCCESS && (edit.sm90a || edit.max_registers)) {
        /* The program that runs is the source's PTX edited (sm_90a's
         * instructions uncommented, or a register cap), whose log is the
         * one that counts. */
        cl_program rebuilt = NULL;
        free(log);
        status = ocl_ptx_rebuild(dev->context, dev->id, *program, options, &edit, &rebuilt, &log);
        clReleaseProgram(*program);
        *program = rebuilt;
        if (status != GH_OK) {
            gh_plugin_append_error("\n(kernel %s, %s, %s, for '%s')", def->info.name, type_name, options, dev->name);
            free(log);
            return status;
        }
    }
    if (err != CL_SUCCESS) {
        status = ocl_fail_cl(err, "clBuildProgram", "gemm: building kernel %s (%s, %s) for '%s' failed", def->info.name,
                             type_name, options, dev->name);
        gh_plugin_append_error("\n--- compiler log%s ---\n%s",
                               translated ? " (its line numbers of the whole program given as file:line)" : "",
                               log ? log : "(the compiler left no log)");
    } else {
        if (log) ocl_log_ptxas_summary(log, compiler_info, info_size);
        if (build_log_wanted())
            fprintf(stderr, "gemmhost-opencl: built %s %s (%s) for '%s'\n%s%s", def->info.name, type_name, options,
                    dev->name, log ? log : "", log && *log && log[strlen(log) - 1] != '\n' ? "\n" : "");
    }
    free(log);
    return status;
}

gh_status ocl_program_get(const gh_plugin *ctx, ocl_device *dev, int kernel, const gh_plugin_gemm_types *types,
                          const ocl_variant *v, cl_kernel *out, const ocl_program_slot **slot_out)
{
    const ocl_kernel_def *def = &ocl_kernels[kernel];
    for (ocl_program_slot *slot = dev->programs; slot; slot = slot->next)
        if (slot->kernel == kernel && slot->a == types->a && slot->b == types->b && slot->c == types->c &&
            slot->slot == v->slot) {
            if (slot_out) *slot_out = slot;
            *out = slot->cl_kernel;
            return GH_OK;
        }

    gh_status status = ocl_device_ready(dev);
    if (status != GH_OK) return status;
    ocl_program_slot *slot = calloc(1, sizeof *slot);
    if (!slot) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for a program record");
    cl_program program = NULL;
    status = build(ctx, dev, kernel, types, v, &program, slot->compiler_info, sizeof slot->compiler_info);
    if (status != GH_OK) {
        if (program) clReleaseProgram(program);
        free(slot);
        return status; /* not cached: a fixed kernel directory gets a new try */
    }
    cl_int err;
    cl_kernel k = clCreateKernel(program, def->function, &err);
    if (err != CL_SUCCESS) {
        clReleaseProgram(program);
        free(slot);
        return ocl_fail_cl(err, "clCreateKernel", "kernel function %s of %s", def->function, def->file);
    }
    slot->kernel = kernel;
    slot->a = types->a;
    slot->b = types->b;
    slot->c = types->c;
    slot->slot = v->slot;
    slot->program = program;
    slot->cl_kernel = k;
    slot->next = dev->programs;
    dev->programs = slot;
    if (slot_out) *slot_out = slot;
    *out = k;
    return GH_OK;
}

void ocl_programs_release(ocl_device *dev)
{
    while (dev->programs) {
        ocl_program_slot *slot = dev->programs;
        dev->programs = slot->next;
        clReleaseKernel(slot->cl_kernel);
        clReleaseProgram(slot->program);
        free(slot);
    }
}

/* The worker messages' codec (core/isolation/msg*.c): every message
 * round-trips (encode then decode gives the same struct, strings and arrays
 * included), each field's table entry has the width its kind sends, and a
 * message cut short or with a count past its end is refused, not read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg_buffers.h"
#include "msg_gemm.h"
#include "msg_plugin.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok) passed++;
    else {
        failed++;
        printf("FAIL: %s\n", what);
    }
}

static gh_wire w, cut;

/* Encodes msg, and sees that it decodes into `same`'s bytes and that every
 * shorter prefix is refused. */
static void round_trip(const gh_msg_desc *d, const void *msg, int (*same)(const void *, const void *))
{
    gh_wire_start(&w, 7);
    gh_msg_put(&w, d, msg);
    check(!w.bad, d->name);
    void *back = calloc(1, d->size);
    gh_wire_get_u32(&w);
    char what[160];
    snprintf(what, sizeof what, "%s: decodes what was encoded", d->name);
    check(gh_msg_get(&w, d, back) == 0 && w.pos == w.len && same(msg, back), what);
    /* and encoding what was decoded gives the same bytes */
    gh_wire_start(&cut, 7);
    gh_msg_put(&cut, d, back);
    snprintf(what, sizeof what, "%s: encodes what it decoded into the same bytes", d->name);
    check(cut.len == w.len && memcmp(cut.buf, w.buf, w.len) == 0, what);
    gh_msg_free(d, back);
    for (size_t len = 4; len < w.len; len++) {
        memcpy(cut.buf, w.buf, len);
        cut.len = len;
        cut.pos = 4;
        cut.bad = 0;
        memset(back, 0xab, d->size);
        if (gh_msg_get(&cut, d, back) == 0 || !cut.bad) {
            snprintf(what, sizeof what, "%s: %zu of %zu bytes is refused", d->name, len, w.len);
            check(0, what);
            break;
        }
    }
    free(back);
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_bytes_gemm(const void *a, const void *b)
{
    const gh_msg_gemm *x = a, *y = b;
    int ok = x->device == y->device && x->kernel == y->kernel && x->timing_size == y->timing_size &&
             x->args.m == y->args.m && x->args.alpha == y->args.alpha && x->args.c == y->args.c &&
             x->args.dtype == y->args.dtype && x->args.trans_b == y->args.trans_b &&
             x->args.c_offset == y->args.c_offset && x->args.n_params == y->args.n_params &&
             x->args.size == y->args.size && (x->args.params != NULL) == (y->args.params != NULL) &&
             x->args.explicit_types == y->args.explicit_types && x->args.b_dtype == y->args.b_dtype &&
             x->args.c_dtype == y->args.c_dtype && x->args.scale_a == y->args.scale_a &&
             x->args.scale_b == y->args.scale_b && x->args.scale_c == y->args.scale_c;
    for (size_t i = 0; ok && x->args.params && i < x->args.n_params; i++) ok = x->args.params[i] == y->args.params[i];
    return ok;
}

static int same_loaded(const void *a, const void *b)
{
    const gh_msg_loaded *x = a, *y = b;
    int ok = x->abi_major == y->abi_major && x->abi_minor == y->abi_minor && same_str(x->name, y->name) &&
             same_str(x->description, y->description) && same_str(x->version, y->version) &&
             x->n_options == y->n_options && x->flags == y->flags;
    for (size_t i = 0; ok && i < x->n_options; i++)
        ok = x->options[i].size == y->options[i].size && same_str(x->options[i].name, y->options[i].name) &&
             same_str(x->options[i].description, y->options[i].description) &&
             same_str(x->options[i].default_value, y->options[i].default_value);
    return ok;
}

static int same_open(const void *a, const void *b)
{
    const gh_msg_open *x = a, *y = b;
    int ok = x->n_options == y->n_options;
    for (size_t i = 0; ok && i < x->n_options; i++)
        ok = same_str(x->options[i].name, y->options[i].name) && same_str(x->options[i].value, y->options[i].value);
    return ok;
}

static int same_device(const void *a, const void *b)
{
    const gh_device_info *x = ((const gh_msg_device_info *)a)->info, *y = ((const gh_msg_device_info *)b)->info;
    return x && y && x->size == y->size && same_str(x->name, y->name) && same_str(x->vendor, y->vendor) &&
           same_str(x->driver_version, y->driver_version) && same_str(x->api, y->api) &&
           same_str(x->platform, y->platform) && x->global_mem_bytes == y->global_mem_bytes &&
           x->local_mem_bytes == y->local_mem_bytes && x->compute_units == y->compute_units &&
           x->max_workgroup_size == y->max_workgroup_size && x->is_software == y->is_software &&
           x->has_fp64 == y->has_fp64 && same_str(x->pci_address, y->pci_address);
}

static int same_kernel(const void *a, const void *b)
{
    const gh_kernel_info *x = ((const gh_msg_kernel_info *)a)->info, *y = ((const gh_msg_kernel_info *)b)->info;
    int ok = x && y && x->size == y->size && same_str(x->name, y->name) && same_str(x->description, y->description) &&
             x->dtypes == y->dtypes && x->n_params == y->n_params && x->n_precisions == y->n_precisions &&
             x->n_combos == y->n_combos && (x->combos != NULL) == (y->combos != NULL);
    for (size_t i = 0; ok && x->combos && i < x->n_combos; i++) {
        const gh_type_combo *p = &x->combos[i], *q = &y->combos[i];
        ok = p->size == q->size && p->a == q->a && p->b == q->b && p->c == q->c && p->inputs == q->inputs &&
             p->accumulate == q->accumulate && p->accumulate_bits == q->accumulate_bits &&
             p->promote_every == q->promote_every;
    }
    for (size_t i = 0; ok && i < x->n_params; i++) {
        const gh_param_info *p = &x->params[i], *q = &y->params[i];
        ok = p->size == q->size && same_str(p->name, q->name) && same_str(p->description, q->description) &&
             p->default_value == q->default_value && p->n_allowed == q->n_allowed && p->min_value == q->min_value &&
             p->max_value == q->max_value && (p->allowed != NULL) == (q->allowed != NULL);
        for (size_t j = 0; ok && p->allowed && j < p->n_allowed; j++) ok = p->allowed[j] == q->allowed[j];
    }
    for (size_t i = 0; ok && i < x->n_precisions; i++)
        ok = x->precisions[i].size == y->precisions[i].size && x->precisions[i].dtype == y->precisions[i].dtype &&
             x->precisions[i].inputs == y->precisions[i].inputs &&
             x->precisions[i].accumulate == y->precisions[i].accumulate;
    return ok;
}

static int same_synced(const void *a, const void *b)
{
    const gh_msg_synced *x = a, *y = b;
    int ok = x->n_calls == y->n_calls;
    for (size_t i = 0; ok && i < x->n_calls; i++)
        ok = x->calls[i].is_gemm == y->calls[i].is_gemm && x->calls[i].ms == y->calls[i].ms &&
             x->calls[i].kernel_ms == y->calls[i].kernel_ms && x->calls[i].clock == y->calls[i].clock &&
             same_str(x->calls[i].note, y->calls[i].note) && x->calls[i].split_pieces == y->calls[i].split_pieces &&
             x->calls[i].split_precision == y->calls[i].split_precision;
    return ok;
}

static int same_done(const void *a, const void *b)
{
    const gh_msg_gemm_done *x = a, *y = b;
    return x->kernel_ms == y->kernel_ms && x->clock == y->clock && same_str(x->note, y->note) &&
           x->split_pieces == y->split_pieces && x->split_precision == y->split_precision;
}

/* ABI 1.6's request: n launches, with gemm_async's members. */
static int same_batch(const void *a, const void *b)
{
    const gh_msg_gemm_batch_async *x = a, *y = b;
    gh_msg_gemm gx = {.kernel = x->kernel, .args = x->args, .timing_size = x->timing_size},
                gy = {.kernel = y->kernel, .args = y->args, .timing_size = y->timing_size};
    return x->stream == y->stream && x->n == y->n && same_bytes_gemm(&gx, &gy);
}

/* Messages of fixed-width fields only: re-encoding (in round_trip) compares
 * every field; memcmp would compare the padding too. */
#define SAME_BYTES(T)                                 \
    static int same_##T(const void *a, const void *b) \
    {                                                 \
        (void)a;                                      \
        (void)b;                                      \
        return 1;                                     \
    }
SAME_BYTES(gh_msg_handle)
SAME_BYTES(gh_msg_buffer_alloc)
SAME_BYTES(gh_msg_copy)
SAME_BYTES(gh_msg_copy_2d)
SAME_BYTES(gh_msg_map)
SAME_BYTES(gh_msg_index)

static int same_strs(const void *a, const void *b)
{
    /* gh_msg_load, gh_msg_error: one string; refused, device count: a number beside it */
    return same_str(*(char *const *)a, *(char *const *)b);
}

static int same_refused(const void *a, const void *b)
{
    const gh_msg_load_refused *x = a, *y = b;
    return same_str(x->error, y->error) && x->abi_major == y->abi_major;
}

static int same_count(const void *a, const void *b)
{
    const gh_msg_device_count *x = a, *y = b;
    return x->count == y->count && same_str(x->why, y->why);
}

static void widths(const gh_msg_desc *d)
{
    for (size_t i = 0; i < d->n_fields; i++) {
        const gh_field *f = &d->fields[i];
        size_t want = f->kind == GH_FIELD_U32 ? 4 : f->kind <= GH_FIELD_SIZE ? 8 : 0;
        if (f->kind == GH_FIELD_STR || f->kind == GH_FIELD_STR_SET || f->kind == GH_FIELD_PTR) want = sizeof(void *);
        char what[160];
        snprintf(what, sizeof what, "%s.%s: the member is as wide as its kind sends", d->name, f->name);
        if (want) check(f->width == want, what);
        if (f->nested) widths(f->nested);
    }
}

int main(void)
{
    int64_t params[] = {64, -3, 1LL << 40};
    gh_msg_gemm g = {.device = 1, .kernel = 4, .timing_size = sizeof(gh_gemm_timing)};
    g.args = (gh_gemm_args){.size = sizeof g.args,
                            .dtype = GH_F64,
                            .trans_b = 1,
                            .m = 5,
                            .n = 6,
                            .k = 7,
                            .alpha = 1.5,
                            .beta = -2,
                            .lda = 7,
                            .ldb = 6,
                            .ldc = 6,
                            .a = (gh_buffer *)(uintptr_t)0x10,
                            .b = (gh_buffer *)(uintptr_t)0x20,
                            .c = (gh_buffer *)(uintptr_t)0x30,
                            .c_offset = 9,
                            .params = params,
                            .n_params = 3};
    round_trip(&gh_msg_gemm_desc, &g, same_bytes_gemm);
    /* ABI 1.5: an 8-bit GEMM's types and scales */
    g.args.dtype = GH_E4M3;
    g.args.explicit_types = 1;
    g.args.b_dtype = GH_E5M2;
    g.args.c_dtype = GH_BF16;
    g.args.scale_a = 0.25;
    g.args.scale_b = 8;
    g.args.scale_c = 0x1p-20;
    round_trip(&gh_msg_gemm_desc, &g, same_bytes_gemm);
    g.args.explicit_types = 2; /* what a plugin must refuse travels as it is */
    round_trip(&gh_msg_gemm_desc, &g, same_bytes_gemm);
    /* an older host's args: the new members are outside its size and travel as zeros */
    gh_msg_gemm short_g = g;
    short_g.args.size = offsetof(gh_gemm_args, explicit_types);
    short_g.args.explicit_types = 0;
    short_g.args.b_dtype = short_g.args.c_dtype = 0;
    short_g.args.scale_a = short_g.args.scale_b = short_g.args.scale_c = 0;
    round_trip(&gh_msg_gemm_desc, &short_g, same_bytes_gemm);
    g.args.params = NULL; /* a count without a list: the plugin refuses what it was given */
    round_trip(&gh_msg_gemm_desc, &g, same_bytes_gemm);

    gh_option_info opts[] = {{sizeof opts[0], "threads", "how many", "0"}, {sizeof opts[0], "x", NULL, ""}};
    gh_msg_loaded loaded = {1, 2, "fake", "a fake", NULL, opts, 2, GH_LOADED_HAS_STREAMS};
    round_trip(&gh_msg_loaded_desc, &loaded, same_loaded);
    gh_option_value vals[] = {{"threads", "4"}, {"empty", NULL}};
    round_trip(&gh_msg_open_desc, &(gh_msg_open){vals, 2}, same_open);
    round_trip(&gh_msg_load_desc, &(gh_msg_load){"/a/path.so"}, same_strs);
    round_trip(&gh_msg_error_desc, &(gh_msg_error){"no: because"}, same_strs);
    round_trip(&gh_msg_load_refused_desc, &(gh_msg_load_refused){"wrong ABI", 3}, same_refused);
    round_trip(&gh_msg_device_count_desc, &(gh_msg_device_count){-1, "no device"}, same_count);

    gh_device_info dev = {sizeof dev, "Dev", "V", NULL, "cpu", "p", 1ull << 34, 65536, 8, 1024, 1, 0, "0000:1b:00.0"};
    round_trip(&gh_msg_device_info_desc, &(gh_msg_device_info){&dev}, same_device);

    int64_t allowed[] = {16, 32, 64};
    gh_param_info ps[] = {{sizeof ps[0], "TILE", "tile", 32, allowed, 3, 16, 64},
                          {sizeof ps[0], "K", NULL, 1, NULL, 0, 1, 8}};
    gh_kernel_precision prec[] = {{sizeof prec[0], GH_F32, GH_PREC_TF32, GH_PREC_F32}};
    gh_type_combo combos[] = {
        {sizeof combos[0], GH_E4M3, GH_E5M2, GH_F32, GH_PREC_AS_STORED, GH_PREC_F32, 14, 128},
        {sizeof combos[0], GH_I8, GH_I8, GH_I32, GH_PREC_AS_STORED, GH_PREC_AS_STORED, 0, 0},
        {offsetof(gh_type_combo, accumulate_bits), GH_E5M2, GH_E5M2, GH_F16, GH_PREC_AS_STORED, GH_PREC_F32, 0, 0}};
    gh_kernel_info ki = {sizeof ki, "k", "a kernel", 3, ps, 2, prec, 1, combos, 3};
    round_trip(&gh_msg_kernel_info_desc, &(gh_msg_kernel_info){&ki}, same_kernel);
    /* a minor-4 kernel info: no combos member at all */
    gh_kernel_info ki4 = {offsetof(gh_kernel_info, combos), "k4", "", 1, NULL, 0, NULL, 0, NULL, 0};
    round_trip(&gh_msg_kernel_info_desc, &(gh_msg_kernel_info){&ki4}, same_kernel);
    {
        gh_wire_start(&w, 0);
        ki4.combos = combos; /* beyond its size: must not travel */
        ki4.n_combos = 3;
        gh_msg_kernel_info_put(&w, &(gh_msg_kernel_info){&ki4});
        gh_msg_kernel_info kback;
        gh_wire_get_u32(&w);
        check(gh_msg_kernel_info_get(&w, &kback) == 0 && kback.info->size == ki4.size && kback.info->n_combos == 0 &&
                  !kback.info->combos,
              "a minor-4 kernel info sends no combos, whatever lies past its size");
        gh_msg_kernel_info_clear(&kback);
    }

    /* ABI 1.6: a GEMM's split of K travels with its timing */
    gh_msg_queued calls[] = {{1, 0, 2.5, 0, "cuBLASLt algo 21", 4, GH_PREC_F16}, {0, 1.25, 0, 1, NULL, 0, 0}};
    round_trip(&gh_msg_synced_desc, &(gh_msg_synced){calls, 2}, same_synced);
    round_trip(&gh_msg_handle_desc, &(gh_msg_handle){0xdeadbeef}, same_gh_msg_handle);
    round_trip(&gh_msg_buffer_alloc_desc, &(gh_msg_buffer_alloc){2, 4096}, same_gh_msg_buffer_alloc);
    round_trip(&gh_msg_copy_desc, &(gh_msg_copy){0x40, 8, {GH_PLACE_SEGMENT, 3, 128, 4096}, 4096}, same_gh_msg_copy);
    round_trip(&gh_msg_copy_2d_desc, &(gh_msg_copy_2d){0x50, 0x40, 8, 256, {GH_PLACE_EMPTY, 0, 0, 0}, 512, 64, 4, 1},
               same_gh_msg_copy_2d);
    round_trip(&gh_msg_map_desc, &(gh_msg_map){7, 1 << 20, 1}, same_gh_msg_map);
    round_trip(&gh_msg_index_desc, &(gh_msg_index){-2}, same_gh_msg_index);
    round_trip(&gh_msg_gemm_done_desc, &(gh_msg_gemm_done){1.5, 1, "cuBLASLt algo 21", 3, GH_PREC_BF16}, same_done);
    gh_msg_gemm_batch_async batch = {.stream = 0x60, .kernel = 2, .args = g.args, .n = 20, .timing_size = 17};
    batch.args.params = params;
    round_trip(&gh_msg_gemm_batch_async_desc, &batch, same_batch);
    batch.n = 0; /* the worker refuses it, so it must arrive as 0 */
    round_trip(&gh_msg_gemm_batch_async_desc, &batch, same_batch);

    /* A plugin's shorter struct: what it lacks goes as zeros and NULLs. */
    gh_device_info old = dev;
    old.size = offsetof(gh_device_info, has_fp64);
    gh_wire_start(&w, 0);
    gh_msg_device_info_put(&w, &(gh_msg_device_info){&old});
    gh_msg_device_info back;
    gh_wire_get_u32(&w);
    check(gh_msg_device_info_get(&w, &back) == 0 && back.info->size == old.size && back.info->has_fp64 == 0 &&
              back.info->is_software == 1 && back.info->pci_address && !*back.info->pci_address,
          "a shorter device info sends zeros and \"\" for what it lacks");
    gh_msg_device_info_clear(&back);

    /* A count past the message's end is refused before anything is allocated for it. */
    gh_wire_start(&w, 0);
    gh_wire_u64(&w, 1ull << 40);
    gh_msg_open o;
    gh_wire_get_u32(&w);
    check(gh_msg_open_get(&w, &o) != 0 && w.bad && !o.options && o.n_options == 0,
          "an option count past the message's end is refused");
    gh_wire_start(&w, 0);
    gh_msg_gemm_put(&w, &g);
    memset(w.buf + w.len - 8 - 4 - 8, 0xff, 8); /* n_params: huge, with a list */
    w.buf[w.len - 8 - 4] = 1;
    gh_wire_get_u32(&w);
    gh_msg_gemm gg;
    check(gh_msg_gemm_get(&w, &gg) != 0, "a GEMM with more params than the message holds is refused");

    const gh_msg_desc *all[] = {&gh_msg_gemm_desc,         &gh_msg_gemm_async_desc,       &gh_msg_loaded_desc,
                                &gh_msg_open_desc,         &gh_msg_device_info_desc,      &gh_msg_kernel_info_desc,
                                &gh_msg_synced_desc,       &gh_msg_copy_2d_desc,          &gh_msg_map_desc,
                                &gh_msg_device_count_desc, &gh_msg_gemm_batch_async_desc, &gh_msg_gemm_done_desc};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) widths(all[i]);

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

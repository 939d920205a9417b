/* Packing and deep-copying infos; see wire_info.h. Members a plugin's
 * shorter struct lacks travel as zeros and stay outside the copy's `size`. */
#include "wire_info.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define HAS(p, type, member) GH_HAS_MEMBER(p, type, member)

/* A count the host may allocate for: never more entries than bytes left. */
static size_t get_count(gh_wire *w)
{
    uint64_t n = gh_wire_get_u64(w);
    if (n > w->len - w->pos) {
        w->bad = 1;
        return 0;
    }
    return (size_t)n;
}

/* ---- devices ---- */

void gh_wire_device_info(gh_wire *w, const gh_device_info *d)
{
    gh_wire_u32(w, d != NULL);
    if (!d) return;
    gh_wire_u64(w, d->size);
    gh_wire_str(w, HAS(d, gh_device_info, name) ? d->name : NULL);
    gh_wire_str(w, HAS(d, gh_device_info, vendor) ? d->vendor : NULL);
    gh_wire_str(w, HAS(d, gh_device_info, driver_version) ? d->driver_version : NULL);
    gh_wire_str(w, HAS(d, gh_device_info, api) ? d->api : NULL);
    gh_wire_str(w, HAS(d, gh_device_info, platform) ? d->platform : NULL);
    gh_wire_u64(w, HAS(d, gh_device_info, global_mem_bytes) ? d->global_mem_bytes : 0);
    gh_wire_u64(w, HAS(d, gh_device_info, local_mem_bytes) ? d->local_mem_bytes : 0);
    gh_wire_u32(w, HAS(d, gh_device_info, compute_units) ? d->compute_units : 0);
    gh_wire_u32(w, HAS(d, gh_device_info, max_workgroup_size) ? d->max_workgroup_size : 0);
    gh_wire_u32(w, HAS(d, gh_device_info, is_software) ? (uint32_t)d->is_software : 0);
    gh_wire_u32(w, HAS(d, gh_device_info, has_fp64) ? (uint32_t)d->has_fp64 : 0);
    gh_wire_str(w, HAS(d, gh_device_info, pci_address) && d->pci_address ? d->pci_address : "");
}

gh_device_info *gh_wire_get_device_info(gh_wire *w)
{
    if (!gh_wire_get_u32(w)) return NULL;
    gh_device_info *d = gh_xcalloc(1, sizeof *d);
    uint64_t size = gh_wire_get_u64(w);
    d->size = size < sizeof *d ? (size_t)size : sizeof *d;
    d->name = gh_wire_get_str(w);
    d->vendor = gh_wire_get_str(w);
    d->driver_version = gh_wire_get_str(w);
    d->api = gh_wire_get_str(w);
    d->platform = gh_wire_get_str(w);
    d->global_mem_bytes = gh_wire_get_u64(w);
    d->local_mem_bytes = gh_wire_get_u64(w);
    d->compute_units = gh_wire_get_u32(w);
    d->max_workgroup_size = gh_wire_get_u32(w);
    d->is_software = (int32_t)gh_wire_get_u32(w);
    d->has_fp64 = (int32_t)gh_wire_get_u32(w);
    d->pci_address = gh_wire_get_str(w);
    if (w->bad) {
        gh_device_info_free(d);
        return NULL;
    }
    return d;
}

void gh_device_info_free(gh_device_info *d)
{
    if (!d) return;
    free((char *)d->name);
    free((char *)d->vendor);
    free((char *)d->driver_version);
    free((char *)d->api);
    free((char *)d->platform);
    free((char *)d->pci_address);
    free(d);
}

/* ---- kernels ---- */

static void put_param(gh_wire *w, const gh_param_info *p)
{
    gh_wire_u64(w, p->size);
    gh_wire_str(w, HAS(p, gh_param_info, name) ? p->name : NULL);
    gh_wire_str(w, HAS(p, gh_param_info, description) ? p->description : NULL);
    gh_wire_i64(w, HAS(p, gh_param_info, default_value) ? p->default_value : 0);
    size_t n_allowed = HAS(p, gh_param_info, n_allowed) && p->allowed ? p->n_allowed : 0;
    gh_wire_u64(w, HAS(p, gh_param_info, n_allowed) ? p->n_allowed : 0);
    gh_wire_u32(w, p->allowed != NULL);
    for (size_t i = 0; i < n_allowed; i++) gh_wire_i64(w, p->allowed[i]);
    gh_wire_i64(w, HAS(p, gh_param_info, min_value) ? p->min_value : 0);
    gh_wire_i64(w, HAS(p, gh_param_info, max_value) ? p->max_value : 0);
}

static void get_param(gh_wire *w, gh_param_info *p)
{
    uint64_t size = gh_wire_get_u64(w);
    p->size = size < sizeof *p ? (size_t)size : sizeof *p;
    p->name = gh_wire_get_str(w);
    p->description = gh_wire_get_str(w);
    p->default_value = gh_wire_get_i64(w);
    p->n_allowed = get_count(w);
    int has_list = gh_wire_get_u32(w) != 0;
    if (has_list) {
        int64_t *allowed = gh_xcalloc(p->n_allowed ? p->n_allowed : 1, sizeof *allowed);
        for (size_t i = 0; i < p->n_allowed; i++) allowed[i] = gh_wire_get_i64(w);
        p->allowed = allowed;
    }
    p->min_value = gh_wire_get_i64(w);
    p->max_value = gh_wire_get_i64(w);
}

void gh_wire_kernel_info(gh_wire *w, const gh_kernel_info *k)
{
    gh_wire_u32(w, k != NULL);
    if (!k) return;
    gh_wire_u64(w, k->size);
    gh_wire_str(w, HAS(k, gh_kernel_info, name) ? k->name : NULL);
    gh_wire_str(w, HAS(k, gh_kernel_info, description) ? k->description : NULL);
    gh_wire_u32(w, HAS(k, gh_kernel_info, dtypes) ? k->dtypes : 0);
    size_t n_params = HAS(k, gh_kernel_info, n_params) ? k->n_params : 0;
    gh_wire_u64(w, n_params);
    gh_wire_u32(w, HAS(k, gh_kernel_info, params) && k->params != NULL);
    for (size_t i = 0; k->params && i < n_params && !w->bad; i++) put_param(w, &k->params[i]);
    size_t n_prec = HAS(k, gh_kernel_info, n_precisions) ? k->n_precisions : 0;
    gh_wire_u64(w, n_prec);
    gh_wire_u32(w, HAS(k, gh_kernel_info, precisions) && k->precisions != NULL);
    for (size_t i = 0; k->precisions && i < n_prec && !w->bad; i++) {
        const gh_kernel_precision *p = &k->precisions[i];
        gh_wire_u64(w, p->size);
        gh_wire_u32(w, (uint32_t)p->dtype);
        gh_wire_u32(w, (uint32_t)p->inputs);
        gh_wire_u32(w, (uint32_t)p->accumulate);
    }
}

gh_kernel_info *gh_wire_get_kernel_info(gh_wire *w)
{
    if (!gh_wire_get_u32(w)) return NULL;
    gh_kernel_info *k = gh_xcalloc(1, sizeof *k);
    uint64_t size = gh_wire_get_u64(w);
    k->size = size < sizeof *k ? (size_t)size : sizeof *k;
    k->name = gh_wire_get_str(w);
    k->description = gh_wire_get_str(w);
    k->dtypes = gh_wire_get_u32(w);
    k->n_params = get_count(w);
    if (gh_wire_get_u32(w)) {
        gh_param_info *params = gh_xcalloc(k->n_params ? k->n_params : 1, sizeof *params);
        for (size_t i = 0; i < k->n_params && !w->bad; i++) get_param(w, &params[i]);
        k->params = params;
    }
    k->n_precisions = get_count(w);
    if (gh_wire_get_u32(w)) {
        gh_kernel_precision *prec = gh_xcalloc(k->n_precisions ? k->n_precisions : 1, sizeof *prec);
        for (size_t i = 0; i < k->n_precisions && !w->bad; i++) {
            uint64_t psize = gh_wire_get_u64(w);
            prec[i].size = psize < sizeof prec[i] ? (size_t)psize : sizeof prec[i];
            prec[i].dtype = (gh_dtype)gh_wire_get_u32(w);
            prec[i].inputs = (gh_precision)gh_wire_get_u32(w);
            prec[i].accumulate = (gh_precision)gh_wire_get_u32(w);
        }
        k->precisions = prec;
    }
    if (w->bad) {
        gh_kernel_info_free(k);
        return NULL;
    }
    return k;
}

void gh_kernel_info_free(gh_kernel_info *k)
{
    if (!k) return;
    for (size_t i = 0; k->params && i < k->n_params; i++) {
        free((char *)k->params[i].name);
        free((char *)k->params[i].description);
        free((int64_t *)k->params[i].allowed);
    }
    free((gh_param_info *)k->params);
    free((gh_kernel_precision *)k->precisions);
    free((char *)k->name);
    free((char *)k->description);
    free(k);
}

/* ---- options ---- */

void gh_wire_options(gh_wire *w, const gh_option_info *o, size_t n)
{
    gh_wire_u64(w, o ? n : 0);
    for (size_t i = 0; o && i < n && !w->bad; i++) {
        gh_wire_u64(w, o[i].size);
        gh_wire_str(w, o[i].name);
        gh_wire_str(w, o[i].description);
        gh_wire_str(w, o[i].default_value);
    }
}

gh_option_info *gh_wire_get_options(gh_wire *w, size_t *n)
{
    *n = get_count(w);
    if (*n == 0) return NULL;
    gh_option_info *o = gh_xcalloc(*n, sizeof *o);
    for (size_t i = 0; i < *n && !w->bad; i++) {
        uint64_t size = gh_wire_get_u64(w);
        o[i].size = size < sizeof o[i] ? (size_t)size : sizeof o[i];
        o[i].name = gh_wire_get_str(w);
        o[i].description = gh_wire_get_str(w);
        o[i].default_value = gh_wire_get_str(w);
    }
    return o;
}

void gh_options_free(gh_option_info *o, size_t n)
{
    for (size_t i = 0; o && i < n; i++) {
        free((char *)o[i].name);
        free((char *)o[i].description);
        free((char *)o[i].default_value);
    }
    free(o);
}

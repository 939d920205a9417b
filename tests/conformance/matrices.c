#include <stdlib.h>
#include <string.h>

#include "matrices.h"
#include "seeded.h"

#include "gemmhost/half.h"

static size_t elem_size(gh_dtype d)
{
    return d == GH_F64 ? 8 : d == GH_F16 || d == GH_BF16 ? 2 : 4;
}

gh_status placed_make(const conformance *c, int device, placed *p, gh_dtype dtype, int64_t rows, int64_t cols,
                      int64_t pad, uint64_t offset, uint64_t tail, uint64_t *seed)
{
    *p = (placed){
        .dtype = dtype, .elem = elem_size(dtype), .rows = rows, .cols = cols, .ld = cols + pad, .offset = offset};
    p->elements = offset + (uint64_t)(rows - 1) * (uint64_t)p->ld + (uint64_t)cols + tail;
    p->image = malloc(p->elements * p->elem);
    if (!p->image) return GH_OUT_OF_MEMORY;
    /* One key per matrix, drawn by the host's generator (tests/support). */
    const uint64_t key = (*seed)++;
    for (uint64_t i = 0; i < p->elements; i++) placed_set(p, i, gh_test_seeded_value(dtype, key, 0, i));
    gh_status s = c->api->buffer_alloc(c->ctx, device, p->elements * p->elem, &p->buf);
    if (s != GH_OK) p->buf = NULL;
    return s;
}

void placed_free(const conformance *c, placed *p)
{
    if (p->buf) c->api->buffer_free(c->ctx, p->buf);
    free(p->image);
    memset(p, 0, sizeof *p);
}

double placed_get(const placed *p, const unsigned char *image, uint64_t index)
{
    const unsigned char *at = image + index * p->elem;
    switch (p->dtype) {
    case GH_F32: {
        float f;
        memcpy(&f, at, 4);
        return f;
    }
    case GH_F64: {
        double d;
        memcpy(&d, at, 8);
        return d;
    }
    case GH_F16:
    case GH_BF16: {
        uint16_t h;
        memcpy(&h, at, 2);
        return p->dtype == GH_F16 ? gh_f16_to_f64(h) : gh_bf16_to_f64(h);
    }
    default: {
        int32_t i;
        memcpy(&i, at, 4);
        return i;
    }
    }
}

void placed_set(placed *p, uint64_t index, double value)
{
    unsigned char *at = p->image + index * p->elem;
    switch (p->dtype) {
    case GH_F32: {
        float f = (float)value;
        memcpy(at, &f, 4);
        break;
    }
    case GH_F64: memcpy(at, &value, 8); break;
    case GH_F16:
    case GH_BF16: {
        uint16_t h = p->dtype == GH_F16 ? gh_f64_to_f16(value) : gh_f64_to_bf16(value);
        memcpy(at, &h, 2);
        break;
    }
    default: {
        int32_t i = (int32_t)value;
        memcpy(at, &i, 4);
        break;
    }
    }
}

uint64_t placed_index(const placed *p, int64_t r, int64_t col)
{
    return p->offset + (uint64_t)r * (uint64_t)p->ld + (uint64_t)col;
}

int placed_inside(const placed *p, uint64_t index)
{
    if (index < p->offset) return 0;
    uint64_t rel = index - p->offset;
    return rel / (uint64_t)p->ld < (uint64_t)p->rows && rel % (uint64_t)p->ld < (uint64_t)p->cols;
}

gh_status placed_upload(const conformance *c, const placed *p)
{
    return c->api->upload(c->ctx, p->buf, 0, p->image, p->elements * p->elem);
}

gh_status placed_download(const conformance *c, const placed *p, unsigned char *out)
{
    return c->api->download(c->ctx, p->buf, 0, out, p->elements * p->elem);
}

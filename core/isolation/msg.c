/* The codec's engine: walks a message's table of fields; see msg.h. */
#include "msg.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const unsigned char *at(const void *msg, size_t offset)
{
    return (const unsigned char *)msg + offset;
}

static uint64_t read_uint(const void *msg, size_t offset, size_t width)
{
    if (width == 4) {
        uint32_t v;
        memcpy(&v, at(msg, offset), 4);
        return v;
    }
    uint64_t v;
    memcpy(&v, at(msg, offset), 8);
    return v;
}

static void write_uint(void *msg, size_t offset, size_t width, uint64_t v)
{
    if (width == 4) {
        uint32_t v32 = (uint32_t)v;
        memcpy((unsigned char *)msg + offset, &v32, 4);
    } else {
        memcpy((unsigned char *)msg + offset, &v, 8);
    }
}

static void *read_ptr(const void *msg, size_t offset)
{
    void *p;
    memcpy(&p, at(msg, offset), sizeof p);
    return p;
}

static void write_ptr(void *msg, size_t offset, const void *p)
{
    memcpy((unsigned char *)msg + offset, &p, sizeof p);
}

/* Whether a sized struct (as the plugin wrote it) holds the field: a list
 * needs its count too. */
static int present(const gh_msg_desc *d, const void *msg, const gh_field *f)
{
    if (!d->sized) return 1;
    size_t size = (size_t)read_uint(msg, 0, sizeof(size_t));
    size_t end = f->offset + f->width;
    if (f->kind == GH_FIELD_LIST || f->kind == GH_FIELD_FLAGGED_LIST) end = f->count_offset + sizeof(size_t);
    return size >= end;
}

static void put_list(gh_wire *w, const gh_field *f, const void *msg, int here)
{
    const unsigned char *items = here ? read_ptr(msg, f->offset) : NULL;
    uint64_t n = here ? read_uint(msg, f->count_offset, sizeof(size_t)) : 0;
    if (f->kind == GH_FIELD_LIST) {
        gh_wire_u64(w, items ? n : 0);
    } else {
        gh_wire_u64(w, n);
        gh_wire_u32(w, items != NULL);
    }
    for (uint64_t i = 0; items && i < n && !w->bad; i++) gh_msg_put(w, f->nested, items + i * f->nested->size);
}

void gh_msg_put(gh_wire *w, const gh_msg_desc *d, const void *msg)
{
    for (size_t i = 0; i < d->n_fields && !w->bad; i++) {
        const gh_field *f = &d->fields[i];
        int here = present(d, msg, f);
        switch (f->kind) {
        case GH_FIELD_U32: gh_wire_u32(w, here ? (uint32_t)read_uint(msg, f->offset, 4) : 0); break;
        case GH_FIELD_U64:
        case GH_FIELD_I64:
        case GH_FIELD_F64:
        case GH_FIELD_SIZE: gh_wire_u64(w, here ? read_uint(msg, f->offset, 8) : 0); break;
        case GH_FIELD_PTR: gh_wire_u64(w, here ? (uint64_t)(uintptr_t)read_ptr(msg, f->offset) : 0); break;
        case GH_FIELD_STR: gh_wire_str(w, here ? read_ptr(msg, f->offset) : NULL); break;
        case GH_FIELD_STR_SET: {
            const char *s = here ? read_ptr(msg, f->offset) : NULL;
            gh_wire_str(w, s ? s : "");
            break;
        }
        case GH_FIELD_STRUCT: gh_msg_put(w, f->nested, at(msg, f->offset)); break;
        case GH_FIELD_OPTIONAL: {
            const void *p = here ? read_ptr(msg, f->offset) : NULL;
            gh_wire_u32(w, p != NULL);
            if (p) gh_msg_put(w, f->nested, p);
            break;
        }
        case GH_FIELD_LIST:
        case GH_FIELD_FLAGGED_LIST: put_list(w, f, msg, here); break;
        }
    }
}

/* A count the decoder may allocate for: never more entries than bytes left
 * (every element takes at least one). */
static uint64_t get_count(gh_wire *w)
{
    uint64_t n = gh_wire_get_u64(w);
    if (n > w->len - w->pos) w->bad = 1;
    return w->bad ? 0 : n;
}

static void get_list(gh_wire *w, const gh_field *f, void *msg)
{
    uint64_t n;
    int has;
    if (f->kind == GH_FIELD_LIST) {
        n = get_count(w);
        has = n > 0;
    } else {
        n = gh_wire_get_u64(w); /* any count without a list: the plugin refuses what it was given */
        has = gh_wire_get_u32(w) != 0;
        if (has && n > w->len - w->pos) w->bad = 1;
    }
    write_uint(msg, f->count_offset, sizeof(size_t), n);
    if (!has || w->bad) return;
    unsigned char *items = gh_xcalloc(n ? (size_t)n : 1, f->nested->size);
    write_ptr(msg, f->offset, items);
    for (uint64_t i = 0; i < n && !w->bad; i++) gh_msg_get(w, f->nested, items + i * f->nested->size);
}

/* Decodes into msg; what it allocated stays there, for gh_msg_free. */
static void get_fields(gh_wire *w, const gh_msg_desc *d, void *msg)
{
    for (size_t i = 0; i < d->n_fields && !w->bad; i++) {
        const gh_field *f = &d->fields[i];
        switch (f->kind) {
        case GH_FIELD_U32: write_uint(msg, f->offset, 4, gh_wire_get_u32(w)); break;
        case GH_FIELD_U64:
        case GH_FIELD_I64:
        case GH_FIELD_F64: write_uint(msg, f->offset, 8, gh_wire_get_u64(w)); break;
        case GH_FIELD_SIZE: {
            uint64_t size = gh_wire_get_u64(w);
            write_uint(msg, f->offset, 8, size < d->size ? size : d->size);
            break;
        }
        case GH_FIELD_PTR: write_ptr(msg, f->offset, (void *)(uintptr_t)gh_wire_get_u64(w)); break;
        case GH_FIELD_STR:
        case GH_FIELD_STR_SET: write_ptr(msg, f->offset, gh_wire_get_str(w)); break;
        case GH_FIELD_STRUCT: get_fields(w, f->nested, (unsigned char *)msg + f->offset); break;
        case GH_FIELD_OPTIONAL:
            if (gh_wire_get_u32(w) && !w->bad) {
                void *p = gh_xcalloc(1, f->nested->size);
                write_ptr(msg, f->offset, p);
                get_fields(w, f->nested, p);
            }
            break;
        case GH_FIELD_LIST:
        case GH_FIELD_FLAGGED_LIST: get_list(w, f, msg); break;
        }
    }
}

int gh_msg_get(gh_wire *w, const gh_msg_desc *d, void *msg)
{
    memset(msg, 0, d->size);
    get_fields(w, d, msg);
    if (!w->bad) return 0;
    gh_msg_free(d, msg);
    memset(msg, 0, d->size);
    return -1;
}

void gh_msg_free(const gh_msg_desc *d, void *msg)
{
    for (size_t i = 0; msg && i < d->n_fields; i++) {
        const gh_field *f = &d->fields[i];
        void *p = f->kind >= GH_FIELD_STR && f->kind != GH_FIELD_SIZE && f->kind != GH_FIELD_STRUCT
                      ? read_ptr(msg, f->offset)
                      : NULL;
        switch (f->kind) {
        case GH_FIELD_STR:
        case GH_FIELD_STR_SET: free(p); break;
        case GH_FIELD_STRUCT: gh_msg_free(f->nested, (unsigned char *)msg + f->offset); break;
        case GH_FIELD_OPTIONAL:
            gh_msg_free(f->nested, p);
            free(p);
            break;
        case GH_FIELD_LIST:
        case GH_FIELD_FLAGGED_LIST: {
            uint64_t n = read_uint(msg, f->count_offset, sizeof(size_t));
            for (uint64_t j = 0; p && j < n; j++) gh_msg_free(f->nested, (unsigned char *)p + j * f->nested->size);
            free(p);
            break;
        }
        default: break;
        }
        if (p) write_ptr(msg, f->offset, NULL);
    }
}

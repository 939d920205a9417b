/* The worker messages' codec: each message is a C struct described by one
 * field list (an X-macro in its msg_*.h); that list makes the struct (for
 * the protocol's own messages), its table of fields, and so its encoder and
 * decoder, which walk the table. Adding a field touches the list only.
 *
 * A list is a macro taking X and the struct type T, with one X(T, KIND, member)
 * per field in wire order. KIND is one of the tokens below (u32 .. str for
 * scalars; the rest name a nested message) and picks both the member's C
 * declaration (GH_MSG_DECL_KIND) and its table entry (GH_MSG_FIELD_KIND).
 * The wire format is docs/isolation.md's "Messages". */
#ifndef GEMMHOST_MSG_H
#define GEMMHOST_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

typedef enum gh_field_kind {
    GH_FIELD_U32, /* 4 bytes: uint32_t, int32_t or an enum */
    GH_FIELD_U64, /* 8 bytes: uint64_t or size_t */
    GH_FIELD_I64,
    GH_FIELD_F64,
    GH_FIELD_PTR,         /* a pointer, as u64 (the worker's handles) */
    GH_FIELD_STR,         /* malloc'ed on decode; NULL stays NULL */
    GH_FIELD_STR_SET,     /* as STR, but NULL (or absent) is sent as "" */
    GH_FIELD_SIZE,        /* a sized struct's `size`: decoded as at most the struct's own */
    GH_FIELD_STRUCT,      /* a nested struct, inline */
    GH_FIELD_OPTIONAL,    /* a pointer to a struct: u32 present, then the struct */
    GH_FIELD_LIST,        /* `m` and `n_m`: u64 count, then the elements (NULL for none) */
    GH_FIELD_FLAGGED_LIST /* `m` and `n_m`: u64 count, u32 m != NULL, then the elements if so */
} gh_field_kind;

typedef struct gh_msg_desc gh_msg_desc;

typedef struct gh_field {
    const char *name;
    gh_field_kind kind;
    size_t offset, width;      /* the member's */
    size_t count_offset;       /* lists: where n_m is */
    const gh_msg_desc *nested; /* STRUCT, OPTIONAL, lists: the element */
} gh_field;

struct gh_msg_desc {
    const char *name;
    size_t size;
    /* Whether the struct starts with `size` (the plugin ABI's structs): a
     * member past a plugin's shorter struct is sent as zero or NULL. */
    int sized;
    const gh_field *fields;
    size_t n_fields;
};

/* Appends msg to w (w->bad when it does not fit). */
void gh_msg_put(gh_wire *w, const gh_msg_desc *d, const void *msg);
/* Reads msg from w at its position. Returns 0, or -1 with w->bad set and
 * msg zeroed (nothing left allocated) when the message is short or its
 * counts pass its end. Free a decoded msg with gh_msg_free. */
int gh_msg_get(gh_wire *w, const gh_msg_desc *d, void *msg);
/* Frees what gh_msg_get allocated in msg (not msg itself). */
void gh_msg_free(const gh_msg_desc *d, void *msg);

/* ---- making the struct and the table from a field list ---- */

#define GH_MSG_DECL_u32(m)       uint32_t m;
#define GH_MSG_DECL_u64(m)       uint64_t m;
#define GH_MSG_DECL_i64(m)       int64_t m;
#define GH_MSG_DECL_f64(m)       double m;
#define GH_MSG_DECL_str(m)       char *m;
#define GH_MSG_DECL_STRUCT(T, m) T m;
#define GH_MSG_DECL_LIST(T, m) \
    T *m;                      \
    size_t n_##m;

#define GH_MSG_ENTRY(T, kind, m, nested) {#m, kind, offsetof(T, m), sizeof(((T *)0)->m), 0, nested},
#define GH_MSG_LIST_ENTRY(T, kind, m, nested) \
    {#m, kind, offsetof(T, m), sizeof(((T *)0)->m), offsetof(T, n_##m), nested},
#define GH_MSG_FIELD_u32(T, m)     GH_MSG_ENTRY(T, GH_FIELD_U32, m, NULL)
#define GH_MSG_FIELD_u64(T, m)     GH_MSG_ENTRY(T, GH_FIELD_U64, m, NULL)
#define GH_MSG_FIELD_i64(T, m)     GH_MSG_ENTRY(T, GH_FIELD_I64, m, NULL)
#define GH_MSG_FIELD_f64(T, m)     GH_MSG_ENTRY(T, GH_FIELD_F64, m, NULL)
#define GH_MSG_FIELD_ptr(T, m)     GH_MSG_ENTRY(T, GH_FIELD_PTR, m, NULL)
#define GH_MSG_FIELD_str(T, m)     GH_MSG_ENTRY(T, GH_FIELD_STR, m, NULL)
#define GH_MSG_FIELD_str_set(T, m) GH_MSG_ENTRY(T, GH_FIELD_STR_SET, m, NULL)
#define GH_MSG_FIELD_size(T, m)    GH_MSG_ENTRY(T, GH_FIELD_SIZE, m, NULL)

/* In a msg_*.h, the one line after a field list: GH_MSG(T, LIST) makes the
 * struct of a protocol message, its calls and its table; GH_MSG_OF(T, LIST,
 * SIZED) the calls and table of a struct defined elsewhere (the plugin
 * ABI's; SIZED: it starts with `size`). The tables are defined once, where
 * msg_tables.c includes the headers with GH_MSG_TABLES defined. */
#define GH_MSG_STRUCT_MEMBER(T, kind, m) GH_MSG_DECL_##kind(m)
#define GH_MSG(T, LIST)               \
    typedef struct T {                \
        LIST(GH_MSG_STRUCT_MEMBER, T) \
    } T;                              \
    GH_MSG_OF(T, LIST, 0)
#define GH_MSG_OF(T, LIST, SIZED) \
    GH_MSG_DECLARE_CALLS(T)       \
    GH_MSG_TABLE(T, LIST, SIZED)
#define GH_MSG_DECLARE_CALLS(T)                        \
    extern const gh_msg_desc T##_desc;                 \
    static inline void T##_put(gh_wire *w, const T *m) \
    {                                                  \
        gh_msg_put(w, &T##_desc, m);                   \
    }                                                  \
    static inline int T##_get(gh_wire *w, T *m)        \
    {                                                  \
        return gh_msg_get(w, &T##_desc, m);            \
    }                                                  \
    static inline void T##_clear(T *m)                 \
    {                                                  \
        gh_msg_free(&T##_desc, m);                     \
    }

/* The table, from the same list (in msg_tables.c only). */
#define GH_MSG_TABLE_ENTRY(T, kind, m) GH_MSG_FIELD_##kind(T, m)
#ifdef GH_MSG_TABLES
#define GH_MSG_TABLE(T, LIST, SIZED)                                    \
    static const gh_field T##_fields[] = {LIST(GH_MSG_TABLE_ENTRY, T)}; \
    const gh_msg_desc T##_desc = {#T, sizeof(T), SIZED, T##_fields, sizeof T##_fields / sizeof T##_fields[0]};
#else
#define GH_MSG_TABLE(T, LIST, SIZED)
#endif

#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx_rewrite.h"

char *ocl_ptx_to_sm90a(const char *ptx, const char **why)
{
    static const char target[] = ".target sm_";
    const char *t = strstr(ptx, target);
    if (!t) {
        *why = "the program's PTX has no .target directive";
        return NULL;
    }
    char *out = malloc(strlen(ptx) + sizeof "90a");
    if (!out) {
        *why = "out of host memory for the PTX";
        return NULL;
    }
    /* Up to the architecture's number, then "90a" for it, then the rest
     * with the marks dropped. */
    const char *arch = t + sizeof target - 1, *rest = arch;
    while (*rest >= '0' && *rest <= '9') rest++;
    while (*rest >= 'a' && *rest <= 'z') rest++; /* a suffix already there */
    char *o = out;
    const size_t mark = strlen(OCL_SM90A_MARK);
    for (const char *p = ptx; *p;) {
        if (p == arch) {
            memcpy(o, "90a", 3);
            o += 3;
            p = rest;
        } else if (strncmp(p, OCL_SM90A_MARK, mark) == 0) {
            p += mark;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return out;
}

/* Whether the text from its line's start to at holds "//" (at is in a comment). */
static int in_comment(const char *start, const char *at)
{
    const char *line = at;
    while (line > start && line[-1] != '\n') line--;
    for (const char *p = line; p + 1 < at; p++)
        if (p[0] == '/' && p[1] == '/') return 1;
    return 0;
}

/* The next ".entry" directive in ptx from `from` on (a word of its own, not
 * in a comment), or NULL. */
static const char *next_entry(const char *ptx, const char *from)
{
    for (const char *e = strstr(from, ".entry"); e; e = strstr(e + 1, ".entry")) {
        const char before = e == ptx ? ' ' : e[-1], after = e[sizeof ".entry" - 1];
        if ((before == ' ' || before == '\t' || before == '\n') && (after == ' ' || after == '\t') &&
            !in_comment(ptx, e))
            return e;
    }
    return NULL;
}

char *ocl_ptx_cap_registers(const char *ptx, unsigned max_registers, const char **why)
{
    char directive[32];
    const int directive_len = snprintf(directive, sizeof directive, ".maxnreg %u\n", max_registers);
    size_t entries = 0;
    for (const char *e = next_entry(ptx, ptx); e; e = next_entry(ptx, e + 1)) {
        const char *body = strchr(e, '{');
        if (!body) {
            *why = "an .entry in the program's PTX has no body";
            return NULL;
        }
        const char *cap = strstr(e, ".maxnreg");
        if (cap && cap < body) {
            *why = "an .entry in the program's PTX already has a .maxnreg";
            return NULL;
        }
        entries++;
    }
    if (!entries) {
        *why = "the program's PTX has no .entry";
        return NULL;
    }
    char *out = malloc(strlen(ptx) + entries * (size_t)directive_len + 1);
    if (!out) {
        *why = "out of host memory for the PTX";
        return NULL;
    }
    /* Copy up to each entry's body, the directive, then on. */
    char *o = out;
    const char *p = ptx;
    for (const char *e = next_entry(ptx, ptx); e; e = next_entry(ptx, e + 1)) {
        const char *body = strchr(e, '{');
        memcpy(o, p, (size_t)(body - p));
        o += body - p;
        memcpy(o, directive, (size_t)directive_len);
        o += directive_len;
        p = body;
    }
    strcpy(o, p);
    return out;
}

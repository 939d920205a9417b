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

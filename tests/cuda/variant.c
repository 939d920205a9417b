/* See variant.h. */
#include "variant.h"

#include <stdio.h>
#include <string.h>

size_t n_params_of(const variant *v)
{
    if (strcmp(v->kernel, "warptile") == 0) return 9;
    if (strcmp(v->kernel, "mma") == 0) return 6;
    if (strcmp(v->kernel, "wgmma") == 0)
        return 6; /* bm, bn, stages, promote (0 unless FP8), cluster (1, 2), persistent (0, 1) */
    return v->params[0] ? (v->params[1] ? 2 : 1) : 0;
}

void variant_name(const variant *v, char *out, size_t size)
{
    if (strcmp(v->kernel, "warptile") == 0) {
        const int64_t *p = v->params;
        snprintf(out, size, "warptile %lldx%lldx%lld warp %lldx%lld thread %lldx%lld stages %lld minblocks %lld",
                 (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3], (long long)p[4], (long long)p[5],
                 (long long)p[6], (long long)p[7], (long long)p[8]);
        return;
    }
    if (strcmp(v->kernel, "mma") == 0) {
        const int64_t *p = v->params;
        snprintf(out, size, "mma %lldx%lldx%lld warp %lldx%lld stages %lld", (long long)p[0], (long long)p[1],
                 (long long)p[2], (long long)p[3], (long long)p[4], (long long)p[5]);
        return;
    }
    if (strcmp(v->kernel, "wgmma") == 0) {
        snprintf(out, size, "wgmma %lldx%lld stages %lld promote %lld cluster %lld persistent %lld",
                 (long long)v->params[0], (long long)v->params[1], (long long)v->params[2], (long long)v->params[3],
                 (long long)v->params[4], (long long)v->params[5]);
        return;
    }
    if (v->params[1])
        snprintf(out, size, "%s tile=%lld work=%lld", v->kernel, (long long)v->params[0], (long long)v->params[1]);
    else if (v->params[0]) snprintf(out, size, "%s tile=%lld", v->kernel, (long long)v->params[0]);
    else snprintf(out, size, "%s", v->kernel);
}

/* The agreement line; see agreement_text.h. Member labels come from run.c
 * as "backend/device/kernel[ params]". */
#include "agreement_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"

typedef struct member {
    const char *backend, *device, *what; /* parts of the label */
    size_t backend_len, device_len;
    size_t group;
} member;

static member split_label(const char *label, size_t group)
{
    member m = {label, "", label, strlen(label), 0, group};
    const char *slash = strchr(label, '/');
    if (!slash) return m; /* not from run.c: shown whole */
    m.backend_len = (size_t)(slash - label);
    m.device = slash + 1;
    const char *slash2 = strchr(m.device, '/');
    if (!slash2) {
        m.what = m.device;
        m.device = "";
        return m;
    }
    m.device_len = (size_t)(slash2 - m.device);
    m.what = slash2 + 1;
    return m;
}

static int same_backend(const member *a, const member *b)
{
    return a->backend_len == b->backend_len && strncmp(a->backend, b->backend, a->backend_len) == 0;
}

static int same_device(const member *a, const member *b)
{
    return a->device_len == b->device_len && strncmp(a->device, b->device, a->device_len) == 0;
}

/* What the case ran of m's backend: its results, in how many groups, on how many devices. */
typedef struct backend_stats {
    size_t results, devices;
    int one_group;
} backend_stats;

static backend_stats stats_of(const member *all, size_t n, const member *m)
{
    backend_stats s = {0, 0, 1};
    for (size_t i = 0; i < n; i++) {
        if (!same_backend(&all[i], m)) continue;
        s.results++;
        if (all[i].group != m->group) s.one_group = 0;
        size_t first = 0; /* count each device once: at its first result */
        while (!(same_backend(&all[first], m) && same_device(&all[first], &all[i]))) first++;
        if (first == i) s.devices++;
    }
    return s;
}

void gh_agreement_group_name(char *out, size_t size, size_t group)
{
    if (group < 26) snprintf(out, size, "%c", (char)('A' + group));
    else snprintf(out, size, "%zu", group + 1);
}

static void append_group(gh_sbuf *b, const member *all, size_t n, size_t group)
{
    size_t items = 0, more = 0;
    for (size_t i = 0; i < n; i++) {
        const member *m = &all[i];
        if (m->group != group) continue;
        int seen = 0; /* a whole backend is one item, at its first member */
        for (size_t j = 0; j < i && !seen; j++) seen = all[j].group == group && same_backend(&all[j], m);
        backend_stats s = stats_of(all, n, m);
        int whole = s.one_group && s.results > 1;
        if (whole && seen) continue;
        if (items == GH_AGREEMENT_ITEMS) {
            more++;
            continue;
        }
        gh_sb_puts(b, items++ ? ", " : "");
        gh_sb_putn(b, m->backend, m->backend_len);
        if (whole) {
            gh_sb_printf(b, " x%zu", s.results);
            continue;
        }
        if (s.devices > 1) {
            gh_sb_putc(b, '/');
            gh_sb_putn(b, m->device, m->device_len);
        }
        gh_sb_printf(b, " %s", m->what);
    }
    if (more) gh_sb_printf(b, ", +%zu more", more);
}

char *gh_agreement_line(const gh_agreement *a)
{
    gh_sbuf b = {0};
    char trans[3];
    gh_trans_name(trans, a->trans_a, a->trans_b);
    gh_sb_printf(&b, "agreement %s %s %lldx%lldx%lld: ", gh_dtype_name(a->dtype), trans, (long long)a->m,
                 (long long)a->n, (long long)a->k);
    size_t n = 0;
    for (size_t g = 0; g < a->n_groups; g++) n += a->groups[g].n_members;
    if (a->n_groups == 0) {
        gh_sb_puts(&b, "no outputs");
        return gh_sb_take(&b);
    }
    if (a->n_groups == 1) {
        gh_sb_printf(&b, "1 group, identical outputs (%s%zu result%s)", n > 1 ? "all " : "", n, n == 1 ? "" : "s");
        return gh_sb_take(&b);
    }
    member *all = calloc(n, sizeof *all);
    if (!all) {
        free(gh_sb_take(&b));
        return NULL;
    }
    size_t k = 0;
    for (size_t g = 0; g < a->n_groups; g++)
        for (size_t m = 0; m < a->groups[g].n_members; m++) all[k++] = split_label(a->groups[g].members[m], g);
    gh_sb_printf(&b, "%zu groups (", a->n_groups);
    for (size_t g = 0; g < a->n_groups; g++) {
        char name[24];
        gh_agreement_group_name(name, sizeof name, g);
        gh_sb_printf(&b, "%s%s: ", g ? "; " : "", name);
        append_group(&b, all, n, g);
    }
    double d = a->max_diff_in_bounds;
    gh_sb_printf(&b, "), max diff %.3g of the bound%s", d, d > 1 || isnan(d) ? " (BEYOND)" : "");
    free(all);
    return gh_sb_take(&b);
}

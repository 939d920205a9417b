/* The first screen; see first_screen.h. */
#include "first_screen.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agreement_text.h"
#include "encode.h"
#include "util.h"

/* Results group by type: groups 0 .. GH_DTYPE_COUNT - 1 are the dtypes (an
 * 8-bit one with default types when its combination found no room), then each
 * 8-bit type combination seen ("e4m3xe5m2->f32"), as it comes. */
enum { N_STATUS = GH_RESULT_CANCELLED + 1, MAX_DISAGREEING = 5, MAX_GROUPS = GH_DTYPE_COUNT + 24 };

/* Short titles, so a line with every dtype still fits: gh_result_status order. */
static const char *const status_titles[N_STATUS] = {"pass",  "fail",  "unsup", "error",
                                                    "unchk", "crash", "tmout", "cancl"};

typedef struct kernel_row {
    char *backend, *device, *kernel; /* kernel: with its params */
    size_t count[N_STATUS];
    double best[MAX_GROUPS]; /* best GFLOP/s of the results that ran, per type group; < 0: none */
    char *why_unsupported;   /* the first unsupported result's reason; NULL: none */
} kernel_row;

typedef struct dtype_verdict {
    size_t cases, compared, agree; /* compared: two results or more */
    double worst;                  /* largest difference / bound over the compared cases */
    char *worst_where;             /* "129x31x65 tt, opencl/0/tiled vs cpu/0/naive" */
    gh_strlist results, backends;  /* distinct labels and backends that took part */
    gh_strlist disagreeing;        /* agreement lines of cases beyond the bound, the first few */
    size_t n_disagreeing;
} dtype_verdict;

typedef struct fastest {
    double gflops; /* < 0: none */
    char *where;   /* "opencl 0:pthread-..." (shortened to fit) */
    char *what;    /* "tiled tile=16, 129x31x65 tt" */
} fastest;

struct gh_first_screen {
    kernel_row *rows;
    size_t n_rows;
    char group_name[MAX_GROUPS][48]; /* "f32", "e4m3xe5m2->f32" */
    int n_groups;                    /* GH_DTYPE_COUNT and the combinations after them */
    int seen[MAX_GROUPS];            /* a result of the group came */
    int last_group[GH_DTYPE_COUNT];  /* the latest result's group of each dtype: its case's agreement's */
    dtype_verdict verdict[MAX_GROUPS];
    fastest best[MAX_GROUPS];
};

gh_first_screen *gh_first_screen_new(void)
{
    gh_first_screen *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    for (int g = 0; g < MAX_GROUPS; g++) s->best[g].gflops = -1;
    for (int d = 0; d < GH_DTYPE_COUNT; d++) {
        snprintf(s->group_name[d], sizeof s->group_name[d], "%s", gh_dtype_name((gh_dtype)d));
        s->last_group[d] = d;
    }
    s->n_groups = GH_DTYPE_COUNT;
    return s;
}

void gh_first_screen_free(gh_first_screen *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->n_rows; i++) {
        free(s->rows[i].backend);
        free(s->rows[i].device);
        free(s->rows[i].kernel);
        free(s->rows[i].why_unsupported);
    }
    free(s->rows);
    for (int g = 0; g < MAX_GROUPS; g++) {
        free(s->verdict[g].worst_where);
        gh_sl_free(&s->verdict[g].results);
        gh_sl_free(&s->verdict[g].backends);
        gh_sl_free(&s->verdict[g].disagreeing);
        free(s->best[g].where);
        free(s->best[g].what);
    }
    free(s);
}

/* ------------------------------------------------------------------------ */
/* Gathering. */

static int same(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static kernel_row *row_for(gh_first_screen *s, const char *backend, const char *device, const char *kernel)
{
    for (size_t i = s->n_rows; i-- > 0;) {
        kernel_row *r = &s->rows[i];
        if (same(r->backend, backend) && same(r->device, device) && same(r->kernel, kernel)) return r;
    }
    s->rows = gh_xrealloc(s->rows, (s->n_rows + 1) * sizeof *s->rows);
    kernel_row *r = &s->rows[s->n_rows++];
    memset(r, 0, sizeof *r);
    r->backend = gh_strdup(backend ? backend : "-");
    r->device = gh_strdup(device ? device : "-");
    r->kernel = gh_strdup(kernel);
    for (int g = 0; g < MAX_GROUPS; g++) r->best[g] = -1;
    return r;
}

/* The result's type group: its dtype, or its 8-bit type combination. */
static int group_of(gh_first_screen *s, const gh_result *res)
{
    const gh_case_types *t = &res->types;
    if (!t->explicit_types) return (int)res->dtype;
    char name[sizeof s->group_name[0]];
    snprintf(name, sizeof name, "%sx%s->%s", gh_dtype_name(res->dtype), gh_dtype_name(t->b), gh_dtype_name(t->c));
    int g = GH_DTYPE_COUNT;
    while (g < s->n_groups && strcmp(s->group_name[g], name) != 0) g++;
    if (g == MAX_GROUPS) return (int)res->dtype; /* no room: with its A type */
    if (g == s->n_groups) snprintf(s->group_name[s->n_groups++], sizeof name, "%s", name);
    return g;
}

static void shape_text(char *out, size_t size, gh_dtype dtype, int trans_a, int trans_b, int64_t m, int64_t n,
                       int64_t k)
{
    (void)dtype;
    char trans[3];
    gh_trans_name(trans, trans_a, trans_b);
    snprintf(out, size, "%" PRId64 "x%" PRId64 "x%" PRId64 " %s", m, n, k, trans);
}

void gh_first_screen_result(gh_first_screen *s, const gh_result *res, const char *device_label)
{
    if (!s || !res || (unsigned)res->dtype >= GH_DTYPE_COUNT) return;
    char *kernel = gh_strdupf("%s%s%s", res->kernel ? res->kernel : "-", res->params[0] ? " " : "", res->params);
    kernel_row *r = row_for(s, res->backend, device_label, kernel);
    if ((int)res->status < N_STATUS) r->count[res->status]++;
    if (res->status == GH_RESULT_UNSUPPORTED && !r->why_unsupported && res->detail[0])
        r->why_unsupported = gh_strdup(res->detail);
    const int g = group_of(s, res);
    s->seen[g] = 1;
    s->last_group[res->dtype] = g;
    int ran = res->status == GH_RESULT_PASS || res->status == GH_RESULT_UNCHECKED;
    if (ran && res->repeats > 0 && res->gflops > r->best[g]) r->best[g] = res->gflops;
    fastest *f = &s->best[g];
    if (res->status == GH_RESULT_PASS && res->repeats > 0 && res->gflops > f->gflops) {
        char shape[96];
        shape_text(shape, sizeof shape, res->dtype, res->trans_a, res->trans_b, res->m, res->n, res->k);
        free(f->where);
        free(f->what);
        f->gflops = res->gflops;
        f->where = gh_strdupf("%s %s", res->backend ? res->backend : "-", device_label);
        char types[128] = ""; /* an 8-bit case: C's type (B's when it differs, the scales when not 1) */
        if (res->types.explicit_types) gh_result_types_label(res, types, sizeof types);
        f->what = gh_strdupf("%s, %s%s%s%s", kernel, shape, *types ? " (" : "", types, *types ? ")" : "");
    }
    free(kernel);
}

/* The backend of a label "backend/device/kernel[ params]". */
static char *label_backend(const char *label)
{
    const char *slash = strchr(label, '/');
    return gh_strdupf("%.*s", (int)(slash ? (size_t)(slash - label) : strlen(label)), label);
}

static void add_unique(gh_strlist *l, char *s)
{
    if (!s || gh_sl_contains(l, s) || gh_sl_push(l, s) != 0) free(s);
}

void gh_first_screen_agreement(gh_first_screen *s, const gh_agreement *a)
{
    if (!s || !a || (unsigned)a->dtype >= GH_DTYPE_COUNT) return;
    dtype_verdict *v = &s->verdict[s->last_group[a->dtype]]; /* the case's results came just before */
    size_t members = 0;
    for (size_t g = 0; g < a->n_groups; g++)
        for (size_t m = 0; m < a->groups[g].n_members; m++, members++) {
            add_unique(&v->results, gh_strdup(a->groups[g].members[m]));
            add_unique(&v->backends, label_backend(a->groups[g].members[m]));
        }
    v->cases++;
    if (members < 2) return; /* nothing to compare it with */
    v->compared++;
    double d = a->max_diff_in_bounds;
    int agrees = a->n_groups <= 1 || d <= 1;
    v->agree += agrees;
    if (!agrees && v->n_disagreeing++ < MAX_DISAGREEING) add_unique(&v->disagreeing, gh_agreement_line(a));
    if (a->n_groups < 2 || !(isnan(d) || d > v->worst || !v->worst_where)) return;
    v->worst = d;
    char shape[96];
    shape_text(shape, sizeof shape, a->dtype, a->trans_a, a->trans_b, a->m, a->n, a->k);
    free(v->worst_where);
    size_t x = a->worst[0], y = a->worst[1];
    if (x != y && x < a->n_groups && y < a->n_groups && a->groups[x].n_members && a->groups[y].n_members)
        v->worst_where = gh_strdupf("%s, %s vs %s", shape, a->groups[x].members[0], a->groups[y].members[0]);
    else v->worst_where = gh_strdup(shape);
}

/* ------------------------------------------------------------------------ */
/* Printing. */

/* s cut to `width` characters (not bytes), ending in ".." when cut. */
static void put_cut(gh_sbuf *b, const char *s, int width)
{
    int cols = 0;
    size_t n = 0, len = strlen(s);
    for (; n < len; n++) {
        int starts = ((unsigned char)s[n] & 0xC0) != 0x80;
        if (starts && cols == width) break;
        cols += starts;
    }
    if (n < len && width >= 3) { /* back off for the ".." */
        for (int back = 0; back < 2 && n > 0;) {
            n--;
            if (((unsigned char)s[n] & 0xC0) != 0x80) back++;
        }
        gh_sb_putn(b, s, n);
        gh_sb_puts(b, "..");
        cols = width;
    } else {
        gh_sb_putn(b, s, n);
    }
    for (; cols < width; cols++) gh_sb_putc(b, ' ');
}

static int text_width(const char *s)
{
    int cols = 0;
    for (; *s; s++) cols += ((unsigned char)*s & 0xC0) != 0x80;
    return cols;
}

static void put_line(FILE *out, gh_sbuf *b)
{
    while (b->len > 0 && b->s[b->len - 1] == ' ') b->len--;
    gh_sb_putc(b, '\n');
    if (!b->oom) fputs(b->s, out);
    b->len = 0;
    if (b->s) b->s[0] = '\0';
}

static int status_shown(const gh_first_screen *s, int st)
{
    if (st <= GH_RESULT_UNSUPPORTED) return 1;
    for (size_t i = 0; i < s->n_rows; i++)
        if (s->rows[i].count[st]) return 1;
    return 0;
}

static void gflops_text(char *out, size_t size, double g)
{
    if (g < 0) snprintf(out, size, "-");
    else if (g < 1e5) snprintf(out, size, "%.1f", g);
    else snprintf(out, size, "%.3g", g);
}

/* A type group's GFLOP/s column: 7 wide, or as wide as its name. */
static int group_width(const gh_first_screen *s, int g)
{
    int w = text_width(s->group_name[g]);
    return w > 7 ? w : 7;
}

void gh_first_screen_kernels(const gh_first_screen *s, FILE *out)
{
    if (!s || !s->n_rows) return;
    enum { STATUS_W = 5, INDENT = 2 };
    int n_status = 0, groups_w = 0, kernel_w = (int)strlen("kernel");
    for (int st = 0; st < N_STATUS; st++) n_status += status_shown(s, st);
    for (int g = 0; g < s->n_groups; g++) groups_w += s->seen[g] ? group_width(s, g) + 1 : 0;
    for (size_t i = 0; i < s->n_rows; i++) {
        int w = text_width(s->rows[i].kernel);
        if (w > kernel_w) kernel_w = w;
    }
    int room = GH_FIRST_SCREEN_COLUMNS - INDENT - n_status * (STATUS_W + 1) - groups_w;
    if (kernel_w > room) kernel_w = room > 12 ? room : 12;
    gh_sbuf b = {0};
    fprintf(out, "\nper device and kernel: results of each status, best GFLOP/s per dtype\n");
    for (size_t i = 0; i < s->n_rows; i++) {
        const kernel_row *r = &s->rows[i];
        int new_device = i == 0 || !same(r->backend, s->rows[i - 1].backend) || !same(r->device, s->rows[i - 1].device);
        if (new_device) {
            char *head = gh_strdupf("%s %s", r->backend, r->device);
            put_cut(&b, head, GH_FIRST_SCREEN_COLUMNS);
            free(head);
            put_line(out, &b);
            gh_sb_printf(&b, "%*s", INDENT, "");
            put_cut(&b, "kernel", kernel_w);
            for (int st = 0; st < N_STATUS; st++)
                if (status_shown(s, st)) gh_sb_printf(&b, " %*s", STATUS_W, status_titles[st]);
            for (int g = 0; g < s->n_groups; g++)
                if (s->seen[g]) gh_sb_printf(&b, " %*s", group_width(s, g), s->group_name[g]);
            put_line(out, &b);
        }
        gh_sb_printf(&b, "%*s", INDENT, "");
        put_cut(&b, r->kernel, kernel_w);
        for (int st = 0; st < N_STATUS; st++)
            if (status_shown(s, st)) gh_sb_printf(&b, " %*zu", STATUS_W, r->count[st]);
        for (int g = 0; g < s->n_groups; g++) {
            if (!s->seen[g]) continue;
            char text[32];
            gflops_text(text, sizeof text, r->best[g]);
            gh_sb_printf(&b, " %*s", group_width(s, g), text);
        }
        put_line(out, &b);
        /* A kernel that ran nothing says why once, in full: it may be the one the user asked for. */
        size_t total = 0;
        for (int st = 0; st < N_STATUS; st++) total += r->count[st];
        if (r->why_unsupported && r->count[GH_RESULT_UNSUPPORTED] == total)
            fprintf(out, "%*s  none ran: %s\n", INDENT, "", r->why_unsupported);
    }
    free(gh_sb_take(&b));
}

/* The line, and its "(worst: ...)" under it when both would not fit. */
static void print_verdict(FILE *out, const char *line, const char *worst)
{
    if (!worst) {
        fprintf(out, "%s\n", line);
        return;
    }
    if (text_width(line) + text_width(worst) + 10 <= GH_FIRST_SCREEN_COLUMNS)
        fprintf(out, "%s (worst: %s)\n", line, worst);
    else fprintf(out, "%s\n    worst: %s\n", line, worst);
}

static void agreement_verdict(FILE *out, const char *name, const dtype_verdict *v)
{
    size_t nr = v->results.n, nb = v->backends.n;
    char who[96];
    snprintf(who, sizeof who, "%zu result%s on %zu backend%s", nr, nr == 1 ? "" : "s", nb, nb == 1 ? "" : "s");
    if (v->compared == 0) {
        fprintf(out, "agreement %s: nothing to compare (one result per case)\n", name);
        return;
    }
    char line[512];
    if (v->agree == v->compared && v->worst == 0) {
        snprintf(line, sizeof line, "agreement %s: all %zu cases identical across %s", name, v->compared, who);
        print_verdict(out, line, NULL);
    } else if (v->agree == v->compared) {
        snprintf(line, sizeof line, "agreement %s: all %zu cases agree within %.2g of the bound (%s)", name,
                 v->compared, v->worst, who);
        print_verdict(out, line, v->worst_where);
    } else {
        snprintf(line, sizeof line, "agreement %s: %zu of %zu cases DISAGREE beyond the bound (worst %.3g of it)", name,
                 v->compared - v->agree, v->compared, v->worst);
        print_verdict(out, line, v->worst_where);
        for (size_t i = 0; i < v->disagreeing.n; i++) fprintf(out, "  %s\n", v->disagreeing.items[i]);
        if (v->n_disagreeing > v->disagreeing.n)
            fprintf(out, "  (+%zu more: --verbose or the JSON's \"agreement\" lists them)\n",
                    v->n_disagreeing - v->disagreeing.n);
    }
}

void gh_first_screen_verdicts(const gh_first_screen *s, FILE *out)
{
    if (!s) return;
    int any = 0;
    for (int g = 0; g < s->n_groups; g++) {
        if (!s->verdict[g].cases) continue;
        if (!any++) fputc('\n', out);
        agreement_verdict(out, s->group_name[g], &s->verdict[g]);
    }
    any = 0;
    for (int d = 0; d < s->n_groups; d++) {
        const fastest *f = &s->best[d];
        if (f->gflops < 0 || !f->what || !f->where) continue;
        if (!any++) fputc('\n', out);
        char g[32];
        gflops_text(g, sizeof g, f->gflops);
        gh_sbuf b = {0};
        gh_sb_printf(&b, "fastest %s: %s GFLOP/s, ", s->group_name[d], g);
        int room = GH_FIRST_SCREEN_COLUMNS - text_width(b.s ? b.s : "") - text_width(f->what) - 1;
        int where = text_width(f->where);
        put_cut(&b, f->where, where < room ? where : room > 16 ? room : 16);
        gh_sb_printf(&b, " %s", f->what);
        put_line(out, &b);
        free(gh_sb_take(&b));
    }
}

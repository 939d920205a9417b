/* The probe on the terminal: a block per device and kernel, a line per
 * dtype and property, and under each mismatch the case that shows it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe_subject.h"

static int same_block(const probe_subject *a, const probe_subject *b)
{
    return !strcmp(a->backend, b->backend) && a->device_index == b->device_index && !strcmp(a->kernel, b->kernel) &&
           !strcmp(a->params, b->params);
}

static void print_value(FILE *out, double v)
{
    if (isnan(v)) fputs("nan", out);
    else fprintf(out, "%.9g", v);
}

/* The case and the elements that decided a finding, for a bug report. */
static void print_case(FILE *out, const probe_finding *f)
{
    if (!f->c) return;
    fprintf(out, "        case %s (%lldx%lldx%lld): %s\n", f->c->name, (long long)f->c->m, (long long)f->c->n,
            (long long)f->c->k, f->c->why);
    for (size_t e = 0; e < f->n_ev; e++) {
        fprintf(out, "        C[%lld][%lld] = ", (long long)f->ev[e].i, (long long)f->ev[e].j);
        print_value(out, f->ev[e].got);
        fputs(" (", out);
        print_value(out, f->ev[e].expected);
        fputs(" expected)\n", out);
    }
}

static void print_subject(FILE *out, const probe_subject *s)
{
    if (s->note[0]) {
        fprintf(out, "  %-5s %s\n", s->dtype_name, s->note);
        return;
    }
    fprintf(out, "  %-5s declares %s, %s\n", s->dtype_name, s->decl.inputs_text, s->decl.acc_text);
    for (size_t i = 0; i < s->findings.n; i++) {
        const probe_finding *f = &s->findings.items[i];
        char verdict[96];
        if (f->bits >= 0) snprintf(verdict, sizeof verdict, "%s, %d bits", f->verdict, f->bits);
        else if (f->every >= 0) snprintf(verdict, sizeof verdict, "%s %d", f->verdict, f->every);
        else snprintf(verdict, sizeof verdict, "%s", f->verdict);
        fprintf(out, "  %-5s %-18s %-24s %-8s %s\n", "", f->property, verdict, f->mismatch ? "MISMATCH" : "", f->text);
        if (f->mismatch) {
            if (f->declared[0]) fprintf(out, "        declares %s\n", f->declared);
            print_case(out, f);
        }
    }
}

void probe_table_print(const probe_subjects *all, FILE *out)
{
    fprintf(out, "arithmetic probe: per device and kernel, what each dtype's arithmetic does, measured\n");
    for (size_t i = 0; i < all->n; i++) {
        const probe_subject *s = &all->items[i];
        if (i == 0 || !same_block(s, &all->items[i - 1]))
            fprintf(out, "%s %s, kernel %s%s%s\n", s->backend, s->device, s->kernel, s->params[0] ? " " : "",
                    s->params);
        print_subject(out, s);
    }
}

/* Reading the config's text into raw sections; see config_ini.h. */
#define _POSIX_C_SOURCE 200809L
#include "config_ini.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "shown_value.h"
#include "util.h"

/* ---- memory and strings ------------------------------------------------ */

static void out_of_memory(void)
{
    fputs("gemmhost: out of memory while reading the config\n", stderr);
    abort();
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = strndup(s, n);
    if (!d) out_of_memory();
    return d;
}

/* Grows an array by one zeroed element and returns it. The array's room
 * doubles when its count reaches a power of two (every array this grows
 * starts empty and only grows here), so a 100,000-value list costs
 * 17 reallocations, not 100,000 copies. */
void *ini_push(void *array_ptr, size_t *count, size_t elem_size)
{
    void **array = array_ptr;
    const size_t n = *count;
    if (n == 0 || (n & (n - 1)) == 0) *array = gh_xrealloc(*array, (n ? 2 * n : 1) * elem_size);
    char *elem = (char *)*array + *count * elem_size;
    memset(elem, 0, elem_size);
    (*count)++;
    return elem;
}

int ini_is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Trims in place: returns the first non-blank, cuts trailing blanks. */
char *ini_trim(char *s)
{
    while (ini_is_blank(*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && ini_is_blank(s[n - 1])) s[--n] = '\0';
    return s;
}

void ini_free_strings(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* Splits "a, b ,c" into trimmed items. Returns -1 when an item is empty
 * ("a,,b", "a,"); an empty string gives no items. */
int ini_split_list(const char *value, char ***items, size_t *n)
{
    *items = NULL;
    *n = 0;
    char *copy = gh_strdup(value);
    if (*ini_trim(copy) == '\0') {
        free(copy);
        return 0;
    }
    int rc = 0;
    char *p = copy;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        char *item = ini_trim(p);
        if (*item == '\0') rc = -1;
        *(char **)ini_push(items, n, sizeof(char *)) = gh_strdup(item);
        if (!comma) break;
        p = comma + 1;
    }
    free(copy);
    if (rc) {
        ini_free_strings(*items, *n);
        *items = NULL;
        *n = 0;
    }
    return rc;
}

/* "a, b, c" from a list of names, for "allowed: ..." messages. */
void ini_join_names(const char *const *names, size_t n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", names[i]);
}

/* ---- the raw file: sections of text keys ------------------------------- */

static const char *const section_kind_names[] = {"run", "backend", "split"};

void ini_free_sections(loader *ld)
{
    for (size_t i = 0; i < ld->n_sections; i++) {
        section *s = &ld->sections[i];
        for (size_t j = 0; j < s->n_entries; j++) {
            free(s->entries[j].key);
            free(s->entries[j].value);
        }
        free(s->entries);
        free(s->name);
    }
    free(ld->sections);
    ld->sections = NULL;
    ld->n_sections = 0;
    ini_free_strings(ld->shown, ld->n_shown);
    ld->shown = NULL;
    ld->n_shown = 0;
}

static void section_label(const section *s, char *buf, size_t size)
{
    if (s->name) snprintf(buf, size, "[%s %s]", section_kind_names[s->kind], s->name);
    else snprintf(buf, size, "[%s]", section_kind_names[s->kind]);
}

section *ini_find_section(loader *ld, section_kind kind, const char *name)
{
    for (size_t i = 0; i < ld->n_sections; i++) {
        section *s = &ld->sections[i];
        if (s->kind == kind && (!name || (s->name && strcmp(s->name, name) == 0))) return s;
    }
    return NULL;
}

/* [run], created empty when the file has none. */
section *ini_run_section(loader *ld)
{
    section *run = ini_find_section(ld, SEC_RUN, NULL);
    if (!run) {
        run = ini_push(&ld->sections, &ld->n_sections, sizeof(section));
        run->kind = SEC_RUN;
    }
    return run;
}

entry *ini_find_entry(const section *s, const char *key)
{
    for (size_t i = 0; i < s->n_entries; i++)
        if (strcmp(s->entries[i].key, key) == 0) return &s->entries[i];
    return NULL;
}

static entry *add_entry(section *s, const char *key, const char *value, int line, const char *set_text)
{
    entry *e = ini_push(&s->entries, &s->n_entries, sizeof(entry));
    e->key = gh_strdup(key);
    e->value = gh_strdup(value);
    e->line = line;
    e->set_text = set_text;
    return e;
}

/* ---- error messages ----------------------------------------------------- */

const char *ini_show(loader *ld, const char *value)
{
    char buf[GH_SHOWN_SIZE];
    const char *shown = gh_shown_value(value, buf, sizeof buf);
    if (shown == value) return value;
    char **slot = ini_push(&ld->shown, &ld->n_shown, sizeof(char *));
    *slot = gh_strdup(buf);
    return *slot;
}

/* Writes "WHERE: MESSAGE" into the caller's buffer; the first error wins.
 * WHERE is "file:line", "--set TEXT", or "file" when line is 0. */
static int vfail(loader *ld, const char *set_text, int line, const char *fmt, va_list ap)
{
    if (ld->failed) return -1;
    ld->failed = 1;
    if (!ld->err || ld->err_size == 0) return -1;
    char msg[768];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (set_text) snprintf(ld->err, ld->err_size, "%s %s: %s", SET_ORIGIN, ini_show(ld, set_text), msg);
    else if (line > 0) snprintf(ld->err, ld->err_size, "%s:%d: %s", ld->file, line, msg);
    else snprintf(ld->err, ld->err_size, "%s: %s", ld->file, msg);
    return -1;
}

__attribute__((format(printf, 3, 4))) int ini_fail_line(loader *ld, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(ld, NULL, line, fmt, ap);
    va_end(ap);
    return -1;
}

__attribute__((format(printf, 3, 4))) static int fail_set(loader *ld, const char *set_text, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(ld, set_text, 0, fmt, ap);
    va_end(ap);
    return -1;
}

/* "file:7: [run] dtype: MESSAGE" for one key. */
__attribute__((format(printf, 4, 5))) int ini_fail_key(loader *ld, const section *s, const entry *e, const char *fmt,
                                                       ...)
{
    char label[MAX_NAME_LEN + 16], msg[640];
    section_label(s, label, sizeof label);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (e->set_text) return fail_set(ld, e->set_text, "%s %s: %s", label, ini_show(ld, e->key), msg);
    return ini_fail_line(ld, e->line, "%s %s: %s", label, ini_show(ld, e->key), msg);
}

/* ---- step 1: reading lines through inih --------------------------------- */

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > MAX_NAME_LEN) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-') return 0;
    return 1;
}

/* ';' or '#' at the start or after whitespace begins a comment, so that
 * "plugin = /opt/a#b.so" keeps its '#'. */
static void strip_comment(char *s)
{
    for (size_t i = 0; s[i]; i++)
        if ((s[i] == ';' || s[i] == '#') && (i == 0 || ini_is_blank(s[i - 1]))) {
            s[i] = '\0';
            return;
        }
}

static int kind_from_word(const char *word, section_kind *kind)
{
    for (int k = SEC_RUN; k <= SEC_SPLIT; k++)
        if (strcmp(word, section_kind_names[k]) == 0) {
            *kind = (section_kind)k;
            return 0;
        }
    return -1;
}

/* Refuses a second section of the same name, and a backend and a split that
 * share one. */
static int check_new_section(loader *ld, section_kind kind, const char *name)
{
    for (size_t i = 0; i < ld->n_sections; i++) {
        const section *s = &ld->sections[i];
        char label[MAX_NAME_LEN + 16];
        section_label(s, label, sizeof label);
        if (kind == SEC_RUN && s->kind == SEC_RUN)
            return ini_fail_line(ld, ld->line, "[run]: duplicate section (first at line %d)", s->line);
        if (kind == SEC_RUN || s->kind == SEC_RUN || strcmp(s->name, name) != 0) continue;
        if (s->kind == kind)
            return ini_fail_line(ld, ld->line, "%s: duplicate section (first at line %d)", label, s->line);
        return ini_fail_line(ld, ld->line, "[%s %s]: the name \"%s\" is already used by %s at line %d",
                             section_kind_names[kind], name, name, label, s->line);
    }
    return 0;
}

/* "[backend cpu]" (trimmed, comment stripped): starts a section. */
static int section_header(loader *ld, char *text)
{
    size_t n = strlen(text);
    if (text[n - 1] != ']')
        return ini_fail_line(ld, ld->line, "expected \"]\" at the end of the section header \"%s\"",
                             ini_show(ld, text));
    text[n - 1] = '\0';
    char *word = ini_trim(text + 1), *name = word;
    while (*name && !ini_is_blank(*name)) name++;
    if (*name) *name++ = '\0';
    name = ini_trim(name);

    section_kind kind;
    if (kind_from_word(word, &kind) != 0)
        return ini_fail_line(ld, ld->line, "[%s%s%s]: unknown section (allowed: [run], [backend NAME], [split NAME])",
                             ini_show(ld, word), *name ? " " : "", ini_show(ld, name));
    if (kind == SEC_RUN && *name)
        return ini_fail_line(ld, ld->line, "[run %s]: [run] takes no name", ini_show(ld, name));
    if (kind != SEC_RUN && !*name)
        return ini_fail_line(ld, ld->line, "[%s]: a %s section needs a name, e.g. [%s %s]", word, word, word,
                             kind == SEC_BACKEND ? "cpu" : "gpus");
    if (kind != SEC_RUN && !valid_name(name))
        return ini_fail_line(ld, ld->line,
                             "[%s %s]: \"%s\" is not a section name (letters, digits, '_' and '-', at most %d)", word,
                             ini_show(ld, name), ini_show(ld, name), MAX_NAME_LEN);
    if (check_new_section(ld, kind, name) != 0) return -1;

    section *s = ini_push(&ld->sections, &ld->n_sections, sizeof(section));
    s->kind = kind;
    s->name = kind == SEC_RUN ? NULL : gh_strdup(name);
    s->line = ld->line;
    ld->current = (long)(ld->n_sections - 1);
    ld->have_key = 0;
    return 0;
}

/* The next line of the input, terminated in place; NULL at the end. */
static char *next_raw_line(loader *ld)
{
    if (ld->pos >= ld->len) return NULL;
    char *line = ld->text + ld->pos;
    char *nl = memchr(line, '\n', ld->len - ld->pos);
    size_t n = nl ? (size_t)(nl - line) : ld->len - ld->pos;
    line[n] = '\0';
    ld->pos += n + 1;
    ld->line++;
    return line;
}

/* Cleans one raw line into what inih should see: "" for blanks and comments,
 * "[s]" for a header (ours is recorded here; inih truncates long names),
 * " value" for a continuation, "key = value" for a key. NULL on error. */
static const char *prepare_line(loader *ld, char *raw)
{
    if (ld->line == 1 && strncmp(raw, "\xEF\xBB\xBF", 3) == 0) raw += 3;
    strip_comment(raw);
    int indented = ini_is_blank(raw[0]);
    char *s = ini_trim(raw);
    ld->continued = 0;
    if (*s == '\0') return "";
    if (*s == '[') return section_header(ld, s) == 0 ? "[s]" : NULL;
    if (indented && !strchr(s, '=')) {
        if (!ld->have_key) {
            ini_fail_line(ld, ld->line, "indented line \"%s\" continues no key (a list goes on after \"key = value\")",
                          ini_show(ld, s));
            return NULL;
        }
        ld->continued = 1;
        return s - 1; /* keeps one blank: inih then calls it a continuation */
    }
    if (!strpbrk(s, "=:")) {
        ini_fail_line(ld, ld->line, "expected \"[section]\" or \"key = value\", got \"%s\"", ini_show(ld, s));
        return NULL;
    }
    if (ld->current < 0) {
        ini_fail_line(ld, ld->line, "\"%s\" is outside any section (start with [run] or [backend NAME])",
                      ini_show(ld, s));
        return NULL;
    }
    if (strcspn(s, "=:") == 0) {
        ini_fail_line(ld, ld->line, "a key name is missing before '=' in \"%s\"", ini_show(ld, s));
        return NULL;
    }
    ld->have_key = 1;
    return s;
}

/* inih's ini_reader: one input line per call, so inih's line count is ours. */
static char *read_line(char *str, int num, void *stream)
{
    loader *ld = stream;
    if (ld->failed) return NULL;
    char *raw = next_raw_line(ld);
    if (!raw) return NULL;
    const char *clean = prepare_line(ld, raw);
    if (!clean) return NULL;
    if (strlen(clean) + 2 > (size_t)num) {
        ini_fail_line(
            ld, ld->line,
            "line is longer than %d characters without its comment; continue a long list on the next line, indented",
            num - 2);
        return NULL;
    }
    snprintf(str, (size_t)num, "%s\n", clean);
    return str;
}

/* "64," + "100" -> "64, 100": a continuation adds items to the list. */
static void append_continuation(entry *e, const char *more)
{
    size_t n = strlen(e->value);
    int need_comma = n > 0 && e->value[n - 1] != ',' && more[0] != ',';
    e->value = gh_xrealloc(e->value, n + strlen(more) + 3);
    sprintf(e->value + n, "%s%s", n == 0 ? "" : need_comma ? ", " : " ", more);
}

/* inih's handler. inih's section argument is ignored: it is truncated at 50
 * bytes, and the reader already knows the section. */
static int on_key(void *user, const char *inih_section, const char *name, const char *value)
{
    loader *ld = user;
    (void)inih_section;
    if (ld->failed) return 0;
    section *s = &ld->sections[ld->current];
    if (ld->continued) {
        append_continuation(&s->entries[s->n_entries - 1], value);
        return 1;
    }
    const entry *old = ini_find_entry(s, name);
    if (old) {
        char label[MAX_NAME_LEN + 16];
        section_label(s, label, sizeof label);
        ini_fail_line(ld, ld->line, "%s %s: duplicate key (first at line %d)", label, name, old->line);
        return 0;
    }
    add_entry(s, name, value, ld->line, NULL);
    return 1;
}

int ini_read_sections(loader *ld)
{
    int rc = ini_parse_stream(read_line, ld, on_key, ld);
    if (ld->failed) return -1;
    if (rc == -2) out_of_memory();
    if (rc != 0) return ini_fail_line(ld, rc, "inih could not parse this line");
    return 0;
}

/* ---- step 2: --set overrides ------------------------------------------- */

/* The section an override names: "run", "split.NAME", "split NAME",
 * "backend.NAME", "backend NAME", or the NAME of a backend. */
static section *override_section(loader *ld, const char *spec, const char *set_text)
{
    if (strcmp(spec, "run") == 0) return ini_run_section(ld);
    section_kind kind = SEC_BACKEND;
    const char *name = spec;
    if (strncmp(spec, "split", 5) == 0 && (spec[5] == '.' || spec[5] == ' ')) {
        kind = SEC_SPLIT;
        name = spec + 6;
    } else if (strncmp(spec, "backend", 7) == 0 && (spec[7] == '.' || spec[7] == ' ')) {
        name = spec + 8;
    }
    section *s = ini_find_section(ld, kind, name);
    if (!s)
        fail_set(ld, set_text, "there is no [%s %s] section in %s", section_kind_names[kind], ini_show(ld, name),
                 ld->file);
    return s;
}

/* "SECTION.KEY=VALUE": the key is after the last '.' before the '='. */
static int apply_override(loader *ld, const char *text)
{
    const char *eq = strchr(text, '=');
    char *left = xstrndup(text, eq ? (size_t)(eq - text) : strlen(text));
    char *dot = strrchr(left, '.');
    int rc = -1;
    if (!eq || !dot) {
        fail_set(ld, text,
                 "expected SECTION.KEY=VALUE, SECTION being run, a backend's NAME, "
                 "backend.NAME or split.NAME (e.g. --set run.sizes=64)");
        goto out;
    }
    *dot = '\0';
    char *spec = ini_trim(left), *key = ini_trim(dot + 1);
    if (*spec == '\0' || *key == '\0') {
        fail_set(ld, text, "expected SECTION.KEY=VALUE with a section and a key");
        goto out;
    }
    section *s = override_section(ld, spec, text);
    if (!s) goto out;
    char *copy = gh_strdup(eq + 1);
    entry *e = ini_find_entry(s, key);
    if (!e) e = add_entry(s, key, "", 0, NULL);
    free(e->value);
    e->value = gh_strdup(ini_trim(copy));
    e->line = 0;
    e->set_text = text;
    free(copy);
    rc = 0;
out:
    free(left);
    return rc;
}

int ini_apply_overrides(loader *ld, const char *const *overrides, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (apply_override(ld, overrides[i]) != 0) return -1;
    return 0;
}

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "build_log.h"

/* Names clang gives to text that is not the program's source. */
static int compiler_own_name(const char *name, size_t len)
{
    static const char *const own[] = {"built-in", "command line", "scratch space"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strlen(own[i]) == len && memcmp(own[i], name, len) == 0) return 1;
    return 0;
}

/* At s: "<NAME>:DIGITS". Sets the name's extent and the line; returns the
 * length of the match, or 0. */
static size_t match_position(const char *s, const char **name, size_t *name_len, unsigned long *line)
{
    if (*s != '<') return 0;
    const char *p = s + 1;
    while (*p && *p != '>' && *p != '\n' && p - s < 64) p++;
    if (*p != '>' || p == s + 1) return 0;
    *name = s + 1;
    *name_len = (size_t)(p - s - 1);
    if (p[1] != ':' || !isdigit((unsigned char)p[2])) return 0;
    char *end;
    *line = strtoul(p + 2, &end, 10);
    return (size_t)(end - s);
}

char *ocl_log_translate(const char *log, const ocl_source_piece *pieces, size_t n_pieces, int *translated)
{
    /* A rewritten position is never longer than the file name plus 21 digits
     * more than the original; count them first to size the result. */
    size_t longest_name = 0;
    for (size_t i = 0; i < n_pieces; i++)
        if (strlen(pieces[i].file) > longest_name) longest_name = strlen(pieces[i].file);
    size_t positions = 0;
    for (const char *s = strchr(log, '<'); s; s = strchr(s + 1, '<')) positions++;
    char *out = malloc(strlen(log) + positions * (longest_name + 24) + 1);
    if (!out) return NULL;

    int count = 0;
    char *o = out;
    for (const char *s = log; *s;) {
        const char *name;
        size_t name_len;
        unsigned long line;
        size_t len = match_position(s, &name, &name_len, &line);
        const ocl_source_piece *piece = NULL;
        if (len && !compiler_own_name(name, name_len))
            for (size_t i = 0; i < n_pieces && !piece; i++)
                if (line >= pieces[i].first_line && line - pieces[i].first_line < pieces[i].lines) piece = &pieces[i];
        if (piece) {
            o += sprintf(o, "%s:%lu", piece->file, line - piece->first_line + 1);
            s += len;
            count++;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
    if (translated) *translated = count;
    return out;
}

/* Appends src[0..len) to text, with "; " between items, cut to size. */
static void append_item(char *text, size_t size, const char *src, size_t len)
{
    size_t used = strlen(text);
    if (used && used + 2 < size) {
        memcpy(text + used, "; ", 3);
        used += 2;
    }
    if (used + 1 >= size) return;
    if (len > size - used - 1) len = size - used - 1;
    memcpy(text + used, src, len);
    text[used + len] = '\0';
}

void ocl_log_ptxas_summary(const char *log, char *text, size_t size)
{
    if (!size) return;
    text[0] = '\0';
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 5 && strncmp(line, "ptxas", 5) == 0) {
            /* "ptxas info    : Used 40 registers, ..." and
             * "ptxas         .     0 bytes stack frame, 0 bytes spill stores, ..." */
            const char *p = line + 5, *stop = line + len;
            while (p < stop && (*p == ' ' || *p == '.' || *p == ':')) p++;
            if (stop - p > 4 && strncmp(p, "info", 4) == 0) p += 4;
            while (p < stop && (*p == ' ' || *p == '.' || *p == ':')) p++;
            size_t rest = (size_t)(stop - p);
            int wanted = (rest > 5 && strncmp(p, "Used ", 5) == 0);
            for (const char *q = p; !wanted && q + 5 <= stop; q++) wanted = strncmp(q, "spill", 5) == 0;
            while (rest && (p[rest - 1] == ' ' || p[rest - 1] == '\r')) rest--;
            if (wanted) append_item(text, size, p, rest);
        }
        line = end ? end + 1 : NULL;
    }
}

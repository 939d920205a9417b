/* The config's text, before gemmhost's schema: inih reads it into sections
 * of raw `key = value` text (comments, continued lists and line numbers
 * handled here), then --set overrides replace or add keys. config.c checks
 * the values. Internal to the core. */
#ifndef GEMMHOST_CONFIG_INI_H
#define GEMMHOST_CONFIG_INI_H

#include <stddef.h>

#define MAX_NAME_LEN 64 /* section names */
#define SET_ORIGIN   "--set"

typedef enum section_kind { SEC_RUN, SEC_BACKEND, SEC_SPLIT } section_kind;

typedef struct entry {
    char *key;
    char *value;          /* whole value, continuation lines appended */
    int line;             /* 0 for --set and defaults */
    const char *set_text; /* the --set argument it came from, or NULL */
} entry;

typedef struct section {
    section_kind kind;
    char *name; /* NULL for [run] */
    int line;   /* header line; 0 when --set created it */
    entry *entries;
    size_t n_entries;
} section;

typedef struct loader {
    const char *file; /* for messages; owned by the gh_config */
    char *dir;        /* the config file's folder, for relative paths; NULL for text */
    char *text;       /* the whole input, split into lines in place */
    size_t pos, len;
    int line;      /* the line last handed to inih */
    int continued; /* that line continues the previous key */
    int have_key;  /* the current section has a key to continue */
    section *sections;
    size_t n_sections;
    long current; /* index of the current section; -1 before one */
    char *err;
    size_t err_size;
    int failed;
    char **shown; /* shortened values of messages (ini_show) */
    size_t n_shown;
    char **origin_texts; /* "--set TEXT" for origins, handed to the gh_config */
    size_t n_origin_texts;
} loader;

/* Growable arrays and lists of strings. Out of memory aborts. */
void *ini_push(void *array_ptr, size_t *count, size_t elem_size);
int ini_is_blank(char c);
char *ini_trim(char *s);
void ini_free_strings(char **v, size_t n);
int ini_split_list(const char *value, char ***items, size_t *n);
void ini_join_names(const char *const *names, size_t n, char *buf, size_t size);

/* The raw sections. */
void ini_free_sections(loader *ld);
section *ini_find_section(loader *ld, section_kind kind, const char *name);
section *ini_run_section(loader *ld);
entry *ini_find_entry(const section *s, const char *key);

/* A value to echo in a message: itself, or shortened when long (see
 * shown_value.h), kept until ini_free_sections. */
const char *ini_show(loader *ld, const char *value);

/* Errors: "file:line: [section] key: message" into ld->err; the first wins.
 * Each returns -1. */
int ini_fail_line(loader *ld, int line, const char *fmt, ...);
int ini_fail_key(loader *ld, const section *s, const entry *e, const char *fmt, ...);

/* Step 1: the text into sections; step 2: the --set overrides on top.
 * Each returns 0, or -1 with ld->err set. */
int ini_read_sections(loader *ld);
int ini_apply_overrides(loader *ld, const char *const *overrides, size_t n);

#endif

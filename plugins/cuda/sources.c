/* The kernel sources: the copies embedded at build time, or a kernel_dir; see sources.h. */
#include "sources.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemmhost/plugin_helpers.h"

/* The table cmake/Embed.cmake generates from kernels/cuda (NULL-terminated;
 * each file's bytes are followed by a NUL). */
struct gh_embedded_file {
    const char *name;
    const unsigned char *data;
    unsigned long size;
};
extern const struct gh_embedded_file gh_cuda_kernel_sources[];

void gh_cuda_sources_free(gh_cuda_sources *s)
{
    for (int i = 0; i < s->n; ++i) free(s->texts[i]);
    s->n = 0;
}

static char *read_text_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t size = 0, cap = 4096;
    char *text = malloc(cap);
    while (text) {
        size += fread(text + size, 1, cap - size - 1, f);
        if (size < cap - 1) break;
        char *bigger = realloc(text, cap *= 2);
        if (!bigger) free(text);
        text = bigger;
    }
    int failed = ferror(f);
    fclose(f);
    if (!text || failed) {
        free(text);
        if (failed) errno = EIO;
        return NULL;
    }
    text[size] = '\0';
    return text;
}

gh_status gh_cuda_sources_load(const char *kernel_dir, gh_cuda_sources *s)
{
    s->n = 0;
    for (const struct gh_embedded_file *e = gh_cuda_kernel_sources; e->name && s->n < GH_CUDA_MAX_SOURCES; ++e) {
        char *text;
        if (kernel_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", kernel_dir, e->name);
            text = read_text_file(path);
            if (!text) {
                gh_status st = gh_plugin_set_error(GH_ERROR, "cannot read kernel source %s: %s", path, strerror(errno));
                gh_cuda_sources_free(s);
                return st;
            }
        } else {
            text = malloc(e->size + 1);
            if (!text) {
                gh_cuda_sources_free(s);
                return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for kernel sources");
            }
            memcpy(text, e->data, e->size);
            text[e->size] = '\0';
        }
        s->names[s->n] = e->name;
        s->texts[s->n] = text;
        s->n++;
    }
    return GH_OK;
}

gh_status gh_cuda_check_kernel_dir(const char *dir, const char *origin)
{
    for (const struct gh_embedded_file *e = gh_cuda_kernel_sources; e->name; ++e) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->name);
        if (access(path, R_OK) != 0) {
            char all[512] = "";
            for (const struct gh_embedded_file *f = gh_cuda_kernel_sources; f->name; ++f) {
                size_t used = strlen(all);
                snprintf(all + used, sizeof all - used, "%s%s", used ? ", " : "", f->name);
            }
            return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s %s: cannot read %s (%s); it must hold %s", origin, dir,
                                       e->name, strerror(errno), all);
        }
    }
    return GH_OK;
}

int gh_cuda_kernel_dir_complete(const char *dir)
{
    for (const struct gh_embedded_file *e = gh_cuda_kernel_sources; e->name; ++e) {
        char path[4096 + 256]; /* a folder of up to 4096 bytes and a file name */
        snprintf(path, sizeof path, "%s/%s", dir, e->name);
        if (access(path, R_OK) != 0) return 0;
    }
    return 1;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

gh_status gh_cuda_choose_kernel_dir(const char *option, char **out)
{
    *out = NULL;
    const char *dir = option && option[0] ? option : NULL;
    const char *origin = "kernel_dir";
    char sub[4096];
    if (!dir) {
        const char *env = getenv(GH_CUDA_KERNEL_DIR_ENV);
        if (!env || !env[0]) return GH_OK;
        snprintf(sub, sizeof sub, "%s/cuda", env);
        dir = gh_cuda_kernel_dir_complete(sub) ? sub : env;
        origin = "$" GH_CUDA_KERNEL_DIR_ENV " (or its cuda/ folder)";
    }
    gh_status st = gh_cuda_check_kernel_dir(dir, origin);
    if (st) return st;
    *out = copy_string(dir);
    return *out ? GH_OK : gh_plugin_set_error(GH_OUT_OF_MEMORY, "open: out of host memory");
}

/* The fuzz targets' one helper: readers that take a path get the input in a
 * file of their own (made once per process, rewritten for each input). */
#ifndef GEMMHOST_FUZZ_INPUT_FILE_H
#define GEMMHOST_FUZZ_INPUT_FILE_H

#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The path holding data[0..size), or NULL (then the input is skipped). */
static inline const char *fuzz_input_file(const uint8_t *data, size_t size, const char *suffix)
{
    static char path[256];
    static int fd = -1;
    if (fd < 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/gemmhost-fuzz-XXXXXX%s", tmp && *tmp ? tmp : "/tmp", suffix);
        fd = mkstemps(path, (int)strlen(suffix));
        if (fd < 0) {
            perror("fuzz: mkstemps");
            abort();
        }
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) {
        perror("fuzz: writing the input file");
        abort();
    }
    return path;
}

#endif

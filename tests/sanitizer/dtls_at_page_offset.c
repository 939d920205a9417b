/*
 * dtls_at_page_offset MODULE K: lays ASan's 32-byte chunks down to K chunks
 * short of a page's end, then dlopens MODULE and touches its thread-local
 * block, which glibc mallocs next. With the right K the block starts 16
 * bytes into a page, where GCC 12's __tls_get_addr interceptor mistakes it
 * for a glibc 2.19 block with a header, records a wild range, and
 * LeakSanitizer's tracer crashes on it at exit (google/sanitizers#1322;
 * docs/tests.md). Prints the block's offset in its page.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PAGE       4096
#define CHUNK      32 /* ASan's chunk for malloc(16): 16 bytes of header */
#define MAX_CHUNKS 8192

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: dtls_at_page_offset MODULE K\n");
        return 2;
    }
    const long k = strtol(argv[2], NULL, 10);
    static void *chunks[MAX_CHUNKS];
    int n = 0;
    do chunks[n] = malloc(16);
    while ((uintptr_t)chunks[n++] % PAGE != (uintptr_t)(PAGE - 16 - CHUNK * k) && n < MAX_CHUNKS);
    void *module = dlopen(argv[1], RTLD_NOW);
    if (!module) {
        fprintf(stderr, "dtls_at_page_offset: %s\n", dlerror());
        return 2;
    }
    char *(*touch)(void) = (char *(*)(void))(uintptr_t)dlsym(module, "dtls_module_touch");
    if (!touch) {
        fprintf(stderr, "dtls_at_page_offset: %s\n", dlerror());
        return 2;
    }
    printf("page offset %lu\n", (unsigned long)((uintptr_t)touch() % PAGE));
    fflush(stdout); /* before the exit check, which may die without flushing */
    for (int i = 0; i < n; i++) free(chunks[i]);
    return 0;
}

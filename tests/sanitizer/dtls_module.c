/*
 * A shared library with a small thread-local variable: a dynamic TLS block
 * of 8 bytes, which glibc allocates with malloc on first access.
 */
#include <string.h>

static __thread char block[8];

char *dtls_module_touch(void)
{
    memset(block, 1, sizeof block);
    return block;
}

/* Linked into every target of the sanitizer build (CMakeLists.txt): the
 * options AddressSanitizer starts with before it reads ASAN_OPTIONS, so
 * that a binary run by hand or by a bare `ctest` gets them too.
 *
 * intercept_tls_get_addr=0: GCC 12's __tls_get_addr interceptor takes a
 * dynamic TLS block that malloc placed 16 bytes into a page for a glibc
 * 2.19 block with a header, and LeakSanitizer's tracer then scans a wild
 * range and dies at exit (google/sanitizers#1322; docs/tests.md). The
 * blocks stay reachable through glibc's DTV, so no leak goes unseen. */
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
    return "intercept_tls_get_addr=0";
}

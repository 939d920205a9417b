/*
 * gemmhost-conformance PLUGIN.so [--device N] [--quiet] [--no-fork]
 *
 * Checks a plugin against every sentence of gemmhost/plugin.h, through the
 * ABI alone (dlopen and the entry, as the host does). One line per check:
 * "ok: ID: ...", "FAIL: ID: ...", "skip: ID: ..."; then a summary.
 *
 * Each group of checks runs in a child process that loads the plugin afresh
 * (the parent never loads it, so forking is safe with any driver): a plugin
 * that crashes fails that group, named, and the other groups still run.
 * --no-fork runs everything in one process, for a debugger.
 *
 * Exit status: 0 every check passed; 1 a check failed (or the plugin could
 * not be loaded); 2 usage; 77 the plugin has no device and every check that
 * needs none passed ("no device: <the plugin's reason>" says why).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK_MAIN
#include "conformance.h"

#define EXIT_NO_DEVICE 77

/* What a group found out, handed from the child to the parent. */
typedef struct facts {
    int done; /* the group ran to its end */
    int passed, failed, skipped;
    int usable; /* the plugin loads and negotiates */
    int n_devices;
    int has_host_alloc;
    char no_device[1024]; /* device_count's reason when it is 0 */
} facts;

typedef enum group {
    GROUP_ENTRY,
    GROUP_CONTEXT,
    GROUP_ERRORS,
    GROUP_NO_DEVICE,
    GROUP_BUFFERS,
    GROUP_REFUSALS,
    GROUP_RESULTS,
    GROUP_STREAMS,
    GROUP_HOST_ALLOC
} group;

static const char *const group_names[] = {"entry and table", "devices and kernels", "options and errors", "no device",
                                          "buffers",         "gemm refusals",       "gemm results",       "streams",
                                          "host_alloc"};

static int usage(const char *why)
{
    fprintf(stderr,
            "gemmhost-conformance: %s\n"
            "usage: gemmhost-conformance PLUGIN.so [--device N] [--quiet] [--no-fork]\n",
            why);
    return 2;
}

/* Loads the plugin and, except for the entry group (which checks the
 * negotiation itself), negotiates and opens a context. */
static int load(conformance *c, group g)
{
    void *handle = dlopen(c->path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        if (g == GROUP_ENTRY) check_verdict(0, "load: dlopen(RTLD_NOW | RTLD_LOCAL): %s", dlerror());
        return -1;
    }
    *(void **)&c->entry = dlsym(handle, GEMMHOST_ENTRY_NAME);
    if (g == GROUP_ENTRY) {
        check_verdict(c->entry != NULL, "load: loads and exports %s", GEMMHOST_ENTRY_NAME);
        return c->entry ? 0 : -1;
    }
    /* Plugins stay mapped, as in the host: drivers may have atexit handlers. */
    if (!c->entry || conf_negotiate(c) != 0) return -1;
    if (g == GROUP_CONTEXT || g == GROUP_ERRORS) return 0; /* these groups open (and check open) themselves */
    gh_status s = c->api->open(NULL, 0, &c->ctx);
    if (s != GH_OK) return check_verdict(0, "open: %s: %s", conf_status_name(s), conf_error(c)), -1;
    c->n_devices = c->api->device_count(c->ctx);
    c->n_kernels = c->api->kernel_count(c->ctx);
    return 0;
}

/* Opening a context, and what it says of its devices and kernels. */
static void run_context_group(conformance *c, facts *f)
{
    gh_status s = c->api->open(NULL, 0, &c->ctx);
    if (!check_verdict(s == GH_OK && c->ctx, "open: no options -> GH_OK and a context (got %s)", conf_outcome(c, s)))
        return;
    c->n_devices = c->api->device_count(c->ctx);
    c->n_kernels = c->api->kernel_count(c->ctx);
    if (c->n_devices == 0) snprintf(f->no_device, sizeof f->no_device, "%s", conf_error(c)); /* device_count's reason */
    f->n_devices = c->n_devices;
    conf_check_static_info(c);
    conf_check_combos_info(c);
    c->api->close(c->ctx);
    c->ctx = NULL;
    c->api->close(NULL);
    CHECK(1, "close: close(NULL) does nothing");
}

/* last_error before any failure, options, then last_error across threads. */
static void run_errors_group(conformance *c)
{
    conf_check_fresh_errors(c); /* nothing has failed in this process yet */
    conf_check_options(c);
    gh_status s = c->api->open(NULL, 0, &c->ctx);
    if (s != GH_OK) {
        check_verdict(0, "open: %s: %s", conf_status_name(s), conf_error(c));
        return;
    }
    conf_check_thread_errors(c);
}

/* Runs one group in this process. */
static void run_group(const char *path, group g, int device, facts *f)
{
    conformance c = {.path = path};
    if (load(&c, g) == 0) {
        f->usable = 1;
        f->has_host_alloc = c.has_host_alloc;
        switch (g) {
        case GROUP_ENTRY:
            conf_check_entry(&c);
            f->usable = c.api != NULL;
            f->has_host_alloc = c.has_host_alloc;
            break;
        case GROUP_CONTEXT: run_context_group(&c, f); break;
        case GROUP_ERRORS: run_errors_group(&c); break;
        case GROUP_NO_DEVICE: conf_check_no_device(&c); break;
        case GROUP_BUFFERS: conf_check_buffers(&c, device); break;
        case GROUP_REFUSALS: conf_check_refusals(&c, device); break;
        case GROUP_RESULTS:
            conf_check_results(&c, device);
            conf_check_combos(&c, device);
            break;
        case GROUP_STREAMS:
            if (c.has_streams) conf_check_streams(&c, device);
            else check_skip("streams: device %d: the plugin has no minor-1 streams (optional)", device);
            if (c.has_batch) conf_check_batch(&c, device);
            else
                check_skip("batch: device %d: the plugin has no gemm_batch_async (%s)", device,
                           !c.has_streams ? "it needs streams"
                           : c.minor < 6  ? "it answered a minor below 6"
                                          : "minor 6, optional");
            break;
        case GROUP_HOST_ALLOC: conf_check_host_alloc(&c); break;
        }
        if (c.ctx) c.api->close(c.ctx);
    } else if (g != GROUP_ENTRY) {
        check_verdict(0, "load: group %s: the plugin did not load, negotiate or open", group_names[g]);
    }
    f->done = 1;
}

static int no_fork;

/* In a child: name the last check before dying of the same signal. */
static void on_crash(int sig)
{
    static const char before[] = "note: the crash came after this check: ";
    static const char first[] = "note: the crash came before the group's first check\n";
    if (check_last[0]) {
        ssize_t ignored = write(STDOUT_FILENO, before, sizeof before - 1);
        ignored = write(STDOUT_FILENO, check_last, strlen(check_last));
        ignored = write(STDOUT_FILENO, "\n", 1);
        (void)ignored;
    } else {
        ssize_t ignored = write(STDOUT_FILENO, first, sizeof first - 1);
        (void)ignored;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Runs one group in a child process and adds its counts to ours; a child
 * that dies is a failure of that group. */
static facts run_isolated(const char *path, group g, int device)
{
    facts f = {0};
    int fds[2];
    pid_t pid = -1;
    if (!no_fork && pipe(fds) == 0 && (pid = fork()) == 0) {
        close(fds[0]);
        static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], on_crash);
        check_last[0] = '\0';
        atomic_store(&check_passed, 0);
        atomic_store(&check_failed, 0);
        atomic_store(&check_skipped, 0);
        run_group(path, g, device, &f);
        f.passed = atomic_load(&check_passed);
        f.failed = atomic_load(&check_failed);
        f.skipped = atomic_load(&check_skipped);
        ssize_t wrote = write(fds[1], &f, sizeof f);
        exit(wrote == (ssize_t)sizeof f ? 0 : 1);
    }
    if (pid < 0) { /* --no-fork, or no child to be had */
        run_group(path, g, device, &f);
        return f;
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t n;
    while (got < sizeof f && (n = read(fds[0], (char *)&f + got, sizeof f - got)) > 0) got += (size_t)n;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != sizeof f || !f.done) {
        memset(&f, 0, sizeof f);
        char label[96];
        if (device >= 0) snprintf(label, sizeof label, "%s on device %d", group_names[g], device);
        else snprintf(label, sizeof label, "%s", group_names[g]);
        if (WIFSIGNALED(status))
            check_verdict(0, "crash: group %s died of signal %d (%s): the note above names the check before it", label,
                          WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            check_verdict(0, "crash: group %s exited (status %d) before finishing", label,
                          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return f;
    }
    atomic_fetch_add(&check_passed, f.passed);
    atomic_fetch_add(&check_failed, f.failed);
    atomic_fetch_add(&check_skipped, f.skipped);
    /* After its checks the child only exits: anything else there (a
     * sanitizer's leak report, a driver's atexit crash) is a failure too. */
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        check_verdict(0, "exit: group %s finished its checks, then its process ended with %s %d (see above)",
                      group_names[g], WIFEXITED(status) ? "status" : "signal",
                      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return f;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int only_device = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quiet") == 0) {
            check_quiet = 1;
        } else if (strcmp(argv[i], "--no-fork") == 0) {
            no_fork = 1;
        } else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            char *end;
            long d = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || d < 0 || d > 1 << 20)
                return usage("--device takes a device index (0, 1, ...)");
            only_device = (int)d;
        } else if (argv[i][0] == '-' || path) {
            return usage("unknown argument");
        } else {
            path = argv[i];
        }
    }
    if (!path) return usage("no plugin named");
    printf("gemmhost-conformance: %s against ABI %d.%d\n", path, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
    fflush(stdout); /* before any fork */

    facts entry = run_isolated(path, GROUP_ENTRY, -1);
    if (!entry.usable) { /* nothing else can run: entry.* and load said why */
        check_summary("conformance");
        return 1;
    }
    facts context = run_isolated(path, GROUP_CONTEXT, -1);
    run_isolated(path, GROUP_ERRORS, -1);
    if (context.n_devices <= 0) {
        if (context.done) run_isolated(path, GROUP_NO_DEVICE, -1);
        if (check_summary("conformance")) return 1;
        printf("no device: %s\n", context.no_device);
        return EXIT_NO_DEVICE;
    }
    if (only_device >= context.n_devices) {
        fprintf(stderr, "gemmhost-conformance: --device %d, but the plugin has %d device%s\n", only_device,
                context.n_devices, context.n_devices == 1 ? "" : "s");
        return 2;
    }
    for (int d = 0; d < context.n_devices; d++) {
        if (only_device >= 0 && d != only_device) continue;
        for (group g = GROUP_BUFFERS; g <= GROUP_STREAMS; g++) run_isolated(path, g, d);
    }
    if (entry.has_host_alloc) run_isolated(path, GROUP_HOST_ALLOC, -1);
    else check_skip("host_alloc: the plugin has no minor-1 host_alloc/host_free (optional)");
    return check_summary("conformance");
}

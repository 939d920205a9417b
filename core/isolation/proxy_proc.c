/* Worker processes: start, call with a watchdog, stop, and say how one
 * died. See proxy_proc.h. */
#define _GNU_SOURCE
#include "proxy_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msg_buffers.h"
#include "util.h"
#include "worker.h"

extern char **environ;

#define TAIL_MAX  16384 /* the stderr a worker leaves behind */
#define LINE_MAX_ 1024  /* longer lines are passed through in pieces */
#define MAX_LIVE  1024  /* workers alive at once, for gh_workers_kill_all */

typedef struct shared_seg {
    uint64_t id;
    int ro, rw; /* which views the worker has */
} shared_seg;

struct gh_worker {
    pid_t pid;
    int sock, err_fd;
    char label[96];
    char tail[TAIL_MAX];
    size_t tail_len;
    char line[LINE_MAX_];
    size_t line_len;
    pthread_mutex_t lock; /* segs and the socket's one-way messages */
    shared_seg *segs;
    size_t n_segs, cap_segs;
    gh_worker *next; /* in the list of live workers */
};

/* ---- every live worker: the free hook and kill-all walk them ---- */

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static gh_worker *live;
static _Atomic pid_t live_pids[MAX_LIVE];

static void remember_pid(pid_t pid)
{
    for (int i = 0; i < MAX_LIVE; i++) {
        pid_t zero = 0;
        if (atomic_compare_exchange_strong(&live_pids[i], &zero, pid)) return;
    }
}

static void forget_pid(pid_t pid)
{
    for (int i = 0; i < MAX_LIVE; i++) {
        pid_t want = pid;
        if (atomic_compare_exchange_strong(&live_pids[i], &want, 0)) return;
    }
}

void gh_workers_kill_all(void)
{
    for (int i = 0; i < MAX_LIVE; i++) {
        pid_t pid = atomic_load(&live_pids[i]);
        if (pid > 0) kill(pid, SIGKILL);
    }
}

/* A freed segment: each worker that maps it drops its views now, so the
 * memory really goes (the next case's matrices may need it). */
static void on_segment_freed(uint64_t id)
{
    pthread_mutex_lock(&live_lock);
    for (gh_worker *w = live; w; w = w->next) {
        pthread_mutex_lock(&w->lock);
        for (size_t i = 0; i < w->n_segs; i++) {
            if (w->segs[i].id != id) continue;
            gh_wire *m = gh_xmalloc(sizeof *m);
            gh_wire_start(m, GH_OP_UNMAP);
            gh_msg_handle_put(m, &(gh_msg_handle){id});
            gh_wire_send(w->sock, m, -1); /* a dead worker maps nothing: ignore failures */
            free(m);
            w->segs[i] = w->segs[--w->n_segs];
            break;
        }
        pthread_mutex_unlock(&w->lock);
    }
    pthread_mutex_unlock(&live_lock);
}

/* ---- starting: one long-lived thread spawns every worker ----
 * PR_SET_PDEATHSIG fires when the thread that spawned a worker ends, not
 * the process: a worker restarted by a split's member thread would be
 * killed when that thread returns. So every spawn happens here. */

typedef struct spawn_job {
    char **argv;
    posix_spawn_file_actions_t *actions;
    posix_spawnattr_t *attr;
    pid_t pid;
    int rc, done;
} spawn_job;

static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawn_cond = PTHREAD_COND_INITIALIZER;
static spawn_job *spawn_next;
static int spawner_started;

static void *spawner(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the main thread's business */
    pthread_mutex_lock(&spawn_lock);
    for (;;) {
        while (!spawn_next || spawn_next->done) pthread_cond_wait(&spawn_cond, &spawn_lock);
        spawn_job *job = spawn_next;
        job->rc = posix_spawn(&job->pid, "/proc/self/exe", job->actions, job->attr, job->argv, environ);
        job->done = 1;
        pthread_cond_broadcast(&spawn_cond);
    }
    return NULL;
}

static int spawn_on_spawner(spawn_job *job)
{
    pthread_mutex_lock(&spawn_lock);
    if (!spawner_started) {
        pthread_t t;
        if (pthread_create(&t, NULL, spawner, NULL) != 0) {
            pthread_mutex_unlock(&spawn_lock);
            return EAGAIN;
        }
        pthread_detach(t);
        spawner_started = 1;
        gh_shm_set_free_hook(on_segment_freed);
    }
    while (spawn_next) pthread_cond_wait(&spawn_cond, &spawn_lock);
    spawn_next = job;
    pthread_cond_broadcast(&spawn_cond);
    while (!job->done) pthread_cond_wait(&spawn_cond, &spawn_lock);
    spawn_next = NULL;
    pthread_cond_broadcast(&spawn_cond);
    pthread_mutex_unlock(&spawn_lock);
    return job->rc;
}

/* stdin from /dev/null, stdout and stderr into our pipe, the socket as fd 3;
 * its own process group (a terminal's ^C reaches the host only), default
 * signal dispositions and an empty mask. */
static int spawn_worker(int sock, int err_w, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, err_w, 1);
    posix_spawn_file_actions_adddup2(&fa, err_w, 2);
    posix_spawn_file_actions_adddup2(&fa, sock, 3);
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    char parent[32];
    snprintf(parent, sizeof parent, "%ld", (long)getpid());
    char *argv[] = {"gemmhost", GH_WORKER_ARG, "3", parent, NULL};
    spawn_job job = {.argv = argv, .actions = &fa, .attr = &attr};
    int rc = spawn_on_spawner(&job);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    *pid = job.pid;
    return rc;
}

gh_worker *gh_worker_start(const char *label, char *err, size_t err_size)
{
    int sv[2], ep[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, err_size, "cannot start a worker process: socketpair: %s", strerror(errno));
        return NULL;
    }
    if (pipe2(ep, O_CLOEXEC) != 0) {
        snprintf(err, err_size, "cannot start a worker process: pipe: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return NULL;
    }
    pid_t pid = 0;
    int rc = spawn_worker(sv[1], ep[1], &pid);
    close(sv[1]);
    close(ep[1]);
    if (rc != 0) {
        snprintf(err, err_size, "cannot start a worker process (posix_spawn of /proc/self/exe): %s", strerror(rc));
        close(sv[0]);
        close(ep[0]);
        return NULL;
    }
    fcntl(ep[0], F_SETFL, fcntl(ep[0], F_GETFL) | O_NONBLOCK);
    gh_worker *w = gh_xcalloc(1, sizeof *w);
    w->pid = pid;
    w->sock = sv[0];
    w->err_fd = ep[0];
    pthread_mutex_init(&w->lock, NULL);
    gh_worker_set_label(w, label);
    remember_pid(pid);
    pthread_mutex_lock(&live_lock);
    w->next = live;
    live = w;
    pthread_mutex_unlock(&live_lock);
    return w;
}

void gh_worker_set_label(gh_worker *w, const char *label)
{
    snprintf(w->label, sizeof w->label, "%s", label ? label : "worker");
}

int gh_worker_share(gh_worker *w, const gh_shm_place *place, int writable)
{
    int rc = 0;
    pthread_mutex_lock(&w->lock);
    shared_seg *s = NULL;
    for (size_t i = 0; i < w->n_segs && !s; i++)
        if (w->segs[i].id == place->id) s = &w->segs[i];
    if (!s) {
        if (w->n_segs == w->cap_segs) {
            w->cap_segs = w->cap_segs ? 2 * w->cap_segs : 16;
            w->segs = gh_xrealloc(w->segs, w->cap_segs * sizeof *w->segs);
        }
        s = &w->segs[w->n_segs++];
        *s = (shared_seg){.id = place->id};
    }
    if (writable ? !s->rw : !s->ro) {
        gh_wire *m = gh_xmalloc(sizeof *m);
        gh_wire_start(m, GH_OP_MAP);
        gh_msg_map_put(m, &(gh_msg_map){place->id, place->size, (uint32_t)writable});
        rc = gh_wire_send(w->sock, m, writable ? place->fd : place->ro_fd);
        free(m);
        if (rc == 0) *(writable ? &s->rw : &s->ro) = 1;
    }
    pthread_mutex_unlock(&w->lock);
    return rc;
}

/* ---- stderr: kept and passed through ---- */

static void pass_line(gh_worker *w)
{
    fprintf(stderr, "[%s] %.*s\n", w->label, (int)w->line_len, w->line);
    w->line_len = 0;
}

static void keep(gh_worker *w, const char *p, size_t n)
{
    if (n >= TAIL_MAX) {
        p += n - TAIL_MAX;
        n = TAIL_MAX;
    }
    if (w->tail_len + n > TAIL_MAX) {
        size_t drop = w->tail_len + n - TAIL_MAX;
        memmove(w->tail, w->tail + drop, w->tail_len - drop);
        w->tail_len -= drop;
    }
    memcpy(w->tail + w->tail_len, p, n);
    w->tail_len += n;
}

/* Reads what the worker printed so far; returns 0 at the pipe's end. */
static int take_stderr(gh_worker *w)
{
    char buf[4096];
    while (w->err_fd >= 0) {
        ssize_t n = read(w->err_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return 1; /* EAGAIN: nothing more for now */
        if (n == 0) {
            close(w->err_fd);
            w->err_fd = -1;
            break;
        }
        keep(w, buf, (size_t)n);
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n' || w->line_len == sizeof w->line) pass_line(w);
            if (buf[i] != '\n') w->line[w->line_len++] = buf[i];
        }
    }
    if (w->line_len) pass_line(w);
    return 0;
}

/* ---- waiting ---- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Milliseconds left before `deadline` (< 0: none) for poll(). */
static int poll_ms(double deadline)
{
    if (deadline < 0) return -1;
    double left = deadline - now_s();
    return left <= 0 ? 0 : left > 3600 ? 3600000 : (int)(left * 1000) + 1;
}

/* Waits until the worker has exited (draining its stderr meanwhile) for
 * grace_s, then SIGKILL; reaps it. Returns its wait status. */
static int reap(gh_worker *w, double grace_s)
{
    int status = 0;
    int pfd = (int)pidfd_open(w->pid, 0);
    double deadline = now_s() + grace_s;
    for (;;) {
        pid_t got = waitpid(w->pid, &status, WNOHANG);
        if (got == w->pid || (got < 0 && errno != EINTR)) break;
        int left = poll_ms(deadline);
        if (left == 0) {
            kill(w->pid, SIGKILL);
            while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {}
            break;
        }
        struct pollfd p[2] = {{pfd, POLLIN, 0}, {w->err_fd, POLLIN, 0}};
        /* Without a pidfd (an old kernel), look again every 10 ms. */
        if (poll(p, 2, pfd < 0 && (left < 0 || left > 10) ? 10 : left) > 0 && p[1].revents) take_stderr(w);
    }
    if (pfd >= 0) close(pfd);
    forget_pid(w->pid);
    w->pid = 0;
    take_stderr(w);
    return status;
}

/* The part of the stderr tail worth quoting: from the crash report's first
 * line when there is one (the plugin's frames come first), else the end. */
static void quote_tail(const gh_worker *w, char *out, size_t size)
{
    static const char *const starts[] = {GH_WORKER_READ_ONLY_FAULT, "fatal signal", "ERROR: AddressSanitizer",
                                         "runtime error:"};
    size_t len = w->tail_len, from = len > size - 1 ? len - (size - 1) : 0;
    char *text = gh_xmalloc(len + 1);
    memcpy(text, w->tail, len);
    text[len] = '\0';
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        const char *at = NULL;
        for (const char *p = strstr(text, starts[i]); p; p = strstr(p + 1, starts[i])) at = p;
        if (!at) continue;
        while (at > text && at[-1] != '\n') at--;
        from = (size_t)(at - text);
        break;
    }
    while (from > 0 && from < len && text[from - 1] != '\n') from++; /* a whole first line */
    while (from < len && text[from] == '\n') from++;
    snprintf(out, size, "%s", text + from);
    free(text);
    size_t n = strlen(out);
    while (n > 0 && out[n - 1] == '\n') out[--n] = '\0';
}

static void describe_death(gh_worker *w, int status, const char *call, gh_fate *fate)
{
    fate->kind = GH_FATE_CRASHED;
    quote_tail(w, fate->tail, sizeof fate->tail);
    int read_only = strstr(fate->tail, GH_WORKER_READ_ONLY_FAULT) != NULL;
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *abbrev = sigabbrev_np(sig);
        snprintf(fate->what, sizeof fate->what, "worker killed by SIG%s (%s) during %s%s", abbrev ? abbrev : "?",
                 strsignal(sig), call,
                 read_only && sig == SIGSEGV ? ": a write into a read-only input (the plugin wrote into host memory "
                                               "it was given to read)"
                                             : "");
    } else {
        snprintf(fate->what, sizeof fate->what, "worker exited with status %d during %s%s", WEXITSTATUS(status), call,
                 read_only ? ", after a write into a read-only input" : "");
    }
}

int gh_worker_call(gh_worker *w, const gh_wire *q, gh_wire *r, double timeout_s, const char *call, gh_fate *fate)
{
    memset(fate, 0, sizeof *fate);
    double deadline = timeout_s > 0 ? now_s() + timeout_s : -1;
    int died = w->pid == 0 || gh_wire_send(w->sock, q, -1) != 0, overran = 0;
    while (!died && !overran) {
        struct pollfd p[2] = {{w->sock, POLLIN, 0}, {w->err_fd, POLLIN, 0}};
        int n = poll(p, 2, poll_ms(deadline));
        if (n < 0) {
            died = errno != EINTR;
            continue;
        }
        if (n == 0) {
            overran = 1;
            continue;
        }
        if (p[1].revents) take_stderr(w);
        if (!p[0].revents) continue;
        if (gh_wire_recv(w->sock, r, NULL) != 1) {
            died = 1; /* the socket closed: the worker is gone */
            continue;
        }
        return 0; /* what it printed before replying was in the pipe at poll time, and taken */
    }
    if (died && w->pid == 0) {
        fate->kind = GH_FATE_CRASHED;
        snprintf(fate->what, sizeof fate->what, "worker was not running for %s", call);
        return -1;
    }
    if (died) {
        describe_death(w, reap(w, 5.0), call, fate);
        return -1;
    }
    /* Overran: SIGTERM, a short grace, then SIGKILL. */
    kill(w->pid, SIGTERM);
    int status = reap(w, 2.0);
    fate->kind = GH_FATE_TIMEOUT;
    quote_tail(w, fate->tail, sizeof fate->tail);
    snprintf(fate->what, sizeof fate->what, "%s did not return within %g s: worker stopped (%s)", call, timeout_s,
             WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? "SIGKILL after SIGTERM" : "SIGTERM");
    return -1;
}

void gh_worker_stop(gh_worker *w, double grace_s)
{
    if (!w) return;
    pthread_mutex_lock(&live_lock);
    for (gh_worker **at = &live; *at; at = &(*at)->next)
        if (*at == w) {
            *at = w->next;
            break;
        }
    pthread_mutex_unlock(&live_lock);
    close(w->sock);
    if (w->pid > 0) reap(w, grace_s);
    if (w->err_fd >= 0) close(w->err_fd);
    pthread_mutex_destroy(&w->lock);
    free(w->segs);
    free(w);
}

/* The worker side of isolation: `gemmhost --worker FD PARENT_PID`, started
 * by core/proxy_proc with one end of a SOCK_SEQPACKET socket pair as FD. It
 * loads one plugin, opens at most one context and makes each call the host
 * asks for, replying with the results (docs/isolation.md). Not in --help:
 * nobody types it. */
#ifndef GEMMHOST_WORKER_H
#define GEMMHOST_WORKER_H

/* The argument that selects worker mode, as argv[1]. */
#define GH_WORKER_ARG "--worker"

/* What a worker prints (on stderr, before the stack) when a plugin writes
 * into the read-only view of a host input; the host quotes it in the fate. */
#define GH_WORKER_READ_ONLY_FAULT "SIGSEGV: a write into a read-only input"

/* Runs the worker until the host closes the socket or asks it to close;
 * returns the process's exit status. */
int gh_worker_main(int argc, char **argv);

#endif

/* The C plugin's one device: the host CPU, described. */
#ifndef GEMMHOST_CPU_DEVICES_H
#define GEMMHOST_CPU_DEVICES_H

#include "state.h"

/* Fills ctx->info (and the strings it points to) for `threads` threads. */
void cpu_describe_device(gh_plugin *ctx, int threads);

#endif

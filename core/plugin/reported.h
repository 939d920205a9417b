/* What a plugin reports about itself, checked before the host believes it:
 * its device count and each device's info, and its kernel times. A plugin
 * that lies here is a plugin error, named; nothing of it is taken as real. */
#ifndef GEMMHOST_REPORTED_H
#define GEMMHOST_REPORTED_H

#include <stddef.h>
#include "gemmhost/plugin.h"

/* More devices than any machine has: a count above this is a lie (or an
 * uninitialised value), not a reason to ask for a million infos. */
#define GH_MAX_DEVICES 1024

/* Asks an open plugin for its device count and each device's info. Returns
 * the count (0: no device; the plugin's last_error says why), or -1 when the
 * plugin lies: a count below 0 or above GH_MAX_DEVICES, or a device whose
 * info is NULL, shorter than its name, or lacks a string the contract
 * requires (name, not ""; vendor, driver_version, api, platform). `why` then
 * says which, naming the plugin: "plugin X claims 1048576 devices (more
 * than 1024)". Every discovery (the plan, --list) goes through here. */
int gh_reported_devices(const gh_plugin_api *api, gh_plugin *ctx, char *why, size_t why_size);

/* 1 when a kernel time is one: finite and > 0 ms. 0, a negative time and
 * NaN or Inf are lies, which would make a median of -1 or nan. */
int gh_reported_time_ok(double kernel_ms);

#endif

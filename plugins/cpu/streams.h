/* ABI minor 1 for the C plugin: a stream keeps a list of queued work and runs
 * it in order at stream_synchronize. Running it later rather than at once
 * costs nothing here, and a host that forgets to synchronize before using a
 * result gets the wrong answer, as it would on a real device. */
#ifndef GEMMHOST_CPU_STREAMS_H
#define GEMMHOST_CPU_STREAMS_H

#include "state.h"

gh_status cpu_stream_create(gh_plugin *ctx, int device, gh_stream **out);
void cpu_stream_destroy(gh_plugin *ctx, gh_stream *stream);
gh_status cpu_upload_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset, uint64_t pitch,
                              const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows, double *elapsed_ms);
gh_status cpu_download_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset, uint64_t pitch,
                                void *dst, uint64_t dst_pitch, uint64_t width, uint64_t rows, double *elapsed_ms);
gh_status cpu_gemm_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                         gh_gemm_timing *timing);
/* ABI minor 6: n launches queued as one op, timed as their mean. */
gh_status cpu_gemm_batch_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args, uint32_t n,
                               gh_gemm_timing *timing);
gh_status cpu_stream_synchronize(gh_plugin *ctx, gh_stream *stream);

#endif

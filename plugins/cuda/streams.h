/*
 * ABI minor 1: streams, asynchronous 2D copies and GEMMs, for the
 * multi-device split (issue 6); page-locked host memory is in buffers.h.
 *
 * A gh_stream is a non-blocking CUstream on its device's primary context.
 * Every call makes that context current on the calling thread first, so
 * threads working on different devices run side by side. An operation
 * given somewhere to write its time gets a pair of CUDA events around it;
 * stream_synchronize waits for the stream and then writes those times. The
 * pending times of a stream live in an array that grows as needed and whose
 * events are kept for reuse until the stream is destroyed.
 */
#ifndef GH_CUDA_STREAMS_H
#define GH_CUDA_STREAMS_H

#include "state.h"

gh_status gh_cuda_stream_create(gh_plugin *ctx, int device, gh_stream **out);
/* Waits for the stream's work (so no copy still touches host memory the
 * host frees next), drops its pending times, and frees it. */
void gh_cuda_stream_destroy(gh_plugin *ctx, gh_stream *stream);
gh_status gh_cuda_upload_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset, uint64_t pitch,
                                  const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows,
                                  double *elapsed_ms);
gh_status gh_cuda_download_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset, uint64_t pitch,
                                    void *dst, uint64_t dst_pitch, uint64_t width, uint64_t rows, double *elapsed_ms);
gh_status gh_cuda_gemm_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                             gh_gemm_timing *timing);
/* (minor 6) n launches of one GEMM, timed as one: see plugin.h. */
gh_status gh_cuda_gemm_batch_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args, uint32_t n,
                                   gh_gemm_timing *timing);
/* (minor 6) n launches of one GEMM, timed as one: see plugin.h. */
gh_status gh_cuda_gemm_batch_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args, uint32_t n,
                                   gh_gemm_timing *timing);
gh_status gh_cuda_stream_synchronize(gh_plugin *ctx, gh_stream *stream);

/* At close: every stream the host left behind. */
void gh_cuda_streams_free_all(gh_plugin *ctx);

#endif

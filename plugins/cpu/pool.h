/* A fixed set of worker threads that run one function over the parts of a
 * job and say when all parts are done, so a GEMM's time is the multiply and
 * not the creation and joining of its threads. */
#ifndef GEMMHOST_CPU_POOL_H
#define GEMMHOST_CPU_POOL_H

/* Runs part `part` of the job described by arg; 0, or nonzero on failure. */
typedef int (*cpu_pool_fn)(void *arg, int part);

typedef struct cpu_pool cpu_pool;

/* A pool `width` parts wide: the calling thread runs part 0 and width - 1
 * threads the others. No thread starts here: they start at the first run,
 * once, and live until cpu_pool_destroy. NULL when out of memory. */
cpu_pool *cpu_pool_create(int width);

/* Runs fn(arg, part) for every part in [0, n_parts), n_parts from 1 to the
 * width, and returns when all are done. Runs from different threads take
 * turns. elapsed_ms (may be NULL) gets the time from handing out the parts
 * to the last one's end: not the wait for another thread's run, nor the
 * threads' start at the first run. Returns 0; -1 when a part failed; or the
 * error number of pthread_create when the threads could not start (then no
 * part ran, and the next run tries again). */
int cpu_pool_run(cpu_pool *pool, int n_parts, cpu_pool_fn fn, void *arg, double *elapsed_ms);

/* Stops and joins the threads and frees the pool; NULL is harmless. No run
 * may be under way. */
void cpu_pool_destroy(cpu_pool *pool);

#endif

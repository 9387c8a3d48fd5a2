/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* empty.c: a shared library with one function and nothing else, the
   yardstick for startup.c: what loading any library costs a process. */
int cpucycles_bench_empty(void);
int cpucycles_bench_empty(void) { return 0; }

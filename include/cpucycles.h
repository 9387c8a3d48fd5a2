/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/*
 * cpucycles.h: the public interface of libcpucycles.
 * Link with -lcpucycles. The declarations match the libcpucycles API and ABI,
 * so programs built against either header run with either library.
 */
#ifndef cpucycles_h
#define cpucycles_h

#ifdef __cplusplus
extern "C" {
#endif

/* A data symbol holding a function pointer. The first call measures the
   counters of this machine and repoints it at the best; later calls go
   straight to that counter. */
extern long long (*cpucycles)(void) __attribute__((visibility("default")));

extern const char *cpucycles_implementation(void) __attribute__((visibility("default")));
extern const char *cpucycles_version(void) __attribute__((visibility("default")));
extern long long cpucycles_persecond(void) __attribute__((visibility("default")));
extern void cpucycles_tracesetup(void) __attribute__((visibility("default")));

#ifdef __cplusplus
}
#endif

#endif

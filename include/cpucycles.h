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

/* On Windows a program reaches a DLL's data only through the pointer
   the loader fills in, which __declspec(dllimport) names; the functions
   work either way. A program linked with the static library defines
   CPUCYCLES_STATIC before including this header; the library's own
   build defines CPUCYCLES_BUILDING_LIBRARY (its exports are listed
   apart). Visibility means nothing to Windows' objects, and MSVC knows
   no __attribute__. */
#if defined(_WIN32)
#if defined(CPUCYCLES_STATIC) || defined(CPUCYCLES_BUILDING_LIBRARY)
#define CPUCYCLES_DATA_
#else
#define CPUCYCLES_DATA_ __declspec(dllimport)
#endif
#define CPUCYCLES_VISIBLE_
#else
#define CPUCYCLES_DATA_
#define CPUCYCLES_VISIBLE_ __attribute__((visibility("default")))
#endif

/* A data symbol holding a function pointer. The first call measures the
   counters of this machine and repoints it at the best; later calls go
   straight to that counter. */
extern CPUCYCLES_DATA_ long long (*cpucycles)(void) CPUCYCLES_VISIBLE_;

extern const char *cpucycles_implementation(void) CPUCYCLES_VISIBLE_;
extern const char *cpucycles_version(void) CPUCYCLES_VISIBLE_;
extern long long cpucycles_persecond(void) CPUCYCLES_VISIBLE_;
extern void cpucycles_tracesetup(void) CPUCYCLES_VISIBLE_;

/* Only the declarations above needed them. */
#undef CPUCYCLES_DATA_
#undef CPUCYCLES_VISIBLE_

#ifdef __cplusplus
}
#endif

#endif

/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* sysfile.c: see sysfile.h. The files are read as the library reads its
   own (cpucycles/readfile.h, whose functions this compiles: the library
   keeps its own to itself). */
#define _POSIX_C_SOURCE 200809L
#include "sysfile.h"
#include "../cpucycles/readfile.h"

/* Paths are short and fixed; a root so long that they do not fit is
   treated as an absent file rather than cut. */
#define NAME_SIZE 4096

long sysfile_read(const char *root, const char *path, char buf[SYSFILE_MAX])
{
  char name[NAME_SIZE];
  if (!readfile_join(name, sizeof name, root, path)) return -1;
  return readfile_read(name, buf, SYSFILE_MAX);
}

int sysfile_dir(const char *root, const char *path)
{
  char name[NAME_SIZE];
  struct stat st;
  return readfile_join(name, sizeof name, root, path) && stat(name, &st) == 0 && S_ISDIR(st.st_mode);
}

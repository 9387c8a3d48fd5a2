/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* tree.h: fake file trees under a private temporary root, for tests of
   code that takes a root prefix. Needs _POSIX_C_SOURCE 200809L. */
#ifndef TREE_H
#define TREE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes text to root+path, making the directories on the way. */
static int tree_put(const char *root, const char *path, const char *text)
{
  char name[1024], *slash;
  FILE *f;
  int ok;
  if (snprintf(name, sizeof name, "%s%s", root, path) >= (int)sizeof name) return -1;
  for (slash = strchr(name + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
    *slash = 0;
    mkdir(name, 0755);
    *slash = '/';
  }
  f = fopen(name, "w");
  if (!f) return -1;
  ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

static void tree_remove(const char *root)
{
  char cmd[1200];
  if (strncmp(root, "/tmp/", 5) != 0 || strchr(root, '\'')) return;
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
}
#endif

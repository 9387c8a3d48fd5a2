/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* test/packagers: a program built against what a recipe packaged. It
   prints the version, the counter and the estimate; it fails when two
   readings go backwards. */
#include <stdio.h>
#include <cpucycles.h>

int main(void)
{
  long long a = cpucycles();
  long long b = cpucycles();
  printf("%s %s %lld\n", cpucycles_version(), cpucycles_implementation(), cpucycles_persecond());
  return b < a;
}

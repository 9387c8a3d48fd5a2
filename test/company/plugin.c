/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* plugin.c: a plugin that carries its own copy of the library, linked
   from the static archive with its symbols kept to itself
   (--exclude-libs), as a plugin built against libcpucycles.a would be.
   test/company/twocopies.c loads it into a program linked with the shared
   library: two copies, two guards, one process. */
#include <string.h>
#include <cpucycles.h>

__attribute__((visibility("default"))) int plugin_first_call(void)
{
  long long a = cpucycles(), b = cpucycles();
  return strcmp(cpucycles_implementation(), "default-zero") != 0 && b >= a;
}

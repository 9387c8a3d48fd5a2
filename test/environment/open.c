/* SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0 */
/* open.c: cpucycles-open against fake trees: values lowered, never
   raised, missing files passed over and not created, one output line per
   change, symlinks and garbage left alone, bad arguments refused, and
   nothing changed without root. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/wait.h>
#include "check.h"
#include "tree.h"

#ifndef OPEN_BIN
#error "OPEN_BIN: the path of cpucycles-open"
#endif

static char out[4096], err[4096];
/* The command under test; a copy that any user can reach while the tests
   run it as nobody, because the build tree may sit in a private directory
   (a mktemp -d clone is mode 0700). */
static const char *open_bin = OPEN_BIN;

static void slurp(int fd, char *buf, size_t size)
{
  ssize_t n = pread(fd, buf, size - 1, 0);
  buf[n > 0 ? n : 0] = 0;
  close(fd);
}

/* Runs cpucycles-open with one or two arguments (as uid when uid >= 0);
   returns its exit status, or -1 when it did not exit normally. */
static int run(const char *arg1, const char *arg2, long uid)
{
  char oname[] = "/tmp/cpucycles-open-out-XXXXXX", ename[] = "/tmp/cpucycles-open-err-XXXXXX";
  int ofd = mkstemp(oname), efd = mkstemp(ename), status;
  pid_t pid;

  out[0] = err[0] = 0;
  if (ofd < 0 || efd < 0) return -1;
  unlink(oname);
  unlink(ename);
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    dup2(ofd, 1);
    dup2(efd, 2);
    if (uid >= 0 && (setgid((gid_t)uid) != 0 || setuid((uid_t)uid) != 0)) _exit(126);
    execl(open_bin, "cpucycles-open", arg1, arg2, (char *)0);
    _exit(127);
  }
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  slurp(ofd, out, sizeof out);
  slurp(efd, err, sizeof err);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define PARANOID "/proc/sys/kernel/perf_event_paranoid"
#define RDPMC "/sys/devices/cpu/rdpmc"
#define RDPMC_CORE "/sys/devices/cpu_core/rdpmc"
#define RDPMC_ATOM "/sys/devices/cpu_atom/rdpmc"
#define USER_ACCESS "/proc/sys/kernel/perf_user_access"
#define WATCHDOG "/proc/sys/kernel/nmi_watchdog"

static char root[] = "/tmp/cpucycles-open-XXXXXX";
static char arg[200];

static const char *get(const char *path)
{
  static char buf[8][64];
  static int k;
  char name[512];
  FILE *f;
  size_t n = 0;
  char *b = buf[k++ & 7];
  snprintf(name, sizeof name, "%s%s", root, path);
  f = fopen(name, "r");
  if (f) {
    n = fread(b, 1, 63, f);
    fclose(f);
  } else {
    return "(missing)";
  }
  b[n] = 0;
  return b;
}

/* A file's text or command output on one line, for messages. */
static const char *line(const char *text)
{
  static char buf[4][256];
  static int k;
  char *b = buf[k++ & 3], *p;
  snprintf(b, 256, "%s", text);
  for (p = b; *p; ++p)
    if (*p == '\n') *p = '|';
  return b;
}

static int exists(const char *path)
{
  char name[512];
  snprintf(name, sizeof name, "%s%s", root, path);
  return access(name, F_OK) == 0;
}

static void as_root(void)
{
  char expect[2048];
  int code;

  tree_put(root, PARANOID, "4\n");
  tree_put(root, RDPMC, "1\n");
  tree_put(root, RDPMC_ATOM, "2\n");
  tree_put(root, USER_ACCESS, "0\n");
  tree_put(root, WATCHDOG, "1\n");
  code = run(arg, 0, -1);
  CHECK(code == 0, "full tree: exit 0 (%d, stderr %s)", code, line(err));
  CHECK(strcmp(get(PARANOID), "2\n") == 0, "perf_event_paranoid 4 lowered to 2 (%s)", line(get(PARANOID)));
  CHECK(strcmp(get(RDPMC), "2\n") == 0, "cpu/rdpmc 1 set to 2 (%s)", line(get(RDPMC)));
  CHECK(strcmp(get(RDPMC_ATOM), "2\n") == 0, "cpu_atom/rdpmc already 2, still 2");
  CHECK(!exists(RDPMC_CORE), "missing cpu_core/rdpmc passed over, not created");
  CHECK(strcmp(get(USER_ACCESS), "1\n") == 0, "perf_user_access 0 set to 1 (%s)", line(get(USER_ACCESS)));
  CHECK(strcmp(get(WATCHDOG), "0\n") == 0, "nmi_watchdog 1 set to 0 (%s)", line(get(WATCHDOG)));
  snprintf(expect, sizeof expect,
           "cpucycles-open: %s" PARANOID ": 4 -> 2\n"
           "cpucycles-open: %s" RDPMC ": 1 -> 2\n"
           "cpucycles-open: %s" USER_ACCESS ": 0 -> 1\n"
           "cpucycles-open: %s" WATCHDOG ": 1 -> 0\n", root, root, root, root);
  CHECK(strcmp(out, expect) == 0, "one line per change, old and new value (%s)", line(out));

  code = run(arg, 0, -1);
  CHECK(code == 0 && out[0] == 0, "second run: nothing to change, nothing printed (%d, %s)", code, line(out));

  tree_put(root, PARANOID, "1\n");
  tree_put(root, USER_ACCESS, "2\n");
  code = run(arg, 0, -1);
  CHECK(code == 0 && strcmp(get(PARANOID), "1\n") == 0, "perf_event_paranoid 1 is not raised (%s)",
        line(get(PARANOID)));
  CHECK(strcmp(get(USER_ACCESS), "2\n") == 0, "perf_user_access 2 (RISC-V legacy, wider) stays");
  tree_put(root, PARANOID, "-1\n");
  code = run(arg, 0, -1);
  CHECK(code == 0 && strcmp(get(PARANOID), "-1\n") == 0 && out[0] == 0,
        "perf_event_paranoid -1 is not raised");
  tree_put(root, PARANOID, "3\n");
  tree_put(root, RDPMC, "0\n");
  code = run(arg, 0, -1);
  CHECK(code == 0 && strcmp(get(PARANOID), "2\n") == 0 && strcmp(get(RDPMC), "2\n") == 0,
        "paranoid 3 -> 2, rdpmc 0 -> 2");

  tree_put(root, PARANOID, "four\n");
  tree_put(root, WATCHDOG, "1\n");
  code = run(arg, 0, -1);
  CHECK(code != 0 && strstr(err, "perf_event_paranoid") != 0, "garbage setting: non-zero exit, named on stderr");
  CHECK(strcmp(get(PARANOID), "four\n") == 0, "garbage setting left alone");
  CHECK(strcmp(get(WATCHDOG), "0\n") == 0, "the other settings still applied");
  tree_put(root, PARANOID, "2\n");

  {
    char victim[600], link[600];
    snprintf(victim, sizeof victim, "%s/victim", root);
    snprintf(link, sizeof link, "%s" WATCHDOG, root);
    tree_put(root, "/victim", "1\n");
    unlink(link);
    CHECK(symlink(victim, link) == 0, "symlink planted in place of nmi_watchdog");
    code = run(arg, 0, -1);
    CHECK(code != 0 && strcmp(get("/victim"), "1\n") == 0, "symlink not followed: target unchanged, non-zero exit");
    unlink(link);
  }
}

static void empty_tree(void)
{
  char empty[] = "/tmp/cpucycles-open-empty-XXXXXX", a[200];
  int code;
  CHECK(mkdtemp(empty) != 0, "an empty tree");
  snprintf(a, sizeof a, "--root=%s", empty);
  code = run(a, 0, -1);
  CHECK(code == 0 && out[0] == 0 && err[0] == 0, "empty tree: nothing there, nothing done, exit 0");
  tree_remove(empty);
}

static void bad_arguments(void)
{
  int code;
  tree_put(root, WATCHDOG, "1\n");
  code = run("--frobnicate", 0, -1);
  CHECK(code != 0 && err[0] != 0 && out[0] == 0, "unknown argument: message on stderr, non-zero exit (%d)", code);
  code = run("--root=", 0, -1);
  CHECK(code != 0 && err[0] != 0, "empty --root: refused (%d)", code);
  code = run(arg, arg, -1);
  CHECK(code != 0 && err[0] != 0, "--root twice: refused (%d)", code);
  CHECK(strcmp(get(WATCHDOG), "1\n") == 0, "bad arguments changed nothing");
}

/* Copies the command to dir/cpucycles-open, mode 0755; 0 on success. */
static int copy_command(const char *dir, char *copy, size_t size)
{
  char buf[65536];
  ssize_t n;
  int in, outfd, ok = 1;
  snprintf(copy, size, "%s/cpucycles-open", dir);
  in = open(OPEN_BIN, O_RDONLY);
  outfd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
  if (in < 0 || outfd < 0) ok = 0;
  while (ok && (n = read(in, buf, sizeof buf)) > 0) ok = write(outfd, buf, (size_t)n) == n;
  if (in >= 0) close(in);
  if (outfd >= 0 && close(outfd) != 0) ok = 0;
  return ok && chmod(copy, 0755) == 0 ? 0 : -1;
}

static void without_root(long uid)
{
  char dir[] = "/tmp/cpucycles-open-bin-XXXXXX", copy[128];
  int code, copied = 0;
  tree_put(root, PARANOID, "4\n");
  tree_put(root, WATCHDOG, "1\n");
  chmod(root, 0755);
  if (uid >= 0 && mkdtemp(dir) && chmod(dir, 0755) == 0 && copy_command(dir, copy, sizeof copy) == 0) {
    open_bin = copy;
    copied = 1;
  }
  code = run(arg, 0, uid);
  open_bin = OPEN_BIN;
  if (copied) unlink(copy);
  if (uid >= 0) rmdir(dir);
  CHECK(code != 0 && code != 126 && code != 127, "not root: non-zero exit (%d)", code);
  CHECK(strstr(err, "root") != 0 && out[0] == 0, "not root: says why on stderr (%s)", line(err));
  CHECK(strcmp(get(PARANOID), "4\n") == 0 && strcmp(get(WATCHDOG), "1\n") == 0,
        "not root: nothing changed");
}

int main(void)
{
  int code;
  const char *emulator;

  /* A forked child under qemu-i386 7.2 spins before it reaches execve,
     and other emulators cannot exec a foreign binary at all: the command
     is plain C, tested where it runs natively. test/run names the
     emulator it runs the programs under (the build's RUN); the same
     build runs natively in test-system's guests, where it names none. */
  emulator = getenv("CPUCYCLES_TEST_EMULATOR");
  if (emulator && *emulator) {
    printf("skip cpucycles-open: the tests run under an emulator (%s)\n", emulator);
    return 0;
  }
  CHECK(mkdtemp(root) != 0, "a private root for a fake tree");
  snprintf(arg, sizeof arg, "--root=%s", root);
  code = run("--frobnicate", 0, -1);
  if (code == 127 || code == -1) {
    printf("skip cpucycles-open: cannot run %s from here (%d)\n", OPEN_BIN, code);
    tree_remove(root);
    return check_done();
  }
  if (geteuid() == 0) {
    as_root();
    empty_tree();
    bad_arguments();
    without_root(65534); /* nobody */
  } else {
    printf("skip cpucycles-open changes: the tests are not running as root\n");
    bad_arguments();
    without_root(-1);
  }
  tree_remove(root);
  return check_done();
}

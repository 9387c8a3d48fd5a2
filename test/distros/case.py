# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""case.py: what every case of test/distros is made of: a clean copy of
the tree, a log, shell steps whose output is kept, and the suite's count."""
import concurrent.futures
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, 'test'))
import tools  # noqa: E402
LOGS = os.path.join(SRC, 'build', 'distros')
STEP_TIMEOUT = 1800
# The caller's build settings must not leak into a case: each case says
# what it sets.
SCRUB = ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'CC', 'CFLAGS', 'CPPFLAGS', 'LDFLAGS', 'CXX',
         'CXXFLAGS', 'AR', 'NM', 'RANLIB', 'OBJCOPY', 'DEB_BUILD_MAINT_OPTIONS',
         'DEB_BUILD_OPTIONS', 'DESTDIR']
# The suite's checks of configure's logic: its arguments, upstream's build
# interface and the builds it sets up, each in scratch copies of the tree.
# What they judge is configure's output and what the makes write; it
# depends on Python, the makes, the shell and the user. README's run on
# the machine has them as root and trixie-user with Debian 13's Python
# and make, unprivileged, and those run them. The other cases change what
# the library is built with or from (a compiler, a C library, flags, a
# read-only or unpacked source, a package), which their own build and the
# rest of the suite judge, and leave these out (test/run's
# CPUCYCLES_TEST_OMIT): they were two thirds of each case's time (the
# clang case took 338 s with them on 2026-11-27).
CONFIGURE_CHECKS = {'CPUCYCLES_TEST_OMIT': 'checks/configure checks/configure_build checks/upstream'}
# Set when the run is interrupted: no case starts another step.
STOP = threading.Event()


class CaseError(Exception):
    """A case could not run its steps: the reason for its FAIL line."""


class Skip(Exception):
    """A case that cannot run on this machine: the reason for its skip line."""


def clean_env(**extra):
    """The environment without the caller's build settings, extra added."""
    return tools.clean_env(drop=SCRUB, **extra)


class Case:
    """One case's work directory, log and step results."""

    def __init__(self, name, work, logs=LOGS):
        self.name = name
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir)
        self.log = open(os.path.join(logs, name + '.log'), 'w')
        self.problems = []
        self.suite = None  # (passed, failed, skipped) of the last suite run
        self.failures = []  # the suite's first FAIL lines, for the case's line

    def sh(self, command, cwd, env=None, wrap=None, timeout=STEP_TIMEOUT):
        """Runs one shell command line; -> (status, output). wrap puts a
        prefix (chroot ...) before the shell."""
        if STOP.is_set():
            raise CaseError('interrupted')
        argv = (wrap or []) + ['/bin/sh', '-c', command]
        if wrap:
            self.log.write('\n$ %s sh -c %s\n' % (' '.join(wrap[:3]), shlex.quote(command)))
        else:
            self.log.write('\n$ (cd %s && %s)\n' % (cwd, command))
        self.log.flush()
        start = time.monotonic()
        status, out = tools.output(argv, cwd=None if wrap else cwd, env=env or clean_env(),
                                   timeout=timeout, stdin=subprocess.DEVNULL)
        self.log.write(out)
        # the time each step took, kept in the case's log
        self.log.write('[exit status %d, %.1f s]\n' % (status, time.monotonic() - start))
        self.log.flush()
        return status, out

    def must(self, command, cwd, **kw):
        status, out = self.sh(command, cwd, **kw)
        if status != 0:
            raise CaseError('`%s` exited %d' % (command, status))
        return out

    def readme(self, tree, commands, prefix='', wrap=None, env=None, cwd=None):
        """README's two commands, as written, in tree (inside the chroot
        when wrap is given); a failing one is noted and the next still
        runs, so that the suite's count is seen either way."""
        for i, command in enumerate(commands):
            line = prefix + command
            if wrap:
                line = 'cd %s && %s' % (shlex.quote(tree), line)
            status, out = self.sh(line, cwd or tree, env=env, wrap=wrap)
            if i == len(commands) - 1:
                self.count_suite(out)
            if status != 0:
                self.problems.append("README's `%s` exited %d" % (command, status))

    def nm_check(self, tree, api):
        """nm on the static library: exactly the API defined globally."""
        lib = os.path.join(tree, 'build', '0', 'package', 'lib', 'libcpucycles.a')
        if not os.path.exists(lib):
            self.problems.append('no build/0/package/lib/libcpucycles.a')
            return
        out = self.must('nm -g --defined-only %s' % shlex.quote(lib), tree)
        names = set(re.findall(r'^\S+ [A-Za-z] (\S+)$', out, re.M))
        extra, missing = sorted(names - api), sorted(api - names)
        if extra:
            self.problems.append('nm: global names outside the API: ' + ' '.join(extra[:8]))
        if missing:
            self.problems.append('nm: API names not defined: ' + ' '.join(missing))

    def count_suite(self, out):
        """Reads the suite's counts, and its first failing checks so that
        the case's one line says what failed where only it is seen (CI)."""
        self.suite = suite_count(out)
        self.failures = [l[5:][:160] for l in out.splitlines() if l.startswith('FAIL ')][:3]

    def line(self):
        counts = ''
        if self.suite:
            counts = '%d passed, %d failed, %d skipped' % self.suite
            if self.suite[1]:
                self.problems.insert(0, 'the suite failed' + ''.join(
                    ' | ' + f for f in self.failures))
        elif not self.problems:
            self.problems.append('no `N passed, M failed` line from the suite')
        where = ' (%s)' % os.path.relpath(self.log.name, SRC)
        if self.problems:
            return '%s: FAIL %s%s%s' % (self.name, '; '.join(self.problems),
                                         ' [%s]' % counts if counts else '', where)
        return '%s: %s' % (self.name, counts)


def suite_count(out):
    """The suite's last `N passed, M failed` (and `K skipped`) -> tuple."""
    found = re.findall(r'^(\d+) passed, (\d+) failed\s*$', out, re.M)
    if not found:
        return None
    skipped = re.findall(r'^(\d+) skipped\s*$', out, re.M)
    return int(found[-1][0]), int(found[-1][1]), int(skipped[-1]) if skipped else 0


def tracked_files():
    """The files git tracks, as they are in the working tree (so that
    uncommitted edits are tested); None outside a git checkout."""
    try:
        p = subprocess.run(['git', '-C', SRC, 'ls-files', '-z'], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
    except OSError:
        return None
    if p.returncode != 0:
        return None
    return [f for f in p.stdout.decode().split('\0') if f]


def clean_copy(dest):
    """A copy of the tree without anything a build or git left: the files
    git tracks, or, without git, everything but build/ and .git."""
    files = tracked_files()
    if files is None:
        shutil.copytree(SRC, dest, symlinks=True,
                        ignore=lambda d, names: [n for n in names if d == SRC and
                                                 n in ('build', '.git')])
        return dest
    for name in files:
        src = os.path.join(SRC, name)
        if not os.path.lexists(src):
            continue  # deleted in the working tree
        target = os.path.join(dest, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.islink(src):
            os.symlink(os.readlink(src), target)
        elif os.path.isdir(src):  # a tracked file become a directory
            shutil.copytree(src, target, symlinks=True)
        else:
            shutil.copy2(src, target)
    return dest


def snapshot(tree):
    """Every path under tree with its type, mode, size and mtime."""
    seen = {}
    for root, dirs, files in os.walk(tree):
        for name in dirs + files:
            path = os.path.join(root, name)
            st = os.lstat(path)
            seen[os.path.relpath(path, tree)] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return seen


def run_pool(tasks, jobs, label, cleanup):
    """Runs tasks (each a function -> [(line, verdict)], verdict 'pass',
    'fail' or 'skip') jobs at a time and prints their lines in order, then
    `N passed, M failed` over them; cleanup() runs once they are done or
    interrupted. -> the exit status: 1 on any failure. Killed, the tasks
    start no other step (STOP) and their own finally clauses still run."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    verdicts = []
    pool = concurrent.futures.ThreadPoolExecutor(jobs)
    try:
        futures = [pool.submit(task) for task in tasks]
        for future in futures:
            for line, verdict in future.result():
                print(line, flush=True)
                verdicts.append(verdict)
    except BaseException:
        STOP.set()
        print('%s: interrupted' % label, flush=True)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        cleanup()
    passed, failed = verdicts.count('pass'), verdicts.count('fail')
    if verdicts.count('skip'):
        print('%d skipped' % verdicts.count('skip'))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0

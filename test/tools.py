# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""tools.py: what the Python test drivers of test/ share.

- run(), output(): one command, its output captured (and logged, for the drivers
  that keep a log a host), a time limit, never an exception;
- clean_env(): the environment without the caller's make jobserver and,
  for drivers that configure builds of their own, its compiler settings;
- config(): a build directory's config.mk as a dict;
- Tally: ok/FAIL/skip lines counted, and the 'N passed, M failed' end;
- program(): a C test program's output judged line by line (check.h);
- load_configure(), tables(): configure and scripts-build/tables.py as
  modules;
- elf_interpreter(): the dynamic loader an ELF program asks for;
- die_with_parent(): a child that the kernel kills when its driver dies.

Import it from any driver with
    sys.path.insert(0, <the test folder>); import tools
It writes no __pycache__ into the source tree.
"""
import ctypes
import glob
import hashlib
import json
import os
import re
import shlex
import signal
import struct
import subprocess
import sys

sys.dont_write_bytecode = True

TEST = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(TEST)

# What make hands its children: a driver's own make must not join the
# caller's jobserver.
MAKE_VARS = ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL')
# What configure and make take from the environment: a driver that picks
# its own compilers (a cross toolchain, a macOS one) sets them aside.
BUILD_VARS = ('CC', 'CFLAGS', 'CPPFLAGS', 'LDFLAGS', 'AR', 'NM', 'OBJCOPY', 'RANLIB')


def clean_env(drop=MAKE_VARS + BUILD_VARS, base=None, **extra):
    """base (os.environ) without the names in drop, with extra added."""
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in drop}
    env.update(extra)
    return env


def _call(cmd, cwd, env, timeout, merge, log, stdin):
    if log:
        log.write('$ %s\n' % ' '.join(shlex.quote(c) for c in cmd))
        log.flush()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT if merge else subprocess.PIPE, timeout=timeout)
        code = p.returncode
        out = p.stdout.decode('utf-8', 'replace')
        err = '' if merge else p.stderr.decode('utf-8', 'replace')
    except subprocess.TimeoutExpired:
        code, out, err = -1, '', 'timed out after %d seconds\n' % timeout
    except OSError as e:
        code, out, err = -1, '', '%s\n' % e
    if log:
        log.write(out + err)
        log.flush()
    return code, out, err


def build_env(cfg):
    """The environment with a build's own compiler and flags as config.mk
    holds them (make's $$ is one $): configure run again as that build was."""
    env = clean_env(drop=BUILD_VARS)
    for name in ('CC', 'CFLAGS', 'CPPFLAGS', 'LDFLAGS'):
        env[name] = cfg.get(name, '').replace('$$', '$')
    return env


def run(cmd, cwd=None, env=None, timeout=600, log=None, stdin=None):
    """Runs cmd (a list) -> (status, stdout, stderr), decoded. Status -1
    when it could not start or ran out of time, the reason on stderr. log:
    a file the command line and its output are appended to; stdin: as
    subprocess takes it (None: this process's)."""
    return _call(cmd, cwd, env, timeout, False, log, stdin)


def output(cmd, cwd=None, env=None, timeout=600, log=None, stdin=None):
    """run(), with stderr in stdout, as a terminal shows them -> (status,
    output)."""
    code, out, err = _call(cmd, cwd, env, timeout, True, log, stdin)
    return code, out + err


def last_lines(text, n=3):
    """The end of a command's output, on one line, for a check's message."""
    return ' | '.join(l.strip() for l in text.strip().splitlines()[-n:])


def config(path):
    """config.mk of a build directory (or the file itself) -> dict; {} when
    there is none."""
    if os.path.isdir(path):
        path = os.path.join(path, 'config.mk')
    try:
        with open(path) as f:
            return dict(l.rstrip('\n').split(' = ', 1) for l in f if ' = ' in l)
    except OSError:
        return {}


# test-cross's record that a build's whole suite passed, with the files it
# ran: make test-system leaves what cannot differ on another kernel to it.
SUITE_PASSED = os.path.join('test', 'suite-passed.json')


def suite_files(build):
    """{path under build: sha256} of what a suite runs: the test programs,
    and the libraries and commands they load."""
    found = {}
    for sub in (os.path.join('test', 'bin'), os.path.join('package', 'lib'),
                os.path.join('package', 'bin')):
        top = os.path.join(build, sub)
        for name in sorted(os.listdir(top)) if os.path.isdir(top) else []:
            path = os.path.join(top, name)
            if os.path.isfile(path):
                with open(path, 'rb') as f:
                    found[os.path.join(sub, name)] = hashlib.sha256(f.read()).hexdigest()
    return found


def record_suite(build, passed):
    """After a suite of build: its record when it passed, none otherwise."""
    path = os.path.join(build, SUITE_PASSED)
    if passed:
        with open(path, 'w') as f:
            json.dump(suite_files(build), f, indent=0, sort_keys=True)
    elif os.path.exists(path):
        os.remove(path)


def suite_passed(build):
    """Whether build's whole suite passed (record_suite) with exactly the
    files it has now."""
    try:
        with open(os.path.join(build, SUITE_PASSED)) as f:
            recorded = json.load(f)
    except (OSError, ValueError):
        return False
    return bool(recorded) and recorded == suite_files(build)


class Tally:
    """Counts the checks of one run: each prints 'ok ...' or 'FAIL ...';
    one that cannot exercise its subject here prints 'skip ...' and is
    counted apart, as neither."""

    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def result(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print('%s %s' % ('ok' if ok else 'FAIL', what))

    def skip(self, what):
        self.skipped += 1
        print('skip %s' % what)

    def end(self):
        """The summary lines, then exit: non-zero when anything failed."""
        if self.skipped:
            print('%d skipped (neither passed nor failed)' % self.skipped)
        print('%d passed, %d failed' % (self.passed, self.failed))
        sys.exit(1 if self.failed else 0)


def program(tally, prefix, path, args=(), env=None, timeout=600):
    """Runs a C test program (behind prefix: an emulator, a guest) and
    counts its lines as check.h prints them: 'ok'/'FAIL' one check each,
    'skip' one check that could not run here. A program that exits
    non-zero without a FAIL line, or reports nothing, fails."""
    name = ' '.join([os.path.basename(path)] + list(args))
    code, out, err = run(prefix + [path] + list(args), env=env, timeout=timeout)
    lines = out.splitlines()
    seen = 0
    for line in lines:
        word, _, rest = line.partition(' ')
        if word == 'skip':
            tally.skip('%s: %s' % (name, rest))
        elif word in ('ok', 'FAIL'):
            tally.result(word == 'ok', '%s: %s' % (name, rest))
        else:
            continue
        seen += 1
    if code != 0 and not any(l.startswith('FAIL ') for l in lines):
        tally.result(False, '%s: exited with status %d: %s' % (name, code, err.strip()[-300:]))
    if seen == 0:
        tally.result(False, '%s: reported no results' % name)


def elf_interpreter(path):
    """The dynamic loader an ELF program names (its PT_INTERP) -> str; None
    for a static program or a file that is not ELF."""
    try:
        with open(path, 'rb') as f:
            data = f.read(1 << 20)
    except OSError:
        return None
    if data[:4] != b'\x7fELF' or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None
    wide = data[4] == 2
    order = '<' if data[5] == 1 else '>'
    try:
        if wide:
            phoff, = struct.unpack_from(order + 'Q', data, 32)
            size, count = struct.unpack_from(order + 'HH', data, 54)
        else:
            phoff, = struct.unpack_from(order + 'I', data, 28)
            size, count = struct.unpack_from(order + 'HH', data, 42)
        for i in range(count):
            at = phoff + i * size
            if wide:
                kind, _, offset, _, _, length = struct.unpack_from(order + 'IIQQQQ', data, at)
            else:
                kind, offset, _, _, length = struct.unpack_from(order + 'IIIII', data, at)
            if kind == 3:  # PT_INTERP: the loader's path, NUL-terminated
                return data[offset:offset + length].split(b'\0')[0].decode('utf-8', 'replace')
    except struct.error:
        return None
    return None


def die_with_parent():
    """In a driver's child before exec (subprocess's preexec_fn; Linux):
    the kernel kills it when the thread that started it dies, however it
    dies (killed by a timeout, interrupted), so that nothing a driver
    starts (a guest's qemu, a busy loop) outlives it."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def load_configure(src=SRC, name='configure_script'):
    """The configure script of a source tree, as a module (its functions:
    native_host(), resolve_host(), emulator(), ...)."""
    from importlib.machinery import SourceFileLoader
    return SourceFileLoader(name, os.path.join(src, 'configure')).load_module()


def tables(src=SRC):
    """scripts-build/tables.py: the counters and hosts, described once."""
    path = os.path.join(src, 'scripts-build')
    if path not in sys.path:
        sys.path.insert(0, path)
    import tables as module
    return module


def _make_words(path, pattern):
    """The lines of a make file that match pattern (a regex with one group
    of words, and an optional second: the comment)."""
    with open(path) as f:
        return [re.match(pattern, l).groups() for l in f if re.match(pattern, l)]


def test_sources(src=SRC):
    """{program name: its C file} of every test folder test/build.mk builds
    from (its TEST_FOLDERS)."""
    folders = _make_words(os.path.join(src, 'test', 'build.mk'), r'TEST_FOLDERS = (.+)$')[0][0]
    return {os.path.basename(p)[:-2]: p for d in folders.split()
            for p in sorted(glob.glob(os.path.join(src, 'test', d, '*.c')))}


def linux_only(src=SRC, name='LINUX_ONLY'):
    """test/platforms.mk -> {test name: what only Linux has}; with name
    NOT_WINDOWS or WINDOWS_ONLY, that list's tests and reasons."""
    rows = _make_words(os.path.join(src, 'test', 'platforms.mk'),
                       name + r' \+= (\S+)\s+# (.+)$')
    return dict(rows)

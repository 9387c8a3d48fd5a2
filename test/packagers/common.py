# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""case.py: what every recipe of test/packagers is made of: a clean copy
of the tree that an unprivileged user owns, the recipe's shell steps run
as that user and logged, and the checks of what the recipe packaged (the
exact set of files, a program linked and run against them, and the
recipe's flags in every compilation unit)."""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SRC, 'test'))
sys.path.insert(0, os.path.join(SRC, 'test', 'distros'))
import tools  # noqa: E402
from case import CaseError, Skip, STOP, clean_copy, run_pool  # noqa: E402,F401  (test/distros' case.py)

LOGS = os.path.join(SRC, 'build', 'packagers')
STEP_TIMEOUT = 900
NOBODY = 65534  # nobody:nogroup on Debian
PATH = '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin'
# Every recipe compiles with these as well, so that the compiler records
# its command line in each compilation unit (DW_AT_producer).
RECORD = '-g -grecord-gcc-switches'


def version():
    with open(os.path.join(SRC, 'version')) as f:
        return f.read().strip()


def machine():
    return os.uname().machine


def upstream_files(man1):
    """What upstream's `make install` puts under its prefix, nothing more."""
    return {'bin/cpucycles-info', 'bin/cpucycles-open', 'lib/libcpucycles.so.1',
            'lib/libcpucycles.so', 'lib/libcpucycles.a', 'include/cpucycles.h',
            'man/man3/cpucycles.3'} | {'man/man1/' + p for p in man1}


def man1_pages():
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(SRC, 'doc', 'man', '*.1')))


class Case:
    """One recipe's work directory (owned by the user its steps run as),
    its log and its problems."""

    def __init__(self, name, work):
        self.name = name
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir)
        self.home = os.path.join(self.dir, 'home')
        os.makedirs(self.home)
        self.log = open(os.path.join(LOGS, name + '.log'), 'w')
        self.problems = []
        # root runs the recipe's steps as nobody, so that whatever it
        # writes outside its own directory fails; anyone else is already
        # unprivileged
        self.as_user = os.geteuid() == 0

    def copy(self, sub='src'):
        """A clean copy of the tree in the case's directory."""
        return clean_copy(os.path.join(self.dir, sub))

    def hand_over(self):
        """Gives the case's directory to the user the steps run as."""
        if self.as_user:
            subprocess.run(['chown', '-R', '%d:%d' % (NOBODY, NOBODY), self.dir], check=True)

    def env(self, **extra):
        env = {'PATH': PATH, 'HOME': self.home, 'LANG': 'C.UTF-8', 'TMPDIR': self.home,
               'USER': 'nobody' if self.as_user else os.environ.get('USER', 'user')}
        env.update(extra)
        return env

    def take(self, name, into=None):
        """A copy of test/packagers' file name in the case's directory (or
        into): the steps run as nobody, who may not be able to read the
        source tree (a clone inside a home directory of mode 700);
        -> its path."""
        path = os.path.join(into or self.dir, name)
        shutil.copy(os.path.join(HERE, name), path)
        return path

    def sh(self, command, cwd, env=None, user=True):
        """One shell command line, as the unprivileged user unless user is
        False; -> (status, output)."""
        if STOP.is_set():
            raise CaseError('interrupted')
        argv = ['/bin/sh', '-c', command]
        env = env or self.env()
        if user and self.as_user:
            named = [t for t in [command, cwd] + sorted(env.values()) if in_source(t)]
            if named:
                # what works from a readable checkout fails from a private
                # one: refused here, whatever this checkout's permissions
                raise CaseError('a step as nobody names the source tree (take() a copy '
                                'first): %s' % named[0][:200])
            argv = as_nobody(argv)
        self.log.write('\n$ (cd %s && %s)\n' % (cwd, command))
        self.log.flush()
        status, out = tools.output(argv, cwd=cwd, env=env,
                                   timeout=STEP_TIMEOUT, stdin=subprocess.DEVNULL)
        self.log.write(out)
        self.log.write('[exit status %d]\n' % status)
        self.log.flush()
        return status, out

    def must(self, command, cwd, env=None, user=True, what=None):
        status, out = self.sh(command, cwd, env=env, user=user)
        if status != 0:
            last = [l for l in out.strip().splitlines() if l.strip()][-1:]
            raise CaseError('%s exited %d%s' % (what or '`%s`' % command, status,
                                                 ': ' + last[0].strip()[:200] if last else ''))
        return out

    def write(self, path, text, mode=0o644):
        with open(path, 'w') as f:
            f.write(text)
        os.chmod(path, mode)
        if self.as_user:
            os.chown(path, NOBODY, NOBODY)

    def shim(self, name, compiler, flags):
        """A compiler wrapper in the case's own bin/ that adds flags to
        every call, as Nix's cc-wrapper and Homebrew's superenv shims
        do; -> that bin directory."""
        bindir = os.path.join(self.dir, 'shims')
        os.makedirs(bindir, exist_ok=True)
        self.write(os.path.join(bindir, name),
                   '#!/bin/sh\nexec %s "$@" %s\n' % (shutil.which(compiler), flags), 0o755)
        return bindir

    # ---- the checks of what a recipe packaged ----

    def check_files(self, root, expected, what='the package'):
        """The files and links under root must be exactly expected."""
        found = set()
        for top, dirs, files in os.walk(root):
            for n in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
                found.add(os.path.relpath(os.path.join(top, n), root))
        self.log.write('\n%s holds: %s\n' % (what, ' '.join(sorted(found))))
        extra, missing = sorted(found - expected), sorted(expected - found)
        if extra:
            self.problems.append('%s holds files no recipe lists: %s' % (what, ' '.join(extra)))
        if missing:
            self.problems.append('%s lacks %s' % (what, ' '.join(missing)))
        return not extra and not missing

    def check_program(self, include, lib, static=None):
        """A program compiled against include/ and lib/ (and, given, linked
        with the static archive) runs and names this version."""
        prog = os.path.join(self.dir, 'use')
        links = [('shared', '-L%s -lcpucycles -Wl,-rpath,%s' % (shlex.quote(lib), shlex.quote(lib)))]
        if static:
            links.append(('static', '%s -pthread' % shlex.quote(static)))
        for kind, link in links:
            status, out = self.sh('cc -I%s -o %s-%s %s %s' % (
                shlex.quote(include), prog, kind, shlex.quote(os.path.join(HERE, 'use.c')), link),
                self.dir, user=False)
            if status != 0:
                self.problems.append('a program does not build against the %s library' % kind)
                continue
            status, out = self.sh('%s-%s' % (prog, kind), self.dir, user=False)
            words = out.split()
            if status != 0 or not words or words[0] != version():
                self.problems.append('the program linked %s printed %r (exit %d), not the version %s'
                                     % (kind, out.strip()[:80], status, version()))

    def check_flags(self, checks):
        """checks: [(file, flags)]. Every compilation unit of each file (a
        library, a program or an archive) was compiled with each of its
        flags, read back from DW_AT_producer; every function of a linked
        file lies in one of those units (code compiled without the
        recipe's -g has none); the archive holds a unit for each source of
        the shared library."""
        sources = {}
        for path, flags in checks:
            rel = os.path.relpath(path, self.dir)
            units = dwarf_units(path)
            if not units:
                self.problems.append('%s: no compilation unit with debug information '
                                     '(the recipe\'s flags never reached its compiler)' % rel)
                continue
            bad = {}
            for member, name, producer in units:
                lacking = [f for f in flags if not has_flag(producer, f)]
                if lacking:
                    bad[(member + ':' if member else '') + os.path.basename(name)] = lacking
            self.log.write('\n%s: %d units; producer of the first: %s\n'
                           % (rel, len(units), units[0][2]))
            if bad:
                self.problems.append('%s: %d of %d units lack the recipe\'s flags (%s)' % (
                    rel, len(bad), len(units), ', '.join(
                        '%s without %s' % (u, ' '.join(bad[u])) for u in sorted(bad)[:4])))
            sources[os.path.basename(path)] = {os.path.basename(n) for _, n, _ in units}
            if not path.endswith('.a'):
                outside = functions_outside_units(path)
                if outside:
                    self.problems.append('%s: %d functions lie in no compilation unit, compiled '
                                         'without the recipe\'s flags: %s' % (
                                             rel, len(outside), ' '.join(sorted(outside)[:6])))
        so, a = sources.get('libcpucycles.so.1'), sources.get('libcpucycles.a')
        if so and a and so - a:
            self.problems.append('libcpucycles.a lacks units of libcpucycles.so.1: %s'
                                 % ' '.join(sorted(so - a)[:6]))

    def line(self):
        where = ' (%s)' % os.path.relpath(self.log.name, SRC)
        if self.problems:
            return '%s: FAIL %s%s' % (self.name, '; '.join(self.problems), where)
        return '%s: ok' % self.name


def as_nobody(argv):
    """argv run as nobody:nogroup, without root's groups."""
    return ['setpriv', '--reuid=%d' % NOBODY, '--regid=%d' % NOBODY,
            '--clear-groups', '--'] + argv


def in_source(text):
    """Whether text names the source tree or a path inside it."""
    return re.search(re.escape(SRC) + r'(?![^/\s\'"])', text) is not None


def has_flag(producer, flag):
    """flag among a producer's switches, or with a value the compiler
    recorded for it (-fcf-protection as -fcf-protection=full)."""
    return any(w == flag or w.startswith(flag + '=') for w in producer.split())


def dwarf_units(path):
    """[(archive member or '', DW_AT_name, DW_AT_producer)] of every
    compilation unit in path."""
    status, out, _ = tools.run(['readelf', '--debug-dump=info', '--dwarf-depth=1', path])
    units, member, unit = [], '', None
    for line in out.splitlines():
        m = re.match(r'File: .*\((.*)\)$', line)
        if m:
            member = m.group(1)
            continue
        if re.match(r'\s*Compilation Unit @ offset', line):
            unit = [member, '', '']
            units.append(unit)
            continue
        m = re.match(r'\s*<[0-9a-f]+>\s+DW_AT_(producer|name)\s*:\s*(?:\([^)]*\):\s*)?(.*)$', line)
        if m and unit is not None:
            i = 2 if m.group(1) == 'producer' else 1
            if not unit[i]:
                unit[i] = m.group(2).strip()
    return [tuple(u) for u in units]


_SYSTEM = None


def system_functions():
    """The functions the C runtime's own objects link into every program
    and library (crt files, libc_nonshared.a, libgcc.a): never the
    recipe's to compile."""
    global _SYSTEM
    if _SYSTEM is None:
        _SYSTEM = set()
        for name in ('Scrt1.o', 'crt1.o', 'rcrt1.o', 'crti.o', 'crtn.o', 'crtbeginS.o',
                     'crtendS.o', 'crtbegin.o', 'crtend.o', 'libc_nonshared.a', 'libgcc.a'):
            _, path, _ = tools.run(['cc', '-print-file-name=' + name])
            path = path.strip()
            if os.path.isabs(path) and os.path.exists(path):
                _, out, _ = tools.run(['nm', '--defined-only', path])
                _SYSTEM |= set(re.findall(r'^\S* ?[A-Za-z] (\S+)$', out, re.M))
    return _SYSTEM


def functions_outside_units(path):
    """The functions of a linked file (from its symbol table) that no
    compilation unit's address ranges (.debug_aranges) cover, the C
    runtime's own left out."""
    status, out, _ = tools.run(['nm', '--defined-only', path])
    if status != 0:
        return set()
    funcs = {}
    for addr, kind, name in re.findall(r'^([0-9a-f]+) ([tTwWiI]) (\S+)$', out, re.M):
        funcs[int(addr, 16)] = name.split('@')[0]
    _, out, _ = tools.run(['readelf', '--debug-dump=aranges', path])
    ranges = [(int(a, 16), int(a, 16) + int(n, 16))
              for a, n in re.findall(r'^\s+([0-9a-f]{8,})\s+([0-9a-f]{8,})\s*$', out, re.M)]
    system = system_functions()
    return {name for addr, name in funcs.items()
            if name not in system and not any(lo <= addr < hi for lo, hi in ranges)}

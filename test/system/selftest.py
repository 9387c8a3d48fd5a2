#!/usr/bin/env python3
# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""selftest.py: test/system's own time limits and console flow, with no
guest booted (make test-system runs it first; a few seconds).

A stand-in agent (a small Python program speaking test/system/init's side
of the protocol) takes the place of qemu: it answers, or hangs, or talks
without answering, or exits. Each check would fail if the host side
waited for ever (the check's own watchdog says so), answered without
killing the guest, or sent a request faster than the agent asks for it.
Also checked: client.py gives up on a server that never replies, and
test/system/run kills a scenario's whole process group, and a worker
past its limit while the next guest still runs; and the list of what the
later scenarios leave out (test/system/run's ONCE) names only programs
and checks that exist; and the guest's unprivileged user can read and
run the programs of a private checkout (initramfs.py).
"""
import contextlib
import io
import os
import re
import socket
import stat
import sys
import tempfile
import threading
import time
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import guest as guestmod  # noqa: E402
import initramfs  # noqa: E402
import tools  # noqa: E402

# The agent's side. serve: answers every request, reading each chunk of
# lines only after asking for it with @@MORE, and says whether any byte came
# before it asked; a request whose script holds HANG is never answered.
# chatty: a console line every 50 ms, no answer. exit: gone at the first
# request.
AGENT = r'''
import base64, os, select, sys, time
mode = sys.argv[1]
buf = b''
def line():
    global buf
    while b'\n' not in buf:
        more = os.read(0, 65536)
        if not more:
            sys.exit(0)
        buf += more
    l, _, buf = buf.partition(b'\n')
    return l.decode()
def say(text):
    sys.stdout.write(text + '\n')
    sys.stdout.flush()
say('booting')
say('@@READY 6.1.0-test fake')
while True:
    words = line().split()
    if not words or words[0] != '@@RUN':
        continue
    if mode == 'exit':
        sys.exit(3)
    if mode == 'chatty':
        while True:
            say('a kernel message')
            time.sleep(0.05)
    ident, left, chunk = words[1], int(words[2]), int(words[3])
    early, asked, payload = False, 0, []
    while left > 0:
        n = min(chunk, left)
        early = early or bool(buf) or bool(select.select([0], [], [], 0.1)[0])
        say('@@MORE %s %d' % (ident, n))
        asked += 1
        payload += [line() for _ in range(n)]
        left -= n
    script = base64.b64decode(''.join(payload)).decode()
    if 'HANG' in script:
        time.sleep(3600)
    text = ('%d chunks %s %d bytes\n' % (asked, 'early' if early else 'in step',
                                         len(script))).encode()
    if 'PACKED' in script:  # the agent's gzipped reply, as test/system/init sends it
        import gzip
        say('@@OUTZ ' + ident)
        say(base64.b64encode(gzip.compress(b'packed ' + text)).decode())
    else:
        say('@@OUT ' + ident)
        say(base64.b64encode(text).decode())
    say('@@ERR ' + ident)
    say('@@STATUS %s %d' % (ident, 7 if 'exit 7' in script else 0))
'''


def load_run():
    path = os.path.join(HERE, 'run')
    loader = SourceFileLoader('system_run', path)
    module = module_from_spec(spec_from_loader('system_run', loader))
    loader.exec_module(module)
    return module


def within(seconds, fn, *args):
    """fn(*args) in a thread -> (returned, raised, seconds taken); returned
    is 'hung' when it has not ended after seconds."""
    box = {}

    def body():
        t0 = time.monotonic()
        try:
            box['value'] = fn(*args)
        except Exception as e:  # the exception is the result here
            box['error'] = e
        box['took'] = time.monotonic() - t0
    t = threading.Thread(target=body, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        return 'hung', None, seconds
    return box.get('value'), box.get('error'), box['took']


def fake_guest(work, mode):
    g = guestmod.Guest('amd64', work, open(os.path.join(work, 'console-%s.log' % mode), 'w'))
    g.margin = 1
    agent = os.path.join(work, 'agent.py')
    with open(agent, 'w') as f:
        f.write(AGENT)
    g.start([sys.executable, agent, mode], 10)
    return g


def check_guest(t, work):
    g = fake_guest(work, 'serve')
    big = os.path.join(work, 'upload')
    with open(big, 'wb') as f:
        f.write(os.urandom(30000))
    value, error, took = within(60, g.command, [big])
    if error or value == 'hung':
        t.result(False, 'a 30 KB upload to a stand-in agent: %s' % (error or 'hung'))
    else:
        status, out, _ = value
        words = out.decode().split()
        t.result(status == 0 and words[2:4] == ['in', 'step'] and int(words[0]) > 1,
                 'a 30 KB upload goes a chunk at a time, each after the agent asks (%r, status %d)'
                 % (out.decode().strip(), status))
    value, error, took = within(60, g.command, [big])
    t.result(error is None and value != 'hung' and int(value[1].decode().split()[0]) == 1,
             'the same file again is not sent again (%r)' % (error or value[1].decode().strip()))
    value, error, took = within(60, g.command, ['echo PACKED'], None, None, 5, True)
    t.result(error is None and value != 'hung' and value[1].decode().startswith('packed 1 chunks'),
             'a gzipped reply comes back unpacked (%r)' % (error or value,))
    value, error, took = within(60, g.command, ['exit 7'], None, None, 5, True)
    t.result(error is None and value != 'hung' and value[0] == 7,
             "a command's exit status comes back (%r)" % (error or value,))

    value, error, took = within(30, g.command, ['echo HANG'], None, 'user', 1, True)
    t.result(isinstance(error, guestmod.GuestGone) and 1.5 < took < 10,
             'a command the guest never answers: given up after its 1 s and the 1 s margin '
             '(%s after %.1f s)' % (error or value, took))
    t.result('HANG' in str(error) and 'as user' in str(error),
             'the reason names the request and the user (%s)' % error)
    killed = within(5, g.proc.wait)[0]
    t.result(killed not in ('hung', None), 'the stand-in "qemu" is killed (status %s)' % killed)
    value, error, took = within(10, g.command, ['true'], None, None, 5, True)
    t.result(isinstance(error, guestmod.GuestGone) and took < 1,
             'the next command is refused at once (%s after %.1f s)' % (error or value, took))

    g = fake_guest(work, 'chatty')
    value, error, took = within(30, g.command, ['true'], None, None, 1, True)
    t.result(isinstance(error, guestmod.GuestGone) and 'no answer' in str(error) and took < 10,
             'a console that talks but never answers: given up in time (%s after %.1f s)'
             % (error or value, took))
    g.off()

    g = fake_guest(work, 'exit')
    value, error, took = within(30, g.command, ['true'], None, None, 100, True)
    t.result(isinstance(error, guestmod.GuestGone) and 'exited' in str(error) and took < 10,
             'qemu gone mid-request: said at once (%s after %.1f s)' % (error or value, took))


def check_client(t, work):
    path = os.path.join(work, 'silent.sock')
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    t0 = time.monotonic()
    code, out, err = tools.run([sys.executable, os.path.join(HERE, 'client.py'), '--socket', path,
                                '--timeout', '1', '--patience', '1', 'true'], timeout=30)
    took = time.monotonic() - t0
    t.result(code == 125 and 'no reply' in err and took < 15,
             'client.py gives up on a server that never replies (status %d after %.1f s: %s)'
             % (code, took, err.strip()))
    server.close()


def check_run(t, work):
    run = load_run()
    run.TREE = work
    os.makedirs(os.path.join(work, 'build'), exist_ok=True)
    pidfile = os.path.join(work, 'pid')
    with open(os.path.join(work, 'group.log'), 'w') as log:
        value, error, took = within(60, run.group, [
            'sh', '-c', 'sleep 300 & echo $! > %s; echo ok started; sleep 300' % pidfile], 1, log)
    t.result(error is None and value != 'hung' and value[2] and took < 40,
             'a scenario past its limit is stopped (%s after %.1f s)' % (error or value, took))
    with open(pidfile) as f:
        pid = int(f.read())
    deadline = time.monotonic() + 5  # a killed process takes a moment to go
    while True:
        try:
            with open('/proc/%d/stat' % pid) as f:
                alive = f.read().rsplit(')', 1)[1].split()[0] != 'Z'
        except OSError:
            alive = False
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    t.result(not alive, "and what it started in the background too (pid %d %s)"
             % (pid, 'still there' if alive else 'gone'))
    t.result(error is None and value != 'hung' and run.last_step(value[1]) == 'ok started',
             "its last reported step is named (%r)" % (error or run.last_step(value[1]),))

    def command(arch, rows):
        body = ('import time; print("hanging"); time.sleep(300)' if arch == 'arm64' else
                'import json; json.dump({"rows": ["riscv64 fine"], "passed": 3, "failed": 0}, '
                'open(%r, "w"))' % rows)
        return [sys.executable, '-c', body]
    tally = run.Tally()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value, error, took = within(60, run.workers, ['arm64', 'riscv64'], '1', 1, tally,
                                    {'guest': 2, 'scenario': 1}, 0.2, command)
    text = out.getvalue()
    t.result(value != 'hung' and error is None and 'FAIL arm64' in text and took < 30,
             'a guest past its whole limit: a FAIL line names it (%s after %.1f s)'
             % (error or text.strip().replace('\n', ' | '), took))
    t.result(tally.failed == 1 and tally.passed == 3 and 'riscv64 fine' in tally.rows and
             any('arm64' in r and 'killed past 2 s' in r for r in tally.rows),
             'and the next guest still runs and counts (%d passed, %d failed, rows %r)'
             % (tally.passed, tally.failed, tally.rows))


def cpio_modes(data):
    """A newc archive (the initramfs) -> {name: mode}, read as the kernel
    unpacks it: a 110-byte header of hex fields, the name, the data, each
    padded to 4 bytes."""
    modes, at = {}, 0
    while True:
        mode, size, namesize = (int(data[at + 6 + 8 * i:at + 14 + 8 * i], 16) for i in (1, 6, 11))
        name = data[at + 110:at + 109 + namesize].decode()
        if name == 'TRAILER!!!':
            return modes
        modes[name] = mode
        at += 110 + namesize
        at += -at % 4 + size
        at += -at % 4


def check_initramfs(t, work):
    """The guest's user reads and runs the programs of a private checkout
    (below a directory of mode 700, built under umask 077): the guest
    holds its own copy, whatever the host's permissions."""
    private = os.path.join(work, 'private')
    bindir = os.path.join(private, 'src', 'build', 'package', 'bin')
    os.makedirs(bindir)
    for d in (private, bindir):
        os.chmod(d, 0o700)
    for name, mode in (('program', 0o700), ('data', 0o600)):
        with open(os.path.join(bindir, name), 'w') as f:
            f.write('x')
        os.chmod(os.path.join(bindir, name), mode)
    c = initramfs.Cpio()
    c.tree(os.path.dirname(bindir))
    modes = cpio_modes(c.bytes())
    root = bindir.lstrip('/')
    parents = [root.rsplit('/', n)[0] for n in range(root.count('/') + 1)]
    odd = sorted('%s %o' % (d, modes.get(d, 0)) for d in parents
                 if modes.get(d) != stat.S_IFDIR | 0o755)
    t.result(not odd, "the directories down to a private tree's programs are 755 in the guest "
             '(not: %s)' % odd)
    got = {n: '%o' % modes.get(root + '/' + n, 0) for n in ('program', 'data')}
    t.result(got == {'program': '100755', 'data': '100644'},
             'a program of mode 700 is 755 in the guest, a file of mode 600 is 644 (%s)' % got)


def check_once(t):
    """Every name in test/system/run's ONCE is a test program the build
    makes or a module of test/checks, and says why it cannot depend on a
    scenario; COUNTERS_ONLY names programs, none of them in ONCE; every
    scenario still runs something."""
    run = load_run()
    # test/build.mk builds library.c and stack.c twice each, and plugin.c
    # as a shared object outside test/bin
    programs = (set(tools.test_sources()) - {'library', 'stack', 'plugin'}) | {
        'library-shared', 'library-static', 'stack-shared', 'stack-static'}
    checks = {'checks/' + os.path.basename(p)[:-3] for p in
              os.listdir(os.path.join(os.path.dirname(HERE), 'checks')) if p.endswith('.py')}
    unknown = sorted(n for n in run.ONCE if n not in programs | checks)
    t.result(not unknown, 'ONCE names only test programs and checks (unknown: %s)' % unknown)
    bare = sorted(n for n, why in run.ONCE.items() if len(why.split()) < 2)
    t.result(not bare, 'each name in ONCE has its reason (without: %s)' % bare)
    unknown = sorted(n for n in run.COUNTERS_ONLY if n not in programs)
    t.result(not unknown, 'COUNTERS_ONLY names only test programs (unknown: %s)' % unknown)
    both = sorted(set(run.ONCE) & set(run.COUNTERS_ONLY))
    t.result(not both, 'no name is in both ONCE and COUNTERS_ONLY (%s)' % both)
    # HOST_ONLY: checks the cross builds skip already (NATIVE), which run
    # nothing in a guest; their names are nowhere else
    native = set()
    for name in checks:
        with open(os.path.join(os.path.dirname(HERE), name + '.py')) as f:
            if re.search(r'^NATIVE = True$', f.read(), re.M):
                native.add(name)
    odd = sorted(set(run.HOST_ONLY) - native)
    t.result(bool(run.HOST_ONLY) and not odd, 'HOST_ONLY names only checks of the native build '
             '(NATIVE = True), which run nothing in a guest (others: %s)' % odd)
    both = sorted(set(run.HOST_ONLY) & (set(run.ONCE) | set(run.COUNTERS_ONLY)))
    t.result(not both, 'no name of HOST_ONLY is in ONCE or COUNTERS_ONLY (%s)' % both)
    # EMULATED: a part of ONCE whose programs neither take a fault nor
    # start a thread or a process (their sources say so), and checks
    odd = sorted(set(run.EMULATED) - set(run.ONCE))
    t.result(bool(run.EMULATED) and not odd, 'EMULATED names only what ONCE does (others: %s)' % odd)
    sources = tools.test_sources()
    busy = re.compile(r'\b(pthread_create|fork|vfork|raise|kill|sigaction|signal|'
                      r'cpucycles_guard_\w+|cpucycles_select\w*)\s*\(')
    moving = sorted(n for n in run.EMULATED if n in sources and
                    busy.search(open(sources[n]).read()))
    t.result(not moving, 'EMULATED\'s programs start no thread or process, install no handler '
             'and make no selection (%s do)' % moving)
    every = sorted(programs - set(run.ONCE) - set(run.COUNTERS_ONLY)
                   - set(tools.linux_only(name='WINDOWS_ONLY')))
    t.result(len(every) >= 5, 'every scenario still runs the tests of what root or a setting '
             'allows (%s)' % ' '.join(every))


def main():
    t = tools.Tally()
    check_once(t)
    with tempfile.TemporaryDirectory(prefix='cpucycles-selftest.') as work:
        check_guest(t, work)
        check_client(t, work)
        check_run(t, work)
        check_initramfs(t, work)
    t.end()


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""guest.py: boot one guest and run commands in it.

A Guest is qemu-system with the serial console on a pipe, speaking to the
agent of test/system/init: each request is a shell script, each reply its
stdout, stderr and exit status. Guest.serve() lets other processes send
requests through a unix socket (test/system/client.py, the RUN prefix that
test/run puts before every program), one at a time.

From the command line, for trying a build in a guest by hand:

  python3 test/system/guest.py --arch arm64 --build build/cross-arm64 \\
      --cmd 'echo 1 > /proc/sys/kernel/perf_user_access' \\
      --cmd '$BUILD/package/bin/cpucycles-info' --user user --cmd 'id'

boots the arch's Debian kernel with the build's package/ and test/bin/ at
their own absolute paths, runs each --cmd with sh -c (as root, or as the
user named by the --user before it; $BUILD is the build directory), prints
what each wrote and its status, and exits non-zero if any failed.
"""
import argparse
import base64
import gzip
import hashlib
import json
import os
import queue
import shlex
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import fetch  # noqa: E402
import initramfs  # noqa: E402
import machines  # noqa: E402
import tools  # noqa: E402

# The environment a program may take from test/run: the suite's own knobs
# and the loader's path (installed.py runs a program against the
# installed library). The host's PATH, HOME and locale mean nothing there.
FORWARDED = ('CPUCYCLES', 'cpucycles', 'LD_LIBRARY_PATH')
NOT_FORWARDED = ('CPUCYCLES_TEST_RUN',)


# Base64 lines of a request sent before the agent asks for more (see
# init). 48 lines of 77 bytes, 3.7 KB, stay under the 4080 bytes of input
# qemu's SCLP console (s390x) holds for its guest, and under a terminal's
# 4 KB line buffer. With more pending that console stalled: a 70 KB
# request sat there, the guest idle, until one more byte came (2026-11-24).
CHUNK = 48

# The host's patience with a command beyond the time the guest's own
# `timeout` gives it: the agent's base64 reply and a loaded TCG guest.
MARGIN = 120

_EOF = object()  # the reader's last word: qemu's output ended


class GuestGone(Exception):
    pass


class Guest:
    def __init__(self, arch, build, log, extra_trees=(), cpu=None):
        self.arch, self.machine, self.log = arch, dict(machines.MACHINES[arch]), log
        if cpu:  # another -cpu for this machine, for experiments
            qemu = list(self.machine['qemu'])
            qemu[qemu.index('-cpu') + 1] = cpu
            self.machine['qemu'] = qemu
        self.build = os.path.abspath(build)
        # test/lib: twocopies' plugin, which test/bin cannot hold (test/run runs all of it);
        # system: the harness's own programs (sigtrace)
        self.trees = [os.path.join(self.build, d)
                      for d in ('package', 'test/bin', 'test/lib', 'system')]
        self.trees = [t for t in self.trees if os.path.isdir(t)] + list(extra_trees)
        self.lines = queue.Queue()
        self.lock = threading.Lock()
        self.serial = 0
        self.gone = None
        self.margin = MARGIN
        # the request in the guest now, for a harness that gives up on it
        self.current = None
        # files copied in by command(), by path: their contents' digests
        self.uploaded = {}
        self.proc = None
        self.kernel_release = '?'
        self.packages = '?'

    def write_log(self, text):
        self.log.write(text)
        self.log.flush()

    def boot(self, timeout=300):
        """Fetches what is missing, writes the initramfs, starts qemu and
        waits for the agent. Raises GuestGone when it does not answer."""
        kernel, busybox, self.packages = fetch.guest_files(self.arch, self.machine, self.log)
        initrd = os.path.join(self.build, 'system-initramfs.cpio')
        cc_prefix = self.machine['triplet'] + '-'
        readelf = cc_prefix + 'readelf' if subprocess.call(
            ['sh', '-c', 'command -v %sreadelf' % cc_prefix], stdout=subprocess.DEVNULL) == 0 \
            else 'readelf'
        initramfs.build(initrd, busybox, os.path.join(HERE, 'init'), self.trees,
                        self.machine['triplet'], readelf)
        cmd = self.machine['qemu'] + machines.COMMON + [
            '-kernel', kernel, '-initrd', initrd,
            '-append', '%s console=%s' % (machines.APPEND, self.machine['console'])]
        self.write_log('# %s\n# %s\n' % (self.packages, ' '.join(shlex.quote(c) for c in cmd)))
        self.start(cmd, timeout)

    def start(self, cmd, timeout):
        """Starts cmd (qemu, or a stand-in that speaks the agent's side)
        and waits for the agent."""
        self.started = time.time()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, preexec_fn=tools.die_with_parent)
        threading.Thread(target=self._reader, daemon=True).start()
        line = self._wait(lambda l: l.startswith('@@READY'), timeout, 'boot')
        self.kernel_release = line.split()[1] if len(line.split()) > 1 else '?'
        self.boot_seconds = time.time() - self.started

    def _reader(self):
        for raw in self.proc.stdout:
            line = raw.decode('utf-8', 'replace').rstrip('\r\n')
            # a kernel message the agent's line was appended to (ppc64's
            # hvc console prints one at boot without a newline)
            at = line.find('@@')
            if at > 0:
                self.write_log(line[:at] + '\n')
                line = line[at:]
            # the agent's payload lines are long and many: the log keeps
            # the markers and anything else the console said
            # (not the agent's many requests for the next lines of one)
            if not line.startswith('@@MORE ') and (line.startswith('@@') or
                                                   not _is_base64(line)):
                self.write_log(line + '\n')
            self.lines.put(line)
        self.lines.put(_EOF)

    def _wait(self, predicate, timeout, what, collect=None, allowed=None):
        """-> the first line that satisfies predicate; the lines before it
        go to collect. Raises GuestGone, the guest killed, when none comes
        within timeout seconds (however chatty the console is meanwhile)
        or qemu's output ends; allowed: the whole time the reason names,
        where timeout is what is left of it."""
        deadline = time.monotonic() + timeout
        allowed = timeout if allowed is None else allowed
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                self._die('no answer to %s within %d s' % (what, allowed))
            if line is _EOF:
                self._die('qemu exited during %s (status %s)' % (what, self._status()))
            if predicate(line):
                return line
            if collect is not None:
                collect.append(line)
            if time.monotonic() >= deadline:
                self._die('no answer to %s within %d s' % (what, allowed))

    def _status(self):
        try:
            return self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # its output closed, itself still there
            return 'unknown'

    def _die(self, why):
        self.kill(why)
        raise GuestGone(why)

    def kill(self, why):
        """Gives up on the guest: qemu killed, every request after this one
        refused with why."""
        if not self.gone:
            self.gone = why
            self.write_log('# guest gone: %s\n' % why)
        if self.proc and self.proc.poll() is None:
            self.proc.kill()

    def script(self, text, timeout, what='a script'):
        """Runs a shell script in the guest -> (status, stdout, stderr) as
        bytes. timeout is the host's patience, from the moment the request
        is sent (waiting for another request to end counts too); the
        script should limit its own commands well within it. what names
        the request in the reason a guest that stops answering is given."""
        deadline = time.monotonic() + timeout
        if not self.lock.acquire(timeout=timeout):
            raise GuestGone('%s waited %d s for the guest, busy with %s' % (
                what, timeout, self.current))
        try:
            if self.gone:
                raise GuestGone(self.gone)
            self.serial += 1
            ident = str(self.serial)
            name = 'request %s (%s)' % (ident, what)
            self.current = name
            payload = base64.encodebytes(text.encode()).decode().splitlines()
            self._send('@@RUN %s %d %d\n' % (ident, len(payload), CHUNK))
            sent = 0
            while sent < len(payload):
                more = self._wait(lambda l: l.startswith('@@MORE %s ' % ident),
                                  deadline - time.monotonic(), name, allowed=timeout)
                n = int(more.split()[2])
                self._send(''.join(l + '\n' for l in payload[sent:sent + n]))
                sent += n
            body = []
            end = self._wait(lambda l: l.startswith('@@STATUS %s ' % ident),
                             deadline - time.monotonic(), name, body, timeout)
            out, err, part = [], [], None
            packed = set()  # the parts the agent sent gzipped (@@OUTZ, @@ERRZ)
            for line in body:
                word, _, rest = line.partition(' ')
                if rest == ident and word in ('@@OUT', '@@OUTZ', '@@ERR', '@@ERRZ'):
                    part = out if word.startswith('@@OUT') else err
                    if word.endswith('Z'):
                        packed.add(id(part))
                elif part is not None and _is_base64(line):
                    part.append(line)
            self.current = None
            return int(end.split()[2]), _decode(out, id(out) in packed), \
                _decode(err, id(err) in packed)
        finally:
            self.lock.release()

    def _send(self, text):
        try:
            self.proc.stdin.write(text.encode())
            self.proc.stdin.flush()
        except OSError as e:
            self._die('cannot write to qemu: %s' % e)

    def shipped(self, path):
        return any(path == t or path.startswith(t + '/') for t in self.trees)

    def command(self, argv, env=None, user=None, timeout=600, shell=False):
        """argv run in the guest -> (status, stdout, stderr). A program or
        a library directory that is not in the initramfs (installed.py
        builds one on the fly) is copied in first, to the same path,
        compressed, unless the same bytes went to that path earlier in
        this boot; a link to a file beside it is made a link there."""
        env = {k: v for k, v in (env or {}).items()
               if k.startswith(FORWARDED) and k not in NOT_FORWARDED}
        lines = ['cd /tmp', 'export HOME=/tmp']
        uploads = [] if shell else [argv[0]]
        for d in env.get('LD_LIBRARY_PATH', '').split(':'):
            if d and os.path.isdir(d):  # what the loader may open: no archives
                uploads += [os.path.join(d, n) for n in sorted(os.listdir(d)) if '.so' in n]
        sent = {}
        for path in uploads:
            if not os.path.isabs(path) or self.shipped(path) or not os.path.isfile(path):
                continue
            target = os.readlink(path) if os.path.islink(path) else None
            if target and '/' not in target and os.path.join(os.path.dirname(path), target) in uploads:
                # libcpucycles.so -> libcpucycles.so.1: the link, not a second copy
                lines.append('ln -sf %s %s' % (shlex.quote(target), shlex.quote(path)))
                continue
            with open(path, 'rb') as f:
                raw = f.read()
            digest = hashlib.sha256(raw).hexdigest()
            if self.uploaded.get(path) == digest:
                continue  # there already, from an earlier request of this boot
            sent[path] = digest
            # compressed: the console carries a few KB a second
            data = base64.encodebytes(gzip.compress(raw, 9, mtime=0)).decode()
            lines += ['mkdir -p %s' % shlex.quote(os.path.dirname(path)),
                      "base64 -d <<'@@EOF' | gunzip > %s || exit 125\n%s@@EOF" % (
                          shlex.quote(path), data),
                      'chmod 755 %s' % shlex.quote(path)]
        for key, value in sorted(env.items()):
            lines.append('export %s=%s' % (key, shlex.quote(value)))
        run = ' '.join(shlex.quote(a) for a in (['sh', '-c', argv[0]] if shell else argv))
        if user and user != 'root':
            # busybox su execs the shell, which execs the program: the
            # timeout's signal reaches the program itself; -p keeps the
            # environment exported above
            run = 'su -p -s /bin/sh %s -c %s' % (shlex.quote(user), shlex.quote('exec ' + run))
        lines.append('exec timeout -s KILL %d %s' % (timeout, run))
        what = '%s as %s' % (' '.join(argv)[:120] if shell else ' '.join(
            [os.path.basename(argv[0])] + list(argv[1:]))[:120], user or 'root')
        reply = self.script('\n'.join(lines) + '\n', timeout + self.margin, what)
        if reply[0] != 125:  # 125: an upload failed (or the program said so: sent again)
            self.uploaded.update(sent)
        return reply

    def off(self):
        if self.proc and self.proc.poll() is None and not self.gone:
            try:
                self.proc.stdin.write(b'@@OFF\n')
                self.proc.stdin.flush()
                self.proc.wait(timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def serve(self, path):
        """Answers client.py's requests on a unix socket, in a thread."""
        if os.path.exists(path):
            os.remove(path)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(4)

        def one(conn):
            with conn, conn.makefile('rwb') as f:
                try:
                    req = json.loads(f.readline().decode())
                    status, out, err = self.command(req['argv'], req.get('env'), req.get('user'),
                                                    int(req.get('timeout', 600)))
                except GuestGone as e:
                    status, out, err = 125, b'', ('the guest is gone: %s\n' % e).encode()
                except (ValueError, KeyError) as e:
                    status, out, err = 125, b'', ('bad request: %s\n' % e).encode()
                f.write(json.dumps({'status': status, 'out': base64.b64encode(out).decode(),
                                    'err': base64.b64encode(err).decode()}).encode() + b'\n')

        def loop():
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:  # closed: the guest is done
                    return
                threading.Thread(target=one, args=(conn,), daemon=True).start()
        threading.Thread(target=loop, daemon=True).start()
        return server


def _decode(lines, packed):
    """One part of a reply: base64 lines, of gzip data where packed."""
    data = base64.b64decode(''.join(lines)) if lines else b''
    if packed and data:
        try:
            return gzip.decompress(data)
        except (OSError, EOFError) as e:
            return ('(the guest\'s compressed output did not unpack: %s)\n' % e).encode()
    return data


def _is_base64(line):
    return bool(line) and len(line) <= 80 and all(
        c.isalnum() or c in '+/=' for c in line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split('\n\n', 1)[1])
    ap.add_argument('--arch', required=True, choices=sorted(machines.MACHINES))
    ap.add_argument('--build', required=True, help='a build directory for that arch')
    ap.add_argument('--timeout', type=int, default=600, help='seconds per command')
    ap.add_argument('--cpu', help="qemu's -cpu instead of the machine's (e.g. rv64,sscofpmf=true)")
    ap.add_argument('--user', action='append', dest='steps', type=lambda u: ('user', u))
    ap.add_argument('--cmd', action='append', dest='steps', type=lambda c: ('cmd', c))
    args = ap.parse_args()
    guest = Guest(args.arch, args.build, open(os.path.join(args.build, 'system-guest.log'), 'w'),
                  cpu=args.cpu)
    bad = 0
    try:
        guest.boot()
        print('# %s: %s, booted in %.1f s' % (args.arch, guest.packages, guest.boot_seconds))
        user = 'root'
        for kind, value in args.steps or []:
            if kind == 'user':
                user = value
                continue
            cmd = 'BUILD=%s; %s' % (shlex.quote(guest.build), value)
            status, out, err = guest.command([cmd], user=user, timeout=args.timeout, shell=True)
            print('$ %s%s' % ('' if user == 'root' else '[%s] ' % user, value))
            sys.stdout.write(out.decode('utf-8', 'replace'))
            sys.stdout.write(''.join('stderr: %s\n' % l for l in
                                     err.decode('utf-8', 'replace').splitlines()))
            print('# status %d' % status)
            bad += status != 0
    except (GuestGone, fetch.FetchError, RuntimeError) as e:
        print('# %s: %s' % (args.arch, e))
        bad += 1
    finally:
        guest.off()
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()

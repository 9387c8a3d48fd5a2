# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""firstcall.py: test-runtimes' CPython program, run by Debian's
/usr/bin/python3. faulthandler holds the fault signals and a timer sends
SIGALRM every 100 microseconds to a Python handler, all through the
process's first call of the library, made through ctypes (which lets go
of the interpreter's lock) by one thread or by CALLERS threads at once.
Then faulthandler must still be what a fault meets: a child forked after
the call reads address 0 and must die by SIGSEGV with faulthandler's
report. Arguments: the witness library's path, one|many. Prints the witness's report
and "after faulthandler segv ticks N".
"""
import ctypes
import faulthandler
import os
import resource
import signal
import sys
import threading

CALLERS, WARM = 4, 100
ticks = 0


def tick(sig, frame):
    global ticks
    ticks += 1


def await_ticks(count):
    while ticks < count:
        pass


def child_fault():
    """What a fault meets in a child forked now -> 'segv' or what went wrong."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.dup2(w, 2)  # faulthandler writes to descriptor 2
        ctypes.string_at(0)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, 'rb') as f:
        said = f.read().decode('utf-8', 'replace')
    _, status = os.waitpid(pid, 0)
    if (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGSEGV
            and 'Fatal Python error: Segmentation fault' in said):
        return 'segv'
    return 'missing (status %#x: %s)' % (status, ' | '.join(said.splitlines()[:2]))


def main():
    witness = ctypes.CDLL(sys.argv[1])
    witness.witness_call.restype = ctypes.c_longlong
    witness.witness_report.restype = ctypes.c_char_p
    n = CALLERS if sys.argv[2:] == ['many'] else 1
    faulthandler.enable()
    signal.signal(signal.SIGALRM, tick)
    signal.setitimer(signal.ITIMER_REAL, 0.0001, 0.0001)
    await_ticks(WARM)
    witness.witness_before(n)
    if n == 1:
        witness.witness_call()
    else:
        threads = [threading.Thread(target=witness.witness_call) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    witness.witness_after()
    await_ticks(ticks + WARM)
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
    print(witness.witness_report().decode())
    print('after faulthandler %s ticks %d' % (child_fault(), ticks))


main()

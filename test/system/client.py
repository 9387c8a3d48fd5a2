#!/usr/bin/env python3
# SPDX-License-Identifier: CC0-1.0 OR 0BSD OR MIT-0
"""client.py: run one program in a booted guest, as if it ran here.

  client.py --socket PATH [--user NAME] [--timeout SECONDS] [--patience SECONDS]
            PROGRAM [ARGS...]

The RUN prefix make test-system gives test/run: it hands the program, its
arguments and this environment to guest.py's server on PATH, then writes
the program's stdout and stderr here and exits with its status, so that
test/run judges a guest's run exactly as it judges a local one.

The guest kills the program after --timeout seconds; the server gives up
on the guest guest.py's MARGIN seconds later. This client waits
--patience seconds more than --timeout (default 180) at most: with no
reply by then it says so and exits 125, as when there is no guest.
"""
import base64
import json
import os
import socket
import sys


def main():
    args = sys.argv[1:]
    opts = {'user': 'root', 'timeout': '600', 'patience': '180'}
    path = None
    while args and args[0].startswith('--'):
        key = args.pop(0)[2:]
        if not args:
            break
        if key == 'socket':
            path = args.pop(0)
        elif key in opts:
            opts[key] = args.pop(0)
        else:
            sys.stderr.write('client.py: unknown option --%s\n' % key)
            sys.exit(125)
    if not path or not args:
        sys.stderr.write(__doc__)
        sys.exit(125)
    try:
        limit = int(opts['timeout']) + int(opts['patience'])
    except ValueError:
        sys.stderr.write('client.py: --timeout and --patience take whole seconds\n')
        sys.exit(125)
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(limit)
        s.connect(path)
        request = {'argv': args, 'env': dict(os.environ), 'user': opts['user'],
                   'timeout': int(opts['timeout'])}
        with s, s.makefile('rwb') as f:
            f.write(json.dumps(request).encode() + b'\n')
            f.flush()
            reply = json.loads(f.readline().decode())
    except socket.timeout:
        sys.stderr.write('client.py: no reply from the guest on %s within %d s\n' % (path, limit))
        sys.exit(125)
    except (OSError, ValueError) as e:
        sys.stderr.write('client.py: no guest on %s: %s\n' % (path, e))
        sys.exit(125)
    sys.stdout.buffer.write(base64.b64decode(reply['out']))
    sys.stderr.buffer.write(base64.b64decode(reply['err']))
    sys.exit(reply['status'])


if __name__ == '__main__':
    main()

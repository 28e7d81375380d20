#!/usr/bin/env python3
"""Run a command in a pseudo-terminal and bridge it to plain pipes (node-pty is not available).

usage: pty-bridge.py COLS ROWS CMD [ARGS...]

Our stdin goes to the terminal as typed keys; everything the program draws comes out on our
stdout, raw (escape sequences included). The queries a real terminal answers (cursor position,
device attributes) are answered here. Exits with the program's exit status; SIGTERM ends the
program too.
"""
import fcntl, os, pty, select, signal, struct, sys, termios

cols, rows, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
REPLIES = {b'\x1b[6n': b'\x1b[1;1R', b'\x1b[c': b'\x1b[?62;22c', b'\x1b[0c': b'\x1b[?62;22c', b'\x1b[>c': b'\x1b[>1;10;0c'}


def stop(*_):
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        pass


signal.signal(signal.SIGTERM, stop)
stdin = sys.stdin.fileno()
out = sys.stdout.buffer
inputs = [fd, stdin]
while True:
    try:
        r, _, _ = select.select(inputs, [], [], 0.5)
    except InterruptedError:
        continue
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b''
        if not data:
            break
        for q, a in REPLIES.items():
            if q in data:
                os.write(fd, a)
        out.write(data)
        out.flush()
    if stdin in r:
        data = os.read(stdin, 65536)
        if not data:
            # Our caller is gone (its end of the pipe closed): end the program too.
            inputs = [fd]
            stop()
        else:
            os.write(fd, data)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, 'waitstatus_to_exitcode') else 0)

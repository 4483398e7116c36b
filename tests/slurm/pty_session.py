#!/usr/bin/env python3
"""Runs CMD on a pseudo-terminal of its own, types the lines read from
standard input into the shell it ends up in, and prints the whole terminal
transcript (carriage returns dropped).  The cases use it for salloc's
interactive step, which needs a terminal:

    pty_session.py [--timeout S] -- CMD [ARG...] <commands

The lines are typed only once that shell answers: until then it types a
probe, "echo GOV_PTY_READY_$((40+2))", once a second, and waits for its
output (the echoed probe shows "$((40+2))", never the sum); a probe lost
while salloc and srun --pty set the terminal up is followed by another.
util-linux script, used before, typed everything at once and in about
one run in eight wrote nothing at all and never ended: the interactive
shell sat waiting for input.  There is always a deadline here.

Exits with CMD's status; 124 when CMD has not ended after S seconds
(default 45), after killing its session.
"""

import os
import pty
import select
import signal
import sys
import time

PROBE = b"echo GOV_PTY_READY_$((40+2))\n"
READY = b"GOV_PTY_READY_42"


def usage() -> None:
    sys.stderr.write("usage: pty_session.py [--timeout S] -- CMD [ARG...] <commands\n")
    sys.exit(2)


def main() -> int:
    args = sys.argv[1:]
    timeout = 45.0
    if args[:1] == ["--timeout"]:
        if len(args) < 2:
            usage()
        try:
            timeout = float(args[1])
        except ValueError:
            usage()
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        usage()
    commands = sys.stdin.buffer.read()
    if commands and not commands.endswith(b"\n"):
        commands += b"\n"

    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvp(args[0], args)
        except OSError as e:
            os.write(2, f"pty_session.py: cannot run {args[0]}: {e.strerror}\n".encode())
        os._exit(127)

    deadline = time.monotonic() + timeout
    out = bytearray()
    typed = False
    next_probe = 0.0
    timed_out = False
    while True:
        now = time.monotonic()
        if now >= deadline:
            timed_out = True
            break
        if not typed:
            if READY in out:
                os.write(fd, commands)
                typed = True
            elif now >= next_probe:
                os.write(fd, PROBE)
                next_probe = now + 1.0
        ready, _, _ = select.select([fd], [], [], min(0.2, deadline - now))
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: every process has closed the terminal
            data = b""
        if not data:
            break
        out += data

    if timed_out:
        # The child leads the terminal's session: the hangup reaches what
        # runs on it, the kill the child's own process group.
        os.close(fd)
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(bytes(out).replace(b"\r", b""))
    sys.stdout.flush()
    if timed_out:
        sys.stderr.write(f"pty_session.py: {args[0]} has not ended after {timeout:g} s\n")
        return 124
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main())

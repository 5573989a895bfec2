"""Pressing Ctrl-C in a program that runs in a pseudo-terminal, as a person would."""

from __future__ import annotations

import os
import select
import signal
import time


def press_ctrl_c(fd: int, pid: int, out: bytes, deadline: float) -> tuple[bytes, int]:
    """Ctrl-C at the prompt of the child `pid` on the terminal `fd`; what it printed until it
    ended (after `out`) and its wait status. CPython's readline can miss a SIGINT that lands
    between writing the prompt and waiting for input (the wait then goes on until a key), so it
    waits a moment first and presses again, as a person would, if nothing happens. Never a hung
    test run: past `deadline` the child is killed, and the caller's assertions fail."""
    time.sleep(0.5)
    os.write(fd, b"\x03")
    pressed = time.time()
    status = None
    while time.time() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if select.select([fd], [], [], 0.2)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                pass
        if time.time() - pressed > 5:
            os.write(fd, b"\x03")
            pressed = time.time()
    else:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    try:
        while select.select([fd], [], [], 0.2)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            out += chunk
    except OSError:
        pass
    return out, status

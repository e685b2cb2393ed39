"""The watchdog of :mod:`gameproof.interrupts` for when compiled code holds the GIL: compiled itself, without it.

A PySAT solve holds the GIL from start to end, so no Python thread runs meanwhile: not the main thread's
signal handlers, nor the Python watchdog, which waits for the number that Python's C-level handler writes to
the wakeup socket without the GIL but reads it only with the GIL. This thread peeks at that socket: a SIGINT
or SIGTERM whose number stays unread for the grace time means that no Python code can run, and it ends the
process as the Python watchdog would (the interrupted line, unless the command printed it: whoever reads
the token prints it; exit code 128 + the signal), but for the partial files, of which none is open while
PySAT solves (a proof is copied out after the solve). It calls the C library by name, which numba links.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import struct
import threading

import numba
import numpy as np
from numba import types

_poll = types.ExternalFunction("poll", types.int32(types.voidptr, types.uint64, types.int32))
_recv = types.ExternalFunction("recv", types.int64(types.int32, types.voidptr, types.uint64, types.int32))
_read = types.ExternalFunction("read", types.int64(types.int32, types.voidptr, types.uint64))
_write = types.ExternalFunction("write", types.int64(types.int32, types.voidptr, types.uint64))
_usleep = types.ExternalFunction("usleep", types.int32(types.uint32))
_exit = types.ExternalFunction("_exit", types.void(types.int32))

#: How often, in milliseconds, the thread looks again at a signal's number that is waiting to be read.
TICK_MS = 20
_PEEK = socket.MSG_PEEK | socket.MSG_DONTWAIT
_SIGINT, _SIGTERM = int(signal.SIGINT), int(signal.SIGTERM)


@numba.njit("void(int64, int64, int64, int64, uint8[::1], uint8[::1])", nogil=True, cache=True)
def _watch(wakeup, token, ready, grace_ms, pollfd, line):  # pragma: no cover - compiled
    seen = np.zeros(64, np.uint8)
    _write(ready, line.ctypes.data, 1)
    waiting = 0  # milliseconds a SIGINT or SIGTERM has waited to be read
    while True:
        _poll(pollfd.ctypes.data, 1, -1)
        count = _recv(wakeup, seen.ctypes.data, 64, _PEEK)
        code = 0
        for index in range(max(count, 0)):
            if seen[index] == _SIGINT or seen[index] == _SIGTERM:
                code = 128 + seen[index]
        waiting = waiting + TICK_MS if code else 0
        if waiting >= grace_ms:
            if _read(token, seen.ctypes.data, 1) == 1:
                _write(2, line.ctypes.data, len(line))
            _exit(code)
        _usleep(TICK_MS * 1000)


def start(wakeup: int, token: int, grace_ms: int, line: bytes) -> None:
    """Start the thread on the wakeup socket `wakeup` and the token pipe's end `token`, ending the process with
    `line` after `grace_ms`; return once it runs without the GIL (so that a call that holds the GIL next does
    not keep it from starting)."""
    pollfd = np.frombuffer(struct.pack("ihh", wakeup, select.POLLIN, 0), np.uint8).copy()
    ready_end, ready = os.pipe()
    try:
        threading.Thread(target=_watch, args=(wakeup, token, ready, grace_ms, pollfd,
                                              np.frombuffer(line, np.uint8).copy()),
                         name="gameproof-gil-watch", daemon=True).start()
        os.read(ready_end, 1)
    finally:
        os.close(ready_end)
        os.close(ready)

"""A render's second core: the golden tests are emitted in a forked process while the rest is built and written.

The golden emitter replays every scenario of the catalogue through the reference model: seconds of CPU whatever
the number of tenants (a third of a 1,000-tenant render). Forked right after the model is loaded, it shares the
model and nothing else; its files reach the writer as deferred files (:mod:`gpudash.base.deferred`), which sort after
every other output (``tests/``), so the writer seldom waits. Linux only (fork); elsewhere, or with ``--jobs 1``,
a render emits them in order.
"""
from __future__ import annotations

import multiprocessing
import sys
import traceback
from collections.abc import Callable

from gpudash.base.errors import GpudashError

PROGRESS = "progress"  # the kind of the child's messages before its outcome


def available() -> bool:
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


class Forked:
    """``fn(*args)`` computed in a forked child (with ``reports``, ``fn(*args, progress=...)``); :meth:`result`
    waits for it, passing on the child's ``progress(done, total, what)`` calls meanwhile; :meth:`close` ends it."""

    def __init__(self, fn: Callable[..., object], *args, reports: bool = False):
        ctx = multiprocessing.get_context("fork")
        self._receive, send = ctx.Pipe(duplex=False)
        self._process = ctx.Process(target=_run, args=(send, fn, args, reports), daemon=True)
        self._process.start()
        send.close()
        self._outcome: tuple | None = None

    def result(self, progress: Callable[[int, int, str], None] | None = None):
        while self._outcome is None:
            try:
                message = self._receive.recv()
            except EOFError:  # killed (out of memory, a signal) before it could answer
                message = ("failed", f"the process ended with code {self._process.exitcode}", 2)
            if message[0] == PROGRESS:
                if progress:
                    progress(*message[1:])
                continue
            self._outcome = message
            self._process.join()
        kind, value, code = self._outcome
        if kind == "ok":
            return value
        err = GpudashError(value)
        err.exit_code = code
        raise err

    def close(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._receive.close()


def _run(send, fn: Callable[..., object], args: tuple, reports: bool) -> None:
    """The child: sends its progress as (PROGRESS, done, total, what), then ("ok", result, 0), or a failure as
    ("failed", its one line, exit code); an exception that is not gpudash's (a bug) as its traceback."""
    def progress(done: int, total: int, what: str) -> None:  # a few dozen small messages: never a full pipe
        send.send((PROGRESS, done, total, what))

    try:
        outcome = ("ok", fn(*args, progress=progress) if reports else fn(*args), 0)
    except GpudashError as err:
        outcome = ("failed", str(err), err.exit_code)
    except BaseException:  # noqa: BLE001 - reported in the parent, which exits non-zero
        outcome = ("failed", "golden test emitter failed:\n" + traceback.format_exc(), 1)
    send.send(outcome)
    send.close()

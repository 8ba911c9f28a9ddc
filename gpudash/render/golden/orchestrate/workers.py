"""Forked workers: ``fn(i)`` for every task ``i`` of a list, computed by up to ``jobs`` forked children at once.

A child is forked from the process that made the :class:`Workers` and shares what it held then (the model, the
scenario catalogue) and nothing else; each takes the next task from a shared counter (so a long task does not hold
back the others behind it) and sends each result back over its own pipe. Linux only (fork); elsewhere callers run
the tasks in process. The golden emission uses them, and a render's writer to build and write the other files
(``gpudash.cli``: :func:`gpudash.render.writer.plan`'s ``spread``).
"""
from __future__ import annotations

import gc
import multiprocessing
import sys
import traceback
from collections.abc import Callable, Generator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, cast

from gpudash.base.errors import GpudashError
from gpudash.render.writer import Spread

Failure = tuple[str, int]  # a task's one line and exit code


def available() -> bool:
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


class Workers:
    """``fn(task)`` for each of ``tasks``, started in the given order by ``jobs`` forked children; :meth:`next`
    waits for the next finished one, :meth:`close` ends them all. A task's :class:`GpudashError` comes back with
    its line and exit code, any other exception (a bug) with its traceback, a child that dies (out of memory, a
    signal) as the code it ended with; ``what`` names the work in those lines."""

    def __init__(self, fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int, what: str = "golden test"):
        ctx = multiprocessing.get_context("fork")
        self._what = what
        self._taken = ctx.Value("i", 0)  # the index in ``tasks`` of the next task to start
        self._left = len(tasks)
        self._children: dict[Connection, multiprocessing.process.BaseProcess] = {}
        gc.freeze()  # the parent's objects out of the children's collections: their pages stay shared, not copied
        for _ in range(max(1, min(jobs, len(tasks)))):
            receive, send = ctx.Pipe(duplex=False)
            child = ctx.Process(target=_work, args=(send, fn, tasks, self._taken, what), daemon=True)
            child.start()
            send.close()
            self._children[receive] = child
        gc.unfreeze()

    def next(self) -> tuple[Any, Any]:
        """(task, result) of the next task to finish; raises the task's failure."""
        if not self._left:
            raise StopIteration
        while True:
            if not self._children:  # (each child took its share and ended, yet a task is missing)
                raise _failure((f"the {self._what} workers ended before every task was done", 2))
            for conn in cast("list[Connection]", wait(list(self._children))):
                try:
                    message = conn.recv()
                except EOFError:  # its pipe closed: done with every task it took, or killed before it answered
                    child = self._children.pop(conn)
                    child.join()
                    conn.close()
                    if child.exitcode:
                        raise _failure((f"a {self._what} worker ended with code {child.exitcode}", 2)) from None
                    continue
                if message[0] == "failed":
                    raise _failure(message[1])
                self._left -= 1
                return message[1], message[2]

    def terminate(self) -> None:
        """Signal every child still working to end (a thread waiting in :meth:`next` then sees it end)."""
        for child in list(self._children.values()):
            if child.is_alive():
                child.terminate()

    def close(self) -> None:
        """End every child still working and wait for it."""
        for conn, child in self._children.items():
            if child.is_alive():
                child.terminate()
            child.join()
            conn.close()
        self._children = {}


def _failure(failure: Failure) -> GpudashError:
    err = GpudashError(failure[0])
    err.exit_code = failure[1]
    return err


def _work(send: Connection, fn: Callable[[Any], Any], tasks: Sequence[Any], taken, what: str) -> None:
    """A child: takes tasks until none is left, sending ("ok", task, result) for each, or ("failed", (line, exit
    code)) and stops at the first failure. Without the cyclic collector: a child lives for one command's tasks,
    which make next to no reference cycles (none collected in a whole golden emission, measured), while its passes
    over their live objects were a seventh of the emission's CPU."""
    gc.disable()
    try:
        while True:
            with taken.get_lock():
                k = taken.value
                taken.value += 1
            if k >= len(tasks):
                break
            send.send(("ok", tasks[k], fn(tasks[k])))
    except GpudashError as err:
        send.send(("failed", (str(err), err.exit_code)))
    except BaseException:  # noqa: BLE001 - reported in the parent, which exits non-zero
        send.send(("failed", (f"{what} worker failed:\n" + traceback.format_exc(), 1)))
    send.close()


def spread(jobs: int) -> Spread | None:
    """A render's forked writers (:func:`gpudash.render.writer.plan`'s ``spread``): None with one job or without
    fork (the writer then plans every file in process)."""
    if jobs <= 1 or not available():
        return None

    def run(fn: Callable[[Any], Any], tasks: Sequence[Any]) -> Generator[tuple[Any, Any], None, None]:
        workers = Workers(fn, tasks, jobs, "render")
        try:
            for _ in tasks:
                yield workers.next()
        finally:
            workers.close()
    return run

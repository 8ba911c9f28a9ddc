"""The golden tests of a render (and of validate and test): read from the golden cache, else emitted across every core,
and handed to the writer.

Emitting them replays every scenario of the catalogue through the reference model: seconds of CPU whatever the
number of tenants. Each scenario's files depend on nothing but the scenario and the model
(:func:`gpudash.render.golden.emit.scenario_tests`), so ``jobs`` forked workers (:mod:`.workers`) emit them, the
longest scenarios first, and their text is merged in the catalogue's order (the shares of a shared file joined:
:mod:`gpudash.render.golden.shared`): the same bytes as one process emits (``--jobs 1``, or where there is no fork).
A render starts the workers as soon as its model is loaded and builds and writes everything else meanwhile: the
golden files reach the writer as deferred files (:mod:`gpudash.base.deferred`), which sort after every other output
(``tests/``), so the writer seldom waits; the first one it waits for shows the scenarios finishing on the progress
bar. A thread of the render process reads each scenario's text as soon as a worker sends it, so the workers never
wait for the render to reach its golden files (a scenario's text is larger than a pipe holds): they emit while it
builds and writes the rest. The same thread joins the files once the last scenario is in (the settled file's merge
takes a quarter of a second): while the render writes its other files, not after them. The text is then kept in the
golden cache (:mod:`.cache`) for the next render of the same model by the same code.
"""
from __future__ import annotations

import functools
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

from gpudash.base.deferred import Deferred
from gpudash.base.layout import GOLDEN_INDEX
from gpudash.base.progress import Progress
from gpudash.base.yamlfmt import serialise
from gpudash.model.types import Model
from gpudash.render.golden import emit, shared
from gpudash.render.golden.orchestrate import cache
from gpudash.render.golden.orchestrate.workers import Workers, available
from gpudash.simulation.scenario import Scenario

Step = Callable[[int, int, str], None]  # progress(done, total, what)


def jobs(requested: int | None) -> int:
    """The workers of ``--jobs N`` (None: one per CPU)."""
    return requested or os.cpu_count() or 1


class Emission:
    """The golden test files' text of ``model`` ({path: text}), emitted by ``jobs`` forked workers started now (in
    this process when :meth:`result` is first asked, with one job or without fork)."""

    def __init__(self, model: Model, jobs: int):
        self.model = model
        self.scenarios, self.skipped = emit.catalogue(model)
        self._texts: dict[str, str] | None = None
        longest_first = sorted(range(len(self.scenarios)), key=lambda i: -self.scenarios[i].duration)
        forked = jobs > 1 and len(self.scenarios) > 1 and available()
        self.places = emit.places(self.scenarios, model)
        fn = functools.partial(_scenario_texts, model, self.scenarios, self.places)
        self._workers = Workers(fn, longest_first, jobs) if forked else None
        # (ok, a scenario's place in the catalogue, then the files; or the error)
        self._arrived: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._reader = None if self._workers is None else threading.Thread(target=self._read, daemon=True)
        if self._reader is not None:
            self._reader.start()

    def _read(self) -> None:
        """The reader thread: each scenario's place as a worker sends its text, then every file joined (while the
        render process still builds and writes the rest, not after it), or the first failure."""
        assert self._workers is not None
        done: dict[int, dict[str, str | shared.Share]] = {}
        try:
            for _ in self.scenarios:
                i, texts = self._workers.next()
                done[i] = texts
                self._arrived.put((True, i))
            self._arrived.put((True, self._joined(done)))
        except BaseException as err:  # noqa: BLE001 - raised in the render process by result()
            self._arrived.put((False, err))

    def result(self, progress: Step | None = None) -> dict[str, str]:
        """Every file's text, waited for (``progress`` is told of each scenario), and kept in the golden cache."""
        if self._texts is None:
            try:
                texts = self._emitted(progress or (lambda *step: None))
            finally:
                self.close()
            cache.store(self.model, texts)
            self._texts = texts
        return self._texts

    def _joined(self, done: dict[int, dict[str, str | shared.Share]]) -> dict[str, str]:
        """Every file's text from each scenario's (:func:`_scenario_texts`), in the catalogue's order, and the index."""
        texts = shared.assemble((path, text) for i in range(len(self.scenarios)) for path, text in done[i].items())
        texts[GOLDEN_INDEX] = serialise(GOLDEN_INDEX, emit.index(self.model, self.scenarios, self.skipped))
        return texts

    def _emitted(self, progress: Step) -> dict[str, str]:
        """Every file's text, each scenario told to ``progress`` as it is done."""
        total = len(self.scenarios)
        if self._workers is None:
            done = {}
            for i, s in enumerate(self.scenarios):
                progress(i, total, s.name)
                done[i] = _scenario_texts(self.model, self.scenarios, self.places, i)
            return self._joined(done)
        finished = 0
        while True:
            ok, arrived = self._arrived.get()
            if not ok:
                self._arrived.put((ok, arrived))  # kept: a result asked again fails again
                raise arrived
            if not isinstance(arrived, int):  # the files, joined by the reader thread
                return arrived
            finished += 1
            progress(finished, total, self.scenarios[arrived].name)

    def close(self) -> None:
        """End the workers (a render that fails before it writes the golden files) and the reader thread."""
        if self._workers is not None:  # kept: a result asked again after a failure fails again, never re-emits
            self._workers.terminate()  # the reader sees them end and stops; then the workers are waited for
            if self._reader is not None:
                self._reader.join()
            self._workers.close()


def _scenario_texts(model: Model, scenarios: list[Scenario], places: dict[str, emit.Place],
                    i: int) -> dict[str, str | shared.Share]:
    """The files' text of the ``i``-th scenario (a worker's task), its share of the settled file as data (the render
    merges the shares' series: :func:`shared.merged`)."""
    s = scenarios[i]
    return {path: data if isinstance(data, shared.Share) else serialise(path, data)
            for path, data in emit.scenario_tests(s, model, places[s.name]).items()}


def texts(model: Model, label: str, jobs: int) -> dict[str, str]:
    """The golden test files' text: from the golden cache when this code made them for this model before, else
    emitted now on a progress bar labelled ``label`` (validate and test)."""
    cached = cache.load(model)
    if cached is not None:
        return cached
    emission = Emission(model, jobs)
    with Progress(f"{label}: golden tests") as progress:
        return emission.result(progress)


class ForRender:
    """A render's golden test files: :attr:`files` ({path: text, or a deferred file the writer builds}) and the
    workers emitting them meanwhile, if the cache had none; :meth:`close` ends them (before the output's lock is
    freed: a forked worker shares its descriptor)."""

    def __init__(self, model: Model, jobs: int):
        cached = cache.load(model)  # the same model rendered by the same code before: the same tests
        self.emission = None if cached is not None else Emission(model, jobs)
        self.waiting = Progress("render: golden tests")
        self.files: dict[str, object] = {**cached} if cached is not None else {
            path: Deferred(_golden_file, (self.emission, path, self.waiting)) for path in emit.emit_paths(model)}

    def close(self) -> None:
        self.waiting.close()
        if self.emission is not None:
            self.emission.close()


def _golden_file(emission: Emission, path: str, progress: Progress) -> str:
    """One golden file, as the writer reaches it: the first one waited for shows the scenarios on ``progress``."""
    texts = emission.result(progress)
    progress.close()
    return texts[path]

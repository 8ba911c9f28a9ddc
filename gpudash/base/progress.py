"""Progress of long work (render, validate, test, golden emission, mock history, reports) on stderr. On a terminal:
a tqdm bar that clears itself, its elapsed time ticking while a step runs. Off a terminal (pipes, logs, CI): one
line per step that ends at least :data:`QUIET_SECONDS` after the last line, with the time elapsed, and one at the
end of work that took that long; work shorter than that prints nothing, so quick commands' output stays as it
was."""
from __future__ import annotations

import re
import sys
import threading
import time

from tqdm import tqdm

QUIET_SECONDS = 5.0  # off a terminal: at most one line per this many seconds
TICK_SECONDS = 1.0  # on a terminal: the bar's elapsed time is redrawn this often while a step runs
# A progress line off a terminal, which tests tell apart from a warning or the one line of an error.
LINE = re.compile(r"gpudash: [\w :-]+: \d+/\d+ .* \((\d+\.\d)s\)")


class Progress:
    """``step(done, total, what)`` callbacks drawn as one tqdm bar labelled ``gpudash: <label>`` on a terminal, or
    as lines ``gpudash: <label>: <done>/<total> <what> (<elapsed>s)`` off one."""

    def __init__(self, label: str, enabled: bool | None = None):
        self.label = label
        self.terminal = sys.stderr.isatty() if enabled is None else enabled
        self.bar: tqdm | None = None
        self.started = time.monotonic()
        self.said = self.started  # off a terminal: when the last line was printed
        self.last: tuple[int, int, str] | None = None
        self.stop = threading.Event()
        self.ticker: threading.Thread | None = None

    def __call__(self, done: int, total: int, what: str) -> None:
        self.last = (done, total, what)
        if not self.terminal:
            if time.monotonic() - self.said >= QUIET_SECONDS:
                self._line(done, total, what)
            return
        if total <= 1:
            return
        if self.bar is None:
            self.bar = tqdm(total=total, desc=f"gpudash: {self.label}", file=sys.stderr, leave=False,
                            bar_format="{desc} {bar} {n_fmt}/{total_fmt} {elapsed}")
            self.ticker = threading.Thread(target=self._tick, args=(self.bar,), daemon=True)
            self.ticker.start()
        self.bar.update(done - self.bar.n)
        self.bar.set_description_str(f"gpudash: {self.label}: {what}")  # redraws; steps are seconds apart

    def _tick(self, bar: tqdm) -> None:
        """Redraw ``bar`` every :data:`TICK_SECONDS` until closed: a long step shows its time going on."""
        while not self.stop.wait(TICK_SECONDS):
            bar.refresh()

    def _line(self, done: int, total: int, what: str) -> None:
        self.said = time.monotonic()
        print(f"gpudash: {self.label}: {done}/{total} {what} ({self.said - self.started:.1f}s)", file=sys.stderr,
              flush=True)

    def close(self) -> None:
        if self.ticker is not None:
            self.stop.set()
            self.ticker.join()
            self.ticker, self.stop = None, threading.Event()  # a bar drawn again after close() ticks again
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        if not self.terminal and self.last and time.monotonic() - self.started >= QUIET_SECONDS:
            self._line(self.last[1], self.last[1], "done")
        self.last = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

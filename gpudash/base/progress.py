"""Progress of long work (render, validate, test, mock history, reports) on stderr, only when stderr is a
terminal: a tqdm bar that clears itself, so pipes, logs and CI output stay exactly as they were."""
from __future__ import annotations

import sys

from tqdm import tqdm


class Progress:
    """``step(done, total, what)`` callbacks drawn as one tqdm bar labelled ``gpudash: <label>``."""

    def __init__(self, label: str, enabled: bool | None = None):
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.bar: tqdm | None = None

    def __call__(self, done: int, total: int, what: str) -> None:
        if not self.enabled or total <= 1:
            return
        if self.bar is None:
            self.bar = tqdm(total=total, desc=f"gpudash: {self.label}", file=sys.stderr, leave=False,
                            bar_format="{desc} {bar} {n_fmt}/{total_fmt} {elapsed}")
        self.bar.update(done - self.bar.n)
        self.bar.set_description_str(f"gpudash: {self.label}: {what}")  # redraws; steps are seconds apart

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

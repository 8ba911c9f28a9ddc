"""The demo's ``--work-dir``: a folder of its own, new or empty, that only its owner can write (issue #47 item 5).

The demo writes the model, rules, history, a Prometheus TSDB and statements into it by fixed names; in a folder
that already holds files it would overwrite or reuse what it did not write (a previous demo's Prometheus data gives
a bill mixed from two histories), and through a symbolic link, or in a folder another user can write, its files
could be sent elsewhere. Each of those is refused in one line before anything is written.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from gpudash.base.errors import GpudashError
from gpudash.base.terminal import printable

SHOWN_ENTRIES = 3  # names of a non-empty folder's entries the refusal shows


def prepare(path: Path) -> Path:
    """``path`` created (only its owner may write it) or checked: a real folder, ours, empty, writable; otherwise
    a :class:`GpudashError` of one line."""
    where = f"--work-dir {printable(str(path))}"
    if path.is_symlink():
        raise GpudashError(f"{where}: a symbolic link; give a real folder (the demo never writes through a link)")
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.lstat()
        entries = sorted(os.listdir(path))
    except OSError as err:
        raise GpudashError(f"{where}: cannot create or read it: {err.strerror or err}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise GpudashError(f"{where}: not a folder")
    if info.st_uid != os.geteuid() or info.st_mode & stat.S_IWOTH:
        raise GpudashError(f"{where}: another user can write into it; give a folder only you can write")
    if entries:
        more = ", ..." if len(entries) > SHOWN_ENTRIES else ""
        shown = ", ".join(printable(e) for e in entries[:SHOWN_ENTRIES]) + more
        raise GpudashError(f"{where}: not empty ({shown}); the demo writes only into a new or empty folder, so it "
                           "never overwrites or reuses files it did not write (a previous demo's Prometheus data "
                           "too): remove them or give another folder")
    if not os.access(path, os.W_OK | os.X_OK):
        raise GpudashError(f"{where}: not writable")
    return path

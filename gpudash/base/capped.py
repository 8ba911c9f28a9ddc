"""Reading a file that a user or another process could have written (a manifest, a journal, a cache entry): only a
regular file (a FIFO would block, a device never end), and at most a stated size, else one line."""
from __future__ import annotations

import os
import stat

from gpudash.base.errors import InputError


def read_capped(path: str | os.PathLike[str], limit: int) -> bytes | None:
    """The bytes of ``path``, None when it does not exist; :class:`InputError` when it is no regular file, cannot
    be read or holds more than ``limit`` bytes (never more than ``limit + 1`` bytes are read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as err:
        raise InputError(os.fspath(path), "", f"cannot read: {err.strerror or err}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(os.fspath(path), "", "is not a regular file; move it away")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError(os.fspath(path), "", f"is larger than {limit} bytes, far more than gpudash reads from "
                         "such a file; refused unread")
    return data

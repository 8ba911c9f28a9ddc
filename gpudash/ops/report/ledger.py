"""The ledger of issued final statements (``report billing --ledger DIR``): one JSON file per tenant and period,
the list of the issues of its number, which makes a corrected re-issue a numbered revision.

A transaction: :class:`Ledger` is used as a context manager holding an exclusive ``fcntl.flock`` on the folder's
lock file, so two runs never read the same history and assign one number; :meth:`Ledger.number` only reads, and
:meth:`Ledger.record` writes once the statement's document is complete. Every file is opened relative to the
folder (itself no symlink) with ``O_NOFOLLOW``, a new one with ``O_EXCL`` under a fresh name then renamed over
the old: nothing is written through a symlink. A file over :data:`MAX_BYTES`, torn, edited or of other types is
refused with one line, never renumbered.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from gpudash.base.errors import GpudashError
from gpudash.ops.report.invoice import Invoice

MAX_BYTES = 8 * 2**20  # one number's issues: some 250 bytes each, so tens of thousands of revisions
LOCK_NAME = ".lock"
FIELDS = ("number", "digest", "replaces", "issued", "total_due")  # an issue's fields, all strings
_DIGEST = re.compile("[0-9a-f]{64}")
_NOFOLLOW = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class Pending:
    """What :meth:`Ledger.record` writes: the issues of ``base`` with the new one last."""
    base: str
    issues: tuple[dict, ...]


class Ledger:
    """The issued final statements in ``folder``; use it as a context manager (the lock)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self._dir: int | None = None
        self._lock: int | None = None

    def __enter__(self) -> Ledger:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._dir = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW)
            self._lock = os.open(LOCK_NAME, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o644, dir_fd=self._dir)
            fcntl.flock(self._lock, fcntl.LOCK_EX)  # waits for another run; released when the descriptor closes
        except OSError as err:
            self.__exit__()
            raise self._error("cannot open it", err) from None
        return self

    def __exit__(self, *exc) -> None:
        for fd in (self._lock, self._dir):
            if fd is not None:
                os.close(fd)
        self._lock = self._dir = None

    def _error(self, what: str, err: OSError | str) -> GpudashError:
        if isinstance(err, str):
            why = err
        elif err.errno in (errno.ELOOP, errno.ENOTDIR):
            why = "a symlink or not a folder (refused)"
        else:
            why = err.strerror or str(err)
        return GpudashError(f"--ledger {self.folder}: {what}: {why}")

    def number(self, invoice: Invoice) -> tuple[Invoice, Pending | None]:
        """Final ``invoice`` numbered as issued: its number again for the same amounts (nothing to record), else
        the next revision, with the issues :meth:`record` writes once its document is complete."""
        assert invoice.final and self._dir is not None, "a draft is never recorded; numbers only under the lock"
        issued = self._read(invoice.number)
        digest = _digest(invoice)
        if issued and issued[-1]["digest"] == digest:
            return replace(invoice, number=issued[-1]["number"], replaces=issued[-1]["replaces"]), None
        base = invoice.number
        if issued:
            invoice = replace(invoice, number=f"{base}-R{len(issued)}", replaces=issued[-1]["number"])
        entry = {"number": invoice.number, "digest": digest, "replaces": invoice.replaces,
                 "issued": invoice.issued.isoformat(), "total_due": str(invoice.total_due)}
        return invoice, Pending(base, (*issued, entry))

    def record(self, pending: Pending) -> None:
        """Write ``pending`` under a fresh name (``O_EXCL``, never through a symlink), then rename it in place."""
        assert self._dir is not None, "records only under the lock"
        name = f"{pending.base}.json"
        tmp = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644, dir_fd=self._dir)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(json.dumps(list(pending.issues), indent=2) + "\n")
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, name, src_dir_fd=self._dir, dst_dir_fd=self._dir)
            except BaseException:
                os.unlink(tmp, dir_fd=self._dir)
                raise
        except OSError as err:
            raise self._error(f"cannot record statement {pending.issues[-1]['number']}", err) from None

    def _read(self, base: str) -> list[dict]:
        """The issues of ``base`` so far ([] for none), checked: a list of :data:`FIELDS` strings numbered
        ``base``, ``base-R1``... each replacing the one before."""
        name = f"{base}.json"
        try:
            fd = os.open(name, os.O_RDONLY | _NOFOLLOW, dir_fd=self._dir)
        except FileNotFoundError:
            return []
        except OSError as err:
            raise self._error(f"cannot read {name}", err) from None
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
                raise self._error(f"cannot read {name}", f"not a regular file of at most {MAX_BYTES} bytes")
            text = f.read(MAX_BYTES + 1)
        try:
            return _issues(text, base)
        except ValueError as err:
            raise self._error(f"{name} is not a ledger gpudash wrote ({err})", "restore it from your billing "
                              "records: it holds the statements issued so far") from None


def _issues(text: bytes, base: str) -> list[dict]:
    """The issues of ``base`` in ``text`` as :meth:`Ledger.record` writes them; ValueError says what is not."""
    if len(text) > MAX_BYTES:
        raise ValueError(f"over {MAX_BYTES} bytes")
    try:
        issued = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ValueError(f"not JSON: {str(err)[:80]}") from None
    if not isinstance(issued, list) or not issued:
        raise ValueError("not a list of issued statements")
    for i, e in enumerate(issued):
        if not isinstance(e, dict) or set(e) != set(FIELDS) or not all(isinstance(e[k], str) for k in FIELDS):
            raise ValueError(f"entry {i} is not an object of the string fields {', '.join(FIELDS)}")
        number, replaces = (base, "") if i == 0 else (f"{base}-R{i}", issued[i - 1]["number"])
        if (e["number"], e["replaces"]) != (number, replaces) or not _DIGEST.fullmatch(e["digest"]):
            raise ValueError(f"entry {i} is not issue {number} replacing {replaces or 'nothing'}")
    return issued


def _digest(invoice: Invoice) -> str:
    """What makes two issues of a statement the same invoice: its lines, tax and buyer (not its dates)."""
    text = json.dumps([[x.kind, x.cluster, x.gpu_class, x.resource, str(x.quantity), str(x.unit_price),
                        str(x.amount)] for x in invoice.lines] + [[invoice.tax.label, invoice.tax.rate,
                                                                     invoice.tax.exempt, str(invoice.buyer)]])
    return hashlib.sha256(text.encode()).hexdigest()

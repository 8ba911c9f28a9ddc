"""The ledger of issued final statements (``report billing --final [--ledger DIR]``, by default
:func:`default_folder`): one JSON file per numbering series (the issuer's ``invoice_prefix`` and
``invoice_series``), the list of every number issued in it, 1, 2, 3... without gaps. Each issue names its
statement's key (tenant and period) and what it replaces: a corrected re-issue takes the next number and names the
one before it; the same amounts keep their number and consume none. Each issue also stores what a credit note of it
needs (:data:`STORED`: its document type, tenant, period, currency and lines); :meth:`Ledger.credit` issues one
(UNTDID 1001 type 381) in the same series, naming the invoice it cancels, which then has no live issue left.

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
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from gpudash.base.errors import GpudashError
from gpudash.model.types import Issuer
from gpudash.ops.report.invoice import CORRECTED, CREDIT_NOTE, INVOICE, UNIT_CODES, Invoice, InvoiceLine

MAX_BYTES = 8 * 2**20  # one series' issues: some 1-3 KB each with their lines, so thousands of invoices
LOCK_NAME = ".lock"
FIELDS = ("number", "key", "digest", "replaces", "issued", "total_due")  # an issue's fields, all strings
STORED = ("type", "tenant", "start", "end", "currency", "lines")  # and, since credit notes, these (lines: lists)
LINE_FIELDS = ("kind", "cluster", "gpu_class", "resource", "description", "unit", "quantity", "unit_price", "amount")
SEQUENCE_DIGITS = 6
_DIGEST = re.compile("[0-9a-f]{64}")
_DATE = re.compile("[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])")  # an issue date, as date.isoformat writes it
_NOFOLLOW = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def default_folder() -> Path:
    """The ledger of ``--final`` without ``--ledger``: the user's data folder (XDG Base Directory
    Specification), ``$XDG_DATA_HOME/gpudash/ledger``, ``~/.local/share/gpudash/ledger`` when that is unset."""
    data = os.environ.get("XDG_DATA_HOME", "")
    return (Path(data) if os.path.isabs(data) else Path.home() / ".local" / "share") / "gpudash" / "ledger"


def series(seller: Issuer) -> str:
    """The numbering series of ``seller``'s invoices: its prefix and series, the ledger's file name."""
    return "-".join(x for x in (seller.invoice_prefix, seller.invoice_series) if x)


def number_in(name: str, sequence: int) -> str:
    """The ``sequence``-th number of series ``name`` (from 1)."""
    return f"{name}-{sequence:0{SEQUENCE_DIGITS}d}"


@dataclass(frozen=True)
class Pending:
    """What :meth:`Ledger.record` writes: the issues of series ``name`` with the new one last."""
    name: str
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
        the series' next number, replacing the key's live issue if any, with the issues :meth:`record` writes once
        its document is complete."""
        assert invoice.final and self._dir is not None, "a draft is never recorded; numbers only under the lock"
        name = series(invoice.seller)
        issued = self._read(name)
        mine = _live(issued).get(invoice.key)
        digest = _digest(invoice)
        if mine and mine["digest"] == digest:
            return _replacing(replace(invoice, number=mine["number"]), mine["replaces"], issued), None
        invoice = _replacing(replace(invoice, number=number_in(name, len(issued) + 1)),
                             mine["number"] if mine else "", issued)
        return invoice, Pending(name, (*issued, _entry(invoice, digest)))

    def credit(self, number: str, seller: Issuer, rebuild: Callable[[dict], Invoice]) -> tuple[Invoice, Pending]:
        """The credit note of invoice ``number`` of ``seller``'s series: ``rebuild(issue)`` from its stored issue,
        numbered next in the series; refused unless that invoice is its statement's live one and the rebuilt
        invoice is the same (lines, tax and buyer)."""
        assert self._dir is not None, "numbers only under the lock"
        name = series(seller)
        issued = self._read(name)
        found = next((e for e in issued if e["number"] == number), None)
        if found is None:
            raise GpudashError(f"report credit-note {number}: no such number in series {name} of ledger {self.folder}")
        if found.get("type") == CREDIT_NOTE:
            raise GpudashError(f"report credit-note {number}: {number} is a credit note, not an invoice")
        if _live(issued).get(found["key"]) is not found:
            after = next(e for e in issued if e["replaces"] == number)
            how = "credits" if after.get("type") == CREDIT_NOTE else "replaces"
            raise GpudashError(f"report credit-note {number}: {after['number']} already {how} it")
        if "lines" not in found:
            raise GpudashError(f"report credit-note {number}: issued before the ledger stored invoice lines; correct "
                               "it with a new --final statement (a corrected invoice, 384) instead")
        credit = replace(rebuild(found), number=number_in(name, len(issued) + 1), replaces=number,
                         replaces_issued=date.fromisoformat(found["issued"]), credit=True)
        if _digest(credit) != found["digest"]:
            raise GpudashError(f"report credit-note {number}: the model's VAT or billing identity of tenant "
                               f"{found['tenant']} changed since {number} was issued; a credit note carries the "
                               "original's: restore them in the model")
        return credit, Pending(name, (*issued, _entry(credit, found["digest"])))

    def record(self, pending: Pending) -> None:
        """Write ``pending`` under a fresh name (``O_EXCL``, never through a symlink), then rename it in place."""
        assert self._dir is not None, "records only under the lock"
        name = f"{pending.name}.json"
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

    def _read(self, series_name: str) -> list[dict]:
        """The issues of series ``series_name`` so far ([] for none), checked: a list of :data:`FIELDS` strings
        numbered 1, 2, 3..., each replacing its key's issue before it."""
        name = f"{series_name}.json"
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
            return _issues(text, series_name)
        except ValueError as err:
            raise self._error(f"{name} is not a ledger gpudash wrote ({err})", "restore it from your billing "
                              "records: it holds the statements issued so far") from None


def _entry(invoice: Invoice, digest: str) -> dict:
    """The ledger's record of issuing ``invoice``: :data:`FIELDS` and :data:`STORED`."""
    lines = [[x.kind, x.cluster, x.gpu_class, x.resource, x.description, x.unit, str(x.quantity), str(x.unit_price),
              str(x.amount)] for x in invoice.lines]
    return {"number": invoice.number, "key": invoice.key, "digest": digest, "replaces": invoice.replaces,
            "issued": invoice.issued.isoformat(), "total_due": str(invoice.total_due), "type": invoice.type_code,
            "tenant": invoice.buyer.name, "start": str(invoice.start), "end": str(invoice.end),
            "currency": invoice.currency, "lines": lines}


def stored_lines(issue: dict) -> tuple[InvoiceLine, ...]:
    """The invoice lines an issue stored (:func:`_entry`)."""
    return tuple(InvoiceLine(*x[:6], *(Decimal(v) for v in x[6:])) for x in issue["lines"])


def _live(issued: list[dict]) -> dict[str, dict]:
    """Each key's live issue: its latest, unless a credit note cancelled it (then none)."""
    live: dict[str, dict] = {}
    for e in issued:
        if e.get("type") == CREDIT_NOTE:
            live.pop(e["key"], None)
        else:
            live[e["key"]] = e
    return live


def _replacing(invoice: Invoice, replaces: str, issued: list[dict]) -> Invoice:
    """``invoice`` replacing the issue numbered ``replaces`` ("" for none), with that issue's date."""
    before = next((e["issued"] for e in issued if replaces and e["number"] == replaces), "")
    return replace(invoice, replaces=replaces, replaces_issued=date.fromisoformat(before) if before else None)


def _issues(text: bytes, name: str) -> list[dict]:
    """The issues of series ``name`` in ``text`` as :meth:`Ledger.record` writes them; ValueError says what is
    not (a removed, reordered or renumbered issue breaks the sequence or the chain of replacements)."""
    if len(text) > MAX_BYTES:
        raise ValueError(f"over {MAX_BYTES} bytes")
    try:
        issued = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ValueError(f"not JSON: {str(err)[:80]}") from None
    if not isinstance(issued, list) or not issued:
        raise ValueError("not a list of issued statements")
    last: dict[str, str] = {}  # key: its live number (none once credited)
    for i, e in enumerate(issued):
        if not isinstance(e, dict) or set(e) not in (set(FIELDS), {*FIELDS, *STORED}) \
                or not all(isinstance(e[k], str) for k in (*FIELDS, *STORED) if k in e and k != "lines"):
            raise ValueError(f"entry {i} is not an object of the string fields {', '.join(FIELDS)}")
        number, replaces, credit = number_in(name, i + 1), last.get(e["key"], ""), e.get("type") == CREDIT_NOTE
        if (e["number"], e["replaces"]) != (number, replaces) or not _DIGEST.fullmatch(e["digest"]) or not e["key"] \
                or not _DATE.fullmatch(e["issued"]) or (credit and not replaces) or ("type" in e and not _stored(e)):
            raise ValueError(f"entry {i} is not issue {number} {'crediting' if credit else 'replacing'} "
                             f"{replaces or 'nothing'}")
        if credit:
            del last[e["key"]]
        else:
            last[e["key"]] = number
    return issued


def _stored(e: dict) -> bool:
    """Whether issue ``e``'s :data:`STORED` fields are as :func:`_entry` writes them."""
    kinds = (CORRECTED, CREDIT_NOTE) if e["replaces"] else (INVOICE,)
    lines = e["lines"]
    if e["type"] not in kinds or not e["start"].isdigit() or not e["end"].isdigit() or not isinstance(lines, list):
        return False
    try:
        return all(isinstance(x, list) and len(x) == len(LINE_FIELDS) and all(isinstance(v, str) for v in x)
                   and x[0] in UNIT_CODES and all(Decimal(v).is_finite() for v in x[6:]) for x in lines)
    except InvalidOperation:
        return False


def _digest(invoice: Invoice) -> str:
    """What makes two issues of a statement the same invoice: its lines, tax and buyer (not its dates)."""
    text = json.dumps([[x.kind, x.cluster, x.gpu_class, x.resource, str(x.quantity), str(x.unit_price),
                        str(x.amount)] for x in invoice.lines]
                      + [[invoice.tax.label, invoice.tax.rate, invoice.tax.code, invoice.tax.reason, invoice.tax.vatex,
                          str(invoice.buyer)]])  # another VAT category with the same amounts is another invoice
    return hashlib.sha256(text.encode()).hexdigest()

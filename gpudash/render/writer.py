"""The one writer: serialises generated data, owns files through a manifest, swaps them in all or nothing.

Rules it keeps:
* files are serialised one at a time, in path order (a render spreads them over forked writers, ``spread``:
  the same plan), and compared with what the output folder holds; a render
  (``plan(..., stage=True)``) writes each changed file into a stage folder inside the output at once and
  keeps only its digest, so memory holds one file's text, not the render's (a deferred file,
  :mod:`gpudash.base.deferred`, is built only then, and one whose data is an iterator of text pieces is written
  piece by piece); a generation error leaves the output folder untouched;
* the manifest is checked before anything is read or removed: every path it lists is relative, in its one
  normal form, inside the output and reached through no symbolic link, with a sha256 digest; else it is refused;
* applying is all or nothing: a journal is written into the stage, every replaced or removed file is moved into
  the stage (one filesystem: a rename) and every new file moved out of it, and the manifest is replaced last (the
  commit). A failure before the commit moves everything back, so the previous output is restored exactly;
  a folder on another filesystem is refused before anything moves;
* gpudash owns only the files listed in its manifest: it refuses to overwrite any other file, removes its
  own stale files (only while they still hold what gpudash wrote), and never touches anything else;
* an owned file that no longer holds what the manifest recorded was edited by hand: ``apply`` refuses to
  overwrite it unless forced, so an edit is never lost silently;
* it never reads, writes or removes through a symbolic link below the output folder (a link committed to a
  GitOps repository must not redirect gpudash's writes elsewhere);
* :func:`lock` holds the output for one render (an OS lock on a lock file: a second render exits 2 at once, and
  the lock of a render that died is free); taking it rolls back an apply a dead render left half done.

Size: over 500 lines on purpose. The manifest checks, the stage, the journal and the lock make one transaction, and
its invariants are read together here.
"""
from __future__ import annotations

import contextlib
import difflib
import errno
import fcntl
import hashlib
import json
import os
import posixpath
import re
import shutil
import socket
import stat
import tempfile
import time
from collections.abc import Callable, Collection, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, TypeVar

from gpudash.base.capped import read_capped
from gpudash.base.deferred import built, resolve
from gpudash.base.errors import GpudashError, InputError
from gpudash.base.layout import LOCK, MANIFEST, STAGE_PREFIX
from gpudash.base.yamlfmt import serialise

NEW, OLD, JOURNAL = "new", "old", "journal.json"  # in a stage: new files, the files they replace, the journal
# The most a manifest or a journal may hold: about 120 bytes a file, so room for 250 000 files; a larger one is
# refused with one line before it is parsed.
MAX_OWN_FILE = 32 * 2**20
_SHA256 = re.compile(r"[0-9a-f]{64}")
_P = TypeVar("_P", str, Path)  # a path as a string or a Path, returned as given
MAX_SHOWN = 64 * 2**20  # an old file a diff shows (a larger one is shown as replaced whole)
NOT_A_FILE = "not a regular file"  # the "digest" of a FIFO or device where a file was: never what gpudash wrote


def _digest(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


@dataclass(frozen=True)
class Plan:
    """What a render would change in ``outdir``."""

    outdir: Path
    digests: dict[str, str]  # every generated path -> digest of its text (the new manifest)
    owned: dict[str, str]  # path -> digest recorded in the current manifest
    changes: dict[str, str | Path]  # changed path -> its new text, or the staged file holding it
    hand_edited: tuple[str, ...]  # changed owned files no longer holding what gpudash wrote
    stage: Path | None = None  # where the changed files are staged (plan(..., stage=True))

    def changed(self) -> list[str]:
        return sorted(self.changes)

    def stale(self) -> list[str]:
        return sorted(p for p in self.owned if p not in self.digests)

    def edited(self) -> list[str]:
        """Owned files to be rewritten whose content is no longer what gpudash wrote (hand edits)."""
        return list(self.hand_edited)

    def counts(self) -> tuple[int, int, int]:
        """(written, unchanged, removed) file counts of applying this plan."""
        return len(self.changes), len(self.digests) - len(self.changes), len(self.stale())

    def text(self, rel: str) -> str:
        """The new text of changed file ``rel``."""
        new = self.changes[rel]
        return new.read_text(encoding="utf-8") if isinstance(new, Path) else new

    def manifest_text(self) -> str:
        return json.dumps({"generator": "gpudash", "files": dict(sorted(self.digests.items()))}, indent=2,
                          sort_keys=True) + "\n"

    def discard(self) -> None:
        """Remove the staged files of a plan that will not be applied."""
        if self.stage is not None:
            shutil.rmtree(self.stage, ignore_errors=True)


def _read(path: Path) -> str | None:
    """The text a diff shows of the file at ``path``; None when it is absent, no regular file (a FIFO is never
    waited on), larger than :data:`MAX_SHOWN` or no UTF-8 text."""
    try:
        return (read_capped(path, MAX_SHOWN) or b"").decode("utf-8") if os.path.isfile(path) else None
    except (InputError, UnicodeDecodeError):
        return None


class _Paths:
    """Checks that a path below ``outdir`` is reached through no symbolic link and no folder of another
    filesystem (a move there is no rename: it cannot be all or nothing); each folder is looked at once."""

    def __init__(self, outdir: Path):
        self.outdir = outdir
        self.seen: set[str] = set()
        self.device = outdir.stat().st_dev if outdir.is_dir() else None

    def check(self, rel: str) -> None:
        path = os.fspath(self.outdir)
        for part in rel.split("/"):  # a relative path: Path(rel).parts, without pathlib's cost per file
            if part in ("", "."):
                continue
            path = os.path.join(path, part)
            if path in self.seen:
                continue
            try:
                st = os.lstat(path)
            except (FileNotFoundError, NotADirectoryError):
                return
            except OSError as err:
                raise GpudashError(f"{path}: cannot read: {err.strerror or err}") from None
            if stat.S_ISLNK(st.st_mode):
                raise InputError(path, "", f"is a symbolic link (to {os.readlink(path)}); gpudash writes no "
                                 "file through a link: replace it with a real folder or file, or render elsewhere")
            if st.st_dev != self.device:
                raise InputError(path, "", f"is on another filesystem than {self.outdir} (a mount point); "
                                 "gpudash writes one filesystem so that a render is all or nothing: render "
                                 "into a folder without mount points")
            self.seen.add(path)


class _Folders:
    """Makes the folders files are written into, each once (thousands of files share a few folders)."""

    def __init__(self) -> None:
        self.made: set[str] = set()

    def of(self, path: _P) -> _P:
        """``path`` (a string on hot paths, where pathlib's joins show in a profile), its folder made."""
        folder = os.path.dirname(path)
        if folder not in self.made:
            os.makedirs(folder, exist_ok=True)
            self.made.add(folder)
        return path


def owned_path(rel: object) -> bool:
    """``rel`` is a path gpudash may own: relative, normalised, inside the output, not one of its own."""
    return (isinstance(rel, str) and rel not in ("", ".", MANIFEST, LOCK) and not rel.startswith("/")
            and "\\" not in rel and "\0" not in rel and posixpath.normpath(rel) == rel
            and ".." not in rel.split("/") and not rel.startswith(STAGE_PREFIX))


def _owned(outdir: Path, paths: _Paths) -> dict[str, str]:
    """The manifest's {path: digest}, every path checked before anything is read or removed."""
    manifest = outdir / MANIFEST
    text = read_capped(manifest, MAX_OWN_FILE)
    if text is None:
        return {}
    try:
        files = json.loads(text)["files"]
        if not isinstance(files, dict) or not all(isinstance(d, str) and _SHA256.fullmatch(d)
                                                  for d in files.values()):
            raise TypeError
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise InputError(str(manifest), "", "not a gpudash manifest; move it away to render here") from None
    for rel in files:
        if not owned_path(rel):
            raise InputError(str(manifest), "", f"lists {json.dumps(rel)}: not a path gpudash writes (relative, "
                             "normalised, inside the output); move the manifest away to render here")
        paths.check(rel)
    return dict(files)


def _stream(pieces: Iterator[str], path: Path) -> str:
    """Write ``pieces`` (text) to ``path`` (in a folder that exists); the digest of what was written."""
    h = hashlib.sha256()
    with path.open("wb") as f:
        for piece in pieces:
            blob = piece.encode("utf-8")
            h.update(blob)
            f.write(blob)
    return h.hexdigest()


def _file_digest(path: Path) -> str | None:
    """The sha256 of the file at ``path``, None where there is none; :data:`NOT_A_FILE` (no digest) for a FIFO, a
    device or a socket put in its place, opened without waiting for a writer and never read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            return None
        return hashlib.file_digest(f, "sha256").hexdigest() if stat.S_ISREG(mode) else NOT_A_FILE


def edited_by_hand(outdir: str | os.PathLike[str]) -> list[str]:
    """The files of ``outdir``'s manifest that no longer hold what gpudash wrote: known before anything is
    generated, so that a render refuses them at once instead of after its work (``plan`` decides the same)."""
    out = Path(outdir)
    if not out.is_dir():
        return []
    owned = _owned(out, _Paths(out))
    return sorted(rel for rel, digest in owned.items() if _file_digest(out / rel) not in (None, digest))


# forked workers: spread(fn, tasks) yields (task, fn(task)) for each task, and ends them when closed
Spread = Callable[[Callable[[Any], Any], Sequence[Any]], Generator[tuple[Any, Any], None, None]]
CHUNK = 64  # files a forked writer plans per task (one message back each)


class _Planner:
    """Plans one file at a time: checks its path, builds and serialises its data, compares it with the output
    folder and stages it; ``fresh``: the output held nothing of gpudash (a folder only the lock is in, made by this
    render), so there is nothing to check or compare a new file with."""

    def __init__(self, out: Path, generated: Mapping[str, object], owned: dict[str, str], staged: Path | None):
        self.out, self.generated, self.owned, self.staged = out, generated, owned, staged
        self.paths = _Paths(out)
        self.fresh = out.is_dir() and not owned and set(os.listdir(out)) <= {LOCK, *([staged.name] if staged else [])}
        self.new = "" if staged is None else os.fspath(staged / NEW)  # where changed files are staged
        self.folders = _Folders()

    def _staged(self, rel: str) -> str:
        """The path ``rel`` is staged at, its folder made."""
        return self.folders.of(os.path.join(self.new, rel))

    def _stage(self, rel: str, blob: bytes) -> str:
        """Write ``blob`` as the staged file of ``rel`` (one ``os.open``, no buffered file object); its path."""
        path = self._staged(rel)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
        try:
            view = memoryview(blob)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        return path

    def file(self, rel: str) -> tuple[str, str | Path | None, bool]:
        """(digest, its new text or staged file or None when the output holds it already, edited by hand)."""
        target = None if self.fresh else self.out / rel
        if target is not None:
            self.paths.check(rel)
            if target.exists() and rel not in self.owned:
                raise InputError(str(target), "", "exists but was not written by gpudash (not in its manifest); "
                                 "move it away or render into another folder")
            if target.is_dir():
                raise InputError(str(target), "", "is a directory where gpudash writes a file")
        data = resolve(self.generated[rel])
        new: str | Path
        if self.staged is not None and isinstance(data, Iterator):  # written piece by piece: too large to hold
            new = Path(self._staged(rel))
            digest, blob = _stream(data, new), b""
        else:
            new = serialise(rel, built(data))
            blob = new.encode("utf-8")
            digest = _digest(blob)
        old = None if target is None else _file_digest(target)
        if old == digest:  # a file that already holds its text is left as it is
            if isinstance(new, Path):
                new.unlink()
            return digest, None, False
        if self.staged is not None and not isinstance(new, Path):  # staged at once: only its digest is kept
            new = Path(self._stage(rel, blob))
        return digest, new, old is not None and rel in self.owned and old != self.owned[rel]

    def _planned(self, rel: str) -> tuple[str, bool, bool]:
        digest, new, edited = self.file(rel)
        return digest, new is not None, edited

    def chunk(self, rels: Sequence[str]) -> list[tuple[str, str, bool, bool]]:
        """A forked writer's task: (path, digest, changed, edited by hand) of each file of ``rels``, each staged."""
        try:
            return [(rel, *self._planned(rel)) for rel in rels]
        except OSError as err:
            raise _cannot_write(self.out, err) from None


def _cannot_write(out: Path, err: OSError) -> GpudashError:
    return GpudashError(f"{out}: cannot write output: {err.strerror or err}")


def _gather(spread: Spread, planner: _Planner, chunks: list[list[str]],
            into: tuple[dict[str, str], dict[str, str | Path], list[str]],
            progress: Callable[[int, int, str], object] | None, total: int) -> None:
    """The forked writers' plans of ``chunks`` into (digests, changes, edited); the workers end in any case."""
    digests, changes, edited = into
    with contextlib.closing(spread(planner.chunk, chunks)) as results:
        for _, result in results:
            for rel, digest, changed, was_edited in result:
                digests[rel] = digest
                if changed and planner.staged is not None:
                    changes[rel] = Path(os.path.join(planner.new, rel))
                if was_edited:
                    edited.append(rel)
            if progress:
                progress(len(digests), total, result[-1][0])


def plan(outdir: str | os.PathLike[str], generated: Mapping[str, object], stage: bool = False,
         progress: Callable[[int, int, str], object] | None = None, spread: Spread | None = None,
         local: Collection[str] = ()) -> Plan:
    """Serialise ``generated`` and compare it with ``outdir``; refuses to take over files it does not own.

    With ``stage`` each changed file is written into a temporary folder in ``outdir`` as soon as it is serialised
    (what ``apply`` then moves into place; ``Plan.discard`` removes it), else kept in memory (``render --check``:
    planning never writes). ``progress(done, total, path)`` is told of each file (the CLI's progress bar). With
    ``stage`` and ``spread`` (forked workers: ``spread(fn, tasks)`` yields each task's result) the files not in
    ``local`` are planned by the workers, :data:`CHUNK` at a time, and ``local`` ones here afterwards (the golden
    tests, which this process's own workers emit); the plan is the same."""
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise InputError(str(out), "", "output path exists and is not a directory")
    paths = _Paths(out)
    paths.check(MANIFEST)
    owned = _owned(out, paths)
    digests: dict[str, str] = {}
    changes: dict[str, str | Path] = {}
    edited: list[str] = []
    staged: Path | None = None
    created = not out.exists()
    rels = sorted(generated)
    try:
        if stage and rels:
            out.mkdir(parents=True, exist_ok=True)
            staged = Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=out))
        planner = _Planner(out, generated, owned, staged)
        spread_rels = [rel for rel in rels if rel not in local] if staged is not None and spread else []
        here = [rel for rel in rels if rel in local] if spread_rels else rels
        chunks = [spread_rels[i:i + CHUNK] for i in range(0, len(spread_rels), CHUNK)]
        if spread and chunks:
            _gather(spread, planner, chunks, (digests, changes, edited), progress, len(rels))
        for rel in here:
            if progress:
                progress(len(digests), len(rels), rel)
            digests[rel], new, was_edited = planner.file(rel)
            if new is not None:
                changes[rel] = new
            if was_edited:
                edited.append(rel)
    except BaseException as err:
        if staged is not None:
            shutil.rmtree(staged, ignore_errors=True)
        if created and out.is_dir() and not any(out.iterdir()):
            out.rmdir()
        if isinstance(err, OSError):
            raise _cannot_write(out, err) from None
        raise
    return Plan(out, dict(sorted(digests.items())), owned, dict(sorted(changes.items())), tuple(sorted(edited)),
                staged)


def apply(p: Plan, force: bool = False) -> list[str]:
    """Write the plan, all or nothing; returns the stale files left in place because they were edited by hand.

    Refuses (before writing anything) to overwrite owned files edited by hand, unless ``force``. On any failure
    the previous output is restored (:func:`_rollback`) and the error is one line.
    """
    edited = [] if force else p.edited()
    if edited:
        p.discard()
        raise InputError(str(p.outdir / edited[0]), "", f"edited by hand since gpudash wrote it"
                         f"{f' (and {len(edited) - 1} more: ' + ', '.join(edited[1:]) + ')' if edited[1:] else ''}"
                         "; move the edit into the model and re-render, or render with --force to overwrite it")
    stage = p.stage
    journal: Journal | None = None
    kept: list[str] = []
    try:
        if not p.outdir.is_dir():
            p.outdir.mkdir(parents=True)
        stage = stage or Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=p.outdir))
        folders = _Folders()
        for rel in p.changed():
            new = p.changes[rel]
            if not isinstance(new, Path):
                folders.of(stage / NEW / rel).write_text(new, encoding="utf-8")
        manifest = p.manifest_text().encode("utf-8")
        (stage / MANIFEST).write_bytes(manifest)
        journal, kept = _journal(p, _digest(manifest))
        (stage / JOURNAL).write_text(json.dumps(journal), encoding="utf-8")
        _move(p.outdir, stage, journal)
    except BaseException as err:  # an interrupt (Ctrl-C) too: nothing is left half done
        # the journal is written into the stage: with a journal there is a stage
        restored = journal is None or stage is None or _rollback(p.outdir, stage, journal)
        if restored and stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
        if not isinstance(err, OSError):
            raise
        said = f"{p.outdir}: cannot write output: {err.strerror or err}"
        if journal is not None:  # the output was being changed
            said += (f" (at {err.filename}); " + ("previous output restored" if restored else "the previous output "
                     f"could not be restored: the next render restores it from {stage}"))
        raise GpudashError(said) from None
    shutil.rmtree(stage, ignore_errors=True)
    _tidy(p.outdir, journal["remove"])
    return kept


class Journal(TypedDict):
    """What ``_move`` does, in the order it does it: the folders it makes, the files it creates (with their
    digests), replaces and removes; ``manifest`` is the new manifest's digest (its presence marks the commit)."""

    manifest: str
    folders: list[str]
    create: dict[str, str]
    replace: list[str]
    remove: list[str]


def _journal(p: Plan, manifest: str) -> tuple[Journal, list[str]]:
    """What ``_move`` will do, written into the stage before it starts (what a rollback undoes), and the stale
    files kept because they no longer hold what gpudash wrote."""
    remove: list[str] = []
    kept: list[str] = []
    for rel in p.stale():
        digest = _file_digest(p.outdir / rel)
        if digest is not None:
            (remove if digest == p.owned[rel] else kept).append(rel)
    create = {rel: p.digests[rel] for rel in _absent(p.outdir, p.changed())}
    folders = sorted((f for f in _ancestors(create) if not (p.outdir / f).is_dir()), key=lambda f: (f.count("/"), f))
    return {"manifest": manifest, "folders": folders, "create": create,
            "replace": [rel for rel in p.changed() if rel not in create], "remove": remove}, kept


def _absent(out: Path, rels: Iterable[str]) -> list[str]:
    """Those of ``rels`` the output does not hold: every one under a top-level entry it lacks without looking at
    each (a first render: thousands of files under a few folders; one ``lstat`` each took 0.1 s after the writers),
    any other after one ``lstat``."""
    root, tops = os.fspath(out), {}  # type: tuple[str, dict[str, bool]]
    absent = []
    for rel in rels:
        top = rel.partition("/")[0]
        if top not in tops:
            tops[top] = os.path.lexists(os.path.join(root, top))
        if not tops[top] or (top != rel and not os.path.lexists(os.path.join(root, rel))):
            absent.append(rel)
    return absent


def _ancestors(rels: Iterable[str]) -> set[str]:
    """The folders above the relative paths ``rels`` (each once: files share folders)."""
    out: set[str] = set()
    for rel in rels:
        folder = posixpath.dirname(rel)
        while folder and folder not in out:
            out.add(folder)
            folder = posixpath.dirname(folder)
    return out


def _move(out: Path, stage: Path, journal: Journal) -> None:
    """Move the old files of the journal into the stage and the new ones into place; the manifest last. A
    top-level folder the output lacks holds only new files: its staged folder is moved whole (one rename, not one
    per file: a first render); a rollback undoes it file by file as any other."""
    paths = _Paths(out)  # again: a link or mount made since the plan must not redirect a move
    whole = [folder for folder in journal["folders"] if "/" not in folder]
    below = tuple(f"{folder}/" for folder in whole)
    for folder in journal["folders"]:
        if folder not in whole and not folder.startswith(below):
            os.mkdir(out / folder)
    folders = _Folders()
    for rel in journal["replace"] + journal["remove"]:
        paths.check(rel)
        os.replace(out / rel, folders.of(stage / OLD / rel))
    for folder in whole:
        paths.check(folder)
        if os.path.lexists(out / folder):  # made since the plan: never replaced (a move would replace an empty one)
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(out / folder))
        os.replace(stage / NEW / folder, out / folder)
    for rel in [rel for rel in journal["create"] if not rel.startswith(below)] + journal["replace"]:
        paths.check(rel)
        os.replace(stage / NEW / rel, out / rel)
    os.replace(stage / MANIFEST, out / MANIFEST)


def _rollback(out: Path, stage: Path, journal: Journal) -> bool:
    """Undo an interrupted ``_move``: the old files back, the new ones and new folders gone; True when all was."""
    done = True
    for rel in journal["replace"] + journal["remove"]:
        if os.path.lexists(stage / OLD / rel):
            done &= _quietly(os.replace, stage / OLD / rel, out / rel)
    for rel, digest in journal["create"].items():
        if _file_digest(out / rel) == digest:
            done &= _quietly(os.unlink, out / rel)
    for folder in reversed(journal["folders"]):
        if (out / folder).is_dir() and not any((out / folder).iterdir()):
            done &= _quietly(os.rmdir, out / folder)
    return done


def _quietly(fn: Callable[..., object], *args: object) -> bool:
    try:
        fn(*args)
        return True
    except OSError:
        return False


def _tidy(out: Path, removed: list[str]) -> None:
    """Remove the folders that removing stale files emptied (best effort: the render is committed)."""
    for rel in removed:
        for parent in Path(rel).parents:
            folder = out / parent
            if folder == out or not folder.is_dir() or any(folder.iterdir()) or not _quietly(os.rmdir, folder):
                break


def _journal_ok(journal: object) -> bool:
    """``journal`` is one :class:`Journal` whose every path is one gpudash may own, as a manifest's: a rollback
    moves and removes what it names."""
    if not isinstance(journal, dict) or set(journal) != set(Journal.__annotations__):
        return False
    lists, create = [journal[k] for k in ("folders", "replace", "remove")], journal["create"]
    if not (all(isinstance(v, list) for v in lists) and isinstance(create, dict)
            and isinstance(journal["manifest"], str) and all(isinstance(d, str) for d in create.values())):
        return False
    return all(owned_path(rel) for rel in [*create, *(rel for v in lists for rel in v)])


def _recover(out: Path) -> str | None:
    """Finish or roll back what a render that died left in ``out`` (its stage folders); what was done, if any."""
    done = None
    for stage in sorted(out.glob(f"{STAGE_PREFIX}*")):
        if stage.is_symlink() or not stage.is_dir():
            continue
        try:
            text = read_capped(stage / JOURNAL, MAX_OWN_FILE)
            journal = None if text is None else json.loads(text)  # None: it died while staging, nothing touched
            if journal is not None and not _journal_ok(journal):
                raise ValueError
        except (GpudashError, ValueError, RecursionError):
            raise GpudashError(f"{stage}: an unreadable journal of an interrupted render; restore {out} from "
                               "version control and remove it") from None
        if journal is not None:
            if _file_digest(out / MANIFEST) == journal["manifest"]:
                done = "finished the apply it had committed"
            elif _rollback(out, stage, journal):
                done = "restored the output it was writing"
            else:
                raise GpudashError(f"{out}: a render died while writing it and its previous output could not be "
                                   f"restored from {stage}; restore it from version control and remove {stage}")
        shutil.rmtree(stage, ignore_errors=True)
    return done


@dataclass
class Lock:
    """A held render lock; ``recovered``: what was done about a render that died while writing (else None)."""

    path: Path
    recovered: str | None = None


@contextlib.contextmanager
def lock(outdir: str | os.PathLike[str]) -> Iterator[Lock]:
    """Hold ``outdir`` for one render: an exclusive ``flock`` on its lock file, which says who holds it.

    A second render exits 2 at once. The OS frees the lock of a render that dies, so a lock file left behind
    holds no lock: the next render takes it and rolls back the apply it may have left half done (its journal)."""
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise InputError(str(out), "", "output path exists and is not a directory")
    created = not out.exists()
    _Paths(out).check(LOCK)
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd = _take(out)
    except OSError as err:
        raise GpudashError(f"{out}: cannot write output: {err.strerror or err}") from None
    try:
        died = os.read(fd, 4096).decode("utf-8", "replace")
        held = Lock(out / LOCK, _recover(out))
        if held.recovered:
            held.recovered = f"a render stopped while writing {out} {_holder(died)}: {held.recovered}"
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                  "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}).encode(), 0)
        yield held
    finally:
        _quietly(os.unlink, out / LOCK)
        os.close(fd)
        if created:
            _quietly(os.rmdir, out)  # a folder this render made and left empty (a bad model)


def _take(out: Path) -> int:
    """An open descriptor of ``out``'s lock file, locked; one line (exit 2) when another render holds it."""
    path = out / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 4096).decode("utf-8", "replace")
            os.close(fd)
            raise GpudashError(f"another render is writing {out} {_holder(holder)}; wait for it to end, or render "
                               "elsewhere") from None
        try:
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)  # the holder removed the file between our open and lock: take the new one


def _holder(text: str) -> str:
    """``since TIME (pid N on HOST)`` from a lock file's text (as much as it says)."""
    try:
        info = json.loads(text)
        said = f"since {info['since']} (pid {int(info['pid'])} on {info['host']})"
        return "".join(c if c.isprintable() else "?" for c in said)  # the file is not ours to trust
    except (ValueError, KeyError, TypeError, RecursionError):
        return "since an unknown time"


def diff(p: Plan, context: int = 1) -> str:
    """A unified diff of what a render would change (for ``render --check``)."""
    chunks: list[str] = []
    for rel in p.changed() + p.stale():
        old = _read(p.outdir / rel) or ""
        new = p.text(rel) if rel in p.changes else ""
        chunks += difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{rel}", f"b/{rel}", n=context)
    return "".join(chunks)

"""The one writer: serialises generated data, owns files through a manifest, swaps them in atomically.

Rules it keeps:
* files are serialised one at a time, in path order, and compared with what the output folder holds; a render
  (``plan(..., stage=True)``) writes each changed file into a temporary folder beside the outputs at once and
  keeps only its digest, so memory holds one file's text, not the render's (a deferred file,
  :mod:`gpudash.deferred`, is built only then, and one whose data is an iterator of text pieces is written
  piece by piece); a generation error leaves the output folder untouched;
* staged files are moved into place with ``os.replace`` (atomic per file) and the manifest is replaced last;
* gpudash owns only the files listed in its manifest: it refuses to overwrite any other file, removes its
  own stale files (only while they still hold what gpudash wrote), and never touches anything else;
* an owned file that no longer holds what the manifest recorded was edited by hand: ``apply`` refuses to
  overwrite it unless forced, so an edit is never lost silently;
* it never reads, writes or removes through a symbolic link below the output folder (a link committed to a
  GitOps repository must not redirect gpudash's writes elsewhere).
"""
from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gpudash.deferred import built, resolve
from gpudash.errors import GpudashError, InputError
from gpudash.layout import MANIFEST
from gpudash.yamlfmt import dump_json, dump_yaml

HEADER = "Rendered by gpudash from the model (gpudash.yaml): edit the model and re-render, not this file."
STAGE_PREFIX = ".gpudash-stage-"


def serialise(path: str, data) -> str:
    """Text of one output file, by its extension."""
    if isinstance(data, str):
        return data
    if path.endswith(".json"):
        return dump_json(data)
    return dump_yaml(data, header=HEADER)


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
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError):
        return None


def _symlink(outdir: Path, rel: str) -> Path | None:
    """The first symbolic link on the way from ``outdir`` to ``outdir/rel`` (the target included), if any."""
    path = outdir
    for part in Path(rel).parts:
        path = path / part
        if path.is_symlink():
            return path
    return None


def _refuse_symlink(outdir: Path, rel: str) -> None:
    link = _symlink(outdir, rel)
    if link is not None:
        raise InputError(str(link), "", f"is a symbolic link (to {os.readlink(link)}); gpudash writes no file "
                         "through a link: replace it with a real folder or file, or render elsewhere")


def _owned(outdir: Path) -> dict[str, str]:
    text = _read(outdir / MANIFEST)
    if text is None:
        return {}
    try:
        files = json.loads(text)["files"]
        return {str(p): str(d) for p, d in files.items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        raise InputError(str(outdir / MANIFEST), "", "not a gpudash manifest; move it away to render here") from None


def _stream(pieces: Iterator[str], path: Path) -> str:
    """Write ``pieces`` (text) to ``path``; the digest of what was written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    h = hashlib.sha256()
    with path.open("wb") as f:
        for piece in pieces:
            blob = piece.encode("utf-8")
            h.update(blob)
            f.write(blob)
    return h.hexdigest()


def _file_digest(path: Path) -> str | None:
    try:
        with path.open("rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()
    except (FileNotFoundError, IsADirectoryError):
        return None


def plan(outdir: str | os.PathLike, generated: dict[str, object], stage: bool = False) -> Plan:
    """Serialise ``generated`` and compare it with ``outdir``; refuses to take over files it does not own.

    With ``stage`` each changed file is written into a temporary folder in ``outdir`` as soon as it is serialised
    (what ``apply`` then moves into place; ``Plan.discard`` removes it), else kept in memory (``render --check``:
    planning never writes)."""
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise InputError(str(out), "", "output path exists and is not a directory")
    _refuse_symlink(out, MANIFEST)
    owned = _owned(out)
    digests: dict[str, str] = {}
    changes: dict[str, str | Path] = {}
    edited: list[str] = []
    staged: Path | None = None
    created = not out.exists()
    try:
        for rel in sorted(generated):
            _refuse_symlink(out, rel)
            target = out / rel
            if target.exists() and rel not in owned:
                raise InputError(str(target), "", "exists but was not written by gpudash (not in its manifest); "
                                 "move it away or render into another folder")
            if target.is_dir():
                raise InputError(str(target), "", "is a directory where gpudash writes a file")
            data = resolve(generated[rel])
            if stage and staged is None:
                out.mkdir(parents=True, exist_ok=True)
                staged = Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=out))
            new: str | Path
            if stage and isinstance(data, Iterator):  # written piece by piece: too large to hold at once
                digests[rel], new, blob = _stream(data, staged / rel), staged / rel, b""
            else:
                new = serialise(rel, built(data))
                blob = new.encode("utf-8")
                digests[rel] = _digest(blob)
            old = _file_digest(target)
            if old == digests[rel]:  # a file that already holds its text is left as it is
                if isinstance(new, Path):
                    new.unlink()
                continue
            if old is not None and rel in owned and old != owned[rel]:
                edited.append(rel)
            if stage and not isinstance(new, Path):  # staged at once: only its digest is kept
                (staged / rel).parent.mkdir(parents=True, exist_ok=True)
                (staged / rel).write_bytes(blob)
                new = staged / rel
            changes[rel] = new
    except BaseException as err:
        if staged is not None:
            shutil.rmtree(staged, ignore_errors=True)
        if created and out.is_dir() and not any(out.iterdir()):
            out.rmdir()
        if isinstance(err, OSError):
            raise GpudashError(f"{out}: cannot write output: {err.strerror or err}") from None
        raise
    return Plan(out, digests, owned, changes, tuple(edited), staged)


def apply(p: Plan, force: bool = False) -> list[str]:
    """Write the plan; returns the stale files left in place because they were edited by hand.

    Refuses (before writing anything) to overwrite owned files edited by hand, unless ``force``.
    """
    edited = [] if force else p.edited()
    if edited:
        p.discard()
        raise InputError(str(p.outdir / edited[0]), "", f"edited by hand since gpudash wrote it"
                         f"{f' (and {len(edited) - 1} more: ' + ', '.join(edited[1:]) + ')' if edited[1:] else ''}"
                         "; move the edit into the model and re-render, or render with --force to overwrite it")
    stage = p.stage
    try:
        p.outdir.mkdir(parents=True, exist_ok=True)
        stage = stage or Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=p.outdir))
        changed = p.changed()
        for rel in changed:
            if not isinstance(p.changes[rel], Path):
                (stage / rel).parent.mkdir(parents=True, exist_ok=True)
                (stage / rel).write_text(p.changes[rel], encoding="utf-8")
        (stage / MANIFEST).write_text(p.manifest_text(), encoding="utf-8")
        for rel in changed:
            _refuse_symlink(p.outdir, rel)  # again: a link made since the plan must not redirect this write
            (p.outdir / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(stage / rel, p.outdir / rel)
        kept = _remove_stale(p)
        os.replace(stage / MANIFEST, p.outdir / MANIFEST)
    except OSError as err:
        raise GpudashError(f"{p.outdir}: cannot write output: {err.strerror or err}") from None
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
    return kept


def _remove_stale(p: Plan) -> list[str]:
    kept = []
    for rel in p.stale():
        path = p.outdir / rel
        if _symlink(p.outdir, rel) is not None:  # never follow a link to remove what it points at
            kept.append(rel)
            continue
        try:
            data = path.read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            continue
        if _digest(data) != p.owned[rel]:
            kept.append(rel)
            continue
        path.unlink()
        for parent in path.relative_to(p.outdir).parents:
            folder = p.outdir / parent
            if folder == p.outdir or any(folder.iterdir()):
                break
            folder.rmdir()
    return kept


def diff(p: Plan, context: int = 1) -> str:
    """A unified diff of what a render would change (for ``render --check``)."""
    chunks = []
    for rel in p.changed() + p.stale():
        old = _read(p.outdir / rel) or ""
        new = p.text(rel) if rel in p.changes else ""
        chunks += difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{rel}", f"b/{rel}", n=context)
    return "".join(chunks)

"""The one writer: serialises generated data, owns files through a manifest, swaps them in atomically.

Rules it keeps:
* everything is serialised in memory first; a generation error leaves the output folder untouched;
* files are staged in a temporary folder beside the outputs, then moved into place with ``os.replace``
  (atomic per file) and the manifest is replaced last;
* gpudash owns only the files listed in its manifest: it refuses to overwrite any other file, removes its
  own stale files (only while they still hold what gpudash wrote), and never touches anything else;
* an owned file that no longer holds what the manifest recorded was edited by hand: ``apply`` refuses to
  overwrite it unless forced, so an edit is never lost silently;
* it never reads, writes or removes through a symbolic link below the output folder (a link committed to a
  GitOps repository must not redirect gpudash's writes elsewhere).
"""
from __future__ import annotations

import difflib
import functools
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gpudash.errors import GpudashError, InputError
from gpudash.layout import MANIFEST
from gpudash.yamlfmt import dump_json, dump_yaml

HEADER = "Rendered by gpudash from the model (gpudash.yaml): edit the model and re-render, not this file."


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
    files: dict[str, str]  # path -> new text
    owned: dict[str, str]  # path -> digest recorded in the current manifest

    def changed(self) -> list[str]:
        return list(self._changed)

    @functools.cached_property
    def _changed(self) -> tuple[str, ...]:
        """Read once: ``counts``, ``edited`` and ``diff`` all ask (each file read once per render)."""
        return tuple(sorted(p for p, text in self.files.items() if _read(self.outdir / p) != text))

    def stale(self) -> list[str]:
        return sorted(p for p in self.owned if p not in self.files)

    def edited(self) -> list[str]:
        """Owned files to be rewritten whose content is no longer what gpudash wrote (hand edits)."""
        return sorted(p for p in self.changed() if p in self.owned and _edited(self.outdir / p, self.owned[p]))

    def counts(self) -> tuple[int, int, int]:
        """(written, unchanged, removed) file counts of applying this plan."""
        written = len(self.changed())
        return written, len(self.files) - written, len(self.stale())

    def manifest_text(self) -> str:
        entries = {p: _digest(t.encode()) for p, t in sorted(self.files.items())}
        return json.dumps({"generator": "gpudash", "files": entries}, indent=2, sort_keys=True) + "\n"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError):
        return None


def _edited(path: Path, digest: str) -> bool:
    try:
        return _digest(path.read_bytes()) != digest
    except (FileNotFoundError, IsADirectoryError):
        return False


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


def plan(outdir: str | os.PathLike, generated: dict[str, object]) -> Plan:
    """Serialise ``generated`` and compare it with ``outdir``; refuses to take over files it does not own."""
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise InputError(str(out), "", "output path exists and is not a directory")
    files = {p: serialise(p, d) for p, d in sorted(generated.items())}
    _refuse_symlink(out, MANIFEST)
    owned = _owned(out)
    for p in files:
        _refuse_symlink(out, p)
        target = out / p
        if target.exists() and p not in owned:
            raise InputError(str(target), "", "exists but was not written by gpudash (not in its manifest); "
                             "move it away or render into another folder")
        if target.is_dir():
            raise InputError(str(target), "", "is a directory where gpudash writes a file")
    return Plan(out, files, owned)


def apply(p: Plan, force: bool = False) -> list[str]:
    """Write the plan; returns the stale files left in place because they were edited by hand.

    Refuses (before writing anything) to overwrite owned files edited by hand, unless ``force``.
    """
    edited = [] if force else p.edited()
    if edited:
        raise InputError(str(p.outdir / edited[0]), "", f"edited by hand since gpudash wrote it"
                         f"{f' (and {len(edited) - 1} more: ' + ', '.join(edited[1:]) + ')' if edited[1:] else ''}"
                         "; move the edit into the model and re-render, or render with --force to overwrite it")
    stage = None
    try:
        p.outdir.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".gpudash-stage-", dir=p.outdir))
        changed = p.changed()  # a file that already holds its text is left as it is
        for rel in changed:
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            (stage / rel).write_text(p.files[rel], encoding="utf-8")
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
        new = p.files.get(rel, "")
        chunks += difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{rel}", f"b/{rel}", n=context)
    return "".join(chunks)

"""The golden tests of a render, kept between renders.

Emitting them replays every scenario through the reference model: seconds of CPU, most of a render of a small
model. They depend only on the model and on gpudash's own code and scenario catalogue, so a render keeps their
text under a key of both -- sha256 of the model's ``repr`` (a frozen dataclass of sorted tuples: deterministic)
and of every file of the installed package -- and a later render with the same key reads them back instead of
emitting them: the same bytes (tests/integration/test_golden_cache.py). Any other model or code is another key.
Render, validate and test read and fill it through :mod:`gpudash.render.golden.orchestrate.schedule`.

Where: ``$GPUDASH_CACHE``, else ``$XDG_CACHE_HOME/gpudash``, else ``~/.cache/gpudash``; ``GPUDASH_CACHE=off``
turns it off. Only files named ``golden-<key>.json.gz`` there are read, written or removed; the newest
:data:`KEEP` stay. A cache that cannot be read or written is passed over: the tests are emitted, nothing fails.

Trusted nowhere: anyone who can write to the folder (a shared CI cache, another user's job) can write an entry, so
an entry supplies only what it caches -- exactly the model's golden test files, each path checked like the
manifest's and only where golden tests go -- within :data:`MAX_COMPRESSED` and :data:`MAX_BYTES`; any other entry
is passed over with a warning line, never rendered.
"""
from __future__ import annotations

import dataclasses
import functools
import gzip
import hashlib
import io
import json
import os
import sys
import tempfile
import types
from pathlib import Path

import gpudash
from gpudash.base import layout
from gpudash.base.capped import read_capped
from gpudash.base.errors import GpudashError
from gpudash.model.types import Model, Outputs
from gpudash.model.vendors import VENDORS
from gpudash.render.golden.emit import emit_paths
from gpudash.render.writer import owned_path

ENV = "GPUDASH_CACHE"
OFF = "off"
KEEP = 4  # entries kept (each a few MB compressed)
_PREFIX, _SUFFIX = "golden-", ".json.gz"


def directory() -> Path | None:
    """The cache folder, or None when turned off."""
    chosen = os.environ.get(ENV)
    if chosen == OFF:
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gpudash"


@functools.cache
def _code_digest() -> str:
    """sha256 over every file of the package (path and bytes), compiled caches aside."""
    root = Path(gpudash.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def key(model: Model) -> str:
    """sha256 of the code, the model and the registered GPU vendors (a vendor registered at run time, outside the
    package's files, changes every render's rules). The model without what the golden tests never read: the file
    it came from and its ``outputs`` (which targets deliver them; tests/integration/test_golden_cache.py emits them
    from a model whose ``outputs`` fails at any use)."""
    relevant = dataclasses.replace(model, outputs=Outputs(), source="")
    return hashlib.sha256(f"{_code_digest()}\n{relevant!r}\n{_vendors_text()}".encode()).hexdigest()


def _vendors_text() -> str:
    """The registered vendors' fields, each function by its qualified name (a function's repr holds its address,
    which differs in every process)."""
    def text(value: object) -> str:
        if isinstance(value, types.FunctionType):
            return f"{value.__module__}.{value.__qualname__}"
        return repr(value)

    return repr([[text(getattr(v, f.name)) for f in dataclasses.fields(v)] for v in VENDORS.values()])


def entry_name(model: Model) -> str:
    """The cache file of ``model``'s golden tests."""
    return f"{_PREFIX}{key(model)}{_SUFFIX}"


# An entry's most, compressed and decompressed. The example's golden tests (every feature, 148 files) are 24 MiB of
# text, 0.9 MiB compressed; reading an entry holds it about three times (the bytes, the text json decodes, the
# parsed strings), so a render that reads a 48 MiB entry peaks at about 200 MB (measured: 202 MB, 111 MB with the
# example's own entry), below the 273 MB of a render that emits them.
MAX_BYTES = 48 * 2**20
MAX_COMPRESSED = 16 * 2**20


def load(model: Model) -> dict[str, str] | None:
    """The golden test files' text ({path: text}) a render of ``model`` by this code made, or None: absent, or
    passed over with a warning line on stderr when it is anything but the model's golden test files (then the tests
    are emitted afresh)."""
    folder = directory()
    if folder is None:
        return None
    path = folder / entry_name(model)
    try:
        data, problem = _read(path, model)
    except GpudashError as err:
        data, problem = None, str(err)
    if problem:
        print(f"gpudash: golden cache: {problem}; passed over, the golden tests are emitted afresh", file=sys.stderr)
        return None
    return data


def _read(path: Path, model: Model) -> tuple[dict[str, str] | None, str | None]:
    """The entry at ``path`` and None, or None and what is wrong with it (None and None: there is none)."""
    packed = read_capped(path, MAX_COMPRESSED)
    if packed is None:
        return None, None
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(packed)) as f:
            text = f.read(MAX_BYTES + 1)  # decompressed as it is read: a gzip bomb stops here, not in memory
        if len(text) > MAX_BYTES:
            return None, f"{path}: unpacks to more than {MAX_BYTES} bytes"
        data = json.loads(text)
    except (OSError, EOFError, ValueError, RecursionError):
        return None, f"{path}: not a gzip-compressed JSON entry"
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        return None, f"{path}: not a {{path: text}} object"
    return data, _foreign(data, model, path)


def _foreign(data: dict[str, str], model: Model, path: Path) -> str | None:
    """What makes ``data`` something else than ``model``'s golden test files, else None: a path checked like the
    manifest's and only where golden tests go (tests/golden-*.test.yaml, the index), then the exact set of them."""
    for rel in sorted(data):
        if not (owned_path(rel) and layout.is_golden(rel)):
            return f"{path}: holds {json.dumps(rel)}, not a golden test file's path"
    wanted = set(emit_paths(model))
    if set(data) != wanted:
        odd = sorted(set(data) ^ wanted)
        return f"{path}: not this model's golden test files ({len(odd)} differ, e.g. {odd[0]})"
    return None


def store(model: Model, texts: dict[str, str]) -> None:
    """Keep ``texts`` for ``model`` (written whole, then renamed: a reader never sees half a file); then remove
    all but the newest :data:`KEEP` entries. Tests beyond the caps are not kept: no render could read them back."""
    folder = directory()
    if folder is None:
        return
    text = json.dumps(texts, sort_keys=True).encode()
    packed = gzip.compress(text, compresslevel=1)
    if len(text) > MAX_BYTES or len(packed) > MAX_COMPRESSED:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".golden-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(packed)
            os.replace(tmp, folder / entry_name(model))
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        entries = sorted(folder.glob(f"{_PREFIX}*{_SUFFIX}"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        return  # a cache that cannot be written is no cache

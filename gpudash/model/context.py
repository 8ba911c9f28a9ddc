"""The loader's context: where each value of a model came from, and how a problem with it is worded.

A field path names a value (``("tenants", 2, "namespace")``, shown as ``tenants[2].namespace``); :class:`Ctx`
knows each path's line and collects one :class:`~gpudash.base.errors.InputError` per field, so one run reports
every error of the file.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gpudash.base.errors import InputError, raise_all

MAX_VALUES = 100_000  # YAML aliases can expand a small file into a huge tree: refuse beyond this many values
FieldPath = tuple[str | int, ...]
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def format_path(path: FieldPath) -> str:
    """``("tenants", 2, "namespace")`` -> ``tenants[2].namespace``; odd keys as ``quota['nvidia.com/gpu']``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENT.fullmatch(part):
            text += f".{part}" if text else part
        else:
            text += f"[{part!r}]"
    return text


@dataclass
class Ctx:
    """Where the data came from: file name, line per field path, and the paths filled from defaults."""

    file: str
    lines: dict[FieldPath, int]
    defaulted: set[FieldPath] = field(default_factory=set)
    errors: dict[FieldPath, InputError] = field(default_factory=dict)  # the first error per field, in check order

    def line(self, path: FieldPath) -> int | None:
        return next((self.lines[path[:n]] for n in range(len(path), 0, -1) if path[:n] in self.lines), None)

    def error(self, path: FieldPath, reason: str) -> InputError:
        if path in self.defaulted:
            reason += " (the default value; set it explicitly)"
        return InputError(self.file, format_path(path), reason, self.line(path))

    def check(self, ok: Any, path: FieldPath, reason: str) -> None:
        """Record an error when not ``ok`` and go on, so that one run reports every error of the file."""
        if not ok:
            self.errors.setdefault(path, self.error(path, reason))

    def require(self, ok: Any, path: FieldPath, reason: str) -> None:
        """Like :meth:`check`, for what nothing after it can work without: stop here with every error so far."""
        if not ok:
            self.raise_errors(self.error(path, reason))

    def raise_errors(self, also: InputError | None = None) -> None:
        errors = [*self.errors.values(), *([also] if also else [])]
        raise_all(sorted(errors, key=lambda e: e.line or 0))


def short(value: Any) -> str:
    text = repr(hide_userinfo(value) if isinstance(value, str) else value)
    return text if len(text) <= 60 else text[:57] + "..."


# A URL's user information: ``scheme://user:password@`` before the host, or, in a URL that does not parse (a
# password holding '/', '?', '#' or a space), ``scheme://user:...@`` whose ':' is no port (digits then '/').
USERINFO = re.compile(r"^[^:/?#\s]+://(?:[^/?#@\s]*@|[^/?#@:\s]*:(?!\d*(?:[/?#]|$))[^@]*@)")
USERINFO_REASON = ("a user name or password in a URL: a secret inlined in the model (it would be copied into "
                   "rendered files); remove it and give the credential as a secret: a file mounted into "
                   "Alertmanager (receivers' *_file, http_config.basic_auth.password_file), prune.token_secret, or "
                   "grafana.tenant_datasource.token_env")


def hide_userinfo(value: str) -> str:
    """``value`` as an error may show it: a URL's user information, parsable or not, written ``***@``."""
    found = USERINFO.match(value.strip())
    if not found:
        return value
    head = value.strip()
    return head[:head.index("://") + 3] + "***@" + head[found.end():]


def describe(value: Any) -> str:
    if value is None:
        return "null (an empty value)"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, str):
        return f"string {short(value)}"
    if isinstance(value, (int, float)):
        return f"number {short(value)}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {short(value)}"


def did_you_mean(word: Any, choices: Iterable[Any]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or ''."""
    lowered = {str(c).lower(): str(c) for c in choices}
    close = difflib.get_close_matches(str(word).lower(), lowered, n=1, cutoff=0.6)
    return f" (did you mean {lowered[close[0]]!r}?)" if close else ""


def unique(items: list[dict[str, Any]], key: str, path: FieldPath, what: str, ctx: Ctx) -> None:
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        seen = first.setdefault(item[key], index)
        ctx.check(seen == index, path + (index, key),
                  f"{what} {item[key]!r} is already used by {format_path(path + (seen,))}")

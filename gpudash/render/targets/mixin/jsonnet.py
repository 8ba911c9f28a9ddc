"""Plain data -> jsonnet source whose strings are templated from ``$._config`` (kubernetes-mixin style).

The caller renders the same content twice: from the model, and from a probe model whose overridable values
are unique sentinels. Every string where the two differ becomes ``"...%(field)s..." % $._config``; the
template is checked to give back the rendered string with the model's values, so the mixin evaluated with its
default ``_config`` is exactly the rendered YAML. Pure; no I/O.
"""
from __future__ import annotations

import json
import re

from gpudash.base.errors import GenerationError
from gpudash.base.yamlfmt import COMMENT

INDENT = "  "


def _template(real: str, probe: str, sentinels: dict[str, str], defaults: dict[str, str], where: str) -> str:
    text = probe.replace("%", "%%")
    for sentinel, field in sentinels.items():
        text = text.replace(sentinel, f"%({field})s")
    if text % defaults != real:
        raise GenerationError(f"mixin: {where}: cannot template {real!r} from _config (a value is transformed, "
                              "e.g. regex-escaped, where it is used)")
    return " + ".join(f"({json.dumps(piece)} % $._config)" for piece in _pieces(text))


# go-jsonnet's std.format recurses once per format code and literal run (std.jsonnet format_codes_arr), so one
# template of a 100 KB rule expression overflows its 1 GB goroutine stack: long templates are formatted in pieces
# of at most this many characters, each cut between whole codes, and concatenated.
_PIECE = 2000
_TOKENS = re.compile(r"%\([^)]*\)s|%%|[^%]+")


def _pieces(text: str) -> list[str]:
    """``text`` (a ``%`` template) cut into pieces of about :data:`_PIECE` characters, never inside a code."""
    pieces, current = [], ""
    for token in _TOKENS.findall(text):
        parts = [token] if token.startswith("%") else [token[i:i + _PIECE] for i in range(0, len(token), _PIECE)]
        for part in parts:
            if current and len(current) + len(part) > _PIECE:
                pieces.append(current)
                current = ""
            current += part
    return [*pieces, current] if current or not pieces else pieces


def _scalar(v: object) -> str:
    """``json.dumps(v)``; a string straight through the function json.dumps ends in for it with its default
    ``ensure_ascii`` (CPython Lib/json/encoder.py, JSONEncoder.encode: ``encode_basestring_ascii``)."""
    return _ENCODE_ASCII(v) if type(v) is str else json.dumps(v)


_ENCODE_ASCII = json.encoder.encode_basestring_ascii


class Written(str):
    """Jsonnet of a structure that is its own probe, written already at ``depth`` (:func:`plain`): placed as it
    is (re-indented when placed at another depth)."""

    depth: int

    def __new__(cls, text: str, depth: int) -> Written:
        out = super().__new__(cls, text)
        out.depth = depth
        return out


def plain(real: object, depth: int) -> str:
    """:func:`value` of a structure that is its own probe (nothing templated), without the comparisons."""
    if isinstance(real, Written):  # each line after the first is indented by its depth
        return real if real.depth == depth else real.replace("\n" + INDENT * real.depth, "\n" + INDENT * depth)
    pad, inner = INDENT * depth, INDENT * (depth + 1)
    if isinstance(real, dict):
        lines = [f"{inner}// {line}".rstrip() for line in str(real.get(COMMENT, "")).splitlines()]
        lines += [f"{inner}{_scalar(k)}: {plain(v, depth + 1)}," for k, v in real.items() if k != COMMENT]
        return "{\n" + "\n".join(lines) + f"\n{pad}}}" if lines else "{}"
    if isinstance(real, list | tuple):
        items = [f"{inner}{plain(v, depth + 1)}," for v in real]
        return "[\n" + "\n".join(items) + f"\n{pad}]" if items else "[]"
    return _scalar(real)


def value(real: object, probe: object, sentinels: dict[str, str], defaults: dict[str, str], where: str = "",
          depth: int = 0) -> str:
    """Jsonnet for ``real``; ``probe`` is the same structure rendered with sentinels in place of the defaults
    (the same object where nothing can differ: the tenant dashboards)."""
    if real is probe:
        return plain(real, depth)
    pad, inner = INDENT * depth, INDENT * (depth + 1)
    if isinstance(real, dict):
        if not isinstance(probe, dict) or real.keys() != probe.keys():
            raise GenerationError(f"mixin: {where}: the probe render has another structure")
        # one join of the pieces: a body (a whole tenant dashboard, say) is copied once, into the result
        parts = ["{"]
        for line in str(real.get(COMMENT, "")).splitlines():
            parts.append(f"\n{inner}// {line}".rstrip())
        for key in (k for k in real if k != COMMENT):
            body = value(real[key], probe[key], sentinels, defaults, f"{where}.{key}", depth + 1)
            parts += ("\n", inner, _scalar(key), ": ", body, ",")
        return "".join([*parts, f"\n{pad}}}"]) if len(parts) > 1 else "{}"
    if isinstance(real, list | tuple):
        if not isinstance(probe, list | tuple) or len(real) != len(probe):
            raise GenerationError(f"mixin: {where}: the probe render has another structure")
        parts = ["["]
        for i, (r, p) in enumerate(zip(real, probe)):
            parts += ("\n", inner, value(r, p, sentinels, defaults, f"{where}[{i}]", depth + 1), ",")
        return "".join([*parts, f"\n{pad}]"]) if len(parts) > 1 else "[]"
    if isinstance(real, str) and isinstance(probe, str) and real != probe:
        return _template(real, probe, sentinels, defaults, where)
    if real != probe:
        raise GenerationError(f"mixin: {where}: {real!r} depends on _config but is not a string")
    return _scalar(real)

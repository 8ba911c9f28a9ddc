"""Deterministic YAML and JSON text for plain data, with comments.

One fixed style: block mappings in the generators' key order, lists indented under their key, multi-line
strings as literal blocks, scalars quoted only where YAML needs it. A mapping may carry the key
:data:`COMMENT`; its text is written as ``#`` lines above the mapping and is not part of the data.

A document parses back to its data by construction: a string is written plain only where PyYAML's resolver reads
it back as that string, a literal block only where its lines read back as written (:func:`_plain_lines`) or
libyaml parses it back to the string (else the string is quoted), ints, floats and single-quoted ASCII strings as
PyYAML's representer and emitter write them (tests/unit/test_yamlfmt_scalars.py compares), every other scalar by
PyYAML's own emitter.
tests/unit/test_yamlfmt.py parses back random documents and every file of the example render. (A render used to
parse every document back: a third of the writer's time at thousands of tenants.)
"""
from __future__ import annotations

import functools
import itertools
import json
import re
from typing import cast

import yaml

from gpudash.base.layout import HEADER

# libyaml's parser when PyYAML was built with it (the same YAML 1.1 resolver and constructors either way): a
# tenant dashboard's ConfigMap holds ~50 KB in a literal block, which _block parses back.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

COMMENT = "__comment__"


def strip_comments(data):
    """``data`` without :data:`COMMENT` keys (what a YAML parser reads back)."""
    if isinstance(data, dict):
        return {k: strip_comments(v) for k, v in data.items() if k != COMMENT}
    if isinstance(data, list):
        return [strip_comments(v) for v in data]
    return data


def _has_keys(data: dict) -> bool:
    """Whether ``data`` has a key besides :data:`COMMENT` (without copying it as strip_comments would)."""
    return len(data) > (COMMENT in data)


def _scalar(value) -> str:
    if isinstance(value, (str, int, float, bool)) or value is None:
        kind: type = type(value)  # the type too: True == 1 and 1.0 == 1 hash alike
        return _scalar_text(kind, value)
    return _emit(value)


@functools.lru_cache(maxsize=65536)
def _scalar_text(_type, value) -> str:
    """Keys and values repeat across files (and tenants): each distinct scalar is emitted once."""
    if _type is str and _plain(value) and _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) == _STR:
        return value  # what the emitter writes for it: a plain scalar (tests/unit/test_yamlfmt_scalars.py compares)
    if _type is int:
        return str(value)  # PyYAML's SafeRepresenter.represent_int
    if _type is float:
        return _float_text(value)
    if _type is str and not _PRINTABLE_ASCII.match(value):
        return _quoted(value)
    if _type is str:  # printable ASCII on one line, not plain: single-quoted, as the emitter writes it (below)
        return f"'{value.replace(chr(39), chr(39) * 2)}'"
    return _emit(value)


def _float_text(value: float) -> str:
    """What PyYAML writes for a float (tests/unit/test_yamlfmt_scalars.py compares, with yaml.safe_dump): the text of
    yaml/representer.py ``SafeRepresenter.represent_float`` (``.nan``, ``.inf``, ``-.inf``, else ``repr`` lowered,
    with ``.0`` before the ``e`` of a repr without a ``.``: ``1e+17`` -> ``1.0e+17``), which yaml/emitter.py writes
    plain: it resolves as a float (yaml/resolver.py's float pattern), so ``choose_scalar_style`` keeps it implicit,
    and it holds no indicator. Its emitter took ~8 us a float, a golden file's values are mostly distinct floats."""
    if value != value:
        return ".nan"
    if value in (_INF, -_INF):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value).lower()
    return text.replace("e", ".0e", 1) if "." not in text and "e" in text else text


_INF = float("inf")


# Strings of printable ASCII: PyYAML's emitter writes them on one line, single-quoted where not plain (yaml/emitter.py
# ``analyze_scalar`` forbids single quotes only for a special character or a line break, ``choose_scalar_style``
# then takes them; ``write_single_quoted`` doubles each quote and breaks no line within the width, 2**31 here).
# Others may hold a character it writes raw but YAML reads as a line break (NEL, LS, PS with allow_unicode) and
# folds: they are checked (_quoted).
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]*\Z")


def _quoted(value: str) -> str:
    """``value`` as the emitter writes it where that reads back as ``value``, else double-quoted (escapes only)."""
    text = _emit(value)
    if "\n" not in text and _reads_back(text, value):
        return text
    return yaml.safe_dump(value, default_style='"', width=2**31, allow_unicode=True).removesuffix("\n")


def _reads_back(text: str, value: str) -> bool:
    """Whether ``text`` reads back as ``value`` in every place a scalar is written: a list item, a key, a value."""
    return _parses_to(f"- {text}\n- {text}: {text}\n", [value, {value: value}])


def _parses_to(document: str, data) -> bool:
    try:
        return yaml.load(document, Loader=_LOADER) == data
    except yaml.YAMLError:
        return False


def _plain(value: str) -> bool:
    """Whether PyYAML's emitter writes ``value`` as a plain scalar in block context, when it resolves to a string
    (yaml/emitter.py: ``analyze_scalar`` and ``choose_scalar_style``): printable ASCII on one line, not empty, no
    space at either end, no document marker (``---``, ``...``) in front, no indicator where it is one (a leading
    ``#,[]{}&*!|>'"%@` ``; a leading ``-?:`` before a space or the end; ``:`` before a space or the end; ``#`` after
    a space). Flow indicators inside (``,?[]{}:``) only forbid plain scalars in flow context, which yamlfmt never
    writes."""
    return (bool(_PRINTABLE_ASCII.match(value)) and value != "" and value[0] not in _LEADING
            and value[-1] not in " :" and not value.startswith(("---", "...")) and value[:2] not in _LEADING_PAIRS
            and ": " not in value and " #" not in value)


_LEADING = " #,[]{}&*!|>'\"%@`"
_LEADING_PAIRS = frozenset({"- ", "? ", ": ", "-", "?", ":"})  # a one-character value is followed by its end
_RESOLVER = yaml.resolver.Resolver()
_STR = "tag:yaml.org,2002:str"


def _emit(value) -> str:
    text = yaml.safe_dump(value, width=2**31, default_flow_style=True, allow_unicode=True)
    return text.removesuffix("\n").removesuffix("\n...").removesuffix("...").rstrip("\n")


def _comment_lines(data, pad: str) -> list[str]:
    if not isinstance(data, dict) or COMMENT not in data:
        return []
    return [f"{pad}# {line}".rstrip() for line in str(data[COMMENT]).splitlines()]


def _block(value: str, pad: str) -> str:
    """``value`` (holding a line break) as a literal block at indentation ``pad``, or double-quoted on one line by
    PyYAML's emitter where a literal block would not read back as ``value`` (a leading space, several trailing
    line breaks, a character YAML does not allow in one)."""
    literal = _literal(value, pad)
    # a literal block reads the same at any indentation: proven by its form, else parsed as it is written, under a
    # top-level key
    if _plain_lines(value) or _parses_to(f"k: {literal}\n", {"k": value}):
        return literal
    return _quoted(value)


def _plain_lines(value: str) -> bool:
    """Whether ``value`` reads back from a literal block without parsing it (a tenant dashboard's ~50 KB of JSON in
    its ConfigMap): printable ASCII lines (no line break but "\\n", no tab), none empty or ending in a space, the
    first not starting with one, at most one "\\n" at the end. libyaml (yaml/libyaml src/scanner.c,
    yaml_parser_scan_block_scalar and yaml_parser_scan_block_scalar_breaks) takes the indentation from the first
    non-empty line, eats that many spaces of each line and reads the rest up to its line break as content, and keeps
    the last break with "|" (clip) and none with "|-" (strip): each line comes back as written.
    tests/unit/test_yamlfmt.py parses back what this accepts and holds it to that definition on hostile strings.
    String and bytes methods, not a regex: C scans of the text (printable ASCII and "\\n" deleted by one
    ``bytes.translate``: 0.02 ms for 49 KB, ``str.replace`` and ``str.isprintable`` took 0.14), the pairs found by
    :func:`_absent`."""
    return (value.isascii() and not value.encode("ascii").translate(None, _PRINTABLE_ASCII_OR_LF)
            and value[:1] not in ("", " ", "\n") and _absent("\n\n", value) and _absent(" \n", value)
            and not value.endswith(" "))


def _absent(pair: str, text: str) -> bool:
    """``pair not in text``, by ``str.rfind``: on a dashboard's 50 KB of indented JSON (CPython 3.11) ``in`` took
    42 us for "\\n\\n" and 67 us for " \\n", ``rfind`` 15 and 20 (benchmarks/suite_times.md section 26)."""
    return text.rfind(pair) < 0


_PRINTABLE_ASCII_OR_LF = bytes(range(0x20, 0x7f)) + b"\n"  # what str.isprintable accepts of ASCII, and "\n"


def _literal(value: str, pad: str) -> str:
    chomp, text, indent = "" if value.endswith("\n") else "-", value.rstrip("\n"), pad + "  "
    if text and _absent("\n\n", text) and not text.startswith("\n"):  # no empty line: one replace (50 KB dashboards)
        return f"|{chomp}\n{indent}{text.replace(chr(10), chr(10) + indent)}"
    body = "\n".join(f"{indent}{line}" if line else "" for line in text.split("\n"))  # empty lines stay empty
    return f"|{chomp}\n{body}"


def _value_into(value, pad: str, lines: list[str], head: str) -> None:
    """Append ``head`` (a key's ``key:`` or a list item's ``-``, at indentation ``pad``) with ``value`` after it,
    and the lines that follow it, to ``lines``: one list for the whole document (a golden file's tens of thousands
    of samples, each a mapping), no list per value."""
    kind: type = type(value)
    if kind is str:  # the most common values first: what the general checks below do for them
        text = _block(value, pad) if "\n" in value else _scalar_text(str, value)
        lines.append(f"{head} {text}")
    elif kind is float or kind is int or kind is bool or value is None:
        lines.append(f"{head} {_scalar_text(kind, value)}")
    elif isinstance(value, dict) and _has_keys(value):
        lines.append(head)
        _mapping(value, pad + "  ", lines)
    elif isinstance(value, list) and value:
        lines.append(head)
        _sequence(value, pad + "  ", lines)
    elif isinstance(value, (dict, list)):
        lines.append(f"{head} {{}}" if isinstance(value, dict) else f"{head} []")
    elif isinstance(value, str) and "\n" in value:
        lines.append(f"{head} {_block(value, pad)}")
    else:
        lines.append(f"{head} {_scalar(value)}")


def _mapping(data: dict, pad: str, lines: list[str]) -> None:
    for key, value in data.items():
        if key == COMMENT:
            continue
        if isinstance(value, dict) and COMMENT in value:
            lines += _comment_lines(value, pad)
        _value_into(value, pad, lines, f"{pad}{_scalar_text(str, key) if type(key) is str else _scalar(key)}:")


def _sequence(items: list, pad: str, lines: list[str]) -> None:
    rows = _rows(items, pad)
    if rows is not None:
        lines.append(rows)
        return
    inner = pad + "  "
    for item in items:
        if isinstance(item, dict):
            lines += _comment_lines(item, pad)
            if _has_keys(item):  # its first line after "- ", the others under it
                start = len(lines)
                _mapping(item, inner, lines)
                lines[start] = f"{pad}- {lines[start].removeprefix(inner)}"
                continue
        _value_into(item, pad, lines, f"{pad}-")


def _rows(items: list, pad: str) -> str | None:
    """The lines of ``items`` as :func:`_sequence` writes them one by one, as one text, where all are mappings of
    the same string keys to one-line scalars (a golden file's input series and expected samples: 127k rows in 20k
    lists at 1,000 tenants): each key's text (:func:`_row_heads`) and each value's from a cache, joined in C calls
    only (a row took 1.5 us through :func:`_mapping`); else None."""
    first = items[0]
    if type(first) is not dict:
        return None
    keys = tuple(first)
    heads = _row_heads(keys, pad)
    if heads is None or not _DICT.issuperset(map(type, items)) or any(map(keys.__ne__, map(tuple, items))):
        return None
    values = list(itertools.chain.from_iterable(map(dict.values, items)))
    try:
        texts = list(map(_inline_text, map(type, values), values))
    except TypeError:  # a list or a mapping: not hashable, not a scalar
        return None
    if None in texts:
        return None
    pairs = zip(itertools.cycle(heads), cast("list[str]", texts))
    return "".join(itertools.chain.from_iterable(pairs))[1:]  # less the first "\n"


_DICT = frozenset({dict})


@functools.lru_cache(maxsize=1024)
def _row_heads(keys: tuple, pad: str) -> tuple[str, ...] | None:
    """What :func:`_rows` writes before each value of a row of ``keys`` at ``pad``: a line break and the key's text;
    None for no keys, a :data:`COMMENT` (written above its mapping, by :func:`_sequence`) or a key not a ``str``
    (True and 1 are equal keys here, never a ``str``)."""
    if not keys or COMMENT in keys or not all(type(key) is str for key in keys):
        return None
    return tuple(f"\n{pad}{'- ' if k == 0 else '  '}{_scalar_text(str, key)}: " for k, key in enumerate(keys))


@functools.lru_cache(maxsize=65536)
def _inline_text(kind: type, value) -> str | None:
    """:func:`_scalar_text` of a value :func:`_value_into` writes on its key's line; None for a string of several
    lines (a block) or a hashable value not a scalar (its type is part of the key: True == 1 == 1.0)."""
    if kind not in _ONE_LINE or (kind is str and "\n" in value):
        return None
    return _scalar_text(kind, value)


_ONE_LINE = frozenset({str, int, float, bool, type(None)})


def dump_yaml(data: object, header: str = "") -> str:
    """YAML text of ``data`` (optionally after ``#`` header lines)."""
    lines = [f"# {h}".rstrip() for h in header.splitlines()] if header else []
    lines += _comment_lines(data, "")
    if isinstance(data, dict) and _has_keys(data):
        _mapping(data, "", lines)
    elif isinstance(data, list) and data:
        _sequence(data, "", lines)
    elif isinstance(data, (dict, list)):
        lines.append("{}" if isinstance(data, dict) else "[]")
    else:
        lines.append(_scalar(data))
    return "\n".join(lines) + "\n"


def json_text(data, **dumps_args) -> str:
    """``json.dumps(strip_comments(data), **dumps_args)`` without copying ``data`` when it holds no
    :data:`COMMENT` key: its text would name every such key as the JSON string below."""
    text = json.dumps(data, **dumps_args)
    return text if _COMMENT_TOKEN not in text else json.dumps(strip_comments(data), **dumps_args)


_COMMENT_TOKEN = json.dumps(COMMENT)


def dump_json(data: object) -> str:
    """JSON text: keys sorted, 2-space indent, trailing newline."""
    return json_text(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def serialise(path: str, data: object) -> str:
    """Text of one output file, by its extension (a text is written as it is): the writer's, and a golden file's
    share before it is joined (gpudash.render.golden.shared)."""
    if isinstance(data, str):
        return data
    if path.endswith(".json"):
        return dump_json(data)
    return dump_yaml(data, header=HEADER)

"""Small builders for PromQL text: every label value is escaped here and nowhere else.

Generators compose expressions with these functions instead of formatting strings ad hoc, so that a label
value coming from the model (a namespace, a product name, a regex) can never break out of its quotes.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

_LABEL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
_METRIC_NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
_OPS = ("=", "!=", "=~", "!~")


def quote(value: str) -> str:
    """A PromQL double-quoted string literal holding exactly ``value``."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


def label_name(name: str) -> str:
    if not _LABEL_NAME.match(name):
        raise ValueError(f"not a Prometheus label name: {name!r}")
    return name


def metric_name(name: str) -> str:
    if not _METRIC_NAME.match(name):
        raise ValueError(f"not a Prometheus metric name: {name!r}")
    return name


def regex_alternation(values: Iterable[str]) -> str:
    """An anchored-by-Prometheus regex matching exactly the given literal values."""
    return "|".join(re.escape(v).replace("\\-", "-") for v in sorted(set(values)))


def regex_pairs(pairs: Iterable[tuple[str, str]], sep: str) -> str:
    """An anchored-by-Prometheus regex matching exactly ``a + sep + b`` for the given ``(a, b)`` pairs, shorter
    than :func:`regex_alternation` of those strings: the ``a`` values sharing the same set of ``b`` values make one
    branch ``(?:a1|a2)<sep>(?:b1|b2)`` (the same set of strings; a shorter regex to parse and compile at each
    evaluation: prometheus/prometheus promql/functions.go funcLabelReplace compiles its regex at every call)."""
    after: dict[str, set[str]] = {}
    for a, b in pairs:
        after.setdefault(a, set()).add(b)
    by_tail: dict[tuple[str, ...], list[str]] = {}
    for a, tails in after.items():
        by_tail.setdefault(tuple(sorted(tails)), []).append(a)
    return "|".join(sorted(f"(?:{regex_alternation(heads)}){regex_alternation([sep])}(?:{regex_alternation(tails)})"
                           for tails, heads in by_tail.items()))


def matchers(*items: tuple[str, str, str]) -> str:
    """The body of a selector from (label, op, value) triples: ``a="x",b=~"y"``."""
    parts = []
    for name, op, value in items:
        if op not in _OPS:
            raise ValueError(f"bad matcher operator {op!r}")
        parts.append(f"{label_name(name)}{op}{quote(value)}")
    return ",".join(parts)


def selector(metric: str, *items: tuple[str, str, str]) -> str:
    """``metric{matchers}``; the braces are omitted when there are no matchers."""
    body = matchers(*items)
    return f"{metric_name(metric)}{{{body}}}" if body else metric_name(metric)


def labels(names: Iterable[str]) -> str:
    """A grouping/matching label list ``(a, b)``."""
    return "(" + ", ".join(label_name(n) for n in names) + ")"


def agg(op: str, by: Iterable[str], expr: str) -> str:
    """``op by (labels) (expr)``."""
    return f"{op} by {labels(by)} ({expr})"


def call(fn: str, *args: str) -> str:
    return f"{fn}({', '.join(args)})"


def label_replace(expr: str, dst: str, replacement: str, src: str, regex: str) -> str:
    source = quote(src and label_name(src))
    return call("label_replace", expr, quote(label_name(dst)), quote(replacement), source, quote(regex))


def const_series(value: float | str, **lbls: str) -> str:
    """A one-sample vector with the given labels: ``label_replace(vector(v), ...)`` nested per label."""
    expr = f"vector({value})"
    for name, val in sorted(lbls.items()):
        expr = label_replace(expr, name, val.replace("$", "$$"), "", "")
    return expr


def times_keyed(expr: str, key: str, source: str, cases: Iterable[tuple[str, str]], default: str) -> str:
    """``expr`` times a factor chosen per series by its ``source`` label: each ``(factor, regex)`` of ``cases``
    where ``source`` fully matches ``regex`` (``label_replace`` anchors it: prometheus/prometheus
    promql/functions.go funcLabelReplace), else ``default``. The factor's text becomes the ``key`` label
    (``label_replace``) and a small table of one-sample vectors keyed by it is multiplied in, so ``expr`` is
    evaluated once however many factors there are."""
    keyed = label_replace(expr, key, default, "", "")
    table = [const_series(default, **{key: default})]
    for factor, regex in cases:
        keyed = label_replace(keyed, key, factor, source, regex)
        table.append(const_series(factor, **{key: factor}))
    return f"{keyed} * on ({label_name(key)}) group_left () ({' or '.join(table)})"


def window(seconds: int) -> str:
    """The range literal of the window ``(t - seconds, t]``, 1 ms short: on whole-millisecond samples it holds the
    same ones under Prometheus 2 (closed ranges) and 3 (left-open: prometheus/prometheus docs/migration.md,
    "Range selectors and lookback exclude samples coinciding with the left boundary"). A full range would hold
    one sample more under 2 whenever the evaluation is aligned with the samples (a golden test, every step)."""
    return duration(seconds - 0.001)


def duration(seconds: int | float) -> str:
    """A Prometheus duration literal, e.g. 3600 -> ``1h``, 3599 -> ``59m59s``, 0.001 -> ``1ms``."""
    ms = round(seconds * 1000)
    if ms <= 0:
        raise ValueError("durations must be positive")
    out = ""
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)):
        count, ms = divmod(ms, size)
        if count:
            out += f"{count}{unit}"
    return out

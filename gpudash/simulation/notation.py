"""promtool's ``input_series`` notation: a series' name with its labels, and its samples in the expanding
notation (``axn``, ``a+bxn``, ``_`` for a missing sample, ``stale``), exactly as the golden files write them.
"""
from __future__ import annotations

import bisect
import functools
import itertools
import operator
from typing import Any

Labels = tuple[tuple[str, str], ...]  # (name, value) pairs; the metric name is the "__name__" pair


def series_name(labels: Labels) -> str:
    """``name{a="b",...}`` with labels sorted and values escaped."""
    d = dict(labels)
    name = d.pop("__name__", "")
    body = ",".join(f'{k}="{_escape(v)}"' for k, v in sorted(d.items()))
    return f"{name}{{{body}}}"


def by_name(series: dict[Labels, Any]) -> list[tuple[str, Any]]:
    """(:func:`series_name`, value) of each of ``series``, sorted by name (each name made once; equal names keep
    their order)."""
    return sorted(((series_name(k), v) for k, v in series.items()), key=operator.itemgetter(0))


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def notation(samples: list) -> str:
    """Per-interval samples (number, None = missing, "stale") in promtool's expanding notation: ``axn`` for a
    repeated value, ``a+bxn`` for a run of three or more whole numbers rising by the same whole step (an energy
    counter). Runs of equal samples are grouped first (a month of pushes is mostly gaps)."""
    return _grouped_notation([[v, len(list(g))] for v, g in itertools.groupby(samples)])


def sparse_notation(samples: dict[int, float], length: int) -> str:
    """:func:`notation` of ``length`` intervals holding ``samples`` {interval: value} and nothing else (a pushed
    series), without building the list of gaps."""
    minutes = sorted(samples)
    del minutes[bisect.bisect_left(minutes, length):]
    if None in samples.values():  # a missing sample listed: its own group, as notation would not write it
        return _grouped_notation(_groups(samples, minutes, length))
    steps = list(map(operator.sub, itertools.islice(minutes, 1, None), minutes))
    if 1 in steps or not minutes:
        return _spans_notation(samples, minutes, length)
    # no two samples adjacent (most pushed series): each value's text and each gap's, in C calls
    values = list(map(samples.__getitem__, minutes))
    numbers = {v: "stale" if v == "stale" else _number(v) for v in set(values)}  # equal values: equal texts
    out = [_gap(minutes[0] + 1)] if minutes[0] else []
    out += itertools.chain.from_iterable(zip(map(numbers.__getitem__, values), map(_gap, steps)))
    out.append(numbers[values[-1]])
    if minutes[-1] < length - 1:
        out.append(_gap(length - minutes[-1]))
    return " ".join(out)


@functools.lru_cache(maxsize=4096)
def _gap(step: int) -> str:
    """The text of the ``step - 1`` missing samples between two samples ``step`` intervals apart."""
    return "_" if step == 2 else f"_x{step - 1}"


def _groups(samples: dict[int, float], minutes: list[int], length: int, first: int = 0) -> list[list]:
    """The runs [value, count] of :func:`_grouped_notation` of ``samples`` at ``minutes`` (ascending, from ``first``,
    below ``length``), each gap a run of None."""
    groups: list[list] = []
    last = first - 1
    for i in minutes:
        if i > last + 1:
            groups.append([None, i - last - 1])
        elif groups and groups[-1][0] == samples[i] and groups[-1][0] != "stale":
            groups[-1][1] += 1
            last = i
            continue
        groups.append([samples[i], 1])
        last = i
    if last < length - 1:
        groups.append([None, length - 1 - last])
    return groups


def _spans_notation(samples: dict[int, float], minutes: list[int], length: int) -> str:
    """:func:`sparse_notation` of samples at ``minutes`` (ascending, below ``length``), none None: a sample with no
    neighbour is a group of one between gaps, which :func:`_grouped_notation` writes as its number (a rising run
    needs adjacent samples), or ``stale``, each distinct value's number written once; a span of adjacent minutes
    is written by :func:`_grouped_notation` on its own (no run reaches over a gap). A month of pushes is mostly
    single samples: only its spans take the runs' path (the settled file's merged series have a few)."""
    out, last, written, k, n = [], -1, {}, 0, len(minutes)  # type: tuple[list[str], int, dict, int, int]
    while k < n:
        i = minutes[k]
        if i > last + 1:
            out.append(_gap(i - last))
        if k + 1 < n and minutes[k + 1] == i + 1:
            j = k + 1
            while j + 1 < n and minutes[j + 1] == minutes[j] + 1:
                j += 1
            out.append(_grouped_notation(_groups(samples, minutes[k:j + 1], minutes[j] + 1, i)))
            last, k = minutes[j], j + 1
            continue
        v = samples[i]
        text = written.get(v)
        if text is None:
            text = written[v] = "stale" if v == "stale" else _number(v)
        out.append(text)
        last, k = i, k + 1
    if last < length - 1:
        out.append(_gap(length - last))
    return " ".join(out)


def _grouped_notation(groups: list[list]) -> str:
    """:func:`notation` of runs [value, count] of equal samples (consecutive runs differ)."""
    out, g = [], 0
    while g < len(groups):
        v, run = groups[g]
        if v is None:
            out.append(_gap(run + 1))  # ``run`` missing samples
        elif v == "stale":
            out.extend(["stale"] * run)
        elif run == 1 and g + 1 < len(groups) and groups[g + 1][0] is not None \
                and (last := _rising(groups, g)) >= g + 2:
            step = groups[g + 1][0] - v
            out.append(f"{_number(v)}{'+' if step > 0 else '-'}{_number(abs(step))}x{last - g}")
            if groups[last][1] > 1:  # the run's last sample starts a longer group: the rest of it follows
                groups[last][1] -= 1
                g = last
                continue
            g = last
        else:
            out.append(_number(v) if run == 1 else f"{_number(v)}x{run - 1}")
        g += 1
    return " ".join(out)


def _number(v) -> str:
    """Exactly: a whole number below 2^53 in digits, anything else as Python's shortest round-trip repr."""
    if type(v) is int and -2 ** 53 < v < 2 ** 53:
        return str(v)
    return str(int(v)) if float(v).is_integer() and abs(v) < 2 ** 53 else repr(float(v))


def _rising(groups: list, g: int) -> int:
    """The index of the group holding the last sample of the run from group ``g`` (a single sample) of whole numbers
    below 2^53 that change by one nonzero whole step; each sample but the last is a group of one."""
    def whole(x) -> bool:
        return isinstance(x, int | float) and not isinstance(x, bool) and float(x).is_integer() and abs(x) < 2 ** 53

    if g + 1 >= len(groups) or not (whole(groups[g][0]) and whole(groups[g + 1][0])):
        return g
    step, k = groups[g + 1][0] - groups[g][0], g + 1
    while (groups[k][1] == 1 and k + 1 < len(groups) and whole(groups[k + 1][0])
           and groups[k + 1][0] - groups[k][0] == step):
        k += 1
    return k

"""The golden test files scenarios share: each scenario's spoke-tier checks, and the spoke checks of those that
evaluate the spoke rules alone, are one promtool test group per kind (:func:`gpudash.base.layout.golden_shared`);
the push-path checks of single-cluster scenarios pair up, one per model cluster (:func:`on_cluster`), and their
settled checks share one file, on a cluster one after another (:func:`merged`).

Why one group: promtool evaluates every rule of a group at every step from 0 to its last check and prints and
parses each rule's text again at each evaluation (prometheus/prometheus v2.42.0 and v3.5.3
cmd/promtool/unittest.go ``testGroup.test``, rules/recording.go ``RecordingRule.Eval``: ``query(ctx,
rule.vector.String(), ts)``), so the cost of a group is its steps times the rules' text, whatever few series a
scenario holds. Separate, the 42 tier groups of the example took 42 CPU s and the 44 spoke groups 28 s; shared,
10 s and 3 s (benchmarks/suite_times.md section 16).

How the scenarios stay apart: each one's series carry ``cluster="<scenario>/<cluster>"`` (:func:`scope`), which
every spoke and spoke-tier rule keeps in its groupings and joins, and each check selects its scenario's series
by that label. The catalogue's first scenario keeps its series as a spoke has them, with no ``cluster`` label (MCO
adds it on push), and its checks select ``cluster=""``: the unlabelled form stays checked too. A rule that mixed
two scenarios (a grouping or a join without ``cluster``) makes their checks fail.

One group of a file is assembled from each scenario's own (:func:`part`), in the catalogue's order, by joining
their text (:func:`joined`): a forked worker serialises its scenario's part, and the render joins them. The
settled file's shares stay data (:class:`Share`): scenarios one after another on a cluster push the same series for
different hours, and one series is merged from them (:func:`merged`).
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import NamedTuple, TypeVar

from gpudash.base import layout
from gpudash.base.yamlfmt import serialise
from gpudash.model import series as names
from gpudash.promql import build as q
from gpudash.simulation.notation import Labels, by_name, sparse_notation

T = TypeVar("T")
LABEL = "cluster"
KINDS = ("spoke", "tier")  # the kinds of file scenarios share by label (the spoke kind: when it has no hub rules)
PATHS = {layout.golden_shared(kind): kind for kind in KINDS}
SETTLED = layout.golden_shared("settled")  # the one the single-cluster scenarios share by cluster and hours
NAMES = {"spoke": "every scenario's spoke rules, each in its own cluster label (see the golden index)",
         "tier": "every scenario's spoke tier, each in its own cluster label (see the golden index)",
         "settled": "single-cluster scenarios settled on the hub, each on its cluster and hours (see the golden "
                    "index)"}
_INPUTS, _CHECKS = "    input_series:\n", "    promql_expr_test:\n"  # the group's keys, as yamlfmt writes them
_RECORDED = re.compile(r"(?<![\w:])([a-zA-Z_]\w*:[\w:]*)(\{)?")  # a recorded series' name in a check (a colon)
_DROPS_LABEL = re.compile(rf"\bby \((?![^)]*\b{LABEL}\b)[^)]*\)|\bwithout\b")


def scope(first: bool, scenario: str, cluster: str) -> str:
    """The ``cluster`` label value of a scenario's series on one cluster: "" for the catalogue's first scenario's
    first cluster (no label: as on a spoke), else ``<scenario>/<cluster>``."""
    return "" if first else f"{scenario}/{cluster}"


def part(kind: str, groups: list[dict], values: list[str], header: dict) -> dict:
    """A scenario's share of the file of ``kind``: its test ``groups`` (one per cluster) as one group, each group's
    series and checks scoped by its value of ``values``; ``header``: the file's rule files and evaluation."""
    inputs: list[dict] = []
    checks: list[dict] = []
    for group, value in zip(groups, values, strict=True):
        inputs += [{**row, "series": _labelled(row["series"], value)} for row in group["input_series"]]
        checks += [_scoped(check, value) for check in group["promql_expr_test"]]
    return {**header, "tests": [{"name": NAMES[kind], "interval": groups[0]["interval"], "input_series": inputs,
                                 "promql_expr_test": checks}]}


def on_cluster(file: dict, cluster: str, name: str) -> dict:
    """A scenario's share of a push-path file two scenarios share, each on its own model cluster (their series
    carry it already): its one group named ``name``, its checks :func:`limited` to ``cluster``."""
    (group,) = file["tests"]
    return {**file, "tests": [{**group, "name": name, "promql_expr_test": limited(group["promql_expr_test"],
                                                                                    cluster)}]}


def limited(checks: list[dict], cluster: str) -> list[dict]:
    """``checks`` with every result limited to ``cluster``. A check whose result has no ``cluster`` (a tenant's
    budget thresholds, summed over clusters) must select ``cluster`` itself, or it would read another scenario's
    figures."""
    only = q.label_replace("vector(1)", LABEL, cluster, "", "")
    out = []
    for c in checks:
        if not _DROPS_LABEL.search(c["expr"]):
            out.append({**c, "expr": f"({c['expr']}) and on ({LABEL}) {only}"})
        elif q.matchers((LABEL, "=", cluster)) in c["expr"]:
            out.append(c)
        else:
            raise ValueError(f"a check of a shared file reads every cluster: {c['expr']}")
    return out


class Share(NamedTuple):
    """A scenario's share of the settled file (:data:`SETTLED`): the file's ``header`` (rule files, evaluation),
    the series it pushes {labels: {minute: value}}, its ``checks`` and its last minute."""

    header: dict
    series: dict[Labels, dict[int, float]]
    checks: list[dict]
    end: int


def merged(shares: list[Share]) -> dict:
    """The settled file of ``shares``, scenarios on one cluster one after another: a series two of them push is one
    series, as one collector would push it (listed twice, promtool would keep only the last: prometheus/prometheus
    v2.42.0 promql/test.go and v3.5.3 promql/promqltest/test.go ``loadCmd.set``, ``cmd.defs[h] = samples``).
    Where both push it at the same minute, the larger value is kept: the hub settles each hour as the largest of
    what was pushed for it, and a scenario pushes a row for an hour it does not own only as a zero (its steps and
    sentinels for the hours before its start); two different figures for one hour (a lagged series at one minute)
    are refused. The live allocation two scenarios push at the minute one ends and the next starts on a cluster may
    differ; no settled check reads it."""
    if len({repr(s.header) for s in shares}) != 1:
        raise ValueError("the shares of a golden file differ in rule files or evaluation")
    series: dict[Labels, dict[int, float]] = {}
    for share in shares:
        for labels, samples in share.series.items():
            into = series.setdefault(labels, {})
            hourly = any(k == names.LAG_LABEL for k, _ in labels)
            for t, v in samples.items():
                was = into.get(t)
                if hourly and was is not None and was != v and was and v:
                    raise ValueError(f"two scenarios push {dict(labels)} at minute {t} with {was} and {v}")
                into[t] = v if was is None else max(was, v)
    length = max(s.end for s in shares) + 1
    return {**shares[0].header, "tests": [{
        "name": NAMES["settled"], "interval": "1m",
        "input_series": [{"series": name, "values": sparse_notation(v, length)} for name, v in by_name(series)],
        "promql_expr_test": [c for s in shares for c in s.checks]}]}


def is_shared(path: str) -> bool:
    """``path`` is a golden file scenarios share: its name has a dot, which no scenario's can have."""
    name = path.rpartition("/")[2]
    return layout.is_golden(path) and name.endswith(".test.yaml") and "." in name.removesuffix(".test.yaml")


def joined(texts: list[str]) -> str:
    """One file from the text of each scenario's share (:func:`part`, serialised), in order: the first one's
    header, then every share's input series, then every share's checks."""
    heads, inputs, checks = zip(*(_split(text) for text in texts), strict=True)
    if len(set(heads)) != 1:
        raise ValueError("the shares of a golden file differ in rule files or evaluation")
    return heads[0] + _INPUTS + "".join(inputs) + _CHECKS + "".join(checks)


def _split(text: str) -> tuple[str, str, str]:
    """(header up to the input series, their items, the checks' items) of a serialised share."""
    head, _, rest = text.partition(_INPUTS)
    series, found, checks = rest.partition(_CHECKS)
    if not found or not series or not checks:
        raise ValueError("a golden file's share without input series or checks")
    return head, series, checks


@functools.lru_cache(maxsize=65536)
def _labelled(series: str, value: str) -> str:
    """An input series' selector with ``cluster="value"`` (unchanged for ""); one that has the label is refused.
    (Each expected sample's labels too: rows repeat at every minute checked, each is labelled once.)"""
    name, brace, rest = series.partition("{")
    if _HAS_LABEL.search(rest):
        raise ValueError(f"a golden input series has a {LABEL} label already: {series}")
    if not value:
        return series
    matcher = q.matchers((LABEL, "=", value))
    return f"{name}{{{matcher}{',' if rest[:1] not in ('}', '') else ''}{rest}" if brace else f"{name}{{{matcher}}}"


_HAS_LABEL = re.compile(rf"(^|,){LABEL}=")


def _scoped(check: dict, value: str) -> dict:
    """A check of one scenario: every recorded series it reads selected by ``cluster="value"``, and its expected
    samples labelled so where the result keeps the label."""
    expr, keeps = _scoped_expr(check["expr"], value)
    out = {**check, "expr": expr}
    if keeps:
        out["exp_samples"] = [{**s, "labels": _labelled(s.get("labels", "{}"), value)} for s in check["exp_samples"]]
    return out


@functools.lru_cache(maxsize=4096)
def _scoped_expr(expr: str, value: str) -> tuple[str, bool]:
    """(:func:`_scoped`'s ``expr``, whether its result keeps the label ``value`` its samples then carry): a check's
    expression repeats at every minute checked."""
    pieces = expr.split('"')  # outside the quotes (even pieces) only: no label value is touched
    pieces[::2] = [_RECORDED.sub(lambda m: _selector(m, value), piece) for piece in pieces[::2]]
    return '"'.join(pieces), bool(value) and not _DROPS_LABEL.search(expr)


def _selector(m: re.Match, value: str) -> str:
    matcher = q.matchers((LABEL, "=", value))
    return f"{m.group(1)}{{{matcher}," if m.group(2) else f"{m.group(1)}{{{matcher}}}"


def assemble(files: Iterable[tuple[str, T | Share]]) -> dict[str, T | str]:
    """{path: data or text} from (path, data) pairs in the catalogue's order, the shares of a shared file (their
    text, or a :class:`Share` of the settled file) joined into it where its first share was (:func:`joined`,
    :func:`merged`)."""
    out: dict[str, T | str] = {}
    shares: dict[str, list] = {}
    for path, data in files:
        if is_shared(path):
            if not isinstance(data, str | Share):
                raise TypeError(f"{path}: a share is joined as text")
            out.setdefault(path, "")  # its place; the joined text below
            shares.setdefault(path, []).append(data)
        elif isinstance(data, Share):
            raise TypeError(f"{path}: a share of no shared file")
        else:
            out[path] = data
    out.update((path, serialise(path, merged(parts)) if path == SETTLED else joined(parts))
               for path, parts in shares.items())
    return out

"""The push path: what the ACM metrics-collector pushes to the hub from each cluster's spoke rules, at each
(jittered, possibly lost) push time, and the series the hub stores from it.
"""
from __future__ import annotations

import functools
import operator
from collections import deque
from itertools import compress, repeat
from typing import NamedTuple, cast

from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.simulation.notation import Labels, by_name, sparse_notation
from gpudash.simulation.reference import Reference
from gpudash.simulation.scenario import Scenario, push_rules
from gpudash.simulation.scenario import uid_of as uid
from gpudash.simulation.series import tier_pod_allocation


def push_interval(scenario: Scenario, model: Model) -> int:
    """Minutes between a collector's pushes: ``billing.mco_interval``, or for a ``hub_only`` scenario (evaluated
    hourly, at each hour boundary) one push on every hour: the hub's hourly evaluations read each hour's pushes
    as their largest value and the latest push, so the pushes in between would change nothing it records."""
    return 60 if scenario.hub_only else model.billing.mco_interval // 60


def _lost(scenario: Scenario, model: Model) -> dict[int, set[str]]:
    """{push slot: clusters whose push of that slot is lost}: ``mco_missed`` slots (every cluster) and the slots in
    an ``mco_outage`` (its ``cluster``, by index, or every cluster)."""
    interval = push_interval(scenario, model)
    out: dict[int, set[str]] = {}
    for f in scenario.faults_of("mco_missed"):
        for p in f.pushes:
            out.setdefault(p, set()).update(scenario.clusters)
    for f in scenario.faults_of("mco_outage"):
        who = scenario.clusters if f.cluster < 0 else (scenario.clusters[f.cluster],)
        for slot in range(0, scenario.duration + 1, interval):
            if f.at <= slot < f.at + f.minutes:
                out.setdefault(slot, set()).update(who)
    return out


def push_slots(scenario: Scenario, model: Model) -> list[tuple[int, int]]:
    """(slot, minute) of each metrics-collector push slot that some cluster's push arrives at: slots every push
    interval, arriving at the jittered minute; slots lost on every cluster removed."""
    interval = push_interval(scenario, model)
    offsets = [o for f in scenario.faults_of("mco_jitter") for o in f.offsets] or [0]
    lost = _lost(scenario, model)
    slots = range(0, scenario.duration + 1, interval)
    arrivals = {(s, s + offsets[i % len(offsets)]) for i, s in enumerate(slots)
                if lost.get(s, set()) != set(scenario.clusters)}
    return sorted(a for a in arrivals if a[1] <= scenario.duration)


# What each spoke rule of a push carries, by kind: {kind: {key: value}} (keys as the reference model gives them).
HOURLY_KINDS = ("gpu_hours", "node_max", "energy")  # the hourly rules with a sentinel row
LAGGED_KINDS = ("steps", *HOURLY_KINDS)  # the hourly rules that carry earlier hours with billing.backfill_hours


class Pushed(NamedTuple):
    """One spoke rule's result in one push: its ``kind``, evaluation minute ``t`` and ``content`` (an hourly rule's:
    the previous hour's rows, no lag label); ``clusters``: the clusters it came from (None: every cluster of the
    scenario)."""

    kind: str
    t: int
    content: dict
    clusters: tuple[str, ...] | None = None


class Lagged(NamedTuple):
    """One lagged rule's results in one push with ``billing.backfill_hours`` N (:data:`LAGGED_KINDS`): for each lag
    k of ``lags`` (within 1..N + 1) the rows of the hour k hours before t's, with the lag label k, in ``contents``
    (in ``lags``' order); the rest as :class:`Pushed`. One record for all the lags of a push: a day of backfill
    pushes 25 lags of each hourly rule every push, the push path's most numerous results."""

    kind: str
    t: int
    contents: tuple[dict, ...]
    lags: range
    clusters: tuple[str, ...] | None = None


@functools.cache
def rule_content(ref: Reference, kind: str, t: int, since: int = 0, lag: int = 1) -> dict[tuple, float]:
    """What the spoke rule ``kind`` returns when the collector evaluates it at minute ``t`` against a spoke
    Prometheus holding data from minute ``since`` on (contract section 6): the hourly rules describe the clock
    hour ``lag`` hours before the one containing ``t`` (1: the previous hour)."""
    if kind == "billed_hour":
        return {(c,): (t // 60 - 1) * 3600 for c in ref.s.clusters}
    if kind == "pod_alloc":
        return tier_pod_allocation(ref, t, since) if ref.model.billing.tier else ref.pod_allocation(t)
    return _hourly_content(ref, kind, t // 60 - lag, since)


@functools.cache
def _hourly_content(ref: Reference, kind: str, hour: int, since: int) -> dict[tuple, float]:
    """:func:`rule_content` of an hourly rule describing ``hour``: the same at every push that reports it."""
    if hour < 0:
        return {(c,): 0 for c in ref.s.clusters} if kind == "steps" else {}
    if kind == "steps":
        return {(c,): ref.steps_observed(hour, since) for c in ref.s.clusters}
    read = {"gpu_hours": ref.gpu_hours, "node_max": ref.node_max_by_source, "energy": ref.energy}[kind]
    return cast("dict[tuple, float]", read(hour, since))  # node_max's GPU counts are ints: numbers as well


def push_results(ref: Reference, kind: str, t: int, since: int = 0,
                 before: int | None = None) -> list[Pushed | Lagged]:
    """The results of rule ``kind`` evaluated at minute ``t``: one :class:`Pushed`, or with
    ``billing.backfill_hours`` N > 0 for the hourly rules one :class:`Lagged` of lags 1..N + 1; ``before``: only
    those of the hours before that one (the others are not computed)."""
    n = ref.model.billing.backfill_hours
    if not n or kind not in LAGGED_KINDS:
        one = Pushed(kind, t, rule_content(ref, kind, t, since))
        return [one] if before is None or t // 60 - 1 < before else []
    first = 1 if before is None else max(1, t // 60 - before + 1)  # the hour t // 60 - lag is before ``before``
    return [Lagged(kind, t, _lagged(ref, kind, t // 60, since, first), range(first, n + 2))] if first <= n + 1 else []


@functools.cache
def _lagged(ref: Reference, kind: str, hour: int, since: int, first: int) -> tuple[dict, ...]:
    """:attr:`Lagged.contents` of rule ``kind`` pushed in clock hour ``hour``, lags ``first``..N + 1: the same at
    every push of that hour."""
    return tuple(_hourly_content(ref, kind, hour - lag, since)
                 for lag in range(first, ref.model.billing.backfill_hours + 2))


def rule_samples(scenario: Scenario, model: Model, ref: Reference) -> list[Pushed | Lagged]:
    """Every rule result the collectors push, in time order.

    As the real collector does (stolostron/multicluster-observability-operator collectors/metrics/pkg/forwarder/
    forwarder.go): each rule is its own instant query, stamped with its own evaluation time, and a push goes
    out with the rules that succeeded. Faults: ``mco_missed`` (the whole push is lost), ``mco_outage`` (every push
    of a cluster, or of all, lost for a while), ``mco_rule_failed`` (``rules`` fail in ``pushes``),
    ``mco_straddle`` (``rules`` are evaluated a minute before the rest of the push in ``pushes``, on the other side
    of an hour boundary), ``spoke_restart`` (from ``at`` on, pushes query a replica whose TSDB starts empty at
    ``at``).
    """
    failed = {(p, r) for f in scenario.faults_of("mco_rule_failed") for p in f.pushes for r in f.rules}
    early = {(p, r) for f in scenario.faults_of("mco_straddle") for p in f.pushes for r in f.rules}
    lost = _lost(scenario, model)
    out = []
    for slot, t in push_slots(scenario, model):
        since = _since(scenario, t)
        gone = lost.get(slot, set())
        for kind in push_rules(model):
            if (slot, kind) in failed:
                continue
            at = t - 1 if (slot, kind) in early else t
            for r in push_results(ref, kind, at, since):
                out.append(_from(r, tuple(c for c in scenario.clusters if c not in gone)) if gone else r)
    return sorted(out, key=operator.itemgetter(1))  # (Pushed.t; a stable sort, as by the attribute)


def _from(r: Pushed | Lagged, kept: tuple[str, ...]) -> Pushed | Lagged:
    """Result ``r`` as pushed by the clusters ``kept`` alone (the others' pushes of its slot are lost)."""
    def cut(content: dict) -> dict:
        return {k: v for k, v in content.items() if k[0] in kept}

    if isinstance(r, Lagged):
        return r._replace(contents=tuple(cut(c) for c in r.contents), clusters=kept)
    return r._replace(content=cut(r.content), clusters=kept)


def _since(scenario: Scenario, t: int) -> int:
    """The minute the spoke replica a push at minute ``t`` queries holds data from (its last ``spoke_restart``)."""
    return max((f.at for f in scenario.faults_of("spoke_restart") if f.at <= t), default=0)


def settling_samples(scenario: Scenario, model: Model, ref: Reference) -> tuple[list[Pushed | Lagged], int]:
    """(pushes, last minute) of a scenario followed until the hub has settled each of its complete clock hours, with
    ``billing.backfill_hours`` N: hour h settles N + 1 hours after its end, long after a scenario of a few hours.
    The scenario's own pushes (:func:`rule_samples`, faults included), then one on-time push per clock hour that
    carries the lagged rows (:data:`LAGGED_KINDS`) of those complete hours, up to the hour the last of them
    settles in. Rows of later hours are left out: nothing checks them, and a rule reads each hour's rows apart."""
    complete = scenario.duration // 60
    last = (complete + model.billing.backfill_hours) * 60
    out = rule_samples(scenario, model, ref)
    for t in range((complete + 1) * 60, last + 1, 60):
        for kind in (k for k in push_rules(model) if k in LAGGED_KINDS):
            out += push_results(ref, kind, t, _since(scenario, t), before=complete)
    return out, last


def pushed_samples(scenario: Scenario, model: Model, ref: Reference,
                   results: list[Pushed | Lagged] | None = None) -> dict[Labels, dict[int, float]]:
    """What the hub stores from every cluster: {labels: {minute: value}} of the spoke series at each push, with
    ``cluster`` and ``clusterID``; nothing between pushes (the hub's store has no staleness markers).
    ``results``: :func:`rule_samples`, if the caller has them already."""
    samples: dict[Labels, dict[int, float]] = {}
    # per (kind, lag): its lag label, {row: its series' samples} and {cluster: its sentinel's samples}, labels built
    # once per series
    tables: dict[tuple, tuple[Labels, dict, dict]] = {}
    # per (kind, clusters, first lag) of a Lagged result: each lag's table and every lag's sentinel samples, as the
    # first such result made them; a later one skips its empty lags and writes the sentinels in one C call (a day of
    # backfill pushes 25 lags a push, half of them of hours before the scenario)
    made: dict[tuple, tuple[list, list]] = {}
    for r in rule_samples(scenario, model, ref) if results is None else results:
        kind, t, clusters = r.kind, r.t, r.clusters
        lags, contents = (r.lags, r.contents) if isinstance(r, Lagged) else ((None,), (r.content,))
        known = made.get((kind, clusters, lags[0]))  # (never made for a Pushed result: lag None)
        if known is not None:
            _put_rows(samples, kind, t, compress(zip(known[0], contents), contents))  # the lags with rows
            deque(map(operator.setitem, known[1], repeat(t), repeat(0)), 0)
            continue
        new: tuple[list, list] = ([], [])
        if lags[0] is not None:
            made[(kind, clusters, lags[0])] = new
        for lag, content in zip(lags, contents):
            table = tables.get((kind, lag))
            if table is None:
                table = tables[(kind, lag)] = (() if lag is None else ((names.LAG_LABEL, str(lag)),), {}, {})
            lag_labels, _, sentinels = table
            new[0].append(table)
            _put_rows(samples, kind, t, ((table, content),))
            if kind in HOURLY_KINDS:
                for cluster in scenario.clusters if clusters is None else clusters:
                    into = sentinels.get(cluster)
                    if into is None:
                        into = sentinels[cluster] = samples.setdefault(
                            (("__name__", _SERIES[kind]), (names.SENTINEL_LABEL, "1"), *lag_labels,
                             ("cluster", cluster), ("clusterID", uid("cluster", cluster))), {})
                    into[t] = 0
                    new[1].append(into)
    return samples


def _put_rows(samples: dict[Labels, dict[int, float]], kind: str, t: int, pairs) -> None:
    """Each row of each (table, content) of ``pairs`` (a result of ``kind`` at minute ``t``: a lag's table of
    :func:`pushed_samples` and its rows) into its series' samples, made once per row in the table."""
    for (lag_labels, rows, _), content in pairs:
        for row, value in content.items():
            into = rows.get(row)
            if into is None:
                cluster, *key = row
                into = rows[row] = samples.setdefault((*_pushed_labels(kind, key), *lag_labels, ("cluster", cluster),
                                                       ("clusterID", uid("cluster", cluster))), {})
            into[t] = value


def pushed(scenario: Scenario, model: Model, ref: Reference,
           results: list[Pushed | Lagged] | None = None, last: int | None = None) -> list[dict[str, str]]:
    """:func:`pushed_samples` as promtool ``input_series`` (1m interval) up to minute ``last`` (default: the
    scenario's end)."""
    stored = pushed_samples(scenario, model, ref, results)
    length = (scenario.duration if last is None else last) + 1
    return [{"series": name, "values": sparse_notation(v, length)} for name, v in by_name(stored)]


def later(stored: dict[Labels, dict[int, float]], minutes: int) -> dict[Labels, dict[int, float]]:
    """Pushed series (:func:`pushed_samples`) as pushed ``minutes`` (whole hours) later: each sample, and the billed
    hour's value, its hour's start in seconds."""
    moved = {}
    for labels, samples in stored.items():
        by = minutes * 60 if ("__name__", names.BILLED_HOUR) in labels else 0
        moved[labels] = {t + minutes: v + by for t, v in samples.items()}
    return moved


_SERIES = {"gpu_hours": names.HOURLY_GPU_HOURS, "node_max": names.NODE_ACTIVE_GPUS_MAX,
           "billed_hour": names.BILLED_HOUR, "steps": names.STEPS_OBSERVED, "pod_alloc": names.POD_ALLOCATED,
           "energy": names.HOURLY_ENERGY}
# The reference model's key of each kind after its cluster: the series' labels (the registry's), a detail label
# (the node count's active_from) included: the spoke pushes it.
_KEYS = {kind: tuple(label for label in names.labels(series) if label != "cluster") for kind, series in _SERIES.items()}


def _pushed_labels(kind: str, key) -> Labels:
    """The labels of a pushed row; the energy rule's unallocated row has no ``namespace``."""
    pairs = zip(_KEYS[kind], key)
    return (("__name__", _SERIES[kind]), *(p for p in pairs if p[1] != "" or kind != "energy"))

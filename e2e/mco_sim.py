"""A faithful simulation of ACM's metrics-collector, between spoke Prometheus servers and a hub Prometheus.

What the real collector does (stolostron/multicluster-observability-operator, ``collectors/metrics``):

* The endpoint operator turns every allowlist ``recording_rules`` entry into the flag
  ``--recordingrule={"name":"<record>","query":"<expr>"}`` by pasting the ConfigMap text into that JSON
  template, and the collector ``json.Unmarshal``s it: :func:`decode_allowlist` does exactly that, so an expr
  that is not JSON-escaped in the ConfigMap fails here as it would there.
* Every ``interval`` (the addon's ``observabilityAddonSpec.interval``; a ``time.Ticker`` in
  ``collectors/metrics/pkg/forwarder/forwarder.go`` ``Worker.Run``, first push at start-up), a worker federates
  ``match[]={__name__="<name>"}`` for each ``names`` entry and ``match[]={<match>}`` for each ``matches``
  entry (original sample timestamps). The recording rules (their own worker since release 2.12,
  ``collectors/metrics/cmd/metrics-collector/main.go`` ``AgentRecordingRule``) run one after another, in the
  order of their sorted flags (``operators/endpointmetrics/pkg/collector/metrics_collector.go`` sorts them,
  so by record name), each as an **instant query at that moment** (``/api/v1/query`` without a time: now); a
  result sample keeps that query's evaluation time (``metricsclient.go`` ``RetrieveRecordingMetrics``) and is
  named ``record``. Labels with empty values are dropped. ``cluster`` and ``clusterID`` are added.
* **A rule whose query fails is left out and the push goes out with the rules that succeeded**
  (``forwarder.go`` ``getRecordingMetrics``/``forward``: the push fails only when every rule failed).
* A remote write that fails is retried with exponential backoff for at most ``max(15 s, interval / 2)``
  (``metricsclient.go`` ``RemoteWrite``), then that push is lost as a whole; the ticker's next push follows.
* The ``prometheus-k8s`` Service has two replicas and ``sessionAffinity: ClientIP``: a collector keeps
  querying one replica, and when that replica restarts with an ``emptyDir`` TSDB it sees no data before the
  restart (``replica``).

Here each push is evaluated at an explicit past time against a spoke Prometheus holding backfilled history.
:meth:`Collector.collect` runs one instant query per rule per push (``mode="instant"``), or, when the push
times fall on regular grids, one range query per grid (``mode="range"``/``"auto"``): a Prometheus range query
evaluates the expression independently at each step timestamp with the same lookback, ``time()`` and
absolutely aligned subquery steps as an instant query at that timestamp, so the samples are identical (checked
by ``e2e/test_mco.py::test_range_equals_instant``). Jitter from a cycle of ``L`` offsets gives ``L`` grids of
step ``L x interval``; random jitter gives no grid, and ``auto`` then falls back to instant queries.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from gpudash.base import layout
from gpudash.ops.mock.openmetrics import FamilyBuffer
from gpudash.render.targets.acm import mco
from gpudash.simulation.scenario import uid_of

ALLOWLIST_FILE = layout.mco_configmap(mco.ALLOWLIST)
# The entries of ACM's default allowlist (operators/multiclusterobservability/manifests/base/config/
# metrics_allowlist.yaml) that gpudash's hub alerts read: the collector federates them besides the custom list.
DEFAULT_NAMES = ("up", "kube_pod_container_resource_requests", "kube_node_status_allocatable",
                 "kube_node_status_capacity", "kube_resourcequota")
HUB_RULES_FILE = layout.HUB_RULES


@dataclass(frozen=True)
class Allowlist:
    names: tuple[str, ...]
    matches: tuple[str, ...]
    recording_rules: tuple[tuple[str, str], ...]  # (record, query) as the collector decodes them
    renames: tuple[tuple[str, str], ...] = ()

    def selectors(self) -> list[str]:
        return [f'{{__name__="{n}"}}' for n in self.names] + [f"{{{m}}}" for m in self.matches]


def decode_allowlist(path, key: str = "metrics_list.yaml", defaults=DEFAULT_NAMES) -> Allowlist:
    """The allowlist ConfigMap as the metrics-collector sees it (see the module doc), merged with ``defaults``
    (names of the default allowlist; a ``-name`` entry of the custom list removes one)."""
    cm = yaml.safe_load(Path(path).read_text())
    body = yaml.safe_load(cm["data"][key]) or {}
    rules = []
    for r in body.get("recording_rules") or body.get("rules") or []:
        flag = '{{"name":"{}","query":"{}"}}'.format(r["record"], r["expr"])  # the operator's fmt.Sprintf
        decoded = json.loads(flag)  # the collector's json.Unmarshal
        rules.append((decoded["name"], decoded["query"]))
    listed = [str(n) for n in body.get("names") or []]
    removed = {n[1:] for n in listed if n.startswith("-")}
    keep = sorted({n for n in (*defaults, *listed) if not n.startswith("-") and n not in removed})
    matches = [m for m in body.get("matches") or [] if not str(m).startswith("-")]
    renames = tuple(sorted((body.get("renames") or {}).items()))
    return Allowlist(tuple(keep), tuple(matches), tuple(rules), renames)


@dataclass
class PushLog:
    """Everything one collector pushed: {labels: {t: value}}, plus the push times and the lost ones."""
    cluster: str
    samples: dict = field(default_factory=dict)
    pushes: list = field(default_factory=list)
    lost: list = field(default_factory=list)
    queries: int = 0

    def add(self, labels: tuple, t: float, v: float) -> None:
        self.samples.setdefault(labels, {})[t] = v

    def series_per_push(self) -> float:
        return sum(len(v) for v in self.samples.values()) / max(1, len(self.pushes))


class Collector:
    """One managed cluster's metrics-collector.

    ``jitter``: seconds after each push slot, cycled (a list), or ``("random", max_seconds, seed)``;
    ``lost``: push slot indices that never arrive, or a fraction (e.g. 0.01) lost at random with ``seed``;
    ``rule_failures``: {record: push slot indices in which that rule's query fails};
    ``straddle``: {push slot index: seconds}: that push starts that long before the nearest hour boundary and
    its rules run ``RULE_SECONDS`` apart, so some are evaluated before the boundary and the rest after;
    ``replica``: (t0, t1, spoke): pushes evaluated in [t0, t1) query that spoke instead (a replica restarted at
    t0 with an empty TSDB; after t1 no query reaches back before t0, so the original gives the same answers).
    """

    RULE_SECONDS = 0.05

    def __init__(self, spoke, cluster: str, allowlist: Allowlist, interval: int = 300, jitter=(), lost=(),
                 seed: int = 0, cluster_id: str | None = None, mode: str = "auto", rule_failures=None,
                 straddle=None, replica=None):
        self.spoke, self.cluster, self.allowlist = spoke, cluster, allowlist
        self.interval, self.jitter, self.lost, self.seed, self.mode = interval, jitter, lost, seed, mode
        self.cluster_id = cluster_id or uid_of("cluster", cluster)
        self.rule_failures = {r: set(ks) for r, ks in (rule_failures or {}).items()}
        self.straddle, self.replica = dict(straddle or {}), replica

    # --- when pushes happen ------------------------------------------------------------------------------
    def schedule(self, start: float, end: float) -> tuple[list[float], list[float]]:
        """(push times that arrive, push times lost) for slots ``start + k * interval`` in [start, end]."""
        arrived, missed = self._slots(start, end)
        return [t for _, t in arrived], [t for _, t in missed]

    def _slots(self, start: float, end: float) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
        """(arriving, lost) pushes as (slot index, time)."""
        rng = random.Random(self.seed)
        n = int((end - start) // self.interval) + 1
        if isinstance(self.lost, float):
            lost = {k for k in range(n) if rng.random() < self.lost}
        else:
            lost = set(self.lost)
        arrived, missed = [], []
        for k in range(n):
            if isinstance(self.jitter, tuple) and self.jitter[:1] == ("random",):
                offset = rng.uniform(0, self.jitter[1])
            elif self.jitter:
                offset = self.jitter[k % len(self.jitter)]
            else:
                offset = 0
            t = start + k * self.interval + offset
            if t > end:
                continue
            (missed if k in lost else arrived).append((k, t))
        return arrived, missed

    def _rule_time(self, k: int, t: float, i: int) -> float:
        """When rule ``i`` (in name order) of push ``k`` at ``t`` is evaluated."""
        if k not in self.straddle:
            return t
        return round(t / 3600) * 3600 - self.straddle[k] + i * self.RULE_SECONDS

    def _grids(self, times: list[float]) -> list[tuple[float, float, float, set]]:
        """Regular grids covering ``times``: (first, last, step, members)."""
        cycle = len(self.jitter) if self.jitter and not (isinstance(self.jitter, tuple)
                                                         and self.jitter[:1] == ("random",)) else 1
        step = self.interval * cycle
        classes: dict[float, list[float]] = {}
        for t in times:
            classes.setdefault(round(t % step, 6), []).append(t)
        return [(min(ts), max(ts), step, set(ts)) for ts in classes.values()]

    # --- what is pushed ----------------------------------------------------------------------------------
    def _evaluate(self, expr: str, times: list[float]):
        """[(labels, t, value)] of ``expr`` evaluated at each time, against the replica the collector queries
        then."""
        if self.replica is None:
            return self._evaluate_on(self.spoke, expr, times)
        t0, t1, fresh = self.replica
        inside = [t for t in times if t0 <= t < t1]
        return (self._evaluate_on(self.spoke, expr, [t for t in times if not t0 <= t < t1])
                + self._evaluate_on(fresh, expr, inside))

    def _evaluate_on(self, spoke, expr: str, times: list[float]):
        """By range queries over the regular grids among ``times`` (``mode`` auto: grids of 3 or more), the rest
        by instant queries."""
        out = []
        from e2e.harness import has_at_modifier

        grids = self._grids(times) if self.mode in ("auto", "range") and not has_at_modifier(expr) else []
        if self.mode == "auto":
            grids = [g for g in grids if len(g[3]) >= 3]
        gridded = set().union(*(m for *_, m in grids))
        for first, last, step, members in grids:
            for labels, samples in spoke.query_range(expr, first, last, step):
                out += [(labels, t, v) for t, v in samples if t in members]
            self.log.queries += 1
        for t in times:
            if t not in gridded:
                out += [(labels, t, v) for labels, v in spoke.query(expr, t)]
                self.log.queries += 1
        return out

    def _labels(self, labels: tuple, name: str | None = None) -> tuple:
        d = {k: v for k, v in labels if v != ""}
        if name is not None:
            d["__name__"] = name
        renames = dict(self.allowlist.renames)
        d["__name__"] = renames.get(d["__name__"], d["__name__"])
        d["cluster"], d["clusterID"] = self.cluster, self.cluster_id
        return tuple(sorted(d.items()))

    def collect(self, start: float, end: float) -> PushLog:
        """Every push from ``start`` to ``end`` (Unix seconds)."""
        self.log = PushLog(self.cluster)
        slots, lost = self._slots(start, end)
        times = [t for _, t in slots]
        self.log.pushes, self.log.lost = times, [t for _, t in lost]
        for selector in self.allowlist.selectors():
            values = self._evaluate(selector, times)
            stamps = {(labels, t): ts for labels, t, ts in self._evaluate(f"timestamp({selector})", times)}
            for labels, t, v in values:
                bare = tuple(kv for kv in labels if kv[0] != "__name__")
                ts = stamps.get((bare, t), t)
                self.log.add(self._labels(labels), min(ts, t), v)
        for i, (record, query) in enumerate(sorted(self.allowlist.recording_rules)):
            failing = self.rule_failures.get(record, set())
            evals = [self._rule_time(k, t, i) for k, t in slots if k not in failing]
            for labels, t, v in self._evaluate(query, evals):
                self.log.add(self._labels(labels, record), t, v)
        return self.log


def write_pushes(logs, outdir) -> list[Path]:
    """The pushed samples of every collector as OpenMetrics, one file per UTC day (what the hub stores)."""
    days: dict[int, FamilyBuffer] = {}
    for log in logs:
        for labels, samples in log.samples.items():
            by_day: dict[int, list] = {}
            for t in sorted(samples):
                by_day.setdefault(int(t // 86400), []).append((t, samples[t]))
            for day, rows in by_day.items():
                days.setdefault(day, FamilyBuffer()).add(labels, rows)
    out = Path(outdir)
    files = [buf.write(out / f"{day}.om") for day, buf in sorted(days.items())]
    return [f for f in files if f]

"""A mock's series over time, computed only where something changes.

The series synthesiser (:mod:`gpudash.simulation.series`) works minute by minute. Between two *change minutes*
(a lifecycle event, a utilisation step, a container restart and the minute after it) nothing a target exposes
changes, so the scenario is compressed to its change minutes (order-preserving, so every state, device
assignment and utilisation is the same) and the simulation exposition functions run once per segment.

Expositions are produced in *exposed* form (what ``/metrics`` of kube-state-metrics, the DCGM exporter or
the AMD exporter returns: no ``job``, pod labels named ``namespace``/``pod``/``container``) and turned into
*stored* form (what Prometheus keeps after the scrape) by :func:`stored`: ``job`` and ``instance`` added,
and the exporter pod's target labels applied as Prometheus does with or without honor_labels
(:func:`gpudash.simulation.series.scraped`).
"""
from __future__ import annotations

import bisect
import dataclasses
import functools
import re

from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as kube
from gpudash.model.types import Model
from gpudash.ops.mock.config import Mock
from gpudash.simulation import series as gs
from gpudash.simulation.devices import (
    CounterView,
    counter_at,
    counter_runs,
    gpu_watts,
    power_watts,
    reloads,
    shown_holders,
)
from gpudash.simulation.reference import Reference
from gpudash.simulation.scenario import EXPORTERS, LOOKBACK, Event, Node, Pod, Scenario

Labels = tuple[tuple[str, str], ...]


def jobs() -> tuple[str, ...]:
    """The mock's targets: kube-state-metrics and each registered vendor's exporter (by its ``source`` key)."""
    return ("ksm", *(v.source for v in vendors.VENDORS.values()))


def paths() -> str:
    """For people: the mock's metrics path of each target (``/ksm/metrics`` ...)."""
    return " ".join(f"/{job}/metrics" for job in jobs())


JOBS = jobs()  # the bundled vendors' (a vendor registered later: pass jobs() explicitly)


def change_minutes(s: Scenario, extra=()) -> list[int]:
    """Sorted minutes at which some exposed value may change (0 and the duration included)."""
    points = {0, s.duration, *extra}
    for pod in s.pods:
        for e in pod.lifecycle:
            points.add(e.at)
            if e.restart:
                points.add(e.at + 1)
        points.update(at for at, _ in pod.utilisation)
    return sorted(p for p in points if 0 <= p <= s.duration)


def compress(s: Scenario, points: list[int]) -> Scenario:
    """``s`` with minute ``points[i]`` renamed ``i`` (every change minute must be in ``points``)."""
    def idx(m: int) -> int:
        return max(0, bisect.bisect_right(points, m) - 1)

    pods = tuple(dataclasses.replace(
        p, lifecycle=tuple(dataclasses.replace(e, at=idx(e.at)) for e in p.lifecycle),
        utilisation=tuple((idx(at), v) for at, v in p.utilisation)) for p in s.pods)
    return dataclasses.replace(s, pods=pods, duration=len(points) - 1, faults=())


def reload_minutes(s: Scenario) -> set[int]:
    """Minutes of the scenario's driver reloads (an energy counter restarts: a change minute)."""
    return {f.at for f in s.faults_of("driver_reload")}


def gpu_counter_runs(s: Scenario, compressed: Scenario, points: list[int], node: Node, gpu: int) -> tuple:
    """:func:`~gpudash.simulation.devices.counter_runs` of a GPU of ``s``, its power taken once per change minute
    from ``compressed`` (``s`` compressed to ``points``, every reload minute among them)."""
    watts = [gpu_watts(compressed, node, gpu, i) for i in range(len(points))]
    return counter_runs(points, watts, reloads(s, node))


@functools.cache
def compressed(s: Scenario) -> tuple[list[int], Scenario, list]:
    """(change minutes, driver reloads included; ``s`` compressed to them; its device assignments per change
    minute), one object per scenario: the simulation's caches keyed on the compressed scenario then find it by
    identity (an equal copy, e.g. another reference's, would be compared field by field at every look-up)."""
    points = change_minutes(s, reload_minutes(s))
    small = compress(s, points)
    return points, small, gs.assignments(small)


def for_cluster(s: Scenario, cluster: str) -> Scenario:
    return dataclasses.replace(s, nodes=tuple(n for n in s.nodes if n.cluster == cluster),
                               pods=tuple(p for p in s.pods if p.cluster == cluster))


class Timeline:
    """Exposed series of one cluster of a mock, per segment between change minutes."""

    def __init__(self, mock: Mock, model: Model, cluster: str, extra_points=(), jobs=JOBS):
        self.mock, self.model, self.cluster, self.jobs = mock, model, cluster, tuple(jobs)
        self.scenario = for_cluster(mock.scenario, cluster)
        faults = [(f[3], f[4]) for f in mock.gpu_faults if f[0] == cluster]
        self.points = change_minutes(self.scenario, [*extra_points, *(m for f in faults for m in f),
                                                     *reload_minutes(self.scenario)])
        self._compressed = compress(self.scenario, self.points)
        self._counters: list | None = None
        # device assignments only matter to the GPU exporters (and cost O(minutes x pods) to compute)
        self._held = gs.assignments(self._compressed) if set(self.jobs) - {"ksm"} else None
        self._cache: dict[int, dict[str, dict[Labels, float]]] = {}

    def segment(self, minute: float) -> int:
        return max(0, bisect.bisect_right(self.points, minute) - 1)

    def exposed(self, minute: float) -> dict[str, dict[Labels, float]]:
        """{job: {labels (with __name__): value}} that each target exposes at ``minute``."""
        i = self.segment(minute)
        if i not in self._cache:
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[i] = self._expose(i)
        return self._cache[i]

    def _expose(self, i: int) -> dict[str, dict[Labels, float]]:
        ksm = {_drop(k, "job"): v for k, v in gs._ksm_exposition(self._compressed, self.model, self.cluster, i).items()}
        ksm.update(_container_info(ksm))
        out: dict[str, dict[Labels, float]] = {"ksm": ksm, **{v.source: {} for v in vendors.VENDORS.values()}}
        if self._held is None:
            return out
        gpu = gs.exporter_exposed(self._compressed, self.model, self.cluster, i, self._held[i])
        for key, value in gpu.items():
            d = dict(key)
            v = gs.vendor_of(key, self.model)
            job = v.source
            host = _host(d, v)
            if self.mock.exporter.get((self.cluster, host), job) != job:
                continue
            d.pop("job", None)
            out[job][tuple(sorted(d.items()))] = value
        self._extras(out, self.points[i])
        return out

    def counters(self, minute: int) -> dict[str, dict[Labels, float]]:
        """{job: {labels: value}} of the GPUs' energy counters at ``minute`` (exposed form, as :meth:`exposed`):
        the power the exporter shows, summed since minute 0 (gpudash.simulation.devices.counter_runs)."""
        if self._counters is None:
            self._counters = []
            for index, node in enumerate(self._compressed.nodes):
                job = vendors.vendor(node.vendor).source
                if not node.energy_counter or job not in self.jobs or self.mock.exporter.get(
                        (self.cluster, node.name), job) != job:
                    continue
                for g in range(node.count):
                    labels, scale = gs.counter_series(self.model, index, node, g)
                    runs = gpu_counter_runs(self.scenario, self._compressed, self.points, node, g)
                    self._counters.append((job, _drop(labels, "job"), scale, runs))
        out: dict[str, dict[Labels, float]] = {job: {} for job in jobs()}
        for job, labels, scale, runs in self._counters:
            out[job][labels] = round(counter_at(runs, minute) / scale)
        return out

    def _extras(self, out: dict, minute: int) -> None:
        """Series the golden synthesiser has no need for but real exporters serve, for each vendor from its module:
        the GPU error code (DCGM's XID, ``gpu_faults``) beside each power series, memory used (from the activity,
        where the synthesiser serves none), total and free, and the power the synthesiser does not serve (AMD's,
        as a DCGM GPU's: the counters' power)."""
        xids = {(f[1], str(f[2])): f[5] for f in self.mock.gpu_faults
                if f[0] == self.cluster and f[3] <= minute < f[4]}
        src = self.model.sources
        for v in vendors.VENDORS.values():
            series = out.setdefault(v.source, {})
            if v.error_metric:
                power = v.metric(src, v.power)
                for key in [k for k in series if dict(k)["__name__"] == power]:
                    d = dict(key)
                    d["__name__"] = v.metric(src, v.error_metric)
                    series[tuple(sorted(d.items()))] = xids.get((_host(d, v), d[v.gpu_labels[0]]), 0)
            if v.memory_free and v.memory_used:
                used_name = v.metric(src, v.memory_used)
                for key, used in list(series.items()):
                    d = dict(key)
                    if d["__name__"] != used_name:
                        continue
                    total = self.mock.memory.get((self.cluster, _host(d, v)), v.sample_memory_mib)
                    if v.mig_labels and v.mig_labels[0] in d:
                        gb = re.search(r"\.(\d+)gb", d[v.mig_labels[0]])
                        total = int(gb.group(1)) * 1024 if gb else total
                    d["__name__"] = v.metric(src, v.memory_free)
                    series[tuple(sorted(d.items()))] = max(0, total - used)
            if v.sample_power and v.memory_used in (v.attribution, None) and not v.memory_total:
                continue
            activity, full = v.activity[0]
            for key, value in [(k, x) for k, x in series.items()
                               if dict(k)["__name__"] == v.metric(src, activity)]:
                d = dict(key)
                util = value * 100 / full if full != 100 else value
                total = self.mock.memory.get((self.cluster, _host(d, v)), v.sample_memory_mib)
                extra = []
                if v.memory_used and v.memory_used != v.attribution:
                    extra.append((v.metric(src, v.memory_used), 2048 + util * total / 200 if d.get("pod") else 0))
                if v.memory_total:
                    extra.append((v.metric(src, v.memory_total), total))
                if not v.sample_power:
                    extra.append((v.metric(src, v.power), power_watts(util)))
                for name, x in extra:
                    d["__name__"] = name
                    series[tuple(sorted(d.items()))] = x


def _host(d: dict, v: vendors.Vendor) -> str | None:
    """The node an exporter sample of vendor ``v`` was measured on (whichever of its host labels it carries)."""
    return next((d[label] for label in v.host_labels if d.get(label)), None)


def _container_info(exposed: dict[Labels, float]) -> dict[Labels, float]:
    """kube-state-metrics' ``kube_pod_container_info`` of each Running pod's containers, which the golden
    synthesiser has no need for: what a scrape keeping pod series only lacks (gpudash.render.rules.inputs)."""
    def pod(d: dict) -> tuple:
        return tuple((k, d[k]) for k in ("namespace", "pod", "uid"))

    series = [(dict(k), v) for k, v in exposed.items()]
    running = {pod(d) for d, v in series if d["__name__"] == kube.POD_PHASE and d["phase"] == "Running" and v == 1}
    return {(("__name__", kube.CONTAINER_INFO), *pod(d), ("container", d["container"])): 1 for d, _ in series
            if d["__name__"] == kube.CONTAINER_REQUESTS and pod(d) in running}


def _drop(key: Labels, name: str) -> Labels:
    return tuple(kv for kv in key if kv[0] != name)


def stored(job: str, key: Labels, model: Model, cluster_label: str | None = None) -> Labels:
    """The labels Prometheus stores for an exposed series of ``job`` (ksm, or a vendor's ``source``)."""
    src = model.sources
    d = dict(key)
    if job == "ksm":
        d["job"] = src.kube_state_metrics_job
        d.setdefault("instance", "kube-state-metrics:8443")
    else:
        v = vendors.by_source(job)
        exporter = gx.exporter(src, v)
        node = _host(d, v) or ""
        d = dict(gs.scraped(key, gs.exporter_target(v, node), gs.honours(exporter)))
        d["job"] = gx.sample_job(exporter)
        d.setdefault("instance", f"{_host(d, v)}:{v.exporter_port}")
        if d["__name__"] == "up":
            for label in v.host_labels:
                d.pop(label, None)
    if cluster_label:
        d["cluster"] = cluster_label
    return tuple(sorted(d.items()))


def scrape_outcomes(s: Scenario, job: str) -> tuple[str, ...]:
    """Per minute: ok | missed | down for ``job`` (simulation fault semantics: every GPU exporter has the scenario's
    ``dcgm`` faults)."""
    return s.scrape_outcomes("ksm" if job == "ksm" else EXPORTERS)


class FastReference(Reference):
    """The reference model with the same answers, faster on month-scale scenarios: an instant at
    ``minute`` only looks at pods that exist within the lookback (created at or before ``minute`` and not
    deleted more than LOOKBACK minutes earlier), SKU look-ups are cached, and energy counters and power come from
    the scenario compressed to its change minutes.

    Energy as the backfilled history (no exporter data before ``exporters_backfilled_from``) measures it; where a
    step falls back to power it takes the GPU's power now, while the rule reads the highest of the GPU's power
    series within the lookback: the same unless the pod the exporter shows on the GPU changed in the lookback
    before a step without a counter rise (the e2e month has none: exporter data start, a driver reload)."""

    every_power = True  # the mock serves AMD's gpu_package_power too

    def __init__(self, scenario: Scenario, model: Model, exporters_backfilled_from: int | None = None,
                 closed_lookback: bool = False):
        super().__init__(scenario, model)
        self.exporters_from = exporters_backfilled_from
        self.lookback = LOOKBACK + int(closed_lookback)  # scrapes a step sees: Prometheus 2 includes one 5m old
        self._full = scenario
        self._compact: tuple[list[int], Scenario, list] | None = None
        self._sku_cache: dict = {}
        self._runs: dict[tuple, CounterView] = {}
        buckets: dict[int, list[Pod]] = {}
        hours = scenario.duration // 60 + 1
        for pod in scenario.pods:
            first = pod.lifecycle[0].at
            gone = [e.at for e in pod.lifecycle if e.deleted]
            last = (max(gone) + LOOKBACK) if gone and pod.lifecycle[-1].deleted else scenario.duration + LOOKBACK
            for h in range(max(0, first // 60), min(hours, last // 60 + 1)):
                buckets.setdefault(h, []).append(pod)
        self._buckets = {h: dataclasses.replace(scenario, pods=tuple(p)) for h, p in buckets.items()}
        self._empty = dataclasses.replace(scenario, pods=())

    def pod_allocation(self, minute: int):
        if minute in self._alloc:
            return self._alloc[minute]
        self.s = self._buckets.get(minute // 60, self._empty)
        try:
            return super().pod_allocation(minute)
        finally:
            self.s = self._full

    def _compressed(self) -> tuple[list[int], Scenario, list]:
        """:func:`compressed` of the scenario, looked up once: another test's equal copy of a month scenario in its
        cache would be compared field by field at every look-up (160 s instead of 2 s for an e2e month's hours)."""
        if self._compact is None:
            self._compact = compressed(self._full)
        return self._compact

    def held(self, minute: int):
        """Device assignments from the scenario compressed to its change minutes (the same at every minute)."""
        points, _, held = self._compressed()
        return held[max(0, bisect.bisect_right(points, minute) - 1)]

    def shown(self, minute: int):
        points, compressed, _ = self._compressed()
        return shown_holders(compressed, max(0, bisect.bisect_right(points, minute) - 1))

    def watts(self, node: Node, gpu: int, minute: int) -> float:
        points, compressed, _ = self._compressed()
        return gpu_watts(compressed, node, gpu, max(0, bisect.bisect_right(points, minute) - 1))

    def counters(self, node: Node, gpu: int) -> CounterView:
        key = (node, gpu)
        if key not in self._runs:
            points, compressed, _ = self._compressed()
            self._runs[key] = CounterView(gpu_counter_runs(self._full, compressed, points, node, gpu))
        return self._runs[key]

    def _backfilled_scrapes(self, minute: int, start: int):
        """The exporter scrapes an instant query at ``minute`` reads in backfilled history (no staleness markers:
        every scrape stored within the lookback, from ``start``, ``exporters_backfilled_from``, on)."""
        scrapes = self.s.scrape_outcomes(EXPORTERS)
        for k in range(minute, max(minute - self.lookback, start - 1, -1), -1):
            if k < len(scrapes) and scrapes[k] == "ok":
                yield k

    def attributed_gpus(self, minute: int) -> dict[tuple, int]:
        """As the reference model, except for backfilled history (:mod:`gpudash.ops.mock.history`
        ``exporters_from``): exporter series exist only from ``exporters_backfilled_from`` on, and carry no
        staleness markers, so a series that stopped (its pod left the GPU) is still read for the lookback and
        every scrape stored within it counts (``closed_lookback``: Prometheus 2, whose lookback includes a sample
        exactly 5 minutes old, as step-aligned backfilled scrapes are)."""
        if self.exporters_from is None:
            return super().attributed_gpus(minute)
        gpus: dict[tuple, set] = {}
        for k in self._backfilled_scrapes(minute, self.exporters_from):
            for key, held in self.gpus_held(k, minute).items():
                gpus.setdefault(key, set()).update(held)
        return {key: len(g) for key, g in gpus.items()}

    def exporter_seen(self, cluster: str, node: str, minute: int) -> bool:
        """As the reference model, except for backfilled history (see :meth:`attributed_gpus`)."""
        if self.exporters_from is None:
            return super().exporter_seen(cluster, node, minute)
        attributes = vendors.vendor(self._full.node(cluster, node).vendor).attributes_fractions
        return attributes and next(self._backfilled_scrapes(minute, self.exporters_from), None) is not None

    def gpu_shares(self, node: Node, gpu: int, minute: int, pods: set) -> dict[str, float]:
        """As the reference model, except for backfilled history (see :meth:`attributed_gpus`): a device's holders
        of every scrape within the lookback."""
        if self.exporters_from is None:
            return super().gpu_shares(node, gpu, minute, pods)
        held: dict[tuple, float] = {}
        for k in self._backfilled_scrapes(minute, self.exporters_from):
            held.update(self.device_holders(node, gpu, k))
        return self.namespace_shares(held, pods)

    def _since(self, hour: int, since: int) -> int | None:
        """The first minute with exporter data for ``hour`` (none before ``exporters_backfilled_from``), or None
        when none of its steps sees any."""
        first = max(since, self.exporters_from or 0)
        return first if (hour + 1) * 60 > first else None

    # Reference caches these (functools.cache): mypy sees a wrapper object without a signature there, not the
    # same (hour, since) method (python/mypy#3260)
    def energy(self, hour: int, since: int = 0) -> dict[tuple, float]:  # type: ignore[override]
        first = self._since(hour, since)
        return {} if first is None else super().energy(hour, first)

    def fleet_energy(self, hour: int, since: int = 0) -> dict[str, float]:  # type: ignore[override]
        first = self._since(hour, since)
        return {} if first is None else super().fleet_energy(hour, first)

    def sku(self, product: str, resource: str):
        key = (product, resource)
        if key not in self._sku_cache:
            self._sku_cache[key] = super().sku(product, resource)
        return self._sku_cache[key]


__all__ = ["Event", "FastReference", "JOBS", "Timeline", "change_minutes", "compress", "stored"]

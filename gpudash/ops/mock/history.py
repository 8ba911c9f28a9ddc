"""Month-scale history of a mock cluster as OpenMetrics files, one per cluster and UTC day.

Each scrape minute ``m`` stores every series the target exposes at ``m`` with timestamp
``start + 60 m + offset`` (seconds), the way Prometheus stores a scrape, except that backfilled data carries
no staleness markers: a deleted pod's or a down target's series simply stop (a reader sees the last sample
for the 5-minute lookback). Scrape faults follow the simulation semantics: ``missed_scrapes`` stores nothing
for the minutes it covers, ``ksm_restart`` / ``exporter_gap`` store nothing while the target is down.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from gpudash.model import vendors
from gpudash.model.types import Model
from gpudash.ops.mock.config import Mock
from gpudash.ops.mock.openmetrics import FamilyBuffer
from gpudash.ops.mock.timeline import JOBS, Timeline, scrape_outcomes, stored

DAY = 1440  # minutes


@dataclass
class HistoryStats:
    files: list = field(default_factory=list)
    samples: int = 0
    series: int = 0
    seconds: float = 0.0


def _ok_runs(outcomes: Sequence[str], lo: int, hi: int):
    """Maximal runs [a, b) within [lo, hi) of minutes whose scrape succeeded."""
    a = None
    for m in range(lo, hi):
        ok = outcomes[m] == "ok"
        if ok and a is None:
            a = m
        elif not ok and a is not None:
            yield a, m
            a = None
    if a is not None:
        yield a, hi


def _targets(tl: Timeline, job: str, exposed: dict) -> list[tuple]:
    """Scrape targets of ``job`` (their ``up`` series): kube-state-metrics once, an exporter per node."""
    if job == "ksm":
        return [()]
    v = vendors.by_source(job)
    hosts = {next((dict(k)[h] for h in v.host_labels if dict(k).get(h)), None) for k in exposed}
    label = v.host_labels[0]
    return [((label, h),) for h in sorted(h for h in hosts if h)]


def _write_counters(buf: FamilyBuffer, tl: Timeline, job: str, runs, offset: float, cluster_label: str | None,
                    seen: set) -> None:
    """The GPUs' energy counters of ``job`` at each scrape minute of ``runs`` (a counter rises every minute)."""
    rows: dict = {}
    for a, b in runs:
        for m in range(a, b):
            for key, value in tl.counters(m)[job].items():
                rows.setdefault(key, []).append((tl.mock.at(m) + offset, value))
    for key, samples in rows.items():
        labels = stored(job, key, tl.model, cluster_label)
        seen.add((tl.cluster, labels))
        buf.add(labels, samples)


def write_history(mock: Mock, model: Model, outdir, clusters=None, jobs=JOBS, exporters_from: int = 0,
                  cluster_label: bool = False, offset: float = 0.0, until: int | None = None,
                  progress=None, since: int = 0) -> HistoryStats:
    """Write ``<outdir>/<cluster>/<YYYY-MM-DD>.om`` for every cluster and day of ``mock``.

    ``jobs``: which targets to write (ksm, and the vendors' exporters by their ``source``: dcgm, amd);
    ``exporters_from``: first minute written for the GPU
    exporters (their series are not needed for billing; a month of them is mostly volume);
    ``cluster_label``: add ``cluster`` (as Prometheus external labels would on a global view);
    ``offset``: seconds after the minute at which scrapes land; ``since``, ``until``: first and last minute
    (default: the whole scenario);
    ``progress(done, total, what)``: told of each cluster-day written.
    """
    t0 = time.monotonic()
    stats = HistoryStats()
    s = mock.scenario
    end = s.duration if until is None else min(until, s.duration)
    seen: set = set()
    day_starts = range(since - since % DAY, end + 1, DAY)
    total, done = len(clusters or s.clusters) * len(day_starts), 0
    for cluster in clusters or s.clusters:
        tl = Timeline(mock, model, cluster, extra_points=day_starts, jobs=jobs)
        outcomes = {job: scrape_outcomes(s, job) for job in jobs}
        for day0 in day_starts:
            if progress:
                progress(done, total, f"{cluster} day {day0 // DAY + 1}")
                done += 1
            day1 = min(day0 + DAY, end + 1)
            buf = FamilyBuffer()
            i = tl.segment(day0)
            while i < len(tl.points) and tl.points[i] < day1:
                seg0 = max(tl.points[i], day0)
                seg1 = min(tl.points[i + 1] if i + 1 < len(tl.points) else end + 1, day1)
                exposed = tl.exposed(seg0)
                for job in jobs:
                    lo = max(seg0, since) if job == "ksm" else max(seg0, exporters_from, since)
                    if lo >= seg1:
                        continue
                    runs = list(_ok_runs(outcomes[job], lo, seg1))
                    times = [mock.at(m) + offset for a, b in runs for m in range(a, b)]
                    for target in _targets(tl, job, exposed[job]):
                        up = stored(job, (("__name__", "up"), *target), model, cluster if cluster_label else None)
                        rows = [(mock.at(m) + offset, 1 if outcomes[job][m] == "ok" else 0)
                                for m in range(lo, seg1) if outcomes[job][m] != "missed"]
                        buf.add(up, rows)
                    for key, value in exposed[job].items():
                        labels = stored(job, key, model, cluster if cluster_label else None)
                        seen.add((cluster, labels))
                        buf.add_run(labels, value, times)
                i += 1
            for job in (j for j in jobs if j != "ksm"):
                _write_counters(buf, tl, job, _ok_runs(outcomes[job], max(day0, exporters_from, since), day1), offset,
                                cluster if cluster_label else None, seen)
            day = datetime.fromtimestamp(mock.at(day0), UTC).strftime("%Y-%m-%d")
            path = buf.write(Path(outdir) / cluster / f"{day}.om")
            if path:
                stats.files.append(path)
                stats.samples += buf.samples
    stats.series = len(seen)
    stats.seconds = time.monotonic() - t0
    return stats

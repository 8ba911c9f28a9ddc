"""Rule cost at fleet scale ("rules must stay cheap at 10,000 GPUs"): a synthetic cluster of mixed GPU nodes in
one real Prometheus, each spoke rule timed as ACM's metrics-collector runs it, each hub rule group timed over
what the pushes produce, and the series pushed per interval next to shipping the raw series.

The fleet (``gpus=10_000``): 1,250 nodes x 8 GPUs in five pools, sized in proportion for other ``gpus``::

    pool         class / layout                            nodes  Running pods per node        pods
    a100         A100-80GB whole GPUs                        750  1 x 4 GPUs + 1 x 2 GPUs     1,500
    a100-mig     A100-80GB, MIG mixed, 7 x 1g.10gb / GPU     100  10 x 2 slices               1,000
    a100-single  A100-80GB, MIG single, 1g.10gb              100  10 x 2 slices (nvidia.com/gpu) 1,000
    l40s         L40S, time-sliced x 4 (nvidia.com/gpu.shared) 100  8 x 2 replicas               800
    mi300        AMD MI300X                                  200  3 or 4 x 2 GPUs               700

plus, per node, one pod that ran for 20 minutes and then Succeeded and lingers (never deleted), one Pending
(never scheduled) pod per two nodes, and a stream of short jobs (Pending 1 min, Running 6 +- 4 min, deleted
2 min after) on every NVIDIA shard: request series that a phase filter must ignore. Tenants: 50.

The history comes from the mock (:mod:`gpudash.ops.mock`: the golden kube-state-metrics, DCGM and AMD expositions,
so the series have exactly the labels the rules are tested on). The golden exporter exposition is quadratic in
the devices of one cluster, so the fleet is written in shards of :data:`SHARD_NODES` nodes (each a mock of the
same cluster with its own nodes and pods) and the shards' OpenMetrics are merged family by family into a few
files before ``promtool tsdb create-blocks-from openmetrics``: one Prometheus, one cluster, all series.
"""
from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import shutil
import statistics
import time
from dataclasses import replace
from pathlib import Path

import yaml

from e2e import mco_sim, pipeline
from e2e.harness import Prometheus
from gpudash.base import layout
from gpudash.model import model_from_dict
from gpudash.model import series as names
from gpudash.ops.mock.config import compile_mock, parse_time
from gpudash.ops.mock.history import write_history

ROOT = Path(__file__).resolve().parent.parent
SHARD_NODES = 5
HISTORY_MINUTES = 125  # 00:00 to 02:05: the push at 02:05 integrates hours 00:00 and 01:00 at full resolution
# DCGM / AMD series from 00:55: the energy rule reads every step of the hour before the push (01:00 to 02:00, each
# step with the one before it), the activity rules the last 5 minutes
EXPORTER_MINUTES = 70
SLOW = 5.0  # queries slower than this are timed once, quicker ones `repeat` times (median)
HUB_EVAL = 300  # the hub rules are evaluated up to this many seconds after the push
TENANTS = 50

# name, class, nodes at 10,000 GPUs, mig, time_slicing, Running pods per node (requests), short-job request
POOLS = (
    ("a100", "a100-80gb", 750, None, None, ({"gpu": 4}, {"gpu": 2}), {"gpu": 1}),
    ("a100-mig", "a100-80gb", 100, {"strategy": "mixed", "layout": {"1g": 7}}, None, ({"mig-1g": 2},) * 10,
     {"mig-1g": 1}),
    ("a100-single", "a100-80gb", 100, {"strategy": "single", "profile": "1g", "instances": 7}, None,
     ({"gpu": 2},) * 10, {"gpu": 1}),
    ("l40s", "l40s", 100, None, {"rename": True}, ({"shared": 2},) * 8, {"shared": 1}),
    ("mi300", "mi300x", 200, None, None, None, None),  # 3 or 4 pods of 2 GPUs, alternating; no short jobs
)
# the raw series a naive setup would ship instead (the brief's list, plus their init-container / owner relatives)
NAIVE_METRICS = ("kube_pod_container_resource_requests", "kube_pod_init_container_resource_requests",
                 "kube_pod_status_phase", "kube_node_labels", "kube_pod_owner", "kube_replicaset_owner")


def model(tenants: int = TENANTS, energy: bool = False):
    """The e2e model (same classes and prices) with ``tenants`` tenants and one cluster, its billing settings the
    defaults (the spoke tier with 24 hours of backfill, the acm target being rendered) and, unless ``energy``, no
    ``energy`` section: the default model of issue 30's limits."""
    raw = yaml.safe_load(pipeline.MODEL.read_text())
    raw["tenants"] = [{"name": f"t{i:03d}", "namespace": f"tenant-{i:03d}", "budget": 10000}
                      for i in range(tenants)]
    raw["clusters"] = ["fleet"]
    raw["billing"].pop("spoke_tier", None)
    if energy:
        raw["energy"].pop("clusters", None)  # per-cluster tariffs of the e2e clusters, which the fleet is not
    else:
        raw.pop("energy", None)
    return model_from_dict(raw, "benchmarks/fleet")


def without_tier(m):
    """``m`` with ``billing.spoke_tier: none`` (and so no backfill): every push re-derives the hours."""
    return replace(m, billing=replace(m.billing, spoke_tier="none", backfill_hours=0))


def shards(gpus: int, tenants: int) -> list[dict]:
    """Mock descriptions, one per shard of at most SHARD_NODES nodes, together the whole fleet."""
    scale = gpus / 10_000
    out, pod_no = [], 0
    for pool, cls, nodes_10k, mig, ts, per_node, job_req in POOLS:
        nodes = max(1, round(nodes_10k * scale))
        for first in range(0, nodes, SHARD_NODES):
            count = min(SHARD_NODES, nodes - first)
            name = f"{pool}-{first // SHARD_NODES:03d}"
            p = {"name": name, "class": cls, "nodes": count, "gpus": 8}
            if mig:
                p["mig"] = mig
            if ts:
                p["time_slicing"] = ts
            workload = []
            for i in range(count):
                g = first + i  # node number in the pool
                reqs = per_node or ({"gpu": 2},) * (3 + g % 2)
                for k, req in enumerate(reqs):
                    tenant = pod_no % tenants
                    kind = "StatefulSet" if k == 0 and pool == "a100" else ("Deployment" if k % 3 else "bare")
                    owner = {"kind": kind, "name": f"w-{name}-{tenant}"} if kind != "bare" else {"kind": "bare"}
                    workload.append({"name": f"{name}-{i}-run-{k}", "tenant": tenant, "pool": name, "node": i,
                                     "owner": owner, "containers": [{"name": "main", "requests": dict(req)}],
                                     "lifecycle": [{"at": "0m", "phase": "Running"}],
                                     "utilisation": 20 + pod_no % 70})
                    pod_no += 1
                one = {k: 1 for k in reqs[0]}
                if pool != "mi300" or g % 2 == 0:  # done after 20 minutes, never deleted: its requests linger
                    workload.append({"name": f"{name}-{i}-done", "tenant": pod_no % tenants, "pool": name,
                                     "node": i, "owner": {"kind": "Job", "name": f"{name}-{i}-done"},
                                     "containers": [{"name": "main", "requests": one}],
                                     "lifecycle": [{"at": "0m", "phase": "Running"},
                                                   {"at": "20m", "phase": "Succeeded"}], "utilisation": 50})
                if g % 2 == 0:  # never scheduled: requests without a node
                    workload.append({"name": f"{name}-{i}-pending", "tenant": pod_no % tenants, "pool": name,
                                     "node": i, "containers": [{"name": "main", "requests": dict(reqs[0])}],
                                     "lifecycle": [{"at": "0m", "phase": "Pending"}]})
            if job_req:
                workload.append({"jobs": {"name": f"{name}-job", "tenant": pod_no % tenants, "pool": name,
                                          "nodes": count, "every": "10m", "start": f"{first % 10}m",
                                          "until": f"{HISTORY_MINUTES}m", "pending": "1m", "run": "6m",
                                          "jitter": "4m", "seed": first, "delete_after": "2m",
                                          "requests": job_req}})
            out.append({"name": name, "start": "2026-10-01T00:00:00Z", "duration": f"{HISTORY_MINUTES}m",
                        "node_pools": [p], "workload": workload})
    return out


def _write_shard(args) -> tuple[Path, int, int]:
    """(OpenMetrics file, samples, pods) of one shard."""
    raw, tenants, outdir = args
    m = model(tenants)
    mock = compile_mock(raw, m, raw["name"])
    stats = write_history(mock, m, outdir, exporters_from=HISTORY_MINUTES - EXPORTER_MINUTES)
    return stats.files[0], stats.samples, len(mock.scenario.pods)


def _merge(files: list[Path], out: Path) -> Path:
    """OpenMetrics files of disjoint shards -> one file, each family contiguous. The kube-state-metrics ``up``
    series is the same target in every shard: kept from the first file only."""
    tmp = out.parent / f"{out.stem}-families"
    tmp.mkdir(parents=True, exist_ok=True)
    handles: dict[str, object] = {}
    for n, f in enumerate(files):
        family = None
        with open(f) as src:
            for line in src:
                if line.startswith("# TYPE "):
                    family = line.split()[2]
                    continue
                if line.startswith("# EOF"):
                    break
                if n and family == "up" and 'job="kube-state-metrics"' in line:
                    continue
                if family not in handles:
                    handles[family] = open(tmp / f"{family}.txt", "w")
                handles[family].write(line)
    for h in handles.values():
        h.close()
    with open(out, "w") as dst:
        for family in sorted(handles):
            dst.write(f"# TYPE {family} gauge\n")
            with open(tmp / f"{family}.txt") as src:
                shutil.copyfileobj(src, dst, 1 << 22)
        dst.write("# EOF\n")
    shutil.rmtree(tmp)
    return out


def _median_time(fn, repeat: int) -> tuple[object, list[float]]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, times


class TimedSpoke:
    """The spoke Prometheus as the collector simulation sees it, timing every query it sends."""

    def __init__(self, prom: Prometheus):
        self.prom, self.times = prom, {}

    def query(self, expr: str, time_: float):
        t0 = time.perf_counter()
        out = self.prom.query(expr, time_)
        self.times.setdefault(expr, []).append(time.perf_counter() - t0)
        return out

    def query_range(self, *args, **kw):
        return self.prom.query_range(*args, **kw)


def run(work: Path, gpus: int = 10_000, tenants: int = TENANTS, repeat: int = 3, log=print,
        cache: Path | None = None) -> dict:
    """The fleet benchmark in ``work``; ``cache``: a directory keeping the fleet's history blocks between runs
    (keyed by the fleet's description and the mock's source), else the history is written every time."""
    work.mkdir(parents=True, exist_ok=True)
    m = model(tenants)
    raws = shards(gpus, tenants)
    prom = Prometheus(work / "spoke")
    try:
        made = _history(prom, work, raws, tenants, cache, log)
        return _measure(prom, m, work, raws, gpus, repeat, log) | made
    finally:
        prom.stop()


def _history(prom: Prometheus, work: Path, raws: list[dict], tenants: int, cache: Path | None, log) -> dict:
    """The fleet's raw history in ``prom`` (started), written by the mock and imported by promtool, or copied
    from ``cache``; returns how it was made (samples, seconds, whether from the cache)."""
    key = hashlib.sha256(json.dumps([raws, tenants, EXPORTER_MINUTES]).encode()
                         + pipeline._fingerprint(ROOT / "gpudash" / "ops" / "mock",
                                                 ROOT / "gpudash" / "render" / "golden").encode())
    kept = cache / f"fleet-{key.hexdigest()[:16]}" if cache else None
    if kept and (kept / "made.json").exists():
        for block in kept.iterdir():
            if block.is_dir():
                shutil.copytree(block, prom.data / block.name)
        prom.start()
        log(f"fleet: history from {kept}")
        return json.loads((kept / "made.json").read_text()) | {"history_cached": True}
    t0 = time.perf_counter()
    jobs = os.cpu_count() or 2
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        written = list(pool.map(_write_shard, [(r, tenants, work / "om" / r["name"]) for r in raws]))
        samples = sum(s for _, s, _ in written)
        merged = list(pool.map(_merge, [[f for k, (f, _, _) in enumerate(written) if k % jobs == j]
                                        for j in range(jobs)],
                               [work / "om" / f"merged-{j}.om" for j in range(jobs)]))
    gen_s = time.perf_counter() - t0
    log(f"fleet: {len(raws)} shards, {samples:,} samples written in {gen_s:.0f} s")
    t1 = time.perf_counter()
    prom.backfill_openmetrics(merged, max_block_duration="24h")
    made = {"history_samples": samples, "generate_seconds": round(gen_s, 1),
            "import_seconds": round(time.perf_counter() - t1, 1)}
    shutil.rmtree(work / "om", ignore_errors=True)
    if kept:
        prom.stop()  # copied while the server is down: it may compact its blocks
        shutil.rmtree(kept, ignore_errors=True)
        for block in prom.data.iterdir():
            if (block / "meta.json").exists():
                shutil.copytree(block, kept / block.name)
        (kept / "made.json").write_text(json.dumps(made))
        prom.start()
    return made | {"history_cached": False}


def _count_by_name(prom: Prometheus, names_: tuple[str, ...] | str, t: float) -> dict[str, int]:
    regex = names_ if isinstance(names_, str) else "|".join(names_)
    return {dict(lb).get("__name__", ""): int(v)
            for lb, v in prom.query(f'count by (__name__) ({{__name__=~"{regex}"}})', t)}


def _push(prom: Prometheus, m, allow: mco_sim.Allowlist, t: float, repeat: int, log, tag: str = "") -> dict:
    """One push at ``t`` through the collector simulation (instant queries, JSON-decoded allowlist exprs), every
    query it sends timed: each recording rule, and the federation of the allowlist's names."""
    spoke = TimedSpoke(prom)
    collector = mco_sim.Collector(spoke, "fleet", allow, m.billing.mco_interval, mode="instant")
    t0 = time.perf_counter()
    push = collector.collect(t, t)
    collect_s = time.perf_counter() - t0
    for query, times in list(spoke.times.items()):  # more samples of the quick queries (the slow ones: once)
        if times[0] < SLOW:
            for _ in range(repeat - 1):
                spoke.query(query, t)
    per_push: dict[str, int] = {}
    for labels in push.samples:
        name = dict(labels)["__name__"]
        per_push[name] = per_push.get(name, 0) + 1
    spoke_rules = []
    for record, query in allow.recording_rules:
        times = spoke.times[query]
        spoke_rules.append({"record": record, "seconds_median": round(statistics.median(times), 3),
                            "seconds_first": round(times[0], 3), "series": per_push.get(record, 0)})
        log(f"fleet{tag}: spoke {record}: {statistics.median(times):.2f} s, {per_push.get(record, 0)} series")
    rule_queries = {query for _, query in allow.recording_rules}
    federate_s = sum(statistics.median(v) for q, v in spoke.times.items() if q not in rule_queries)
    return {"push": push, "spoke_rules": spoke_rules, "per_push": per_push, "collect_s": collect_s,
            "federate_s": federate_s, "seconds": sum(r["seconds_median"] for r in spoke_rules)}


def _pushed(push: mco_sim.PushLog, *series: str) -> dict[tuple, float]:
    """The pushed values of ``series`` by labels."""
    return {labels: v for labels, by_t in push.samples.items() if dict(labels)["__name__"] in series
            for v in by_t.values()}


def _hourly(push: mco_sim.PushLog) -> dict[tuple, float]:
    """The pushed hourly figures (GPU-hours, energy, steps observed, node maximum) of the previous hour by labels
    (with backfill its rows of lag 1, without the lag label)."""
    rows = _pushed(push, names.HOURLY_GPU_HOURS, names.HOURLY_ENERGY, names.STEPS_OBSERVED, names.NODE_ACTIVE_GPUS_MAX)
    return {tuple(kv for kv in labels if kv[0] != names.LAG_LABEL): v for labels, v in rows.items()
            if dict(labels).get(names.LAG_LABEL, "1") == "1"}


def _earlier_hours(prom: Prometheus, t: float, hours: int, work: Path) -> int:
    """The tier's samples of the hour before ``t``'s (the last complete one of the history) copied into each of the
    ``hours`` hours before the history starts, so that every lag a push carries sums a full hour of samples (the
    history itself is two hours long: 26 hours of 10,000 GPUs would take an hour to write and backfill). What a lag
    costs depends on the samples and series it reads, not their values. Returns the samples written."""
    from gpudash.ops.mock.openmetrics import FamilyBuffer

    end = t - t % 3600
    tier = "|".join(n for n, s in names.SERIES.items() if s.where == names.SPOKE_TIER)
    rows = prom.samples(f'{{__name__=~"{tier}"}}', end - 3600, end - 0.001)
    buf = FamilyBuffer()
    for labels, samples in rows:
        buf.add(labels, [(ts - k * 3600, v) for k in range(hours + 1, 1, -1) for ts, v in samples])
    path = buf.write(work / "earlier-hours.om")
    if path:
        prom.backfill_openmetrics([path], max_block_duration="24h")
    return buf.samples


def _tier(prom: Prometheus, m, work: Path, start: float, t: float, plain: dict, repeat: int, log) -> dict:
    """The same push with the default ``billing.spoke_tier: policy`` and its backfill: the tier's group evaluated
    over the history at its own offset as the rule manager would have (``backfill_rules(method="query")``, as
    e2e/test_single_cluster.py does: set-up, not push cost), each of its rules then timed at the group's last
    evaluation before ``t`` (what it costs each ``billing.resolution`` on the spoke; a rule reading an earlier
    rule's samples of the same evaluation finds them there), the earlier hours the lags read filled
    (:func:`_earlier_hours`), then every allowlist rule timed at the push as without the tier. ``plain``: the push
    without it."""
    tiered = m
    rendered = pipeline.render(tiered, work / "rendered-tier", rules_only=True)
    tier_file = rendered / layout.SPOKE_TIER_RULES
    (group,) = yaml.safe_load(tier_file.read_text())["groups"]
    t0 = time.perf_counter()
    prom.backfill_rules([tier_file], start, t, method="query")
    backfill_s = time.perf_counter() - t0
    log(f"fleet: tier backfilled over {HISTORY_MINUTES} min in {backfill_s:.0f} s")
    last = prom.query(f"max(timestamp({names.TIER_KSM_UP}))", t)[0][1]
    tier_rules = []
    for r in group["rules"]:
        rows, times = _median_time(lambda e=r["expr"]: prom.query(e, last), repeat)
        tier_rules.append({"record": r["record"], "seconds_median": round(statistics.median(times), 3),
                           "seconds_first": round(times[0], 3), "series": len(rows)})
        log(f"fleet: tier {r['record']}: {statistics.median(times):.3f} s, {len(rows)} series")
    t1 = time.perf_counter()
    earlier = _earlier_hours(prom, t, m.billing.backfill_hours, work)
    log(f"fleet: {earlier:,} tier samples copied into the {m.billing.backfill_hours} earlier hours in "
        f"{time.perf_counter() - t1:.0f} s")
    push = _push(prom, tiered, mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE), t, repeat, log,
                 " (tier)")
    got, want = _hourly(push["push"]), _hourly(plain["push"])
    differ = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
    by_name: dict[str, list[float]] = {}  # per series name: the sums with and without the tier
    for k in differ:
        sums = by_name.setdefault(dict(k)["__name__"], [0.0, 0.0])
        sums[0] += got.get(k, 0.0)
        sums[1] += want.get(k, 0.0)
    live, live_plain = _pushed(push["push"], names.POD_ALLOCATED), _pushed(plain["push"], names.POD_ALLOCATED)
    return {"interval": group["interval"], "rules": tier_rules, "differing_sums": by_name,
            "last_step_age_seconds": round(t - last, 3), "live_rows": len(live_plain),
            "live_rows_differing": sum(live.get(k) != live_plain.get(k) for k in set(live) | set(live_plain)),
            "hourly_largest_difference": max((abs(got.get(k, 0.0) - want.get(k, 0.0)) for k in differ), default=0),
            "seconds_per_evaluation": round(sum(r["seconds_median"] for r in tier_rules), 3),
            "backfill_seconds": round(backfill_s, 1), "spoke_rules": push["spoke_rules"],
            "spoke_seconds_per_push": round(push["seconds"], 3), "federate_seconds": round(push["federate_s"], 3),
            "hourly_series": len(want), "hourly_series_differing": len(differ),
            "hourly_differing_examples": [dict(k) for k in differ[:3]], "backfill_hours": m.billing.backfill_hours,
            "earlier_samples": earlier, "pushed_rule_series": sum(r["series"] for r in push["spoke_rules"]),
            "push": push["push"], "rendered": str(rendered)}


def _hub(pushes, rendered: Path, t: float, work: Path, repeat: int, log, tag: str = "") -> dict:
    """``pushes`` in a hub Prometheus with the hub rules of ``rendered`` backfilled level by level over the
    evaluations after the push, then each hub group timed (its rules' instant queries) at the last of them."""
    files = mco_sim.write_pushes(pushes, work / "pushed")
    hub = Prometheus(work)
    try:
        t0 = time.perf_counter()
        hub.backfill_openmetrics(files)
        hub.backfill_rules([rendered / mco_sim.HUB_RULES_FILE], t, t + HUB_EVAL, method="query")
        backfill_s = time.perf_counter() - t0
        te = t + HUB_EVAL  # a Ruler evaluation after the push, every lower level recorded before it
        groups = yaml.safe_load((rendered / mco_sim.HUB_RULES_FILE).read_text())["groups"]
        out = []
        for g in groups:
            rules = [r for r in g["rules"] if "record" in r]
            per_rule, series = [], 0
            for r in rules:
                rows, times = _median_time(lambda e=r["expr"]: hub.query(e, te), repeat)
                per_rule.append(statistics.median(times))
                series += len(rows)
            out.append({"group": g["name"], "rules": len(rules), "seconds_median": round(sum(per_rule), 3),
                        "slowest_rule_seconds": round(max(per_rule, default=0), 3), "series": series})
            log(f"fleet{tag}: hub {g['name']}: {sum(per_rule):.3f} s")
        return {"backfill_seconds": round(backfill_s, 1), "groups": out,
                "series": int(hub.query('count({__name__=~".+"})', te)[0][1])}
    finally:
        hub.stop()


def _measure(prom, m, work, raws, gpus, repeat, log) -> dict:
    rendered = pipeline.render(without_tier(m), work / "rendered", rules_only=True)
    allow = mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE)
    start = parse_time(raws[0]["start"])
    t = start + HISTORY_MINUTES * 60  # a push at 02:05
    fleet = {lb_val: v for lb_val, v in (
        (dict(lb).get("resource"), v) for lb, v in prom.query(
            'sum by (resource) (kube_node_status_allocatable{resource=~"nvidia_com_.*|amd_com_gpu"})', t))}
    nodes = int(prom.query("count(kube_node_labels)", t)[0][1])
    phases = {dict(lb)["phase"]: int(v) for lb, v in prom.query(
        "sum by (phase) (kube_pod_status_phase == 1)", t)}
    # 1. one push at t without the spoke tier, then (the tier's series added to the same spoke) with it
    plain = _push(prom, without_tier(m), allow, t, repeat, log)
    push, spoke_rules, per_push = plain["push"], plain["spoke_rules"], plain["per_push"]
    custom_names = tuple(n for n in allow.names if n not in mco_sim.DEFAULT_NAMES)
    naive = _count_by_name(prom, NAIVE_METRICS, t)
    naive.update(_count_by_name(prom, "DCGM_.+|gpu_.+", t))
    total_raw = int(prom.query('count({__name__=~".+"})', t)[0][1])
    _, base = _median_time(lambda: prom.query("vector(1)", t), 20)
    # what the two hourly rules repeat at every step of two hours: the allocation join at one instant
    from gpudash.promql import build as q
    from gpudash.render.rules.allocation import allocation

    per_product = q.agg("sum", ("cluster", "namespace", "product", "resource"), allocation(m))
    _, one_step = _median_time(lambda: prom.query(per_product, t), repeat)
    tier = _tier(prom, m, work, start, t, plain, repeat, log)

    # 2. the hub: each push, and the hub rules evaluated over it (by dependency level, then each group timed)
    hub = _hub([push], rendered, t, work / "hub", repeat, log)
    tier_push, tier_rendered = tier.pop("push"), Path(tier.pop("rendered"))
    tier["hub"] = _hub([tier_push], tier_rendered, t, work / "hub-tier", repeat, log, " (tier)")
    return {
        "gpus": gpus, "nodes": nodes, "tenants": len(m.tenants), "allocatable": fleet, "pod_phases": phases,
        "shards": len(raws), "history_minutes": HISTORY_MINUTES, "exporter_minutes": EXPORTER_MINUTES,
        "raw_series_at_push": total_raw, "spoke_rules": spoke_rules,
        "spoke_seconds_per_push": round(plain["seconds"], 3),
        "pushed_rule_series": sum(r["series"] for r in spoke_rules), "pushed_per_push": per_push,
        "custom_names": custom_names, "federate_seconds": round(plain["federate_s"], 3), "naive": naive,
        "collector_seconds": round(plain["collect_s"], 1), "tier": tier,
        "hub_backfill_seconds": hub["backfill_seconds"], "hub_groups": hub["groups"], "hub_series": hub["series"],
        "repeat": repeat, "slow_seconds": SLOW, "query_overhead_seconds": round(statistics.median(base), 4),
        "allocation_one_step_seconds": round(statistics.median(one_step), 4),
    }

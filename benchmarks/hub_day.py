"""Hub cost at fleet scale over a real day of pushes (issue #45): 20 clusters of 500 GPUs each push every 5 minutes
for 24 hours into one hub Prometheus, and the rendered hub rules (``rules/gpudash-hub.rules.yaml`` of a model with
those clusters, groups and intervals as rendered) are evaluated at the Ruler's interval over the day's last hours,
with ``billing.backfill_hours`` 24 and 0.

What each cluster pushes, at PUSH_AT seconds after every 5-minute mark: the recording rules of the rendered
allowlist, one row set per rule per push, labelled as ACM's metrics-collector sends them (e2e/mco_sim.py: the
result's labels without empty values, the record as ``__name__``, ``cluster`` and ``clusterID`` added, each sample
stamped with its push; stolostron/multicluster-observability-operator collectors/metrics/pkg/forwarder/forwarder.go):
the live per-pod allocation and activity, and for each hourly rule (GPU-hours, node maxima, energy, steps observed)
its rows of the previous hour or, with backfill N, of each of the N + 1 previous hours under ``gpudash_lag`` 1..N + 1,
with the sentinel row per lag of the rules that have one (the allowlist's ``label_replace(vector(0),
"gpudash_sentinel", "1", "", "")``); plus the federated ``names`` (DCGM XID errors per GPU, kube-state-metrics
requests, allocatable, capacity, quotas, ``up``). Series names and labels come from the series registry
(gpudash/model/series.py), products and resources from the model's SKUs.

The fleet, per cluster (fleet.py's pools at 500 GPUs; 63 nodes, 504 GPUs, MIG on 10 of the 53 NVIDIA nodes)::

    pool         product / ksm resource                          nodes  Running pods per node
    a100         NVIDIA-A100-SXM4-80GB   nvidia_com_gpu             38  1 x 4 GPUs + 1 x 2 GPUs
    a100-mig     NVIDIA-A100-SXM4-80GB   nvidia_com_mig_1g_10gb      5  10 x 2 slices (MIG mixed)
    a100-single  ...-MIG-1g.10gb         nvidia_com_gpu              5  10 x 2 slices (MIG single)
    l40s         NVIDIA-L40S             nvidia_com_gpu_shared       5  8 x 2 replicas (time-sliced x 4)
    mi300        AMD_Instinct_MI300X_OAM amd_com_gpu                10  3 or 4 x 2 GPUs

251 long-running pods per cluster (5,020 in the fleet), tenants assigned round robin (50 tenants, each on every
cluster: 227 GPU-hour billing rows per cluster and hour), plus churn: on each NVIDIA pool a one-GPU job starts at
every push and runs 10 minutes under a new pod name (8 at a time per cluster, 1,152 pod names a day).

How it is measured: the pushes written as OpenMetrics in 2-hour files and imported with
``promtool tsdb create-blocks-from openmetrics`` (2-hour blocks; the server runs with a 2-hour maximum block
duration, so no compaction runs while rules are timed). The hub rules that read no pushed hourly rows, and the
settles of the pushed hourly series (recorded first: the billing and CCSP rules read them), are backfilled over the
last ``MEASURE_HOURS`` + 1 hours (:func:`_live_rules`), so a rule reading another rule's series finds it.
Then at each evaluation of each group over the last ``MEASURE_HOURS`` hours (every interval at the group's hashed
offset, ``rule_timing.group_eval_start``) the group's rules run in order as instant queries, timed (wall and the
server's CPU seconds): what the rule manager does per evaluation (prometheus/prometheus rules/manager.go in 2.42,
rules/group.go in 3.x: ``Group.Eval`` evaluates each rule at the evaluation time in order and appends its samples;
``prometheus_rule_group_last_duration_seconds`` is the wall time of that loop, ``setEvaluationTime``), plus the HTTP
round trip and JSON encoding of each answer (about 0.4 ms a query here), minus the append.
"""
from __future__ import annotations

import concurrent.futures
import functools
import json
import os
import shutil
import statistics
import subprocess
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import yaml

from benchmarks import fleet
from e2e import mco_sim, pipeline
from e2e.harness import Prometheus, group_eval_start
from gpudash.model import series as names
from gpudash.model.durations import parse_duration
from gpudash.ops.demo.prometheus import LEVEL_FILE
from gpudash.ops.mock.openmetrics import series_text
from gpudash.simulation.scenario import uid_of

CLUSTERS, GPUS, TENANTS, DAY_HOURS = 20, 500, 50, 24
MEASURE_HOURS = 0.5  # the day's last hours whose evaluations are timed
CHUNK = 7200  # seconds of pushes per OpenMetrics file / TSDB block
INTERVAL = 300  # billing.mco_interval of the e2e model (checked against the model)
PUSH_AT = 60  # seconds after each 5-minute mark a push is made: its federated samples (scraped up to 30 s before)
# stay in the push's 2-hour block, so promtool reads each file once
TOOLSETS = ("2",)  # ("2", "3"): also Prometheus 3.5.3 on the same blocks
HOURLY_LAGS = "-hourly"  # a variant's suffix: lagged rows pushed once an hour (rule_rows)
VARIANTS = ("24", "0")
QUICK = {"clusters": 2, "gpus": 50, "measure_hours": 0.5, "toolsets": ("2",)}  # run.py --quick
# name, product, ksm resource, nodes per 500 GPUs, GPUs per pod for each Running pod of a node (None: mi300's 3 or 4)
POOLS = (
    ("a100", "NVIDIA-A100-SXM4-80GB", "nvidia_com_gpu", 38, (4, 2)),
    ("a100-mig", "NVIDIA-A100-SXM4-80GB", "nvidia_com_mig_1g_10gb", 5, (2,) * 10),
    ("a100-single", "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb", "nvidia_com_gpu", 5, (2,) * 10),
    ("l40s", "NVIDIA-L40S", "nvidia_com_gpu_shared", 5, (2,) * 8),
    ("mi300", "AMD_Instinct_MI300X_OAM", "amd_com_gpu", 10, None),
)
JOB_MINUTES = 10  # a short job's life; one starts every push on each NVIDIA pool
KSM_NODE_RESOURCES = ("cpu", "memory", "pods", "ephemeral_storage", "hugepages_1Gi", "hugepages_2Mi")


def model(backfill: int, clusters: int = CLUSTERS, tenants: int = TENANTS):
    """The fleet model (e2e classes, prices and energy) with ``clusters`` clusters and ``backfill`` hours."""
    m = fleet.model(tenants, energy=True)
    m = replace(m, clusters=tuple(f"c{i:02d}" for i in range(clusters)),
                billing=replace(m.billing, backfill_hours=backfill))
    assert m.billing.mco_interval == INTERVAL
    return m


@functools.cache
def cluster_pods(gpus: int, tenants: int) -> list[dict]:
    """The long-running pods of one cluster: namespace, pod, node, product, resource, workload, gpus."""
    scale, pods = gpus / 500, []
    for pool, product, resource, nodes, per_node in POOLS:
        for n in range(max(1, round(nodes * scale))):
            for k, g in enumerate(per_node or (2,) * (3 + n % 2)):
                t = len(pods) % tenants
                kind = "StatefulSet" if k == 0 and pool == "a100" else "Deployment"
                pods.append({"namespace": f"tenant-{t:03d}", "pod": f"{pool}-{n}-run-{k}", "node": f"{pool}-{n:03d}",
                             "product": product, "resource": resource, "workload": f"w-{pool}-{t}",
                             "workload_type": kind, "gpus": g})
    return pods


@functools.cache
def nodes(gpus: int) -> list[tuple[str, str, str]]:
    """(node, product, ksm resource) of one cluster."""
    return [(f"{pool}-{n:03d}", product, resource) for pool, product, resource, count, _ in POOLS
            for n in range(max(1, round(count * gpus / 500)))]


def jobs(slot: int, tenants: int) -> list[dict]:
    """The short jobs running at push ``slot``: one started at each push of the last JOB_MINUTES on each NVIDIA
    pool, one GPU each, a new pod name each."""
    out = []
    for start in range(slot - JOB_MINUTES // 5 + 1, slot + 1):
        for pool, product, resource, _, _ in POOLS[:4]:
            t = (start * 7 + len(pool)) % tenants
            out.append({"namespace": f"tenant-{t:03d}", "pod": f"{pool}-job-{start}", "node": f"{pool}-000",
                        "product": product, "resource": resource, "workload": f"{pool}-job-{start}",
                        "workload_type": "Job", "gpus": 1})
    return out


@functools.cache
def _hour_rows(kind: str, hour: int, gpus: int, tenants: int) -> dict[tuple, float]:
    """One hourly rule's data rows for clock hour ``hour`` (index since the epoch) of one cluster: {labels: value}.
    The hour's jobs are the ones started in it (each JOB_MINUTES of one GPU)."""
    pods, node_list = cluster_pods(gpus, tenants), nodes(gpus)
    if kind == names.STEPS_OBSERVED:
        return {(): 60}
    if kind == names.NODE_ACTIVE_GPUS_MAX:
        return {(("active_from", names.FROM_ALLOCATION), ("node", n)): 8 - (hour + i) % 3
                for i, (n, _, _) in enumerate(node_list)}
    started = [j for s in range(hour * 12, hour * 12 + 12) for j in jobs(s, tenants) if j["pod"].endswith(f"-{s}")]
    out: dict[tuple, float] = {}
    for p in pods + started:
        share = p["gpus"] * (1 if "job" not in p["workload"] else JOB_MINUTES / 60)
        if kind == names.HOURLY_GPU_HOURS:
            key = (("namespace", p["namespace"]), ("product", p["product"]), ("resource", p["resource"]))
        else:  # energy (kWh), by namespace, plus the unallocated row
            key, share = (("namespace", p["namespace"]),), share * 0.55
        out[key] = out.get(key, 0.0) + share
    if kind == names.HOURLY_ENERGY:
        out[()] = 1.25 + hour % 5 * 0.1
    return out


HOURLY = (names.HOURLY_GPU_HOURS, names.NODE_ACTIVE_GPUS_MAX, names.HOURLY_ENERGY, names.STEPS_OBSERVED)


def _live_rows(record: str, slot: int, pods: list[dict], tenants: int) -> dict[tuple, float]:
    """The rows of a rule evaluated at the push (not hourly)."""
    running = pods + jobs(slot, tenants)
    if record == names.POD_ALLOCATED:
        return {tuple((k, p[k]) for k in names.labels(record) if k != "cluster"): p["gpus"] for p in running}
    if record in (names.POD_ACTIVITY_MAX, names.POD_ACTIVITY_AVG, names.POD_POWER_MAX):
        return {tuple((k, p.get(k, p["product"])) for k in names.labels(record) if k != "cluster"):
                (slot + i) % 97 / 100 for i, p in enumerate(running)}
    if record == names.BILLED_HOUR:
        return {(): (slot * INTERVAL // 3600 - 1) * 3600}
    return {}  # cluster_input_node:gpudash_input_missing:count and the like: no row on a healthy cluster


def rule_rows(record: str, slot: int, backfill: int, gpus: int, tenants: int, hourly: bool = False
              ) -> dict[tuple, float]:
    """What the collector pushes for allowlist rule ``record`` at push ``slot``: its rows without ``cluster``.
    ``hourly``: the design alternative of issue #45 where the lagged rows are pushed by the first push of each clock
    hour only (the spoke rule gated on ``time() % 3600 < mco_interval``), not by all twelve."""
    if record not in HOURLY:
        return _live_rows(record, slot, cluster_pods(gpus, tenants), tenants)
    if hourly and backfill and slot % (3600 // INTERVAL):
        return {}
    hour_now = slot * INTERVAL // 3600
    out: dict[tuple, float] = {}
    for lag in range(1, backfill + 2) if backfill else (None,):
        tag = () if lag is None else ((names.LAG_LABEL, str(lag)),)
        rows = dict(_hour_rows(record, hour_now - (lag or 1), gpus, tenants))
        if names.SERIES[record].sentinel:
            rows[((names.SENTINEL_LABEL, "1"),)] = 0
        out.update({tuple(sorted(k + tag)): v for k, v in rows.items()})
    return out


def name_rows(name: str, slot: int, pods, node_list, tenants: int) -> dict[tuple, float]:
    """The federated allowlist ``names`` of one cluster at a push (the kube-state-metrics and exporter series the
    hub's alerts read), as a real cluster of this shape exposes them; other names: none."""
    running, ksm = pods + jobs(slot, tenants), (("instance", "10.128.2.7:8443"), ("job", "kube-state-metrics"))
    if name == "kube_pod_container_resource_requests":
        return {(("container", "main"), *ksm, ("namespace", p["namespace"]), ("node", p["node"]), ("pod", p["pod"]),
                 ("resource", r), ("uid", uid_of("pod", p["pod"])), ("unit", u)): v
                for p in running for r, u, v in ((p["resource"], "integer", p["gpus"]), ("cpu", "core", 4),
                                                 ("memory", "byte", 2 ** 34))}
    if name in ("kube_node_status_allocatable", "kube_node_status_capacity"):
        return {(*ksm, ("node", n), ("resource", r), ("unit", "integer")): 8
                for n, _, res in node_list for r in (*KSM_NODE_RESOURCES, res)}
    if name == "kube_resourcequota":
        return {(*ksm, ("namespace", f"tenant-{t:03d}"), ("resource", "requests.nvidia.com/gpu"),
                 ("resourcequota", "gpu"), ("type", kind)): 16 for t in range(tenants) for kind in ("hard", "used")}
    if name == "up":
        return {(("instance", f"{n}:{port}"), ("job", job)): 1 for n, _, _ in node_list
                for job, port in (("node-exporter", 9100), ("kubelet", 10250), ("gpu-exporter", 9400))}
    if name == "DCGM_FI_DEV_XID_ERRORS":
        return {(("DCGM_FI_DRIVER_VERSION", "550.90.07"), ("Hostname", n), ("UUID", uid_of("gpu", f"{n}/{g}")),
                 ("device", f"nvidia{g}"), ("gpu", str(g)), ("instance", f"{n}:9400"), ("job", "nvidia-dcgm-exporter"),
                 ("modelName", product)): 0
                for n, product, _ in node_list if not product.startswith("AMD") for g in range(8)}
    return {}


def _family_rows(family: str, slot: int, backfill: int, shape: tuple, cache: dict) -> dict[tuple, float]:
    """The rows of ``family`` at push ``slot`` (the same on every cluster: the clusters share one shape)."""
    key = (family, slot)
    if key not in cache:
        gpus, tenants, rules, hourly = shape
        cache[key] = (rule_rows(family, slot, backfill, gpus, tenants, hourly) if family in rules
                      else name_rows(family, slot, cluster_pods(gpus, tenants), nodes(gpus), tenants))
    return cache[key]


def write_chunk(job: tuple) -> tuple[int, float]:
    """One OpenMetrics file of pushes (slots ``first`` to ``last`` - 1 of every cluster) imported by promtool into
    ``outdir`` and deleted: (samples, seconds of promtool)."""
    path, outdir, promtool, first, last, (backfill, hourly), rules, allowed, clusters, gpus, tenants = job
    shape = (gpus, tenants, set(rules), hourly)
    cache: dict = {}
    samples = 0
    with open(path, "w") as f:
        for family in sorted({*rules, *allowed}):
            lag = 0 if family in rules else 17  # federated samples keep their scrape time, before the push
            lag -= PUSH_AT
            by_series: dict[tuple, list[str]] = {}
            for slot in range(first, last):
                stamp = f" {slot * INTERVAL - lag}\n"
                for key, v in _family_rows(family, slot, backfill, shape, cache).items():
                    by_series.setdefault(key, []).append(f"{v!r}{stamp}" if isinstance(v, float) else f"{v}{stamp}")
            if not by_series:
                continue
            f.write(f"# TYPE {family} gauge\n")
            for c in clusters:
                extra = (("cluster", c), ("clusterID", uid_of("cluster", c)))
                for key, values in by_series.items():
                    prefix = series_text((("__name__", family), *key, *extra)) + " "
                    f.writelines(prefix + v for v in values)
                    samples += len(values)
        f.write("# EOF\n")
    t0 = time.perf_counter()
    r = subprocess.run([promtool, "tsdb", "create-blocks-from", "openmetrics", "-q", f"--max-block-duration={CHUNK}s",
                        str(path), str(outdir)], capture_output=True, text=True)
    os.unlink(path)
    if r.returncode:
        raise RuntimeError(f"promtool openmetrics {path}: {r.stderr.strip()[-2000:]}")
    return samples, time.perf_counter() - t0


def load(hub: Prometheus, work: Path, end: int, backfill: tuple[int, bool], allow: mco_sim.Allowlist, clusters: int,
         gpus: int, tenants: int, log) -> dict:
    """A day of pushes ending at ``end`` (a push time, on a chunk boundary) into ``hub`` (stopped), in CHUNK files
    written and imported two at a time; the server started on them."""
    rules = tuple(r for r, _ in allow.recording_rules)
    names_ = tuple(n for n in allow.names)
    first = (end - DAY_HOURS * 3600) // INTERVAL
    staging = work / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    per = CHUNK // INTERVAL
    jobs_ = [(staging / f"{s}.om", staging / f"blocks-{s}", hub.promtool, s, min(s + per, end // INTERVAL + 1),
              backfill, rules, names_, [f"c{i:02d}" for i in range(clusters)], gpus, tenants)
             for s in range(first, end // INTERVAL + 1, per)]
    t0 = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        done = list(pool.map(write_chunk, jobs_))
    seconds = time.perf_counter() - t0
    hub.stop()
    for block in list(staging.rglob("meta.json")):
        shutil.move(str(block.parent), hub.data / block.parent.name)
    shutil.rmtree(staging)
    hub.start()
    samples = sum(s for s, _ in done)
    log(f"hub-day: {samples:,} samples pushed in {len(jobs_)} files, written and imported in {seconds:.0f} s")
    return {"samples": samples, "load_seconds": round(seconds, 1), "pushes_per_cluster": end // INTERVAL + 1 - first,
            "promtool_seconds": round(sum(p for _, p in done), 1)}


def _status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in MB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            out[line.split(":")[0]] = int(line.split()[1]) // 1024
    return out


def _cpu(pid: int) -> float:
    """User + system CPU seconds of a process so far (/proc/PID/stat fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _head_series(hub: Prometheus) -> int:
    """The server's active head series (GET /api/v1/status/tsdb)."""
    with urllib.request.urlopen(f"{hub.url}/api/v1/status/tsdb", timeout=60) as r:
        return int(json.load(r)["data"]["headStats"]["numSeries"])


def time_groups(hub: Prometheus, rules_file: Path, start: float, end: float, encoding: str, log) -> list[dict]:
    """Each group of ``rules_file`` run as the rule manager would at each of its evaluations in [start, end): its
    rules' instant queries in order, timed; per group the median and largest evaluation and its slowest rule.
    ``encoding``: the label hashing of the server that backfilled the rules, which placed their evaluations."""
    out = []
    for g in yaml.safe_load(rules_file.read_text())["groups"]:
        interval = parse_duration(g["interval"])
        te = group_eval_start(g["name"], interval, start, LEVEL_FILE, encoding)
        evals, cpu, per_rule = [], [], {}
        rules = [r for r in g["rules"] if "record" in r]
        while te < end:
            total, cpu0, series = 0.0, _cpu(hub.proc.pid), 0
            for i, r in enumerate(rules):
                t0 = time.perf_counter()
                series += len(hub.query(r["expr"], te))
                dt = time.perf_counter() - t0
                total += dt
                per_rule.setdefault(i, []).append(dt)
            evals.append(total)
            cpu.append(_cpu(hub.proc.pid) - cpu0)
            te += interval
        slow = max(per_rule, key=lambda i: statistics.median(per_rule[i]))
        out.append({"group": g["name"], "interval": interval, "rules": len(rules), "evaluations": len(evals),
                    "median": round(statistics.median(evals), 3), "max": round(max(evals), 3),
                    "cpu_median": round(statistics.median(cpu), 3), "cpu_max": round(max(cpu), 3), "series": series,
                    "slowest_rule": rules[slow]["record"], "slowest_rule_median": round(
                        statistics.median(per_rule[slow]), 3),
                    "rule_medians": {f"{i} {r['record']}": round(statistics.median(per_rule[i]), 3)
                                     for i, r in enumerate(rules)}})
        log(f"hub-day: {g['name']}: median {out[-1]['median']} s, max {out[-1]['max']} s over {len(evals)}")
    return out


def _live_rules(rules_file: Path, work: Path) -> Path:
    """The hub rules the timed ones read: those that read no pushed hourly series (the model table, burn rates,
    period-to-date, idle) and the settle of each pushed hourly series (``names.SETTLED``), which the billing and
    CCSP rules read at each evaluation (gpudash.render.rules.hub ``_pushed``), so their timed queries find it as
    the rule manager would. Rules that read other rules cannot be backfilled in one pass (prometheus/prometheus
    docs/storage.md, "Backfilling for Recording Rules", Limitations: "Rules in the same group cannot see the results
    of previous rules"): ``backfill_rules`` records each dependency level before the next, the settles first. The
    rules that read the settles are left out (a range query of each would cost its instant cost at every step); only
    period-to-date reads one of their series, so it sees none of the hub's hourly cost (a month of it in steady
    state)."""
    groups = yaml.safe_load(rules_file.read_text())["groups"]
    settles = set(names.SETTLED.values())
    kept = [{**g, "rules": [r for r in g["rules"] if r.get("record") in settles
                            or not any(h in r.get("expr", "") for h in (*HOURLY, *settles))]} for g in groups]
    out = work / "live.rules.yaml"
    out.write_text(yaml.safe_dump({"groups": [g for g in kept if g["rules"]]}, sort_keys=False, width=1 << 20))
    return out


def measure_one(work: Path, variant: str, toolsets, clusters: int, gpus: int, tenants: int, measure_hours: float,
                log) -> list[dict]:
    """A day of pushes with ``backfill`` hours in one data directory, the hub rules backfilled over the last
    ``measure_hours`` + 1 hours, then each toolset's server started afresh on it and the hub groups timed."""
    backfill, hourly = int(variant.split("-")[0]), variant.endswith(HOURLY_LAGS)
    m = model(backfill, clusters, tenants)
    rendered = pipeline.render(m, work / "rendered", rules_only=True)
    allow = mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE)
    rules_file = rendered / mco_sim.HUB_RULES_FILE
    end = int(time.time()) // CHUNK * CHUNK - CHUNK  # a push time on a block boundary, in the past
    args = [f"--storage.tsdb.max-block-duration={CHUNK // 3600}h"]
    hubs = [Prometheus(work / "hub", args=args, toolset=ts) for ts in toolsets]
    first, runs = end - measure_hours * 3600, []
    try:
        loaded = load(hubs[0], work, end, (backfill, hourly), allow, clusters, gpus, tenants, log)
        t0 = time.perf_counter()
        hubs[0].backfill_rules([_live_rules(rules_file, work)], first - 3600, end + INTERVAL, method="query")
        rules_s = time.perf_counter() - t0
        log(f"hub-day: hub rules backfilled in {rules_s:.0f} s")
        hubs[0].stop()
        for hub in hubs:
            hub.start()  # afresh: its peak RSS is the start and the evaluations
            groups = time_groups(hub, rules_file, first, end + INTERVAL, hubs[0].binaries.labels_encoding, log)
            memory = _status(hub.proc.pid)
            runs.append({"backfill_hours": backfill, "variant": variant, "version": hub.toolset.server_version,
                         **loaded, "rules_backfill_seconds": round(rules_s, 1), "groups": groups,
                         "active_series": int(hub.query('count({__name__=~".+"})', end)[0][1]),
                         "series_2h": int(hub.query('count(last_over_time({__name__=~".+"}[2h]))', end)[0][1]),
                         "head_series": _head_series(hub), "rss_mb": memory.get("VmRSS"),
                         "peak_rss_mb": memory.get("VmHWM"), "measured_hours": measure_hours})
            hub.stop()
        return runs
    finally:
        for hub in hubs:
            hub.stop()
        shutil.rmtree(work, ignore_errors=True)


def measure(work: Path, log=print, clusters: int = CLUSTERS, gpus: int = GPUS, tenants: int = TENANTS,
            measure_hours: float = MEASURE_HOURS, toolsets=TOOLSETS, variants=VARIANTS) -> dict:
    """``variants``: "24", "0" (``billing.backfill_hours``), "24-hourly" (24, the lagged rows pushed once an hour)."""
    t0 = time.monotonic()
    runs = [r for v in variants
            for r in measure_one(work / f"hub-{v}", v, toolsets, clusters, gpus, tenants, measure_hours, log)]
    return {"clusters": clusters, "gpus": gpus, "tenants": tenants, "runs": runs,
            "pods_per_cluster": len(cluster_pods(gpus, tenants)), "nodes_per_cluster": len(nodes(gpus)),
            "seconds": round(time.monotonic() - t0, 1)}


def _variant(run: dict) -> str:
    hourly = run.get("variant", "").endswith(HOURLY_LAGS)
    return f"{run['backfill_hours']}" + (", lagged rows once an hour" if hourly else "")


def summary(sec: dict) -> list[str]:
    """The summary table's row: each variant's slowest hub group per evaluation."""
    parts = []
    for r in sec["runs"]:
        g = max(r["groups"], key=lambda g: g["cpu_median"])
        parts.append(f"{r['version'].split('+')[0]}, backfill {_variant(r)}: `{g['group']}` {g['cpu_median']:.1f} s "
                     f"CPU ({g['max']:.1f} s wall at most) per {g['interval']:.0f} s")
    return [f"| Hub rules over a day of pushes, {sec['clusters']} clusters x {sec['gpus']} GPUs: slowest group per "
            f"evaluation | {'; '.join(parts)} |"]


def markdown(sec: dict) -> list[str]:
    meta = sec["meta"]
    out = ["## 8. Hub cost over a day of pushes at fleet scale", "",
           f"_Ran {meta.get('when', '')} on commit {meta.get('commit', '?')}, `{meta.get('command', '')}`, "
           f"{meta['seconds']:.0f} s of machine time, load average {meta['load_before']:.1f} before / "
           f"{meta['load_after']:.1f} after (2 cores: above 2, other work competed for the CPU)._", "",
           f"{sec['clusters']} clusters of {sec['gpus']} GPUs ({sec['nodes_per_cluster']} nodes, "
           f"{sec['pods_per_cluster']} long-running pods and 8 short jobs at a time each, {sec['tenants']} tenants "
           f"on every cluster; `benchmarks/hub_day.py` gives the shape) push every 5 minutes for {DAY_HOURS} "
           "hours into one hub Prometheus (promtool blocks); the rendered hub rules then run as the rule manager "
           "runs them, at each evaluation of each group over the day's last "
           f"{60 * sec['runs'][0]['measured_hours']:.0f} minutes (instant queries in order, HTTP included). Wall "
           "seconds are the load's; the server's CPU seconds per evaluation are the comparable figure.", "",
           "| Prometheus | backfill_hours | samples pushed | series pushed per interval | series of the last 2 h "
           "| peak RSS MB |", "|---|---:|---:|---:|---:|---:|"]
    for r in sec["runs"]:
        out.append(f"| {r['version']} | {_variant(r)} | {r['samples']:,} | {r['active_series']:,} | "
                   f"{r['series_2h']:,} | {r['peak_rss_mb']:,} |")
    out += ["", "| Prometheus | backfill_hours | group | interval | evaluations | wall s median / max | CPU s median "
            "/ max | max wall / interval | slowest rule (median wall s) |",
            "|---|---:|---|---:|---:|---:|---:|---:|---|"]
    for r in sec["runs"]:
        for g in r["groups"]:
            out.append(f"| {r['version']} | {_variant(r)} | `{g['group']}` | {g['interval']:.0f} s | "
                       f"{g['evaluations']} | {g['median']:.2f} / {g['max']:.2f} | {g['cpu_median']:.2f} / "
                       f"{g['cpu_max']:.2f} | {g['max'] / g['interval']:.1%} | `{g['slowest_rule']}` "
                       f"({g['slowest_rule_median']:.2f}) |")
    return [*out, ""]

"""gpudash benchmarks: billing accuracy against naive methods, render scale, rule cost at fleet scale, and
tenant dashboard queries from recorded versus raw series. Not part of the test suite.

    python benchmarks/run.py                       # everything, writes benchmarks/RESULTS.md and results.json
    python benchmarks/run.py --only accuracy,fleet --fleet-gpus 2000 --fleet-pods 1000

Every figure comes from a real Prometheus (Debian 2.42) started by e2e.harness on 127.0.0.1 and from the
independent reference model (gpudash.golden.reference). Machine: whatever runs it; the figures in RESULTS.md
say which.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from e2e import mco_sim, pipeline  # noqa: E402
from e2e.harness import Prometheus  # noqa: E402
from gpudash.mock.openmetrics import FamilyBuffer  # noqa: E402
from gpudash.rules import names  # noqa: E402
from gpudash.sources.kube_state_metrics import GPU_RESOURCE_REGEX  # noqa: E402

HOUR, DAY = 60, 1440
STARTED: list[Prometheus] = []  # every server this run starts, stopped by PID at the end whatever happens


def _tracked(cls):
    def start(self, _orig=cls.start):
        if self not in STARTED:
            STARTED.append(self)
        return _orig(self)
    cls.start = start


_tracked(Prometheus)


def timed(fn, *args, repeat: int = 1, **kw):
    best, out = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(*args, **kw)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return out, best


# --- 1. accuracy -------------------------------------------------------------------------------------------------
def accuracy(work: Path, lost: float = 0.01) -> dict:
    """The e2e month (2 clusters, 32 days, scrape gaps) through the simulated ACM push path with ``lost`` of the
    pushes of each cluster lost at random; per tenant GPU-hours by gpudash, by the reference model, and by two
    naive methods."""
    model, mock = pipeline.load()
    rendered = pipeline.render(model, work / "rendered", rules_only=True)
    blocks, built = pipeline.cached_blocks(work / "cache", model, mock)
    spokes = {c: pipeline.prometheus_with_blocks(work / f"spoke-{c}", blocks[c]) for c in mock.scenario.clusters}
    start, end = mock.start, mock.at(mock.scenario.duration)
    allow = mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE)
    rng = random.Random(1)
    n_push = mock.scenario.duration // 5 + 1
    cols = [mco_sim.Collector(spokes[c], c, allow, model.billing.mco_interval,
                              lost=sorted(k for k in range(n_push) if rng.random() < lost))
            for c in mock.scenario.clusters]
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        logs = list(pool.map(lambda c: c.collect(start, end), cols))
    collect_s = time.perf_counter() - t0
    # naive A, OpenCost-style: average requested GPUs of every request series x the time it existed, no phase
    # filter (Pending, Succeeded and Failed pods count), init containers ignored.
    naive_a: dict[tuple, float] = {}
    sel = f'kube_pod_container_resource_requests{{job="kube-state-metrics",resource=~"{GPU_RESOURCE_REGEX}"}}'
    for c, spoke in spokes.items():
        rows = spoke.query(f"sum by (namespace) (avg_over_time({sel}[32d1m]) * count_over_time({sel}[32d1m]))"
                           f" * 60 / 3600", end)
        for labels, v in rows:
            naive_a[(c, dict(labels)["namespace"])] = v
        spoke.stop()
    hub = Prometheus(work / "hub")
    hub.backfill_openmetrics(mco_sim.write_pushes(logs, work / "pushed"))
    hub.backfill_rules([rendered / mco_sim.HUB_RULES_FILE], start, end, method="query")
    # naive B: the hub's 5-minute snapshots of allocation, each counted as 5 minutes.
    naive_b = {(dict(lb)["cluster"], dict(lb)["namespace"]): v for lb, v in hub.query(
        f"sum by (cluster, namespace) (sum_over_time({names.POD_ALLOCATED}[32d1m])) * 300 / 3600", end)}
    hours = range(0, mock.scenario.duration // 60 - 2)
    got = pipeline.hourly_by_range(hub, f"last_over_time({names.HOUR_GPU_HOURS}[1h] offset 1ms)", mock, hours,
                                   ("cluster", "namespace"))
    cost = pipeline.hourly_by_range(hub, f"last_over_time({names.HOUR_COST}[1h] offset 1ms)", mock, hours,
                                    ("cluster", "namespace"))
    # usage on products the model does not price is its own series (reported, never free): counted here too
    unpriced = pipeline.hourly_by_range(hub, f"last_over_time({names.UNPRICED_GPU_HOURS}[1h] offset 1ms)", mock,
                                        hours, ("cluster", "namespace"))
    hub.stop()
    refs = pipeline.references(model, mock)
    lines: dict[tuple, dict] = {}

    def line(key):
        return lines.setdefault(key, {"reference": 0.0, "gpudash": 0.0, "reference_cost": 0.0, "gpudash_cost": 0.0,
                                      "naive_avg_requests": 0.0, "naive_5m_snapshots": 0.0})
    for h in hours:
        for c, ref in refs.items():
            for (_, ns, _, _), (gh, cst) in ref.billing(h).items():
                line((c, ns))["reference"] += gh
                line((c, ns))["reference_cost"] += cst
            for (_, ns, _, _), gh in ref.unpriced(h).items():
                line((c, ns))["reference"] += gh
        for k, v in got[h].items():
            line(k)["gpudash"] += v
        for k, v in unpriced[h].items():
            line(k)["gpudash"] += v
        for k, v in cost[h].items():
            line(k)["gpudash_cost"] += v
    for k, v in naive_a.items():
        line(k)["naive_avg_requests"] = v
    for k, v in naive_b.items():
        line(k)["naive_5m_snapshots"] = v
    return {"lines": {f"{c}/{ns}": v for (c, ns), v in sorted(lines.items())}, "lost_pushes": lost,
            "pushes": sum(len(lg.pushes) for lg in logs), "pushes_lost": sum(len(lg.lost) for lg in logs),
            "collector_seconds": round(collect_s, 1), "history": built}


# --- 2. render scale ---------------------------------------------------------------------------------------------
def render_scale(work: Path, counts) -> list[dict]:
    raw = yaml.safe_load(pipeline.MODEL.read_text())
    out = []
    for n in counts:
        raw["tenants"] = [{"name": f"t{i:05d}", "namespace": f"tenant-{i:05d}", "budget": 1000 + i,
                           "alert_at": [0.5, 0.9, 1.0]} for i in range(n)]
        path = work / f"model-{n}.yaml"
        path.write_text(yaml.safe_dump(raw))
        code = ("import resource, runpy, sys\nsys.argv = ['gpudash', 'render', '-c', sys.argv[1], '-o', sys.argv[2]]\n"
                "try:\n    runpy.run_module('gpudash', run_name='__main__')\nexcept SystemExit as e:\n"
                "    rc = e.code\nprint('MAXRSS_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")
        t0 = time.perf_counter()
        try:
            r = subprocess.run([sys.executable, "-c", code, str(path), str(work / f"out-{n}")], capture_output=True,
                               text=True, timeout=900, cwd=ROOT)
        except subprocess.TimeoutExpired:
            out.append({"tenants": n, "error": "timeout after 900 s"})
            continue
        wall = time.perf_counter() - t0
        rss = next((int(x.split()[1]) for x in r.stdout.splitlines() if x.startswith("MAXRSS_KB")), None)
        files = sum(1 for p in (work / f"out-{n}").rglob("*") if p.is_file())
        row = {"tenants": n, "seconds": round(wall, 2), "peak_rss_mb": round(rss / 1024, 1) if rss else None,
               "files": files}
        if "wrote" not in r.stdout + r.stderr:
            row["error"] = (r.stderr or r.stdout).strip().splitlines()[-1:]
        out.append(row)
        shutil.rmtree(work / f"out-{n}", ignore_errors=True)
    return out


# --- 3. fleet: rule cost and series pushed ----------------------------------------------------------------------
def fleet(work: Path, gpus: int, pods: int) -> dict:
    """A fleet of ``gpus`` A100s (8 per node) with ``pods`` Running pods sharing them: 2 hours of
    kube-state-metrics history from the mock, 10 minutes of DCGM series, in a real Prometheus; each spoke rule
    evaluated as the collector does (an instant query), and the series that would be pushed counted against
    shipping the raw series."""
    from gpudash.mock import config
    from gpudash.mock.history import write_history
    from gpudash.model import load_model

    model = load_model(pipeline.MODEL)
    nodes = gpus // 8
    per_pod = max(1, gpus // pods)
    raw = {"start": "2026-10-01T00:00:00Z", "duration": "2h10m",
           "node_pools": [{"name": "a100", "class": "a100-80gb", "nodes": nodes, "gpus": 8}],
           "workload": [{"name": "job", "tenant": i % 3, "pool": "a100", "node": i * per_pod // 8,
                         "owner": {"kind": "Deployment" if i % 2 else "Job", "name": f"w{i // 4}"},
                         "containers": [{"name": "main", "requests": {"gpu": per_pod}}],
                         "lifecycle": [{"at": "0m", "phase": "Running"}]} for i in range(pods)]}
    for i, w in enumerate(raw["workload"]):
        w["name"] = f"pod-{i:05d}"
    t0 = time.perf_counter()
    mock = config.compile_mock(raw, model)
    stats = write_history(mock, model, work / "om", jobs=("ksm",))
    # DCGM: the golden exporter exposition is O(GPUs x pods); at this scale write it directly, same labels.
    end = mock.at(mock.scenario.duration)
    dcgm = FamilyBuffer()
    times = [end - 60 * k for k in range(10, -1, -1)]
    for i in range(pods):
        node, first = divmod(i * per_pod, 8)
        for g in range(first, first + per_pod):
            base = (("Hostname", f"a100-{node}"), ("UUID", f"GPU-{node:05d}-{g}"), ("device", f"nvidia{g}"),
                    ("exported_container", "main"), ("exported_namespace", model.tenants[i % 3].namespace),
                    ("exported_pod", f"pod-{i:05d}"), ("gpu", str(g)), ("instance", f"a100-{node}:9400"),
                    ("job", model.sources.dcgm_job), ("modelName", "NVIDIA A100-SXM4-80GB"))
            for metric, v in (("DCGM_FI_PROF_GR_ENGINE_ACTIVE", 0.6), ("DCGM_FI_DEV_GPU_UTIL", 60),
                              ("DCGM_FI_DEV_FB_USED", 40000), ("DCGM_FI_DEV_FB_FREE", 41920),
                              ("DCGM_FI_DEV_POWER_USAGE", 300)):
                dcgm.add_run(tuple(sorted((("__name__", metric), *base))), v, times)
    dcgm.write(work / "om" / "dcgm.om")
    gen_s = time.perf_counter() - t0
    prom = Prometheus(work / "fleet")
    files = sorted((work / "om").rglob("*.om"))
    _, import_s = timed(prom.backfill_openmetrics, files)
    rendered = pipeline.render(model, work / "rendered", rules_only=True)
    allow = mco_sim.decode_allowlist(rendered / mco_sim.ALLOWLIST_FILE)
    t = mock.at(2 * 60 + 5)
    rules = []
    for record, query in allow.recording_rules:
        rows, secs = timed(prom.query, query, t, repeat=3)
        rules.append({"record": record, "seconds": round(secs, 3), "series": len(rows)})
    naive_sel = ('{__name__=~"kube_pod_container_resource_requests|kube_pod_init_container_resource_requests|'
                 'kube_pod_status_phase|kube_pod_owner|kube_replicaset_owner|kube_node_labels|DCGM_FI_.*"}')
    naive = int(prom.query(f"count({naive_sel})", t)[0][1])
    raw_samples = int(prom.query("count({__name__=~'.+'})", t)[0][1])
    prom.stop()
    shutil.rmtree(work / "om", ignore_errors=True)
    return {"gpus": gpus, "pods": pods, "nodes": nodes, "history_samples": stats.samples + dcgm.samples,
            "generate_seconds": round(gen_s, 1), "import_seconds": round(import_s, 1), "rules": rules,
            "group_seconds": round(sum(r["seconds"] for r in rules), 3),
            "pushed_series_per_interval": sum(r["series"] for r in rules), "naive_series_per_interval": naive,
            "all_raw_series": raw_samples}


# --- 4. tenant dashboard: recorded versus raw --------------------------------------------------------------------
def dashboard(work: Path) -> dict:
    """The month's hourly GPU-hours of one tenant (a dashboard's main panel), from the recorded hourly series
    versus integrated from raw kube-state-metrics series, on the single-cluster Prometheus of the e2e month."""
    from gpudash.rules.spoke import allocation

    model, mock = pipeline.load()
    rendered = pipeline.render(model, work / "rendered", rules_only=True)
    blocks, _ = pipeline.cached_blocks(work / "cache", model, mock)
    prom = pipeline.prometheus_with_blocks(work / "dash", blocks[mock.scenario.clusters[0]])
    start, end = mock.start, mock.at(mock.scenario.duration)
    prom.backfill_rules([rendered / "rules/gpudash-spoke.rules.yaml", rendered / "rules/gpudash-hub.rules.yaml"],
                        start, end, method="query")
    ns = model.tenants[0].namespace
    a, b = start + 2 * 3600, end - 3600
    recorded = f'sum(last_over_time({names.HOUR_GPU_HOURS}{{namespace="{ns}"}}[1h] offset 1ms))'
    only_ns = f'label_replace(vector(1), "namespace", "{ns}", "", "")'
    raw = (f"sum(sum_over_time((sum by (namespace) ({allocation(model)}) and on (namespace) {only_ns})"
           f"[1h:1m] offset 1ms)) * 60 / 3600")
    rec_rows, rec_s = timed(prom.query_range, recorded, a, b, 3600, repeat=3)
    raw_rows, raw_s = timed(prom.query_range, raw, a, b, 3600, repeat=1)
    ptd, ptd_s = timed(prom.query, f'{names.TENANT_COST_PTD}{{namespace="{ns}"}}', end - 600, repeat=3)
    prom.stop()
    return {"tenant": ns, "hours": int((b - a) / 3600) + 1, "recorded_seconds": round(rec_s, 3),
            "raw_seconds": round(raw_s, 3), "speedup": round(raw_s / rec_s, 1) if rec_s else None,
            "period_to_date_seconds": round(ptd_s, 4), "recorded_points": sum(len(s) for _, s in rec_rows),
            "raw_points": sum(len(s) for _, s in raw_rows)}


# --- report ------------------------------------------------------------------------------------------------------
def write_markdown(res: dict, path: Path) -> None:
    out = ["# gpudash benchmarks", "",
           f"Run {res['when']} on {res['machine']} with {res['prometheus']}. Reproduce: `{res['command']}` "
           f"({res['total_seconds']:.0f} s of machine time in all; the test suite does not run this).", ""]
    if "accuracy" in res:
        acc = res["accuracy"]
        out += ["## Billing accuracy under faults (month, 2 clusters, ACM push path)", "",
                f"The e2e month (`e2e/data/month.mock.yaml`: 32 days, whole GPUs, MIG, time-slicing, AMD, "
                f"{acc['history'].get('samples', '?'):,} raw samples, ~470 short jobs) with two "
                f"kube-state-metrics scrape gaps, through the simulated metrics-collector with "
                f"{acc['pushes_lost']} of {acc['pushes']} pushes ({acc['lost_pushes']:.0%}) lost at random. "
                "GPU-hours per billing line (cluster/namespace, all classes and unpriced usage) over hours 0 to 765; "
                "error relative "
                "to the reference model.", "",
                "| line | reference GPU-h | gpudash | error | naive avg requests (OpenCost-style) | error | "
                "naive 5-min snapshots | error |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
        tot = {"reference": 0.0, "gpudash": 0.0, "naive_avg_requests": 0.0, "naive_5m_snapshots": 0.0}

        def err(x, r):
            return f"{(x - r) / r:+.2%}" if r else ("0" if not x else "n/a")
        for k, v in acc["lines"].items():
            for m in tot:
                tot[m] += v[m]
            out.append(f"| {k} | {v['reference']:.2f} | {v['gpudash']:.2f} | {err(v['gpudash'], v['reference'])} | "
                       f"{v['naive_avg_requests']:.2f} | {err(v['naive_avg_requests'], v['reference'])} | "
                       f"{v['naive_5m_snapshots']:.2f} | {err(v['naive_5m_snapshots'], v['reference'])} |")
        out.append(f"| **total** | {tot['reference']:.2f} | {tot['gpudash']:.2f} | "
                   f"{err(tot['gpudash'], tot['reference'])} | {tot['naive_avg_requests']:.2f} | "
                   f"{err(tot['naive_avg_requests'], tot['reference'])} | "
                   f"{tot['naive_5m_snapshots']:.2f} | {err(tot['naive_5m_snapshots'], tot['reference'])} |")
        cost_ref = sum(v["reference_cost"] for v in acc["lines"].values())
        cost_got = sum(v["gpudash_cost"] for v in acc["lines"].values())
        out += ["", f"Cost: reference {cost_ref:.2f}, gpudash {cost_got:.2f} ({err(cost_got, cost_ref)}). "
                "gpudash's column adds its separate unpriced series (the T4 pod of `prod-east/team-alpha`) to the "
                "priced GPU-hours, as the reference does.",
                "Naive avg-requests bills Pending, Succeeded-but-not-deleted and Failed pods and ignores init "
                "containers; 5-minute snapshots miss short jobs between pushes and lose the lost pushes' time.", ""]
    if "scale" in res:
        out += ["## Render time and peak memory by number of tenants", "",
                "`python -m gpudash render` of the e2e model with N tenants (3 GPU classes, 2 clusters), in a fresh "
                "process: wall time including Python start-up, and peak RSS.", "",
                "| tenants | seconds | peak RSS MB | files | note |", "|---:|---:|---:|---:|---|"]
        for r in res["scale"]:
            out.append(f"| {r['tenants']} | {r.get('seconds', '')} | {r.get('peak_rss_mb', '')} | {r.get('files', '')}"
                       f" | {r.get('error', '')} |")
        out.append("")
    if "fleet" in res:
        f = res["fleet"]
        out += [f"## Fleet: {f['gpus']:,} GPUs, {f['pods']:,} pods in one Prometheus", "",
                f"{f['nodes']} A100 nodes x 8 GPUs, every pod Running with {f['gpus'] // f['pods']} GPU(s); 2 h 10 min "
                f"of kube-state-metrics history and 10 min of DCGM series ({f['history_samples']:,} samples, "
                f"generated in {f['generate_seconds']} s, imported in {f['import_seconds']} s). Each spoke rule "
                "evaluated as ACM's metrics-collector does it (an instant query; best of 3):", "",
                "| spoke rule | seconds | series pushed |", "|---|---:|---:|"]
        for r in f["rules"]:
            out.append(f"| `{r['record']}` | {r['seconds']} | {r['series']:,} |")
        out += [f"| **group** | **{f['group_seconds']}** | **{f['pushed_series_per_interval']:,}** |", "",
                f"Naive alternative, shipping the raw kube-state-metrics (requests, phases, owners, node labels) "
                f"and DCGM series: **{f['naive_series_per_interval']:,} series per push** (x "
                f"{f['naive_series_per_interval'] / max(1, f['pushed_series_per_interval']):.1f}), and the hub "
                "would then have to integrate a month of them at query time.", ""]
    if "dashboard" in res:
        d = res["dashboard"]
        out += ["## Tenant dashboard: recorded versus raw", "",
                f"Hourly GPU-hours of `{d['tenant']}` over the month ({d['hours']} points), on the single-cluster "
                "Prometheus of the e2e month:", "",
                f"- from the recorded hourly series: **{d['recorded_seconds']} s** (best of 3)",
                f"- the same question integrated from raw kube-state-metrics series (the spoke allocation "
                f"expression, 1-minute steps): **{d['raw_seconds']} s** ({d['speedup']}x slower)",
                f"- period-to-date cost (one recorded series): {d['period_to_date_seconds']} s", ""]
    path.write_text("\n".join(out) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="accuracy,scale,fleet,dashboard")
    ap.add_argument("--tenants", default="10,100,1000,5000")
    ap.add_argument("--fleet-gpus", type=int, default=10000)
    ap.add_argument("--fleet-pods", type=int, default=5000)
    ap.add_argument("--out", default=str(Path(__file__).parent / "RESULTS.md"))
    args = ap.parse_args()
    only = set(args.only.split(","))
    t0 = time.perf_counter()
    version = subprocess.run(["prometheus", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    res = {"when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
           "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
           "prometheus": version.replace("prometheus, ", "Prometheus "),
           "command": "python benchmarks/run.py " + " ".join(sys.argv[1:])}
    with tempfile.TemporaryDirectory(prefix="gpudash-bench-") as tmp:
        try:
            run_all(Path(tmp), args, only, res)
        finally:
            for prom in STARTED:
                prom.stop()
    res["total_seconds"] = time.perf_counter() - t0
    Path(args.out).with_name("results.json").write_text(json.dumps(res, indent=2, sort_keys=True) + "\n")
    write_markdown(res, Path(args.out))
    print(f"wrote {args.out} in {res['total_seconds']:.0f} s", file=sys.stderr)
    return 0


def run_all(work: Path, args, only: set, res: dict) -> None:
    sections = (("accuracy", lambda: accuracy(work / "acc")),
                ("dashboard", lambda: dashboard(work / "dash")),
                ("fleet", lambda: fleet(work / "fleet", args.fleet_gpus, args.fleet_pods)),
                ("scale", lambda: render_scale(work / "scale", [int(x) for x in args.tenants.split(",")])))
    for name, fn in sections:
        if name in only:
            (work / name).mkdir(parents=True, exist_ok=True)
            s = time.perf_counter()
            res[name] = fn()
            res.setdefault("seconds", {})[name] = round(time.perf_counter() - s, 1)
            print(f"{name}: {res['seconds'][name]} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())

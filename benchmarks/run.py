"""gpudash benchmarks: billing accuracy against naive methods, render scale, rule cost at fleet scale, and
tenant dashboard queries from recorded versus raw series. Not part of the test suite.

    python benchmarks/run.py                       # everything (<= 20 min on 2 cores), rewrites benchmarks/RESULTS.md
    python benchmarks/run.py --quick               # smaller fleet and models (about 5 min)
    python benchmarks/run.py --only fleet          # one benchmark (accuracy, dashboard, fleet, scale, backfill,
                                                   # hubday); the other sections of RESULTS.md are kept from
                                                   # benchmarks/results.json
    python benchmarks/run.py --report              # rewrite RESULTS.md from results.json, run nothing

Every figure comes from a real Prometheus (Debian 2.42) started by e2e.harness on 127.0.0.1 and stopped by PID,
and from the independent reference model (gpudash.simulation.reference). RESULTS.md says which machine, which
command and what was scaled down to stay within the time budget (``--budget``, seconds).
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

from benchmarks import backfill, hub_day  # noqa: E402
from benchmarks.render_probe import PROBE_ROOT  # noqa: E402
from e2e import mco_sim, pipeline  # noqa: E402
from e2e.harness import Prometheus  # noqa: E402
from gpudash.base import layout  # noqa: E402
from gpudash.model import series as names  # noqa: E402
from gpudash.model.exporters.kube_state_metrics import gpu_resource_regex  # noqa: E402

HOUR, DAY = 60, 1440
SUITE_TIMES = Path(__file__).with_name("suite_times.md")  # section 6: the test suites' time, measured by hand
RENDER_COLD = Path(__file__).with_name("render_cold.md")  # section 7: benchmarks/render_cold.py's last run
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
def accuracy(work: Path, cache: Path, lost: float = 0.01) -> dict:
    """The e2e month (2 clusters, 32 days, scrape gaps) through the simulated ACM push path with ``lost`` of the
    pushes of each cluster lost at random; per tenant GPU-hours by gpudash, by the reference model, and by two
    naive methods."""
    model, mock = pipeline.load()
    rendered = pipeline.render(model, work / "rendered", rules_only=True)
    blocks, built = pipeline.cached_blocks(cache, model, mock)
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
    sel = f'kube_pod_container_resource_requests{{job="kube-state-metrics",resource=~"{gpu_resource_regex()}"}}'
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
# This machine's disk is ext4 without a journal: there a file created within 60 s (300 s while its inode table is
# unwritten) of many deletions is slow, as inode allocation skips each recently deleted inode (linux
# fs/ext4/ialloc.c, recently_deleted() and find_inode_bit()), at about 0.4 ms per file instead of 0.04 ms. A render
# of 1,000 tenants creates 7,100 files: the benchmark deletes no output until the section ends, and renders each
# size into memory (tmpfs) too, where only gpudash's own work is measured.
TMPFS = Path("/dev/shm")


def render_scale(work: Path, counts, deadline: float, root: Path = ROOT, outputs: Path | None = None) -> list[dict]:
    """``gpudash render`` of the e2e model with N tenants, each in a fresh process (benchmarks/render_probe.py)
    importing gpudash from ``root`` (this tree, or a worktree of the base commit), writing into ``outputs``
    (default ``work``; not removed here): wall time, time per phase, peak RSS and MB written per delivery target
    (measured by the probe; "always" for the files every render writes). A size whose linear extrapolation from the
    previous one would pass ``deadline`` (time.monotonic) is not run; its row says so and gives the extrapolation."""
    raw = yaml.safe_load(pipeline.MODEL.read_text())
    work.mkdir(parents=True, exist_ok=True)
    outputs = outputs or work
    out: list[dict] = []
    for n in counts:
        left = deadline - time.monotonic()
        if out and "seconds" in out[-1]:
            guess = out[-1]["seconds"] * n / out[-1]["tenants"]
            if guess > left:
                out.append({"tenants": n, "skipped": f"not run: about {guess:.0f} s by linear extrapolation, "
                                                     f"{max(0, left):.0f} s of the budget left"})
                continue
        raw["tenants"] = [{"name": f"t{i:05d}", "namespace": f"tenant-{i:05d}", "budget": 1000 + i,
                           "alert_at": [0.5, 0.9, 1.0]} for i in range(n)]
        path = work / f"model-{n}.yaml"
        path.write_text(yaml.safe_dump(raw))
        dest = outputs / f"out-{n}"
        t0 = time.perf_counter()
        try:
            r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "render_probe.py"), str(path), str(dest)],
                               capture_output=True, text=True, timeout=max(30, left), cwd=root,
                               env={**os.environ, PROBE_ROOT: str(root)})
        except subprocess.TimeoutExpired:
            out.append({"tenants": n, "skipped": f"stopped after {time.perf_counter() - t0:.0f} s (budget)"})
            continue
        line = next((x for x in r.stdout.splitlines() if x.startswith("RENDER_PROBE ")), None)
        if r.returncode or line is None:
            out.append({"tenants": n, "error": (r.stderr or r.stdout).strip().splitlines()[-1:]})
            continue
        row = json.loads(line.removeprefix("RENDER_PROBE "))
        row["tenants"] = n
        row["process_seconds"] = round(time.perf_counter() - t0, 2)  # with interpreter start-up and imports
        out.append(row)
    return out


def base_worktree(work: Path, commit: str) -> Path:
    """A detached git worktree of ``commit`` (the base to compare with), removed by :func:`drop_worktree`."""
    path = work / "base-tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(path), commit], cwd=ROOT, check=True,
                   capture_output=True)
    return path


def drop_worktree(path: Path) -> None:
    subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, capture_output=True)


def scale(work: Path, counts, deadline: float, base: str | None) -> dict:
    """Render scale of this tree and, with ``base``, of that commit in the same run, with their ratios: each model's
    first render onto the disk (its golden tests emitted by forked workers), then again into tmpfs
    (:data:`TMPFS`, where present; the golden tests from the cache); and the example's golden suite of each
    (:func:`golden_suite`). The outputs are removed at the end."""
    memory = Path(tempfile.mkdtemp(prefix="gpudash-bench-", dir=TMPFS)) if TMPFS.is_dir() else None
    try:
        res: dict = {"rows": render_scale(work / "new", counts, deadline)}
        if memory:
            res["tmpfs"] = render_scale(work / "new", counts, deadline, outputs=memory / "new")
        res["golden"] = golden_suite(work / "new-golden")
        if not base:
            return res
        commit = subprocess.run(["git", "rev-parse", "--short", base], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.strip()
        tree = base_worktree(work, commit)
        try:
            res["base"] = {"commit": commit, "rows": render_scale(work / "base", counts, deadline, root=tree)}
            if memory:
                res["base"]["tmpfs"] = render_scale(work / "base", counts, deadline, root=tree,
                                                    outputs=memory / "base")
            res["base"]["golden"] = golden_suite(work / "base-golden", root=tree)
        finally:
            drop_worktree(tree)
        return res
    finally:
        for dest in [*(work / "new").glob("out-*"), *(work / "base").glob("out-*")]:
            shutil.rmtree(dest, ignore_errors=True)
        if memory:  # the tmpfs rows' outputs with it
            shutil.rmtree(memory, ignore_errors=True)


def golden_suite(out: Path, root: Path = ROOT) -> dict:
    """``gpudash test`` of the bundled example (every golden test file through promtool, in parallel on the
    machine's CPUs), rendered first (not timed), with gpudash imported from ``root``: wall time and file count."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    subprocess.run([sys.executable, "-m", "gpudash", "render", "--example", "-o", str(out)], cwd=root, env=env,
                   check=True, capture_output=True)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "gpudash", "test", "-o", str(out)], cwd=root, env=env,
                       capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    files = sum(1 for _ in (out / "tests").glob("*.test.yaml"))
    shutil.rmtree(out, ignore_errors=True)
    return {"seconds": round(seconds, 1), "files": files, "rc": r.returncode,
            "summary": (r.stdout + r.stderr).strip().splitlines()[-1:]}


# --- 3. fleet: rule cost and series pushed ----------------------------------------------------------------------
def fleet(work: Path, gpus: int, repeat: int, cache: Path | None = None) -> dict:
    """See benchmarks/fleet.py: the mixed fleet, each spoke rule through the collector simulation without and with
    the spoke tier, each hub group over one push, series pushed against the raw series."""
    from benchmarks import fleet as fleet_bench

    return fleet_bench.run(work, gpus=gpus, repeat=repeat, log=lambda m: print(m, file=sys.stderr, flush=True),
                           cache=cache)


# --- 4. tenant dashboard: recorded versus raw --------------------------------------------------------------------
def _panel_expr(dashboard_file: Path, title: str) -> str:
    for panel in json.loads(dashboard_file.read_text())["panels"]:
        if panel.get("title") == title:
            expr = panel["targets"][0]["expr"]
            assert "$" not in expr, f"{title}: Grafana variables left in {expr[:80]}"
            return expr
    raise KeyError(f"{dashboard_file.name}: no panel {title!r}")


def dashboard(work: Path, cache: Path) -> dict:
    """A tenant's dashboard questions on the single-cluster Prometheus of the e2e month (raw history plus the
    spoke and hub rules backfilled): this month's GPU-hours and cost so far (the tenant dashboard's stat panels,
    as rendered) and the month's hourly GPU-hours (its time series), from the recorded series versus integrated
    from the raw kube-state-metrics series."""
    from gpudash.model.exporters.kube_state_metrics import job
    from gpudash.render.rules.allocation import allocation

    model, mock = pipeline.load()
    rendered = pipeline.render(model, work / "rendered")
    blocks, _ = pipeline.cached_blocks(cache, model, mock)
    prom = pipeline.prometheus_with_blocks(work / "dash", blocks[mock.scenario.clusters[0]])
    start, end = mock.start, mock.at(mock.scenario.duration)
    t0 = time.perf_counter()
    prom.backfill_rules([rendered / layout.SPOKE_RULES, rendered / layout.HUB_RULES],
                        start, end, method="query")
    backfill_s = time.perf_counter() - t0
    tenant = model.tenants[0]
    ns = tenant.namespace
    board = rendered / layout.dashboard_json(f"gpudash-tenant-{tenant.name}")
    # (1) "this month so far" on October 31 at 12:00 UTC: the stat panels' queries, and the raw equivalent
    t_month = mock.at(30 * DAY + 12 * HOUR)
    since = int(t_month - mock.start)  # seconds since the month (and the history) began
    k, v = job(model.sources)[0], job(model.sources)[2]
    requests = (f'kube_pod_container_resource_requests{{{k}="{v}",namespace="{ns}",'
                f'resource=~"{gpu_resource_regex()}",node!=""}}')
    phase = f'kube_pod_status_phase{{{k}="{v}",namespace="{ns}",phase="Running"}}'
    raw_join = (f"sum by (namespace, pod, uid) ({requests}) * on (namespace, pod, uid) group_left () "
                f"(max by (namespace, pod, uid) ({phase}) == 1)")
    questions = {
        "GPU-hours this month (recorded)": _panel_expr(board, "GPU-hours this period"),
        "Cost this month (recorded)": _panel_expr(board, "Cost this period"),
        "GPU-hours this month (raw requests x phase)":
            f"sum(sum_over_time(({raw_join})[{since}s:1m] offset 1ms)) * 60 / 3600",
    }
    month = {}
    for name, expr in questions.items():
        rows, secs = timed(prom.query, expr, t_month, repeat=1 if "raw" in name else 3)
        month[name] = {"seconds": round(secs, 4), "value": round(rows[0][1], 3) if rows else None,
                       "expr_chars": len(expr)}
    # (2) the month's hourly GPU-hours (a time series panel): one point per hour
    a, b = start + 2 * 3600, end - 3600
    recorded = f'sum(last_over_time({names.HOUR_GPU_HOURS}{{namespace="{ns}"}}[1h] offset 1ms))'
    only_ns = f'label_replace(vector(1), "namespace", "{ns}", "", "")'
    raw = (f"sum(sum_over_time((sum by (namespace) ({allocation(model)}) and on (namespace) {only_ns})"
           f"[1h:1m] offset 1ms)) * 60 / 3600")
    rec_rows, rec_s = timed(prom.query_range, recorded, a, b, 3600, repeat=3)
    raw_rows, raw_s = timed(prom.query_range, raw, a, b, 3600, repeat=1)
    prom.stop()
    return {"tenant": ns, "at": datetime.fromtimestamp(t_month, UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "month": month, "hours": int((b - a) / 3600) + 1, "recorded_seconds": round(rec_s, 4),
            "raw_seconds": round(raw_s, 3), "speedup": round(raw_s / rec_s, 1) if rec_s else None,
            "recorded_total": round(sum(v for _, s_ in rec_rows for _, v in s_), 3),
            "raw_total": round(sum(v for _, s_ in raw_rows for _, v in s_), 3),
            "rules_backfill_seconds": round(backfill_s, 1)}


# --- report ------------------------------------------------------------------------------------------------------
def _err(x: float, ref: float) -> str:
    return f"{(x - ref) / ref:+.2%}" if ref else ("0" if not x else "n/a")


def _meta_line(meta: dict) -> str:
    return (f"_Ran {meta['when']} on commit {meta.get('commit', 'unknown')}, `{meta['command']}`, "
            f"{meta['seconds']:.0f} s of machine time, load average "
            f"{meta['load_before']:.1f} before / {meta['load_after']:.1f} after (2 cores: above 2, other work "
            "competed for the CPU)._")


def _accuracy_md(acc: dict) -> list[str]:
    out = ["## 3. Billing accuracy under faults (month, 2 clusters, ACM push path)", "", _meta_line(acc["meta"]), "",
           f"The e2e month (`e2e/data/month.mock.yaml`: 32 days from 2026-10-01, 2 clusters, whole GPUs, MIG mixed "
           f"and single, time-slicing, AMD, {acc['history'].get('samples', 0):,} raw samples): ~470 short jobs "
           "(7 +- 5 min), Pending and Succeeded/Failed pods that linger, an init container larger than its app "
           "containers, two kube-state-metrics scrape gaps (3 and 4 min), and "
           f"{acc['pushes_lost']} of {acc['pushes']} pushes ({acc['lost_pushes']:.0%}) lost at random in the "
           "simulated metrics-collector. GPU-hours of hours 0-765 (all classes, and usage on unpriced products) "
           "per billing line, error relative to the independent reference model "
           "(`gpudash.simulation.reference`):", "",
           "- **gpudash**: the hub's `cluster_namespace_class_resource:gpudash_gpu_hours:last_hour` (+ the unpriced "
           "series), each hour read at hour + 2 h as the contract says;",
           "- **naive A, OpenCost-style**: per request series, `avg_over_time(kube_pod_container_resource_requests"
           "[window])` x the hours the series existed (`avg_over_time * count_over_time` x 1 min), no phase "
           "filter, on the spokes' raw data;",
           "- **naive B, 5-minute snapshots**: the hub's pushed `namespace_pod:gpudash_gpus_allocated:running` "
           "(current allocation) summed over every push x 5 min.", "",
           "| cluster/tenant | reference GPU-h | gpudash | error | naive A (avg requests) | error | "
           "naive B (5-min snapshots) | error |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    keys = ("reference", "gpudash", "naive_avg_requests", "naive_5m_snapshots")
    tot = dict.fromkeys(keys, 0.0)
    tenants: dict[str, dict] = {}
    for k, v in acc["lines"].items():
        ns = k.split("/", 1)[1]
        for m in keys:
            tot[m] += v[m]
            tenants.setdefault(ns, dict.fromkeys(keys, 0.0))[m] += v[m]

    def row(name, v):
        return (f"| {name} | {v['reference']:.2f} | {v['gpudash']:.2f} | {_err(v['gpudash'], v['reference'])} | "
                f"{v['naive_avg_requests']:.2f} | {_err(v['naive_avg_requests'], v['reference'])} | "
                f"{v['naive_5m_snapshots']:.2f} | {_err(v['naive_5m_snapshots'], v['reference'])} |")
    out += [row(k, v) for k, v in acc["lines"].items()]
    out += ["", "Per tenant (both clusters):", "",
            "| tenant | reference GPU-h | gpudash | error | naive A | error | naive B | error |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    out += [row(ns, v) for ns, v in sorted(tenants.items())]
    out.append(row("**total**", tot))
    cost_ref = sum(v["reference_cost"] for v in acc["lines"].values())
    cost_got = sum(v["gpudash_cost"] for v in acc["lines"].values())
    out += ["", f"Cost: reference {cost_ref:,.2f}, gpudash {cost_got:,.2f} ({_err(cost_got, cost_ref)}).",
            "Naive A bills Pending, Succeeded-but-not-deleted and Failed pods and ignores init containers; naive B "
            "misses short jobs between pushes and the time of every lost push.", ""]
    return out


def _scale_table(rows: list[dict]) -> list[str]:
    out = ["| tenants | render s | CPU s | process s | peak RSS MB | files | MB written | MB by target | "
           "slowest phases (s) |", "|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        if "seconds" not in r:
            out.append(f"| {r['tenants']:,} | | | | | | | | {r.get('skipped') or r.get('error')} |")
            continue
        top = sorted(r["phases"].items(), key=lambda kv: -kv[1])[:3]
        per = ", ".join(f"{k} {v / 1e6:.1f}" for k, v in r.get("bytes_by_target", {}).items())
        cpu = f"{r['cpu_seconds']:.1f}" if "cpu_seconds" in r else ""
        child = f" (+{r['child_peak_rss_mb']:.0f})" if r.get("child_peak_rss_mb") else ""
        out.append(f"| {r['tenants']:,} | {r['seconds']:.1f} | {cpu} | {r['process_seconds']:.1f} | "
                   f"{r['peak_rss_mb']:.0f}{child} | "
                   f"{r['files']:,} | {r['bytes'] / 1e6:.1f} | {per} | "
                   + ", ".join(f"{k} {v:.1f}" for k, v in top) + " |")
    return out


def _paired(sc: dict, rows: str = "rows") -> list[tuple[dict, dict]]:
    """(row, the base's row) of each model size both renders ran (``rows``: "rows" on disk, "tmpfs" in memory)."""
    old = {r["tenants"]: r for r in (sc.get("base") or {}).get(rows, []) if "seconds" in r}
    return [(r, old[r["tenants"]]) for r in sc.get(rows, []) if "seconds" in r and r["tenants"] in old]


def _suites(sc: dict) -> list[tuple[str, dict]]:
    """(tree, its golden suite run) of this commit and the base, where measured."""
    base = sc.get("base") or {}
    return [(name, g) for name, g in (("this commit", sc.get("golden")), (f"base {base.get('commit')}",
                                                                          base.get("golden"))) if g]


def _ratios(sc: dict, rows: str = "rows") -> list[str]:
    out = ["| tenants | render time (this / base) | CPU time | peak RSS | MB written |", "|---:|---:|---:|---:|---:|"]
    for r, b in _paired(sc, rows):
        cpu = f"{r['cpu_seconds'] / b['cpu_seconds']:.2f}" if "cpu_seconds" in r and "cpu_seconds" in b else ""
        out.append(f"| {r['tenants']:,} | {r['seconds'] / b['seconds']:.2f} | {cpu} | "
                   f"{r['peak_rss_mb'] / b['peak_rss_mb']:.2f} | {r['bytes'] / b['bytes']:.2f} |")
    return out


def _scale_md(sc: dict, meta: dict) -> list[str]:
    out = ["## 2. Render time and peak memory by number of tenants", "", _meta_line(meta), "",
           "`gpudash render -c MODEL -o OUT` of the e2e model (3 GPU classes, 2 clusters) with N tenants, each in a "
           "fresh process (`benchmarks/render_probe.py`): wall and CPU time of the command (imports excluded; the "
           "process column includes them; the CPU time includes the golden tests' forked workers, "
           "`gpudash.render.golden.orchestrate`; on a loaded machine compare CPU time), the slowest phases, peak RSS "
           "(`VmHWM`; \"+N\": the largest golden worker, counting the pages it shares with the render), MB "
           "written per delivery target (`outputs.targets`, all of them here; \"always\" is what "
           "every render writes; a file two targets deliver counts for both).", "",
           *_scale_table(sc.get("rows", [])), ""]
    base = sc.get("base")
    if base:
        out += [f"The base commit {base['commit']} in the same run (a git worktree, the same probe and models):", "",
                *_scale_table(base["rows"]), "", "Ratios, this commit over the base (below 1 is better):", "",
                *_ratios(sc), ""]
    if sc.get("tmpfs"):
        out += ["The same models rendered again, into a new folder in tmpfs (`/dev/shm`): the golden tests come from "
                "the golden cache the first render filled (no second process), and no file is created on this disk, "
                "which is slow at creating files (ext4 without a journal: a file created within a minute of many "
                "deletions waits, linux fs/ext4/ialloc.c `recently_deleted()`; no output is deleted before the "
                "section ends). This is the render's own work:", "",
                *_scale_table(sc["tmpfs"]), ""]
        if base and base.get("tmpfs"):
            out += [f"The base commit {base['commit']} into tmpfs:", "", *_scale_table(base["tmpfs"]), "",
                    "Ratios into tmpfs, this commit over the base:", "", *_ratios(sc, "tmpfs"), ""]
    suites = _suites(sc)
    if suites:
        out += ["The bundled example's golden suite (`gpudash test -o DIR` after a render; promtool on every test "
                "file, in parallel on the 2 CPUs):", "", "| tree | test files | seconds | per file | result |",
                "|---|---:|---:|---:|---|"]
        out += [f"| {name} | {g['files']} | {g['seconds']:.1f} | {g['seconds'] / max(g['files'], 1):.2f} | "
                f"{' '.join(g['summary']) if g['rc'] == 0 else 'FAILED: ' + ' '.join(g['summary'])} |"
                for name, g in suites]
        out.append("")
    return out


def _fleet_md(f: dict) -> list[str]:
    al = f["allocatable"]
    phases = f["pod_phases"]
    rules_series = f["pushed_rule_series"]
    defaults = {n: f["pushed_per_push"].get(n, 0) for n in mco_sim.DEFAULT_NAMES}
    naive_total = sum(f["naive"].values())
    custom = sum(f["pushed_per_push"].get(n, 0) for n in f["custom_names"])
    out = [f"## 1. Rule cost at {f['gpus']:,} GPUs ({phases.get('Running', 0):,} Running pods)", "",
           _meta_line(f["meta"]), "",
           f"One cluster of {f['nodes']:,} nodes x 8 GPUs in one Prometheus (`benchmarks/fleet.py`): "
           f"{al.get('nvidia_com_gpu', 0):,.0f} allocatable `nvidia.com/gpu` (whole A100s, plus single-strategy "
           f"MIG 1g.10gb slices), {al.get('nvidia_com_mig_1g_10gb', 0):,.0f} mixed-strategy MIG slices, "
           f"{al.get('nvidia_com_gpu_shared', 0):,.0f} time-sliced L40S replicas, {al.get('amd_com_gpu', 0):,.0f} "
           f"AMD MI300X; {f['tenants']} tenants. Pods at the push: {phases.get('Running', 0):,} Running, "
           f"{phases.get('Pending', 0):,} Pending, {phases.get('Succeeded', 0):,} Succeeded and lingering "
           f"(plus short jobs coming and going). {f['history_minutes']} min of 1-minute kube-state-metrics "
           f"history and the last {f['exporter_minutes']} min of DCGM/AMD series ({f['history_samples']:,} samples "
           f"from the mock, written in {f['generate_seconds']:.0f} s, imported by promtool in "
           f"{f['import_seconds']:.0f} s); {f['raw_series_at_push']:,} series at the push.", "",
           "**Spoke**: one push at 02:05 through the metrics-collector simulation (`e2e/mco_sim.py`: the rendered "
           "allowlist ConfigMap JSON-decoded as the collector does, each rule an instant query at the push time). "
           f"Median of {f['repeat']} for queries under {f['slow_seconds']:.0f} s, one run above:", "",
           "| spoke rule (allowlist `recording_rules`) | seconds | first run | series pushed |",
           "|---|---:|---:|---:|"]
    for r in f["spoke_rules"]:
        out.append(f"| `{r['record']}` | {r['seconds_median']:.2f} | {r['seconds_first']:.2f} | {r['series']:,} |")
    out += [f"| federation of the allowlist `names` (+ `timestamp()`) | {f['federate_seconds']:.2f} | | "
            f"{sum(defaults.values()):,} |",
            f"| **one push** | **{f['spoke_seconds_per_push'] + f['federate_seconds']:.1f}** | | |", ""]
    if "allocation_one_step_seconds" in f:
        step = f["allocation_one_step_seconds"]
        hourly = next((r["seconds_median"] for r in f["spoke_rules"] if r["record"] == names.HOURLY_GPU_HOURS), 0)
        out += [f"Where the time goes: the hourly rules evaluate their per-step expression (the allocation join of "
                f"requests x Running phase x node product; the energy split of every GPU's counter rise among the "
                f"pods holding it) at every 1-minute step of the previous hour: 60 steps per rule at every push, and "
                f"the same hour again at each of the 12 pushes of the next hour (the hub reads each series from its "
                f"own pushes of the hour, so the spoke no longer pushes explicit zeros for the hour before). One "
                f"step of `sum by (cluster, namespace, product, resource) (allocation)` as an instant query "
                f"takes {step:.3f} s here; the GPU-hours rule costs as much as "
                f"{hourly / step if step else 0:.0f} of them (the subquery selects the series once for all steps).",
                ""]
    if not any(r["record"] == names.HOURLY_ENERGY for r in f["spoke_rules"]):
        out += ["The model has no `energy:` section (energy rules exist only with one). With one, measured at "
                "76b9981 on the same fleet: `namespace:gpudash_energy_kwh:previous_hour` 71.3 s per push without the "
                "tier, 0.00 s with it, and the tier's `namespace:gpudash_energy_joules:step` 1.9 s per evaluation.",
                ""]
    out += _tier_md(f)
    out += [
            f"**Hub**: that push in a hub Prometheus ({f['hub_series']:,} series with the recorded ones), the "
            "rendered hub rules evaluated after it, level by level; each group's time is the sum of its rules' "
            f"instant queries (HTTP and JSON included: {f['query_overhead_seconds'] * 1000:.1f} ms per query "
            "for `vector(1)`, which is most of the model-constants group).", "",
            "| hub group | rules | seconds | slowest rule | series |", "|---|---:|---:|---:|---:|"]
    for g in f["hub_groups"]:
        out.append(f"| `{g['group']}` | {g['rules']} | {g['seconds_median']:.3f} | {g['slowest_rule_seconds']:.3f} |"
                   f" {g['series']:,} |")
    out += ["", "**Series pushed to the hub per interval** (counted in the same fleet at the push):", "",
            "| what | series |", "|---|---:|",
            f"| gpudash spoke recording rules | **{rules_series:,}** |",
            f"| gpudash custom `names` ({', '.join(f['custom_names']) or 'none'}) | {custom:,} |",
            f"| **gpudash in all (rules + custom names)** | **{rules_series + custom:,}** |",
            f"| ACM default allowlist entries gpudash's alerts read ({', '.join(mco_sim.DEFAULT_NAMES)}) | "
            f"{sum(defaults.values()):,} (shipped by ACM with or without gpudash) |",
            f"| **naive: the raw series instead** | **{naive_total:,}** "
            f"({naive_total / max(1, rules_series + custom):.1f}x gpudash) |"]
    for name, n in sorted(f["naive"].items(), key=lambda kv: -kv[1]):
        out.append(f"| &nbsp;&nbsp;`{name}` | {n:,} |")
    out += ["", "The naive hub would also have to redo the phase join and the integral over a month of raw "
            "series at query time (section 4).", ""]
    return out


def _tier_md(f: dict) -> list[str]:
    tier = f.get("tier")
    if not tier:
        return []
    plain = {r["record"]: r["seconds_median"] for r in f["spoke_rules"]}
    hours = tier.get("backfill_hours", 0)
    earlier = (f" With `billing.backfill_hours: {hours}` (the default with the tier) each hourly rule also sums the "
               f"{hours} hours before the previous one: the history's last complete hour of tier samples was copied "
               f"into each of them ({tier['earlier_samples']:,} samples; a lag's cost depends on the samples and "
               "series it reads, not their values), so every lag reads a full hour." if hours else "")
    out = [f"**Spoke with the spoke tier** (`billing.spoke_tier: policy`, the default with the acm target: the fleet "
           "model's billing settings are the defaults), the same push in the same run: the tier's "
           f"group (`{layout.SPOKE_TIER_RULES}`) evaluated over the {f['history_minutes']} min of history at its own "
           f"interval and offset as the rule manager would have written it (`backfill_rules(method=\"query\")`, "
           f"{tier['backfill_seconds']:.0f} s of set-up, not push cost), then every allowlist rule timed as above."
           + earlier,
           "", "| spoke rule with the tier | seconds | without the tier | first run | series pushed |",
           "|---|---:|---:|---:|---:|"]
    for r in tier["spoke_rules"]:
        out.append(f"| `{r['record']}` | {r['seconds_median']:.2f} | {plain.get(r['record'], 0):.2f} | "
                   f"{r['seconds_first']:.2f} | {r['series']:,} |")
    ratio = tier["spoke_seconds_per_push"] / f["spoke_seconds_per_push"] if f["spoke_seconds_per_push"] else 0
    out += [f"| **rules per push** | **{tier['spoke_seconds_per_push']:.2f}** | **{f['spoke_seconds_per_push']:.2f}**"
            f" | | |", "",
            f"With the tier the rules of one push take {ratio:.3f}x the time without it. The hourly figures pushed "
            f"(GPU-hours, energy, steps observed, node maxima: {tier['hourly_series']:,} series) differ in "
            f"{tier['hourly_series_differing']} series between the two pushes"
            + "".join(f"; `{name}`: {got:,.3f} with the tier, {want:,.3f} without, over the differing series"
                      for name, (got, want) in sorted(tier.get("differing_sums", {}).items()))
            + (". Where they differ, the cause found at 1,000 GPUs was the history, not the tier: the backfilled "
               "exporter series have no staleness markers, so at an epoch-aligned step Prometheus 2's closed 5-minute "
               "lookback still sees a DCGM series of a pod that ended exactly 5 minutes earlier (the power max over a "
               "GPU's series copies can take its reading), which the tier's steps, a fixed phase later, do not; a "
               "scraped series gets a staleness marker when it disappears."
               if tier["hourly_series_differing"] else "."),
            "",
            *([f"The pushed live per-pod allocation (`{names.POD_ALLOCATED}`) is the tier's newest step, here "
               f"{tier['last_step_age_seconds']:.0f} s before the push: {tier['live_rows_differing']:,} of its "
               f"{tier['live_rows']:,} rows differ from the allocation re-derived at the push: pods that started or "
               "stopped in between, and, here only, pods that stopped in the 5 minutes before it (the backfilled tier "
               "samples carry no staleness markers; the rule manager writes one when a row leaves its rule's output). "
               "A live view, never billed.", ""] if "live_rows" in tier else []),
            f"The tier's own group, one evaluation at its last step before the push (it runs every "
            f"{tier['interval']} on every spoke): **{tier['seconds_per_evaluation']:.2f} s**.", "",
            "| spoke-tier rule | seconds | first run | series |", "|---|---:|---:|---:|"]
    for r in tier["rules"]:
        out.append(f"| `{r['record']}` | {r['seconds_median']:.3f} | {r['seconds_first']:.3f} | {r['series']:,} |")
    hub = tier.get("hub")
    if hub:
        plain = {g["group"]: g for g in f["hub_groups"]}
        out += ["", "**Hub with the tier's push**: the hub measurement below (same method) on the push with the tier"
                + (f" and {hours} hours of backfill (each hour settled from the pushes of the {hours + 1} hours "
                   "after it)" if hours else "") + ".", "",
                "| | without the tier | with it |", "|---|---:|---:|",
                f"| recording-rule series pushed per interval | {f['pushed_rule_series']:,} | "
                f"{tier['pushed_rule_series']:,} |",
                f"| hub series after the push (pushed and recorded) | {f['hub_series']:,} | {hub['series']:,} |"]
        out += [f"| `{g['group']}` seconds | {plain.get(g['group'], {}).get('seconds_median', 0):.3f} | "
                f"{g['seconds_median']:.3f} |" for g in hub["groups"]]
    return out + [""]


def _dashboard_md(d: dict) -> list[str]:
    out = ["## 4. Tenant dashboard: recorded versus raw", "", _meta_line(d["meta"]), "",
           f"Tenant `{d['tenant']}` on the single-cluster Prometheus of the e2e month (prod-east's raw history with "
           f"the spoke and hub rules backfilled, {d['rules_backfill_seconds']:.0f} s), at {d['at']}. The "
           "recorded questions are the tenant dashboard's stat panels exactly as rendered; the raw one joins the "
           "raw requests with the Running phase at every minute of the month so far. The e2e month is a small "
           "cluster (a handful of pods at a time): the raw query's cost grows with the pods and series of the "
           "tenant (and, on the hub, of every cluster), the recorded one with the hours only.", "",
           "| question | seconds | value |", "|---|---:|---:|"]
    for name, v in d["month"].items():
        out.append(f"| {name} | {v['seconds']:.4f} | {v['value']} |")
    out += ["", f"The month's hourly GPU-hours as a time series ({d['hours']} points, one range query): "
            f"**{d['recorded_seconds']:.4f} s** from the recorded hourly series, **{d['raw_seconds']:.2f} s** "
            f"integrated from raw series with the spoke's allocation expression ({d['speedup']:,.0f}x slower); "
            f"totals {d['recorded_total']} and {d['raw_total']} GPU-h (the recorded series start at the first "
            "complete hour).", "",
            "The recorded GPU-hours are the priced billing lines; the raw integrals also count the tenant's pod on "
            "an unpriced product (2 T4 GPUs for a day, 48 GPU-h), which gpudash reports in its own unpriced "
            "series: the rest agrees.", ""]
    return out


def _summary(res: dict) -> list[str]:
    rows = []
    f = res.get("fleet")
    if f and "error" not in f:
        naive = sum(f["naive"].values())
        slow = max(f["spoke_rules"], key=lambda r: r["seconds_median"])
        ours = f["pushed_rule_series"] + sum(f["pushed_per_push"].get(n, 0) for n in f["custom_names"])
        rows += [f"| Spoke rules per push, {f['gpus']:,} GPUs / {f['pod_phases'].get('Running', 0):,} Running pods "
                 f"| {f['spoke_seconds_per_push']:.1f} s (slowest `{slow['record']}` {slow['seconds_median']:.1f} s) |",
                 *_tier_summary(f),
                 "| Hub rule groups after one push | "
                 + ", ".join(f"{g['group'].removeprefix('gpudash-hub-')} {g['seconds_median']:.2f} s"
                             for g in f["hub_groups"]) + " |",
                 f"| Series pushed per interval: gpudash (rules + custom names) vs the raw series | "
                 f"{ours:,} vs {naive:,} ({naive / max(1, ours):.1f}x fewer) |"]
    if isinstance(res.get("hubday"), dict) and "runs" in res["hubday"]:
        rows += hub_day.summary(res["hubday"])
    sc = res.get("scale")
    if sc and isinstance(sc, dict) and "rows" in sc:
        rows.append("| `render` time (CPU time) / peak RSS (+ the golden tests' process) by tenants | " + ", ".join(
            f"{r['tenants']:,}: {r['seconds']:.1f} s ({r.get('cpu_seconds', 0):.0f} s) / {r['peak_rss_mb']:.0f} MB"
            + (f" (+{r['child_peak_rss_mb']:.0f})" if r.get("child_peak_rss_mb") else "")
            if "seconds" in r
            else f"{r['tenants']:,}: not run" for r in sc["rows"]) + " |")
        if sc.get("tmpfs"):
            rows.append("| `render` again (golden tests from the cache) into tmpfs, by tenants | " + ", ".join(
                f"{r['tenants']:,}: {r['seconds']:.1f} s" if "seconds" in r else f"{r['tenants']:,}: not run"
                for r in sc["tmpfs"]) + " |")
        for where, label in (("rows", ""), ("tmpfs", " again into tmpfs")):
            ratios = [f"{r['tenants']:,}: {r['seconds'] / b['seconds']:.2f}x time, "
                      f"{r['peak_rss_mb'] / b['peak_rss_mb']:.2f}x the render process's RSS"
                      for r, b in _paired(sc, where)]
            if ratios:
                rows.append(f"| `render`{label} against the base {sc['base']['commit']} in the same run | "
                            f"{'; '.join(ratios)} |")
        suites = _suites(sc)
        if suites:
            rows.append("| The example's golden suite (`gpudash test`) | " + ", ".join(
                f"{n}: {g['files']} files in {g['seconds']:.0f} s" for n, g in suites) + " |")
    acc = res.get("accuracy")
    if acc and "error" not in acc:
        tot = {m: sum(v[m] for v in acc["lines"].values())
               for m in ("reference", "gpudash", "naive_avg_requests", "naive_5m_snapshots")}
        worst = {m: max((abs(_pct(v[m], v["reference"])) for v in acc["lines"].values() if v["reference"]), default=0)
                 for m in ("gpudash", "naive_avg_requests", "naive_5m_snapshots")}
        rows.append(f"| Month GPU-hours error vs reference (total / worst line): gpudash, naive A, naive B | "
                    f"{_err(tot['gpudash'], tot['reference'])} / {worst['gpudash']:.2f}%, "
                    f"{_err(tot['naive_avg_requests'], tot['reference'])} / {worst['naive_avg_requests']:.1f}%, "
                    f"{_err(tot['naive_5m_snapshots'], tot['reference'])} / {worst['naive_5m_snapshots']:.1f}% |")
    d = res.get("dashboard")
    if d and "error" not in d:
        rec = d["month"]["GPU-hours this month (recorded)"]["seconds"]
        raw = d["month"]["GPU-hours this month (raw requests x phase)"]["seconds"]
        rows.append(f"| Tenant \"GPU-hours this month\": recorded vs raw | {rec * 1000:.0f} ms vs {raw:.1f} s |")
    if not rows:
        return []
    return ["## Summary", "", "| benchmark | result |", "|---|---|", *rows, ""]


def _tier_summary(f: dict) -> list[str]:
    tier = f.get("tier")
    if not tier:
        return []
    slow = max(tier["spoke_rules"], key=lambda r: r["seconds_median"])
    ratio = tier["spoke_seconds_per_push"] / f["spoke_seconds_per_push"] if f["spoke_seconds_per_push"] else 0
    backfill = f" and {tier['backfill_hours']} h of backfill" if tier.get("backfill_hours") else ""
    rows = [f"| Spoke rules per push with the spoke tier{backfill} (same run) | "
            f"{tier['spoke_seconds_per_push']:.2f} s, "
            f"{ratio:.3f}x without it (slowest `{slow['record']}` {slow['seconds_median']:.2f} s); the tier's group "
            f"{tier['seconds_per_evaluation']:.2f} s per {tier['interval']} evaluation |"]
    if "hub" in tier:
        rows.append(f"| Recording-rule series pushed per interval / hub series after one push, without the tier vs "
                    f"with it{backfill} | {f['pushed_rule_series']:,} vs {tier['pushed_rule_series']:,} / "
                    f"{f['hub_series']:,} vs {tier['hub']['series']:,} |")
    return rows


def _pct(x: float, ref: float) -> float:
    return (x - ref) / ref * 100 if ref else 0.0


def _scaled_down(res: dict) -> list[str]:
    notes = []
    f = res.get("fleet")
    if f and "error" not in f:
        if f["gpus"] < 10_000:
            notes.append(f"Rule cost: {f['gpus']:,} GPUs instead of 10,000 (`--fleet-gpus`/`--quick`).")
        notes.append(f"Rule cost: {f['history_minutes']} min of kube-state-metrics history (what the hourly rules "
                     f"read at the push), DCGM/AMD series for the last {f['exporter_minutes']} min only; the hub "
                     "gets one push (not a day of them); queries slower than "
                     f"{f['slow_seconds']:.0f} s are timed once.")
    if "accuracy" in res or "dashboard" in res:
        notes.append("Accuracy and dashboard: not scaled down in time (the whole 32-day e2e month, every hour "
                     "compared), but that month is a small fleet (2 clusters, 8 nodes, a handful of pods at a time "
                     "plus ~470 short jobs): the rule cost at fleet size is section 1.")
    sc = res.get("scale")
    if sc and isinstance(sc, dict):
        for r in sc.get("rows", []):
            if "seconds" not in r:
                notes.append(f"Render scale: {r['tenants']:,} tenants {r.get('skipped') or r.get('error')}.")
    for name in ("accuracy", "dashboard", "fleet", "scale"):
        sec = res.get(name)
        if isinstance(sec, dict) and "error" in sec:
            notes.append(f"{name}: failed in its last run: {sec['error']}")
    if not notes:
        return []
    return ["## What was scaled down", "", *[f"- {n}" for n in notes], ""]


def write_markdown(res: dict, path: Path) -> None:
    m = res["machine"]
    total = sum(res[k]["meta"]["seconds"] for k in SECTIONS if isinstance(res.get(k), dict) and "meta" in res[k])
    out = ["# gpudash benchmarks", "",
           f"Machine: {m['arch']}, {m['cores']} cores, {m['memory_gib']:.0f} GiB, Python {m['python']}, "
           f"{m['prometheus']} (Debian) on 127.0.0.1, started and stopped by PID. Not part of the test suite.", "",
           f"Reproduce: `python benchmarks/run.py` (every section, budget {res['budget']:.0f} s of machine time; "
           f"`--quick` for a smaller run, `--only NAME` for one of {', '.join(SECTIONS)}). Each section "
           "names the command and the time it took"
           + (f"; the sections below took {total:.0f} s in all." if total else "."), ""]
    out += _summary(res)
    out += _scaled_down(res)
    if "fleet" in res:
        out += _fleet_md(res["fleet"]) if "error" not in res["fleet"] else ["## 1. Rule cost", "",
                                                                           f"Failed: {res['fleet']['error']}", ""]
    if "scale" in res:
        out += _scale_md(res["scale"], res["scale"]["meta"])
    if "accuracy" in res:
        out += _accuracy_md(res["accuracy"]) if "error" not in res["accuracy"] else [
            "## 3. Billing accuracy", "", f"Failed: {res['accuracy']['error']}", ""]
    if "dashboard" in res:
        out += _dashboard_md(res["dashboard"]) if "error" not in res["dashboard"] else [
            "## 4. Tenant dashboard", "", f"Failed: {res['dashboard']['error']}", ""]
    if "backfill" in res:
        out += backfill.markdown(res["backfill"], res.get("fleet")) if "error" not in res["backfill"] else [
            "## 5. Series with and without backfill", "", f"Failed: {res['backfill']['error']}", ""]
    if SUITE_TIMES.exists():  # measured by hand (a suite run is beyond this script's budget), kept across runs
        out += ["", SUITE_TIMES.read_text().rstrip(), ""]
    if RENDER_COLD.exists():  # measured by hand (benchmarks/render_cold.py), kept across runs
        out += [RENDER_COLD.read_text().rstrip(), ""]
    if "hubday" in res:
        out += hub_day.markdown(res["hubday"]) if "error" not in res["hubday"] else [
            "## 8. Hub cost over a day of pushes", "", f"Failed: {res['hubday']['error']}", ""]
    path.write_text("\n".join(out).rstrip() + "\n")


def source_commit() -> str:
    """The commit measured: ``git rev-parse`` in a clone, or ``.commit`` in an exported tree (``git archive``)."""
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    if r.returncode == 0:
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "gpudash", "e2e", "benchmarks"],
                               capture_output=True, text=True, cwd=ROOT).stdout.strip()
        return r.stdout.strip() + (" plus uncommitted changes" if dirty else "")
    marker = ROOT / ".commit"
    return marker.read_text().strip() + " (exported tree)" if marker.exists() else "unknown"


def machine() -> dict:
    version = subprocess.run(["prometheus", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    mem = next(int(x.split()[1]) for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal"))
    return {"arch": platform.machine(), "cores": os.cpu_count(), "memory_gib": mem / 2**20,
            "python": platform.python_version(),
            "prometheus": "Prometheus " + version.split()[2] if len(version.split()) > 2 else version}


SECTIONS = ("accuracy", "dashboard", "fleet", "scale", "backfill", "hubday")


def _merge_base() -> str:
    r = subprocess.run(["git", "merge-base", "HEAD", "main"], capture_output=True, text=True, cwd=ROOT)
    return r.stdout.strip()[:12] if r.returncode == 0 else ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="2,000 GPUs, models of 10 and 100 tenants")
    ap.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated, of {', '.join(SECTIONS)}")
    ap.add_argument("--tenants", help="render scale model sizes (default 10,100,1000,5000)")
    ap.add_argument("--fleet-gpus", type=int, help="GPUs of the rule-cost fleet (default 10000)")
    ap.add_argument("--repeat", type=int, default=3, help="timings of quick queries (median)")
    ap.add_argument("--budget", type=float, default=1200.0, help="seconds of machine time for the whole run")
    ap.add_argument("--out", default=str(Path(__file__).parent / "RESULTS.md"))
    ap.add_argument("--keep", action="store_true", help="keep the work directory (printed)")
    ap.add_argument("--cache", help="directory keeping the fleet's history blocks between runs (default: none)")
    ap.add_argument("--report", action="store_true", help="only rewrite RESULTS.md from results.json")
    ap.add_argument("--base", default=_merge_base(), help="commit whose render scale is measured in the same run "
                    "for the ratios (default: the merge base with main; '' for none)")
    args = ap.parse_args(argv)
    if args.report:
        write_markdown(json.loads(Path(args.out).with_name("results.json").read_text()), Path(args.out))
        return 0
    only = [s for s in SECTIONS if s in set(args.only.split(","))]
    unknown = set(args.only.split(",")) - set(SECTIONS)
    if unknown:
        ap.error(f"unknown benchmark(s) {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}")
    gpus = args.fleet_gpus or (2000 if args.quick else 10_000)
    tenants = [int(x) for x in (args.tenants or ("10,100" if args.quick else "10,100,1000,5000")).split(",")]
    deadline = time.monotonic() + args.budget
    results_json = Path(args.out).with_name("results.json")
    res = json.loads(results_json.read_text()) if results_json.exists() else {}
    res = {k: v for k, v in res.items() if k in SECTIONS}  # sections of earlier runs that this one does not redo
    res.update(machine=machine(), budget=args.budget)
    command = "python benchmarks/run.py" + ("" if argv == [] else " " + " ".join(sys.argv[1:] if argv is None
                                                                                 else argv))
    tmp = tempfile.mkdtemp(prefix="gpudash-bench-")
    work = Path(tmp)
    try:
        run_all(work, only, res, gpus, tenants, args.repeat, deadline, command.strip(), args.base or None,
                Path(args.cache) if args.cache else None)
    finally:
        for prom in STARTED:
            prom.stop()
        if args.keep:
            print(f"work directory kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    results_json.write_text(json.dumps(res, indent=2, sort_keys=True) + "\n")
    write_markdown(res, Path(args.out))
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


def run_all(work: Path, only: list[str], res: dict, gpus: int, tenants: list[int], repeat: int, deadline: float,
            command: str, base: str | None = None, fleet_cache: Path | None = None) -> None:
    cache = work / "cache"  # the e2e month's history blocks, built once for accuracy and dashboard
    commit = source_commit()
    sections = {"accuracy": lambda: accuracy(work / "acc", cache),
                "dashboard": lambda: dashboard(work / "dash", cache),
                "fleet": lambda: fleet(work / "fleet", gpus, repeat, fleet_cache),
                "scale": lambda: scale(work / "scale", tenants, deadline, base),
                "backfill": lambda: backfill.measure(work / "backfill", cache, STARTED),
                "hubday": lambda: hub_day.measure(work / "hubday", **hub_day.QUICK if gpus < 10_000 else {})}
    for name in only:
        (work / name).mkdir(parents=True, exist_ok=True)
        (work / {"accuracy": "acc", "dashboard": "dash"}.get(name, name)).mkdir(parents=True, exist_ok=True)
        meta = {"when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "command": command, "commit": commit,
                "load_before": os.getloadavg()[0]}
        s = time.perf_counter()
        try:
            out = sections[name]()
        except Exception as err:  # one failed benchmark must not cost the others their figures
            import traceback

            traceback.print_exc()
            out = {"error": f"{type(err).__name__}: {str(err)[:300]}"}
        finally:
            for prom in STARTED:
                prom.stop()
        meta.update(seconds=round(time.perf_counter() - s, 1), load_after=os.getloadavg()[0])
        out["meta"] = meta
        res[name] = out
        print(f"{name}: {meta['seconds']} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())

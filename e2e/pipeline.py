"""The month-scale end-to-end pipeline shared by the tests and the benchmarks.

mock file -> OpenMetrics history per cluster and day -> TSDB blocks (cached across pytest-xdist workers) ->
spoke Prometheus per cluster -> (single cluster) spoke + hub rules backfilled by level, or (ACM) the
metrics-collector simulation -> hub Prometheus -> hub rules backfilled by level -> queries at explicit times,
compared with the independent reference model (gpudash.simulation.reference, via the mock's FastReference).

Times: the mock's minute 0 is 2026-10-01T00:00Z. The reference model counts minutes from the Unix epoch for
its calendar (period start), so it is given minutes relative to the mock start: October 2026 and January 1970
both have 31 days, so months start at the same relative minute for the first 59 days (checked below).
"""
from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import shutil
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import yaml

import gpudash
from e2e import toolsets
from e2e.harness import GOGC, Prometheus, go_env, tools
from gpudash.base import layout
from gpudash.model import load_model
from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.ops.mock.config import Mock
from gpudash.ops.mock.config import load as load_mock
from gpudash.ops.mock.history import write_history
from gpudash.ops.mock.timeline import FastReference, for_cluster
from gpudash.promql import read as hub_read
from gpudash.render.rules.rule_files import at_push_interval

DATA = Path(__file__).parent / "data"
MODEL = DATA / "model.yaml"
MONTH = DATA / "month.mock.yaml"
REL = 1e-9  # relative tolerance: exact up to float summation order


def load(model_path=MODEL, mock_path=MONTH) -> tuple[Model, Mock]:
    model = load_model(model_path)
    mock = load_mock(mock_path, model)
    start = datetime.fromtimestamp(mock.start, UTC)
    epoch_aligned = (start.day == 1 and start.hour == 0 and start.month in (1, 10, 12)
                     and mock.scenario.duration <= 59 * 1440)
    assert epoch_aligned or mock.scenario.duration <= 28 * 1440, "reference calendar would differ from the mock's"
    return model, mock


def other_convention(model: Model) -> Model:
    """``model`` with each GPU exporter's label convention flipped: ``namespace`` (scraped with honorLabels) <->
    ``exported_namespace`` (without)."""
    flip = {"namespace": "exported_namespace", "exported_namespace": "namespace"}
    src = model.sources
    dcgm, amd = (dataclasses.replace(e, tenant_label=flip[e.tenant_label]) for e in (src.dcgm, src.amd))
    return dataclasses.replace(model, sources=dataclasses.replace(src, dcgm=dcgm, amd=amd))


def spoke_rules_at_push_interval(rendered: Path, model: Model) -> Path:
    """The rendered spoke rule file with its group evaluated every ``billing.mco_interval``
    (:func:`gpudash.render.rules.rule_files.at_push_interval`), written beside it."""
    data = at_push_interval(yaml.safe_load((rendered / layout.SPOKE_RULES).read_text()), model)
    path = rendered / layout.SPOKE_RULES.replace(".rules.yaml", ".at-push-interval.rules.yaml")
    path.write_text(yaml.safe_dump(data, sort_keys=False, width=1 << 20))
    return path


def render(model: Model, out: Path, rules_only: bool = False) -> Path:
    """The model's artifacts written to ``out`` (``rules_only``: just rules/, alerts/ and mco/, e.g. for models
    the golden test emitter cannot take)."""
    from gpudash.render import alerts, rules, writer
    from gpudash.render.rules import hub, spoke
    from gpudash.render.targets import artifacts
    from gpudash.render.targets.acm import mco

    if rules_only:
        groups, tier = (spoke.group(model), hub.groups(model), alerts.hub_groups(model)), rules.tier_groups(model)
        files = {**rules.files(*groups[:2], tier), **alerts.files(model, groups[2]),
                 **mco.objects(model, *groups, tier, (alerts.allowlist_names(model), alerts.allowlist_matches(model)))}
    else:
        files = artifacts.generate(model)
    writer.apply(writer.plan(out, files))
    return out


def _fingerprint(*paths) -> str:
    h = hashlib.sha256()
    for p in paths:
        p = Path(p)
        for f in sorted(p.rglob("*.py")) if p.is_dir() else [p]:
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def block_writer(toolset: str) -> str:
    """The toolset whose promtool writes the history blocks a server of ``toolset`` reads: the oldest one
    present, so one set serves every version (Prometheus 3 reads 2.x blocks; a 3.x TSDB needs 2.55 or newer,
    prometheus/prometheus docs/migration.md "TSDB format and downgrade"), and 3.x starts on 2.x data as after
    an OpenShift upgrade."""
    return next((t for t in toolsets.NAMES if not toolsets.find(t).missing), toolset)


# Days at the end of the month for which the history holds GPU exporter series (a month of them is mostly volume)
EXPORTER_DAYS = 1


def cached_blocks(cache_root: Path, model: Model, mock: Mock, exporters_days: int = EXPORTER_DAYS,
                  toolset: str = toolsets.DEFAULT, days: int | None = None) -> tuple[dict, dict]:
    """{cluster: directory of TSDB blocks} of the mock's raw history for a server of ``toolset`` (the last
    ``days`` of it, default all), built once per content and block writer (file lock, so pytest-xdist workers
    share it), plus timings."""
    since = 0 if days is None else max(0, mock.scenario.duration - days * 1440)
    writer = block_writer(toolset)
    package = Path(gpudash.__file__).parent
    conventions = f"{model.sources.dcgm.tenant_label}-{model.sources.amd.tenant_label}"  # the exporters' label shapes
    key = _fingerprint(MODEL, Path(mock.source), package / "ops" / "mock", package / "render" / "golden",
                       package / "simulation") + f"-prometheus{writer}-{conventions}-from{since}"
    root = Path(cache_root) / f"history-{key}"
    root.mkdir(parents=True, exist_ok=True)
    timings: dict = {}
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / "done.yaml"
        if done.exists():
            return {c: root / "blocks" / c for c in mock.scenario.clusters}, yaml.safe_load(done.read_text())
        t0 = time.monotonic()
        stats = write_history(mock, model, root / "om", since=since,
                              exporters_from=mock.scenario.duration - exporters_days * 1440)
        timings.update(history_seconds=round(stats.seconds, 1), samples=stats.samples, series=stats.series,
                       om_files=len(stats.files))
        t1 = time.monotonic()
        _, promtool = tools(writer)
        procs = []
        for f in stats.files:
            out = root / "blocks-staging" / f.parent.name / f.stem
            procs.append((f, subprocess.Popen([promtool, "tsdb", "create-blocks-from", "openmetrics", "-q",
                                               "--max-block-duration=24h", str(f), str(out)],
                                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=go_env(GOGC))))
            while sum(p.poll() is None for _, p in procs) >= 2:
                time.sleep(0.05)
        for f, p in procs:
            if p.wait():
                raise RuntimeError(f"promtool openmetrics {f}: {p.stderr.read().decode()[-2000:]}")
        for cluster in mock.scenario.clusters:
            dest = root / "blocks" / cluster
            dest.mkdir(parents=True, exist_ok=True)
            for meta in list((root / "blocks-staging" / cluster).rglob("meta.json")):
                shutil.move(str(meta.parent), dest / meta.parent.name)
        shutil.rmtree(root / "blocks-staging", ignore_errors=True)
        shutil.rmtree(root / "om", ignore_errors=True)
        timings.update(promtool_openmetrics_seconds=round(time.monotonic() - t1, 1),
                       total_seconds=round(time.monotonic() - t0, 1))
        done.write_text(yaml.safe_dump(timings))
        return {c: root / "blocks" / c for c in mock.scenario.clusters}, timings


def prometheus_with_blocks(workdir: Path, blocks: Path, **kw) -> Prometheus:
    prom = Prometheus(workdir, **kw)
    for b in blocks.iterdir():
        if (b / "meta.json").exists():
            shutil.copytree(b, prom.data / b.name)
    return prom.start()


def restarted_replica(workdir: Path, blocks: Path, t0: float, t1: float, **kw) -> Prometheus:
    """A spoke replica restarted at ``t0`` with an empty TSDB, for queries up to ``t1``: the blocks of the
    cluster's history that overlap [t0, t1], with every sample before ``t0`` deleted (the admin API's
    tombstones apply to every read). ``kw`` as for :class:`Prometheus` (e.g. ``toolset``)."""
    prom = Prometheus(workdir, args=("--web.enable-admin-api",), **kw)
    for b in blocks.iterdir():
        meta = b / "meta.json"
        if meta.exists():
            span = json.loads(meta.read_text())
            if span["minTime"] <= t1 * 1000 and span["maxTime"] >= t0 * 1000:
                shutil.copytree(b, prom.data / b.name)
    prom.start()
    prom._post("/api/v1/admin/tsdb/delete_series", {"match[]": '{__name__=~".+"}', "start": "0",
                                                    "end": repr(t0 - 0.001)})
    return prom


# --- comparisons with the reference model --------------------------------------------------------------------
def references(model: Model, mock: Mock, toolset: str = toolsets.DEFAULT) -> dict:
    """The reference per cluster, reading the GPU exporters as :func:`cached_blocks` backfills them and as the
    ``toolset``'s Prometheus looks back (README.md, Known limits, "Prometheus versions")."""
    exporters_from = mock.scenario.duration - EXPORTER_DAYS * 1440
    return {c: FastReference(for_cluster(mock.scenario, c), model, exporters_backfilled_from=exporters_from,
                             closed_lookback=toolset == "2") for c in mock.scenario.clusters}


class HubTruth:
    """What the hub must finally hold per cluster and hour, from the reference model: every hour in full,
    except ``lost`` {(cluster, hour, "gpu_hours" | "node_max" | "energy")} (a rule that failed in every push of the hour
    after) and ``since`` {(cluster, hour): minute} (the pushes of the hour after read a replica holding data
    from that minute on; pushes before the restart carried the full hour, and the hub keeps the larger)."""

    def __init__(self, refs: dict, lost=(), since=None):
        self.refs, self.lost, self.since = refs, set(lost), dict(since or {})

    def gpu_hours(self, cluster: str, hour: int) -> dict[tuple, float]:
        if (cluster, hour, "gpu_hours") in self.lost:
            return {}
        return self.refs[cluster].gpu_hours(hour, self.since.get((cluster, hour), 0))

    def billing(self, cluster: str, hour: int) -> dict[tuple, tuple[float, float]]:
        return self.refs[cluster].price(self.gpu_hours(cluster, hour))[0]

    def unpriced(self, cluster: str, hour: int) -> dict[tuple, float]:
        return self.refs[cluster].price(self.gpu_hours(cluster, hour))[1]

    def node_max(self, cluster: str, hour: int) -> dict[tuple, int]:
        if (cluster, hour, "node_max") in self.lost:
            return {}
        return self.refs[cluster].node_max(hour, self.since.get((cluster, hour), 0))

    def energy(self, cluster: str, hour: int) -> dict[tuple, tuple[float, float]]:
        """{(cluster, namespace): (kWh, cost)} of ``hour``, namespace "" the unallocated line."""
        if (cluster, hour, "energy") in self.lost:
            return {}
        ref = self.refs[cluster]
        return ref.energy_lines(ref.energy(hour, self.since.get((cluster, hour), 0)))

    def fleet_energy(self, cluster: str, hour: int) -> float:
        """kWh the cluster's GPUs drew in ``hour``, from their counters and power alone."""
        if (cluster, hour, "energy") in self.lost:
            return 0.0
        return self.refs[cluster].fleet_energy(hour, self.since.get((cluster, hour), 0)).get(cluster, 0.0)

    def period_to_date(self, cluster: str, minute: int) -> dict[str, float]:
        ref = self.refs[cluster]
        return ref.period_to_date(minute, hour_costs=lambda hour: ref.hour_cost(self.billing(cluster, hour)))

    def coverage(self, cluster: str, hour: int) -> float:
        """BILLING_COVERAGE of ``hour`` (read in the hour after): 0 when an hourly rule never ran."""
        if any((cluster, hour, kind) in self.lost for kind in ("gpu_hours", "node_max")):
            return 0.0
        ref = self.refs[cluster]
        return ref.steps_observed(hour, self.since.get((cluster, hour), 0)) / ref.steps_per_hour()


def report_billing(hub: Prometheus, model_file: Path, start: str, end: str) -> dict:
    """``python -m gpudash report billing`` of ``[start, end)`` (RFC 3339) against ``hub``, as JSON."""
    out = subprocess.run([sys.executable, "-m", "gpudash", "report", "billing", "--prometheus-url", hub.url,
                          "-c", str(model_file), "--start", start, "--end", end, "--format", "json"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def statement_mismatches(report: dict, model: Model, truth: HubTruth, hours) -> list[str]:
    """The tenants' GPU lines of a ``report billing`` JSON statement that differ from the sums of ``truth``'s
    billing lines over ``hours`` (GPU-hours to the report's precision, cost to the cent), and lines only one side
    has."""
    tenants = {t.namespace for t in model.tenants}
    exp: dict[tuple, list[float]] = {}
    for h in hours:
        for cluster in truth.refs:
            for (c, ns, cls, res), (gh, cost) in truth.billing(cluster, h).items():
                if ns in tenants:
                    acc = exp.setdefault((c, ns, cls, res), [0.0, 0.0])
                    acc[0] += gh
                    acc[1] += cost
    got = {(x["cluster"], x["namespace"], x["gpu_class"], x["resource"]): (x["quantity"], float(x["cost"]))
           for x in report["lines"] if x["kind"] == "gpu" and (x["quantity"] or float(x["cost"]))}  # money: text
    out = [f"line {k}: only in the {'report' if k in got else 'reference'}"
           for k in got.keys() ^ {k for k, v in exp.items() if v[0]}]
    out += [f"line {k}: got {gh} GPU-hours, {cost} expected {exp[k]}" for k, (gh, cost) in got.items() if k in exp
            and not (abs(gh - exp[k][0]) <= 1e-5 * max(1, gh) and abs(cost - exp[k][1]) <= 0.0051)]
    return out


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(1.0, abs(a), abs(b))


def _diff(what: str, hour: int, got: dict, exp: dict, out: list) -> None:
    got = {k: v for k, v in got.items() if v}
    exp = {k: v for k, v in exp.items() if v}
    for k in sorted(set(got) | set(exp), key=str):
        if k not in got or k not in exp or not _close(got[k], exp[k]):
            out.append(f"{what} hour {hour} {k}: got {got.get(k)} expected {exp.get(k)}")


def hourly_by_range(prom: Prometheus, expr: str, mock: Mock, hours: range, keys: tuple[str, ...],
                    delay: int = hub_read.READ_DELAY // 3600) -> dict:
    """{hour: {label values: value}} of ``expr`` read at ``hour + delay`` hours (the model's
    :func:`gpudash.promql.read.delay`) for each hour (one range query)."""
    out: dict[int, dict] = {h: {} for h in hours}
    first = mock.at((hours.start + delay) * 60)
    for labels, samples in prom.query_range(expr, first, mock.at((hours.stop - 1 + delay) * 60), 3600):
        d = dict(labels)
        for t, v in samples:
            h = int(round((t - mock.start) / 3600)) - delay
            if h in out:
                key = tuple(d.get(k, "") for k in keys)
                out[h][key] = out[h].get(key, 0.0) + v
    return out


def compare_hub(prom: Prometheus, model: Model, mock: Mock, refs: dict, hours: range, cluster_label: bool,
                clusters=None, truth: HubTruth | None = None) -> tuple[list[str], dict]:
    """Every hourly billing line, unpriced line, per-node CCSP maximum, fleet figure and energy line (kWh and cost
    per namespace, the unallocated line; the cluster's total equal to their sum and to the reference's) of
    ``hours``, read as the contract says (hour h at h + 2h with ``last_over_time(series[1h] offset 1ms)``), against
    ``truth`` (default: every hour in full). Returns the mismatches and counts of what was compared;
    ``counts["shared"]`` is, per MIG or time-sliced node ("cluster/node"), [node-hours whose maximum came from
    dcgm-exporter's attribution at some step, those of them above the fewest GPUs that could hold the
    allocation]: compared exactly like every other node-hour, they show the attributed count, not the bound, was
    checked;
    ``counts["energy_reset_hours"]`` the (cluster, hour)s with a driver reload (an energy counter reset) whose
    energy was compared."""
    clusters = clusters or list(refs)
    truth = truth or HubTruth(refs)
    cl = ("cluster",) if cluster_label else ()
    read = "last_over_time({}" + hub_read.HOUR_RANGE + ")"  # the contract's hour read

    def by_hour(expr, mock, hours, keys):  # read where the model's hub settles each hour
        return hourly_by_range(prom, expr, mock, hours, keys, hub_read.delay(model) // 3600)

    got = {
        "gpu_hours": by_hour(read.format(names.HOUR_GPU_HOURS), mock, hours,
                                     (*cl, "namespace", "gpu_class", "resource")),
        "cost": by_hour(read.format(names.HOUR_COST), mock, hours,
                                (*cl, "namespace", "gpu_class", "resource")),
        "unpriced": by_hour(read.format(names.UNPRICED_GPU_HOURS), mock, hours,
                                    (*cl, "namespace", "product", "resource")),
        "node_max": by_hour(f"max by ({', '.join((*cl, 'node'))}) ({read.format(names.CCSP_NODE_GPUS)})",
                                    mock, hours, (*cl, "node")),
        "active_nodes": by_hour(read.format(names.CCSP_ACTIVE_NODES), mock, hours, cl),
        "active_gpus": by_hour(read.format(names.CCSP_ACTIVE_GPUS), mock, hours, cl),
        "energy": by_hour(read.format(names.HOUR_ENERGY), mock, hours, (*cl, "namespace")),
        "energy_cost": by_hour(read.format(names.HOUR_ENERGY_COST), mock, hours, (*cl, "namespace")),
    }
    fleet = by_hour(f"sum by ({', '.join(cl)}) ({read.format(names.HOUR_ENERGY)})", mock, hours, cl)
    problems: list[str] = []
    counts: dict = {k: 0 for k in got}
    counts["shared"] = {}
    shared = {(n.cluster, n.name) for n in mock.scenario.nodes if n.mig_strategy != "none" or n.replicas > 1}
    node_hours = exact_node_hours = 0
    for h in hours:
        exp = {k: {} for k in got}
        for c in clusters:
            key = (lambda *rest, c=c: (c, *rest)) if cluster_label else (lambda *rest: tuple(rest))
            for (_, ns, cls, res), (gh, cost) in truth.billing(c, h).items():
                exp["gpu_hours"][key(ns, cls, res)] = gh
                exp["cost"][key(ns, cls, res)] = cost
            for (_, ns, prod, res), gh in truth.unpriced(c, h).items():
                exp["unpriced"][key(ns, prod, res)] = gh
            node_max = truth.node_max(c, h)
            for (_, node), g in node_max.items():
                exp["node_max"][key(node)] = g
            if node_max:
                exp["active_nodes"][key()] = len(node_max)
                exp["active_gpus"][key()] = sum(node_max.values())
            for (_, ns), (kwh, cost) in truth.energy(c, h).items():
                exp["energy"][key(ns)] = kwh
                exp["energy_cost"][key(ns)] = cost
            _energy_adds_up(c, h, key(), fleet[h], got["energy"][h], truth.fleet_energy(c, h), problems)
        for what in got:
            counts[what] += len([v for v in exp[what].values() if v])
            _diff(what, h, got[what][h], exp[what], problems)
        for c in clusters:
            for (_, node), g in truth.node_max(c, h).items():
                if (c, node) in shared and (c, node, names.FROM_ATTRIBUTION) in truth.refs[c].node_max_by_source(h):
                    bound = max(truth.refs[c].allocation_bound(m).get((c, node), 0) for m in truth.refs[c].steps(h))
                    acc = counts["shared"].setdefault(f"{c}/{node}", [0, 0])
                    acc[0] += 1
                    acc[1] += g > bound
        node_hours += len(exp["node_max"])
        exact_node_hours += sum(1 for k, v in exp["node_max"].items() if _close(got["node_max"][h].get(k, 0), v))
    reloads = {(n.cluster, f.at // 60) for f in mock.scenario.faults_of("driver_reload") for n in mock.scenario.nodes
               if f.node in ("", n.name) and n.cluster in clusters}
    counts["energy_reset_hours"] = sorted(ch for ch in reloads if ch[1] in hours and truth.fleet_energy(*ch))
    counts["node_hours_exact_ratio"] = exact_node_hours / node_hours if node_hours else 1.0
    counts["totals"] = {
        "gpu_hours_got": sum(sum(v.values()) for v in got["gpu_hours"].values()),
        "gpu_hours_expected": sum(sum(gh for gh, _ in truth.billing(c, h).values()) for c in clusters for h in hours),
        "energy_kwh_got": sum(sum(v.values()) for v in got["energy"].values()),
        "energy_kwh_expected": sum(truth.fleet_energy(c, h) for c in clusters for h in hours),
    }
    return problems, counts


def _energy_adds_up(cluster: str, hour: int, key: tuple, fleet: dict, lines: dict, expected: float,
                    out: list) -> None:
    """The hub's GPU energy of a cluster-hour (summed by PromQL) equals its tenant lines plus the unallocated line
    (summed here) and the reference's fleet total, from the GPUs' counters and power alone."""
    hub = fleet.get(key, 0.0)
    rows = sum(v for k, v in lines.items() if k[:len(key)] == key)
    if not (_close(hub, rows) and _close(hub, expected)):
        out.append(f"fleet energy hour {hour} {cluster}: hub {hub}, its lines {rows}, reference {expected}")


def definition_gaps(refs: dict, clusters, hours) -> list[str]:
    """Node-hours whose measured count (the reference's, which the rules must equal) is not seed 000's definition:
    the most physical GPUs allocated to Running pods at any step of the hour (``defined_gpus``)."""
    out = []
    for c in clusters:
        ref = refs[c]
        for h in hours:
            defined: dict[tuple, int] = {}
            for m in ref.steps(h):
                for key, g in ref.defined_gpus(m).items():
                    defined[key] = max(defined.get(key, 0), g)
            if ref.node_max(h) != defined:
                out.append(f"{c} hour {h}: measured {ref.node_max(h)} != defined {defined}")
    return out


def shared_ccsp_gaps(mock: Mock, counts: dict, clusters) -> list[str]:
    """MIG or time-sliced nodes of ``clusters`` whose CCSP figures :func:`compare_hub` did not check against
    dcgm-exporter's attribution (no attributed node-hour), or, with more than one GPU, never where it exceeds
    the compute-share bound (so a rule that fell back to the bound would pass unnoticed)."""
    out = []
    for n in mock.scenario.nodes:
        if n.cluster in clusters and (n.mig_strategy != "none" or n.replicas > 1):
            attributed, above = counts["shared"].get(f"{n.cluster}/{n.name}", (0, 0))
            if not attributed or (n.count > 1 and not above):
                out.append(f"{n.cluster}/{n.name}: {attributed} attributed node-hours, {above} above the bound")
    return out


def hub_start(model: Model, mock: Mock) -> float:
    return float(mock.start)


def relative_minute(mock: Mock, t: float) -> int:
    return int((t - mock.start) // 60)


# --- period to date and alerts -------------------------------------------------------------------------------
def stable(ref: FastReference, minute: int, window: int = 15) -> bool:
    now = ref.pod_allocation(minute)
    return all(ref.pod_allocation(m) == now for m in range(max(0, minute - window), minute))


def expected_ptd(refs: dict, model: Model, mock: Mock, t: float, truth: HubTruth | None = None) -> dict[str, float]:
    """{namespace: period-to-date cost} at time ``t`` over all clusters (billing contract section 7)."""
    minute = relative_minute(mock, t)
    frac = t - mock.at(minute)
    out: dict[str, float] = {}
    tenants = {x.namespace for x in model.tenants}
    truth = truth or HubTruth(refs)
    for cluster, ref in refs.items():
        for ns, v in truth.period_to_date(cluster, minute).items():
            out[ns] = out.get(ns, 0.0) + v
        for (_, ns), rate in ref.cost_rate(minute).items():
            if ns in tenants:
                out[ns] += rate * frac / 3600
    return out


def alert_rules(rendered: Path) -> dict[str, list[dict]]:
    """{alert name: [rule, ...]} of the rendered hub alert file, each with its group interval in seconds."""
    from gpudash.model.durations import parse_duration

    out: dict[str, list[dict]] = {}
    for g in yaml.safe_load((rendered / layout.ALERT_RULES).read_text())["groups"]:
        for r in g["rules"]:
            if "alert" in r:
                out.setdefault(r["alert"], []).append({**r, "interval": parse_duration(g.get("interval", "1m"))})
    return out


def firing(prom: Prometheus, rules: list[dict], t: float) -> list[dict[str, str]]:
    """Label sets of the alert(s) firing at ``t``: the expr returned them at every rule evaluation of the
    ``for`` window ending at ``t`` (evaluations every group interval), as the rule manager requires."""
    from gpudash.model.durations import parse_duration

    out = []
    for r in rules:
        hold = parse_duration(r["for"]) if r.get("for") else 0
        steps = hold // r["interval"] + 1
        seen = prom.query_range(r["expr"], t - (steps - 1) * r["interval"], t, r["interval"])
        out += [dict(labels) for labels, samples in seen if len(samples) == steps]
    return out

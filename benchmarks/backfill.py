"""Series pushed with and without backfill (``billing.backfill_hours``), measured on the e2e month's two clusters:
each spoke's history in a real Prometheus, the spoke tier's group backfilled over the 27 hours before one push,
then that push made by the metrics-collector simulation from the allowlist of the same model rendered with 0 and
with 24 hours of backfill (the tier's samples are the same for both). The hub stores what is pushed: its series
from the pushes grow the same way; the hub's own recorded series do not depend on the backfill."""
from __future__ import annotations

import concurrent.futures
import statistics
import time
from pathlib import Path

import yaml

from e2e import mco_sim, pipeline
from e2e.harness import Prometheus
from gpudash import layout
from gpudash.model.pricing import skus
from gpudash.rules import hub, names

HOURLY = (names.HOURLY_GPU_HOURS, names.NODE_ACTIVE_GPUS_MAX, names.STEPS_OBSERVED, names.HOURLY_ENERGY)
AT_MINUTE = 10 * 1440 + 12 * 60  # day 10 12:00 of the e2e month: the trainer's crash day, jobs around


def _model(work: Path, backfill: int):
    data = yaml.safe_load(pipeline.MODEL.read_text())
    data.setdefault("billing", {}).update(spoke_tier="policy", backfill_hours=backfill)
    path = work / f"model-{backfill}.yaml"
    path.write_text(yaml.safe_dump(data))
    return pipeline.load(path)


def measure(work: Path, cache: Path, started: list) -> dict:
    t0 = time.monotonic()
    plain, mock = _model(work, 0)
    late, _ = _model(work, 24)
    rendered = {n: pipeline.render(m, work / f"rendered-{n}", rules_only=True) for n, m in ((0, plain), (24, late))}
    blocks, _ = pipeline.cached_blocks(cache, late, mock)
    at = mock.at(AT_MINUTE)
    spokes = {c: pipeline.prometheus_with_blocks(work / f"spoke-{c}", blocks[c]) for c in mock.scenario.clusters}
    started += spokes.values()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda s: s.backfill_rules([rendered[24] / layout.SPOKE_TIER_RULES], at - 27 * 3600, at,
                                                 method="query"), spokes.values()))
    rows = []
    for backfill, folder in rendered.items():
        allow = mco_sim.decode_allowlist(folder / mco_sim.ALLOWLIST_FILE)
        rules = {r for r, _ in allow.recording_rules}
        for c, spoke in spokes.items():
            log = mco_sim.Collector(spoke, c, allow, plain.billing.mco_interval).collect(at, at)
            series = [dict(labels)["__name__"] for labels in log.samples]
            rows.append({"backfill_hours": backfill, "cluster": c,
                         "rule_series": sum(1 for n in series if n in rules),
                         "hourly_series": sum(1 for n in series if n in HOURLY),
                         "names_series": sum(1 for n in series if n not in rules)})
    for s in spokes.values():
        s.stop()
    return {"rows": rows, "at": AT_MINUTE, "hub": hub_cost(work, started), "seconds": round(time.monotonic() - t0, 1)}


# The fleet's hourly rows per push (section 1: 251 GPU-hours lines, 1,251 node rows, 52 energy rows, 1 steps row)
FLEET_ROWS = {names.HOURLY_GPU_HOURS: 250, names.NODE_ACTIVE_GPUS_MAX: 1250, names.HOURLY_ENERGY: 51,
              names.STEPS_OBSERVED: 1}
HOURS = 28  # pushes over this many hours: the settling hour reads the 25 before it


def _fleet_pushes(model, backfill: int, start: float) -> mco_sim.PushLog:
    """One cluster's hourly pushes at fleet size every 5 minutes over HOURS hours, as the spoke rules of a model
    with ``backfill`` would push them (values 1: the settling's cost depends on the rows, not their values)."""
    cluster = model.clusters[0]
    priced = [(s.product, s.ksm_resource) for s in skus(model)]
    rows = {names.HOURLY_GPU_HOURS: [{"namespace": f"ns-{i // len(priced):03d}", "product": priced[i % len(priced)][0],
                                      "resource": priced[i % len(priced)][1]}
                                     for i in range(FLEET_ROWS[names.HOURLY_GPU_HOURS])],
            names.NODE_ACTIVE_GPUS_MAX: [{"node": f"gpu-{i:04d}", names.ACTIVE_FROM_LABEL: names.FROM_ALLOCATION}
                                         for i in range(FLEET_ROWS[names.NODE_ACTIVE_GPUS_MAX])],
            names.HOURLY_ENERGY: [{"namespace": f"ns-{i:03d}"} for i in range(FLEET_ROWS[names.HOURLY_ENERGY])],
            names.STEPS_OBSERVED: [{}]}
    log = mco_sim.PushLog(cluster)
    for k in range(HOURS * 12 + 1):
        t = start + k * 300
        for lag in range(1, backfill + 2):
            tag = {names.LAG_LABEL: str(lag)} if backfill else {}
            for series, labelled in rows.items():
                value = 60.0 if series == names.STEPS_OBSERVED else 1.0
                for labels in labelled:
                    log.add(tuple(sorted({**labels, **tag, "__name__": series, "cluster": cluster}.items())), t, value)
                if series != names.STEPS_OBSERVED:  # the sentinel row
                    log.add(tuple(sorted({**tag, names.SENTINEL_LABEL: "1", "__name__": series,
                                          "cluster": cluster}.items())), t, 0.0)
        log.add((("__name__", names.BILLED_HOUR), ("cluster", cluster)), t, (t // 3600 - 1) * 3600)
    return log


def hub_cost(work: Path, started: list, repeat: int = 3) -> dict:
    """Each billing and CCSP hub rule's instant-query time on a hub holding HOURS hours of one 10,000-GPU cluster's
    pushes, without and with 24 hours of backfill, in the same run (median of ``repeat``)."""
    out: dict = {"rules": {}}
    for backfill in (0, 24):
        model, _ = _model(work, backfill)
        start = 1_790_000_000 // 3600 * 3600
        folder = work / f"hub-{backfill}"
        log = _fleet_pushes(model, backfill, start)
        out.setdefault("pushed_samples", {})[str(backfill)] = sum(len(v) for v in log.samples.values())
        pushes = mco_sim.write_pushes([log], folder / "pushed")
        del log
        prom = Prometheus(folder / "prom")
        started.append(prom)
        prom.backfill_openmetrics(pushes)
        groups = hub.groups(model)
        rendered = folder / "model.rules.yaml"
        rendered.write_text(yaml.safe_dump({"groups": [
            {"name": g.name, "interval": "5m", "rules": [{"record": r.record, "expr": r.expr, "labels": dict(r.labels)}
                                                         for r in g.rules]} for g in groups[:1]]}))
        at = start + HOURS * 3600 - 600
        prom.backfill_rules([rendered], at - 3600, at, method="query")
        for g in groups[1:3]:
            for r in g.rules:
                times = []
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    prom.query(r.expr, at)
                    times.append(time.perf_counter() - t0)
                out["rules"].setdefault(f"{g.name} {r.record}", {})[str(backfill)] = round(statistics.median(times), 4)
        prom.stop()
    return out


def markdown(sec: dict, fleet: dict | None) -> list[str]:
    out = ["## 5. Series with and without backfill", "",
           f"_Ran {sec['meta'].get('when', '')} on commit {sec['meta'].get('commit', '?')}, "
           f"`{sec['meta'].get('command', 'python benchmarks/run.py --only backfill')}`, "
           f"{sec['meta']['seconds']:.0f} s of machine time._", "",
           "One push at day 10 12:00 of the e2e month (`benchmarks/backfill.py`): the same spoke tier samples, the "
           "allowlist rendered with `billing.backfill_hours` 0 and 24.", "",
           "| cluster | backfill_hours | spoke recording-rule series | of them hourly (lagged) | allowlist names |",
           "|---|---:|---:|---:|---:|"]
    for r in sec["rows"]:
        out.append(f"| {r['cluster']} | {r['backfill_hours']} | {r['rule_series']:,} | {r['hourly_series']:,} | "
                   f"{r['names_series']:,} |")
    out.append("")
    if fleet and "tier" in fleet:
        hourly, rules = fleet["tier"]["hourly_series"], fleet["pushed_rule_series"]
        out += [f"At 10,000 GPUs (section 1) a push carries {rules:,} recording-rule series, {hourly:,} of them "
                f"hourly. With 24 hours of backfill each hourly series is pushed for 25 hours, so a steady fleet "
                f"pushes {rules + 24 * hourly:,} recording-rule series per cluster and interval "
                f"({(rules + 24 * hourly) / rules:.1f}x), and the hub holds that many active series per cluster "
                "from them; its own recorded series are unchanged. Derived from the counts of section 1, not "
                "measured: its history is 2 hours long.", ""]
    if "hub" in sec:
        rules = sec["hub"]["rules"]
        out += ["**Hub cost of settling** (`benchmarks/backfill.py` `hub_cost`): one 10,000-GPU cluster's hourly rows "
                "(section 1's counts) pushed every 5 minutes for "
                f"{HOURS} hours into a hub Prometheus, without and with 24 hours of backfill "
                f"({sec['hub']['pushed_samples']['0']:,} and {sec['hub']['pushed_samples']['24']:,} samples); each "
                "billing and CCSP hub rule as an instant query in the last hour, median of 3, same run.", "",
                "| hub rule | without backfill (s) | 24 h of backfill (s) | ratio |", "|---|---:|---:|---:|"]
        for name, t in rules.items():
            ratio = f"{t['24'] / t['0']:.1f}x" if t["0"] > 0.0005 else ""
            out.append(f"| `{name}` | {t['0']:.3f} | {t['24']:.3f} | {ratio} |")
        total = {k: sum(t[k] for t in rules.values()) for k in ("0", "24")}
        out += [f"| **all** | **{total['0']:.3f}** | **{total['24']:.3f}** | "
                f"**{total['24'] / max(total['0'], 1e-9):.1f}x** |", ""]
    return out

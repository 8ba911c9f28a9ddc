"""Series pushed with and without backfill (``billing.backfill_hours``), measured on the e2e month's two clusters:
each spoke's history in a real Prometheus, the spoke tier's group backfilled over the 27 hours before one push,
then that push made by the metrics-collector simulation from the allowlist of the same model rendered with 0 and
with 24 hours of backfill (the tier's samples are the same for both). The hub stores what is pushed: its series
from the pushes grow the same way; the hub's own recorded series do not depend on the backfill."""
from __future__ import annotations

import concurrent.futures
import time
from pathlib import Path

import yaml

from e2e import mco_sim, pipeline
from gpudash.base import layout
from gpudash.model import series as names

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
    return {"rows": rows, "at": AT_MINUTE, "seconds": round(time.monotonic() - t0, 1)}


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
    return out

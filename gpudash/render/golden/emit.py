"""Emit the golden promtool tests: every scenario the model can run, expectations from the reference model.

Size: the three kinds of test file share their expectations' helpers, so they stay in one module.

Per scenario up to three files (plain data; the writer serialises them):

* ``tests/golden-<name>.test.yaml`` -- the spoke path: synthetic raw series of one cluster in (1m samples),
  spoke and hub rule files evaluated together (spoke group first) every ``billing.mco_interval``, as the
  metrics-collector runs the spoke rules at each push; the spoke rules sample allocation at
  ``billing.resolution`` inside their subqueries, so their results do not depend on that interval. Spoke
  series have no ``cluster`` label here (MCO adds it on push), so neither do the hub series computed from them.
  With the spoke tier its recorded samples (the reference's) are input too.
* ``tests/golden-<name>-tier.test.yaml`` -- with the spoke tier: its rule group alone, every ``billing.resolution``,
  on the same raw series, each of its series checked at every step it records up to :func:`_tier_horizon`. Not for
  a scenario whose faults all lie beyond the spoke's Prometheus (:data:`COLLECTOR_FAULTS`): the tier never sees
  them, and its raw series are of kinds other scenarios' tier files check.
* ``tests/golden-<name>-settled.test.yaml`` -- with ``billing.backfill_hours`` N: the hub settles each hour N + 1
  hours after it ends, beyond a scenario of a few hours, so this file follows the scenario's pushes (its faults
  included) with one on-time push per hour until its last complete hour settles, evaluates the hub rules hourly on
  the hour, and checks each complete hour's final figures where the hub records them (the spoke and push-path
  files check that nothing settles earlier).
* ``tests/golden-<name>-hub.test.yaml`` -- the push path: what every cluster's metrics-collector pushes
  (the reference model's spoke figures at each jittered or lost push time, with ``cluster``) in, hub rules only.
  Both evaluate every ``billing.mco_interval`` (promtool ignores rule group ``interval``), except long
  ``hub_only`` scenarios (a month boundary, budgets, long outages): they evaluate hourly, on the hour, with one
  on-time push per hour, on the hour (:func:`gpudash.simulation.pushes.push_interval`), which is enough for every
  hub rule and keeps a 31-day horizon affordable.

The tier checks of every scenario, and the spoke checks of those whose spoke file has no hub rules
(:func:`_hub_side`), are one test group in one file per kind (:mod:`gpudash.render.golden.shared`: promtool's cost
is a group's steps times its rules' text, so one group of every scenario costs little more than the longest alone).
The hub rules know the model's clusters, so single-cluster scenarios share hub files by cluster and time
(:func:`places`): their settled checks one file, each on one of the first two model clusters after the one before it
there; their push-path checks in pairs (``tests/golden-<a>.<b>.hub.test.yaml``), the second moved to the model's
second cluster. Each one's checks are limited to its cluster (and hours).

``tests/golden/scenarios.yaml`` (:data:`gpudash.base.layout.GOLDEN_INDEX`, where ``promtool test rules tests/*.yaml``
does not pick it up) indexes the scenarios: what each protects, its files, or why it was skipped.

Comparisons: promtool 2.42 compares sample values exactly (``reflect.DeepEqual`` on float64; one ULP off fails,
checked by experiment; ``fuzzy_compare`` only exists from 3.5). Rules and the reference add the same terms in
different orders, so every non-integer figure is checked as ``round(x, 1/1048576)``: a power-of-two quantum
scales exactly, so both sides round to the same float unless a value sits within float noise of a half
quantum, which :func:`_quantum` avoids by picking another power of two (a coarser one for large figures).
"""
from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gpudash.base import layout
from gpudash.base.yamlfmt import serialise
from gpudash.model import series as names
from gpudash.model.tenants import threshold_label
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.render.alerts.integrity import pushing
from gpudash.render.golden import shared
from gpudash.render.rules import spoke_tier
from gpudash.render.rules.inputs import SPOKE_TIER as TIER_INPUT
from gpudash.simulation import clear_caches
from gpudash.simulation import scenario as sc
from gpudash.simulation.cluster_free import SharedFigures, on_cluster
from gpudash.simulation.pushes import (
    HOURLY_KINDS,
    Lagged,
    Pushed,
    later,
    push_interval,
    push_results,
    pushed,
    pushed_samples,
    rule_content,
    rule_samples,
    settling_samples,
)
from gpudash.simulation.reference import Reference, period_start
from gpudash.simulation.scenario import push_rules
from gpudash.simulation.series import input_series, local_key, synthesised, tier_recorded

SPOKE_RULES = layout.from_tests(layout.SPOKE_RULES)
HUB_RULES = layout.from_tests(layout.HUB_RULES)
TIER_RULES = layout.from_tests(layout.SPOKE_TIER_RULES)
GROUP_ORDER = ["gpudash-spoke", "gpudash-hub-model", "gpudash-hub-billing", "gpudash-hub-ccsp", "gpudash-hub-idle"]
POD_KEYS = local_key(names.POD_ALLOCATED)  # a per-pod allocation row in the spoke file, as the reference keys it
# the tier's per-pod step row: the labels of the reference's per-pod row that the tier's step series has
TIER_POD_KEYS = tuple(label for label in POD_KEYS if label in names.labels(names.TIER_POD_STEP))
_TIER_KIND_KEYS = tuple(label for label in names.labels(names.TIER_POD_KINDS) if label != "cluster")
# the spoke's missing-input row of the tier (its other inputs' series are not synthesised: those rows always show)
TIER_MISSING = q.agg("sum", ("input",), q.selector(names.INPUT_MISSING, ("input", "=", TIER_INPUT)))
STABLE = 10  # minutes without allocation change before burn-rate based figures are checked
TIER_SETTLED = 2 * sc.LOOKBACK  # minutes after a scenario's last event from which every tier step repeats the last
# Faults of the push path: a scenario with any of them gets a push-path (hub) test file.
PUSH_FAULTS = ("mco_jitter", "mco_missed", "mco_rule_failed", "mco_straddle", "spoke_restart")
# Faults of the metrics-collector and beyond, which the spoke's Prometheus (the tier included) never sees.
COLLECTOR_FAULTS = ("mco_jitter", "mco_missed", "mco_rule_failed", "mco_straddle", "mco_outage")
SETTLE_EVERY = "60m"  # settled files: the hub rules hourly, on the hour (each hour's last lag is pushed then)
SCENARIO_DIR = Path(__file__).parent / "scenarios"  # the golden catalogue (format: gpudash.simulation.scenario)


def _whole_minutes(model: Model) -> str:
    """Why no scenario can run, or ""."""
    if model.billing.resolution % 60 or model.billing.mco_interval % 60:
        return "golden scenarios need billing.resolution and billing.mco_interval in whole minutes"
    return ""


def _beyond_the_spoke(s: sc.Scenario) -> bool:
    """Every fault of ``s`` happens after the spoke's Prometheus (:data:`COLLECTOR_FAULTS`)."""
    return all(f.kind in COLLECTOR_FAULTS for f in s.faults)


@dataclasses.dataclass(frozen=True)
class Place:
    """Where a scenario's checks go beside the others' (:func:`places`): ``first``, the catalogue's first (its
    shares unlabelled, :func:`shared.scope`); ``slot``, (model cluster index, hour) where its settled checks run in
    the file single-cluster scenarios share (empty: a file of its own); ``hub_pair``, the two scenarios whose
    push-path checks share a file, each on its own model cluster, in order (empty: a file of its own)."""

    first: bool = False
    slot: tuple[int, ...] = ()
    hub_pair: tuple[str, ...] = ()


def places(scenarios: list[sc.Scenario], model: Model) -> dict[str, Place]:
    """Each scenario's :class:`Place`. Single-cluster scenarios share files, those after the first moved to the
    model's second cluster or hours later.

    Settled checks: one file (:data:`shared.SETTLED`), each scenario on the first two model clusters in turn, in
    the catalogue's order, from the hour the one before it on that cluster ended (the hub settles each hour
    ``billing.backfill_hours`` + 1 hours after it, so the file runs about that much longer than its scenarios,
    where each one alone did). Push-path checks: pairs among the scenarios pushing as often, longest first, on a
    model of two clusters or more, so that a pair's two scenarios last about as long (promtool evaluates a file's
    rules up to its last check: two month-long ones paired cost one month)."""
    single = [s for s in scenarios if len(s.clusters) == 1]
    lanes = [0] * min(2, len(model.clusters))
    slots: dict[str, tuple[int, int]] = {}
    for s in (s for s in single if _settles(s, model)):
        lane = lanes.index(min(lanes))
        slots[s.name] = (lane, lanes[lane])
        lanes[lane] += -(-s.duration // 60)
    pushing = sorted((s for s in single if _pushes(s)), key=lambda s: (push_interval(s, model), -s.duration))
    hub: dict[str, tuple[str, ...]] = {}
    for step in dict.fromkeys(push_interval(s, model) for s in pushing) if len(model.clusters) > 1 else ():
        hub.update(_pairs_in([s.name for s in pushing if push_interval(s, model) == step]))
    return {s.name: Place(i == 0, slots.get(s.name, ()), hub.get(s.name, ())) for i, s in enumerate(scenarios)}


def _pairs_in(names_: list[str]) -> dict[str, tuple[str, ...]]:
    """{name: its pair}, the names paired in order (an odd last one: none)."""
    pairs = {n: tuple(names_[i - i % 2:i - i % 2 + 2]) for i, n in enumerate(names_)}
    return {n: p for n, p in pairs.items() if len(p) == 2}


def _settles(s: sc.Scenario, model: Model) -> bool:
    return bool(model.billing.backfill_hours) and not s.hub_only and s.duration >= 60


def _pushes(s: sc.Scenario) -> bool:
    """``s`` has push-path checks (a hub file)."""
    return s.hub_only or len(s.clusters) > 1 or any(s.faults_of(k) for k in PUSH_FAULTS)


def _outputs(s: sc.Scenario, model: Model, place: Place = Place()) -> list[tuple[str, str]]:
    """(output path, kind: :data:`gpudash.base.layout.GOLDEN_KINDS`) of each test file of scenario ``s``."""
    kinds = [] if s.hub_only else ["spoke"]
    if model.billing.tier and not s.hub_only and not (s.faults and _beyond_the_spoke(s)):
        kinds.append("tier")
    if _pushes(s):
        kinds.append("hub")
    if _settles(s, model):
        kinds.append("settled")
    return [(_path(s, kind, model, place), kind) for kind in kinds]


def _path(s: sc.Scenario, kind: str, model: Model, place: Place) -> str:
    """Where ``s``'s checks of ``kind`` go: the file every scenario shares (:mod:`.shared`: its tier checks, and its
    spoke checks where the spoke file evaluates the spoke rules alone, :func:`_hub_side`), the settled file the
    single-cluster scenarios share, its pair's push-path file, or its own."""
    if kind == "tier" or (kind == "spoke" and not _hub_side(s, model)):
        return layout.golden_shared(kind)
    if kind == "settled" and place.slot:
        return shared.SETTLED
    if kind == "hub" and place.hub_pair:
        first, second = place.hub_pair
        return layout.golden_pair(first, second, kind)
    return layout.golden_test(s.name, kind)


def catalogue(model: Model, directory: Path = SCENARIO_DIR) -> tuple[list[sc.Scenario], dict[str, str]]:
    """The scenarios ``model`` can run, in the catalogue's order, and {name: why not} of the others (none of either
    when no scenario can run: :func:`index` says why)."""
    return ([], {}) if _whole_minutes(model) else sc.load(model, directory)


def emit_paths(model: Model, directory: Path = SCENARIO_DIR) -> list[str]:
    """The paths :func:`emit_tests` writes, without emitting them (the catalogue is read, nothing simulated)."""
    scenarios = catalogue(model, directory)[0]
    where = places(scenarios, model)
    paths = (path for s in scenarios for path, _ in _outputs(s, model, where[s.name]))
    return [*dict.fromkeys(paths), layout.GOLDEN_INDEX]  # a shared file once


def file_of(name: str, kind: str, model: Model, directory: Path = SCENARIO_DIR) -> str:
    """The test file holding scenario ``name``'s checks of ``kind`` (its own, or one scenarios share)."""
    scenarios = catalogue(model, directory)[0]
    s = next(s for s in scenarios if s.name == name)
    return dict((k, path) for path, k in _outputs(s, model, places(scenarios, model)[name]))[kind]


def scenario_tests(s: sc.Scenario, model: Model, place: Place = Place()) -> dict[str, dict | shared.Share]:
    """{output path: promtool test file data} of scenario ``s`` at ``place`` (:func:`places`), its share of a file
    scenarios share (:mod:`.shared`; of the settled one a :class:`shared.Share`) under that file's path: independent
    of every other scenario, so they may be emitted in any order and in any process. The simulation's caches are
    cleared after it."""
    ref, spokes = SharedFigures(s, model), {}  # type: tuple[Reference, dict[str, Spoke]]
    moved: dict[str, tuple[sc.Scenario, Reference]] = {s.clusters[0]: (s, ref)}  # s on a model cluster, once
    files: dict[str, dict | shared.Share] = {}
    for path, kind in _outputs(s, model, place):
        if kind == "settled" and place.slot:
            files[path] = _slotted(s, model, place.slot, moved)
            continue
        if kind == "hub" and place.hub_pair:
            files[path] = _paired(s, model, place.hub_pair, moved)
            continue
        data = _file(kind, s, model, ref, spokes)
        if path in shared.PATHS:
            header = {k: v for k, v in data.items() if k != "tests"}
            data = shared.part(kind, data["tests"], [shared.scope(place.first and i == 0, s.name, c)
                                                     for i, c in enumerate(s.clusters)], header)
        files[path] = data
    clear_caches()
    return files


def _at(s: sc.Scenario, model: Model, lane: int, moved: dict[str, tuple[sc.Scenario, Reference]]):
    """(``s`` on model cluster ``lane``, its reference); ``moved``: those made so far (its other place's)."""
    cluster = model.clusters[lane]
    if cluster not in moved:
        there = on_cluster(s, cluster)
        moved[cluster] = (there, SharedFigures(there, model))
    return moved[cluster]


def _paired(s: sc.Scenario, model: Model, pair: tuple[str, ...], moved) -> dict:
    """``s``'s share of its pair's push-path file: the second of the pair moved to the model's second cluster, each
    one's checks limited to its cluster (:func:`shared.on_cluster`)."""
    lane = pair.index(s.name)
    there, ref = _at(s, model, lane, moved)
    data = _hub_file(there, model, ref, only=model.clusters[lane])
    return shared.on_cluster(data, model.clusters[lane], f"{' and '.join(pair)} [push path, each on its own cluster]")


def _slotted(s: sc.Scenario, model: Model, slot: tuple[int, ...], moved) -> shared.Share:
    """``s``'s share of the settled file single-cluster scenarios share (:func:`places`): on model cluster ``lane``
    from ``hour`` on, each of its checks limited to its cluster. Scenarios before and after it on the cluster push
    the same series for other hours (:func:`shared.merged`)."""
    lane, hour = slot
    there, ref = _at(s, model, lane, moved)
    samples, last, tests = _settled(there, model, ref, (model.clusters[lane],))
    return shared.Share(_hub_header(SETTLE_EVERY), later(pushed_samples(there, model, ref, samples), hour * 60),
                        [_later(t, hour * 60) for t in shared.limited(tests, model.clusters[lane])], last + hour * 60)


def index(model: Model, scenarios: list[sc.Scenario], skipped: dict[str, str]) -> dict:
    """The index file's data (:data:`gpudash.base.layout.GOLDEN_INDEX`): what each scenario protects and its files,
    or why it was skipped; a model no scenario can run gets why (its rules are still checked by ``promtool check
    rules``)."""
    why = _whole_minutes(model)
    if why:
        return {"scenarios": {}, "skipped_all": why}
    entries: dict[str, dict[str, object]] = {name: {"skipped": why} for name, why in skipped.items()}
    where = places(scenarios, model)
    for s in scenarios:
        entries[s.name] = {"protects": s.protects, "files": [path.removeprefix(f"{layout.TESTS}/")
                                                             for path, _ in _outputs(s, model, where[s.name])]}
    return {"scenarios": dict(sorted(entries.items()))}


def emit_tests(model: Model, directory: Path = SCENARIO_DIR, progress=None) -> dict[str, object]:
    """{output path: promtool test file data (a shared file's: its text)} for every scenario ``model`` can run, in
    the catalogue's order, plus the index; ``progress(done, total, scenario)`` is told of each scenario started.
    One process; a render spreads the scenarios over every core (:mod:`gpudash.render.golden.orchestrate`).

    Scenarios are written in whole minutes: a model whose resolution or push interval is not a whole number
    of minutes gets the index only, saying why."""
    scenarios, skipped = catalogue(model, directory)
    files: list[tuple[str, object]] = []
    where = places(scenarios, model)
    for done, s in enumerate(scenarios):
        if progress:
            progress(done, len(scenarios), s.name)
        files += [(path, serialise(path, data) if shared.is_shared(path) and isinstance(data, dict) else data)
                  for path, data in scenario_tests(s, model, where[s.name]).items()]
    out = shared.assemble(files)
    out[layout.GOLDEN_INDEX] = index(model, scenarios, skipped)
    return out


def _file(kind: str, s: sc.Scenario, model: Model, ref: Reference, spokes: dict[str, Spoke]) -> dict:
    """The test file of ``kind`` (:func:`_outputs`) for scenario ``s``; ``spokes``: its :func:`_one_cluster` views,
    made once for its spoke and tier files."""
    if kind == "spoke":
        return _spoke_file(s, model, spokes)
    if kind == "settled":
        return _settled_file(s, model, ref)
    return _tier_file(s, model, spokes) if kind == "tier" else _hub_file(s, model, ref)


# --- expectations ------------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=65536)
def _labels(name: str | None, keys: tuple[str, ...], values: tuple) -> str:
    """A check's expected sample's labels: ``name{key="value",...}``, keys sorted; an empty value is left out but a
    product's. Rows repeat at every minute checked: each is written once."""
    body = ",".join(f'{k}="{v}"' for k, v in sorted(zip(keys, values)) if v != "" or k == "product")
    return f"{name or ''}{{{body}}}"


def _quantum(values) -> float:
    """A power-of-two rounding quantum no value is within float noise of a rounding boundary of: 2^-20 or a
    neighbour, else coarser ones (up to 2^40) for figures too large for float noise to stay below half of it
    (a budget of 10^11, the costs of a model priced in VND)."""
    for exp in (20, 19, 21, 18, 22, *range(17, -41, -1)):
        q = 2.0 ** -exp
        if all(abs((v / q) % 1 - 0.5) > 1e-11 * max(1.0, abs(v / q)) for v in values):
            return q
    raise ValueError(f"no rounding quantum fits {values}")


def _check(expr: str, minute: int, rows: Mapping[tuple, float], keys: tuple[str, ...], metric: bool = True) -> dict:
    """A promql_expr_test of ``expr`` at ``minute``: ``rows`` {label values: value}; zero series are not checked
    (rules may or may not write explicit zeros). Non-integers are compared rounded (see the module doc).
    ``metric``: ``expr`` is a series name, kept in the result labels."""
    rows = {k: v for k, v in rows.items() if v}
    if all(float(v).is_integer() for v in rows.values()):
        samples = [{"labels": _labels(expr if metric else None, keys, k), "value": v}
                   for k, v in sorted(rows.items())]
        return {"expr": f"{expr} != 0", "eval_time": f"{minute}m", "exp_samples": samples}
    q = _quantum(rows.values())
    samples = [{"labels": _labels(None, keys, k), "value": math.floor(v * (1 / q) + 0.5) / (1 / q)}
               for k, v in sorted(rows.items())]
    to = f"1/{int(1 / q)}" if q < 1 else f"{int(q)}"
    return {"expr": f"round({expr}, {to}) != 0", "eval_time": f"{minute}m", "exp_samples": samples}


def _hourly_rows(model: Model, minute: int, figures, keys: tuple[str, ...]) -> tuple[dict, tuple[str, ...]]:
    """(rows, their label names) of an hourly spoke rule evaluated at ``minute`` on one cluster: ``figures(hour)``
    of the previous hour without the cluster, or with ``billing.backfill_hours`` N of each hour k = 1..N + 1 hours
    before ``minute``'s with the lag label k."""
    n = model.billing.backfill_hours
    if not n:
        return _local(figures(minute // 60 - 1)), keys
    return ({(str(lag), *k[1:]): v for lag in range(1, n + 2) if minute // 60 - lag >= 0
             for k, v in figures(minute // 60 - lag).items()}, (names.LAG_LABEL, *keys))


def _local(rows: Mapping[tuple, float]) -> dict[tuple, float]:
    """Reference rows keyed (cluster, ...) without their cluster: the keys of a spoke file's series."""
    return {k[1:]: v for k, v in rows.items()}


def _stable(ref: Reference, minute: int) -> bool:
    now = ref.pod_allocation(minute)
    return all(ref.pod_allocation(m) == now for m in range(max(0, minute - STABLE), minute))


class HubView:
    """What the hub's last-hour series hold (contract section 6), from the spoke rule results that reached it
    (:class:`gpudash.simulation.pushes.Pushed` and :class:`~gpudash.simulation.pushes.Lagged`, in time order, as
    :func:`gpudash.simulation.pushes.rule_samples` gives them).
    ``clusters``: the model clusters that get a zero coverage row for an hour nothing delivered (backfill, on the
    hub of several clusters; none on a single cluster)."""

    def __init__(self, ref: Reference, samples, clusters: tuple[str, ...] = ()):
        self.ref = ref
        self.backfill = ref.model.billing.backfill_hours
        self.clusters = clusters if self.backfill else ()
        # the results of each kind pushed in each clock hour, in time order
        self.by_hour: dict[tuple[int, str], list[Pushed | Lagged]] = {}
        for r in samples:
            self.by_hour.setdefault((r.t // 60, r.kind), []).append(r)

    def _describing(self, hour: int, minute: int, kind: str):
        """(content, clusters) of each result of ``kind`` evaluated up to ``minute`` that describes ``hour``, in
        time order: each hourly rule's lag k pushed k hours after it (the others', its rows of the hour before)."""
        for lag in range(1, self.backfill + 2):
            for r in self.by_hour.get((hour + lag, kind), ()):
                if r.t > minute:
                    continue
                if isinstance(r, Lagged):
                    if lag in r.lags:
                        yield r.contents[lag - r.lags.start], r.clusters
                elif lag == 1:
                    yield r.content, r.clusters

    def _largest(self, minute: int, kinds: tuple[str, ...]) -> tuple[dict[str, dict[tuple, float]], dict[str, set]]:
        """({kind: each series' largest value}, {kind: the clusters it ran on}) of :meth:`at`, of ``kinds`` alone."""
        out: dict[str, dict[tuple, float]] = {}
        ran: dict[str, set] = {}
        for kind in kinds:
            into: dict[tuple, float] = {}
            who: set = set()
            out[kind], ran[kind] = into, who
            folded = set()  # the ids of the contents taken: a content pushed again (each lag's hour) changes no max
            for content, clusters in self._describing(minute // 60 - 1 - self.backfill, minute, kind):
                if id(content) not in folded:
                    folded.add(id(content))
                    for key, v in content.items():
                        into[key] = max(into.get(key, v), v)
                who.update(self.ref.s.clusters if clusters is None else clusters)
        return out, ran

    def at(self, minute: int) -> dict[str, dict[tuple, float]]:
        """At ``minute``: per hourly kind, each series' largest value among the samples that describe the hour the
        hub settles now (the previous one, or ``billing.backfill_hours`` N more before it) and were evaluated up to
        ``minute`` (e.g. {"gpu_hours": {(cluster, ns, product, res): v}}; "node_max" per node and "node_sources" per
        (cluster, node, active_from)), and "coverage" {(cluster,): share of the hour covered, 0 for a cluster that
        pushed while an hourly rule never ran, and with backfill for a model cluster nothing delivered}."""
        out, ran = self._largest(minute, ("billed_hour", "steps", *HOURLY_KINDS))
        ran = {k: ran[k] for k in HOURLY_KINDS if k in push_rules(self.ref.model)}
        out["node_sources"] = out["node_max"]  # per (cluster, node, active_from); the hub's per-node max folds them
        out["node_max"] = {}
        for (c, n, _), v in out["node_sources"].items():
            out["node_max"][(c, n)] = max(out["node_max"].get((c, n), v), v)
        complete = {key for key in out["steps"] if all(key[0] in r for r in ran.values())}
        pushed = set(out["steps"] if self.backfill else out["billed_hour"]) | {(c,) for c in self.clusters}
        out["coverage"] = {key: out["steps"][key] / self.ref.steps_per_hour() if key in complete else 0.0
                           for key in complete | pushed}
        return out

    def _settling(self, hour: int, step: int) -> int:
        """The minute of the hub's last evaluation (every ``step`` minutes) in the hour it settles ``hour`` in."""
        return (hour + 2 + self.backfill) * 60 - step

    def final(self, hour: int, step: int) -> dict[str, dict[tuple, float]]:
        """:meth:`at` the hub's last evaluation in the hour it settles ``hour`` in: what it finally recorded for
        ``hour``."""
        return self.at(self._settling(hour, step))

    @functools.cache
    def hour_costs(self, hour: int, step: int) -> dict[tuple, float]:
        """Each namespace's cost of ``hour`` as the hub finally recorded it (:meth:`final`'s GPU-hours and energy,
        the other kinds not folded: the period-to-date reads every hour of the month)."""
        final = self._largest(self._settling(hour, step), ("gpu_hours", "energy"))[0]
        return self.ref.hour_costs(final["gpu_hours"], final["energy"])


def _settle_checks(minute: int, view: dict, cl, keys: tuple[str, ...]) -> list[dict]:
    """The hub's settle of each pushed hourly series at ``minute`` (:data:`names.SETTLED`), by value from the hub
    view: the figures of the hour settled now, as pushed (the sentinel rows are zeros, which are not checked)."""
    settles = ((names.SETTLED_GPU_HOURS, "gpu_hours", ("namespace", "product", "resource")),
               (names.SETTLED_ENERGY, "energy", ("namespace",)), (names.SETTLED_STEPS, "steps", ()),
               (names.SETTLED_NODE_MAX, "node_sources", ("node", names.ACTIVE_FROM_LABEL)))
    return [_check(series, minute, {(*cl(c), *rest): v for (c, *rest), v in view[kind].items()}, (*keys, *labels))
            for series, kind, labels in settles]


def _hub_checks(ref: Reference, minute: int, hub: HubView, cluster_label: bool, strict: bool = False):
    """Hub billing, coverage and CCSP checks at ``minute`` from what reached the hub up to then. The per-node
    series is compared by (cluster, node) unless ``strict`` (its exact label set)."""
    cl = (lambda c: (c,)) if cluster_label else (lambda c: ())
    keys = ("cluster",) if cluster_label else ()
    view = hub.at(minute)
    billing, unpriced = ref.price(view["gpu_hours"])
    nodes = {k: v for k, v in view["node_max"].items() if v}
    fleet: dict[str, tuple[int, float]] = {}
    for (c, _), g in nodes.items():
        fleet[c] = (fleet.get(c, (0, 0))[0] + 1, fleet.get(c, (0, 0))[1] + g)
    energy = ref.energy_lines(view["energy"])
    costs = ref.hour_costs(view["gpu_hours"], view["energy"])
    # where an hour is partly covered, the gap alert's condition holds for exactly its clusters (a zero coverage is
    # checked below; the alert's `for` and routing: the alerts-integrity tests)
    short = {cl(c): v for (c,), v in view["coverage"].items() if 0 < v < 1}
    gap = [_check(pushing.gap(ref.model).expr, minute, short, keys, metric=False)] if short else []
    return [*gap, *_settle_checks(minute, view, cl, keys),
        _check(names.HOUR_ENERGY, minute, {(*cl(c), ns): v[0] for (c, ns), v in energy.items()}, (*keys, "namespace")),
        _check(names.HOUR_ENERGY_COST, minute, {(*cl(c), ns): v[1] for (c, ns), v in energy.items()},
               (*keys, "namespace")),
        _check(names.HOUR_GPU_HOURS, minute, {(*cl(c), *rest): v[0] for (c, *rest), v in billing.items()},
               (*keys, "namespace", "gpu_class", "resource")),
        _check(names.HOUR_COST, minute, {(*cl(c), *rest): v[1] for (c, *rest), v in billing.items()},
               (*keys, "namespace", "gpu_class", "resource")),
        _check(names.TENANT_HOUR_COST, minute, {(*cl(c), ns): v for (c, ns), v in costs.items()}, (*keys, "namespace")),
        _check(names.UNPRICED_GPU_HOURS, minute, {(*cl(c), *rest): v for (c, *rest), v in unpriced.items()},
               (*keys, "namespace", "product", "resource")),
        _check(names.BILLING_COVERAGE, minute, {cl(c): v for (c,), v in view["coverage"].items()}, keys),
        _check(f"{names.BILLING_COVERAGE} == bool 0", minute,
               {cl(c): 1 for (c,), v in view["coverage"].items() if v == 0}, keys, metric=False),
        _check(names.CCSP_NODE_GPUS if strict else f"max by (cluster, node) ({names.CCSP_NODE_GPUS})", minute,
               {(*cl(c), n): v for (c, n), v in nodes.items()}, (*keys, "node"), metric=strict),
        _check(f"max by (cluster, node, {names.ACTIVE_FROM_LABEL}) ({names.CCSP_NODE_SOURCES})", minute,
               {(*cl(c), n, src): v for (c, n, src), v in view["node_sources"].items() if v},
               (*keys, "node", names.ACTIVE_FROM_LABEL), metric=False),
        _check(names.CCSP_ACTIVE_NODES, minute, {cl(c): v[0] for c, v in fleet.items()}, keys),
        _check(names.CCSP_ACTIVE_GPUS, minute, {cl(c): v[1] for c, v in fleet.items()}, keys),
    ]


def _ptd_checks(ref: Reference, model: Model, minute: int, hour_costs=None, cluster_label: bool = True,
                only: str | None = None) -> list[dict]:
    """Period-to-date per cluster and tenant, and the budget thresholds the tenant's total (over clusters; over
    cluster ``only`` where two scenarios share the file) has crossed at ``minute`` (``hour_costs``:
    :meth:`Reference.period_to_date`'s). Thresholds are read with max."""
    tenants, bars, at_zero = _thresholds(model)
    per_cluster = ref.period_to_date_by_cluster(minute, hour_costs=hour_costs)
    total = ref.tenant_totals(per_cluster)  # (:meth:`Reference.period_to_date`)
    used = {ns for _, ns in per_cluster}  # the tenants with a cost: every other one's total is 0.0
    crossed = {row: 1 for ns in used for row, bar in bars[ns] if total[ns] >= bar}
    crossed.update((row, 1) for ns, row in at_zero if ns not in used)
    who = "(namespace, tenant)"
    over = (f"max by (namespace, tenant, threshold) ({names.TENANT_THRESHOLD}) * on {who} group_left () "
            f"max by {who} ({names.TENANT_BUDGET}) <= on {who} group_left () sum by {who} "
            f"({q.selector(names.TENANT_COST_PTD, *([('cluster', '=', only)] if only else []))})")
    if cluster_label:
        rows = {(c, ns, tenants[ns].name): v for (c, ns), v in per_cluster.items()}
        ptd = _check(names.TENANT_COST_PTD, minute, rows, ("cluster", "namespace", "tenant"))
    else:  # the spoke file: one cluster, no cluster label on the data (the model's zero series carry one)
        ptd = _check(f"sum by {who} ({names.TENANT_COST_PTD})", minute,
                     {(ns, tenants[ns].name): total[ns] for ns in used}, ("namespace", "tenant"), metric=False)
    return [ptd, _check(f"count by (namespace, tenant, threshold) ({over})", minute, crossed,
                        ("namespace", "tenant", "threshold"), metric=False)]


def _thresholds(model: Model) -> tuple[dict[str, Any], dict[str, tuple], tuple]:
    """({namespace: tenant}, {namespace: ((its threshold check's row, the cost that crosses it), ...)}, the
    (namespace, row) a tenant without cost crosses) of ``model``'s budget thresholds, kept for the last model
    (:func:`_kept`): each period-to-date check reads them for 1,000 tenants, and few of them have a cost."""
    kept = _kept(model)
    if "thresholds" not in kept:
        tenants = {t.namespace: t for t in model.tenants}
        bars = {ns: tuple(((ns, t.name, threshold_label(f)), f * t.budget) for f in t.alert_at)
                for ns, t in tenants.items()}
        at_zero = tuple((ns, row) for ns, rows in bars.items() for row, bar in rows if 0.0 >= bar)
        kept["thresholds"] = (tenants, bars, at_zero)
    return kept["thresholds"]


def _every_series_checks(ref: Reference, model: Model, minute: int) -> list[dict]:
    """Spoke file, ``every_series`` scenarios: the series no other check asserts -- activity, idle (and power with
    the veto on), heartbeat, steps observed, burn rates, current allocation, average burn and projection, and the
    model data (prices of the SKUs in use, the tenant table, tenant info) -- at ``minute``, by value from the
    reference. The spoke file has one cluster and no ``cluster`` label on the data (the model's series have one).
    The spoke tier's series are the tier file's (:func:`_tier_file`)."""
    who = ("namespace", "tenant")
    tenants = {t.namespace: t.name for t in model.tenants}
    projected: dict[tuple, float] = {}
    for (_, ns), v in ref.projection_by_cluster(minute).items():
        projected[(ns, tenants[ns])] = projected.get((ns, tenants[ns]), 0.0) + v
    sku_keys = ("cluster", "gpu_class", "ksm_resource", "product", "resource")
    extra = []
    for product, res in sorted({(k[4], k[5]) for k in ref.pod_allocation(minute)}):
        found = ref.sku(product, res)
        if found:
            selector = q.selector(names.SKU_PRICE, ("product", "=", product), ("ksm_resource", "=", res))
            extra.append(_check(q.agg("max", sku_keys, selector), minute,
                                {(names.MODEL_CLUSTER, found[0].name, res, product, found[1]): found[2]}, sku_keys,
                                metric=False))
    activity, idle, power = ref.activity(minute), ref.idle(minute), ref.power(minute)
    if model.alerts.idle.power_veto_watts > 0:  # the series is recorded only then
        extra.append(_check(names.POD_POWER_MAX, minute, _local(power), ("namespace", "pod")))
    return [
        _check(names.POD_ACTIVITY_MAX, minute, {k[1:]: v[0] for k, v in activity.items()},
               ("namespace", "pod", "gpu_model")),
        _check(names.POD_ACTIVITY_AVG, minute, {k[1:]: v[1] for k, v in activity.items()},
               ("namespace", "pod", "gpu_model")),
        _check(names.POD_IDLE, minute, _local(idle), ("namespace", "pod", "gpu_model", "workload", "workload_type")),
        _check(names.BILLED_HOUR, minute, {(): ref.billed_hour_start(minute)}, ()),
        _check(names.STEPS_OBSERVED, minute,
               *_hourly_rows(model, minute, lambda h: {(c,): ref.steps_observed(h) for c in ref.s.clusters}, ())),
        _check(names.CLASS_ALLOCATED, minute, _local(ref.class_allocated(minute)),
               ("namespace", "gpu_class", "resource")),
        _check(names.POD_COST_RATE, minute, _local(ref.pod_cost_rate(minute)),
               ("namespace", "pod", "workload", "workload_type")),
        _check(names.WORKLOAD_COST_RATE, minute, _local(ref.workload_cost_rate(minute)),
               ("namespace", "workload", "workload_type")),
        _check(names.NAMESPACE_COST_RATE, minute, _local(ref.cost_rate(minute)), ("namespace",)),
        _check(names.TENANT_COST_RATE_AVG, minute, _local(ref.avg_cost_rate(minute)), ("namespace",)),
        _check(q.agg("sum", who, names.TENANT_COST_PROJECTED), minute, projected, who, metric=False),
        *extra,
        _of_model(model, q.agg("max", ("row",), names.TENANT_ROWS), minute, ref.tenant_rows, ("row",), metric=False),
        _of_model(model, names.TENANT_INFO, minute, ref.tenant_info, ("cluster", "namespace", "tenant")),
        _check(names.ENERGY_PRICE, minute, {(c,): model.energy.price(c) for c in model.clusters
                                            if model.energy.metered}, ("cluster",)),
    ]


_KEPT: dict[Any, Any] = {}  # "model": the last model emitted for; every other key, a figure of that model alone


def _kept(model: Model) -> dict[Any, Any]:
    """What the checks compute from ``model`` alone, kept for the last model (by identity: a model is not hashable,
    and a process emits one model's files at a time): emptied when another model comes."""
    if _KEPT.get("model") is not model:
        _KEPT.clear()
        _KEPT["model"] = model
    return _KEPT


def _of_model(model: Model, expr: str, minute: int, rows, keys: tuple[str, ...], metric: bool = True) -> dict:
    """:func:`_check` of figures of ``model`` alone (``rows()``), kept for the last model (:func:`_kept`): the tenant
    table and the tenant info (20,000 rows at 1,000 tenants on 20 clusters) that every ``every_series`` scenario
    checks."""
    kept = _kept(model)
    check = kept.get(("check", expr))
    if check is None:
        check = kept["check", expr] = _check(expr, 0, rows(), keys, metric)
    return {**check, "eval_time": f"{minute}m"}


# --- files -------------------------------------------------------------------------------------------------------
Spoke = tuple[sc.Scenario, Reference, list]  # a cluster's scenario, reference, raw samples (:func:`_one_cluster`)


def _one_cluster(s: sc.Scenario, model: Model, cluster: str, made: dict[str, Spoke]) -> Spoke:
    """Scenario ``s`` cut to ``cluster``'s nodes and pods, its reference without cluster labels and its raw series
    (:func:`synthesise`): what a spoke or tier file of that cluster sees (no ``cluster`` label on a spoke's own
    series). Made once per scenario and cluster (kept in ``made``)."""
    if cluster not in made:
        local = dataclasses.replace(s, nodes=tuple(n for n in s.nodes if n.cluster == cluster),
                                    pods=tuple(p for p in s.pods if p.cluster == cluster))
        made[cluster] = (local, SharedFigures(local, model, labelled=False), synthesised(local, model, cluster))
    return made[cluster]


def _spoke_file(s: sc.Scenario, model: Model, spokes: dict[str, Spoke]) -> dict:
    step = model.billing.mco_interval // 60
    evaluations = list(range(0, s.duration + 1, step))
    hub_side = _hub_side(s, model)
    groups = []
    for cluster in s.clusters:
        _, ref, raw = _one_cluster(s, model, cluster, spokes)
        tests = []
        for m in evaluations:
            alloc = _local(rule_content(ref, "pod_alloc", m))
            tests.append(_check(names.POD_ALLOCATED, m, alloc, POD_KEYS))
            if any(f.kind in sc.TIER_FAULTS for f in s.faults):  # (resolve skips them without the tier)
                tests.append(_check(TIER_MISSING, m, {(TIER_INPUT, *k[1:]): v for k, v in ref.tier_missing(m).items()},
                                    ("input",), metric=False))
        for h in range(s.duration // 60):
            for m in sorted({(h + 1) * 60, (h + 1) * 60 + 30, (h + 2) * 60 - step} & set(evaluations)):
                tests.append(_check(names.HOURLY_GPU_HOURS, m, *_hourly_rows(model, m, ref.gpu_hours,
                                                                           ("namespace", "product", "resource"))))
                if model.energy.metered:
                    tests.append(_check(names.HOURLY_ENERGY, m, *_hourly_rows(model, m, ref.energy, ("namespace",))))
                tests.append(_check(names.NODE_ACTIVE_GPUS_MAX, m, *_hourly_rows(
                    model, m, ref.node_max_by_source, ("node", names.ACTIVE_FROM_LABEL))))
        if hub_side:
            hub = HubView(ref, [r for m in evaluations for kind in push_rules(model)
                                for r in push_results(ref, kind, m)])
            for m in [m for m in evaluations if m >= 60 and m % 60 in (0, 60 - step)]:
                tests += _hub_checks(ref, m, hub, cluster_label=False)
            tests += [t for m in evaluations if m >= 120 and m % 60 == 0 and _stable(ref, m)
                      for t in _ptd_checks(ref, model, m, cluster_label=False)]
        if "every_series" in s.checks:  # at the last whole hour, its burn-rate window free of stopped allocation
            window, last = model.billing.burn_rate_window // 60, s.duration // 60 * 60
            if last < 120 or not all(ref.pod_allocation(m - step).items() <= ref.pod_allocation(m).items()
                                     for m in range(last - window, last + 1, step)):
                raise ValueError(f"scenario {s.name}: every_series needs no allocation stopping in the last "
                                 "burn-rate window (the hub reads a pod's last push for 1.5 push intervals)")
            tests += _every_series_checks(ref, model, last)
        inputs = input_series(raw) + (tier_recorded(ref) if model.billing.tier else [])
        groups.append({"name": f"{s.name} [{cluster}]: {s.protects}", "interval": "1m",
                       "input_series": inputs, "promql_expr_test": tests})
    return {**_spoke_rules(step, hub_side), "tests": groups}


def _hub_side(s: sc.Scenario, model: Model) -> bool:
    """Whether a spoke file evaluates the hub rules too. With ``billing.backfill_hours`` the hub settles no hour of
    a scenario of a few hours within it, so the spoke file checks the spoke side only (every lag of every hourly
    row, the live allocation), which is exactly what the settled and push-path files feed the hub rules; the hub
    rules were most of its cost. ``every_series`` scenarios keep them: their live hub series are checked here."""
    return not model.billing.backfill_hours or "every_series" in s.checks


def _spoke_rules(step: int, hub: bool = True) -> dict:
    """The rule files and evaluation of a spoke file: the spoke group every push interval, and the hub groups unless
    not ``hub`` (:func:`_hub_side`). With the spoke tier the tier's samples are input (the reference's,
    :func:`series.tier_recorded`; promtool runs every group at one interval, so the tier's group running here would
    evaluate every rule every step), and the tier file checks the tier's own rules against the same raw series."""
    if not hub:
        return {"rule_files": [SPOKE_RULES], "evaluation_interval": f"{step}m", "group_eval_order": GROUP_ORDER[:1]}
    return {"rule_files": [SPOKE_RULES, HUB_RULES], "evaluation_interval": f"{step}m", "group_eval_order": GROUP_ORDER}


def _tier_file(s: sc.Scenario, model: Model, spokes: dict[str, Spoke]) -> dict:
    """The spoke tier's group alone, every ``billing.resolution``, on the spoke file's raw series up to its last check
    (:func:`series.input_series`: in a group of every scenario, later samples cost every step): at every step the
    reference says the tier records, each tier series equals the reference's (so the samples the spoke file takes
    as input are the ones the tier's rules write). At a step the tier misses (``tier_missed``) or where a rule
    fails (``tier_rule_failed``: promtool stops at a rule error, prometheus/prometheus cmd/promtool/unittest.go, so
    e2e/test_spoke_tier_live.py fails each on live Prometheus 2 and 3) promtool evaluates, and nothing is checked."""
    groups = []
    for cluster in s.clusters:
        _, ref, raw = _one_cluster(s, model, cluster, spokes)
        tests = []
        for m in (m for m in range(0, _tier_horizon(s) + 1, ref.step) if ref.tier_observed(m)):
            per_pod: dict[tuple, float] = {}
            for key, units in _local(ref.pod_allocation(m)).items():
                row = tuple(value for label, value in zip(POD_KEYS, key) if label in TIER_POD_KEYS)
                per_pod[row] = per_pod.get(row, 0) + units
            tests += [_check(names.TIER_POD_STEP, m, per_pod, TIER_POD_KEYS),
                      _check(names.TIER_ALLOCATED, m, _local(ref.product_lines(m)),
                             ("namespace", "product", "resource")),
                      _check(names.TIER_POD_KINDS, m, _local(ref.pod_kinds(m)), _TIER_KIND_KEYS),
                      _check(names.TIER_NODE_ACTIVE, m, _local(ref.active_gpus(m)),
                             ("node", names.ACTIVE_FROM_LABEL)),
                      _check(names.TIER_KSM_UP, m, {(): float(ref.ksm_up(m))}, ()),
                      _check(names.TIER_POD_ALLOCATED, m, _local(ref.pod_allocation(m)), POD_KEYS)]
            if model.energy.metered:
                tests.append(_check(names.TIER_ENERGY, m, _local(ref.step_energy(m)), ("namespace",)))
        groups.append({"name": f"{s.name} [{cluster}, spoke tier]: {s.protects}", "interval": "1m",
                       "input_series": input_series(raw, _tier_horizon(s)), "promql_expr_test": tests})
    return {"rule_files": [TIER_RULES], "evaluation_interval": q.duration(model.billing.resolution),
            "group_eval_order": [spoke_tier.GROUP], "tests": groups}


def _tier_horizon(s: sc.Scenario) -> int:
    """The last minute a tier file checks: :data:`TIER_SETTLED` after the scenario's last event (a pod's phase,
    binding or utilisation change, a fault's end), or its end. The tier's rules read only the raw samples within
    the lookback and their own previous step (``offset 1m``), so later steps are computed from inputs shaped as the
    step before. promtool evaluates the group at every step from 0 to the last check, parsing each rule again every
    time (prometheus/prometheus v2.42.0 and v3.5.3 cmd/promtool/unittest.go ``testGroup.test``, rules/recording.go
    ``Eval``): those steps were most of the tier files' time and proved nothing new."""
    events = [e.at for p in s.pods for e in p.lifecycle] + [at for p in s.pods for at, _ in p.utilisation]
    return min(s.duration, max([*events, *(f.at + f.minutes for f in s.faults)], default=0) + TIER_SETTLED)


def _hub_file(s: sc.Scenario, model: Model, ref: Reference, only: str | None = None) -> dict:
    """The push-path checks of ``s``: the hub rules every push interval over what its pushes delivered.
    ``only``: the cluster whose rows are checked, where two scenarios share the file (else the model's: a cluster
    nothing delivered has a zero coverage row)."""
    step = push_interval(s, model)
    if s.hub_only and (s.faults_of("mco_jitter") or s.faults_of("mco_straddle")):
        raise ValueError(f"scenario {s.name}: hub_only scenarios are evaluated hourly and need on-time pushes")
    samples = rule_samples(s, model, ref)
    hub = HubView(ref, samples, model.clusters if only is None else (only,))
    # per cluster, the minutes its pushes arrived (its live allocation: the burn rate period-to-date extrapolates)
    pushes = {c: {r.t for r in samples if r.kind == "pod_alloc" and (r.clusters is None or c in r.clusters)}
              for c in s.clusters}

    checks = [m for m in range(60, s.duration + 1, step) if m % 60 in (0, 60 - step)]
    if s.duration > 2 * 24 * 60:  # long: the first hours, the hours around month boundaries (and where the hub
        # settles them, with backfill), the settling of the hours of an outage, the last
        starts, late = _month_starts(s.duration), model.billing.backfill_hours * 60
        outages = [(f.at + late - 120, f.at + f.minutes + late + 120) for f in s.faults_of("mco_outage")]
        checks = [m for m in checks if m < 300 or m > s.duration - 120
                  or any(abs(m - b) <= 180 or abs(m - b - late) <= 180 for b in starts)
                  or any(a <= m <= b for a, b in outages)]
    strict = "labels" in s.checks
    tests = [t for m in checks for t in _hub_checks(ref, m, hub, cluster_label=True, strict=strict)]
    recent = model.billing.mco_interval // 60
    tests += [t for m in checks if _stable(ref, m) and all(any(m - recent <= p <= m for p in pushes[c]) for c in pushes)
              for t in _ptd_checks(ref, model, m, hour_costs=lambda hour: hub.hour_costs(hour, step), only=only)]
    group = {"name": f"{s.name} [push path]: {s.protects}", "interval": "1m",
             "input_series": pushed(s, model, ref, samples), "promql_expr_test": tests}
    return _hub_rules(f"{step}m", group)


def _settled_file(s: sc.Scenario, model: Model, ref: Reference) -> dict:
    """The hub's final figures of each complete hour of ``s`` where it settles them (:func:`series.settling_samples`),
    hub rules evaluated hourly on the hour: an hour's last lag is read from the push made at that instant. Every
    model cluster's rows are checked (a cluster nothing delivered has a zero coverage row)."""
    samples, last, tests = _settled(s, model, ref, model.clusters)
    group = {"name": f"{s.name} [settled on the hub]: {s.protects}", "interval": "1m",
             "input_series": pushed(s, model, ref, samples, last), "promql_expr_test": tests}
    return _hub_rules(SETTLE_EVERY, group)


def _settled(s: sc.Scenario, model: Model, ref: Reference, clusters: tuple[str, ...]):
    """(pushes, last minute, checks) of :func:`_settled_file`, the rows of ``clusters`` checked."""
    samples, last = settling_samples(s, model, ref)
    hub = HubView(ref, samples, clusters)
    settle = model.billing.backfill_hours + 1
    tests = [t for h in range(s.duration // 60)
             for t in _hub_checks(ref, (h + settle) * 60, hub, cluster_label=True, strict="labels" in s.checks)]
    return samples, last, tests


def _later(check: dict, minutes: int) -> dict:
    """``check`` (:func:`_check`'s) evaluated ``minutes`` later."""
    return {**check, "eval_time": f"{int(check['eval_time'].removesuffix('m')) + minutes}m"} if minutes else check


def _hub_rules(interval: str, group: dict) -> dict:
    """A push-path or settled file: the hub groups alone every ``interval`` over the test ``group``."""
    return {**_hub_header(interval), "tests": [group]}


def _hub_header(interval: str) -> dict:
    """The rule files and evaluation of a push-path or settled file (:func:`_hub_rules`)."""
    return {"rule_files": [HUB_RULES], "evaluation_interval": interval, "group_eval_order": GROUP_ORDER[1:]}


def _month_starts(duration: int) -> list[int]:
    return sorted({period_start(m) for m in range(0, duration + 1, 24 * 60)} - {0})

"""Spoke rules: GPU allocation measured on each managed cluster at full local resolution.

Each rule is self-contained (it reads only raw exporter series), because ACM's metrics-collector runs the
allowlist's ``recording_rules`` as instant queries at every push and the spoke has no other gpudash rules --
except with ``billing.spoke_tier: policy``, where the hourly rules read the per-step samples the spoke tier
(:mod:`gpudash.render.rules.spoke_tier`) records on the same Prometheus. The same rules form the plain
``gpudash-spoke`` group for a single cluster without ACM.
See docs/billing-contract.md for the definitions.
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.promql import calendar, read
from gpudash.render.rules import activity, energy, inputs
from gpudash.render.rules.active_gpus import node_active, pod_kinds
from gpudash.render.rules.allocation import allocation, pod_allocated, with_workload
from gpudash.render.rules.format import Group, Rule


def hour_steps(expr: str, model: Model) -> str:
    """``expr`` at every spoke step of the clock hour ending at the evaluation time: steps ``[t - 1h, t)`` —
    the 1 ms offset keeps the step at ``t`` out under Prometheus 2 and 3 alike."""
    return f"({expr})[1h:{q.duration(model.billing.resolution)}] offset 1ms"


# The row every hourly rule adds to its result, whatever else it finds: value 0, one label. The collector
# pushes the rules that succeeded even when others fail (stolostron/multicluster-observability-operator,
# collectors/metrics/pkg/forwarder/forwarder.go getRecordingMetrics/forward), so an hour whose rule failed in
# every push must be told apart from an hour without GPUs: the hub reads a missing sentinel as a lost hour.
SENTINEL = q.const_series(0, **{names.SENTINEL_LABEL: "1"})


def _at_last_hour_boundary(per_hour: str, hours_before: int = 0) -> str:
    """``per_hour`` (an aggregate over the steps of one hour) at the last clock hour boundary (``hours_before``
    hours earlier). The outer hourly subquery evaluates it exactly once, at that boundary, so every evaluation
    during hour H+1 gives the same figures for hour H; the hub keeps each series only from samples evaluated
    during H+1 (their own timestamps), so a series that stops simply has no sample there."""
    return calendar.at_hour_boundary(per_hour, hours_before)


def _lagged(model: Model, figures) -> str:
    """The rows ``figures(hours_before)`` of the previous clock hour, and with ``billing.backfill_hours`` N > 0
    also of the N hours before it, each with :data:`~gpudash.model.series.LAG_LABEL` k for the hour k hours
    before the evaluation's own (k = 1..N + 1): a push after an outage of up to N hours still carries every
    hour the lost pushes did. Without backfill the rows carry no lag label."""
    n = model.billing.backfill_hours
    if not n:
        return figures(0)
    return " or ".join(q.label_replace(figures(k - 1), names.LAG_LABEL, str(k), "", "") for k in range(1, n + 2))


def previous_hour(model: Model, per_hour: str) -> str:
    """:func:`_at_last_hour_boundary` plus the sentinel row, for each hour :func:`_lagged` carries."""
    return _lagged(model, lambda before: f"{_at_last_hour_boundary(per_hour, before)} or {SENTINEL}")


def per_step(model: Model) -> dict[str, str]:
    """The figures the hourly rules aggregate over a clock hour, evaluated at one spoke step from raw series (the
    path without the spoke tier re-derives them at every step of the hour): allocation per product line, active GPUs
    per node, 1 per cluster while kube-state-metrics is up, and the step's GPU energy per namespace."""
    alloc = allocation(model)
    pods = q.agg("sum", names.labels(names.TIER_POD_STEP), alloc)
    steps = {names.TIER_ALLOCATED: q.agg("sum", names.labels(names.TIER_ALLOCATED), alloc),
             names.TIER_NODE_ACTIVE: node_active(pod_kinds(pods, model), model),
             names.TIER_KSM_UP: _ksm_up_raw(model)}
    if model.energy.metered:
        steps[names.TIER_ENERGY] = energy.step_joules(model)
    return steps


def _ksm_up_raw(model: Model) -> str:
    return q.agg("max", names.labels(names.TIER_KSM_UP), f"{q.selector('up', ksm.job(model.sources))} == 1")


def pod_step(model: Model) -> str:
    """The spoke tier's first rule: GPUs allocated per Running, node-bound pod, node, product and resource at this
    step (:func:`allocation`, the one allocation join of the step), plus the sentinel row that proves the rule ran."""
    return f"{q.agg('sum', names.labels(names.TIER_POD_STEP), allocation(model))} or {SENTINEL}"


def recorded_now(series: str) -> str:
    """The rows of the tier's ``series`` written at this very evaluation, without the sentinel row where it has one.

    Rules of one group run in order at one timestamp, and each rule's samples are committed before the next one
    runs (prometheus/prometheus rules/group.go ``Group.Eval``), so a later rule reads an earlier one's rows of the
    step. Each row is kept only if its own sample carries this evaluation's timestamp: a rule that fails writes
    nothing and no staleness marker (the same ``Eval``), and after a restart the rule manager no longer knows which
    rows to mark stale, so older rows may stay within the lookback. A failed step is then missing from every figure
    (not counted, alerted), never filled with the step before, and a pod that ended is never read again.
    """
    rows = q.selector(series, (names.SENTINEL_LABEL, "=", ""))
    return f"({rows} and {_written_now(rows)})"


def _written_now(selector: str) -> str:
    """The samples of ``selector`` whose own timestamp is this evaluation's (a rule of the same group wrote them
    now), by their timestamp."""
    return f"(timestamp({selector}) == time())"


def _fresh(series: str) -> str:
    """The sentinel row of the tier's ``series`` if a rule of this evaluation wrote it, for ``and on ()``."""
    return f"on () {_written_now(q.selector(series, (names.SENTINEL_LABEL, '=', '1')))}"


def _proved(expr: str, *inputs: str) -> str:
    """``expr`` plus the sentinel row, written only when each tier series ``inputs`` has its sentinel of this step:
    the rule's own evidence that it recorded the step (a rule that fails writes nothing, the sentinel included)."""
    return f"{expr} or ({' and '.join((SENTINEL, *map(_fresh, inputs)))})"


def tier_steps(model: Model) -> dict[str, str]:
    """The spoke tier's rules in evaluation order: the per-pod allocation of the step (:func:`pod_step`), then the
    figures of :func:`per_step` and the per-pod live allocation, each read from it (:func:`recorded_now`) instead of
    re-evaluating the allocation join (the active GPUs through the pods' weighted devices, recorded just before).

    Every rule before the heartbeat writes a sentinel row (:func:`_proved`, only when the rule it reads wrote its
    own), and the steps-observed heartbeat, last of them, only when every one of them did at this step: a rule that
    errors (a query timeout, a sample limit, a many-to-many match) is skipped while the group goes on to the next
    rule (prometheus/prometheus rules/group.go ``Group.Eval``: the rule's closure returns on the error), so without
    it the step would count with that figure missing, billed short with full coverage."""
    pods = recorded_now(names.TIER_POD_STEP)
    steps = {names.TIER_POD_STEP: pod_step(model),
             names.TIER_ALLOCATED: _proved(q.agg("sum", names.labels(names.TIER_ALLOCATED), pods),
                                           names.TIER_POD_STEP),
             names.TIER_POD_KINDS: _proved(pod_kinds(pods, model), names.TIER_POD_STEP),
             names.TIER_NODE_ACTIVE: _proved(node_active(recorded_now(names.TIER_POD_KINDS), model),
                                             names.TIER_POD_KINDS)}
    if model.energy.metered:  # from the exporters, not the allocation: its sentinel needs no other rule's
        steps[names.TIER_ENERGY] = _proved(energy.step_joules(model))
    # the heartbeat after every billed figure of the step: a group being stopped also returns between two rules
    # (rules/group.go Eval checks g.done before each), so a step cut short is a missing step
    steps[names.TIER_KSM_UP] = " and ".join((_ksm_up_raw(model), *map(_fresh, steps)))
    steps[names.TIER_POD_ALLOCATED] = with_workload(pods, model)
    return steps


def live_pod_allocated(model: Model) -> str:
    """What the pushed :data:`~gpudash.model.series.POD_ALLOCATED` evaluates at each push: :func:`pod_allocated`, or
    with the spoke tier its newest recorded step (a plain selector: a pod that stops gets the rule manager's
    staleness marker at the next step and disappears; see docs/billing.md for a push during a tier gap)."""
    if model.billing.tier:
        return q.agg("sum", names.labels(names.POD_ALLOCATED), names.TIER_POD_ALLOCATED)
    return pod_allocated(model)


def over_hour(model: Model, series: str, expr: str) -> str:
    """The steps of the clock hour ending at the evaluation time: the spoke tier's recorded ``series`` (read
    with the range that holds, at an hour boundary ``T``, the samples of ``[T - 1h, T)``: 3600 / resolution of
    them, fewer where an evaluation was missed; without its sentinel rows), else ``expr`` re-derived at every step."""
    if not model.billing.tier:
        return hour_steps(expr, model)
    rows = q.selector(series, (names.SENTINEL_LABEL, "=", "")) if names.SERIES[series].sentinel else series
    return f"{rows}{read.HOUR_RANGE}"


def rules(model: Model) -> tuple[Rule, ...]:
    r = model.billing.resolution
    step = {series: over_hour(model, series, expr) for series, expr in per_step(model).items()}
    hour_gpu_hours = f"sum_over_time({step[names.TIER_ALLOCATED]}) * {r} / {read.HOUR}"
    steps_observed = f"count_over_time({step[names.TIER_KSM_UP]})"
    node_max = f"max_over_time({step[names.TIER_NODE_ACTIVE]})"
    return (
        Rule(names.POD_ALLOCATED, live_pod_allocated(model),
             "GPUs allocated now to each Running, node-bound pod, with its workload: the live burn rate per pod"
             "\nand workload on the hub. Not an integral: billing uses the hourly series below."),
        Rule(names.HOURLY_GPU_HOURS, previous_hour(model, hour_gpu_hours),
             "GPU-hours allocated in the previous complete UTC clock hour, integrated at every spoke step"
             "\n(billing.resolution). Every push during an hour carries the same total for the hour before,"
             "\nso the hub reads each hour exactly once and a lost push loses nothing. The sentinel row says"
             "\nthe rule ran."),
        Rule(names.BILLED_HOUR, f"floor(vector(time()) / {read.HOUR}) * {read.HOUR} - {read.HOUR}",
             "Start of the clock hour the hourly series of a push made now describe: the cluster's heartbeat"
             "\n(pushed whether or not it runs GPUs; the hub's not-reporting alert and push-age panels)."),
        Rule(names.STEPS_OBSERVED,
             _lagged(model, lambda before: f"{_at_last_hour_boundary(steps_observed, before)} or vector(0)"),
             "Spoke steps of the previous clock hour at which kube-state-metrics was up: the share of the"
             "\nhour the hourly figures cover. Less than every step (a restarted Prometheus with an empty"
             "\nTSDB, kube-state-metrics down) is an under-billed hour, which the hub alerts on."),
        Rule(names.NODE_ACTIVE_GPUS_MAX, previous_hour(model, node_max),
             "CCSP: most GPUs allocated to Running pods on each node at any step of the previous clock hour:"
             "\nwhole GPUs from the allocation (active_from=allocation); MIG slices and time-sliced replicas on"
             f"\nthe physical GPUs {names.FRACTION_EXPORTERS} attributes to their pods, at least the "
             "compute-share bound\n(attribution); other fractions by the bound (bound); the bound while "
             f"{names.FRACTION_EXPORTERS} was not seen"
             "\n(exporter_down: flagged, possibly low)."),
        *activity.rules(model),
        *_energy_rules(model),
        *inputs.rules(model),
    )


def _energy_rules(model: Model) -> tuple[Rule, ...]:
    """The hourly energy rule (:mod:`gpudash.render.rules.energy` gives its per-step figure), only for a model with an
    ``energy`` section."""
    if not model.energy.metered:
        return ()
    hourly = (f"sum_over_time({over_hour(model, names.TIER_ENERGY, energy.step_joules(model))}) / "
              f"{energy.JOULES_PER_KWH!r}")
    return (
        Rule(names.HOURLY_ENERGY, previous_hour(model, hourly),
             "GPU energy (kWh) of the previous clock hour per namespace: each GPU's counter rise (power x step"
             "\nwithout a counter) at every spoke step, split among the pods holding it (MIG by compute share);"
             "\nthe row without namespace is the unallocated line. Pushed like GPU-hours, with a sentinel row."),
    )


def group(model: Model) -> Group:
    return Group("gpudash-spoke", model.billing.resolution,
                 "Spoke: GPU allocation per pod, per hour and per node, measured on each cluster.", rules(model))

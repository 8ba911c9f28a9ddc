"""Idle GPUs, recorded once on the hub: the one definition the idle alert, dashboards, reports and the pruner read.

A tenant-agnostic pod is idle when it holds priced GPUs (it has a per-pod cost now) and the peak of its spoke
activity series ``namespace_pod:gpudash_gpu_activity:max`` over ``alerts.idle.window`` was zero, within the
model's namespace and GPU-model filters (gpu-pruner's rule: peak activity over the window is zero; optional
namespace and model regexes; optional power veto, wseaton/gpu-pruner ``gpu-pruner/src/query.promql.j2``). The
pod must have been observed since the window started, so a pod that just started, or whose activity series are
missing, is never idle: missing metrics are never idleness. The power veto needs a power series: a pod whose GPUs
report none is idle on activity alone, which the spoke reports (gpudash.render.rules.inputs ``gpu_power``) and the hub
alerts (``GPUBillingInputMissing``).
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.render.rules.format import Group, Rule

GROUP = "gpudash-hub-idle"


def _filters(model: Model) -> tuple:
    idle = model.alerts.idle
    out = []
    if idle.namespace_regex != ".*":
        out.append(("namespace", "=~", idle.namespace_regex))
    if idle.model_regex != ".*":
        out.append(("gpu_model", "=~", idle.model_regex))
    return tuple(out)


def observed_before(model: Model) -> str:
    """The pods whose activity the hub holds a push of in the 1.5 push intervals before the idle window starts,
    ``(t - W - 1.5P, t - W]``, 1 ms short (:func:`~gpudash.promql.build.window`): a push exactly at the left edge is
    outside under Prometheus 2 (closed ranges) and 3 (left-open) alike."""
    fresh = q.window(read.fresh_seconds(model.billing.mco_interval))
    return f"last_over_time({names.POD_ACTIVITY_MAX}[{fresh}] offset {q.duration(model.alerts.idle.window)})"


def expr(model: Model) -> str:
    """Cost per hour of each idle pod, labels ``names.labels(names.POD_IDLE)``."""
    idle = model.alerts.idle
    activity = q.selector(names.POD_ACTIVITY_MAX, *_filters(model))
    peak = q.agg("max", names.labels(names.POD_ACTIVITY_MAX), f"max_over_time({activity}[{q.window(idle.window)}])")
    out = f"({peak} == 0) and on {q.labels(names.POD)} {observed_before(model)}"
    if idle.power_veto_watts > 0:
        drawn = q.agg("max", names.POD, f"max_over_time({names.POD_POWER_MAX}[{q.window(idle.window)}])")
        out = f"({out}) unless on {q.labels(names.POD)} ({drawn} >= {idle.power_veto_watts!r})"
    cost = read.now(names.POD_COST_RATE, model.billing.mco_interval)
    return f"({out}) + on {q.labels(names.POD)} group_left (workload, workload_type) {cost}"


def group(model: Model) -> Group:
    window = q.duration(model.alerts.idle.window)
    return Group(GROUP, model.billing.mco_interval, "Idle GPUs: the one idle definition (model filters, power veto).",
                 (Rule(names.POD_IDLE, expr(model),
                       f"Cost per hour of each pod whose GPUs had zero peak activity over {window} (alerts.idle):"
                       "\nbilled while doing nothing. GPUAllocatedIdle, dashboards, reports and the pruner read it."),))

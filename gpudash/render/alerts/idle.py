"""Idle GPUs: a tenant's pod holds priced GPUs whose peak activity over ``alerts.idle.window`` was zero.

The alert reads the hub's recorded idle series ``names.POD_IDLE`` (:mod:`gpudash.render.rules.idle`: gpu-pruner's rule
with the model's filters, power veto and observed-since guard), the same series the pruner acts on. The window
itself is the debounce: the alert needs no ``for:``.
"""
from __future__ import annotations

import re

from gpudash.base import layout
from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt
from gpudash.render.rules import idle as idle_rule


def _expr(model: Model) -> str:
    """The recorded idle series (:mod:`gpudash.render.rules.idle`, the one definition) of tenant namespaces."""
    return c.tenant_of(model, c.fresh(model, names.POD_IDLE))


def _description(model, pod, kind, workload, tenant, cluster, gpu_model, cost) -> str:
    window = q.duration(model.alerts.idle.window)
    return (f"Pod {pod} ({kind} {workload}) of tenant {tenant} on cluster {cluster} holds {gpu_model} GPUs whose "
            f"peak activity over the last {window} was zero. They are billed at {cost} {model.currency} per hour "
            "while idle.")


def alerts(model: Model) -> tuple:
    idle = model.alerts.idle
    window = q.duration(idle.window)
    extra = []
    if idle.namespace_regex != ".*":
        extra.append(f"namespaces ~ `{idle.namespace_regex}`")
    if idle.model_regex != ".*":
        extra.append(f"models ~ `{idle.model_regex}`")
    if idle.power_veto_watts > 0:
        extra.append(f"not if drawing >= {idle.power_veto_watts:g} W")
    lb = c.label
    return (
        c.tenant_alert(
            model, an.IDLE, _expr(model), 0, "warning",
            summary="A pod holds GPUs that have done no work for the whole idle window.",
            description=_description(model, lb("pod"), lb("workload_type"), lb("workload"), lb("tenant"),
                                     lb("cluster"), lb("gpu_model"), c.VALUE_MONEY),
            help="GPUs allocated to a Running pod are billed whether they work or not: this pod's peak GPU activity"
                 "\nwas zero for alerts.idle.window. The value is what its GPUs cost per hour (pods on unpriced"
                 "\nproducts cost the tenant nothing and are reported by GPUUsageUnpriced instead).",
            threshold="; ".join([f"peak activity over {window} == 0 while holding priced GPUs", *extra])),
    )


def group(model: Model):
    return c.group(an.GROUP_IDLE, model, "Idle GPUs: allocated (and billed) GPUs with no activity. Routed to the"
                   "\ntenant's receiver.", alerts(model))


# --- promtool tests ----------------------------------------------------------------------------------------------

def _matches(regex: str, value: str) -> bool:
    return re.fullmatch(regex, value) is not None


def _models(model: Model) -> list[tuple[str, float, str]]:
    """(exporter model name, price per hour of one GPU, vendor) of every class product."""
    return [(p, g.price_per_hour, g.vendor) for g in model.gpu_classes for p in g.products]


def _recorded(model: Model, step: int, rows) -> dict:
    """A promql_expr_test of ``names.POD_IDLE`` at ``step``: ``rows`` of (labels, cost per hour)."""
    return {"expr": names.POD_IDLE, "eval_time": pt.eval_time(model, step),
            "exp_samples": [{"labels": pt.series(names.POD_IDLE, labels, [])["series"], "value": value}
                            for labels, value in sorted(rows, key=lambda r: r[0]["pod"])]}


def _pods(model: Model, total: int, last_busy: int) -> tuple[list, dict, dict]:
    """The input series of :func:`tests`' pods over ``total`` steps, the alerts expected of them {pod: alert} and
    their recorded idle rows {pod: (labels of names.POD_IDLE, cost per hour)}; the busy-then-idle pod is busy
    until step ``last_busy``."""
    idle = model.alerts.idle
    cluster = model.clusters[0]
    watched = [t for t in model.tenants if _matches(idle.namespace_regex, t.namespace)]
    unwatched = [t for t in model.tenants if not _matches(idle.namespace_regex, t.namespace)]
    models_in = [m for m in _models(model) if _matches(idle.model_regex, m[0])]
    models_out = [m for m in _models(model) if not _matches(idle.model_regex, m[0])]
    inputs, expected, recorded = [], {}, {}

    def pod(namespace, name, gpu_model, activity, cost, workload=None, power=None):
        labels = {"cluster": cluster, "namespace": namespace, "pod": name}
        inputs.append(pt.series(names.POD_ACTIVITY_MAX, {**labels, "gpu_model": gpu_model}, activity))
        if cost is not None:
            wl = {"workload": workload or name, "workload_type": "Deployment" if workload else "Pod"}
            inputs.append(pt.series(names.POD_COST_RATE, {**labels, **wl}, [cost] * total))
        if power is not None:
            inputs.append(pt.series(names.POD_POWER_MAX, labels, [power] * total))
        return labels

    if watched and models_in:
        t = watched[0]
        gpu_model, price, _ = models_in[0]
        zeros, busy = [0.0] * total, [0.5] * total
        later = [0.4 if s <= last_busy else 0.0 for s in range(total)]
        for name, activity, gpus in (("idle-notebook", zeros, 2), ("busy-then-idle", later, 1)):
            labels = pod(t.namespace, name, gpu_model, activity, gpus * price, workload=f"{name}-wl")
            recorded[name] = ({**labels, "gpu_model": gpu_model, "workload": f"{name}-wl",
                               "workload_type": "Deployment"}, gpus * price)
            description = _description(model, name, "Deployment", f"{name}-wl", t.name, cluster, gpu_model,
                                       f"{gpus * price:.2f}")
            expected[name] = pt.alert(
                {**labels, "gpu_model": gpu_model, "workload": f"{name}-wl", "workload_type": "Deployment",
                 "tenant": t.name, "severity": "warning", an.AUDIENCE: an.TENANT},
                {"summary": "A pod holds GPUs that have done no work for the whole idle window.",
                 "description": description, "runbook_url": c.runbook_url(model, an.IDLE),
                 "dashboard_url": c.tenant_dashboard_link(model, t.name)})
        pod(t.namespace, "busy", gpu_model, busy, price)
        pod(t.namespace, "released", gpu_model, zeros, None)  # idle, but holds no GPU any more
        if idle.power_veto_watts > 0:  # drew power during the window: vetoed
            pod(t.namespace, "drawing-power", gpu_model, zeros, price, power=idle.power_veto_watts + 50)
        if _matches(idle.namespace_regex, "gpudash-not-a-tenant") and model.tenant_for_namespace(
                "gpudash-not-a-tenant") is None:
            labels = pod("gpudash-not-a-tenant", "unbilled", gpu_model, zeros, price)
            # recorded (idle is defined for every priced pod), but no tenant's alert
            recorded["unbilled"] = ({**labels, "gpu_model": gpu_model, "workload": "unbilled",
                                     "workload_type": "Pod"}, price)
    if watched and models_out:
        pod(watched[0].namespace, "other-model", models_out[0][0], [0.0] * total, models_out[0][1])
    if unwatched and (models_in or models_out):
        gpu_model, price, _ = (models_in or models_out)[0]
        pod(unwatched[0].namespace, "unwatched", gpu_model, [0.0] * total, price)
    inputs += [pt.series(names.TENANT_INFO, {"namespace": t.namespace, "tenant": t.name}, [1] * total)
               for t in model.tenants]
    return inputs, expected, recorded


def tests(model: Model) -> dict:
    """Pods of the first tenant whose namespace the regex watches: one idle from the start, one busy until
    later, one always busy, one idle without GPUs now; with a veto, one idle but drawing power; pods outside the
    namespace or model regex, and in a namespace that is no tenant, never fire."""
    idle = model.alerts.idle
    P = c.push(model)
    window_steps = idle.window / P
    first = -(-idle.window // P)  # the idle-from-start pod fires at the first step >= window
    last_busy = first + 1
    fires_after_busy = int(last_busy + window_steps) + 1
    total = fires_after_busy + 2
    inputs, expected, recorded = _pods(model, total, last_busy)
    cases = [
        pt.case(model, first - 1, an.IDLE),  # nobody observed for a whole window yet
        pt.case(model, first, an.IDLE, [expected["idle-notebook"]] if expected else []),
        pt.case(model, -(-(last_busy * P + idle.window) // P) - 1, an.IDLE,
                [expected["idle-notebook"]] if expected else []),  # busy-then-idle's activity is still in the window
        pt.case(model, fires_after_busy, an.IDLE, [expected["idle-notebook"], expected["busy-then-idle"]]
                if expected else []),
    ]
    group = pt.test_group(model, "idle GPUs held by pods", inputs, cases)
    group["promql_expr_test"] = [  # the recorded idle series itself, by value
        _recorded(model, first - 1, []),
        _recorded(model, first, [recorded[p] for p in recorded if p != "busy-then-idle"]),
        _recorded(model, fires_after_busy, list(recorded.values())),
    ]
    out = pt.test_file(model, [group],
                       "Idle GPU alert over the recorded idle series, fed the spoke activity and hub cost series.")
    # the idle rule records what the alert reads, before the alert at every evaluation
    out["rule_files"] = [layout.from_tests(layout.HUB_RULES), *out["rule_files"]]
    out["group_eval_order"] = [idle_rule.GROUP, an.GROUP_IDLE]
    return out

"""Usage the bill leaves out: GPU-hours on products the model has no price for, GPU energy no pod held, and GPU
requests waiting for a node (pods waiting for a node have ``node=""`` in ``kube_pod_container_resource_requests``).
"""
from __future__ import annotations

from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt


def unscheduled_for(model):
    return max(1800, c.pushes(model, 3))


def _unpriced_text(currency, cluster, namespace, hours, resource, product):
    return (f"In the last hour namespace {namespace} on cluster {cluster} used {hours} GPU-hours of {resource} on "
            f"product \"{product}\", which the model has no price for: they are billed at nothing until the model "
            f"prices them (gpu_classes products, MIG or time-slicing prices, in {currency}).")


def _energy_text(cluster, share):
    return (f"In the last hour {share} of the GPU energy of cluster {cluster} went to GPUs no pod held: idle "
            "capacity drawing power that no tenant pays for (the provider's unallocated energy line).")


def _unscheduled_text(namespace, pod, cluster, gpus, resource, wait):
    return (f"Pod {pod} in namespace {namespace} on cluster {cluster} has requested {gpus} {resource} without being "
            f"bound to a node for more than {wait}: GPU capacity, quota or fragmentation is turning demand away "
            "(it is not billed while it waits).")


def unpriced(model: Model):
    lb = c.label
    return c.provider_alert(
        model, an.UNPRICED, f"{c.fresh(model, names.UNPRICED_GPU_HOURS)} > 0", 0, "warning",
        summary="GPU-hours were used on a product or resource the model has no price for.",
        description=_unpriced_text(model.currency, lb("cluster"), lb("namespace"),
                                   c.VALUE_MONEY, lb("resource"), lb("product")),
        help="Unpriced GPU-hours are never silently free: they are reported until the model prices the"
             "\nproduct (a new GPU model, a node without a product label, an unknown MIG profile).",
        threshold="unpriced GPU-hours of the last hour > 0 (the hourly figure is its own debounce)")


def energy_unallocated(model: Model):
    """The unallocated share of each cluster's GPU energy in the last hour, where it reaches the model's ratio."""
    if not model.energy.metered:
        return None
    ratio = model.energy.unallocated_alert_ratio
    energy = c.fresh(model, names.HOUR_ENERGY)
    free = c.fresh(model, q.selector(names.HOUR_ENERGY, ("namespace", "=", "")))
    return c.provider_alert(
        model, an.ENERGY_UNALLOCATED,
        f"{q.agg('sum', ('cluster',), free)} / {q.agg('sum', ('cluster',), energy)} >= {ratio!r}", 0, "warning",
        summary="Much of a cluster's GPU energy went to GPUs that no pod held.",
        description=_energy_text(c.label("cluster"), c.VALUE_PERCENT),
        help="Idle GPU capacity burns power that no tenant pays for: the unallocated share of the"
             "\ncluster's GPU energy in the last hour reached energy.unallocated_alert_ratio.",
        threshold=f"unallocated kWh / all kWh of the last hour >= {ratio:g} (the hourly figure is its own debounce)")


def unscheduled(model: Model):
    lb = c.label
    pending = c.fresh(model, q.selector(ksm.CONTAINER_REQUESTS, ksm.job(model.sources),
                                        ("resource", "=~", ksm.gpu_resource_regex()), ("node", "=", "")))
    unscheduled = q.agg("sum", ("cluster", "namespace", "pod", "resource"),
                        q.agg("max", ("cluster", "namespace", "pod", "container", "resource"), pending))
    return c.provider_alert(
        model, an.UNSCHEDULED, f"{unscheduled} > 0", unscheduled_for(model), "warning",
        summary="A pod has waited a long time for GPUs without being scheduled.",
        description=_unscheduled_text(lb("namespace"), lb("pod"), lb("cluster"), c.VALUE_INT, lb("resource"),
                                      q.duration(unscheduled_for(model))),
        help="GPU requests with no node binding (node=\"\") are not billed: a pod waiting this long is demand"
             "\nthe fleet turns away (capacity, quota, fragmentation).",
        threshold=f"GPU request with `node=\"\"`; for {q.duration(unscheduled_for(model))}")


# --- promtool tests ----------------------------------------------------------------------------------------------

def unpriced_tests(model: Model) -> list[dict]:
    cluster, t = model.clusters[0], model.tenants[0]
    start = 3
    hours = 2.5
    v = vendors.sample()
    labels = {"cluster": cluster, "namespace": t.namespace, "product": v.sample_products[1],
              "resource": v.resource}
    inputs = [pt.series(names.UNPRICED_GPU_HOURS, labels, [0.0] * start + [hours] * 3)]
    fired = pt.provider_alert(model, (unpriced(model),), an.UNPRICED, {**labels, "severity": "warning"},
                              _unpriced_text(model.currency, cluster, t.namespace, f"{hours:.2f}", v.resource,
                                             v.sample_products[1]))
    return [pt.test_group(model, "unpriced GPU-hours", inputs, [
        pt.case(model, start - 1, an.UNPRICED), pt.case(model, start, an.UNPRICED, [fired])])]


def energy_tests(model: Model) -> list[dict]:
    """Unallocated energy at the ratio fires; below it, or a cluster without an unallocated line, stays quiet."""
    if not model.energy.metered:
        return []
    ratio, start = model.energy.unallocated_alert_ratio, 3
    busy, idle, quiet = model.clusters[0], "gpudash-idle", "gpudash-busy"
    ns = model.tenants[0].namespace
    free, used = ratio * 10 + 0.5, (1 - ratio) * 10 - 0.5  # the fired share, as Prometheus divides
    rows = [({"cluster": idle}, free), ({"cluster": idle, "namespace": ns}, used),
            ({"cluster": quiet}, ratio * 10 - 0.5), ({"cluster": quiet, "namespace": ns}, (1 - ratio) * 10 + 0.5),
            ({"cluster": busy, "namespace": ns}, 10.0)]
    inputs = [pt.series(names.HOUR_ENERGY, labels, [0.0] * start + [kwh] * 3) for labels, kwh in rows]
    fired = pt.provider_alert(model, (energy_unallocated(model),), an.ENERGY_UNALLOCATED,
                              {"cluster": idle, "severity": "warning"},
                              _energy_text(idle, c.percent(free / (free + used))))
    return [pt.test_group(model, "idle GPUs burn a share of a cluster's energy", inputs, [
        pt.case(model, start - 1, an.ENERGY_UNALLOCATED), pt.case(model, start, an.ENERGY_UNALLOCATED, [fired])])]


def unscheduled_tests(model: Model) -> list[dict]:
    cluster, t = model.clusters[0], model.tenants[0]
    job = model.sources.kube_state_metrics_job
    hold = pt.steps(model, unscheduled_for(model))
    total = hold + 2
    base = {"cluster": cluster, "namespace": t.namespace, "job": job, "resource": ksm.sample_resource(),
            "unit": "integer"}
    waiting = {**base, "pod": "train-0", "uid": "u-train-0", "node": ""}
    scheduled = {**base, "pod": "serve-0", "uid": "u-serve-0"}
    inputs = [
        pt.series(ksm.CONTAINER_REQUESTS, {**waiting, "container": "trainer"}, [2] * total),
        pt.series(ksm.CONTAINER_REQUESTS, {**waiting, "container": "sidecar"}, [1] * total),
        pt.series(ksm.CONTAINER_REQUESTS, {**scheduled, "container": "server", "node": ""},
                  [1] * 2 + [None] * (total - 2)),
        pt.series(ksm.CONTAINER_REQUESTS, {**scheduled, "container": "server", "node": "gpu-node-1"},
                  [None] * 2 + [1] * (total - 2)),
    ]
    wait = q.duration(unscheduled_for(model))
    labels = {"cluster": cluster, "namespace": t.namespace, "pod": "train-0", "resource": ksm.sample_resource(),
              "severity": "warning"}
    fired = pt.provider_alert(model, (unscheduled(model),), an.UNSCHEDULED, labels,
                              _unscheduled_text(t.namespace, "train-0", cluster, "3", ksm.sample_resource(), wait))
    return [pt.test_group(model, "GPU requests without a node", inputs, [
        pt.case(model, hold - 1, an.UNSCHEDULED), pt.case(model, hold, an.UNSCHEDULED, [fired])])]

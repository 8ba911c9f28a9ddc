"""GPU health (provider alerts): XID errors, GPUs the device plugin no longer offers, failing exporter scrapes.

A broken GPU allocated to a pod is still billed to its tenant, and a GPU that is not allocatable cannot be sold:
both are the provider's to fix (and perhaps to credit). ``DCGM_FI_DEV_XID_ERRORS`` reaches the hub through
gpudash's allowlist; ``kube_node_status_capacity`` / ``_allocatable`` and ``up`` are in ACM's default allowlist.
"""
from __future__ import annotations

from gpudash.model import alert_names as an
from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.model.vendors import Vendor
from gpudash.promql import build as q
from gpudash.promql.read import HOUR
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt
from gpudash.render.alerts.integrity.sources import exporters


def error_vendor(model: Model) -> Vendor | None:
    """The model's vendor whose exporter reports GPU errors (``error_metric``: DCGM's XID), or None. The XID alert
    and its codes are NVIDIA's; one such vendor."""
    return next((v for v in map(vendors.vendor, dict.fromkeys(g.vendor for g in model.gpu_classes))
                 if v.error_metric), None)


def _gpu(v: Vendor) -> tuple[str, ...]:
    """A GPU as the error alert keys it: every host label (DCGM renames Hostname to hostname), the GPU and model."""
    return ("cluster", *v.host_labels, *v.gpu_labels, v.model_label)


def xid_recent(model: Model) -> int:
    """DCGM's XID value is sticky (the last XID until a reset), so a non-fatal XID is news while its change is
    within this window: an hour, and at least two pushes so that the range always holds the change."""
    return max(HOUR, c.pushes(model, 2))


def allocatable_for(model):
    return c.pushes(model, 3)


def exporter_down_for(model):
    return c.pushes(model, 2)


def _xid_text(v: Vendor, gpu, uuid, host, cluster, code, fatal: bool):
    text = f"GPU {gpu} ({uuid}) on node {host} of cluster {cluster} reported XID {code}."
    if fatal:
        return text + (f" {v.title} lists it as needing a GPU reset or a node reboot: drain the node; the tenant "
                       "using the GPU is billed for it meanwhile.")
    return text + " It is usually an application fault; repeated XIDs on the same GPU point at the hardware."


def _allocatable_text(node, cluster, missing, resource):
    return (f"Node {node} of cluster {cluster} offers {missing} fewer {resource} than it has: the device plugin "
            "marked GPUs unhealthy or is not running. They cannot be allocated or sold.")


def _exporter_down_text(job, instance, cluster):
    return (f"The {job} target {instance} on cluster {cluster} fails its scrapes: GPU activity, idle alerts and "
            "XID errors of its node are not seen (billing, from allocation, is not affected).")


def _xid(model: Model) -> tuple[str, str]:
    """(critical, warning) expressions; value: the XID code."""
    v = error_vendor(model)
    assert v is not None and v.error_metric
    gpu = _gpu(v)
    xid = q.selector(v.metric(model.sources, v.error_metric), gx.job(gx.exporter(model.sources, v)))
    code = q.agg("max", gpu, c.fresh(model, xid))
    non_fatal = f"({code} > 0)" + "".join(f" != {x}" for x in v.fatal_errors)
    recent = q.agg("max", gpu, f"changes({xid}[{q.duration(xid_recent(model))}])")
    critical = f"({code} > 0) unless on {q.labels(gpu)} ({non_fatal})"
    warning = f"({non_fatal}) and on {q.labels(gpu)} ({recent} > 0)"
    return critical, warning


def alerts(model: Model) -> tuple:
    lb = c.label
    out = []
    v = error_vendor(model)
    if v:
        host = "".join(map(lb, v.host_labels))  # whichever the exporter sets
        gpu, uuid = lb(v.gpu_labels[0]), lb(v.gpu_labels[-1])  # the GPU's index and its stable id
        critical, warning = _xid(model)
        fatal_codes = ", ".join(map(str, v.fatal_errors))
        for expr, severity, fatal in ((critical, "critical", True), (warning, "warning", False)):
            out.append(c.provider_alert(
                model, an.XID, expr, 0, severity,
                summary="A GPU reported an XID error.",
                description=_xid_text(v, gpu, uuid, host, lb("cluster"), c.VALUE_INT, fatal),
                help=(f"A GPU reported an XID that needs a GPU reset or node reboot ({fatal_codes}); "
                      f"{v.exporter_short} keeps the value until then." if fatal else
                      f"A GPU reported another XID within {q.duration(xid_recent(model))} ({v.exporter_short} keeps "
                      "the last XID, so\nonly a change counts). The tenant holding the GPU pays for it either way."),
                threshold=(f"{v.exporter_short} XID in {{{fatal_codes}}}" if fatal else
                           f"other XID, changed within {q.duration(xid_recent(model))}")))
    job = ksm.job(model.sources)
    gpus = ("resource", "=~", ksm.gpu_resource_regex())
    node = ("cluster", "node", "resource")
    capacity = q.agg("max", node, c.fresh(model, q.selector(ksm.NODE_CAPACITY, job, gpus)))
    allocatable = q.agg("max", node, c.fresh(model, q.selector(ksm.NODE_ALLOCATABLE, job, gpus)))
    out.append(c.provider_alert(
        model, an.ALLOCATABLE_BELOW_CAPACITY, f"({capacity} - on {q.labels(node)} {allocatable}) > 0",
        allocatable_for(model), "warning",
        summary="A node offers fewer GPUs than it has.",
        description=_allocatable_text(lb("node"), lb("cluster"), c.VALUE_INT, lb("resource")),
        help="Allocatable GPUs below capacity: the device plugin took GPUs out (unhealthy) or is down. Those"
             "\nGPUs cannot be allocated, so they earn nothing.",
        threshold=f"capacity - allocatable > 0; for {q.duration(allocatable_for(model))}"))
    jobs = [e.job for _, e, _ in exporters(model)]
    if jobs:
        up = c.fresh(model, q.selector(an.UP, ("job", "=~", "|".join(f"(?:{j})" for j in jobs))))
        out.append(c.provider_alert(
            model, an.EXPORTER_DOWN, f"{q.agg('min', ('cluster', 'job', 'instance'), up)} == 0",
            exporter_down_for(model), "warning",
            summary="A GPU exporter fails its scrapes.",
            description=_exporter_down_text(lb("job"), lb("instance"), lb("cluster")),
            help=f"A {' or '.join(v.exporter_short for v in vendors.VENDORS.values())} exporter target is down: its "
                 "node's GPU activity and errors are unseen, so idle\nGPUs are not reported. Billing (from allocation) "
                 "is not affected.",
            threshold=f"exporter `up` == 0; for {q.duration(exporter_down_for(model))}"))
    return tuple(out)


def group(model: Model):
    return c.group(an.GROUP_HEALTH, model, "GPU health: XID errors, GPUs taken out of allocation, exporter scrape"
                   "\nerrors. Routed to the provider.", alerts(model))


# --- promtool tests ----------------------------------------------------------------------------------------------

def _fired(model: Model, name: str, labels: dict, description: str) -> dict:
    return pt.provider_alert(model, alerts(model), name, labels, description)


def _xid_tests(model: Model) -> list[dict]:
    v = error_vendor(model)
    if v is None or not v.error_metric:
        return []
    cluster = model.clusters[0]
    product = next(p for g in model.gpu_classes if g.vendor == v.name for p in g.products)
    start = 3
    recent = pt.steps(model, xid_recent(model))
    total = start + recent + 3
    job = gx.sample_job(gx.exporter(model.sources, v))
    plan = {"0": 43, "1": 79, "2": 0}  # gpu -> XID from `start` on (sticky)
    inputs = []
    gpus = {}
    for gpu, code in plan.items():
        identity = dict(v.gpu_identity(int(gpu), f"0000000{gpu}"))
        labels = {**{k: identity[k] for k in v.gpu_labels}, v.host_labels[0]: "gpu-node-1", v.model_label: product,
                  "cluster": cluster}
        gpus[gpu] = labels
        raw = {**labels, "job": job, **identity, **dict(v.sample_labels)}
        inputs.append(pt.series(v.error_metric, raw, [0] * start + [code] * (total - start)))

    def fired(gpu, fatal):
        code, labels = plan[gpu], gpus[gpu]
        return _fired(model, an.XID, {**labels, "severity": "critical" if fatal else "warning"},
                      _xid_text(v, gpu, labels[v.gpu_labels[-1]], "gpu-node-1", cluster, str(code), fatal))

    both = sorted([fired("0", False), fired("1", True)], key=pt.order)
    # The change 0 -> 43 (samples at steps start-1 and start) counts in changes()[1h] while the range still holds
    # step start-1. Check one step inside and one step past that edge, never on it (Prometheus 2 and 3 differ
    # on whether a range includes its left end).
    edge = start - 1 + recent
    cases = [pt.case(model, start - 1, an.XID), pt.case(model, start, an.XID, both),
             pt.case(model, edge - 1, an.XID, both), pt.case(model, edge + 1, an.XID, [fired("1", True)])]
    return [pt.test_group(model, "XID errors: fatal ones stay, others are news for an hour", inputs, cases)]


def _allocatable_tests(model: Model) -> list[dict]:
    cluster = model.clusters[0]
    job = model.sources.kube_state_metrics_job
    hold = pt.steps(model, allocatable_for(model))
    drop = 3
    total = drop + hold + 2
    resource = ksm.sample_resource()
    base = {"cluster": cluster, "job": job, "resource": resource, "unit": "integer"}
    inputs = [
        pt.series(ksm.NODE_CAPACITY, {**base, "node": "gpu-node-1"}, [8] * total),
        pt.series(ksm.NODE_ALLOCATABLE, {**base, "node": "gpu-node-1"}, [8] * drop + [6] * (total - drop)),
        pt.series(ksm.NODE_CAPACITY, {**base, "node": "gpu-node-2"}, [8] * total),
        pt.series(ksm.NODE_ALLOCATABLE, {**base, "node": "gpu-node-2"}, [8] * total),
        pt.series(ksm.NODE_CAPACITY, {**base, "node": "gpu-node-2", "resource": "cpu", "unit": "core"}, [96] * total),
        pt.series(ksm.NODE_ALLOCATABLE, {**base, "node": "gpu-node-2", "resource": "cpu", "unit": "core"},
                  [95.5] * total),
    ]
    fired = _fired(model, an.ALLOCATABLE_BELOW_CAPACITY,
                   {"cluster": cluster, "node": "gpu-node-1", "resource": resource, "severity": "warning"},
                   _allocatable_text("gpu-node-1", cluster, "2", resource))
    return [pt.test_group(model, "allocatable GPUs below capacity", inputs, [
        pt.case(model, drop + hold - 1, an.ALLOCATABLE_BELOW_CAPACITY),
        pt.case(model, drop + hold, an.ALLOCATABLE_BELOW_CAPACITY, [fired])])]


def _exporter_down_tests(model: Model) -> list[dict]:
    jobs = [gx.sample_job(e) for _, e, _ in exporters(model)]
    if not jobs:
        return []
    cluster = model.clusters[0]
    hold = pt.steps(model, exporter_down_for(model))
    down = 3
    total = down + hold + 2
    inputs = [
        pt.series(an.UP, {"cluster": cluster, "job": jobs[0], "instance": "10.0.0.1:9400"},
                  [1] * down + [0] * (total - down)),
        pt.series(an.UP, {"cluster": cluster, "job": jobs[0], "instance": "10.0.0.2:9400"}, [1] * total),
        pt.series(an.UP, {"cluster": cluster, "job": "node-exporter", "instance": "10.0.0.1:9100"}, [0] * total),
    ]
    fired = _fired(model, an.EXPORTER_DOWN,
                   {"cluster": cluster, "job": jobs[0], "instance": "10.0.0.1:9400", "severity": "warning"},
                   _exporter_down_text(jobs[0], "10.0.0.1:9400", cluster))
    return [pt.test_group(model, "a GPU exporter target fails its scrapes", inputs, [
        pt.case(model, down + hold - 1, an.EXPORTER_DOWN), pt.case(model, down + hold, an.EXPORTER_DOWN, [fired])])]


def tests(model: Model) -> dict:
    return pt.test_file(model, [*_xid_tests(model), *_allocatable_tests(model), *_exporter_down_tests(model)],
                        "GPU health alerts, fed the pushed exporter and kube-state-metrics series directly.")

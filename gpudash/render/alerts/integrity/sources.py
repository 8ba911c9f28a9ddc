"""Are the sources billing reads there on every cluster: kube-state-metrics (allocation), the GPU exporters
(activity), the series the spoke rules need, and each GPU node's product label (the price)? ``up``,
``kube_node_status_capacity`` and ``kube_pod_container_resource_requests`` are in ACM's default allowlist.
"""
from __future__ import annotations

import dataclasses

from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Exporter, Model
from gpudash.promql import build as q
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt
from gpudash.render.rules import inputs


def exporters(model: Model) -> tuple[tuple[str, Exporter, str], ...]:
    """(vendor title, exporter, kube-state-metrics resource regex) of the GPU exporters the model's classes need,
    in the registry's order."""
    used = {g.vendor for g in model.gpu_classes}
    return tuple((v.title, gx.exporter(model.sources, v), v.ksm_node_resources)
                 for v in vendors.VENDORS.values() if v.name in used)


def ksm_down_for(model):
    return c.pushes(model, 2)


def exporter_missing_for(model):
    return c.pushes(model, 3)


def no_product_for(model):
    return c.pushes(model, 3)


def input_missing_for(model, what: str):
    """The spoke tier's absence fires at the first evaluation of the push that reports it (a cluster the Placement
    missed is told within one push interval); a missing exporter or kube-state-metrics series after two pushes."""
    return 0 if what == inputs.SPOKE_TIER else c.pushes(model, 2)


def _ksm_text(cluster, job):
    return (f"kube-state-metrics (job {job}) on cluster {cluster} is down or not scraped. GPU allocation is "
            "measured from it: GPU time on the cluster is not billed while it is down.")


def _exporter_missing_text(cluster, count, job):
    return (f"Cluster {cluster} has {count} GPU nodes but no {job} scrape target: GPU activity, "
            "idle detection and GPU health are blind there (billing, from allocation, is not affected).")


def _input_text(what, cluster, node="", gpus=""):
    where = f"node {node} of cluster {cluster}: {gpus} " if what == inputs.GPU_POWER else f"cluster {cluster}: "
    return f"On {where}{inputs.CAUSE[what]}. Fix: {inputs.FIX[what]}."


def _no_product_text(cluster, node, gpus):
    return (f"Node {node} on cluster {cluster} holds {gpus} GPUs allocated to Running pods but shows no GPU product "
            "label: their GPU-hours are unpriced. kube-state-metrics exports node labels only with "
            f"--metric-labels-allowlist=nodes=[...] (OpenShift sets nodes=[*]), and {vendors.labellers(' or ')} "
            "must run on the node.")


def ksm_down(model: Model):
    """Every kube-state-metrics target down, or none at all on a cluster that pushes."""
    lb = c.label
    up_ksm = c.fresh(model, q.selector(an.UP, ksm.job(model.sources)))
    heartbeat = c.fresh(model, names.BILLED_HOUR)
    ksm_job = model.sources.kube_state_metrics_job
    ksm_absent = q.label_replace(f"{q.agg('count', ('cluster',), heartbeat)} unless on (cluster) "
                                 f"{q.agg('count', ('cluster',), up_ksm)}", "job", _dollar(ksm_job), "", "")
    return c.provider_alert(
        model, an.KSM_DOWN, f"({q.agg('max', ('cluster', 'job'), up_ksm)} == 0) or {ksm_absent}",
        ksm_down_for(model), "critical",
        summary="The source of GPU allocation, kube-state-metrics, is down on a cluster.",
        description=_ksm_text(lb("cluster"), lb("job")),
        help="Every kube-state-metrics target of the cluster fails its scrape, or the cluster pushes but has"
             "\nno kube-state-metrics target: allocation is unmeasured, so GPU time is under-billed.",
        threshold=f"`up{{job=\"{ksm_job}\"}}` == 0 or absent; for {q.duration(ksm_down_for(model))}")


def exporter_missing(model: Model):
    """Per vendor the model prices: clusters with GPU capacity of its resources and no target of its exporter;
    None when the model prices no vendor with an exporter."""
    job = ksm.job(model.sources)
    missing = []
    for _vendor, exporter, resources in exporters(model):
        exporter_job = exporter.job
        capacity = c.fresh(model, q.selector(ksm.NODE_CAPACITY, job, ("resource", "=~", resources)))
        gpu_nodes = q.agg("count", ("cluster",), f"{q.agg('max', ('cluster', 'node'), capacity)} > 0")
        targets = q.agg("count", ("cluster",), c.fresh(model, q.selector(an.UP, ("job", "=~", exporter_job))))
        missing.append(q.label_replace(f"{gpu_nodes} unless on (cluster) {targets}", "job", _dollar(exporter_job),
                                       "", ""))
    if not missing:
        return None
    return c.provider_alert(
        model, an.EXPORTER_MISSING, " or ".join(missing), exporter_missing_for(model), "warning",
        summary="A cluster has GPU nodes but no GPU exporter target.",
        description=_exporter_missing_text(c.label("cluster"), c.VALUE_INT, c.label("job")),
        help="Nodes report GPU capacity (kube-state-metrics) but the vendor's exporter has no scrape target"
             "\nin the cluster: utilisation, idle alerts and health checks see nothing. Billing (from"
             "\nallocation) is unaffected.",
        threshold=f"GPU capacity > 0 and no exporter `up` series; for {q.duration(exporter_missing_for(model))}")


_INPUT_HELP = {
    inputs.INIT_CONTAINERS: "kube-state-metrics' init-container series are not scraped (OpenShift's minimal collection"
                            "\nprofile): init containers' and native sidecars' GPU requests go unbilled.",
    inputs.SPOKE_TIER: "The spoke tier is not recording on a model cluster (the Placement missed it, or its group"
                       "\nfails): that cluster's hourly GPU-hours and energy are empty.",
    inputs.GPU_POWER: "GPUs report activity but their node reports no power or energy: their energy is unmetered"
                      "\nand the idle power veto cannot apply (a GPU at work may be alerted or pruned as idle).",
}


def input_missing(model: Model):
    """One rule per input the spoke checks (gpudash.render.rules.inputs), each with its cause and fix."""
    out = []
    for what, severity in ((inputs.INIT_CONTAINERS, "critical"), (inputs.SPOKE_TIER, "critical"),
                           (inputs.GPU_POWER, "warning")):
        if what == inputs.SPOKE_TIER and not model.billing.tier:
            continue
        missing = c.fresh(model, q.selector(names.INPUT_MISSING, ("input", "=", what)))
        hold = input_missing_for(model, what)
        rule = c.provider_alert(
            model, an.INPUT_MISSING, f"{missing} > 0", hold, severity,
            summary="A series the billing rules need is missing on a cluster.",
            description=_input_text(what, c.label("cluster"), c.label("node"), c.VALUE_INT),
            help=_INPUT_HELP[what],
            threshold=f"`{names.INPUT_MISSING}{{input=\"{what}\"}}` pushed" + (f"; for {q.duration(hold)}"
                                                                             if hold else " (at once)"))
        # the input as a rule label too: rules of one alert name need distinct labels (promtool's duplicate lint)
        out.append(dataclasses.replace(rule, labels=(*rule.labels, ("input", what))))
    return tuple(out)


def no_product(model: Model):
    no_product = q.agg("sum", ("cluster", "node"),
                       c.fresh(model, q.selector(names.POD_ALLOCATED, ("product", "=", ""))))
    return c.provider_alert(
        model, an.NO_PRODUCT_LABEL, f"{no_product} > 0", no_product_for(model), "warning",
        summary="A node holds GPU allocations but has no GPU product label.",
        description=_no_product_text(c.label("cluster"), c.label("node"), c.VALUE_INT),
        help="GPUs allocated on a node whose product label kube_node_labels does not show are billed at"
             "\nnothing (unpriced): vanilla kube-state-metrics exports no node labels without"
             "\n--metric-labels-allowlist=nodes=[...], or the labeller is not running there.",
        threshold=f"pushed allocation with `product=\"\"` > 0; for {q.duration(no_product_for(model))}")


def _dollar(text: str) -> str:
    """A label_replace replacement that is ``text`` literally."""
    return text.replace("$", "$$")


# --- promtool tests ----------------------------------------------------------------------------------------------

def ksm_tests(model: Model) -> list[dict]:
    cluster = model.clusters[0]
    job = model.sources.kube_state_metrics_job
    hold = pt.steps(model, ksm_down_for(model))
    down = 3
    total = down + hold + 2
    labels = {"cluster": cluster, "job": job, "severity": "critical"}
    fired = pt.provider_alert(model, (ksm_down(model),), an.KSM_DOWN, labels, _ksm_text(cluster, job))
    failing = pt.test_group(model, "kube-state-metrics scrapes fail", [
        pt.series(names.BILLED_HOUR, {"cluster": cluster}, [0] * total),
        pt.series(an.UP, {"cluster": cluster, "job": job, "instance": "10.0.0.1:8443"},
                  [1] * down + [0] * (total - down)),
    ], [pt.case(model, down - 1, an.KSM_DOWN), pt.case(model, down + hold - 1, an.KSM_DOWN),
        pt.case(model, down + hold, an.KSM_DOWN, [fired])])
    absent = pt.test_group(model, "the cluster pushes but kube-state-metrics is not scraped", [
        pt.series(names.BILLED_HOUR, {"cluster": cluster}, [0] * total),
        pt.series(names.BILLED_HOUR, {"cluster": "gpudash-healthy"}, [0] * total),
        pt.series(an.UP, {"cluster": "gpudash-healthy", "job": job}, [1] * total),
    ], [pt.case(model, hold - 1, an.KSM_DOWN), pt.case(model, hold, an.KSM_DOWN, [fired])])
    return [failing, absent]


def exporter_missing_tests(model: Model) -> list[dict]:
    found = exporters(model)
    if not found:
        return []
    cluster = model.clusters[0]
    ksm_job = model.sources.kube_state_metrics_job
    hold = pt.steps(model, exporter_missing_for(model))
    stop = 3
    fire_stopped = stop + 2 + hold
    total = fire_stopped + 2
    inputs, cases = [], []
    first_job = found[0][1].job
    for i, (vendor, exporter, _resources) in enumerate(found):
        job = gx.sample_job(exporter)
        resource = next(v.ksm_node_resources.split("|")[0] for v in vendors.VENDORS.values() if v.title == vendor)
        for n in range(2):
            node = f"{vendor.lower()}-node-{n}"
            inputs.append(pt.series(ksm.NODE_CAPACITY, {"cluster": cluster, "job": ksm_job, "node": node,
                                                         "resource": resource, "unit": "integer"}, [8] * total))
        if i == 0:  # this exporter stops; the others never had a target
            inputs.append(pt.series(an.UP, {"cluster": cluster, "job": job, "instance": "10.0.0.2:9400"},
                                    [1] * (stop + 1) + [None] * (total - stop - 1)))
    # a node with capacity 0 (the device plugin is not running yet) does not count
    inputs.append(pt.series(ksm.NODE_CAPACITY, {"cluster": cluster, "job": ksm_job, "node": "cpu-node",
                                                 "resource": ksm.sample_resource(), "unit": "integer"}, [0] * total))
    description = _exporter_missing_text(cluster, "2", first_job)
    rules = (exporter_missing(model),)
    first = pt.provider_alert(model, rules, an.EXPORTER_MISSING,
                              {"cluster": cluster, "job": first_job, "severity": "warning"}, description)
    rest = [pt.provider_alert(model, rules, an.EXPORTER_MISSING,
                              {"cluster": cluster, "job": e.job, "severity": "warning"},
                              _exporter_missing_text(cluster, "2", e.job)) for _, e, _ in found[1:]]
    cases = [pt.case(model, hold - 1, an.EXPORTER_MISSING),
             pt.case(model, hold, an.EXPORTER_MISSING, rest),
             pt.case(model, fire_stopped - 1, an.EXPORTER_MISSING, rest),
             pt.case(model, fire_stopped, an.EXPORTER_MISSING, sorted([first, *rest], key=pt.order))]
    return [pt.test_group(model, "GPU nodes without an exporter target", inputs, cases)]


def input_missing_tests(model: Model) -> list[dict]:
    """Each input the spoke reports missing fires with its cause and fix: the spoke tier at the first evaluation
    of its push, the others after their hold; a cluster that reports nothing stays quiet."""
    cluster, start = model.clusters[0], 2
    hold = pt.steps(model, input_missing_for(model, inputs.INIT_CONTAINERS))
    total = start + hold + 2
    rows = [(inputs.INIT_CONTAINERS, {}, 1, "critical"), (inputs.GPU_POWER, {"node": "mi300x-vf-1"}, 8, "warning")]
    tier: list[tuple[str, dict[str, str], int, str]]  # as rows
    tier = [(inputs.SPOKE_TIER, {}, 1, "critical")] if model.billing.tier else []
    series = [pt.series(names.INPUT_MISSING, {"cluster": cluster, "input": what, **extra},
                        [None] * start + [value] * (total - start)) for what, extra, value, _ in rows + tier]
    series.append(pt.series(names.BILLED_HOUR, {"cluster": "gpudash-complete"}, [0] * total))

    def fired(which):
        return sorted((pt.provider_alert(model, input_missing(model), an.INPUT_MISSING,
                                         {"cluster": cluster, "input": what, **extra, "severity": sev},
                                         _input_text(what, cluster, extra.get("node", ""), str(value)))
                       for what, extra, value, sev in which), key=pt.order)

    return [pt.test_group(model, "a series the spoke rules need is missing on a cluster", series, [
        pt.case(model, start - 1, an.INPUT_MISSING),
        pt.case(model, start, an.INPUT_MISSING, fired(tier)),
        pt.case(model, start + hold - 1, an.INPUT_MISSING, fired(tier)),
        pt.case(model, start + hold, an.INPUT_MISSING, fired(rows + tier))])]


def no_product_tests(model: Model) -> list[dict]:
    """A node whose pods' pushed allocation has no product fires after the hold; a labelled node never does."""
    cluster, t = model.clusters[0], model.tenants[0]
    hold = pt.steps(model, no_product_for(model))
    start = 2
    total = start + hold + 2
    pod = {"cluster": cluster, "namespace": t.namespace, "resource": ksm.sample_resource(), "workload": "train",
           "workload_type": "Job"}
    inputs = [
        pt.series(names.POD_ALLOCATED, {**pod, "pod": "train-0", "node": "bare-node", "product": ""},
                  [None] * start + [2] * (total - start)),
        pt.series(names.POD_ALLOCATED, {**pod, "pod": "train-1", "node": "bare-node", "product": ""},
                  [None] * start + [1] * (total - start)),
        pt.series(names.POD_ALLOCATED, {**pod, "pod": "train-2", "node": "gpu-node-1",
                                        "product": vendors.sample().sample_products[0]}, [4] * total),
    ]
    fired = pt.provider_alert(model, (no_product(model),), an.NO_PRODUCT_LABEL,
                              {"cluster": cluster, "node": "bare-node", "severity": "warning"},
                              _no_product_text(cluster, "bare-node", "3"))
    return [pt.test_group(model, "GPU allocations on a node without a product label", inputs, [
        pt.case(model, start + hold - 1, an.NO_PRODUCT_LABEL),
        pt.case(model, start + hold, an.NO_PRODUCT_LABEL, [fired])])]

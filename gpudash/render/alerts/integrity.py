"""Billing-data integrity (provider alerts): is every cluster pushing, is allocation measured, is every GPU-hour
priced, are the billing rules evaluating in time?

What the hub has to work with: gpudash's spoke series (``cluster:gpudash_billed_hour:start_timestamp`` is pushed
by every cluster at every push, GPUs or not, so it is the per-cluster heartbeat), and from ACM's default
allowlist ``up``, ``kube_node_status_capacity`` and ``kube_pod_container_resource_requests`` (pods waiting for
a node have ``node=""``; no phase is needed, so gpudash adds no kube-state-metrics series to the allowlist).
"""
from __future__ import annotations

import dataclasses

from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model.sources import gpu_exporters as gx
from gpudash.model.sources import kube_state_metrics as ksm
from gpudash.model.types import Exporter, Model
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt
from gpudash.render.rules import inputs

NVIDIA_RESOURCES = "nvidia_com_gpu|nvidia_com_gpu_shared|nvidia_com_mig_.+"
AMD_RESOURCES = "amd_com_gpu"


def _ksm(model: Model) -> tuple[str, str, str]:
    return ksm.job(model.sources)


def exporters(model: Model) -> tuple[tuple[str, Exporter, str], ...]:
    """(vendor, exporter, kube-state-metrics resource regex) of the GPU exporters the model's classes need."""
    vendors = {g.vendor for g in model.gpu_classes}
    src = model.sources
    out = []
    if "nvidia" in vendors:
        out.append(("NVIDIA", src.dcgm, NVIDIA_RESOURCES))
    if "amd" in vendors:
        out.append(("AMD", src.amd, AMD_RESOURCES))
    return tuple(out)


def self_metric(metric: str) -> str:
    """A rule-manager self-metric of gpudash's rule groups."""
    return q.selector(metric, ("rule_group", "=~", an.GPUDASH_RULE_GROUP_REGEX))


def allowlist_matches() -> tuple[str, ...]:
    """MCO allowlist ``matches`` that push the rule-health self-metrics of gpudash's groups to the hub's Thanos
    (none is in ACM's default allowlist)."""
    return tuple(f'__name__="{m}",rule_group=~"{an.GPUDASH_RULE_GROUP_REGEX}"' for m in an.RULE_SELF_METRICS)


def not_reporting_for(model):
    return c.pushes(model, 3)


def gap_for(model):
    return c.pushes(model, 3)


def ksm_down_for(model):
    return c.pushes(model, 2)


def exporter_missing_for(model):
    return c.pushes(model, 3)


def no_product_for(model):
    return c.pushes(model, 3)


def unscheduled_for(model):
    return max(1800, c.pushes(model, 3))


def input_missing_for(model, what: str):
    """The spoke tier's absence fires at the first evaluation of the push that reports it (a cluster the Placement
    missed is told within one push interval); a missing exporter or kube-state-metrics series after two pushes."""
    return 0 if what == inputs.SPOKE_TIER else c.pushes(model, 2)


def rule_failures_for(model):
    return c.pushes(model, 3)


def rule_slow_for(model):
    return c.pushes(model, 3)


# --- descriptions (shared by the rules, with template snippets, and by the tests, with values) -------------------

def _not_reporting_text(cluster):
    return (f"No gpudash data has arrived from cluster {cluster} for the last pushes: its metrics-collector "
            "stopped pushing or the gpudash allowlist is missing there. GPU time on it is not billed until pushes "
            "resume; an hour is lost when no push arrives during the hour after it.")


def _gap_text(cluster, share, backfill: int = 0):
    if backfill:
        return (f"The billed figures of the hour the hub settled last ({backfill + 1} hours ago) of cluster "
                f"{cluster} cover {share} of its spoke steps: GPU time in the rest of the hour is not billed. Either "
                f"no push carried the hour (every push lost for more than {backfill} hours), an hourly gpudash rule "
                "failed in every push that carried it, or the spoke Prometheus had no data for part of the hour "
                "(restarted with an empty TSDB, or kube-state-metrics down).")
    return (f"The billed figures of the last complete hour of cluster {cluster} cover {share} of its spoke steps: "
            "GPU time in the rest of the hour is not billed. Either an hourly gpudash rule failed in every push "
            "of the hour (the collector pushes the rules that succeed), or the spoke Prometheus had no data for "
            "part of the hour (restarted with an empty TSDB, or kube-state-metrics down).")


def _ksm_text(cluster, job):
    return (f"kube-state-metrics (job {job}) on cluster {cluster} is down or not scraped. GPU allocation is "
            "measured from it: GPU time on the cluster is not billed while it is down.")


def _exporter_missing_text(cluster, count, job):
    return (f"Cluster {cluster} has {count} GPU nodes but no {job} scrape target: GPU activity, "
            "idle detection and GPU health are blind there (billing, from allocation, is not affected).")


def _unpriced_text(currency, cluster, namespace, hours, resource, product):
    return (f"In the last hour namespace {namespace} on cluster {cluster} used {hours} GPU-hours of {resource} on "
            f"product \"{product}\", which the model has no price for: they are billed at nothing until the model "
            f"prices them (gpu_classes products, MIG or time-slicing prices, in {currency}).")


def _energy_text(cluster, share):
    return (f"In the last hour {share} of the GPU energy of cluster {cluster} went to GPUs no pod held: idle "
            "capacity drawing power that no tenant pays for (the provider's unallocated energy line).")


def _input_text(what, cluster, node="", gpus=""):
    where = f"node {node} of cluster {cluster}: {gpus} " if what == inputs.GPU_POWER else f"cluster {cluster}: "
    return f"On {where}{inputs.CAUSE[what]}. Fix: {inputs.FIX[what]}."


def _no_product_text(cluster, node, gpus):
    return (f"Node {node} on cluster {cluster} holds {gpus} GPUs allocated to Running pods but shows no GPU product "
            "label: their GPU-hours are unpriced. kube-state-metrics exports node labels only with "
            "--metric-labels-allowlist=nodes=[...] (OpenShift sets nodes=[*]), and GPU Feature Discovery or the AMD "
            "node labeller must run on the node.")


def _unscheduled_text(namespace, pod, cluster, gpus, resource, wait):
    return (f"Pod {pod} in namespace {namespace} on cluster {cluster} has requested {gpus} {resource} without being "
            f"bound to a node for more than {wait}: GPU capacity, quota or fragmentation is turning demand away "
            "(it is not billed while it waits).")


def _rule_failures_text(group, window, hold):
    return (f"Rule group {group} has had failed evaluations in every {window} window for {hold}: its billing "
            "series or alerts are missing or stale. The Ruler's (or Prometheus') log names the failing rules.")


def _rule_slow_text(group, seconds):
    return (f"The last evaluation of rule group {group} took {seconds} seconds, longer than the group's "
            "evaluation interval: evaluations are skipped and billing series get gaps.")


# --- alerts -------------------------------------------------------------------------------------------------------

def _not_reporting(model: Model):
    """One rule for the model's clusters: ``absent_over_time`` per cluster (each names its cluster), off when the
    heartbeat carries no cluster label (a single cluster, where ``cluster`` is only an external label)."""
    heartbeat = names.BILLED_HOUR
    single = c.fresh(model, q.selector(heartbeat, ("cluster", "=", "")))
    fresh = read.fresh_range(c.push(model))
    absent = " or ".join(f"absent_over_time({q.selector(heartbeat, ('cluster', '=', cluster))}[{fresh}])"
                         for cluster in model.clusters)
    return c.provider_alert(
        model, an.CLUSTER_NOT_REPORTING, f"({absent}) unless on () {single}", not_reporting_for(model), "critical",
        summary="A cluster of the model sends no gpudash data to the hub.",
        description=_not_reporting_text(c.label("cluster")),
        help=f"A cluster of the model's clusters list pushed no {heartbeat}"
             "\n(sent at every push, GPUs or not): nothing it runs is billed while it is silent.",
        threshold=f"no push from a `clusters` entry in {fresh}; "
                  f"for {q.duration(not_reporting_for(model))}")


def _gap(model: Model):
    return c.provider_alert(
        model, an.BILLING_DATA_GAP, f"{names.BILLING_COVERAGE} < 1", gap_for(model), "critical",
        summary="The last complete hour of a cluster is billed from incomplete data.",
        description=_gap_text(c.label("cluster"), c.VALUE_PERCENT, model.billing.backfill_hours),
        help="The hour before this one is under-billed on a cluster: an hourly spoke rule failed in every"
             "\npush of this hour (the hour is missing, never taken from another hour), or the spoke"
             "\nPrometheus had no data for part of it. Pushes carry the previous hour, so lost pushes alone"
             "\nlose nothing while one push of the hour arrives.",
        threshold=f"`{names.BILLING_COVERAGE}` < 1; for {q.duration(gap_for(model))}")


def _ksm_down(model: Model):
    """Every kube-state-metrics target down, or none at all on a cluster that pushes."""
    lb = c.label
    up_ksm = c.fresh(model, q.selector(an.UP, _ksm(model)))
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


def _exporter_missing(model: Model):
    """Per vendor the model prices: clusters with GPU capacity of its resources and no target of its exporter;
    None when the model prices no vendor with an exporter."""
    job = _ksm(model)
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


def _unpriced(model: Model):
    lb = c.label
    return c.provider_alert(
        model, an.UNPRICED, f"{c.fresh(model, names.UNPRICED_GPU_HOURS)} > 0", 0, "warning",
        summary="GPU-hours were used on a product or resource the model has no price for.",
        description=_unpriced_text(model.currency, lb("cluster"), lb("namespace"),
                                   c.VALUE_MONEY, lb("resource"), lb("product")),
        help="Unpriced GPU-hours are never silently free: they are reported until the model prices the"
             "\nproduct (a new GPU model, a node without a product label, an unknown MIG profile).",
        threshold="unpriced GPU-hours of the last hour > 0 (the hourly figure is its own debounce)")


def _energy_unallocated(model: Model):
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


_INPUT_HELP = {
    inputs.INIT_CONTAINERS: "kube-state-metrics' init-container series are not scraped (OpenShift's minimal collection"
                            "\nprofile): init containers' and native sidecars' GPU requests go unbilled.",
    inputs.SPOKE_TIER: "The spoke tier is not recording on a model cluster (the Placement missed it, or its group"
                       "\nfails): that cluster's hourly GPU-hours and energy are empty.",
    inputs.GPU_POWER: "GPUs report activity but their node reports no power or energy: their energy is unmetered"
                      "\nand the idle power veto cannot apply (a GPU at work may be alerted or pruned as idle).",
}


def _input_missing(model: Model):
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


def _no_product(model: Model):
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


def _unscheduled(model: Model):
    lb = c.label
    pending = c.fresh(model, q.selector(ksm.CONTAINER_REQUESTS, _ksm(model),
                                        ("resource", "=~", ksm.GPU_RESOURCE_REGEX), ("node", "=", "")))
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


def _rule_failures(model: Model):
    P2 = q.duration(c.pushes(model, 2))
    failures = q.agg("sum", ("cluster", "rule_group"),
                     f"increase({self_metric(an.RULE_EVALUATION_FAILURES)}[{P2}])")
    return c.provider_alert(
        model, an.RULE_FAILURES, f"{failures} > 0", rule_failures_for(model), "critical",
        summary="Evaluations of gpudash billing rules or alerts are failing.",
        description=_rule_failures_text(c.label("rule_group"), P2, q.duration(rule_failures_for(model))),
        help="A gpudash rule group (billing rules or alerts) fails to evaluate: billing series and alerts go"
             "\nmissing. Reads prometheus_rule_evaluation_failures_total of gpudash-* groups.",
        threshold=f"failures in {P2} windows; for {q.duration(rule_failures_for(model))}")


def _rule_slow(model: Model):
    def latest(metric):
        return q.agg("max", ("cluster", "rule_group"), c.fresh(model, self_metric(metric)))

    slow = f"{latest(an.RULE_GROUP_LAST_DURATION)} > on (cluster, rule_group) {latest(an.RULE_GROUP_INTERVAL)}"
    return c.provider_alert(
        model, an.RULE_GROUP_SLOW, slow, rule_slow_for(model), "warning",
        summary="A gpudash rule group takes longer to evaluate than its interval.",
        description=_rule_slow_text(c.label("rule_group"), c.VALUE_INT),
        help="A gpudash rule group's last evaluation took longer than its interval: evaluations are skipped,"
             "\nand the hourly billing series get gaps.",
        threshold=f"last duration > interval; for {q.duration(rule_slow_for(model))}")


# One function per alert, in the group's order; _exporter_missing is None when no vendor has an exporter,
# _energy_unallocated None without an energy section,
# _input_missing gives one rule per input.
_ALERTS = (_not_reporting, _gap, _ksm_down, _exporter_missing, _unpriced, _energy_unallocated, _input_missing,
           _no_product, _unscheduled, _rule_failures, _rule_slow)


def alerts(model: Model) -> tuple:
    built = (build(model) for build in _ALERTS)
    return tuple(rule for out in built for rule in (out if isinstance(out, tuple) else (out,)) if rule is not None)


def _dollar(text: str) -> str:
    """A label_replace replacement that is ``text`` literally."""
    return text.replace("$", "$$")


def group(model: Model):
    return c.group(an.GROUP_INTEGRITY, model, "Billing-data integrity: every cluster pushing, allocation measured,"
                   "\nevery GPU-hour priced, billing rules evaluating. Routed to the provider.", alerts(model))


# --- promtool tests ----------------------------------------------------------------------------------------------

def _fired(model: Model, name: str, labels: dict, description: str) -> dict:
    return pt.provider_alert(model, alerts(model), name, labels, description)


def _not_reporting_tests(model: Model) -> list[dict]:
    """The first cluster stops pushing; the others keep going. On a single cluster (no cluster label) the
    per-cluster checks stay quiet."""
    stop = 3
    absent_from = stop + 2  # no sample in [t - 1.5 P, t] from here on
    fire = absent_from + pt.steps(model, not_reporting_for(model))
    total = fire + 2
    first, *others = model.clusters
    hour = 0.0
    inputs = [pt.series(names.BILLED_HOUR, {"cluster": first}, [hour] * (stop + 1) + [None] * (total - stop - 1))]
    inputs += [pt.series(names.BILLED_HOUR, {"cluster": other}, [hour] * total) for other in others]
    fired = _fired(model, an.CLUSTER_NOT_REPORTING, {"cluster": first, "severity": "critical"},
                   _not_reporting_text(first))
    multi = pt.test_group(model, "a cluster of the model stops pushing", inputs, [
        pt.case(model, stop, an.CLUSTER_NOT_REPORTING),
        pt.case(model, fire - 1, an.CLUSTER_NOT_REPORTING),
        pt.case(model, fire, an.CLUSTER_NOT_REPORTING, [fired]),
    ])
    single = pt.test_group(model, "a single cluster: series without a cluster label", [
        pt.series(names.BILLED_HOUR, {}, [hour] * total)], [pt.case(model, fire, an.CLUSTER_NOT_REPORTING)])
    return [multi, single]


def _gap_tests(model: Model) -> list[dict]:
    """The coverage of the last hour drops to a half (fires after the hold) and to 0 (a rule that failed all
    hour); a complete hour stays quiet."""
    cluster = model.clusters[0]
    hold = pt.steps(model, gap_for(model))
    total = hold + 3
    inputs = [
        pt.series(names.BILLING_COVERAGE, {"cluster": cluster}, [0.5] * total),
        pt.series(names.BILLING_COVERAGE, {"cluster": "gpudash-lost"}, [1.0] * 2 + [0.0] * (total - 2)),
        pt.series(names.BILLING_COVERAGE, {"cluster": "gpudash-complete"}, [1.0] * total),
    ]
    half = _fired(model, an.BILLING_DATA_GAP, {"cluster": cluster, "severity": "critical"},
                  _gap_text(cluster, c.percent(0.5), model.billing.backfill_hours))
    lost = _fired(model, an.BILLING_DATA_GAP, {"cluster": "gpudash-lost", "severity": "critical"},
                  _gap_text("gpudash-lost", c.percent(0), model.billing.backfill_hours))
    return [pt.test_group(model, "the last hour is billed from part of its steps, or not at all", inputs, [
        pt.case(model, hold - 1, an.BILLING_DATA_GAP),
        pt.case(model, hold, an.BILLING_DATA_GAP, [half]),
        pt.case(model, hold + 2, an.BILLING_DATA_GAP, sorted([half, lost], key=_order)),
    ])]


def _ksm_tests(model: Model) -> list[dict]:
    cluster = model.clusters[0]
    job = model.sources.kube_state_metrics_job
    hold = pt.steps(model, ksm_down_for(model))
    down = 3
    total = down + hold + 2
    labels = {"cluster": cluster, "job": job, "severity": "critical"}
    fired = _fired(model, an.KSM_DOWN, labels, _ksm_text(cluster, job))
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


def _exporter_missing_tests(model: Model) -> list[dict]:
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
        resource = "nvidia_com_gpu" if vendor == "NVIDIA" else "amd_com_gpu"
        for n in range(2):
            node = f"{vendor.lower()}-node-{n}"
            inputs.append(pt.series(ksm.NODE_CAPACITY, {"cluster": cluster, "job": ksm_job, "node": node,
                                                         "resource": resource, "unit": "integer"}, [8] * total))
        if i == 0:  # this exporter stops; the others never had a target
            inputs.append(pt.series(an.UP, {"cluster": cluster, "job": job, "instance": "10.0.0.2:9400"},
                                    [1] * (stop + 1) + [None] * (total - stop - 1)))
    # a node with capacity 0 (the device plugin is not running yet) does not count
    inputs.append(pt.series(ksm.NODE_CAPACITY, {"cluster": cluster, "job": ksm_job, "node": "cpu-node",
                                                 "resource": "nvidia_com_gpu", "unit": "integer"}, [0] * total))
    description = _exporter_missing_text(cluster, "2", first_job)
    first = _fired(model, an.EXPORTER_MISSING, {"cluster": cluster, "job": first_job, "severity": "warning"},
                   description)
    rest = [_fired(model, an.EXPORTER_MISSING, {"cluster": cluster, "job": e.job, "severity": "warning"},
                   _exporter_missing_text(cluster, "2", e.job)) for _, e, _ in found[1:]]
    cases = [pt.case(model, hold - 1, an.EXPORTER_MISSING),
             pt.case(model, hold, an.EXPORTER_MISSING, rest),
             pt.case(model, fire_stopped - 1, an.EXPORTER_MISSING, rest),
             pt.case(model, fire_stopped, an.EXPORTER_MISSING, sorted([first, *rest], key=_order))]
    return [pt.test_group(model, "GPU nodes without an exporter target", inputs, cases)]


def _order(expected: dict) -> tuple:
    return tuple(sorted(expected["exp_labels"].items()))


def _unpriced_tests(model: Model) -> list[dict]:
    cluster, t = model.clusters[0], model.tenants[0]
    start = 3
    hours = 2.5
    labels = {"cluster": cluster, "namespace": t.namespace, "product": "NVIDIA-B200", "resource": "nvidia.com/gpu"}
    inputs = [pt.series(names.UNPRICED_GPU_HOURS, labels, [0.0] * start + [hours] * 3)]
    fired = _fired(model, an.UNPRICED, {**labels, "severity": "warning"},
                   _unpriced_text(model.currency, cluster, t.namespace, f"{hours:.2f}", "nvidia.com/gpu",
                                  "NVIDIA-B200"))
    return [pt.test_group(model, "unpriced GPU-hours", inputs, [
        pt.case(model, start - 1, an.UNPRICED), pt.case(model, start, an.UNPRICED, [fired])])]


def _energy_tests(model: Model) -> list[dict]:
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
    fired = _fired(model, an.ENERGY_UNALLOCATED, {"cluster": idle, "severity": "warning"},
                   _energy_text(idle, c.percent(free / (free + used))))
    return [pt.test_group(model, "idle GPUs burn a share of a cluster's energy", inputs, [
        pt.case(model, start - 1, an.ENERGY_UNALLOCATED), pt.case(model, start, an.ENERGY_UNALLOCATED, [fired])])]


def _input_missing_tests(model: Model) -> list[dict]:
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
        return sorted((_fired(model, an.INPUT_MISSING, {"cluster": cluster, "input": what, **extra, "severity": sev},
                              _input_text(what, cluster, extra.get("node", ""), str(value)))
                       for what, extra, value, sev in which), key=_order)

    return [pt.test_group(model, "a series the spoke rules need is missing on a cluster", series, [
        pt.case(model, start - 1, an.INPUT_MISSING),
        pt.case(model, start, an.INPUT_MISSING, fired(tier)),
        pt.case(model, start + hold - 1, an.INPUT_MISSING, fired(tier)),
        pt.case(model, start + hold, an.INPUT_MISSING, fired(rows + tier))])]


def _no_product_tests(model: Model) -> list[dict]:
    """A node whose pods' pushed allocation has no product fires after the hold; a labelled node never does."""
    cluster, t = model.clusters[0], model.tenants[0]
    hold = pt.steps(model, no_product_for(model))
    start = 2
    total = start + hold + 2
    pod = {"cluster": cluster, "namespace": t.namespace, "resource": "nvidia_com_gpu", "workload": "train",
           "workload_type": "Job"}
    inputs = [
        pt.series(names.POD_ALLOCATED, {**pod, "pod": "train-0", "node": "bare-node", "product": ""},
                  [None] * start + [2] * (total - start)),
        pt.series(names.POD_ALLOCATED, {**pod, "pod": "train-1", "node": "bare-node", "product": ""},
                  [None] * start + [1] * (total - start)),
        pt.series(names.POD_ALLOCATED, {**pod, "pod": "train-2", "node": "gpu-node-1",
                                        "product": "NVIDIA-A100-SXM4-80GB"}, [4] * total),
    ]
    fired = _fired(model, an.NO_PRODUCT_LABEL, {"cluster": cluster, "node": "bare-node", "severity": "warning"},
                   _no_product_text(cluster, "bare-node", "3"))
    return [pt.test_group(model, "GPU allocations on a node without a product label", inputs, [
        pt.case(model, start + hold - 1, an.NO_PRODUCT_LABEL),
        pt.case(model, start + hold, an.NO_PRODUCT_LABEL, [fired])])]


def _unscheduled_tests(model: Model) -> list[dict]:
    cluster, t = model.clusters[0], model.tenants[0]
    job = model.sources.kube_state_metrics_job
    hold = pt.steps(model, unscheduled_for(model))
    total = hold + 2
    base = {"cluster": cluster, "namespace": t.namespace, "job": job, "resource": "nvidia_com_gpu", "unit": "integer"}
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
    labels = {"cluster": cluster, "namespace": t.namespace, "pod": "train-0", "resource": "nvidia_com_gpu",
              "severity": "warning"}
    fired = _fired(model, an.UNSCHEDULED, labels,
                   _unscheduled_text(t.namespace, "train-0", cluster, "3", "nvidia_com_gpu", wait))
    return [pt.test_group(model, "GPU requests without a node", inputs, [
        pt.case(model, hold - 1, an.UNSCHEDULED), pt.case(model, hold, an.UNSCHEDULED, [fired])])]


def _rule_tests(model: Model) -> list[dict]:
    start = 4
    hold_fail = pt.steps(model, rule_failures_for(model))
    hold_slow = pt.steps(model, rule_slow_for(model))
    total = start + max(hold_fail, hold_slow) + 4
    P = c.push(model)
    billing = "/etc/thanos/rules/thanos-ruler-custom-rules/custom_rules.yaml;gpudash-hub-billing"
    alerts_group = "/etc/thanos/rules/thanos-ruler-custom-rules/custom_rules.yaml;gpudash-alerts-tenant"
    ccsp = billing.replace("billing", "ccsp")
    other = "/etc/thanos/rules/thanos-ruler-default-rules/default_rules.yaml;kubernetes-apps"
    counting = [0.0] * (start + 1) + [float(k) for k in range(1, total - start)]
    failures = [
        pt.series(an.RULE_EVALUATION_FAILURES, {"rule_group": billing, "job": "thanos-ruler"}, counting),
        pt.series(an.RULE_EVALUATION_FAILURES,
                  {"rule_group": alerts_group, "job": "observability-thanos-rule"}, counting),
        pt.series(an.RULE_EVALUATION_FAILURES, {"rule_group": other, "job": "thanos-ruler"},
                  [float(k) for k in range(total)]),
        pt.series(an.RULE_EVALUATION_FAILURES, {"rule_group": ccsp, "job": "thanos-ruler"}, [0.0] * total),
    ]
    first_failing = start + 1
    window, hold = q.duration(c.pushes(model, 2)), q.duration(rule_failures_for(model))
    expected = sorted([_fired(model, an.RULE_FAILURES, {"rule_group": g, "severity": "critical"},
                              _rule_failures_text(g, window, hold)) for g in (billing, alerts_group)], key=_order)
    fail_group = pt.test_group(model, "gpudash rule groups fail to evaluate", failures, [
        pt.case(model, start, an.RULE_FAILURES),
        pt.case(model, first_failing + hold_fail - 1, an.RULE_FAILURES),
        pt.case(model, first_failing + hold_fail, an.RULE_FAILURES, expected),
    ])
    slow_seconds = 2 * P
    durations = [
        pt.series(an.RULE_GROUP_LAST_DURATION, {"rule_group": billing},
                  [3.5] * start + [slow_seconds] * (total - start)),
        pt.series(an.RULE_GROUP_INTERVAL, {"rule_group": billing}, [P] * total),
        pt.series(an.RULE_GROUP_LAST_DURATION, {"rule_group": other}, [slow_seconds] * total),
        pt.series(an.RULE_GROUP_INTERVAL, {"rule_group": other}, [P] * total),
    ]
    slow = _fired(model, an.RULE_GROUP_SLOW, {"rule_group": billing, "severity": "warning"},
                  _rule_slow_text(billing, f"{slow_seconds:.0f}"))
    slow_group = pt.test_group(model, "a gpudash rule group slower than its interval", durations, [
        pt.case(model, start + hold_slow - 1, an.RULE_GROUP_SLOW),
        pt.case(model, start + hold_slow, an.RULE_GROUP_SLOW, [slow]),
    ])
    return [fail_group, slow_group]


def tests(model: Model) -> dict:
    groups = [*_not_reporting_tests(model), *_gap_tests(model), *_ksm_tests(model), *_exporter_missing_tests(model),
              *_unpriced_tests(model), *_energy_tests(model), *_input_missing_tests(model), *_no_product_tests(model),
              *_unscheduled_tests(model),
              *_rule_tests(model)]
    return pt.test_file(model, groups, "Billing-data integrity alerts, fed pushed and recorded series directly.")

"""Checks that a live spoke or hub is ready to bill: what the rules read is there, labelled and priced as the
model assumes, and the rules run. Each check reads the Prometheus HTTP API through
:class:`gpudash.ops.report.client.Prometheus` and gives one :class:`Check` (ok / warn / fail, what was found, the fix).
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from gpudash.base import kube
from gpudash.base.terminal import printable
from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.pricing import skus
from gpudash.model.types import Model
from gpudash.model.vendors.vendor import Vendor
from gpudash.ops.report.client import Prometheus, PrometheusError, nonnegative
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.render import alerts
from gpudash.render.rules import hub, inputs, spoke, spoke_tier

OK, WARN, FAIL = "ok", "warn", "fail"
ROLES = ("spoke", "hub", "single")  # single: one Prometheus running the spoke and the hub rules (no ACM)
SLOW_RULE = 5.0  # seconds: a spoke rule slower than this delays the metrics-collector's push
# Raw series the spoke rules read (gpudash/render/rules/), each pinned to kube-state-metrics' job.
KSM_SERIES = (ksm.CONTAINER_REQUESTS, ksm.POD_PHASE, ksm.NODE_LABELS, ksm.NODE_ALLOCATABLE, ksm.POD_OWNER)
# OpenShift's platform Prometheus: the cluster-monitoring-operator's Prometheus CR "k8s" in openshift-monitoring
# (openshift/cluster-monitoring-operator assets/prometheus-k8s/prometheus.yaml); prometheus-operator names its
# StatefulSet prometheus-<name>. Its TSDB volume is an emptyDir unless the CR has a volumeClaimTemplate
# (cluster-monitoring-config prometheusK8s.volumeClaimTemplate), and then it is named after the template:
# metadata.name, else prometheus-<name>-db (prometheus-operator pkg/prometheus/common.go VolumeClaimName, mounted at
# /prometheus by pkg/prometheus/server/statefulset.go). The StatefulSet controller names the claim of a pod
# <template>-<pod> (kubernetes/kubernetes pkg/controller/statefulset/stateful_set_utils.go
# getPersistentVolumeClaimName): the pod volume whose claim is so named is the data volume, whatever its name.
PLATFORM_NAMESPACE = kube.PLATFORM_NAMESPACE
PLATFORM_PODS = f"{kube.PLATFORM_PROMETHEUS}-[0-9]+"
INTERVAL_TOLERANCE = 0.2  # a median push spacing this far (relative) from billing.mco_interval fails


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    found: str
    fix: str = ""

    def line(self) -> str:
        # label values and server messages in name and found: no control character reaches a terminal
        return f"{self.status:<4}  {printable(self.name)}: {printable(self.found)}" + \
            (f"; fix: {self.fix}" if self.fix else "")


def _count(prom: Prometheus, expr: str, now: float) -> int:
    rows = prom.query(f"count({expr})", now)
    return int(nonnegative(prom, *rows[0])) if rows else 0


def _values(prom: Prometheus, expr: str, label: str, now: float) -> set[str]:
    return {labels.get(label, "") for labels, _ in prom.query(f"group by ({label}) ({expr})", now)}


def raw_series(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """Every kube-state-metrics series the rules read is fresh (within the lookback) under the model's job."""
    job = ksm.job(model.sources)
    missing = [m for m in KSM_SERIES if _count(prom, q.selector(m, job), now) == 0]
    name = f"raw series of job {model.sources.kube_state_metrics_job!r}"
    if not missing:
        return [Check(name, OK, f"{len(KSM_SERIES)} kube-state-metrics series fresh")]
    other = sorted(_values(prom, q.selector(missing[0]), "job", now) - {""})
    seen = f" (found under job {', '.join(other)})" if other else ""
    return [Check(name, FAIL, f"no fresh {', '.join(missing)}{seen}",
                  "set sources.kube_state_metrics_job to kube-state-metrics' job, or scrape it with that job")]


def _product_labels(model: Model) -> tuple[str, ...]:
    """The kube_node_labels label of each registered vendor's product (sources.<vendor>_product_label)."""
    return tuple(v.product_label(model.sources) for v in vendors.VENDORS.values())


def product_labels(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """Every node offering GPUs carries a product label in ``kube_node_labels``."""
    job = ksm.job(model.sources)
    offered = q.selector(ksm.NODE_ALLOCATABLE, job, ("resource", "=~", ksm.gpu_resource_regex()))
    gpu_nodes = q.agg("max", ("node",), f"{offered} > 0")
    labels = _product_labels(model)
    labelled = " or ".join(f"max by (node) ({q.selector(ksm.NODE_LABELS, job, (label, '!=', ''))})"
                           for label in labels)
    bare = sorted(_values(prom, f"{gpu_nodes} unless on (node) ({labelled})", "node", now))
    name = "node product labels"
    if not bare:
        return [Check(name, OK, f"{_count(prom, gpu_nodes, now)} GPU node(s) labelled")]
    return [Check(name, FAIL, f"GPU node(s) without {' or '.join(labels)} in "
                  f"{ksm.NODE_LABELS}: {', '.join(bare)}",
                  "export the node labels: kube-state-metrics --metric-labels-allowlist (see wiring/), and run "
                  + vendors.labellers(" / "))]


def pricing(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """Every GPU product and resource seen on nodes is priced by the model."""
    job = ksm.job(model.sources)
    priced = skus(model)
    seen = set()
    for label in _product_labels(model):
        seen |= _values(prom, q.selector(ksm.NODE_LABELS, job, (label, "!=", "")), label, now)
    resources = _values(prom, q.selector(ksm.NODE_ALLOCATABLE, job, ("resource", "=~", ksm.gpu_resource_regex())),
                        "resource", now)
    products = sorted(p for p in seen if p not in {s.product for s in priced})
    unpriced = sorted(r for r in resources if r not in {s.ksm_resource for s in priced})
    name = "GPUs on nodes priced"
    if products or unpriced:
        found = "; ".join(text for text in (products and f"no GPU class lists {', '.join(products)}",
                                            unpriced and f"no price for {', '.join(unpriced)}") if text)
        return [Check(name, FAIL, found, "list the product in a class's products and price the resource (a class's "
                      "mig or time_slicing) in gpudash.yaml")]
    return [Check(name, OK, f"{len(seen)} product(s) and {len(resources)} GPU resource(s) on nodes, all priced")]


def _unscraped(prom: Prometheus, model: Model, vendor: Vendor, now: float) -> Check:
    """No target of the exporter is up: fine on a cluster without the vendor's GPUs; where its GPU nodes are, its
    utilisation, idle alerts, the pruner and energy are blank."""
    exporter, name = gx.exporter(model.sources, vendor), f"{vendor.source} exporter scraped"
    offered = q.selector(ksm.NODE_ALLOCATABLE, ksm.job(model.sources), ("resource", "=~", vendor.ksm_node_resources))
    nodes = sorted(_values(prom, f"{offered} > 0", "node", now))
    if not nodes:
        return Check(name, OK, f"no {vendor.source} exporter scraped (job=~{exporter.job!r}) and no node offers "
                     f"{vendor.resource}")
    return Check(name, FAIL, f"{len(nodes)} node(s) offer {vendor.resource} ({', '.join(nodes[:3])}"
                 f"{', ...' if len(nodes) > 3 else ''}) but no {vendor.source} exporter target is up "
                 f"(job=~{exporter.job!r}): their utilisation, idle alerts, pruning and energy are blank",
                 f"scrape the exporter (its GPU Operator's ServiceMonitor, or sources.self_managed and wiring/), or "
                 f"set sources.{vendor.source}.job to the job it is scraped under")


def _exporter(prom: Prometheus, model: Model, vendor: Vendor, now: float) -> Check:
    """The exporter is scraped where its vendor's GPUs are, and its pod attribution label is the one the model
    reads (exported_* with honorLabels unset)."""
    what, exporter = vendor.source, gx.exporter(model.sources, vendor)
    job = gx.job(exporter)
    name = f"{what} exporter labels"
    if _count(prom, f"{q.selector('up', job)} == 1", now) == 0:
        return _unscraped(prom, model, vendor, now)
    exported = _count(prom, f"{{{q.matchers(job, ('exported_namespace', '!=', ''))}}}", now)
    # A workload's pod: one no target of the job is. Without honorLabels every series carries its exporter pod's
    # target labels, an idle GPU's too (gpudash/simulation/series.py scraped, after prometheus/prometheus
    # scrape/scrape.go mutateSampleLabels), so a pod label alone says nothing.
    workload = _count(prom, f"{{{q.matchers(job, ('pod', '!=', ''))}}} unless on(namespace, pod) "
                      f"{q.selector('up', job)}", now)
    want = exporter.tenant_label
    if not exported and not workload:
        return Check(name, OK, f"no GPU is held by a pod: where the exporter writes pod attribution shows once one "
                     f"is (the model reads {want})")
    if want == "namespace" and exported:
        return Check(name, FAIL, f"{exported} series carry exported_namespace: scraped with honorLabels unset, "
                     "the model reads namespace", f"set sources.{what}.tenant_label: exported_namespace, or "
                     "honorLabels: true on its ServiceMonitor")
    if want == "exported_namespace" and not exported:
        return Check(name, FAIL, "series carry the workload's pod labels as namespace/pod (honorLabels: true), "
                     "the model reads exported_namespace", f"set sources.{what}.tenant_label: namespace, or unset "
                     "honorLabels on its ServiceMonitor")
    return Check(name, OK, f"pod attribution in {want} as the model says")


def _scraped_twice(prom: Prometheus, model: Model, vendor: Vendor, now: float) -> list[Check]:
    """A target of the exporter scraped by a second job too (its series under two jobs from one instance): with
    sources.self_managed, the namespace label that lets the platform Prometheus select wiring's ServiceMonitor also
    lets it select the exporter chart's own (dcgm-exporter's serviceMonitor.enabled is on by default:
    NVIDIA/dcgm-exporter deployment/values.yaml). The rules take each GPU's series once (max per GPU and pod), so
    figures stay right; every sample is stored twice."""
    served = q.selector(vendor.metric(model.sources, vendor.attribution))  # a series every GPU of it has
    twice = sorted(_values(prom, f"count by (instance) (count by (instance, job) ({served})) > 1", "instance", now))
    if not twice:
        return []
    return [Check(f"{vendor.source} exporter scraped once", WARN, f"{len(twice)} target(s) scraped by more than one "
                  f"job (first {twice[0]}): figures stay right, every sample is stored twice",
                  "keep one scrape: turn the exporter chart's own ServiceMonitor off (Helm value "
                  "serviceMonitor.enabled: false), or drop sources.self_managed and set the exporter's job and "
                  "tenant_label to the chart's scrape")]


def exporters(prom: Prometheus, model: Model, now: float) -> list[Check]:
    return [check for v in vendors.VENDORS.values()
            for check in (_exporter(prom, model, v, now), *_scraped_twice(prom, model, v, now))]


def spoke_rules(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """Each spoke rule evaluates here (what the metrics-collector runs at every push), and how long it takes."""
    times, failed = [], []
    for rule in spoke.rules(model):
        start = time.monotonic()
        try:
            prom.query(rule.expr, now, figures=False)  # evaluating is the check; NaN may be a valid result
        except PrometheusError as err:
            failed.append(f"{rule.record}: {err}")
        times.append((time.monotonic() - start, rule.record))
    slowest, record = max(times)
    if failed:
        return [Check("spoke rules evaluate", FAIL, failed[0], "see the error; check the Prometheus version")]
    status = WARN if slowest > SLOW_RULE else OK
    return [Check("spoke rules evaluate", status, f"{len(times)} rules, slowest {slowest:.2f}s ({record})",
                  "give Prometheus more CPU or a shorter billing.resolution" if status == WARN else "")]


def _claims(prom: Prometheus, model: Model, pods: tuple, now: float) -> tuple[dict[str, str], str]:
    """{pod: its data volume} of the platform Prometheus pods whose volume is a StatefulSet claim (``<volume>-<pod>``),
    and where that was read: the pods' volumes (kube_pod_spec_volumes_persistentvolumeclaims_info); where no pod's
    volumes are scraped at all (the minimal collection profile drops them), the claims that exist
    (kube_persistentvolumeclaim_info, which it keeps), named ``<volume>-<pod>``."""
    job = ksm.job(model.sources)
    if _count(prom, q.selector(ksm.POD_PVC, job), now):
        rows = prom.query(q.selector(ksm.POD_PVC, job, *pods), now)
        return ({r["pod"]: r["volume"] for r, _ in rows
                 if r.get("persistentvolumeclaim") == f"{r.get('volume')}-{r.get('pod')}"}, ksm.POD_PVC)
    claims = prom.query(q.selector(ksm.PVC_INFO, job, ("namespace", "=", PLATFORM_NAMESPACE),
                                   ("persistentvolumeclaim", "=~", f".+-{PLATFORM_PODS}")), now)
    found = {}
    for labels, _ in claims:
        volume, _, pod = labels["persistentvolumeclaim"].rpartition(f"-{kube.PLATFORM_PROMETHEUS}-")
        found[f"{kube.PLATFORM_PROMETHEUS}-{pod}"] = volume
    return found, ksm.PVC_INFO


def storage(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """The platform Prometheus keeps its TSDB on a PersistentVolumeClaim: with an emptyDir a rescheduled pod
    starts empty and the hour it was in cannot be billed from it. Prometheus' own API cannot tell (its
    ``storage.tsdb.path`` is /prometheus either way), so this reads kube-state-metrics' view of the pods: the volume
    whose claim the StatefulSet made for the pod, whatever the volumeClaimTemplate named it."""
    job, name = ksm.job(model.sources), "Prometheus storage"
    pods = (("namespace", "=", PLATFORM_NAMESPACE), ("pod", "=~", PLATFORM_PODS))
    seen = sorted(_values(prom, q.selector(ksm.POD_INFO, job, *pods), "pod", now))
    if not seen:
        return [Check(name, WARN, f"cannot tell: no {PLATFORM_NAMESPACE}/{kube.PLATFORM_PROMETHEUS} pods in "
                      f"{ksm.POD_INFO}", "make sure Prometheus' data directory is a PersistentVolumeClaim, not an "
                      "emptyDir")]
    claimed, source = _claims(prom, model, pods, now)
    bare = [p for p in seen if p not in claimed]
    if bare:
        return [Check(name, FAIL, f"the data volume is not a PersistentVolumeClaim (emptyDir) on {', '.join(bare)} "
                      f"(no claim of a volumeClaimTemplate in {source})", "set prometheusK8s.volumeClaimTemplate in "
                      "the openshift-monitoring cluster-monitoring-config ConfigMap")]
    volumes = ", ".join(sorted(set(claimed[p] for p in seen)))
    return [Check(name, OK, f"data volume {volumes} on a PersistentVolumeClaim ({len(seen)} pod(s), from {source})")]


def billing_inputs(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """Every raw input the spoke rules need is here: what the pushed missing-input series would report
    (gpudash.render.rules.inputs), evaluated now; the spoke tier has a check of its own (:func:`tier`)."""
    name = "billing inputs"
    rows = [(labels, v) for labels, v in prom.query(inputs.expr(model), now)
            if labels.get("input") != inputs.SPOKE_TIER]
    if not rows:
        return [Check(name, OK, "kube-state-metrics' container series and the GPUs' power or energy are scraped")]
    out = []
    for labels, value in sorted(rows, key=lambda r: sorted(r[0].items())):
        what = labels.get("input", "")  # any answer: a row of another shape is named, never a KeyError
        where = f"node {labels.get('node')}: {value:.0f} " if what == inputs.GPU_POWER else ""
        out.append(Check(name, FAIL, f"{where}{inputs.CAUSE.get(what, f'missing input {what!r}')}",
                         inputs.FIX.get(what, "")))
    return out


def pushed_inputs(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """On the hub: the inputs each cluster's last push reports missing (what GPUBillingInputMissing fires on)."""
    name = "billing inputs of the clusters"
    rows = prom.query(read.now(names.INPUT_MISSING, model.billing.mco_interval), now)
    if not rows:
        return [Check(name, OK, "no cluster reports a missing input")]
    out = []
    for labels, value in sorted(rows, key=lambda r: sorted(r[0].items())):
        what = labels.get("input", "")
        node = f" node {labels['node']}: {value:.0f}" if labels.get("node") else ""
        out.append(Check(name, FAIL, f"{_shown(labels.get('cluster', ''))}{node}: {inputs.CAUSE.get(what, what)}",
                         inputs.FIX.get(what, "")))
    return out


def tier(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """With ``billing.spoke_tier: policy``, the tier's rule group is loaded here and evaluating: a cluster the
    Placement missed bills nothing from the tier (its hourly figures are empty)."""
    if not model.billing.tier:
        return []
    name = "spoke tier"
    group = _groups(prom).get(spoke_tier.GROUP)
    if group is None:
        return [Check(name, FAIL, f"rule group {spoke_tier.GROUP} not loaded on this cluster: its hourly GPU-hours "
                      "and energy are empty", inputs.FIX[inputs.SPOKE_TIER])]
    age = _group_age(group, now)
    if age is None or age > 3 * float(group.get("interval") or 60):
        shown = "never evaluated" if age is None else f"last evaluated {age:.0f}s ago"
        return [Check(name, FAIL, f"rule group {spoke_tier.GROUP} loaded but not evaluating ({shown})",
                      "check the platform Prometheus' rule evaluation (its log names the failing rule)")]
    return [Check(name, OK, f"rule group {spoke_tier.GROUP} loaded and evaluating")]


def _group_age(group: dict, now: float) -> float | None:
    """Seconds since the group's last evaluation; None when it never ran (the client reads Go's zero time as
    None)."""
    last = group["lastEvaluation"]
    return None if last is None else now - last.timestamp()


def _groups(prom: Prometheus) -> dict[str, dict]:
    return {g["name"]: g for g in prom.rules()}


def rule_groups(prom: Prometheus, model: Model, now: float, groups) -> list[Check]:
    """Every gpudash rule group is loaded, healthy and evaluated within two of its intervals."""
    loaded = _groups(prom)
    missing = [g.name for g in groups if g.name not in loaded]
    if missing:
        return [Check("rule groups", FAIL, f"not loaded: {', '.join(missing)}",
                      "apply the rendered rules (mco/ on the ACM hub, rules/kubernetes and alerts/kubernetes on a "
                      "single cluster)")]
    bad = [f"{r.get('name') or r.get('alert')}: {r.get('lastError')}" for g in groups
           for r in loaded[g.name]["rules"] if r.get("health") == "err"]
    if bad:
        return [Check("rule groups", FAIL, f"{len(bad)} rule(s) failing, first {bad[0]}", "see the rule's error")]
    ages = {g.name: _group_age(loaded[g.name], now) for g in groups}
    idle = [n for n, age in ages.items() if age is None or age > 3 * loaded[n]["interval"]]
    if idle:
        age = ages[idle[0]]
        shown = "never evaluated" if age is None else f"last evaluated {age:.0f}s ago"
        return [Check("rule groups", FAIL, f"{len(idle)} group(s) not evaluating, first {idle[0]} ({shown})",
                      "check the rule evaluator (Thanos Ruler on the hub) is running and can query")]
    return [Check("rule groups", OK, f"{len(groups)} groups loaded, healthy and evaluating")]


def _ages(prom: Prometheus, now: float) -> dict[str, float]:
    return {labels.get("cluster", ""): v for labels, v in
            prom.query(f"time() - max by (cluster) (timestamp({names.BILLED_HOUR}))", now)}


def clusters(prom: Prometheus, model: Model, role: str, now: float) -> tuple[str, ...]:
    """The clusters to check: the model's on the hub; on a single cluster the one its heartbeat names."""
    return model.clusters if role == "hub" else tuple(sorted(_ages(prom, now))) or ("",)


def _shown(cluster: str) -> str:
    return cluster or "this cluster"  # a single cluster's heartbeat has no cluster label (no collector adds it)


def pushes(prom: Prometheus, model: Model, expected: tuple[str, ...], now: float) -> list[Check]:
    """Each cluster's heartbeat is within the hub's freshness window (what every hub read sees as "now")."""
    limit = read.fresh_seconds(model.billing.mco_interval)
    ages = _ages(prom, now)
    out = []
    for cluster in expected:
        age = ages.get(cluster)
        if age is not None and age < 0:  # a sample stamped after our "now": the clocks disagree
            out.append(Check(f"push from {_shown(cluster)}", FAIL, f"last push stamped {-age:.0f}s in the future",
                             "synchronise the clocks (NTP) of this machine, the hub and the cluster"))
        elif age is None or age > limit:
            found = "never pushed (within the lookback)" if age is None else f"last push {age:.0f}s ago"
            out.append(Check(f"push from {_shown(cluster)}", FAIL, found,
                             "check the cluster's metrics-collector (ACM observability add-on) and the allowlist"))
        else:
            out.append(Check(f"push from {_shown(cluster)}", OK, f"last push {age:.0f}s ago"))
    return out


def push_intervals(prom: Prometheus, model: Model, expected: tuple[str, ...], now: float) -> list[Check]:
    """Each cluster pushes every ``billing.mco_interval`` (the metrics-collector's interval): the median spacing
    of its heartbeat samples over the last ten intervals, read as the distinct sample timestamps of a range
    query stepping ten times per interval."""
    want = model.billing.mco_interval
    out = []
    for cluster in expected:
        heartbeat = f"timestamp({q.selector(names.BILLED_HOUR, ('cluster', '=', cluster))})"
        rows = prom.query_range(heartbeat, now - 10 * want, now, want / 10)
        stamps = sorted({v for _, values in rows for _, v in values})
        name = f"push interval of {_shown(cluster)}"
        if len(stamps) < 2:
            out.append(Check(name, WARN, f"cannot tell yet: {len(stamps)} push(es) in the last {10 * want}s"))
            continue
        spacing = statistics.median(b - a for a, b in zip(stamps, stamps[1:]))
        if abs(spacing - want) > INTERVAL_TOLERANCE * want:
            out.append(Check(name, FAIL, f"pushes every {spacing:.0f}s, billing.mco_interval is {want}s",
                             "set billing.mco_interval to the MultiClusterObservability CR's "
                             "observabilityAddonSpec.interval (or the other way round) and re-render"))
        else:
            out.append(Check(name, OK, f"pushes every {spacing:.0f}s as billing.mco_interval says"))
    return out


def billed_hours(prom: Prometheus, model: Model, expected: tuple[str, ...], now: float) -> list[Check]:
    """The last hour's coverage series exist for the clusters that push: the hub rules turn pushes into billed
    hours (a cluster that does not push fails its push check instead)."""
    if not expected:
        return []
    coverage = {labels.get("cluster", ""): nonnegative(prom, labels, v)
                for labels, v in prom.query(names.BILLING_COVERAGE, now)}
    absent = [c for c in expected if c not in coverage]
    if absent:
        return [Check("billed hours", FAIL, f"no {names.BILLING_COVERAGE} for {', '.join(map(_shown, absent))}",
                      "install the hub rules (mco/thanos-ruler-custom-rules) and check that the clusters push")]
    short = {c: v for c, v in coverage.items() if c in expected and v < 1}
    if short:
        covered = ", ".join(f"{_shown(c)} {v:.0%}" for c, v in short.items())
        late = model.billing.backfill_hours
        hint = (f"the hub settles an hour {late + 1} hours after it ends (billing.backfill_hours): a cluster "
                f"connected less than {late + 2} hours ago shows 0 until then" if late else
                "a cluster that started this hour covers less")
        return [Check("billed hours", WARN, f"last {'settled ' if late else ''}hour covered {covered}",
                      f"{hint}; else see GPUBillingDataGap")]
    return [Check("billed hours", OK, f"last hour fully covered on {len(coverage)} cluster(s)")]


def tenant_clusters(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """No gpudash tenant series lacks ``cluster`` (ACM's rbac-query-proxy would hide or leak it)."""
    bare = _values(prom, '{__name__=~"cluster_namespace.*:gpudash_.+", cluster=""}', "__name__", now)
    if bare:
        return [Check("tenant series carry cluster", FAIL, f"without cluster: {', '.join(sorted(bare))}",
                      "set the cluster external label (single cluster) or re-render the hub rules")]
    return [Check("tenant series carry cluster", OK, "every tenant series has a cluster")]


def run(prom: Prometheus, model: Model, role: str, now: float | None = None) -> list[Check]:
    """Every check of ``role`` against ``prom`` at ``now`` (default: the current time)."""
    now = time.time() if now is None else now
    checks: list[Check] = []
    if role in ("spoke", "single"):
        for check in (raw_series, product_labels, pricing, exporters, billing_inputs, tier, spoke_rules, storage):
            checks += check(prom, model, now)
    if role in ("hub", "single"):
        local = (spoke.group(model),) if role == "single" else ()  # on ACM the collector runs the spoke rules
        checks += rule_groups(prom, model, now, (*local, *hub.groups(model), *alerts.hub_groups(model)))
        expected = clusters(prom, model, role, now)
        push_checks = pushes(prom, model, expected, now)
        pushing = tuple(c for c, check in zip(expected, push_checks) if check.status == OK)
        checks += push_checks + billed_hours(prom, model, pushing, now)
        if role == "hub":  # on a single cluster nothing pushes: the spoke rules are a rule group
            checks += push_intervals(prom, model, pushing, now) + pushed_inputs(prom, model, now)
        checks += tenant_clusters(prom, model, now)
    return checks

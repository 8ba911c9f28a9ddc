"""Each vendor's GPU exporter is scraped where its GPUs are, once, with the pod attribution label the model
reads."""
from __future__ import annotations

from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.model.vendors.vendor import Vendor
from gpudash.ops.doctor.check import FAIL, OK, WARN, Check, count_series, label_values
from gpudash.ops.prometheus_client import Prometheus
from gpudash.promql import build as q


def _unscraped(prom: Prometheus, model: Model, vendor: Vendor, now: float) -> Check:
    """No target of the exporter is up: fine on a cluster without the vendor's GPUs; where its GPU nodes are, its
    utilisation, idle alerts, the pruner and energy are blank."""
    exporter, name = gx.exporter(model.sources, vendor), f"{vendor.source} exporter scraped"
    offered = q.selector(ksm.NODE_ALLOCATABLE, ksm.job(model.sources), ("resource", "=~", vendor.ksm_node_resources))
    nodes = sorted(label_values(prom, f"{offered} > 0", "node", now))
    if not nodes:
        return Check(name, OK, f"no {vendor.source} exporter scraped (job=~{exporter.job!r}) and no node offers "
                     f"{vendor.resource}")
    return Check(name, FAIL, f"{len(nodes)} node(s) offer {vendor.resource} ({', '.join(nodes[:3])}"
                 f"{', ...' if len(nodes) > 3 else ''}) but no {vendor.source} exporter target is up "
                 f"(job=~{exporter.job!r}): their utilisation, idle alerts, pruning and energy are blank",
                 f"scrape the exporter (its GPU Operator's ServiceMonitor, or sources.self_managed and wiring/), or "
                 f"set sources.{vendor.source}.job to the job it is scraped under")


def exporter_labels(prom: Prometheus, model: Model, vendor: Vendor, now: float) -> Check:
    """The exporter is scraped where its vendor's GPUs are, and its pod attribution label is the one the model
    reads (exported_* with honorLabels unset)."""
    what, exporter = vendor.source, gx.exporter(model.sources, vendor)
    job = gx.job(exporter)
    name = f"{what} exporter labels"
    if count_series(prom, f"{q.selector('up', job)} == 1", now) == 0:
        return _unscraped(prom, model, vendor, now)
    exported = count_series(prom, f"{{{q.matchers(job, ('exported_namespace', '!=', ''))}}}", now)
    # A workload's pod: one no target of the job is. Without honorLabels every series carries its exporter pod's
    # target labels, an idle GPU's too (gpudash/simulation/series.py scraped, after prometheus/prometheus
    # scrape/scrape.go mutateSampleLabels), so a pod label alone says nothing.
    workload = count_series(prom, f"{{{q.matchers(job, ('pod', '!=', ''))}}} unless on(namespace, pod) "
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
    twice = sorted(label_values(prom, f"count by (instance) (count by (instance, job) ({served})) > 1", "instance",
                                now))
    if not twice:
        return []
    return [Check(f"{vendor.source} exporter scraped once", WARN, f"{len(twice)} target(s) scraped by more than one "
                  f"job (first {twice[0]}): figures stay right, every sample is stored twice",
                  "keep one scrape: turn the exporter chart's own ServiceMonitor off (Helm value "
                  "serviceMonitor.enabled: false), or drop sources.self_managed and set the exporter's job and "
                  "tenant_label to the chart's scrape")]


def exporters(prom: Prometheus, model: Model, now: float) -> list[Check]:
    return [check for v in vendors.VENDORS.values()
            for check in (exporter_labels(prom, model, v, now), *_scraped_twice(prom, model, v, now))]

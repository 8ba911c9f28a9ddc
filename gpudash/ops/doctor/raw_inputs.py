"""What the spoke rules read is scraped, labelled and priced: kube-state-metrics' series under the model's job,
the GPU nodes' product labels, a price for every product and resource, every raw billing input."""
from __future__ import annotations

from gpudash.model import vendors
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.pricing import skus
from gpudash.model.types import Model
from gpudash.ops.doctor.check import FAIL, OK, Check, count_series, label_values
from gpudash.ops.prometheus_client import Prometheus
from gpudash.promql import build as q
from gpudash.render.rules import inputs

# Raw series the spoke rules read (gpudash/render/rules/), each pinned to kube-state-metrics' job.
KSM_SERIES = (ksm.CONTAINER_REQUESTS, ksm.POD_PHASE, ksm.NODE_LABELS, ksm.NODE_ALLOCATABLE, ksm.POD_OWNER)


def raw_series(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """Every kube-state-metrics series the rules read is fresh (within the lookback) under the model's job."""
    job = ksm.job(model.sources)
    missing = [m for m in KSM_SERIES if count_series(prom, q.selector(m, job), now) == 0]
    name = f"raw series of job {model.sources.kube_state_metrics_job!r}"
    if not missing:
        return [Check(name, OK, f"{len(KSM_SERIES)} kube-state-metrics series fresh")]
    other = sorted(label_values(prom, q.selector(missing[0]), "job", now) - {""})
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
    bare = sorted(label_values(prom, f"{gpu_nodes} unless on (node) ({labelled})", "node", now))
    name = "node product labels"
    if not bare:
        return [Check(name, OK, f"{count_series(prom, gpu_nodes, now)} GPU node(s) labelled")]
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
        seen |= label_values(prom, q.selector(ksm.NODE_LABELS, job, (label, "!=", "")), label, now)
    resources = label_values(prom, q.selector(ksm.NODE_ALLOCATABLE, job, ("resource", "=~", ksm.gpu_resource_regex())),
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

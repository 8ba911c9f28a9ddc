"""GPU activity and power per pod over the push window (docs/billing-contract.md section 9), from the exporters'
pod-attributed series: the spoke rules behind the idle alerts, the efficiency panels and the idle power veto.
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.exporters import gpu_exporters as gx
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Exporter, Model
from gpudash.model.vendors import Vendor
from gpudash.promql import build as q
from gpudash.render.rules.format import Rule
from gpudash.render.rules.pods import gpu_holders


def _exporter_per_pod(model: Model, metric: str, exporter: Exporter, fn: str, op: str, scale: str = "",
                      model_label: str | None = None) -> str:
    """``op`` per pod of ``fn(metric[push window])`` over the exporter's pod-attributed series, with the
    exporter's pod labels renamed to ``namespace``/``pod`` (and its model label to ``gpu_model``).

    The series are aggregated by the exporter's own labels first and renamed after: ``label_replace`` then runs on
    one row per pod, not on every exporter series (18,000 DCGM series at 10,000 GPUs). The selector requires both
    pod labels, so the renames map those rows one to one and the outer ``op`` sees one row per group: the same
    figures as renaming every series first, ``avg`` included.
    """
    own = ("cluster", exporter.tenant_label, exporter.pod_label, *((model_label,) if model_label else ()))
    window = f"{fn}({gx.attributed(metric, exporter)}[{q.window(model.billing.mco_interval)}]){scale}"
    rows = f"{gx.to_pod_labels(q.agg(op, own, window), exporter)} and on {q.labels(names.POD)} {gpu_holders(model)}"
    if model_label is None:
        return q.agg(op, names.labels(names.POD_POWER_MAX), rows)
    rows = q.label_replace(rows, "gpu_model", "$1", model_label, "(.*)")
    return q.agg(op, names.labels(names.POD_ACTIVITY_MAX), rows)


def _scale(full: int) -> str:
    """The PromQL suffix turning a series that reads ``full`` at full activity into a 0-1 ratio (`` / 100`` for
    percent)."""
    return "" if full == 1 else f" / {full}"


def _activity_named_by_node(model: Model, vendor: Vendor, metric: str, scale: str, fn: str, op: str) -> str:
    """A vendor's activity per pod, named by the node's product label: the exporter's model label is a part number
    (``model_label_names_product`` false; AMD's ``card_model`` is a board part number), not a GPU model a person
    recognises. Pods on a node without the label keep the exporter's label. Aggregated per pod, node and model
    label before the pod and model labels are renamed (as in :func:`_exporter_per_pod`); ``node`` is set on each
    series first, since a series without the host label keeps its own ``node``."""
    src = model.sources
    exporter = gx.exporter(src, vendor)
    series = gx.on_node(f"{fn}({gx.attributed(vendor.metric(src, metric), exporter)}"
                        f"[{q.window(model.billing.mco_interval)}]){scale}", vendor)
    own = ("cluster", exporter.tenant_label, exporter.pod_label, "node", vendor.model_label)
    held = f"{gx.to_pod_labels(q.agg(op, own, series), exporter)} and on {q.labels(names.POD)} {gpu_holders(model)}"
    per_node = q.label_replace(held, "gpu_model", "$1", vendor.model_label, "(.*)")
    product_label = vendor.product_label(src)
    products = q.agg("max", ("cluster", "node", "gpudash_product"),
                     q.label_replace(q.selector(ksm.NODE_LABELS, ksm.job(src), (product_label, "!=", "")),
                                     "gpudash_product", "$1", product_label, "(.+)"))
    named = q.label_replace(f"{per_node} * on (cluster, node) group_left (gpudash_product) {products}",
                            "gpu_model", "$1", "gpudash_product", "(.+)")
    return q.agg(op, names.labels(names.POD_ACTIVITY_MAX), f"{named} or on (cluster, namespace, pod) {per_node}")


def _activity(model: Model, fn: str, op: str) -> str:
    """Per pod GPU activity ratio (0-1) over the push window: each vendor's activity series in its fallback order
    (NVIDIA: graphics-engine activity, which works for MIG, then GPU utilisation; AMD: graphics activity)."""
    src = model.sources
    parts = []
    for vendor in vendors.VENDORS.values():
        for metric, full in vendor.activity:
            if vendor.model_label_names_product:
                parts.append(_exporter_per_pod(model, vendor.metric(src, metric), gx.exporter(src, vendor), fn, op,
                                               _scale(full), vendor.model_label))
            else:
                parts.append(_activity_named_by_node(model, vendor, metric, _scale(full), fn, op))
    return " or on (cluster, namespace, pod) ".join(parts)


def _power(model: Model) -> str:
    """Peak GPU power (W) per pod over the push window, every vendor's."""
    src = model.sources
    return " or on (cluster, namespace, pod) ".join(
        _exporter_per_pod(model, v.metric(src, v.power), gx.exporter(src, v), "max_over_time", "max")
        for v in vendors.VENDORS.values())


def rules(model: Model) -> tuple[Rule, ...]:
    out: tuple[Rule, ...] = (
        Rule(names.POD_ACTIVITY_MAX, _activity(model, "max_over_time", "max"),
             "Peak GPU activity (0-1) of each pod over the push window: zero for long enough = an idle GPU"
             "\nthat is still billed (idle alerts and the idle report)."),
        Rule(names.POD_ACTIVITY_AVG, _activity(model, "avg_over_time", "avg"),
             "Mean GPU activity (0-1) of each pod over the push window: allocated-vs-used efficiency panels."),
    )
    if model.alerts.idle.power_veto_watts > 0:
        out += (Rule(names.POD_POWER_MAX, _power(model),
                     "Peak GPU power (W) of each pod over the push window: the idle alert's power veto (a GPU"
                     "\ndrawing power is working even when its activity counters read zero)."),)
    return out

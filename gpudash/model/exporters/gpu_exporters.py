"""GPU exporter vocabulary shared by every vendor: how an exporter's series are selected, attributed to pods and
placed on nodes. What each exporter serves (names, labels, units) is its vendor's module (gpudash.model.vendors).

Used for utilisation and for CCSP's count of physical GPUs holding a pod: with time-slicing the exporters report
per device, not per pod, so billing comes from allocation (kube-state-metrics) and never from these series.
"""
from __future__ import annotations

import re

from gpudash.model import vendors
from gpudash.model.types import Exporter, Sources
from gpudash.model.vendors import Vendor
from gpudash.promql import build as q


def upstream_jobs() -> tuple[str, ...]:
    """Job names the upstream installs give the registered vendors' exporters (each vendor module cites its own)."""
    return tuple(j for v in vendors.VENDORS.values() for j in v.upstream_jobs)


def sample_job(exporter: Exporter) -> str:
    """A concrete job name the exporter's job regex matches, for generated test data (the first upstream one)."""
    return next((j for j in upstream_jobs() if re.fullmatch(exporter.job, j)), exporter.job)


def exporter(sources: Sources, vendor: Vendor) -> Exporter:
    """The model's configuration of ``vendor``'s exporter (``sources.<vendor.source>``)."""
    return sources.exporter(vendor.source)


def job(exporter: Exporter) -> tuple[str, str, str]:
    """The matcher of the exporter's job (a regex: upstream installs name the job after the release)."""
    return ("job", "=~", exporter.job)


def attributed(metric: str, exporter: Exporter) -> str:
    """Series of ``metric`` that carry pod attribution (idle GPUs have no pod labels)."""
    return q.selector(metric, job(exporter), (exporter.pod_label, "!=", ""), (exporter.tenant_label, "!=", ""))


def to_pod_labels(expr: str, exporter: Exporter) -> str:
    """Rename the exporter's pod attribution labels to ``namespace``/``pod`` (a no-op when already so named)."""
    for plain, exported in (("namespace", exporter.tenant_label), ("pod", exporter.pod_label)):
        if plain != exported:
            expr = q.label_replace(expr, plain, "$1", exported, "(.+)")
    return expr


def on_node(expr: str, vendor: Vendor) -> str:
    """``expr`` (the vendor's exporter series) with its host label copied to ``node``, whichever name it carries."""
    for label in vendor.host_labels:
        expr = q.label_replace(expr, "node", "$1", label, "(.+)")
    return expr

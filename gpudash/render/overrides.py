"""The selectors a packaged form leaves to its user (the mixin's ``_config``): one per exporter job and node label
the model's ``sources`` hold, read from the vendor registry, and the probe content that shows where each goes.

The probe is the content whose strings depend on the sources (spoke and tier rule groups, alert groups, provider
dashboards) built once more from a model whose selectors are sentinels: a string where probe and content differ is
templated from ``_config`` (the mixin target, ``gpudash.render.targets.mixin``). The hub rules read recorded series
only and the tenant dashboards are built without the sources (grafana._tenant_boards), so both are their own
probes. Pure; no I/O.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from gpudash.model.types import Model, Sources
from gpudash.model.vendors import VENDORS
from gpudash.render import alerts, grafana, rules
from gpudash.render.rules.format import Group

EXPORTER_JOB = "ExporterJob"  # the suffix of a vendor's exporter job field, after its sources key


@dataclass(frozen=True)
class Field:
    """A ``_config`` selector: what it selects, its value in a model's sources, the sources with another value."""

    what: str
    get: Callable[[Sources], str]
    put: Callable[[Sources, str], Sources]


def _field(name: str) -> Field:
    """A top-level field of Sources (a node label)."""
    return Field(f"sources.{name}", lambda s: str(getattr(s, name)),
                 lambda s, v: dataclasses.replace(s, **{name: v}))  # type: ignore[arg-type]


def _get_job(source: str) -> Callable[[Sources], str]:
    return lambda s: s.exporter(source).job


def _put_job(source: str) -> Callable[[Sources, str], Sources]:
    """Sources with ``sources.<source>.job`` set (a bundled vendor's own field, or one of ``exporters``)."""
    def put(s: Sources, v: str) -> Sources:
        exporter = dataclasses.replace(s.exporter(source), job=v)
        if source in {f.name for f in dataclasses.fields(s)}:
            return dataclasses.replace(s, **{source: exporter})  # type: ignore[arg-type]
        return dataclasses.replace(s, exporters=tuple((k, exporter if k == source else e) for k, e in s.exporters))
    return put


def fields() -> dict[str, Field]:
    """``_config`` field -> its :class:`Field`: kube-state-metrics' job, then each registered vendor's exporter job,
    product label and partition label (those the model's sources hold), vendors in registry order."""
    out = {"kubeStateMetricsJob": Field("job label of kube-state-metrics (sources.kube_state_metrics_job)",
                                        lambda s: s.kube_state_metrics_job,
                                        lambda s, v: dataclasses.replace(s, kube_state_metrics_job=v))}
    for v in VENDORS.values():
        out[f"{v.source}{EXPORTER_JOB}"] = Field(f"RE2 regex on the {v.exporter_title}'s job (sources.{v.source}.job)",
                                              _get_job(v.source), _put_job(v.source))
    for kind, attr in (("Product", "product_label_field"), ("Partition", "partition_label_field")):
        for v in VENDORS.values():
            name = getattr(v, attr)
            if name:
                label = _field(name)
                out[f"{v.name}{kind}Label"] = Field(
                    f"kube_node_labels label holding the {v.title} {kind.lower()} ({label.what})", label.get, label.put)
    return out


def sentinel(field: str) -> str:
    """A value no model holds, valid as a label name, label value and regex: marks where ``field`` is used."""
    return f"gpudashcfg_{field}_end"


def defaults(model: Model) -> dict[str, str]:
    """Each field's value in ``model``."""
    return {name: f.get(model.sources) for name, f in fields().items()}


def probe_model(model: Model) -> Model:
    """``model`` with every field a :func:`sentinel`."""
    sources = model.sources
    for name, f in fields().items():
        sources = f.put(sources, sentinel(name))
    return dataclasses.replace(model, sources=sources)


@dataclass(frozen=True)
class Probe:
    """What depends on the sources, built from :func:`probe_model`: spoke groups (the tier's first), alert groups,
    provider dashboards by file stem."""

    spoke: tuple[Group, ...]
    alerts: tuple[Group, ...]
    provider: dict[str, dict]


def probe(model: Model) -> Probe:
    """The :class:`Probe` of ``model`` (built once, by :func:`gpudash.render.content.build`)."""
    sentinels = probe_model(model)
    return Probe(rules.spoke_groups(sentinels), alerts.hub_groups(sentinels), grafana.provider_boards(sentinels))

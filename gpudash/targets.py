"""Delivery targets: each takes the content of a render (:mod:`gpudash.content`) and returns the files that
deliver it one way; the model chooses which (``outputs.targets``, default all; names and descriptions:
:data:`gpudash.model.types.TARGETS`). The content's own files are written whatever the choice. Pure; no I/O.
"""
from __future__ import annotations

from gpudash import alerts, grafana, mco, mixin, rules
from gpudash.alerts import routing
from gpudash.content import Content
from gpudash.grafana import delivery
from gpudash.layout import ALERTMANAGER_SECRET
from gpudash.model.types import ALL_TARGETS, Model

ALWAYS = "always"  # the key of the content's own files in split()


def _files(model: Model, c: Content) -> dict[str, object]:
    return {**grafana.plain(c.provider, c.tenants), **grafana.for_import(c.provider)}


def _prometheus_rule(model: Model, c: Content) -> dict[str, object]:
    return {**rules.objects(c.spoke, c.hub, c.tier), **alerts.objects(c.alerts)}


def _acm(model: Model, c: Content) -> dict[str, object]:
    return {**mco.objects(model, c.spoke, c.hub, c.alerts, c.tier), ALERTMANAGER_SECRET: routing.secret(model),
            **grafana.acm(model, c.tenants)}


def _grafana_provisioning(model: Model, c: Content) -> dict[str, object]:
    return {**grafana.plain(c.provider, c.tenants), **grafana.provisioned(model, c.provider, c.tenants)}


def _grafana_operator(model: Model, c: Content) -> dict[str, object]:
    return delivery.operator_objects(model, c.provider, c.tenants)


def _mixin(model: Model, c: Content) -> dict[str, object]:
    return mixin.artifacts(model, c)


DELIVER = {"files": _files, "prometheus-rule": _prometheus_rule, "acm": _acm,
           "grafana-provisioning": _grafana_provisioning, "grafana-operator": _grafana_operator, "mixin": _mixin}
assert tuple(DELIVER) == ALL_TARGETS, "every target the model may choose is delivered here, in the same order"


def split(model: Model, content: Content, step=lambda what: None) -> dict[str, dict[str, object]]:
    """{ALWAYS: the content's files, each chosen target: its files}; ``step(target)`` as each starts."""
    out = {ALWAYS: content.files}
    for name in model.outputs.targets:
        step(name)
        out[name] = DELIVER[name](model, content)
    return out


def merge(parts: dict[str, dict[str, object]]) -> dict[str, object]:
    """One {path: data}; two targets may deliver a file (the plain dashboards) only with the same data."""
    files: dict[str, object] = {}
    for name, part in parts.items():
        for path, data in part.items():
            if path in files and files[path] != data:
                raise AssertionError(f"{name} writes {path} differently from another target")
            files[path] = data
    return files

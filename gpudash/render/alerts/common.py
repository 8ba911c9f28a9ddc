"""Building blocks shared by every alert family: the alert type with its billing comment, routing labels,
annotations (summary, description, runbook and dashboard links), Go-template snippets and timings.

Timing: every series an alert reads is taken "now" as :mod:`gpudash.promql.read` defines it (the newest sample
of the last push) and ``for:`` durations are whole multiples of the push interval P.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from gpudash.base.yamlfmt import COMMENT
from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.render.grafana import uids
from gpudash.render.rules.format import Alert, Group

MONEY = "%.2f"
VALUE_MONEY = '{{ $value | printf "%.2f" }}'
VALUE_INT = '{{ $value | printf "%.0f" }}'
VALUE_PERCENT = "{{ $value | humanizePercentage }}"
# The tenant dashboard uid is this prefix + the tenant name whenever that fits Grafana (gpudash.render.grafana.uids).
_UID_PREFIX = "gpudash-tenant-"


@dataclass(frozen=True)
class BillingAlert(Alert):
    """An alert rule with the comment written above it (what it means for billing) and, for docs/alerts.md,
    its default threshold and window in words."""

    help: str = ""
    threshold: str = ""

    def __post_init__(self):
        super().__post_init__()
        if not self.help or not self.threshold:
            raise ValueError(f"{self.alert}: every alert needs a billing comment and a threshold text")

    @property
    def audience(self) -> str:
        return dict(self.labels)[an.AUDIENCE]

    def data(self) -> dict:
        return {COMMENT: self.help, **super().data()}


# --- timing ------------------------------------------------------------------------------------------------------

def push(model: Model) -> int:
    """P: seconds between two pushes of a cluster, and between two hub evaluations."""
    return model.billing.mco_interval


def fresh(model: Model, selector: str) -> str:
    """The newest sample of ``selector`` from the latest push (:func:`gpudash.promql.read.now`)."""
    return read.now(selector, push(model))


def pushes(model: Model, count: int) -> int:
    """``count`` push intervals, in seconds (a ``for:`` that lets ``count`` evaluations confirm a condition)."""
    return count * push(model)


def group(name: str, model: Model, help_text: str, rules) -> Group:
    return Group(name, push(model), help_text, tuple(rules))


# --- labels and annotations ------------------------------------------------------------------------------------

def label(name: str) -> str:
    """``{{ $labels.<name> }}``."""
    return "{{ $labels." + q.label_name(name) + " }}"


def go_string(text: str) -> str:
    """A Go-template string literal holding exactly ``text``."""
    return json.dumps(text)


def literal(text: str) -> str:
    """Template text that prints ``text`` as is, even when it holds template delimiters (a URL from the model)."""
    return f"{{{{ {go_string(text)} }}}}" if "{{" in text or "}}" in text else text


def query_value(model: Model, metric: str, by: tuple[str, ...], before: str, after: str, fmt: str = MONEY,
                agg: str | None = None) -> str:
    """Template text: ``before`` + the latest value of ``metric{by-labels of the alert}`` (aggregated with ``agg``
    when given, e.g. ``sum`` over clusters) + ``after``, or nothing when that query returns nothing. ``by`` labels
    are matched exactly (Go %q quoting)."""
    selector = q.metric_name(metric) + "{" + ",".join(f"{q.label_name(n)}=%q" for n in by) + "}"
    query = fresh(model, selector) if agg is None else f"{agg}({fresh(model, selector)})"
    args = " ".join(f"$labels.{q.label_name(n)}" for n in by)
    return (f"{{{{ with printf {go_string(query)} {args} | query }}}}{before}"
            f"{{{{ . | first | value | printf {go_string(fmt)} }}}}{after}{{{{ end }}}}")


def runbook_url(model: Model, alertname: str) -> str:
    """The rendered runbook link of ``alertname`` (:func:`_annotations` protects it from templating)."""
    return model.alerts.runbook_url.replace("{alertname}", alertname)


def tenant_dashboard_url(model: Model) -> str:
    """Template text linking to the alert's tenant dashboard, ``<dashboard_url>/d/<uid>``.

    The uid is ``gpudash-tenant-<tenant>`` unless that is too long for Grafana; the tenants whose uid differs
    are listed in the template, so every tenant's link is exact."""
    special = [t for t in model.tenants if uids.tenant_dashboard_uid(t.name) != _UID_PREFIX + t.name]
    base = literal(f"{model.alerts.dashboard_url}/d/")
    if not special:
        return f"{base}{_UID_PREFIX}{label('tenant')}"
    text = ""
    for i, t in enumerate(special):
        text += f"{{{{ {'if' if i == 0 else 'else if'} eq $labels.tenant {go_string(t.name)} }}}}"
        text += uids.tenant_dashboard_uid(t.name)
    return f"{base}{text}{{{{ else }}}}{_UID_PREFIX}{label('tenant')}{{{{ end }}}}"


def tenant_dashboard_link(model: Model, tenant_name: str) -> str:
    """The rendered value of :func:`tenant_dashboard_url` for one tenant (what tests expect)."""
    return f"{model.alerts.dashboard_url}/d/{uids.tenant_dashboard_uid(tenant_name)}"


def provider_dashboard_link(model: Model) -> str:
    return f"{model.alerts.dashboard_url}/d/{uids.provider_dashboard_uid()}"


def _annotations(model: Model, name: str, summary: str, description: str, dashboard: str) -> tuple:
    pairs = {"summary": summary, "description": description, "runbook_url": literal(runbook_url(model, name)),
             "dashboard_url": dashboard}
    return tuple(sorted(pairs.items()))


def tenant_alert(model: Model, name: str, expr: str, for_: int, severity: str, *, summary: str,
                 description: str, help: str, threshold: str) -> BillingAlert:
    """An alert for the tenant whose ``namespace`` it carries (its series also carry ``tenant``)."""
    return BillingAlert(name, expr, for_, severity,
                        _annotations(model, name, summary, description, tenant_dashboard_url(model)),
                        ((an.AUDIENCE, an.TENANT),), help=help, threshold=threshold)


def provider_alert(model: Model, name: str, expr: str, for_: int, severity: str, *, summary: str,
                   description: str, help: str, threshold: str) -> BillingAlert:
    """An alert for the provider: routed to ``alerts.provider_receiver`` even when it names a namespace."""
    return BillingAlert(name, expr, for_, severity,
                        _annotations(model, name, summary, description, literal(provider_dashboard_link(model))),
                        ((an.AUDIENCE, an.PROVIDER),), help=help, threshold=threshold)


def tenant_of(model: Model, expr: str) -> str:
    """``expr`` (with a ``namespace`` label) restricted to tenant namespaces, with the ``tenant`` label added."""
    info = q.agg("max", ("namespace", "tenant"), fresh(model, names.TENANT_INFO))  # one per namespace, any cluster
    return f"({expr}) * on (namespace) group_left (tenant) {info}"


def percent(fraction: float) -> str:
    """What Prometheus' ``humanizePercentage`` prints: ``%.4g`` of the percentage."""
    return f"{fraction * 100:.4g}%"

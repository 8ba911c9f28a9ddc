"""Alertmanager routing that joins the hub's: gpudash's alerts to gpudash's receivers, every other alert where it went.

ACM forwards every managed cluster's platform alerts to the hub Alertmanager, whose configuration (Secret
``alertmanager-config``) belongs to the hub admin: MCO creates it once, with a root that sends everything to
``null`` and drops ``Watchdog`` (stolostron/multicluster-observability-operator
operators/multiclusterobservability/manifests/base/alertmanager/alertmanager-config.yaml, annotated
``skip-creation-if-exist``). gpudash renders that default with one route added first: :func:`gpudash_route`, which
takes only gpudash's alerts (every one carries ``audience="provider"`` or ``audience="tenant"``,
``tests/unit/test_alerts.py``) and routes them, first match wins:

1. ``audience="provider"`` -> the provider receiver, even when the alert names a tenant's namespace;
2. the tenants' route, ``namespace=~"<every tenant namespace>"``, grouped by alert name and namespace, with one child
   route per tenant receiver, ``namespace=~"<its tenants' namespaces>"`` (escaped alternations, anchored by
   Alertmanager) -> that receiver;
3. anything else of gpudash's -> the provider receiver.

Everything else (platform alerts of the hub and of every spoke, ``Watchdog``) goes where MCO's default sends it.
A hub whose admin changed that default merges gpudash's route and receivers into their own configuration instead
(docs/alerts.md, "Routing"). Receivers get their integrations from the model (``alerts.receivers``: email, Slack,
webhook, PagerDuty, MS Teams in Alertmanager's format, secrets referenced by file); a receiver the model leaves
empty is a placeholder that sends nothing. Edit the model, not the rendered file: render refuses to overwrite a hand
edit.
"""
from __future__ import annotations

from gpudash.base import layout
from gpudash.base.yamlfmt import COMMENT
from gpudash.model import alert_names as an
from gpudash.model.types import Model
from gpudash.promql import build as q

NULL_RECEIVER = "null"


def matcher(name: str, value: str, op: str = "=") -> str:
    """An Alertmanager matcher ``name="value"`` with the value escaped (backslash, double quote, newline)."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'{name}{op}"{escaped}"'


def _receiver(name: str, what: str, model: Model) -> dict:
    integrations = dict(model.alerts.receivers).get(name)
    if integrations:
        return {COMMENT: f"{what}.\nIts integrations come from the model (alerts.receivers.{name}).", "name": name,
                **integrations}
    return {COMMENT: f"{what}.\nGive it integrations in the model (alerts.receivers.{name}); as rendered it"
                     "\nreceives alerts and sends them nowhere.", "name": name}


# MCO's default configuration (multicluster-observability-operator operators/multiclusterobservability/manifests/
# base/alertmanager/alertmanager-config.yaml): its root and its one route, kept as they are so that every alert not
# gpudash's goes where it went.
MCO_DEFAULT_ROOT = {"receiver": NULL_RECEIVER, "group_by": ["namespace"], "group_wait": "30s",
                    "group_interval": "5m", "repeat_interval": "12h"}
# gpudash's own timings, set on its route so that they hold wherever an admin merges it
GPUDASH_GROUPING = {"group_by": ["alertname", "cluster", "namespace"], "group_wait": "30s", "group_interval": "5m",
                    "repeat_interval": "12h"}


def gpudash_alerts() -> str:
    """The matcher that takes gpudash's alerts, and only them: the audience label every one of them carries."""
    return matcher(an.AUDIENCE, q.regex_alternation((an.PROVIDER, an.TENANT)), "=~")


def _tenant_routes(model: Model, receivers: dict[str, dict]) -> dict:
    """The tenants' route (adding each tenant receiver to ``receivers``)."""
    by_receiver: dict[str, list[str]] = {}
    integrations = dict(model.alerts.receivers)
    for t in model.tenants:
        by_receiver.setdefault(t.receiver, []).append(t.namespace)
        # a placeholder tenant receiver carries no comment: a few bytes each, at thousands of tenants
        receivers.setdefault(t.receiver, _receiver(t.receiver, "A tenant receiver", model)
                             if t.receiver in integrations else {"name": t.receiver})
    # One route per receiver with an exact alternation of its namespaces: a few bytes per tenant, so the Secret
    # stays far below Kubernetes' 1 MiB at thousands of tenants.
    return {COMMENT: "Tenants: gpudash's alerts about a tenant's namespace, to the tenant's receiver. Grouped by "
                     "namespace, the\ncopies of a tenant alert on each of its clusters (alerts/tenant.py) make one "
                     "notification.",
            "matchers": [matcher("namespace", q.regex_alternation(t.namespace for t in model.tenants), "=~")],
            "receiver": model.alerts.provider_receiver, "group_by": ["alertname", "namespace"],
            "routes": [{"matchers": [matcher("namespace", q.regex_alternation(namespaces), "=~")],
                        "receiver": receiver} for receiver, namespaces in sorted(by_receiver.items())]}


def gpudash_route(model: Model, receivers: dict[str, dict]) -> dict:
    """gpudash's sub-tree, self-contained (its own grouping and timings), adding its receivers to ``receivers``."""
    provider = model.alerts.provider_receiver
    receivers[provider] = _receiver(provider, "The provider's receiver: gpudash's integrity and health alerts, "
                                              "and gpudash's alerts no tenant route takes", model)
    tenants = _tenant_routes(model, receivers)
    for name in dict(model.alerts.receivers):  # named in the model but routed to by nothing: still valid, rendered
        receivers.setdefault(name, _receiver(name, "A receiver of the model that no route uses", model))
    return {COMMENT: "gpudash's alerts, and only them (every one carries the audience label). Merging into a hub "
                     "configuration of\nyour own: this route goes first in your route.routes, gpudash's receivers "
                     "into your receivers.",
            "matchers": [gpudash_alerts()], "receiver": provider, **GPUDASH_GROUPING,
            "routes": [{COMMENT: "Provider alerts (billing-data integrity, GPU health), also those that name a "
                                 "namespace.",
                        "matchers": [matcher(an.AUDIENCE, an.PROVIDER)], "receiver": provider},
                       tenants]}


def config(model: Model) -> dict:
    """MCO's default configuration with gpudash's route first and gpudash's receivers and inhibition added."""
    receivers: dict[str, dict] = {}
    route = gpudash_route(model, receivers)
    receivers.setdefault(NULL_RECEIVER, {COMMENT: "Drops what it receives (MCO's default receiver).",
                                         "name": NULL_RECEIVER})
    return {
        "global": {"resolve_timeout": "5m"},
        "route": {
            COMMENT: "MCO's default root: every alert that is not gpudash's goes where MCO's default sends it.",
            **MCO_DEFAULT_ROOT,
            "routes": [route, {COMMENT: "Every spoke's always-firing Watchdog alert: dropped (MCO's default route).",
                               "matchers": [matcher("alertname", "Watchdog")], "receiver": NULL_RECEIVER}],
        },
        "inhibit_rules": [{
            COMMENT: "A cluster that pushes nothing also stops its billing lines: report the cause only.",
            "source_matchers": [matcher("alertname", an.CLUSTER_NOT_REPORTING)],
            "target_matchers": [matcher("alertname", an.BILLING_DATA_GAP)],
            "equal": ["cluster"],
        }],
        "receivers": [receivers[name] for name in sorted(receivers)],
    }


HEADER = ("Alertmanager configuration rendered by gpudash: MCO's default, with gpudash's alerts routed first\n"
          "(provider alerts to the provider, each tenant's alerts, matched by namespace, to the tenant); every other\n"
          "alert goes where MCO's default sends it. Receivers' integrations come from the model (alerts.receivers).")


def artifacts(model: Model) -> dict[str, dict]:
    """The plain configuration file (the acm target packages it as the hub's Secret too)."""
    return {layout.ALERTMANAGER: {COMMENT: HEADER, **config(model)}}

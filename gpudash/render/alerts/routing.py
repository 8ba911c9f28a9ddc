"""Alertmanager routing: provider alerts to ``alerts.provider_receiver``, each tenant's alerts to its receiver.

The tree, first match wins:

1. ``alertname="Watchdog"`` -> ``null`` (ACM's default: the always-firing heartbeat of every spoke);
2. ``audience="provider"`` -> the provider receiver, even when the alert names a tenant's namespace;
3. the tenants' route, ``namespace=~"<every tenant namespace>"``, grouped by alert name and namespace, with one child
   route per tenant receiver, ``namespace=~"<its tenants' namespaces>"`` (escaped alternations, anchored by
   Alertmanager) -> that receiver;
4. anything else (ACM's own alerts, namespaces that are no tenant) -> the provider receiver (the root).

Every alert carrying a tenant's namespace reaches that tenant: gpudash's tenant alerts and any other alert about
the namespace that reaches this Alertmanager. Receivers get their integrations from the model
(``alerts.receivers``: email, Slack, webhook, PagerDuty, MS Teams in Alertmanager's format, secrets referenced by
file); a receiver the model leaves empty is a placeholder that sends nothing. Edit the model, not the rendered
file: render refuses to overwrite a hand edit. On the ACM hub the configuration is the Secret
``alertmanager-config``; on a single OpenShift cluster use the same ``alertmanager.yaml`` for the platform
Alertmanager (Secret ``alertmanager-main`` in ``openshift-monitoring``).
"""
from __future__ import annotations

from gpudash.base import kube, layout
from gpudash.base.yamlfmt import COMMENT, dump_yaml
from gpudash.model import alert_names as an
from gpudash.model.types import Model
from gpudash.promql import build as q

# Alertmanager's conventional file name; the .yml suffix also keeps it out of `promtool check rules alerts/*.yaml`.
SECRET_NAME = "alertmanager-config"
SECRET_NAMESPACE = "open-cluster-management-observability"
SECRET_KEY = "alertmanager.yaml"
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


def config(model: Model) -> dict:
    provider = model.alerts.provider_receiver
    routes: list[dict[str, object]] = [
        {COMMENT: "Every spoke's always-firing Watchdog alert: dropped, as in ACM's default configuration.",
         "matchers": [matcher("alertname", "Watchdog")], "receiver": NULL_RECEIVER},
        {COMMENT: "Provider alerts (billing-data integrity, GPU health), also those that name a namespace.",
         "matchers": [matcher(an.AUDIENCE, an.PROVIDER)], "receiver": provider},
    ]
    receivers = {provider: _receiver(provider, "The provider's receiver: integrity and health alerts, and every "
                                               "alert no tenant route takes", model),
                 NULL_RECEIVER: {COMMENT: "Drops what it receives (ACM's default receiver).", "name": NULL_RECEIVER}}
    by_receiver: dict[str, list[str]] = {}
    integrations = dict(model.alerts.receivers)
    for t in model.tenants:
        by_receiver.setdefault(t.receiver, []).append(t.namespace)
        # a placeholder tenant receiver carries no comment: a few bytes each, at thousands of tenants
        receivers.setdefault(t.receiver, _receiver(t.receiver, "A tenant receiver", model)
                             if t.receiver in integrations else {"name": t.receiver})
    # One route per receiver with an exact alternation of its namespaces: a few bytes per tenant, so the Secret
    # stays far below Kubernetes' 1 MiB at thousands of tenants.
    routes.append({COMMENT: "Tenants: every alert about a tenant's namespace, to the tenant's receiver. Grouped by "
                            "namespace, the\ncopies of a tenant alert on each of its clusters (alerts/tenant.py) "
                            "make one notification.",
                   "matchers": [matcher("namespace", q.regex_alternation(t.namespace for t in model.tenants), "=~")],
                   "receiver": provider, "group_by": ["alertname", "namespace"],
                   "routes": [{"matchers": [matcher("namespace", q.regex_alternation(namespaces), "=~")],
                               "receiver": receiver} for receiver, namespaces in sorted(by_receiver.items())]})
    for name in integrations:  # named in the model but routed to by nothing: still valid, rendered
        receivers.setdefault(name, _receiver(name, "A receiver of the model that no route uses", model))
    return {
        "global": {"resolve_timeout": "5m"},
        "route": {
            COMMENT: "Unmatched alerts go to the provider.",
            "receiver": provider,
            "group_by": ["alertname", "cluster", "namespace"],
            "group_wait": "30s",
            "group_interval": "5m",
            "repeat_interval": "12h",
            "routes": routes,
        },
        "inhibit_rules": [{
            COMMENT: "A cluster that pushes nothing also stops its billing lines: report the cause only.",
            "source_matchers": [matcher("alertname", an.CLUSTER_NOT_REPORTING)],
            "target_matchers": [matcher("alertname", an.BILLING_DATA_GAP)],
            "equal": ["cluster"],
        }],
        "receivers": [receivers[name] for name in sorted(receivers)],
    }


HEADER = ("Alertmanager configuration rendered by gpudash: provider alerts to the provider, each tenant's alerts\n"
          "(matched by namespace) to the tenant. Receivers' integrations come from the model (alerts.receivers).")


def secret(model: Model) -> dict:
    """ACM's hub Alertmanager configuration: Secret ``alertmanager-config``, key ``alertmanager.yaml``."""
    text = dump_yaml(config(model), header=HEADER)
    return kube.obj("v1", "Secret", SECRET_NAME, SECRET_NAMESPACE, type="Opaque", stringData={SECRET_KEY: text})


def artifacts(model: Model) -> dict[str, dict]:
    """The plain configuration file; the ACM hub's Secret (:func:`secret`) is the acm target's."""
    return {layout.ALERTMANAGER: {COMMENT: HEADER, **config(model)}}

"""Delivery targets: the groups of rendered files a model asks for (``outputs.targets``, default all).

The rules, alerts, Alertmanager configuration, quotas and golden tests are always written (every deployment
needs them, and ``gpudash test`` runs on them); each target adds the files of one way to deliver them. A file
claimed by several targets (the plain dashboards, which file provisioning points at) is written when any of
them is chosen. Pure; no I/O.
"""
from __future__ import annotations

from gpudash import layout

_BOARDS = f"{layout.DASHBOARDS}/{layout.DASHBOARD_PREFIX}"  # the plain dashboards (dashboards/gpudash-*.json)

# target -> (what it delivers, the output path prefixes it claims)
TARGETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "files": ("plain Grafana dashboard JSON (dashboards/*.json, and dashboards/import/ with __inputs) for manual "
              "import or any Grafana", (_BOARDS, f"{layout.DASHBOARDS_IMPORT}/")),
    "prometheus-rule": ("PrometheusRule objects for a cluster's own Prometheus (rules/kubernetes, alerts/kubernetes)",
                        (f"{layout.RULES_KUBERNETES}/", f"{layout.ALERTS_KUBERNETES}/")),
    "acm": ("the ACM hub: MCO allowlist, Thanos Ruler rules and settings (mco/) and hub Grafana ConfigMaps "
            "(dashboards/acm/)", (f"{layout.MCO}/", f"{layout.DASHBOARDS_ACM}/")),
    "grafana-provisioning": ("self-managed Grafana: file provisioning (grafana/provisioning/, with the plain "
                             "dashboards it points at) and grafana/bootstrap.json for gpudash grafana-bootstrap",
                             (f"{layout.GRAFANA_PROVISIONING}/", layout.GRAFANA_BOOTSTRAP, _BOARDS)),
    "grafana-operator": ("grafana-operator v5 custom resources (grafana/operator/)", (f"{layout.GRAFANA_OPERATOR}/",)),
    "mixin": ("a jsonnet monitoring mixin of the same rules, alerts and dashboards (mixin/)", (f"{layout.MIXIN}/",)),
}
ALL = tuple(TARGETS)


def claimed_by(path: str) -> set[str]:
    """The targets that deliver ``path``; empty for the files every render writes."""
    return {name for name, (_, prefixes) in TARGETS.items() if path.startswith(prefixes)}


def wanted(path: str, targets) -> bool:
    """Whether a render with ``targets`` writes ``path``."""
    claims = claimed_by(path)
    return not claims or bool(claims & set(targets))

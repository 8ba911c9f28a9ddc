"""ACM Multi-Cluster Observability objects of the rules: the metrics allowlist, the Thanos Ruler rules ConfigMap and
the MultiClusterObservability settings (:mod:`gpudash.render.targets.acm.settings`), and the spoke tier's governance
Policy (:mod:`gpudash.render.targets.acm.spoke_tier`)."""
from __future__ import annotations

import json
from typing import Any, cast

from gpudash.base import kube, layout
from gpudash.base.yamlfmt import dump_yaml
from gpudash.model.types import Model
from gpudash.render.rules.format import Group, Rule, rule_file
from gpudash.render.targets.acm import settings, spoke_tier
from gpudash.render.targets.acm.settings import NAMESPACE

ALLOWLIST = "observability-metrics-custom-allowlist"
RULER = "thanos-ruler-custom-rules"


def collector_expr(expr: str) -> str:
    """An allowlist ``expr`` as the metrics-collector needs it.

    The MCO operator pastes each rule into the JSON flag ``--recordingrule={"name":"..","query":"<expr>"}``
    without escaping, so quotes, backslashes and newlines must already be JSON-escaped in the ConfigMap.
    """
    return json.dumps(expr)[1:-1]


def allowlist(spoke: Group, names: tuple[str, ...], matches: tuple[str, ...]) -> dict[str, Any]:
    """``names`` and ``matches``, the raw series the hub needs (``Content.hub_series``), plus the spoke rules as
    collector ``recording_rules``.

    A ConfigMap's data values are strings, so the YAML inside is content: the one serialiser (yamlfmt) writes it."""
    body: dict[str, object] = {}
    if names:
        body["names"] = sorted(set(names))
    body["matches"] = list(matches)
    recorded = cast("tuple[Rule, ...]", spoke.rules)  # the spoke group is rules.spoke.rules(): recording rules only
    body["recording_rules"] = [{"record": r.record, "expr": collector_expr(r.expr)} for r in recorded]
    text = dump_yaml(body, header="Spoke rules run by ACM's metrics-collector as instant queries at every push.")
    return kube.configmap(ALLOWLIST, NAMESPACE, {"metrics_list.yaml": text})


def ruler_rules(groups: tuple[Group, ...]) -> dict[str, Any]:
    """The hub's recording rules and alerts, as the Thanos Ruler's custom-rules ConfigMap."""
    text = dump_yaml(rule_file(groups), header="Hub rules evaluated by the ACM Thanos Ruler.")
    return kube.configmap(RULER, NAMESPACE, {"custom_rules.yaml": text})


def objects(model: Model, spoke: Group, hub: tuple[Group, ...], alert_groups: tuple[Group, ...],
            tier: tuple[Group, ...], hub_series: tuple[tuple[str, ...], tuple[str, ...]]) -> dict[str, object]:
    """The ACM hub's objects of the rules: allowlist (``hub_series``: ``Content.hub_series``), Thanos Ruler
    rules, MCO settings, and the spoke tier's Policy when ``tier`` holds its group."""
    return {
        layout.mco_configmap(ALLOWLIST): allowlist(spoke, *hub_series),
        layout.mco_configmap(RULER): ruler_rules((*hub, *alert_groups)),
        **settings.artifacts(model),
        **spoke_tier.artifacts(model, tier, NAMESPACE),
    }

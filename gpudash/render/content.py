"""The content of a render, built once: rule and alert groups, dashboards, and the files every render writes, plus
what a chosen target packages beyond them (the hub Grafana's dashboards, the mixin's probe).

Sloth's shape: model -> content (here) -> delivery targets (:mod:`gpudash.render.targets`, each packaging this content
one way, never building any) -> the writer. Pure; no I/O.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gpudash.base.deferred import Deferred
from gpudash.base.layout import ALERTMANAGER
from gpudash.model.types import Model
from gpudash.render import alerts, golden, grafana, overrides, quotas, rules, wiring
from gpudash.render import pruner_deployment as prune
from gpudash.render.grafana.tenant_board import Board
from gpudash.render.rules import hub, spoke
from gpudash.render.rules.format import Group


@dataclass(frozen=True)
class Content:
    spoke: Group  # the spoke recording rules (each cluster; the ACM metrics-collector on the hub path)
    tier: tuple[Group, ...]  # the spoke tier's group (billing.spoke_tier: policy), else empty
    hub: tuple[Group, ...]  # the hub recording rules
    alerts: tuple[Group, ...]  # the alert groups (hub, or a single cluster's Prometheus)
    provider: dict[str, dict]  # provider and CCSP dashboards by file stem, gpudash's own datasource
    tenants: dict[str, Board]  # tenant name -> its dashboard, proven isolated
    files: dict[str, object]  # what every render writes: rule and alert files, routing, quotas, tests, wiring
    hub_series: tuple[tuple[str, ...], tuple[str, ...]]  # raw series names and selectors the hub alerts read
    # what only some targets package, built when one of them is chosen (else empty):
    hub_provider: dict[str, dict]  # acm: the provider dashboards querying the hub Grafana's datasource
    hub_tenants: dict[str, Deferred]  # acm: tenant name -> its board querying the hub's datasource (proven, lazily)
    probe: overrides.Probe | None  # mixin: what depends on the sources, built from sentinels

    @property
    def alertmanager(self) -> dict:
        """The Alertmanager configuration (alertmanager.yml's data)."""
        return self.files[ALERTMANAGER]  # type: ignore[return-value]


PARTS = ("rules", "alerts", "grafana", "golden", "prune", "wiring")  # what build() reports, in order


def build(model: Model, step=lambda what: None, tests: Mapping[str, object] | None = None) -> Content:
    """``step(what)`` is called as each of :data:`PARTS` starts (the CLI's progress bar); ``tests``: the golden
    test files when made elsewhere (a render has forked workers emit them: gpudash.render.golden.orchestrate)."""
    step("rules")
    spoke_group, hub_groups, tier = spoke.group(model), hub.groups(model), rules.tier_groups(model)
    step("alerts")
    alert_groups = alerts.hub_groups(model)
    files: dict[str, object] = {**rules.files(spoke_group, hub_groups, tier), **alerts.files(model, alert_groups),
                                **quotas.objects(model)}
    step("grafana")
    grafana.prove_reports(model)
    provider, tenants = grafana.boards(model)
    step("golden")
    files.update(golden.artifacts(model) if tests is None else tests)
    step("prune")
    files.update(prune.artifacts(model))
    step("wiring")
    files.update(wiring.artifacts(model))
    chosen = model.outputs.targets
    hub_provider = grafana.provider_boards(model, acm=True) if "acm" in chosen else {}
    hub_tenants = {t.name: Deferred(grafana.hub_board, (model, t, tenants[t.name])) for t in model.tenants
                   } if "acm" in chosen else {}
    return Content(spoke_group, tier, hub_groups, alert_groups, provider, tenants, files,
                   (alerts.allowlist_names(model), alerts.allowlist_matches(model)), hub_provider, hub_tenants,
                   overrides.probe(model) if "mixin" in chosen else None)

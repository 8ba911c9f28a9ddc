"""The alert groups the hub evaluates, the raw series they need in the MCO allowlist, and the files they are written
in (their ``PrometheusRule`` is the prometheus-rule target's)."""
from __future__ import annotations

from gpudash.base import layout
from gpudash.model.types import Model
from gpudash.render.alerts import health, idle, integrity, pruner_effect, quotas, routing, tenant
from gpudash.render.alerts.integrity import rule_health
from gpudash.render.rules.format import rule_file


def hub_groups(model: Model) -> tuple:
    """Alert rule groups evaluated on the hub (and on a single cluster's Prometheus)."""
    groups = (tenant.group(model), idle.group(model), quotas.group(model), integrity.group(model),
              health.group(model), pruner_effect.group(model))
    return tuple(g for g in groups if g is not None)


def allowlist_names(model: Model) -> tuple[str, ...]:
    """Raw series the hub alerts need beyond the spoke recording rules (MCO allowlist ``names``).

    Everything else they read is either a gpudash spoke series or in ACM's default allowlist (``up``,
    ``kube_node_status_capacity``/``_allocatable``, ``kube_pod_container_resource_requests``,
    ``kube_resourcequota``): XID errors (one series per GPU) for the health alerts, the pruner's ineffective-stop
    gauge with a ``prune:`` section. The idle alert's power veto reads the spoke series
    ``namespace_pod:gpudash_gpu_power:max``, not raw power."""
    errors = health.error_vendor(model)
    return ((errors.metric(model.sources, errors.error_metric),) if errors and errors.error_metric else ()) \
        + pruner_effect.allowlist_names(model)


def allowlist_matches(model: Model) -> tuple[str, ...]:
    """Series selectors the hub alerts need (MCO allowlist ``matches``): the rule-health self-metrics."""
    return rule_health.allowlist_matches()


def tests(model: Model) -> dict[str, dict]:
    """promtool alert tests per family, each pointing at the plain alerts file."""
    files = {"tenant": tenant.tests(model), "idle": idle.tests(model), "quota": quotas.tests(model),
             "integrity": integrity.tests(model), "health": health.tests(model), "prune": pruner_effect.tests(model)}
    return {layout.alert_test(family): data for family, data in files.items() if data is not None}


def files(model: Model, groups: tuple) -> dict[str, dict]:
    """What every render writes: the alert rule file, the Alertmanager configuration and alert tests."""
    return {layout.ALERT_RULES: rule_file(groups), **routing.artifacts(model), **tests(model)}


def artifacts(model: Model) -> dict[str, dict]:
    """The alert files of ``model`` alone (tests)."""
    return files(model, hub_groups(model))

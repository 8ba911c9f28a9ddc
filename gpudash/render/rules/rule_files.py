"""The plain rule files of the recording rules (the ``PrometheusRule`` objects of a single cluster without ACM are the
prometheus-rule target's)."""
from __future__ import annotations

from gpudash.base import layout
from gpudash.model.types import Model
from gpudash.render.rules import hub, spoke, spoke_tier
from gpudash.render.rules.format import Group, rule_file


def tier_groups(model: Model) -> tuple[Group, ...]:
    """The spoke tier's group with ``billing.spoke_tier: policy``, else none."""
    return (spoke_tier.group(model),) if model.billing.tier else ()


def spoke_groups(model: Model) -> tuple[Group, ...]:
    """Every spoke group a single cluster runs: the tier's (if on), then ``gpudash-spoke``."""
    return (*tier_groups(model), spoke.group(model))


def files(spoke_group: Group, hub_groups: tuple[Group, ...], tier: tuple[Group, ...] = ()) -> dict[str, dict]:
    """The plain rule files (every render writes them); the spoke tier's group in its own file when on."""
    return {**({layout.SPOKE_TIER_RULES: rule_file(tier)} if tier else {}),
            layout.SPOKE_RULES: rule_file([spoke_group]), layout.HUB_RULES: rule_file(hub_groups)}


def at_push_interval(data: dict, model: Model) -> dict:
    """The spoke rule file ``data`` with each group evaluated every ``billing.mco_interval``, as ACM's
    metrics-collector runs the spoke rules at each push (and the golden spoke files evaluate them): every
    evaluation during an hour gives the same hourly figures, and the hub reads the live series for 1.5 push
    intervals, so a backfill gets the figures of the group's own ``billing.resolution`` interval for a fifth of
    the work (each hourly rule re-derives its hour at every evaluation). For backfills (the demo, e2e tests)."""
    return {**data, "groups": [{**g, "interval": f"{model.billing.mco_interval}s"} for g in data["groups"]]}


def artifacts(model: Model) -> dict[str, dict]:
    """The plain rule files of ``model`` alone (tests, the demo)."""
    return files(spoke.group(model), hub.groups(model), tier_groups(model))

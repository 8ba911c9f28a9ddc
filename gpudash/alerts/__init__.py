"""Alerts: tenant budgets and burn, idle GPUs, billing-data integrity, GPU health; Alertmanager routing."""
from __future__ import annotations

from gpudash.model.types import Model


def hub_groups(model: Model) -> tuple:
    """Alert rule groups evaluated on the hub (and on a single cluster's Prometheus)."""
    return ()


def allowlist_names(model: Model) -> tuple[str, ...]:
    """Raw series the hub alerts need beyond the spoke recording rules (MCO allowlist ``names``)."""
    return ()


def artifacts(model: Model) -> dict[str, dict]:
    return {}

"""The alert table of docs/alerts.md, generated from the alert definitions (a test keeps the doc in sync)."""
from __future__ import annotations

from gpudash.base import doctable
from gpudash.model import alert_names as an
from gpudash.model.types import Model
from gpudash.render.alerts import hub_groups

SOURCE = "gpudash.render.alerts.alert_table from the bundled example"
RECEIVERS = {an.TENANT: "the tenant (`tenants[].receiver`)", an.PROVIDER: "the provider (`alerts.provider_receiver`)"}


def rows(model: Model) -> list[dict]:
    """One row per alert name (rules sharing a name, e.g. by severity, are merged), in rule-file order."""
    merged: dict[str, dict] = {}
    for group in hub_groups(model):
        for rule in group.rules:
            row = merged.setdefault(rule.alert, {"alert": rule.alert, "group": group.name, "meaning": [],
                                                 "threshold": [], "severity": [], "receiver": RECEIVERS[rule.audience]})
            row["meaning"].append(rule.help)
            row["threshold"].append(rule.threshold)
            row["severity"].append(rule.severity)
    return [{**r, "meaning": " ".join(r["meaning"]), "threshold": "; ".join(r["threshold"]),
             "severity": " / ".join(r["severity"])} for r in merged.values()]


def table(model: Model) -> str:
    cells = [(f"`{r['alert']}`", doctable.cell(r["meaning"]), doctable.cell(r["threshold"]), r["severity"],
              r["receiver"]) for r in rows(model)]
    return doctable.block("alert-table", SOURCE, ("Alert", "What it means", "Default threshold and window",
                                                  "Severity", "Receiver"), cells)

"""Typed rule groups and their plain-data form (Prometheus rule-file YAML).

Every rule carries a ``help`` text saying what it means for billing; it becomes a YAML comment above the
rule in rule files. Every expression is parsed with promql-parser when the group is built
(:func:`gpudash.promql.lint.check`).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gpudash.base.yamlfmt import COMMENT
from gpudash.promql import build as q
from gpudash.promql.lint import check


@dataclass(frozen=True)
class Rule:
    record: str
    expr: str
    help: str
    labels: tuple[tuple[str, str], ...] = ()

    def __post_init__(self):
        q.metric_name(self.record)
        check(self.expr, self.record)

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {COMMENT: self.help, "record": self.record, "expr": self.expr}
        if self.labels:
            out["labels"] = dict(self.labels)
        return out


@dataclass(frozen=True)
class Alert:
    alert: str
    expr: str
    for_: int  # seconds
    severity: str
    annotations: tuple[tuple[str, str], ...]
    labels: tuple[tuple[str, str], ...] = ()

    def __post_init__(self):
        if self.severity not in ("critical", "warning", "info"):
            raise ValueError(f"{self.alert}: severity must be critical, warning or info")
        check(self.expr, self.alert)

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"alert": self.alert, "expr": self.expr}
        if self.for_:
            out["for"] = q.duration(self.for_)
        out["labels"] = {"severity": self.severity, **dict(self.labels)}
        out["annotations"] = dict(self.annotations)
        return out


@dataclass(frozen=True)
class Group:
    name: str
    interval: int  # seconds
    help: str
    rules: tuple[Rule | Alert, ...] = field(default=())

    def data(self) -> dict[str, Any]:
        return {
            COMMENT: self.help,
            "name": self.name,
            "interval": q.duration(self.interval),
            "rules": [r.data() for r in self.rules],
        }


def rule_file(groups: Iterable[Group]) -> dict[str, Any]:
    """A Prometheus rule file (the ``groups:`` document) for the given groups."""
    return {"groups": [g.data() for g in groups]}

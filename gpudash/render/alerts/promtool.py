"""promtool alert tests as plain data: tiny test groups that feed recorded (and raw) series directly.

Each family module builds its own tests from the model with plain arithmetic; this module only shapes them.
Inputs are sampled once per push interval P, like the hub sees them, and promtool evaluates every rule at every
P (it ignores group intervals), so a step is one push and ``for:`` durations are whole steps.
"""
from __future__ import annotations

import math

from gpudash.base import layout
from gpudash.model import alert_names as an
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.render.alerts.common import provider_dashboard_link, push, runbook_url


def _number(value: float) -> str:
    return repr(float(value)).removesuffix(".0") if float(value).is_integer() else repr(float(value))


def values(samples) -> str:
    """promtool's expanding notation for one sample per step (``None`` = no sample), run-length encoded."""
    out, i = [], 0
    while i < len(samples):
        j = i
        while j + 1 < len(samples) and samples[j + 1] == samples[i]:
            j += 1
        run = j - i + 1
        if samples[i] is None:
            out.append(f"_x{run}" if run > 1 else "_")
        else:
            out.append(f"{_number(samples[i])}x{run - 1}" if run > 1 else _number(samples[i]))
        i = j + 1
    return " ".join(out)


def series(metric: str, labels: dict, samples) -> dict:
    body = tuple((k, "=", v) for k, v in sorted(labels.items()))
    return {"series": q.selector(metric, *body), "values": values(samples)}


def steps(model: Model, seconds: int) -> int:
    """Steps (pushes) until a duration has passed: the first evaluation at or after it."""
    return math.ceil(seconds / push(model))


def eval_time(model: Model, step: int) -> str:
    return q.duration(step * push(model)) if step else "0s"


def alert(labels: dict, annotations: dict) -> dict:
    return {"exp_labels": dict(sorted(labels.items())), "exp_annotations": dict(sorted(annotations.items()))}


def provider_alert(model: Model, rules, name: str, labels: dict, description: str) -> dict:
    """The expected firing of provider alert ``name`` (one of ``rules``), with its rendered annotations."""
    summary = next(dict(r.annotations)["summary"] for r in rules if r.alert == name)
    return alert({**labels, an.AUDIENCE: an.PROVIDER},
                 {"summary": summary, "description": description, "runbook_url": runbook_url(model, name),
                  "dashboard_url": provider_dashboard_link(model)})


def order(expected: dict) -> tuple:
    """The sort key of expected alerts: their labels, so a test file lists them in a stable order."""
    return tuple(sorted(expected["exp_labels"].items()))


def case(model: Model, step: int, alertname: str, alerts=()) -> dict:
    return {"eval_time": eval_time(model, step), "alertname": alertname, "exp_alerts": list(alerts)}


def test_group(model: Model, name: str, input_series: list[dict], cases: list[dict]) -> dict:
    return {"name": name, "interval": q.duration(push(model)), "input_series": input_series,
            "alert_rule_test": cases}


def test_file(model: Model, groups: list[dict], help_text: str) -> dict:
    from gpudash.base.yamlfmt import COMMENT

    return {COMMENT: help_text, "rule_files": [layout.from_tests(layout.ALERT_RULES)],
            "evaluation_interval": q.duration(push(model)), "tests": groups}

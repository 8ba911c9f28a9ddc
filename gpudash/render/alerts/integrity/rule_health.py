"""Are gpudash's rule groups evaluating, and in time? They read the rule managers' self-metrics of the gpudash
groups, which gpudash's allowlist pushes to the hub (none is in ACM's default allowlist).
"""
from __future__ import annotations

from gpudash.model import alert_names as an
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt


def self_metric(metric: str) -> str:
    """A rule-manager self-metric of gpudash's rule groups."""
    return q.selector(metric, ("rule_group", "=~", an.GPUDASH_RULE_GROUP_REGEX))


def allowlist_matches() -> tuple[str, ...]:
    """MCO allowlist ``matches`` that push the rule-health self-metrics of gpudash's groups to the hub's Thanos
    (none is in ACM's default allowlist)."""
    return tuple(f'__name__="{m}",rule_group=~"{an.GPUDASH_RULE_GROUP_REGEX}"' for m in an.RULE_SELF_METRICS)


def rule_failures_for(model):
    return c.pushes(model, 3)


def rule_slow_for(model):
    return c.pushes(model, 3)


def _rule_failures_text(group, window, hold):
    return (f"Rule group {group} has had failed evaluations in every {window} window for {hold}: its billing "
            "series or alerts are missing or stale. The Ruler's (or Prometheus') log names the failing rules.")


def _rule_slow_text(group, seconds):
    return (f"The last evaluation of rule group {group} took {seconds} seconds, longer than the group's "
            "evaluation interval: evaluations are skipped and billing series get gaps.")


def rule_failures(model: Model):
    P2 = q.duration(c.pushes(model, 2))
    failures = q.agg("sum", ("cluster", "rule_group"),
                     f"increase({self_metric(an.RULE_EVALUATION_FAILURES)}[{P2}])")
    return c.provider_alert(
        model, an.RULE_FAILURES, f"{failures} > 0", rule_failures_for(model), "critical",
        summary="Evaluations of gpudash billing rules or alerts are failing.",
        description=_rule_failures_text(c.label("rule_group"), P2, q.duration(rule_failures_for(model))),
        help="A gpudash rule group (billing rules or alerts) fails to evaluate: billing series and alerts go"
             "\nmissing. Reads prometheus_rule_evaluation_failures_total of gpudash-* groups.",
        threshold=f"failures in {P2} windows; for {q.duration(rule_failures_for(model))}")


def rule_slow(model: Model):
    def latest(metric):
        return q.agg("max", ("cluster", "rule_group"), c.fresh(model, self_metric(metric)))

    slow = f"{latest(an.RULE_GROUP_LAST_DURATION)} > on (cluster, rule_group) {latest(an.RULE_GROUP_INTERVAL)}"
    return c.provider_alert(
        model, an.RULE_GROUP_SLOW, slow, rule_slow_for(model), "warning",
        summary="A gpudash rule group takes longer to evaluate than its interval.",
        description=_rule_slow_text(c.label("rule_group"), c.VALUE_INT),
        help="A gpudash rule group's last evaluation took longer than its interval: evaluations are skipped,"
             "\nand the hourly billing series get gaps.",
        threshold=f"last duration > interval; for {q.duration(rule_slow_for(model))}")


# --- promtool tests ----------------------------------------------------------------------------------------------

def rule_tests(model: Model) -> list[dict]:
    start = 4
    hold_fail = pt.steps(model, rule_failures_for(model))
    hold_slow = pt.steps(model, rule_slow_for(model))
    total = start + max(hold_fail, hold_slow) + 4
    P = c.push(model)
    billing = "/etc/thanos/rules/thanos-ruler-custom-rules/custom_rules.yaml;gpudash-hub-billing"
    alerts_group = "/etc/thanos/rules/thanos-ruler-custom-rules/custom_rules.yaml;gpudash-alerts-tenant"
    ccsp = billing.replace("billing", "ccsp")
    other = "/etc/thanos/rules/thanos-ruler-default-rules/default_rules.yaml;kubernetes-apps"
    counting = [0.0] * (start + 1) + [float(k) for k in range(1, total - start)]
    failures = [
        pt.series(an.RULE_EVALUATION_FAILURES, {"rule_group": billing, "job": "thanos-ruler"}, counting),
        pt.series(an.RULE_EVALUATION_FAILURES,
                  {"rule_group": alerts_group, "job": "observability-thanos-rule"}, counting),
        pt.series(an.RULE_EVALUATION_FAILURES, {"rule_group": other, "job": "thanos-ruler"},
                  [float(k) for k in range(total)]),
        pt.series(an.RULE_EVALUATION_FAILURES, {"rule_group": ccsp, "job": "thanos-ruler"}, [0.0] * total),
    ]
    first_failing = start + 1
    window, hold = q.duration(c.pushes(model, 2)), q.duration(rule_failures_for(model))
    expected = sorted([pt.provider_alert(model, (rule_failures(model),), an.RULE_FAILURES,
                                         {"rule_group": g, "severity": "critical"},
                                         _rule_failures_text(g, window, hold)) for g in (billing, alerts_group)],
                      key=pt.order)
    fail_group = pt.test_group(model, "gpudash rule groups fail to evaluate", failures, [
        pt.case(model, start, an.RULE_FAILURES),
        pt.case(model, first_failing + hold_fail - 1, an.RULE_FAILURES),
        pt.case(model, first_failing + hold_fail, an.RULE_FAILURES, expected),
    ])
    slow_seconds = 2 * P
    durations = [
        pt.series(an.RULE_GROUP_LAST_DURATION, {"rule_group": billing},
                  [3.5] * start + [slow_seconds] * (total - start)),
        pt.series(an.RULE_GROUP_INTERVAL, {"rule_group": billing}, [P] * total),
        pt.series(an.RULE_GROUP_LAST_DURATION, {"rule_group": other}, [slow_seconds] * total),
        pt.series(an.RULE_GROUP_INTERVAL, {"rule_group": other}, [P] * total),
    ]
    slow = pt.provider_alert(model, (rule_slow(model),), an.RULE_GROUP_SLOW,
                             {"rule_group": billing, "severity": "warning"},
                             _rule_slow_text(billing, f"{slow_seconds:.0f}"))
    slow_group = pt.test_group(model, "a gpudash rule group slower than its interval", durations, [
        pt.case(model, start + hold_slow - 1, an.RULE_GROUP_SLOW),
        pt.case(model, start + hold_slow, an.RULE_GROUP_SLOW, [slow]),
    ])
    return [fail_group, slow_group]

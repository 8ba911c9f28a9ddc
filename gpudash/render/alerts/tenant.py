"""Tenant alerts: budget thresholds crossed this period, projected overrun, sudden burn-rate jumps.

One rule per alert serves every tenant: budgets and thresholds are the hub's model series
(``cluster_namespace:gpudash_budget:model``, ``...:gpudash_budget_threshold:model``), the same on every model cluster,
so adding a tenant changes only those constants. A tenant's figures are summed over clusters (its budget is the max
over clusters, never a sum); each alert is then written once per model cluster of the tenant, with ``cluster``, so
that a tenant reading ``ALERTS`` through ACM's rbac-query-proxy (which adds a cluster matcher to every selector)
sees it. Alertmanager groups the copies into one notification (routing.py: tenant routes group by namespace).
"""
from __future__ import annotations

from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model.tenants import threshold_label
from gpudash.model.types import Model, Tenant
from gpudash.promql import build as q
from gpudash.promql.read import HOUR
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt

PCT_THRESHOLD = "{{ $labels.threshold | humanizePercentage }}"
WHO = ("namespace", "tenant")


def _ptd(model):
    return q.agg("sum", WHO, c.fresh(model, names.TENANT_COST_PTD))


def _budget(model):
    return q.agg("max", WHO, c.fresh(model, names.TENANT_BUDGET))


def _on_clusters(model: Model, expr: str, keep: tuple[str, ...] = ()) -> str:
    """``expr`` (one series per namespace) once per model cluster of the tenant, with ``cluster`` and ``tenant``
    from the tenant info; ``keep`` are further labels of ``expr`` to keep."""
    return f"({expr}) + on (namespace) group_right {q.labels(keep)} ({c.fresh(model, names.TENANT_INFO)} * 0)"


def _highest_crossed(model: Model) -> str:
    """Per tenant, the highest ``alert_at`` threshold its period-to-date cost has reached (value: the threshold).

    A budget of 0 makes every threshold reached as soon as anything is spent (the ratio is +Inf; 0/0 is NaN,
    which reaches nothing)."""
    ratio = f"({_ptd(model)} / on (namespace) group_left () {_budget(model)})"
    thresholds = q.agg("max", (*WHO, "threshold"), c.fresh(model, names.TENANT_THRESHOLD))
    crossed = f"({thresholds} <= on (namespace) group_left () {ratio})"
    return f"({crossed} == on (namespace) group_left () {q.agg('max', ('namespace',), crossed)})"


def _spent_at_threshold(model: Model, band: str) -> str:
    """Period-to-date cost (value) with the labels of the highest reached threshold in ``band`` (``< 1`` or
    ``>= 1``), on each model cluster: cluster, namespace, tenant, threshold."""
    spent = f"{_ptd(model)} + on (namespace) group_right () (({_highest_crossed(model)} {band}) * 0)"
    return _on_clusters(model, spent, ("threshold",))


def _budget_text(model: Model) -> str:
    return c.query_value(model, names.TENANT_BUDGET, ("namespace",), " of ", f" {model.currency}")


def _spent_description(model, tenant, namespace, spent, pct, budget_part, exhausted: bool) -> str:
    cur = model.currency
    text = (f"Tenant {tenant} (namespace {namespace}) has spent {spent} {cur} on GPUs so far in this billing "
            f"period: at least {pct} of its budget{budget_part}.")
    if exhausted:
        text += " GPU time beyond the budget is still billed."
    return text


def _projection_description(model, tenant, namespace, projected, budget_part) -> str:
    return (f"At its average burn rate over the last {q.duration(model.billing.burn_rate_window)}, tenant {tenant} "
            f"(namespace {namespace}) will have spent {projected} {model.currency} on GPUs by the end of the "
            f"billing period, more than its budget{budget_part}.")


def _burn_description(model, tenant, namespace, rate, average_part) -> str:
    window = q.duration(model.billing.burn_rate_window)
    return (f"Tenant {tenant} (namespace {namespace}) now spends {rate} {model.currency} per hour on GPUs, at least "
            f"{model.alerts.burn_jump_factor:g} times its average over the last {window}{average_part}.")


def _average_text(model: Model) -> str:
    return c.query_value(model, names.TENANT_COST_RATE_AVG, ("namespace",), " (", f" {model.currency} per hour)",
                         agg="sum")


def threshold_for(model: Model) -> int:
    """The period-to-date cost carries a burn-rate estimate for the last one to two hours: a threshold must hold
    for three pushes before it is announced."""
    return c.pushes(model, 3)


def projection_for(model: Model) -> int:
    """Projections extrapolate a short window over weeks: they must hold for an hour (like disk-fill forecasts)."""
    return max(HOUR, c.pushes(model, 3))


def burn_for(model: Model) -> int:
    return c.pushes(model, 1)


def alerts(model: Model) -> tuple:
    tn, ns = c.label("tenant"), c.label("namespace")
    budget_part = _budget_text(model)
    window = q.duration(model.billing.burn_rate_window)
    factor = model.alerts.burn_jump_factor
    rate = q.agg("sum", ("namespace",), c.fresh(model, names.NAMESPACE_COST_RATE))
    average = q.agg("sum", ("namespace",), c.fresh(model, names.TENANT_COST_RATE_AVG))
    projected = q.agg("sum", WHO, c.fresh(model, names.TENANT_COST_PROJECTED))
    over_budget = f"({_ptd(model)} >= on (namespace) group_left () {_budget(model)})"
    return (
        c.tenant_alert(
            model, an.BUDGET_THRESHOLD, _spent_at_threshold(model, "< 1"), threshold_for(model), "warning",
            summary="A tenant has spent a set share of its GPU budget for this billing period.",
            description=_spent_description(model, tn, ns, c.VALUE_MONEY, PCT_THRESHOLD, budget_part, False),
            help="The tenant's period-to-date GPU cost reached one of its alert_at fractions of the budget (below"
                 "\n100%). Only the highest fraction reached fires; the value is the cost so far, in "
                 f"{model.currency}.",
            threshold="period-to-date cost >= each `alert_at` fraction below 1 x budget (highest only); "
                      f"for {q.duration(threshold_for(model))}"),
        c.tenant_alert(
            model, an.BUDGET_EXHAUSTED, _spent_at_threshold(model, ">= 1"), threshold_for(model), "critical",
            summary="A tenant has used up its GPU budget for this billing period.",
            description=_spent_description(model, tn, ns, c.VALUE_MONEY, PCT_THRESHOLD, budget_part, True),
            help="The tenant's period-to-date GPU cost reached an alert_at fraction of 100% or more of the budget."
                 "\nBilling goes on: gpudash alerts, it never stops workloads.",
            threshold="period-to-date cost >= each `alert_at` fraction of 1 or more x budget (highest only); "
                      f"for {q.duration(threshold_for(model))}"),
        c.tenant_alert(
            model, an.BUDGET_PROJECTED_OVERRUN,
            _on_clusters(model, f"({projected} > on (namespace) group_left () {_budget(model)}) "
                                f"unless on (namespace) {over_budget}"),
            projection_for(model), "warning",
            summary="A tenant is on course to exceed its GPU budget by the end of the billing period.",
            description=_projection_description(model, tn, ns, c.VALUE_MONEY, budget_part),
            help="Period-to-date cost plus the average burn rate over billing.burn_rate_window for the rest of the"
                 "\nperiod exceeds the budget, while the budget is not yet spent (then GPUBudgetExhausted speaks).",
            threshold=f"projection > budget (burn-rate window {window}); for {q.duration(projection_for(model))}"),
        c.tenant_alert(
            model, an.BURN_RATE_JUMP,
            _on_clusters(model, f"({rate} > 0) >= on (namespace) ({factor!r} * {average})"),
            burn_for(model), "info",
            summary="A tenant's GPU spending rate jumped well above its recent average.",
            description=_burn_description(model, tn, ns, c.VALUE_MONEY, _average_text(model)),
            help="The tenant's cost per hour right now is at least alerts.burn_jump_factor times its average over"
                 "\nbilling.burn_rate_window (the average includes the jump, so a step from r0 to r1 fires for the"
                 "\nfirst W x (r1 - f r0) / (f (r1 - r0)) of the window). Starting from idle counts as a jump.",
            threshold=f"cost per hour >= {factor:g} x its {window} average; for {q.duration(burn_for(model))}"),
    )


def group(model: Model):
    return c.group(an.GROUP_TENANT, model, "Tenant budgets and burn: what each tenant is spending on GPUs this"
                   "\nbilling period, against its budget. Routed to the tenant's receiver.", alerts(model))


# --- promtool tests ----------------------------------------------------------------------------------------------

def _test_budget(model: Model) -> float:
    """A positive budget to test with: the first tenant's, or 1000 when it is 0."""
    return model.tenants[0].budget or 1000.0


def _who(t: Tenant) -> dict:
    return {"namespace": t.namespace, "tenant": t.name}


def _on_each(model: Model, metric: str, labels: dict, samples, share: bool = False) -> list[dict]:
    """``metric`` on every model cluster: the same ``samples`` (a constant), or, with ``share``, an equal share of
    them each (a per-cluster figure whose sum over clusters is ``samples``)."""
    n = len(model.clusters)
    return [pt.series(metric, {**labels, "cluster": cl}, [v / n for v in samples] if share else samples)
            for cl in model.clusters]


def _fired(model: Model, t: Tenant, severity: str, annotations: dict, **extra) -> list[dict]:
    """The alert as it fires: once per model cluster."""
    return [pt.alert({**_who(t), "cluster": cl, "severity": severity, an.AUDIENCE: an.TENANT, **extra}, annotations)
            for cl in model.clusters]


def _annotations(model: Model, t: Tenant, alertname: str, summary: str, description: str) -> dict:
    return {"summary": summary, "description": description, "runbook_url": c.runbook_url(model, alertname),
            "dashboard_url": c.tenant_dashboard_link(model, t.name)}


def _summary(model: Model, alertname: str) -> str:
    return next(dict(a.annotations)["summary"] for a in alerts(model) if a.alert == alertname)


def _threshold_test(model: Model) -> dict:
    """PTD steps through every alert_at band of the first tenant; only the highest reached fires, with the
    severity of its band. Thresholds below and at/above 1 are added when the tenant has none."""
    t = model.tenants[0]
    budget = _test_budget(model)
    thresholds = list(t.alert_at)
    if thresholds[0] >= 1:
        thresholds.insert(0, thresholds[0] / 2)
    if thresholds[-1] < 1:
        thresholds.append(1.0)
    hold = pt.steps(model, threshold_for(model))
    phase = hold + 2
    between = [(a + b) / 2 for a, b in zip(thresholds, thresholds[1:], strict=False)]
    levels = [thresholds[0] / 2, *between, thresholds[-1] * 1.1]
    spent = [level * budget for level in levels for _ in range(phase)]
    total = len(spent) + 1
    spent.append(spent[-1])
    inputs = [
        *_on_each(model, names.TENANT_COST_PTD, _who(t), spent, share=True),
        *_on_each(model, names.TENANT_BUDGET, _who(t), [budget] * total),
        *_on_each(model, names.TENANT_INFO, _who(t), [1] * total),
        *(s for a in thresholds
          for s in _on_each(model, names.TENANT_THRESHOLD, {**_who(t), "threshold": threshold_label(a)}, [a] * total)),
    ]
    cases = [pt.case(model, hold, an.BUDGET_THRESHOLD), pt.case(model, hold, an.BUDGET_EXHAUSTED)]
    for k, a in enumerate(thresholds, start=1):
        start = k * phase
        name, other = an.BUDGET_THRESHOLD, an.BUDGET_EXHAUSTED
        if a >= 1:
            name, other = other, name
        amount = levels[k] * budget
        description = _spent_description(model, t.name, t.namespace, f"{amount:.2f}", c.percent(a),
                                         f" of {budget:.2f} {model.currency}", a >= 1)
        fired = _fired(model, t, "warning" if a < 1 else "critical",
                       _annotations(model, t, name, _summary(model, name), description), threshold=threshold_label(a))
        cases += [
            pt.case(model, start + hold - 1, name),  # the new band is pending; the lower band has resolved
            pt.case(model, start + hold - 1, other),
            pt.case(model, start + hold, name, fired),
            pt.case(model, start + hold, other),
        ]
    return pt.test_group(model, "budget thresholds: the highest reached fires, by band", inputs, cases)


def _projection_test(model: Model) -> dict:
    t = model.tenants[0]
    budget = _test_budget(model)
    hold = pt.steps(model, projection_for(model))
    phase = hold + 2
    plan = [(0.8, 0.3), (1.25, 0.5), (1.3, 1.05)]  # (projection, period-to-date) as fractions of the budget
    projection = [p * budget for p, _ in plan for _ in range(phase)]
    spent = [s * budget for _, s in plan for _ in range(phase)]
    total = len(spent)
    inputs = [*_on_each(model, names.TENANT_COST_PROJECTED, _who(t), projection, share=True),
              *_on_each(model, names.TENANT_COST_PTD, _who(t), spent, share=True),
              *_on_each(model, names.TENANT_BUDGET, _who(t), [budget] * total),
              *_on_each(model, names.TENANT_INFO, _who(t), [1] * total)]
    description = _projection_description(model, t.name, t.namespace, f"{1.25 * budget:.2f}",
                                          f" of {budget:.2f} {model.currency}")
    fired = _fired(model, t, "warning", _annotations(model, t, an.BUDGET_PROJECTED_OVERRUN,
                                                     _summary(model, an.BUDGET_PROJECTED_OVERRUN), description))
    cases = [
        pt.case(model, phase - 1, an.BUDGET_PROJECTED_OVERRUN),  # projection within budget
        pt.case(model, phase + hold - 1, an.BUDGET_PROJECTED_OVERRUN),  # over budget, still pending
        pt.case(model, phase + hold, an.BUDGET_PROJECTED_OVERRUN, fired),
        pt.case(model, 2 * phase, an.BUDGET_PROJECTED_OVERRUN),  # budget already spent: GPUBudgetExhausted's job
    ]
    return pt.test_group(model, "projected overrun: over budget at the period end, not yet spent", inputs, cases)


def _burn_test(model: Model) -> dict:
    t = model.tenants[0]
    factor = model.alerts.burn_jump_factor
    # the hourly rate that spends the budget in a 30-day month (at least 1, so a tiny budget still tests a jump)
    base = max(round(_test_budget(model) / 720, 2), 1.0)
    hold = pt.steps(model, burn_for(model))
    phase = hold + 2
    jumped = base * factor * 1.5
    # idle; steady; jumped above factor x the average; the average caught up with the new rate
    plan = [(0.0, 0.0), (base, base), (jumped, base * 1.2), (jumped, jumped)]
    rate = [r for r, _ in plan for _ in range(phase)]
    average = [a for _, a in plan for _ in range(phase)]
    total = len(rate)
    inputs = [*_on_each(model, names.NAMESPACE_COST_RATE, {"namespace": t.namespace}, rate, share=True),
              *_on_each(model, names.TENANT_COST_RATE_AVG, {"namespace": t.namespace}, average, share=True),
              *_on_each(model, names.TENANT_INFO, _who(t), [1] * total)]
    jump, avg = plan[2]
    description = _burn_description(model, t.name, t.namespace, f"{jump:.2f}",
                                    f" ({avg:.2f} {model.currency} per hour)")
    fired = _fired(model, t, "info",
                   _annotations(model, t, an.BURN_RATE_JUMP, _summary(model, an.BURN_RATE_JUMP), description))
    cases = [
        pt.case(model, phase - 1, an.BURN_RATE_JUMP),  # idle: 0 >= factor x 0, but nothing is spent
        pt.case(model, 2 * phase - 1, an.BURN_RATE_JUMP),  # steady
        pt.case(model, 2 * phase + hold - 1, an.BURN_RATE_JUMP),  # jumped, pending
        pt.case(model, 2 * phase + hold, an.BURN_RATE_JUMP, fired),
        pt.case(model, 3 * phase + hold, an.BURN_RATE_JUMP),  # the average caught up
    ]
    return pt.test_group(model, "burn-rate jump against the window average", inputs, cases)


def tests(model: Model) -> dict:
    return pt.test_file(model, [_threshold_test(model), _projection_test(model), _burn_test(model)],
                        "Tenant budget and burn alerts, fed the hub's recorded series directly.")

"""Hub rules: prices, budgets, hourly billing, burn rates, period-to-date and CCSP over what spokes pushed.

They run in the ACM hub's Thanos Ruler (ConfigMap ``thanos-ruler-custom-rules``), or on the same Prometheus
as the spoke rules for a single cluster. Tenant-visible series keep ``namespace``, which the hub's
rbac-query-proxy (or prom-label-proxy on a single cluster) uses to confine each tenant.
"""
from __future__ import annotations

from gpudash.model.pricing import skus
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.promql import calendar
from gpudash.rules import names
from gpudash.rules.format import Group, Rule

BILLING_LINE = ("cluster", "namespace", "gpu_class", "resource")


def _model_rules(model: Model) -> tuple[Rule, ...]:
    """Prices and budgets as tiny constant series, one rule per row, joined by label elsewhere."""
    rules = [
        Rule(names.SKU_PRICE, f"vector({s.price_per_hour!r})",
             f"Price per hour of {s.resource} on {s.product} (class {s.gpu_class}).",
             (("gpu_class", s.gpu_class), ("ksm_resource", s.ksm_resource), ("product", s.product),
              ("resource", s.resource)))
        for s in skus(model)
    ]
    for t in model.tenants:
        who = (("namespace", t.namespace), ("tenant", t.name))
        rules.append(Rule(names.TENANT_INFO, "vector(1)", f"Tenant {t.name} is namespace {t.namespace}.", who))
        rules.append(Rule(names.TENANT_BUDGET, f"vector({t.budget!r})",
                          f"Budget of {t.name} per billing period, in {model.currency}.", who))
        rules += [Rule(names.TENANT_THRESHOLD, f"vector({a!r})",
                       f"Alert when {t.name} has spent {a:.0%} of its budget.", (*who, ("threshold", f"{a:g}")))
                  for a in t.alert_at]
    return tuple(rules)


def _priced(expr: str, value: str) -> str:
    """Join spoke series (labels product, resource in kube-state-metrics form) with the price table:
    ``resource`` becomes the billed Kubernetes resource and ``gpu_class`` is added. ``value`` is
    ``price`` (multiply by the price) or ``unit`` (keep the quantity)."""
    table = names.SKU_PRICE if value == "price" else f"({names.SKU_PRICE} * 0 + 1)"
    keyed = q.label_replace(expr, "ksm_resource", "$1", "resource", "(.*)")
    return f"{keyed} * on (product, ksm_resource) group_left (gpu_class, resource) {table}"


def _this_hours_push(series: str) -> str:
    """The figures of the hour before this one: every row of the hourly spoke ``series`` (its sentinel row
    aside), each from its own pushes made during this clock hour."""
    return calendar.pushed_this_hour(q.selector(series, (names.SENTINEL_LABEL, "=", "")))


def _ran_this_hour(series: str) -> str:
    """1 per cluster whose hourly rule ``series`` ran in at least one push this hour (its sentinel arrived)."""
    return q.agg("max", ("cluster",),
                 calendar.pushed_this_hour(q.selector(series, (names.SENTINEL_LABEL, "=", "1"))))


def _coverage(model: Model) -> str:
    """Steps observed / steps per hour, for clusters whose hourly rules all ran this hour; 0 for a cluster that
    pushed this hour (its heartbeat arrived) while an hourly rule failed in every push."""
    steps = 3600 // model.billing.resolution
    observed = q.agg("max", ("cluster",), calendar.pushed_this_hour(names.STEPS_OBSERVED))
    ran = " and on (cluster) ".join(_ran_this_hour(s) for s in (names.HOURLY_GPU_HOURS, names.NODE_ACTIVE_GPUS_MAX))
    pushed = q.agg("max", ("cluster",), calendar.pushed_this_hour(names.BILLED_HOUR))
    return f"({observed} / {steps} and on (cluster) {ran}) or on (cluster) ({pushed} * 0)"


def _billing_rules(model: Model) -> tuple[Rule, ...]:
    hourly = _this_hours_push(names.HOURLY_GPU_HOURS)
    current = f"last_over_time({names.POD_ALLOCATED}[{q.duration(model.billing.mco_interval * 3 // 2)}])"
    pod_keep = ("cluster", "namespace", "pod", "workload", "workload_type")
    window, interval = model.billing.burn_rate_window, model.billing.mco_interval
    unpriced_keys = q.label_replace(names.SKU_PRICE, "resource", "$1", "ksm_resource", "(.*)")
    tenants = f"on (namespace) group_left (tenant) {names.TENANT_INFO}"
    period_to_date = calendar.period_to_date(f"last_over_time({names.TENANT_HOUR_COST}[1h] offset 1ms)",
                                             names.TENANT_COST_RATE, ("namespace",))
    return (
        Rule(names.HOUR_GPU_HOURS, q.agg("sum", BILLING_LINE, _priced(hourly, "unit")),
             "GPU-hours of the last complete clock hour per billing line (cluster, tenant namespace, class,"
             "\nbilled resource). Hour H is read at H+2h with last_over_time(...[1h] offset 1ms)."),
        Rule(names.HOUR_COST, q.agg("sum", BILLING_LINE, _priced(hourly, "price")),
             f"Cost in {model.currency} of the last complete clock hour per billing line: what is invoiced."),
        Rule(names.UNPRICED_GPU_HOURS,
             q.agg("sum", ("cluster", "namespace", "product", "resource"),
                   f"{hourly} unless on (product, resource) {unpriced_keys}"),
             "GPU-hours of the last hour on products or resources the model has no price for: never silently"
             "\nfree; alerted and shown to the provider until the model prices them."),
        Rule(names.BILLING_COVERAGE, _coverage(model),
             "Share of the last complete clock hour the cluster's billed figures cover (1: every spoke step;"
             "\n0: an hourly rule failed in every push, so the hour is missing). Below 1 is under-billing."),
        Rule(names.TENANT_HOUR_COST, q.agg("sum", ("namespace",), names.HOUR_COST),
             "Cost of the last complete clock hour per namespace, all clusters: the input of period-to-date."),
        Rule(names.CLASS_ALLOCATED, q.agg("sum", BILLING_LINE, _priced(current, "unit")),
             "GPUs allocated now per billing line (latest push)."),
        Rule(names.POD_COST_RATE, q.agg("sum", pod_keep, _priced(current, "price")),
             f"Burn rate in {model.currency}/hour of each pod right now."),
        Rule(names.WORKLOAD_COST_RATE, q.agg("sum", ("cluster", "namespace", "workload", "workload_type"),
                                             names.POD_COST_RATE),
             f"Burn rate in {model.currency}/hour of each workload (Deployment, StatefulSet, Job, ...) right now."),
        Rule(names.NAMESPACE_COST_RATE, q.agg("sum", ("cluster", "namespace"), names.POD_COST_RATE),
             f"Burn rate in {model.currency}/hour of each namespace per cluster right now."),
        Rule(names.TENANT_COST_RATE, q.agg("sum", ("namespace",), names.NAMESPACE_COST_RATE),
             f"Burn rate in {model.currency}/hour of each namespace, all clusters."),
        Rule(names.TENANT_COST_RATE_AVG,
             f"sum_over_time(last_over_time({names.TENANT_COST_RATE}[{q.duration(interval)}])"
             f"[{q.duration(window - 0.001)}:{q.duration(interval)}]) * {interval} / {window}",
             f"Average burn rate over billing.burn_rate_window ({q.duration(window)}), sampled every push"
             "\ninterval; time without GPUs counts as zero. Drives the end-of-period projection."),
        Rule(names.TENANT_COST_PTD, f"({period_to_date} * {tenants}) or ({names.TENANT_INFO} * 0)",
             f"Cost in {model.currency} of this billing period (UTC month) so far: exact to the hour before"
             "\nlast, the current burn rate for the rest. Budgets and alerts compare against it."),
        Rule(names.TENANT_COST_PROJECTED,
             f"({names.TENANT_COST_PTD} + on (namespace) group_left () "
             f"({names.TENANT_COST_RATE_AVG} * scalar({calendar.UNTIL_MONTH_END}) / 3600)) or {names.TENANT_COST_PTD}",
             "Projected cost at the end of the period: period-to-date plus the average burn rate for the"
             "\ntime left."),
    )


def _ccsp_rules() -> tuple[Rule, ...]:
    return (
        Rule(names.CCSP_NODE_GPUS, q.agg("max", ("cluster", "node"), _this_hours_push(names.NODE_ACTIVE_GPUS_MAX)),
             "CCSP: most GPUs active at once on each node during the last complete clock hour."),
        Rule(names.CCSP_ACTIVE_NODES, f"count by (cluster) ({names.CCSP_NODE_GPUS} >= 1)",
             "CCSP: worker nodes with at least one active GPU during the last complete clock hour."),
        Rule(names.CCSP_ACTIVE_GPUS, f"sum by (cluster) ({names.CCSP_NODE_GPUS})",
             "CCSP: fleet total of the per-node hourly maxima for the last complete clock hour."),
    )


def groups(model: Model) -> tuple[Group, ...]:
    interval = model.billing.mco_interval
    return (
        Group("gpudash-hub-model", interval, "Model constants: prices per SKU, tenants, budgets, thresholds.",
              _model_rules(model)),
        Group("gpudash-hub-billing", interval, "Billing: hourly GPU-hours and cost, burn rates, period-to-date.",
              _billing_rules(model)),
        Group("gpudash-hub-ccsp", interval, "CCSP: hourly active GPUs per node, active nodes, fleet total.",
              _ccsp_rules()),
    )

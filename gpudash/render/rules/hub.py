"""Hub rules: prices, budgets, hourly billing, burn rates, period-to-date and CCSP over what spokes pushed.

They run in the ACM hub's Thanos Ruler (ConfigMap ``thanos-ruler-custom-rules``), or on the same Prometheus
as the spoke rules for a single cluster. Tenant-visible series keep ``namespace``, which the hub's
rbac-query-proxy (or prom-label-proxy on a single cluster) uses to confine each tenant, and every hub series
carries ``cluster``: the proxy adds a cluster matcher to every selector (stolostron/multicluster-observability-operator
``proxy/pkg/rewrite/rewrite_cluster.go``), so a cluster-less series would be invisible to tenants and readable by a
user without any access (``cluster=""``).
"""
from __future__ import annotations

import re

from gpudash.base.errors import GenerationError
from gpudash.model import series as names
from gpudash.model.pricing import skus
from gpudash.model.tenants import threshold_label
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.promql import calendar, read
from gpudash.render.rules import idle
from gpudash.render.rules.format import Group, Rule

ROWS_PER_RULE = 100  # tenant rows per table rule: short expressions, ~80 bytes per tenant
_ROW = "([^ ]+) ([^ ]+) ([^ ]*)"  # the TENANT_ROWS row label: "<namespace> <tenant> <alert_at,...>"


def tenant_row(t) -> str:
    """One tenant as a TENANT_ROWS row label (namespaces and tenant names are DNS labels: no spaces)."""
    return f"{t.namespace} {t.name} {','.join(threshold_label(a) for a in t.alert_at)}"


def _model_table(model: Model) -> tuple[Rule, ...]:
    """Prices and the tenant table, once, on the reserved cluster ``names.MODEL_CLUSTER``."""
    home = (("cluster", names.MODEL_CLUSTER),)
    rules = [
        Rule(names.SKU_PRICE, f"vector({s.price_per_hour!r})",
             f"Price per hour of {s.resource} on {s.product} (class {s.gpu_class}).",
             (*home, ("gpu_class", s.gpu_class), ("ksm_resource", s.ksm_resource), ("product", s.product),
              ("resource", s.resource)))
        for s in skus(model)
    ]
    tenants = model.tenants
    for i in range(0, len(tenants), ROWS_PER_RULE):
        chunk = tenants[i:i + ROWS_PER_RULE]
        rows = " or ".join(q.const_series(t.budget, row=tenant_row(t)) for t in chunk)
        rules.append(Rule(names.TENANT_ROWS, rows, f"Tenants {chunk[0].name} to {chunk[-1].name}: budget per "
                          f"period ({model.currency}), row \"<namespace> <tenant> <alert_at>\".",
                          (*home, ("part", str(i // ROWS_PER_RULE)))))
    return tuple(rules)


def _decoded(selector: str) -> str:
    """TENANT_ROWS series as (cluster, namespace, tenant) series, value the budget."""
    ns = q.label_replace(selector, "namespace", "$1", "row", _ROW)
    return f"max without (row, part) ({q.label_replace(ns, 'tenant', '$2', 'row', _ROW)})"


def threshold_matcher(a: float) -> str:
    """A row matcher for the tenants whose alert_at lists ``a``: ``a`` right after the row's last space or a comma
    (only the alert_at field holds dots or commas; names and namespaces are DNS labels), followed by a comma or the
    end. No ``[^ ]`` class: Prometheus 3 builds a regex matcher for it in about 3 ms, and a rule's expression is
    parsed again at every evaluation (prometheus/prometheus rules/recording.go ``Eval`` queries
    ``rule.vector.String()``), so eight such rules cost the hub 22 ms per evaluation."""
    return f".*[ ,]{q.regex_alternation([threshold_label(a)])}(,.*)?"


def _model_rules(model: Model) -> tuple[Rule, ...]:
    """The model table, decoded onto each model cluster (the rule's ``cluster`` label replaces the table's):
    O(clusters x distinct thresholds) rules, whatever the number of tenants."""
    table = q.selector(names.TENANT_ROWS, ("cluster", "=", names.MODEL_CLUSTER))
    rules = list(_model_table(model))
    thresholds = sorted({a for t in model.tenants for a in t.alert_at})
    for c in model.clusters:
        rules.append(Rule(names.TENANT_BUDGET, _decoded(table),
                          f"Budget of each tenant per billing period, in {model.currency}, on cluster {c}.",
                          (("cluster", c),)))
        for a in thresholds:
            having = q.selector(names.TENANT_ROWS, ("cluster", "=", names.MODEL_CLUSTER),
                                ("row", "=~", threshold_matcher(a)))
            rules.append(Rule(names.TENANT_THRESHOLD, f"{_decoded(having)} * 0 + {a!r}",
                              f"Alert when a tenant has spent {a:.0%} of its budget (tenants whose alert_at has it)"
                              f", on cluster {c}.", (("cluster", c), ("threshold", threshold_label(a)))))
    for c in model.clusters if model.energy.metered else ():
        rules.append(Rule(names.ENERGY_PRICE, f"vector({model.energy.price(c)!r})",
                          f"Price of one kWh of GPU energy in {model.currency} on cluster {c}.", (("cluster", c),)))
    rules.append(Rule(names.TENANT_INFO, f"{names.TENANT_BUDGET} * 0 + 1",
                      "1 per tenant (labels namespace, tenant) on every model cluster."))
    return tuple(rules)


def check_model_cluster(model: Model) -> None:
    """No managed cluster name, read as the proxy's regex, may match the reserved table cluster."""
    for c in model.clusters:
        if re.fullmatch(c, names.MODEL_CLUSTER):
            raise GenerationError(f"cluster {c!r} would match gpudash's reserved table cluster {names.MODEL_CLUSTER!r}")


def _priced(expr: str, value: str) -> str:
    """Join spoke series (labels product, resource in kube-state-metrics form) with the price table:
    ``resource`` becomes the billed Kubernetes resource and ``gpu_class`` is added. ``value`` is
    ``price`` (multiply by the price) or ``unit`` (keep the quantity)."""
    table = names.SKU_PRICE if value == "price" else f"({names.SKU_PRICE} * 0 + 1)"
    keyed = q.label_replace(expr, "ksm_resource", "$1", "resource", "(.*)")
    return f"{keyed} * on (product, ksm_resource) group_left (gpu_class, resource) {table}"


# The hub's smallest lookback (Prometheus and Thanos Query default 5m; MCO raises thanos-query's to twice a push
# interval above 150 s, stolostron/multicluster-observability-operator controllers/multiclusterobservability/
# observatorium.go newQuerySpec): a subquery step no longer than it sees every sample.
_LOOKBACK = 300


def _settle(model: Model, series: str, sentinel: str | None = None) -> str:
    """The figures of the hour the hub settles now, per series of the pushed hourly spoke ``series`` with all its
    labels (its sentinel row too, unless ``sentinel`` picks "" for the data rows or "1" for the sentinel row): the
    hour before this one (:func:`calendar.pushed_this_hour`, each series from its own pushes made during this clock
    hour), or with ``billing.backfill_hours`` N > 0 the hour N + 1 hours before it (:func:`_settled`)."""
    matchers = () if sentinel is None else ((names.SENTINEL_LABEL, "=", sentinel),)
    by = (*names.labels(series), names.SENTINEL_LABEL) if names.SERIES[series].sentinel else names.labels(series)
    step = min(model.billing.mco_interval, _LOOKBACK)
    if not model.billing.backfill_hours:
        return calendar.pushed_this_hour(q.selector(series, *matchers), by, step)
    return _settled(model, series, matchers, by, step)


def _settled(model: Model, series: str, matchers: tuple, by: tuple[str, ...], step: int) -> str:
    """Hour h = this hour - (N + 1), settled once: a push made during hour h + k carries it with lag k (k = 1..N + 1,
    :func:`gpudash.render.rules.spoke._lagged`), so the rows of lag k are read from the pushes of the clock hour
    N + 1 - k hours before this one (lag N + 1: this hour's, so far) and the largest value of each series wins, as among
    the pushes of one hour. Every pushed sample describes one hour (its own timestamp's hour minus its lag), and
    the hub records hour h only during [h + N + 1, h + N + 2): an hour is never taken twice, nor from another."""
    n = model.billing.backfill_hours
    lagged = (*by, names.LAG_LABEL)

    def rows(lag: int) -> str:
        return q.selector(series, *matchers, (names.LAG_LABEL, "=", str(lag)))

    terms = [calendar.pushed_this_hour(rows(n + 1), lagged, step)]
    terms.append(calendar.pushed_hours_ago((rows(k), n + 1 - k) for k in range(n, 0, -1)))
    return q.agg("max", by, " or ".join(terms))


def _settle_rule(model: Model, series: str) -> Rule:
    """The settle of ``series`` recorded once per evaluation, first in its group, as ``names.SETTLED[series]``."""
    return Rule(names.SETTLED[series], _settle(model, series),
                f"The settle of {series}: the hour the hub settles now, read once per evaluation; the rules"
                "\nafter it read its rows stamped in this clock hour only (calendar.own_hour).")


def _pushed(series: str, sentinel: str | None = None, detail: bool = False) -> str:
    """The settle of the pushed hourly ``series`` (:func:`_settle_rule`, recorded earlier in the same group) as the
    rules read it: only its rows whose latest sample is stamped in this clock hour (:func:`calendar.own_hour`).
    ``sentinel`` "" for the data rows, "1" for the sentinel row, None for a series without one; ``detail``: keep
    its detail labels apart.

    Why the timestamp filter makes this sound on 3 Thanos Ruler replicas behind a deduplicating querier (each rule's
    query goes to thanos-query with deduplication on ``rule_replica``, thanos-io/thanos cmd/thanos/rule.go
    ``queryFuncCreator``; MCO runs 3 replicas, stolostron/multicluster-observability-operator
    operators/multiclusterobservability/pkg/config/resources_map.go; the querier follows one replica and may skip
    another's fresh sample, thanos-io/thanos pkg/dedup/iter.go): within one clock hour the settle of the hour it
    settles only grows (each term reads fixed complete hours or this hour's pushes so far; the largest wins), so any
    replica's sample from any evaluation of this hour is that same hour's figure from the pushes seen then, at worst
    the previous evaluation's, inside the querier's lookback (MCO: twice the push interval,
    controllers/multiclusterobservability/observatorium.go ``newQuerySpec``). A row of an earlier hour fails the
    filter whether or not a staleness marker followed it (a restart or a failed evaluation writes none,
    prometheus/prometheus rules/manager.go ``Group.Eval``), so no hour is ever billed from another's settle. The
    first evaluation of an hour may find none; an hour's figures are read at its end."""
    matchers = () if sentinel is None else ((names.SENTINEL_LABEL, "=", sentinel),)
    key = names.labels(series) if detail else names.key(series)
    by = (*key, names.SENTINEL_LABEL) if names.SERIES[series].sentinel else key
    return q.agg("max", by, calendar.own_hour(q.selector(names.SETTLED[series], *matchers)))


def _this_hours_push(series: str, detail: bool = False) -> str:
    """The data rows of the hourly spoke ``series`` pushed during this clock hour (the hour before's figures)."""
    return _pushed(series, "", detail)


def _ran_this_hour(model: Model, series: str) -> str:
    """1 per cluster whose hourly rule ``series`` ran in at least one push this hour (its sentinel arrived). The node
    maxima are settled in the CCSP group (groups are not ordered), so billing settles their sentinel rows itself
    (one row per cluster and lag)."""
    rows = _settle(model, series, "1") if series not in _billing_settles(model) else _pushed(series, "1")
    return q.agg("max", ("cluster",), rows)


def _billing_settles(model: Model) -> tuple[str, ...]:
    """The pushed hourly series settled in the billing group: GPU-hours, energy if metered, steps observed."""
    return (names.HOURLY_GPU_HOURS, *((names.HOURLY_ENERGY,) if model.energy.metered else ()), names.STEPS_OBSERVED)


def _hourly_series(model: Model) -> tuple[str, ...]:
    """The pushed hourly spoke series with a sentinel row: GPU-hours, the CCSP node maxima, and energy if metered."""
    energy = (names.HOURLY_ENERGY,) if model.energy.metered else ()
    return (names.HOURLY_GPU_HOURS, names.NODE_ACTIVE_GPUS_MAX, *energy)


def _coverage(model: Model) -> str:
    """Steps observed / steps per hour, for clusters whose hourly rules all ran for the settled hour; 0 for a
    cluster that pushed it (its heartbeat arrived, or with backfill its steps row) while an hourly rule failed in
    every push. With backfill every model cluster gets a row: 0 for an hour no push carried (lost beyond the
    backfill), except on a single cluster (its series carry no cluster label)."""
    steps = read.HOUR // model.billing.resolution
    observed = _pushed(names.STEPS_OBSERVED)
    ran = " and on (cluster) ".join(_ran_this_hour(model, s) for s in _hourly_series(model))
    covered = f"({observed} / {steps} and on (cluster) {ran})"
    if not model.billing.backfill_hours:
        return f"{covered} or on (cluster) ({_settle(model, names.BILLED_HOUR)} * 0)"
    single = read.now(q.selector(names.BILLED_HOUR, ("cluster", "=", "")), model.billing.mco_interval)
    known = " or ".join(q.const_series(0, cluster=c) for c in model.clusters)
    return f"{covered} or on (cluster) ({observed} * 0) or on (cluster) (({known}) unless on () {single})"


def _sum(series: str, expr: str) -> str:
    """``expr`` summed by the registered labels of the recorded ``series``."""
    return q.agg("sum", names.labels(series), expr)


def _energy_cost(energy: str, model: Model) -> str:
    """Hourly kWh (by cluster, namespace) x the cluster's energy price; energy.price_per_kwh where the cluster has
    no price series (a single cluster's Prometheus sees no cluster label: external labels are not in rules)."""
    return (f"(({energy} * on (cluster) group_left () {names.ENERGY_PRICE}) or "
            f"({energy} unless on (cluster) {names.ENERGY_PRICE}) * {model.energy.price_per_kwh!r})")


def _billing_rules(model: Model) -> tuple[Rule, ...]:
    hourly = _this_hours_push(names.HOURLY_GPU_HOURS)
    energy = _sum(names.HOUR_ENERGY, _this_hours_push(names.HOURLY_ENERGY))
    hour_cost = _priced(hourly, "price")
    if model.energy.in_budget:  # the tenants' energy cost joins their hourly cost (not the unallocated line)
        hour_cost = f"{hour_cost} or ({_energy_cost(energy, model)} unless on (namespace) vector(0))"
    current = read.now(names.POD_ALLOCATED, model.billing.mco_interval)
    window, interval = model.billing.burn_rate_window, model.billing.mco_interval
    unpriced_keys = q.label_replace(names.SKU_PRICE, "resource", "$1", "ksm_resource", "(.*)")
    # max by: one tenant name per namespace, whichever clusters the model constants are on
    tenants = f"on (namespace) group_left (tenant) {q.agg('max', ('namespace', 'tenant'), names.TENANT_INFO)}"
    period_to_date = calendar.period_to_date(read.hour(names.TENANT_HOUR_COST), names.NAMESPACE_COST_RATE,
                                             names.labels(names.TENANT_HOUR_COST), read.delay(model))
    energy_rules = (
        Rule(names.HOUR_ENERGY, energy,
             "GPU energy (kWh) of the last complete clock hour per namespace and cluster, read like the GPU-hours;"
             "\nthe row without namespace is the provider's unallocated line (GPUs held by no pod)."),
        Rule(names.HOUR_ENERGY_COST, _energy_cost(energy, model),
             f"Energy cost in {model.currency} of the last complete clock hour per namespace and cluster: the"
             "\nenergy line of the statement (kWh x the cluster's price per kWh)."),
    ) if model.energy.metered else ()
    return (
        *(_settle_rule(model, s) for s in _billing_settles(model)),
        Rule(names.HOUR_GPU_HOURS, _sum(names.HOUR_GPU_HOURS, _priced(hourly, "unit")),
             "GPU-hours of the last complete clock hour per billing line (cluster, tenant namespace, class,"
             "\nbilled resource). Hour H is read at H+2h with last_over_time(...[1h] offset 1ms)."),
        Rule(names.HOUR_COST, _sum(names.HOUR_COST, _priced(hourly, "price")),
             f"Cost in {model.currency} of the last complete clock hour per billing line: what is invoiced."),
        *energy_rules,
        Rule(names.UNPRICED_GPU_HOURS,
             _sum(names.UNPRICED_GPU_HOURS, f"{hourly} unless on (product, resource) {unpriced_keys}"),
             "GPU-hours of the last hour on products or resources the model has no price for: never silently"
             "\nfree; alerted and shown to the provider until the model prices them."),
        Rule(names.BILLING_COVERAGE, _coverage(model),
             "Share of the last complete clock hour the cluster's billed figures cover (1: every spoke step;"
             "\n0: an hourly rule failed in every push, so the hour is missing). Below 1 is under-billing."),
        Rule(names.TENANT_HOUR_COST, _sum(names.TENANT_HOUR_COST, hour_cost),
             "Cost of the last complete clock hour per namespace and cluster: the input of period-to-date"
             "\n(from the pushed figures, as the billing lines: a line that stops is gone at once)"
             + (", energy included (energy.in_budget)." if model.energy.in_budget else ".")),
        Rule(names.CLASS_ALLOCATED, _sum(names.CLASS_ALLOCATED, _priced(current, "unit")),
             "GPUs allocated now per billing line (latest push)."),
        Rule(names.POD_COST_RATE, _sum(names.POD_COST_RATE, _priced(current, "price")),
             f"Burn rate in {model.currency}/hour of each pod right now."),
        Rule(names.WORKLOAD_COST_RATE, _sum(names.WORKLOAD_COST_RATE, names.POD_COST_RATE),
             f"Burn rate in {model.currency}/hour of each workload (Deployment, StatefulSet, Job, ...) right now."),
        Rule(names.NAMESPACE_COST_RATE, _sum(names.NAMESPACE_COST_RATE, names.POD_COST_RATE),
             f"Burn rate in {model.currency}/hour of each namespace per cluster right now."),
        Rule(names.TENANT_COST_RATE_AVG,
             f"sum_over_time(last_over_time({names.NAMESPACE_COST_RATE}[{q.duration(interval)}])"
             f"[{q.window(window)}:{q.duration(interval)}]) * {interval} / {window}",
             f"Average burn rate over billing.burn_rate_window ({q.duration(window)}), sampled every push"
             "\ninterval, per cluster; time without GPUs counts as zero. Drives the end-of-period projection."),
        Rule(names.TENANT_COST_PTD, f"({period_to_date} * {tenants}) or ({names.TENANT_INFO} * 0)",
             f"Cost in {model.currency} of this billing period (UTC month) so far per cluster: exact to the hour"
             "\nbefore last, the current burn rate for the rest. Summed over clusters, budgets and alerts compare"
             "\nagainst it; 0 on every model cluster a tenant has not used."),
        Rule(names.TENANT_COST_PROJECTED,
             f"({names.TENANT_COST_PTD} + on (cluster, namespace) group_left () "
             f"({names.TENANT_COST_RATE_AVG} * scalar({calendar.UNTIL_MONTH_END}) / {read.HOUR})) "
             f"or {names.TENANT_COST_PTD}",
             "Projected cost at the end of the period per cluster: period-to-date plus the average burn rate"
             "\nfor the time left."),
    )


def _ccsp_rules(model: Model) -> tuple[Rule, ...]:
    """The node maxima settled once, first; each other rule reads that settle's rows stamped in this clock hour
    (:func:`_pushed` says why that is sound under MCO): a plain read would leave an earlier hour's value behind
    where no staleness marker was written (a restart, a rule backfill) when a node stops, and a same-evaluation
    ``[1ms]`` read is not sound on Thanos Ruler under MCO (docs/performance.md "The hub over a day of pushes at
    fleet scale")."""
    nodes = q.agg("max", names.labels(names.CCSP_NODE_GPUS), _this_hours_push(names.NODE_ACTIVE_GPUS_MAX))
    sources = _this_hours_push(names.NODE_ACTIVE_GPUS_MAX, detail=True)
    return (
        _settle_rule(model, names.NODE_ACTIVE_GPUS_MAX),
        Rule(names.CCSP_NODE_GPUS, nodes,
             "CCSP: most GPUs active at once on each node during the last complete clock hour."),
        Rule(names.CCSP_NODE_SOURCES, q.agg("max", names.labels(names.CCSP_NODE_SOURCES), sources),
             "CCSP: the same per source of the count (active_from); exporter_down marks a node counted by the"
             f"\ncompute-share bound while {names.FRACTION_EXPORTERS} was not seen "
             "(possibly low: report nodes flags it)."),
        Rule(names.CCSP_ACTIVE_NODES, q.agg("count", names.labels(names.CCSP_ACTIVE_NODES), f"{nodes} >= 1"),
             "CCSP: worker nodes with at least one active GPU during the last complete clock hour."),
        Rule(names.CCSP_ACTIVE_GPUS, _sum(names.CCSP_ACTIVE_GPUS, nodes),
             "CCSP: fleet total of the per-node hourly maxima for the last complete clock hour."),
    )


def groups(model: Model) -> tuple[Group, ...]:
    check_model_cluster(model)
    interval = model.billing.mco_interval
    return (
        Group("gpudash-hub-model", interval, "Model constants: prices per SKU, tenants, budgets, thresholds.",
              _model_rules(model)),
        Group("gpudash-hub-billing", interval, "Billing: hourly GPU-hours and cost, burn rates, period-to-date.",
              _billing_rules(model)),
        Group("gpudash-hub-ccsp", interval, "CCSP: hourly active GPUs per node, active nodes, fleet total.",
              _ccsp_rules(model)),
        idle.group(model),
    )

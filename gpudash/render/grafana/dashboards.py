"""The dashboards, as pure functions model -> :class:`~gpudash.render.grafana.panels.Dashboard`.

* **Provider** (internal): fleet allocation and utilisation, revenue, tenants by spend, idle GPUs and their
  cost, MIG use, unpriced usage, billing-data health.
* **CCSP**: hourly active worker nodes and active GPUs per node and in total, as graphs and exportable tables.

Provider and CCSP dashboards read their datasource through a ``datasource`` variable (and filter by a ``cluster``
variable), so they also work imported by hand into any Grafana (:func:`~gpudash.render.grafana.panels.for_import`).
* **Tenant** (one per tenant): cost and GPU-hours of the period against the budget, projection, burn rate in
  total / per workload / per pod, GPU-hours by class and cluster, efficiency, active alerts. Every selector
  carries ``namespace="<ns>"``; there are no template variables.

Dashboards read only recorded series (:mod:`gpudash.model.series`, plus ``up`` and ``ALERTS``, which Prometheus
itself records). docs/dashboards.md describes every panel.
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model import vendors
from gpudash.model.types import Model, Tenant
from gpudash.promql import build as q
from gpudash.promql import read
from gpudash.render.grafana import panels as P
from gpudash.render.grafana import provider_panel_queries as pq
from gpudash.render.grafana import tenant_panel_queries as tq
from gpudash.render.grafana import uids
from gpudash.render.grafana.shared_panel_queries import (
    allocated_by_line,
    energy_per_gpu_hour,
    energy_to_date,
    idle_cost,
    power_per_hour,
    provider_scope,
    tenant_scope,
)

PROVIDER_TAG = "gpudash-provider"
TENANT_TAG = "gpudash-tenant"
Q = P.Query


def _resources(resource, feature: str = "") -> str:
    """For people: ``resource(vendor)`` of each registered vendor (with the capability ``feature``), joined."""
    return ", ".join(resource(v) for v in (vendors.with_feature(feature) if feature else vendors.VENDORS.values()))


def _budget_thresholds(tenant: Tenant, scale: float) -> P.Thresholds:
    """Colours at the tenant's alert thresholds (``alert_at`` x ``scale``): yellow, orange..., red from 100%."""
    steps: list[tuple[float | None, str]] = [(None, P.GREEN)]
    warn = [a for a in tenant.alert_at if a < 1.0]
    colours = [P.YELLOW, P.ORANGE]
    for i, a in enumerate(warn):
        steps.append((round(a * scale, 6), colours[min(i, len(colours) - 1)]))
    steps.append((round(1.0 * scale, 6), P.RED))
    return tuple(steps)


def _cluster_variable(model: Model):
    """Every cluster the model names, whether or not it allocates GPUs right now."""
    return lambda ds: P.custom_variable("cluster", "Cluster", model.clusters)


def _energy_panels(model: Model, s, power: str, legend: str) -> list:
    """GPU energy: kWh this period, average power per clock hour, kWh per GPU-hour (docs/billing-contract.md
    section 10); ``power`` is the power graph's query and ``legend`` its legend. None without an energy section."""
    if not model.energy.metered:
        return []
    return [
        P.row("Energy"),
        P.stat("GPU energy this period", "kWh the GPUs drew for these pods this month, complete hours up to the "
               "hour before last: each GPU's energy split among the pods holding it (a MIG slice by its compute "
               "share, a time-sliced replica by 1/replicas).", P.KWH,
               (Q(energy_to_date(s), instant=True),), thresholds=P.NEUTRAL, decimals=2, width=6),
        P.stat("Energy per GPU-hour", "kWh per GPU-hour over the complete hours of the selected range: busy GPUs "
               "draw more than idle ones.", P.KWH_PER_GPU_HOUR,
               (Q(energy_per_gpu_hour(s), instant=True),), thresholds=P.NEUTRAL, decimals=3, width=6),
        P.timeseries("Average GPU power per clock hour", f"Mean power (W) of each complete clock hour (its kWh x "
                     f"1000), priced at {model.energy.price_per_kwh:g} {model.currency}/kWh unless a cluster has "
                     f"its own tariff. A bar at T is the hour {read.hour_read_text(model)}.", P.WATTS,
                     (Q(power, legend, interval="1h"),), bars=True, stack=True, decimals=0,
                     width=12),
    ]


def _idle_window(model: Model) -> str:
    """The idle window the idle panels name: ``alerts.idle.window`` (the loader holds it to two pushes or more)."""
    return q.duration(model.alerts.idle.window)


# --- provider -----------------------------------------------------------------------------------------------------

def _hours_words(seconds: int) -> str:
    hours = seconds // read.HOUR
    return "two hours" if hours == 2 else f"{hours} hours"


def _fleet_now(model: Model, s) -> list:
    """Allocation, revenue, idle cost and unpriced hours right now, fleet-wide."""
    cur, rate = P.currency_unit(model.currency), P.currency_rate_unit(model.currency)
    window = _idle_window(model)
    return [
        P.row("Fleet now"),
        P.stat("Whole GPUs allocated", f"Whole GPUs ({_resources(lambda v: v.resource)}) allocated right now to "
               "Running pods on all selected clusters: the quantity billed per hour at the class price.", P.GPUS,
               (Q(pq.allocated(s, pq.whole_gpus()), instant=True),), thresholds=P.NEUTRAL),
        P.stat("MIG slices allocated", f"MIG instances ({_resources(lambda v: v.mig_resource('*'), 'mig_labels')}) "
               "allocated right now; each is billed at its profile price, not the whole-GPU price.", P.GPUS,
               (Q(pq.allocated(s, pq.mig_slices()), instant=True),), thresholds=P.NEUTRAL),
        P.stat("Shared GPU replicas allocated", "Time-sliced GPU replicas "
               f"({_resources(lambda v: v.shared_resource, 'time_slicing')}) allocated right now; each is billed at "
               "the class's shared price.", P.GPUS,
               (Q(pq.allocated(s, pq.shared_replicas()), instant=True),), thresholds=P.NEUTRAL),
        P.stat("Revenue rate", f"What all namespaces on the selected clusters are billed per hour right now "
               f"({model.currency}/h), from the pods' GPU requests and the model's prices.", rate,
               (Q(pq.revenue_rate(s), instant=True),), thresholds=P.NEUTRAL,
               decimals=2),
        P.stat("Period-to-date revenue", f"Cost of this billing period (UTC month) so far, summed over all "
               f"tenants (all clusters): exact to the hour before last, estimated since. In {model.currency}.",
               cur, (Q(pq.revenue_to_date(s), instant=True),),
               thresholds=P.NEUTRAL, decimals=2),
        P.stat("Projected period revenue", "Period-to-date revenue plus every tenant's average burn rate over "
               "billing.burn_rate_window for the time left in the month.", cur,
               (Q(pq.revenue_projected(s), instant=True),),
               thresholds=P.NEUTRAL, decimals=2),
        P.stat("Idle GPUs cost", f"Burn rate ({model.currency}/h) of pods whose GPUs showed zero activity for "
               f"the whole idle window ({window}): money spent on allocated but unused GPUs.", rate,
               (Q(idle_cost(s), instant=True),),
               thresholds=((None, P.GREEN), (0.01, P.ORANGE)), decimals=2, no_value="0"),
        P.stat("Unpriced GPU-hours, last hour", "GPU-hours of the last complete clock hour on products or "
               "resources the model has no price for. Never silently free: should be 0; price them in "
               "gpudash.yaml.", P.GPU_HOURS,
               (Q(pq.unpriced_last_hour(s), instant=True),),
               thresholds=((None, P.GREEN), (1e-9, P.RED)), decimals=2, no_value="0"),
    ]


def _allocation_and_utilisation(model: Model, s) -> list:
    """Allocation, utilisation and revenue per cluster and class over time."""
    cur, rate = P.currency_unit(model.currency), P.currency_rate_unit(model.currency)
    return [
        P.row("Allocation and utilisation"),
        P.timeseries("GPUs allocated by cluster and class", "Units of each billed resource (whole GPUs, MIG "
                     "slices, shared replicas) allocated to Running pods, per cluster and GPU class.", P.GPUS,
                     (Q(allocated_by_line(s), "{{cluster}} {{gpu_class}} {{resource}}"),), stack=True),
        P.timeseries("GPU utilisation by cluster and class", "Allocation-weighted mean GPU activity (0-100 %) of "
                     "the pods holding GPUs: low values mean GPUs are paid for but not used. Pods without GPU "
                     "activity metrics are left out.", P.RATIO,
                     (Q(pq.utilisation_by_class(s), "{{cluster}} {{gpu_class}}"),), min_value=0, max_value=1),
        P.timeseries("Revenue rate by cluster", f"Burn rate of all namespaces per cluster ({model.currency}/h).",
                     rate, (Q(pq.revenue_rate_by_cluster(s), "{{cluster}}"),),
                     stack=True, decimals=2),
        P.timeseries("Revenue per clock hour", f"Invoiced cost of each complete clock hour per cluster, in "
                     f"{model.currency}. A bar at T is the hour {read.hour_read_text(model)}: an hour is complete on "
                     f"the hub {_hours_words(read.delay(model))} after it starts.", cur,
                     (Q(pq.revenue_per_hour(s), "{{cluster}}", interval="1h"),),
                     bars=True, stack=True, decimals=2),
    ]


def _tenants(model: Model, s) -> list:
    """Tenants by spend and burn rate, and GPU spend outside any tenant."""
    cur, rate = P.currency_unit(model.currency), P.currency_rate_unit(model.currency)
    return [
        P.row("Tenants"),
        P.table("Tenants by period-to-date spend", f"Per tenant: cost of this billing period so far, projected "
                f"cost at the end of the period and budget (all {model.currency}), and the share of the budget "
                "spent. Sorted by spend.", cur,
                (Q(pq.tenant_to_date(s), instant=True, table=True),
                 Q(pq.tenant_projected(s), instant=True, table=True),
                 Q(pq.tenant_budget(s), instant=True, table=True),
                 Q(pq.tenant_budget_used(s), instant=True, table=True)),
                merge=True, hide=("Time",), sort_by="Period to date", units={"Value #D": P.RATIO}, decimals=2,
                rename={"Value #A": "Period to date", "Value #B": "Projected", "Value #C": "Budget",
                        "Value #D": "Budget used"}, width=14, height=9),
        P.timeseries("Top 10 tenants by burn rate", f"The ten namespaces billed most per hour right now "
                     f"({model.currency}/h), all clusters.", rate,
                     (Q(pq.top_burn_rates(s), "{{namespace}}"),), width=10, height=9, decimals=2),
        P.table("GPU spend outside any tenant", f"Namespaces that hold GPUs but are no tenant of the model: their "
                f"burn rate ({model.currency}/h) is not invoiced to anyone. Add them as tenants or stop them.",
                rate, (Q(pq.spend_outside_tenants(s), instant=True, table=True),),
                hide=("Time",), rename={"Value": "Burn rate"}, sort_by="Burn rate", decimals=2, height=6),
    ]


def _idle_gpus(model: Model, s) -> list:
    """Idle but allocated GPUs and what they cost."""
    rate = P.currency_rate_unit(model.currency)
    window = _idle_window(model)
    return [
        P.row("Idle GPUs"),
        P.table("Idle but allocated GPUs", f"Pods whose GPUs showed zero activity during the whole idle window "
                f"({window}) while still allocated: GPUs held and their burn rate ({model.currency}/h).",
                P.GPUS,
                (Q(pq.idle_by_pod(s, names.POD_ALLOCATED), instant=True, table=True),
                 Q(pq.idle_by_pod(s, names.POD_COST_RATE), instant=True, table=True)),
                merge=True, hide=("Time",), rename={"Value #A": "GPUs", "Value #B": "Burn rate"},
                units={"Value #B": rate}, sort_by="Burn rate", decimals=2, width=14),
        P.timeseries("Idle GPUs cost over time", f"Burn rate of idle-but-allocated pods per cluster "
                     f"({model.currency}/h).", rate,
                     (Q(pq.idle_cost_by_cluster(s), "{{cluster}}"),), width=10, decimals=2),
    ]


def _mig_and_unpriced(model: Model, s) -> list:
    """MIG slices by profile and usage without a price."""
    return [
        P.row("MIG and unpriced usage"),
        P.timeseries("MIG slices allocated by profile", "MIG instances allocated per cluster, class and profile "
                     f"(billed resource {_resources(lambda v: v.mig_resource('<profile>'), 'mig_labels')}).", P.GPUS,
                     (Q(pq.mig_by_profile(s), "{{cluster}} {{gpu_class}} {{resource}}"),), stack=True),
        P.timeseries("MIG GPU-hours per clock hour", "GPU-hours of MIG slices per complete clock hour, per "
                     f"profile. A bar at T is the hour {read.hour_read_text(model)}.", P.GPU_HOURS,
                     (Q(pq.mig_hours(s), "{{gpu_class}} {{resource}}",
                        interval="1h"),), bars=True, stack=True, decimals=2),
        P.table("Unpriced usage, last hour", "GPU-hours of the last complete clock hour per cluster, namespace, "
                "node product and resource that the model has no price for (unknown product or no product "
                "label). Add the product to a GPU class in gpudash.yaml.", P.GPU_HOURS,
                (Q(pq.unpriced_lines(s), instant=True, table=True),),
                hide=("Time",), rename={"Value": "GPU-hours"}, sort_by="GPU-hours", decimals=3, height=6),
    ]


def _billing_data_health(model: Model, s) -> list:
    """Clusters pushing, push age, exporter targets and billing lines."""
    return [
        P.row("Billing data health"),
        P.stat("Clusters pushing", f"Clusters that pushed gpudash's spoke series (the billed-hour marker every "
               f"push carries) within the hub's freshness window (1.5 push intervals, as every hub read). The "
               f"model lists {len(model.clusters)}: fewer means billing data is missing (a lost push is recovered "
               "only within the hour).", P.GPUS,
               (Q(pq.clusters_pushing(s), instant=True),),
               thresholds=((None, P.RED), (float(len(model.clusters)), P.GREEN)), no_value="0", width=4),
        P.table("Clusters of the model not pushing", "Clusters named in gpudash.yaml with no pushed data in the "
                "hub's freshness window (1.5 push intervals): their usage is not being billed until pushes "
                "resume.", P.GPUS,
                (Q(pq.clusters_not_pushing(s), instant=True, table=True),),
                hide=("Time", "Value"), width=8, height=4),
        P.timeseries("Push age per cluster", "Seconds since the newest sample each cluster pushed (timestamp() "
                     "of the pushed series): gpudash's billed-hour marker and kube-state-metrics' up. It should "
                     "stay below the push interval; after an hour without pushes a clock hour is lost.", P.SECONDS,
                     (Q(pq.push_age(s), "{{cluster}} gpudash series"),
                      Q(pq.ksm_push_age(s), "{{cluster}} kube-state-metrics")),
                     thresholds=((None, P.GREEN), (float(2 * model.billing.mco_interval), P.ORANGE),
                                 (float(read.HOUR), P.RED)), width=12),
        P.timeseries("Exporter targets up", "Share of scrape targets up per cluster and job: kube-state-metrics "
                     "(allocation, the billing source) and the GPU exporters (utilisation only).", P.RATIO,
                     (Q(pq.targets_up(s), "{{cluster}} {{job}}"),), min_value=0, max_value=1, width=12),
        P.timeseries("Billing lines per hour", "Billing lines (cluster x namespace x class x resource) in the last "
                     "complete clock hour, per cluster: a sudden drop means usage stopped or data is missing.",
                     P.GPUS, (Q(pq.billing_lines(s), "{{cluster}}"),),
                     width=12),
    ]


def provider(model: Model) -> P.Dashboard:
    s = provider_scope(model)
    panels = [*_fleet_now(model, s), *_allocation_and_utilisation(model, s), *_tenants(model, s),
              *_idle_gpus(model, s), *_mig_and_unpriced(model, s),
              *_energy_panels(model, s, pq.power_by_namespace(s), "{{cluster}} {{namespace}}"),
              *_billing_data_health(model, s)]
    return P.Dashboard(
        title="GPU billing: provider", uid=uids.provider_dashboard_uid(),
        description="Fleet GPU allocation, utilisation, revenue, idle GPUs and billing-data health (provider only).",
        tags=("gpudash", PROVIDER_TAG), panels=tuple(panels), time_from="now-7d",
        refresh=q.duration(model.billing.mco_interval), variables=(_cluster_variable(model),),
        datasource_variable=True, links=(P.DashboardLink("GPU billing", (PROVIDER_TAG,)),))


# --- CCSP ---------------------------------------------------------------------------------------------------------

def ccsp(model: Model) -> P.Dashboard:
    s = provider_scope(model)
    node_gpus = s.hour(names.CCSP_NODE_GPUS)
    nodes = q.agg("sum", ("cluster",), s.hour(names.CCSP_ACTIVE_NODES))
    gpus = q.agg("sum", ("cluster",), s.hour(names.CCSP_ACTIVE_GPUS))
    hour_start = Q(read.read_hour_start(model), instant=False, table=True, interval="1h")
    hourly_note = (f"Each clock hour is read once, at T = hour start + {read.delay(model) // read.HOUR} h (when the "
                   "hub has it complete); the "
                   "'Hour (UTC)' column is the hour the row reports.")
    panels = [
        P.row("Hourly activity"),
        P.timeseries("Active worker nodes per hour", "Worker nodes with at least one GPU allocated to a Running "
                     "pod at some spoke step of the clock hour, per cluster. A bar at T is the hour "
                     f"{read.hour_read_text(model)}.",
                     P.GPUS, (Q(nodes, "{{cluster}}", interval="1h"),), bars=True, stack=True),
        P.timeseries("Active GPUs per hour (fleet total)", "Sum over nodes of each node's most GPUs active at "
                     "once in the clock hour (MIG slices by compute share, time-sliced replicas by 1/replicas, "
                     f"rounded up), per cluster. A bar at T is the hour {read.hour_read_text(model)}.", P.GPUS,
                     (Q(gpus, "{{cluster}}", interval="1h"), Q(f"sum({gpus})", "fleet total", interval="1h")),
                     bars=True),
        P.timeseries("Active GPUs per node per hour (max in the hour)", "Most GPUs active at once on each node "
                     f"during the clock hour. A point at T is the hour {read.hour_read_text(model)}.", P.GPUS,
                     (Q(node_gpus, "{{cluster}}/{{node}}", interval="1h"),), bars=True, width=24, height=10,
                     legend_calcs=("max",)),
        P.row("Export (one row per hour; use Inspect > Data > Download CSV)"),
        P.table("Per cluster and hour: active nodes and GPUs", "CCSP report lines: per cluster and clock hour, "
                "the active worker nodes and the fleet total of active GPUs. " + hourly_note, P.GPUS,
                (Q(nodes, table=True, interval="1h"), Q(gpus, table=True, interval="1h"), hour_start),
                merge=True, rename={"Time": "Read at (UTC)", "Value #A": "Active nodes", "Value #B": "Active GPUs",
                                    "Value #C": "Hour (UTC)"},
                units={"Value #C": P.DATETIME}, height=10),
        P.table("Per node and hour: active GPUs", "CCSP report lines: per node and clock hour, the most GPUs active "
                "at once. " + hourly_note, P.GPUS,
                (Q(node_gpus, table=True, interval="1h"), hour_start),
                merge=True, rename={"Time": "Read at (UTC)", "Value #A": "Active GPUs (max in hour)",
                                    "Value #B": "Hour (UTC)"},
                hide=("__name__", "clusterID"), units={"Value #B": P.DATETIME}, height=12),
    ]
    return P.Dashboard(
        title="GPU billing: CCSP hourly report", uid=uids.ccsp_dashboard_uid(),
        description="Hourly active worker nodes and GPUs (per node and fleet total) for the CCSP report.",
        tags=("gpudash", PROVIDER_TAG, "ccsp"), panels=tuple(panels), time_from="now-2d/d",
        refresh="1h", variables=(_cluster_variable(model),), datasource_variable=True,
        links=(P.DashboardLink("GPU billing", (PROVIDER_TAG,)),))


# --- tenant -------------------------------------------------------------------------------------------------------

def _tenant_period(model: Model, t: Tenant, s) -> list:
    """Cost, budget, projection, GPU-hours, burn rate, efficiency and idle cost of the period."""
    cur, rate = P.currency_unit(model.currency), P.currency_rate_unit(model.currency)
    window = _idle_window(model)
    return [
        P.row("This billing period (UTC month)"),
        P.stat("Cost this period", f"What {t.name} has been billed this month so far, in {model.currency}: exact "
               f"for complete hours up to the hour before last, the current burn rate since. Budget "
               f"{t.budget:g} {model.currency}; colours change at the alert thresholds.", cur,
               (Q(tq.cost_to_date(s), instant=True),), thresholds=_budget_thresholds(t, t.budget), decimals=2),
        P.stat("Budget used", f"Cost this period as a share of the budget of {t.budget:g} {model.currency} per "
               "period. Alerts fire at " + ", ".join(f"{a:.0%}" for a in t.alert_at) + ".", P.RATIO,
               (Q(tq.budget_used(s), instant=True),), thresholds=_budget_thresholds(t, 1.0),
               decimals=1),
        P.stat("Projected at period end", f"Cost this period plus the average burn rate over the last "
               f"{q.duration(model.billing.burn_rate_window)} for the rest of the month, in {model.currency}: "
               "where the bill lands if usage continues.", cur,
               (Q(tq.projected(s), instant=True),),
               thresholds=_budget_thresholds(t, t.budget), decimals=2),
        P.stat("GPU-hours this period", "GPU-hours allocated this month so far (all classes and clusters; a MIG "
               "slice or a shared replica counts as one unit): exact for complete hours up to the hour before "
               "last, the current allocation since.", P.GPU_HOURS,
               (Q(tq.gpu_hours_to_date(s), instant=True),), thresholds=P.NEUTRAL, decimals=1),
        P.stat("Burn rate now", f"What {t.name}'s running pods cost per hour right now ({model.currency}/h), "
               "all clusters.", rate,
               (Q(f"{tq.burn_rate(s)} or vector(0)", instant=True),),
               thresholds=P.NEUTRAL, decimals=2, width=6),
        P.stat("Budget", f"Budget per billing period, in {model.currency}.", cur,
               (Q(tq.budget(s), instant=True),), thresholds=P.NEUTRAL, decimals=2, width=6),
        P.stat("GPU efficiency now", "Share of allocated GPUs actually busy: allocation-weighted mean GPU "
               "activity of your pods (pods without GPU activity metrics are left out). You pay for "
               "allocation, not use.", P.RATIO, (Q(tq.efficiency(s), instant=True),),
               thresholds=((None, P.RED), (0.3, P.ORANGE), (0.6, P.GREEN)), decimals=1, width=6),
        P.stat("Idle GPUs cost", f"Burn rate ({model.currency}/h) of your pods whose GPUs showed zero activity "
               f"for the whole last {window}: you pay for these GPUs without using them.", rate,
               (Q(idle_cost(s), instant=True),),
               thresholds=((None, P.GREEN), (0.01, P.ORANGE)), decimals=2, no_value="0", width=6),
    ]


def _tenant_burn_rate(model: Model, s) -> list:
    """Burn rate in total, per workload and per pod."""
    rate = P.currency_rate_unit(model.currency)
    return [
        P.row("Burn rate"),
        P.timeseries("Burn rate", f"Cost per hour of all your running pods ({model.currency}/h) and the "
                     f"average over billing.burn_rate_window that the projection uses.", rate,
                     (Q(tq.burn_rate(s), "now"),
                      Q(tq.burn_rate_average(s),
                        f"average over {q.duration(model.billing.burn_rate_window)}")), decimals=2),
        P.timeseries("Burn rate per workload", f"Cost per hour of each workload (Deployment, StatefulSet, Job, "
                     f"InferenceService, Notebook, or a bare pod), in {model.currency}/h.", rate,
                     (Q(tq.burn_rate_per_workload(s), "{{workload_type}}/{{workload}}"),), stack=True, decimals=2),
        P.table("Burn rate per pod", f"Cost per hour of each running pod now ({model.currency}/h), with its GPUs "
                "and mean GPU activity over the last push interval.", rate,
                (Q(tq.per_pod(s, names.POD_COST_RATE), instant=True, table=True),
                 Q(tq.per_pod(s, names.POD_ALLOCATED), instant=True, table=True),
                 Q(tq.activity_per_pod(s), instant=True, table=True)),
                merge=True, hide=("Time",), rename={"Value #A": "Burn rate", "Value #B": "GPUs",
                                                    "Value #C": "GPU activity"},
                units={"Value #B": P.GPUS, "Value #C": P.RATIO}, sort_by="Burn rate", decimals=2, height=9),
    ]


def _tenant_gpu_hours(model: Model, s) -> list:
    """GPU-hours and cost per clock hour, class and cluster, and the allocation now."""
    cur = P.currency_unit(model.currency)
    return [
        P.row("GPU-hours"),
        P.timeseries("GPU-hours per clock hour by class and cluster", "GPU-hours allocated in each complete clock "
                     "hour, per cluster, GPU class and billed resource. A bar at T is the hour "
                     f"{read.hour_read_text(model)}.",
                     P.GPU_HOURS, (Q(tq.gpu_hours_per_hour(s), "{{cluster}} {{gpu_class}} {{resource}}",
                                     interval="1h"),),
                     bars=True, stack=True, decimals=2),
        P.table("GPU-hours and cost by class and cluster (selected range)", f"Complete clock hours in the selected "
                f"time range (shifted back by the two-hour reporting delay): GPU-hours and cost in "
                f"{model.currency} per cluster, GPU class and billed resource. The default range is this month.",
                P.GPU_HOURS,
                (Q(tq.in_range(s, names.HOUR_GPU_HOURS), instant=True, table=True),
                 Q(tq.in_range(s, names.HOUR_COST), instant=True, table=True)),
                merge=True, hide=("Time",), rename={"Value #A": "GPU-hours", "Value #B": "Cost"},
                units={"Value #B": cur}, sort_by="Cost", decimals=2, width=12),
        P.timeseries("GPUs allocated by class", "Units of each billed resource allocated to your Running pods "
                     "right now, per cluster and GPU class.", P.GPUS,
                     (Q(allocated_by_line(s), "{{cluster}} {{gpu_class}} {{resource}}"),), stack=True, width=12),
    ]


def _tenant_efficiency(s) -> list:
    """Allocated against used GPUs, and each pod's activity."""
    return [
        P.row("Efficiency"),
        P.timeseries("Allocated vs used GPUs", "GPUs allocated to your pods (what you pay for) and the "
                     "GPU-equivalents actually busy (allocation x mean activity).", P.GPUS,
                     (Q(tq.allocated(s), "allocated"), Q(tq.used(s), "used")), width=12),
        P.timeseries("GPU activity per pod", "Mean GPU activity (0-100 %) of each pod over the push interval: "
                     "pods near zero hold GPUs they do not use.", P.RATIO,
                     (Q(tq.activity(s), "{{cluster}}/{{pod}}"),),
                     min_value=0, max_value=1, width=12),
    ]


def tenant(model: Model, t: Tenant) -> P.Dashboard:
    s = tenant_scope(model, t.namespace)
    panels = [
        *_tenant_period(model, t, s), *_tenant_burn_rate(model, s), *_tenant_gpu_hours(model, s),
        *_tenant_efficiency(s),
        *_energy_panels(model, s, power_per_hour(s, ("cluster",)), "{{cluster}}"),

        P.row("Alerts"),
        P.table("Active alerts", f"Alerts for namespace {t.namespace} that are pending or firing now (budget, "
                "burn rate, idle GPUs...).", "short",
                (Q(tq.alerts(s), instant=True, table=True),),
                hide=("Time", "Value", "__name__"), height=6),
    ]
    return P.Dashboard(
        title=f"GPU usage and cost: {t.name}", uid=uids.tenant_dashboard_uid(t.name),
        description=f"GPU consumption, cost, budget and burn rate of tenant {t.name} (namespace {t.namespace}).",
        tags=("gpudash", TENANT_TAG), panels=tuple(panels), time_from="now/M",
        refresh=q.duration(model.billing.mco_interval))


def tenant_values(t: Tenant) -> tuple[str | float, ...]:
    """Every value :func:`tenant` writes from ``t`` but its ``alert_at`` (which tenants sharing a dashboard
    template have in common): uids, name, namespace, budget as text, the budget thresholds' steps.
    :mod:`gpudash.render.grafana.tenant_board` specialises a template by them, and checks it."""
    steps = [v for v, _ in _budget_thresholds(t, t.budget) if v is not None]
    return (uids.tenant_dashboard_uid(t.name), uids.tenant_datasource_uid(t.name), t.name, t.namespace,
            f"{t.budget:g}", *steps)


def provider_dashboards(model: Model) -> tuple[P.Dashboard, ...]:
    return (provider(model), ccsp(model))


def file_name(dash: P.Dashboard) -> str:
    """The dashboard's file name stem (its UID): ``dashboards/<uid>.json``."""
    return dash.uid

"""Names gpudash's alerts are known by: alert names, rule groups, the routing label, and the raw series the
alerts read besides gpudash's own recorded series (:mod:`gpudash.model.series`).

Raw series on the ACM hub come from ACM's default allowlist (``up``, ``kube_node_status_capacity`` /
``_allocatable``, ``kube_pod_container_resource_requests``, ``kube_resourcequota``) or from gpudash's custom
allowlist (:func:`gpudash.render.alerts.allowlist_names`: DCGM XID errors only). The idle alert's power veto reads the
spoke series ``namespace_pod:gpudash_gpu_power:max`` (through the hub's recorded idle series), never raw power.
Dashboard links use the uids of :mod:`gpudash.render.grafana.uids`.
"""
from __future__ import annotations

# --- routing -----------------------------------------------------------------------------------------------------
# Every gpudash alert says who it is for. Alertmanager sends provider alerts to alerts.provider_receiver before
# any namespace route, so a provider alert that names a tenant's namespace never reaches the tenant.
AUDIENCE = "audience"
TENANT = "tenant"
PROVIDER = "provider"

# --- alert names (CamelCase, GPU prefix) ---------------------------------------------------------------------------
# tenant: budget and burn
BUDGET_THRESHOLD = "GPUBudgetThresholdReached"
BUDGET_EXHAUSTED = "GPUBudgetExhausted"
BUDGET_PROJECTED_OVERRUN = "GPUBudgetProjectedOverrun"
BURN_RATE_JUMP = "GPUBurnRateJump"
# tenant: idle GPUs, quotas
IDLE = "GPUAllocatedIdle"
QUOTA_EXHAUSTED = "GPUQuotaExhausted"
# provider: billing-data integrity
CLUSTER_NOT_REPORTING = "GPUClusterNotReporting"
BILLING_DATA_GAP = "GPUBillingDataGap"
KSM_DOWN = "GPUKubeStateMetricsDown"
EXPORTER_MISSING = "GPUExporterMissing"
UNPRICED = "GPUUsageUnpriced"
ENERGY_UNALLOCATED = "GPUEnergyUnallocated"
INPUT_MISSING = "GPUBillingInputMissing"
NO_PRODUCT_LABEL = "GPUNodeWithoutProductLabel"
UNSCHEDULED = "GPURequestsUnscheduled"
RULE_FAILURES = "GPUBillingRuleFailures"
RULE_GROUP_SLOW = "GPUBillingRuleGroupSlow"
# provider: GPU health
XID = "GPUXidError"
ALLOCATABLE_BELOW_CAPACITY = "GPUAllocatableBelowCapacity"
EXPORTER_DOWN = "GPUExporterDown"
# provider: the idle-GPU pruner
PRUNER_INEFFECTIVE = "GPUPrunerIneffective"

# --- rule groups -------------------------------------------------------------------------------------------------
GROUP_TENANT = "gpudash-alerts-tenant"
GROUP_IDLE = "gpudash-alerts-idle"
GROUP_QUOTA = "gpudash-alerts-quota"
GROUP_INTEGRITY = "gpudash-alerts-integrity"
GROUP_HEALTH = "gpudash-alerts-health"
GROUP_PRUNE = "gpudash-alerts-prune"
# Every gpudash rule group (recording and alerting) is named gpudash-*; rule_group = "<file>;<group>".
GPUDASH_RULE_GROUP_REGEX = ".*;gpudash-.*"

# --- raw series ----------------------------------------------------------------------------------------------------
UP = "up"  # ACM default allowlist
# The pruner's own gauge (gpudash prune --metrics-port, scraped through the rendered prune ServiceMonitor): 1 per
# workload {namespace, kind, workload} whose stop did not free its GPUs. Pushed to the hub by the custom allowlist.
PRUNE_INEFFECTIVE = "gpudash_prune_ineffective_stop"
# Rule-manager self-metrics, under these exact names in Prometheus and in the Thanos Ruler (which runs Prometheus'
# rule manager). On the ACM hub, the observatorium ServiceMonitor of the Thanos Ruler (stolostron/multicluster-
# observability-operator, operators/multiclusterobservability/controllers/multiclusterobservability/
# observatorium.go: ruleSpec.ServiceMonitor) has the hub's platform Prometheus scrape them unprefixed; the hub's own
# metrics-collector pushes them to Thanos only through the allowlist ``matches`` of gpudash's groups. Upstream
# prefixes only the collector's own metrics (acm_metrics_collector_*, operators/endpointmetrics/pkg/collector/
# metrics_collector.go): there is no acm_prometheus_rule_* series.
RULE_EVALUATION_FAILURES = "prometheus_rule_evaluation_failures_total"
RULE_GROUP_LAST_DURATION = "prometheus_rule_group_last_duration_seconds"
RULE_GROUP_INTERVAL = "prometheus_rule_group_interval_seconds"
RULE_SELF_METRICS = (RULE_EVALUATION_FAILURES, RULE_GROUP_LAST_DURATION, RULE_GROUP_INTERVAL)
RESOURCE_QUOTA = "kube_resourcequota"  # ACM default allowlist; resource label unsanitised (requests.nvidia.com/gpu)

# --- objects -------------------------------------------------------------------------------------------------------
QUOTA_NAME = "gpudash-gpu"  # the ResourceQuota gpudash writes into each tenant namespace that has a quota

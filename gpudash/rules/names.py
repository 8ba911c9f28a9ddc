"""Public names of every series gpudash records: the contract between rules, alerts, dashboards and reports.

Names follow ``level:metric:operations``; the level lists the labels kept (``cluster`` is added on the hub
by the ACM metrics-collector, or comes from the Prometheus external labels on a single cluster).

Spoke series are evaluated on each managed cluster (as MCO allowlist ``recording_rules`` at every push, or as
a plain rule group every ``billing.resolution`` without ACM). Hub series are Thanos Ruler rules over what
the spokes pushed. Label conventions:

* ``resource`` on spoke series is kube-state-metrics' sanitised resource (``nvidia_com_gpu``,
  ``nvidia_com_mig_1g_10gb``, ``nvidia_com_gpu_shared``, ``amd_com_gpu``); on hub series it is the
  Kubernetes resource name that is billed (``nvidia.com/gpu``, ``nvidia.com/mig-1g.10gb``,
  ``nvidia.com/gpu.shared``, ``amd.com/gpu``). On single-strategy MIG nodes a slice is requested as
  ``nvidia.com/gpu``; gpudash bills it as the slice (``nvidia.com/mig-<profile>``), taken from the node's product.
* ``product`` is the node's GPU product label as GPU Feature Discovery writes it (spaces replaced by ``-``,
  e.g. ``NVIDIA-A100-SXM4-80GB``, ``NVIDIA-A100-SXM4-80GB-MIG-1g.10gb``); empty when the node has none.
* ``gpu_class`` is the model's class name; ``tenant`` the model's tenant name.
"""

# --- spoke: evaluated on every managed cluster, pushed to the hub -------------------------------------------------
# GPUs (units of `resource`) allocated right now to each Running, node-bound pod; labels namespace, pod, node,
# product, resource, workload, workload_type. Burn rate per pod/workload and live allocation views.
POD_ALLOCATED = "namespace_pod:gpudash_gpus_allocated:running"
# GPU-hours allocated in the previous complete clock hour (UTC), integrated at full spoke resolution; labels
# namespace, product, resource. Every push during hour h+1 carries hour h's total, so lost pushes lose nothing.
# The hub reads each pushed hourly series only from samples evaluated during hour h+1 (the collector stamps a
# recording-rule sample with its own query's evaluation time), so no series is ever taken for the wrong hour.
HOURLY_GPU_HOURS = "namespace_product_resource:gpudash_gpu_hours:previous_hour"
# Every hourly spoke rule adds one row with only this label (value 0): proof that the rule ran in that push.
SENTINEL_LABEL = "gpudash_sentinel"
# Start (Unix seconds) of the clock hour a push made now describes; label cluster (on the hub). The cluster's
# heartbeat: pushed whether or not it runs GPUs.
BILLED_HOUR = "cluster:gpudash_billed_hour:start_timestamp"
# Spoke steps (billing.resolution) of the previous clock hour at which kube-state-metrics was up: how much of
# the hour the hourly figures cover (all 3600 / resolution steps, unless data was lost); label cluster (hub).
STEPS_OBSERVED = "cluster:gpudash_steps_observed:previous_hour"
# Most GPUs allocated at any spoke step of the previous clock hour, per node (CCSP); labels node, ACTIVE_FROM_LABEL.
NODE_ACTIVE_GPUS_MAX = "node:gpudash_gpus_active:max_previous_hour"
# Where a step's active GPUs of a node came from: "dcgm" (physical GPUs with a pod attributed by dcgm-exporter) or
# "allocation" (the fewest GPUs that hold the node's allocation, for nodes without attributed exporter data).
ACTIVE_FROM_LABEL = "active_from"
# GPU activity ratio (0-1) per pod: peak and mean over the push window; labels namespace, pod, node, gpu_model.
POD_ACTIVITY_MAX = "namespace_pod:gpudash_gpu_activity:max"
POD_ACTIVITY_AVG = "namespace_pod:gpudash_gpu_activity:avg"
# Peak GPU power (W) per pod over the push window; labels namespace, pod. Only when alerts.idle.power_veto_watts > 0.
POD_POWER_MAX = "namespace_pod:gpudash_gpu_power:max"

# --- hub: model constants -----------------------------------------------------------------------------------------
# Every hub series carries `cluster`, so that ACM's rbac-query-proxy (which adds a cluster matcher to every selector,
# and `cluster=""` for a user without access) never returns a cluster-less gpudash series. Constants that no tenant
# reads are one table on a reserved cluster value no managed cluster can match; the tenant-visible ones are expanded
# to every cluster of the model's `clusters` (readable wherever the tenant has metrics access there).
MODEL_CLUSTER = "gpudash/model"
# Price per hour of one unit of `resource` on `product` (provider-only; joined by the billing rules); labels
# cluster (MODEL_CLUSTER), product, ksm_resource, gpu_class, resource.
SKU_PRICE = "cluster_product_resource:gpudash_price_per_hour:model"
# The compact tenant table (provider-only): value the budget, label row "<namespace> <tenant> <alert_at,...>";
# labels cluster (MODEL_CLUSTER), part (the rule holding the row), row. Decoded onto each model cluster below.
TENANT_ROWS = "cluster_row:gpudash_tenant:model"
# Per cluster of the model: 1 per tenant; labels cluster, namespace, tenant.
TENANT_INFO = "cluster_namespace:gpudash_tenant:info"
# Per cluster of the model: budget per billing period (the same on every cluster: take max, never sum, across
# clusters); labels cluster, namespace, tenant.
TENANT_BUDGET = "cluster_namespace:gpudash_budget:model"
# Per cluster of the model: one series per alert threshold (fraction of budget); labels cluster, namespace, tenant,
# threshold.
TENANT_THRESHOLD = "cluster_namespace:gpudash_budget_threshold:model"

# --- hub: billing -------------------------------------------------------------------------------------------------
# GPU-hours and cost of the last complete clock hour; labels cluster, namespace, gpu_class, resource.
HOUR_GPU_HOURS = "cluster_namespace_class_resource:gpudash_gpu_hours:last_hour"
HOUR_COST = "cluster_namespace_class_resource:gpudash_cost:last_hour"
# Pushed GPU-hours whose (product, resource) has no price: visible, never silently free; labels cluster,
# namespace, product, resource.
UNPRICED_GPU_HOURS = "cluster_namespace_product_resource:gpudash_unpriced_gpu_hours:last_hour"
# Cost per hour right now (burn rate); per namespace, per workload, per pod, on each cluster.
NAMESPACE_COST_RATE = "cluster_namespace:gpudash_cost_per_hour:current"
WORKLOAD_COST_RATE = "cluster_namespace_workload:gpudash_cost_per_hour:current"
POD_COST_RATE = "cluster_namespace_pod:gpudash_cost_per_hour:current"
# Cost of the last complete clock hour per namespace and cluster (input of period-to-date).
TENANT_HOUR_COST = "cluster_namespace:gpudash_cost:last_hour"
# GPUs allocated right now by class; labels cluster, namespace, gpu_class, resource.
CLASS_ALLOCATED = "cluster_namespace_class_resource:gpudash_gpus_allocated:current"
# Period-to-date cost and its projection to the period end, per cluster (labels cluster, namespace, tenant; a
# tenant's figure is the sum over clusters). Every (model cluster, tenant) pair has a series, 0 when unused.
TENANT_COST_PTD = "cluster_namespace:gpudash_cost:period_to_date"
TENANT_COST_PROJECTED = "cluster_namespace:gpudash_cost:period_projection"
# Average cost per hour over billing.burn_rate_window, per cluster (labels cluster, namespace).
TENANT_COST_RATE_AVG = "cluster_namespace:gpudash_cost_per_hour:avg_window"

# Idle GPUs (gpudash.rules.idle, the one idle definition): per pod holding priced GPUs whose peak activity over
# alerts.idle.window was zero (model namespace/model filters, power veto, observed for the whole window), the
# pod's cost per hour. Read by GPUAllocatedIdle, the idle report and `gpudash prune`.
POD_IDLE = "cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour"
POD_IDLE_LABELS = ("cluster", "namespace", "pod", "gpu_model", "workload", "workload_type")

# Share (0-1) of the last complete clock hour that the cluster's billed figures cover: the steps observed over
# the steps in an hour, 0 when the cluster pushed in the hour but an hourly rule failed in every push (the hour
# is lost, not repeated); label cluster. Below 1 the hour is under-billed: GPUBillingDataGap.
BILLING_COVERAGE = "cluster:gpudash_billing_coverage:last_hour"

# --- hub: CCSP ----------------------------------------------------------------------------------------------------
# Per node, last complete hour: max GPUs active (labels cluster, node); active nodes and fleet GPUs (labels cluster).
CCSP_NODE_GPUS = "cluster_node:gpudash_gpus_active:max_last_hour"
CCSP_ACTIVE_NODES = "cluster:gpudash_nodes_active:last_hour"
CCSP_ACTIVE_GPUS = "cluster:gpudash_gpus_active:sum_last_hour"

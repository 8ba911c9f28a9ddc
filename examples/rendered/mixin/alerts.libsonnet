// Rendered by gpudash from the model (gpudash.yaml): edit the model and re-render, not this file.
{
  prometheusAlerts+:: {
    groups+: [
      {
        // Tenant budgets and burn: what each tenant is spending on GPUs this
        // billing period, against its budget. Routed to the tenant's receiver.
        "name": "gpudash-alerts-tenant",
        "interval": "5m",
        "rules": [
          {
            // The tenant's period-to-date GPU cost reached one of its alert_at fractions of the budget (below
            // 100%). Only the highest fraction reached fires; the value is the cost so far, in USD.
            "alert": "GPUBudgetThresholdReached",
            "expr": "(sum by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_cost:period_to_date[7m30s])) + on (namespace) group_right () ((((max by (namespace, tenant, threshold) (last_over_time(cluster_namespace:gpudash_budget_threshold:model[7m30s])) <= on (namespace) group_left () (sum by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_cost:period_to_date[7m30s])) / on (namespace) group_left () max by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_budget:model[7m30s])))) == on (namespace) group_left () max by (namespace) ((max by (namespace, tenant, threshold) (last_over_time(cluster_namespace:gpudash_budget_threshold:model[7m30s])) <= on (namespace) group_left () (sum by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_cost:period_to_date[7m30s])) / on (namespace) group_left () max by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_budget:model[7m30s])))))) < 1) * 0)) + on (namespace) group_right (threshold) (last_over_time(cluster_namespace:gpudash_tenant:info[7m30s]) * 0)",
            "for": "15m",
            "labels": {
              "severity": "warning",
              "audience": "tenant",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-tenant-{{ $labels.tenant }}",
              "description": "Tenant {{ $labels.tenant }} (namespace {{ $labels.namespace }}) has spent {{ $value | printf \"%.2f\" }} USD on GPUs so far in this billing period: at least {{ $labels.threshold | humanizePercentage }} of its budget{{ with printf \"last_over_time(cluster_namespace:gpudash_budget:model{namespace=%q}[7m30s])\" $labels.namespace | query }} of {{ . | first | value | printf \"%.2f\" }} USD{{ end }}.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBudgetThresholdReached",
              "summary": "A tenant has spent a set share of its GPU budget for this billing period.",
            },
          },
          {
            // The tenant's period-to-date GPU cost reached an alert_at fraction of 100% or more of the budget.
            // Billing goes on: gpudash alerts, it never stops workloads.
            "alert": "GPUBudgetExhausted",
            "expr": "(sum by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_cost:period_to_date[7m30s])) + on (namespace) group_right () ((((max by (namespace, tenant, threshold) (last_over_time(cluster_namespace:gpudash_budget_threshold:model[7m30s])) <= on (namespace) group_left () (sum by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_cost:period_to_date[7m30s])) / on (namespace) group_left () max by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_budget:model[7m30s])))) == on (namespace) group_left () max by (namespace) ((max by (namespace, tenant, threshold) (last_over_time(cluster_namespace:gpudash_budget_threshold:model[7m30s])) <= on (namespace) group_left () (sum by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_cost:period_to_date[7m30s])) / on (namespace) group_left () max by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_budget:model[7m30s])))))) >= 1) * 0)) + on (namespace) group_right (threshold) (last_over_time(cluster_namespace:gpudash_tenant:info[7m30s]) * 0)",
            "for": "15m",
            "labels": {
              "severity": "critical",
              "audience": "tenant",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-tenant-{{ $labels.tenant }}",
              "description": "Tenant {{ $labels.tenant }} (namespace {{ $labels.namespace }}) has spent {{ $value | printf \"%.2f\" }} USD on GPUs so far in this billing period: at least {{ $labels.threshold | humanizePercentage }} of its budget{{ with printf \"last_over_time(cluster_namespace:gpudash_budget:model{namespace=%q}[7m30s])\" $labels.namespace | query }} of {{ . | first | value | printf \"%.2f\" }} USD{{ end }}. GPU time beyond the budget is still billed.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBudgetExhausted",
              "summary": "A tenant has used up its GPU budget for this billing period.",
            },
          },
          {
            // Period-to-date cost plus the average burn rate over billing.burn_rate_window for the rest of the
            // period exceeds the budget, while the budget is not yet spent (then GPUBudgetExhausted speaks).
            "alert": "GPUBudgetProjectedOverrun",
            "expr": "((sum by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_cost:period_projection[7m30s])) > on (namespace) group_left () max by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_budget:model[7m30s]))) unless on (namespace) (sum by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_cost:period_to_date[7m30s])) >= on (namespace) group_left () max by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_budget:model[7m30s])))) + on (namespace) group_right () (last_over_time(cluster_namespace:gpudash_tenant:info[7m30s]) * 0)",
            "for": "1h",
            "labels": {
              "severity": "warning",
              "audience": "tenant",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-tenant-{{ $labels.tenant }}",
              "description": "At its average burn rate over the last 1h, tenant {{ $labels.tenant }} (namespace {{ $labels.namespace }}) will have spent {{ $value | printf \"%.2f\" }} USD on GPUs by the end of the billing period, more than its budget{{ with printf \"last_over_time(cluster_namespace:gpudash_budget:model{namespace=%q}[7m30s])\" $labels.namespace | query }} of {{ . | first | value | printf \"%.2f\" }} USD{{ end }}.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBudgetProjectedOverrun",
              "summary": "A tenant is on course to exceed its GPU budget by the end of the billing period.",
            },
          },
          {
            // The tenant's cost per hour right now is at least alerts.burn_jump_factor times its average over
            // billing.burn_rate_window (the average includes the jump, so a step from r0 to r1 fires for the
            // first W x (r1 - f r0) / (f (r1 - r0)) of the window). Starting from idle counts as a jump.
            "alert": "GPUBurnRateJump",
            "expr": "((sum by (namespace) (last_over_time(cluster_namespace:gpudash_cost_per_hour:current[7m30s])) > 0) >= on (namespace) (2.0 * sum by (namespace) (last_over_time(cluster_namespace:gpudash_cost_per_hour:avg_window[7m30s])))) + on (namespace) group_right () (last_over_time(cluster_namespace:gpudash_tenant:info[7m30s]) * 0)",
            "for": "5m",
            "labels": {
              "severity": "info",
              "audience": "tenant",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-tenant-{{ $labels.tenant }}",
              "description": "Tenant {{ $labels.tenant }} (namespace {{ $labels.namespace }}) now spends {{ $value | printf \"%.2f\" }} USD per hour on GPUs, at least 2 times its average over the last 1h{{ with printf \"sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:avg_window{namespace=%q}[7m30s]))\" $labels.namespace | query }} ({{ . | first | value | printf \"%.2f\" }} USD per hour){{ end }}.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBurnRateJump",
              "summary": "A tenant's GPU spending rate jumped well above its recent average.",
            },
          },
        ],
      },
      {
        // Idle GPUs: allocated (and billed) GPUs with no activity. Routed to the
        // tenant's receiver.
        "name": "gpudash-alerts-idle",
        "interval": "5m",
        "rules": [
          {
            // GPUs allocated to a Running pod are billed whether they work or not: this pod's peak GPU activity
            // was zero for alerts.idle.window. The value is what its GPUs cost per hour (pods on unpriced
            // products cost the tenant nothing and are reported by GPUUsageUnpriced instead).
            "alert": "GPUAllocatedIdle",
            "expr": "(last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour[7m30s])) * on (namespace) group_left (tenant) max by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_tenant:info[7m30s]))",
            "labels": {
              "severity": "warning",
              "audience": "tenant",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-tenant-{{ $labels.tenant }}",
              "description": "Pod {{ $labels.pod }} ({{ $labels.workload_type }} {{ $labels.workload }}) of tenant {{ $labels.tenant }} on cluster {{ $labels.cluster }} holds {{ $labels.gpu_model }} GPUs whose peak activity over the last 30m was zero. They are billed at {{ $value | printf \"%.2f\" }} USD per hour while idle.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUAllocatedIdle",
              "summary": "A pod holds GPUs that have done no work for the whole idle window.",
            },
          },
        ],
      },
      {
        // GPU quotas: tenants that requested all the GPUs their quota allows.
        // Routed to the tenant's receiver.
        "name": "gpudash-alerts-quota",
        "interval": "5m",
        "rules": [
          {
            // The tenant's requests reached its gpudash-gpu ResourceQuota: it is billed for all of it and cannot
            // get more GPUs of this kind on the cluster. A quota of 0 never fires.
            "alert": "GPUQuotaExhausted",
            "expr": ("((max by (cluster, namespace, resource) (last_over_time(kube_resourcequota{job=\"%(kubeStateMetricsJob)s\",resourcequota=\"gpudash-gpu\",type=\"used\"}[7m30s])) >= on (cluster, namespace, resource) max by (cluster, namespace, resource) (last_over_time(kube_resourcequota{job=\"%(kubeStateMetricsJob)s\",resourcequota=\"gpudash-gpu\",type=\"hard\"}[7m30s]))) and on (cluster, namespace, resource) (max by (cluster, namespace, resource) (last_over_time(kube_resourcequota{job=\"%(kubeStateMetricsJob)s\",resourcequota=\"gpudash-gpu\",type=\"hard\"}[7m30s])) > 0)) * on (namespace) group_left (tenant) max by (namespace, tenant) (last_over_time(cluster_namespace:gpudash_tenant:info[7m30s]))" % $._config),
            "for": "15m",
            "labels": {
              "severity": "info",
              "audience": "tenant",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-tenant-{{ $labels.tenant }}",
              "description": "Tenant {{ $labels.tenant }} (namespace {{ $labels.namespace }}) has requested {{ $value | printf \"%.0f\" }} {{ $labels.resource }} on cluster {{ $labels.cluster }}, all of its quota: new pods asking for more are rejected until others finish.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUQuotaExhausted",
              "summary": "A tenant has requested all the GPUs its quota allows on a cluster.",
            },
          },
        ],
      },
      {
        // Billing-data integrity: every cluster pushing, allocation measured,
        // every GPU-hour priced, billing rules evaluating. Routed to the provider.
        "name": "gpudash-alerts-integrity",
        "interval": "5m",
        "rules": [
          {
            // A cluster of the model's clusters list pushed no cluster:gpudash_billed_hour:start_timestamp
            // (sent at every push, GPUs or not): nothing it runs is billed while it is silent.
            "alert": "GPUClusterNotReporting",
            "expr": "(absent_over_time(cluster:gpudash_billed_hour:start_timestamp{cluster=\"prod-east\"}[7m30s]) or absent_over_time(cluster:gpudash_billed_hour:start_timestamp{cluster=\"prod-west\"}[7m30s])) unless on () last_over_time(cluster:gpudash_billed_hour:start_timestamp{cluster=\"\"}[7m30s])",
            "for": "15m",
            "labels": {
              "severity": "critical",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "No gpudash data has arrived from cluster {{ $labels.cluster }} for the last pushes: its metrics-collector stopped pushing or the gpudash allowlist is missing there. GPU time on it is not billed until pushes resume; an hour is lost when no push arrives during the hour after it.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUClusterNotReporting",
              "summary": "A cluster of the model sends no gpudash data to the hub.",
            },
          },
          {
            // The hour before this one is under-billed on a cluster: an hourly spoke rule failed in every
            // push of this hour (the hour is missing, never taken from another hour), or the spoke
            // Prometheus had no data for part of it. Pushes carry the previous hour, so lost pushes alone
            // lose nothing while one push of the hour arrives.
            "alert": "GPUBillingDataGap",
            "expr": "cluster:gpudash_billing_coverage:last_hour < 1",
            "for": "15m",
            "labels": {
              "severity": "critical",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "The billed figures of the hour the hub settled last (25 hours ago) of cluster {{ $labels.cluster }} cover {{ $value | humanizePercentage }} of its spoke steps: GPU time in the rest of the hour is not billed. Either no push carried the hour (every push lost for more than 24 hours), an hourly gpudash rule failed in every push that carried it, or the spoke Prometheus had no data for part of the hour (restarted with an empty TSDB, kube-state-metrics down, a spoke-tier rule failed or missed).",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBillingDataGap",
              "summary": "The last complete hour of a cluster is billed from incomplete data.",
            },
          },
          {
            // Every kube-state-metrics target of the cluster fails its scrape, or the cluster pushes but has
            // no kube-state-metrics target: allocation is unmeasured, so GPU time is under-billed.
            "alert": "GPUKubeStateMetricsDown",
            "expr": ("(max by (cluster, job) (last_over_time(up{job=\"%(kubeStateMetricsJob)s\"}[7m30s])) == 0) or label_replace(count by (cluster) (last_over_time(cluster:gpudash_billed_hour:start_timestamp[7m30s])) unless on (cluster) count by (cluster) (last_over_time(up{job=\"%(kubeStateMetricsJob)s\"}[7m30s])), \"job\", \"%(kubeStateMetricsJob)s\", \"\", \"\")" % $._config),
            "for": "10m",
            "labels": {
              "severity": "critical",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "kube-state-metrics (job {{ $labels.job }}) on cluster {{ $labels.cluster }} is down or not scraped. GPU allocation is measured from it: GPU time on the cluster is not billed while it is down.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUKubeStateMetricsDown",
              "summary": "The source of GPU allocation, kube-state-metrics, is down on a cluster.",
            },
          },
          {
            // Nodes report GPU capacity (kube-state-metrics) but the vendor's exporter has no scrape target
            // in the cluster: utilisation, idle alerts and health checks see nothing. Billing (from
            // allocation) is unaffected.
            "alert": "GPUExporterMissing",
            "expr": ("label_replace(count by (cluster) (max by (cluster, node) (last_over_time(kube_node_status_capacity{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_gpu|nvidia_com_gpu_shared|nvidia_com_mig_.+\"}[7m30s])) > 0) unless on (cluster) count by (cluster) (last_over_time(up{job=~\"%(dcgmExporterJob)s\"}[7m30s])), \"job\", \"%(dcgmExporterJob)s\", \"\", \"\") or label_replace(count by (cluster) (max by (cluster, node) (last_over_time(kube_node_status_capacity{job=\"%(kubeStateMetricsJob)s\",resource=~\"amd_com_gpu\"}[7m30s])) > 0) unless on (cluster) count by (cluster) (last_over_time(up{job=~\"%(amdExporterJob)s\"}[7m30s])), \"job\", \"%(amdExporterJob)s\", \"\", \"\")" % $._config),
            "for": "15m",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "Cluster {{ $labels.cluster }} has {{ $value | printf \"%.0f\" }} GPU nodes but no {{ $labels.job }} scrape target: GPU activity, idle detection and GPU health are blind there (billing, from allocation, is not affected).",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUExporterMissing",
              "summary": "A cluster has GPU nodes but no GPU exporter target.",
            },
          },
          {
            // Unpriced GPU-hours are never silently free: they are reported until the model prices the
            // product (a new GPU model, a node without a product label, an unknown MIG profile).
            "alert": "GPUUsageUnpriced",
            "expr": "last_over_time(cluster_namespace_product_resource:gpudash_unpriced_gpu_hours:last_hour[7m30s]) > 0",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "In the last hour namespace {{ $labels.namespace }} on cluster {{ $labels.cluster }} used {{ $value | printf \"%.2f\" }} GPU-hours of {{ $labels.resource }} on product \"{{ $labels.product }}\", which the model has no price for: they are billed at nothing until the model prices them (gpu_classes products, MIG or time-slicing prices, in USD).",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUUsageUnpriced",
              "summary": "GPU-hours were used on a product or resource the model has no price for.",
            },
          },
          {
            // Idle GPU capacity burns power that no tenant pays for: the unallocated share of the
            // cluster's GPU energy in the last hour reached energy.unallocated_alert_ratio.
            "alert": "GPUEnergyUnallocated",
            "expr": "sum by (cluster) (last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"\"}[7m30s])) / sum by (cluster) (last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour[7m30s])) >= 0.5",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "In the last hour {{ $value | humanizePercentage }} of the GPU energy of cluster {{ $labels.cluster }} went to GPUs no pod held: idle capacity drawing power that no tenant pays for (the provider's unallocated energy line).",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUEnergyUnallocated",
              "summary": "Much of a cluster's GPU energy went to GPUs that no pod held.",
            },
          },
          {
            // kube-state-metrics' init-container series are not scraped (OpenShift's minimal collection
            // profile): init containers' and native sidecars' GPU requests go unbilled.
            "alert": "GPUBillingInputMissing",
            "expr": "last_over_time(cluster_input_node:gpudash_input_missing:count{input=\"init_containers\"}[7m30s]) > 0",
            "for": "10m",
            "labels": {
              "severity": "critical",
              "audience": "provider",
              "input": "init_containers",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "On cluster {{ $labels.cluster }}: kube-state-metrics' pod series are scraped but not its container series (kube_pod_container_info, kube_pod_init_container_info, kube_pod_init_container_resource_requests): GPUs requested by init containers and native sidecars are not billed. Fix: OpenShift's monitoring collectionProfile minimal drops them: set prometheusK8s.collectionProfile: full in the openshift-monitoring cluster-monitoring-config ConfigMap, or keep these series in the scrape.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBillingInputMissing",
              "summary": "A series the billing rules need is missing on a cluster.",
            },
          },
          {
            // The spoke tier is not recording on a model cluster (the Placement missed it, or its group
            // fails): that cluster's hourly GPU-hours and energy are empty.
            "alert": "GPUBillingInputMissing",
            "expr": "last_over_time(cluster_input_node:gpudash_input_missing:count{input=\"spoke_tier\"}[7m30s]) > 0",
            "labels": {
              "severity": "critical",
              "audience": "provider",
              "input": "spoke_tier",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "On cluster {{ $labels.cluster }}: no spoke-tier step (cluster:gpudash_ksm_up:step) is recorded while kube-state-metrics is up: the gpudash-spoke-tier rule group is not loaded or not evaluating, so the hourly GPU-hours and energy are empty. Fix: make the hub's Placement gpudash-spoke-tier select the cluster (its ManagedCluster name must be in the model's clusters) and check that the Policy gpudash-spoke-tier is compliant there.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBillingInputMissing",
              "summary": "A series the billing rules need is missing on a cluster.",
            },
          },
          {
            // GPUs report activity but their node reports no power or energy: their energy is unmetered
            // and the idle power veto cannot apply (a GPU at work may be alerted or pruned as idle).
            "alert": "GPUBillingInputMissing",
            "expr": "last_over_time(cluster_input_node:gpudash_input_missing:count{input=\"gpu_power\"}[7m30s]) > 0",
            "for": "10m",
            "labels": {
              "severity": "warning",
              "audience": "provider",
              "input": "gpu_power",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "On node {{ $labels.node }} of cluster {{ $labels.cluster }}: {{ $value | printf \"%.0f\" }} GPUs report activity but no GPU of the node reports power or energy: their energy is not measured (neither a tenant's nor unallocated) and the idle alert's power veto cannot apply to them. Fix: AMD MI300X_VF guests and MI2xx GPUs export no gpu_package_power (ROCm/device-metrics-exporter docs/configuration/metricslist.md): have the exporter export gpu_energy_consumed or gpu_package_power (DCGM: DCGM_FI_DEV_POWER_USAGE or DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION in its counters), or accept this node's energy as unmetered.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBillingInputMissing",
              "summary": "A series the billing rules need is missing on a cluster.",
            },
          },
          {
            // GPUs allocated on a node whose product label kube_node_labels does not show are billed at
            // nothing (unpriced): vanilla kube-state-metrics exports no node labels without
            // --metric-labels-allowlist=nodes=[...], or the labeller is not running there.
            "alert": "GPUNodeWithoutProductLabel",
            "expr": "sum by (cluster, node) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{product=\"\"}[7m30s])) > 0",
            "for": "15m",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "Node {{ $labels.node }} on cluster {{ $labels.cluster }} holds {{ $value | printf \"%.0f\" }} GPUs allocated to Running pods but shows no GPU product label: their GPU-hours are unpriced. kube-state-metrics exports node labels only with --metric-labels-allowlist=nodes=[...] (OpenShift sets nodes=[*]), and GPU Feature Discovery or the AMD node labeller must run on the node.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUNodeWithoutProductLabel",
              "summary": "A node holds GPU allocations but has no GPU product label.",
            },
          },
          {
            // GPU requests with no node binding (node="") are not billed: a pod waiting this long is demand
            // the fleet turns away (capacity, quota, fragmentation).
            "alert": "GPURequestsUnscheduled",
            "expr": ("sum by (cluster, namespace, pod, resource) (max by (cluster, namespace, pod, container, resource) (last_over_time(kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node=\"\"}[7m30s]))) > 0" % $._config),
            "for": "30m",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "Pod {{ $labels.pod }} in namespace {{ $labels.namespace }} on cluster {{ $labels.cluster }} has requested {{ $value | printf \"%.0f\" }} {{ $labels.resource }} without being bound to a node for more than 30m: GPU capacity, quota or fragmentation is turning demand away (it is not billed while it waits).",
              "runbook_url": "https://runbooks.example.com/gpudash/GPURequestsUnscheduled",
              "summary": "A pod has waited a long time for GPUs without being scheduled.",
            },
          },
          {
            // A gpudash rule group (billing rules or alerts) fails to evaluate: billing series and alerts go
            // missing. Reads prometheus_rule_evaluation_failures_total of gpudash-* groups.
            "alert": "GPUBillingRuleFailures",
            "expr": "sum by (cluster, rule_group) (increase(prometheus_rule_evaluation_failures_total{rule_group=~\".*;gpudash-.*\"}[10m])) > 0",
            "for": "15m",
            "labels": {
              "severity": "critical",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "Rule group {{ $labels.rule_group }} has had failed evaluations in every 10m window for 15m: its billing series or alerts are missing or stale. The Ruler's (or Prometheus') log names the failing rules.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBillingRuleFailures",
              "summary": "Evaluations of gpudash billing rules or alerts are failing.",
            },
          },
          {
            // A gpudash rule group's last evaluation took longer than its interval: evaluations are skipped,
            // and the hourly billing series get gaps.
            "alert": "GPUBillingRuleGroupSlow",
            "expr": "max by (cluster, rule_group) (last_over_time(prometheus_rule_group_last_duration_seconds{rule_group=~\".*;gpudash-.*\"}[7m30s])) > on (cluster, rule_group) max by (cluster, rule_group) (last_over_time(prometheus_rule_group_interval_seconds{rule_group=~\".*;gpudash-.*\"}[7m30s]))",
            "for": "15m",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "The last evaluation of rule group {{ $labels.rule_group }} took {{ $value | printf \"%.0f\" }} seconds, longer than the group's evaluation interval: evaluations are skipped and billing series get gaps.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUBillingRuleGroupSlow",
              "summary": "A gpudash rule group takes longer to evaluate than its interval.",
            },
          },
        ],
      },
      {
        // GPU health: XID errors, GPUs taken out of allocation, exporter scrape
        // errors. Routed to the provider.
        "name": "gpudash-alerts-health",
        "interval": "5m",
        "rules": [
          {
            // A GPU reported an XID that needs a GPU reset or node reboot (48, 64, 74, 79, 94, 95, 119, 120); DCGM keeps the value until then.
            "alert": "GPUXidError",
            "expr": ("(max by (cluster, Hostname, hostname, gpu, UUID, modelName) (last_over_time(DCGM_FI_DEV_XID_ERRORS{job=~\"%(dcgmExporterJob)s\"}[7m30s])) > 0) unless on (cluster, Hostname, hostname, gpu, UUID, modelName) ((max by (cluster, Hostname, hostname, gpu, UUID, modelName) (last_over_time(DCGM_FI_DEV_XID_ERRORS{job=~\"%(dcgmExporterJob)s\"}[7m30s])) > 0) != 48 != 64 != 74 != 79 != 94 != 95 != 119 != 120)" % $._config),
            "labels": {
              "severity": "critical",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "GPU {{ $labels.gpu }} ({{ $labels.UUID }}) on node {{ $labels.Hostname }}{{ $labels.hostname }} of cluster {{ $labels.cluster }} reported XID {{ $value | printf \"%.0f\" }}. NVIDIA lists it as needing a GPU reset or a node reboot: drain the node; the tenant using the GPU is billed for it meanwhile.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUXidError",
              "summary": "A GPU reported an XID error.",
            },
          },
          {
            // A GPU reported another XID within 1h (DCGM keeps the last XID, so
            // only a change counts). The tenant holding the GPU pays for it either way.
            "alert": "GPUXidError",
            "expr": ("((max by (cluster, Hostname, hostname, gpu, UUID, modelName) (last_over_time(DCGM_FI_DEV_XID_ERRORS{job=~\"%(dcgmExporterJob)s\"}[7m30s])) > 0) != 48 != 64 != 74 != 79 != 94 != 95 != 119 != 120) and on (cluster, Hostname, hostname, gpu, UUID, modelName) (max by (cluster, Hostname, hostname, gpu, UUID, modelName) (changes(DCGM_FI_DEV_XID_ERRORS{job=~\"%(dcgmExporterJob)s\"}[1h])) > 0)" % $._config),
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "GPU {{ $labels.gpu }} ({{ $labels.UUID }}) on node {{ $labels.Hostname }}{{ $labels.hostname }} of cluster {{ $labels.cluster }} reported XID {{ $value | printf \"%.0f\" }}. It is usually an application fault; repeated XIDs on the same GPU point at the hardware.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUXidError",
              "summary": "A GPU reported an XID error.",
            },
          },
          {
            // Allocatable GPUs below capacity: the device plugin took GPUs out (unhealthy) or is down. Those
            // GPUs cannot be allocated, so they earn nothing.
            "alert": "GPUAllocatableBelowCapacity",
            "expr": ("(max by (cluster, node, resource) (last_over_time(kube_node_status_capacity{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\"}[7m30s])) - on (cluster, node, resource) max by (cluster, node, resource) (last_over_time(kube_node_status_allocatable{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\"}[7m30s]))) > 0" % $._config),
            "for": "15m",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "Node {{ $labels.node }} of cluster {{ $labels.cluster }} offers {{ $value | printf \"%.0f\" }} fewer {{ $labels.resource }} than it has: the device plugin marked GPUs unhealthy or is not running. They cannot be allocated or sold.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUAllocatableBelowCapacity",
              "summary": "A node offers fewer GPUs than it has.",
            },
          },
          {
            // A DCGM or AMD exporter target is down: its node's GPU activity and errors are unseen, so idle
            // GPUs are not reported. Billing (from allocation) is not affected.
            "alert": "GPUExporterDown",
            "expr": ("min by (cluster, job, instance) (last_over_time(up{job=~\"(?:%(dcgmExporterJob)s)|(?:%(amdExporterJob)s)\"}[7m30s])) == 0" % $._config),
            "for": "10m",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "The {{ $labels.job }} target {{ $labels.instance }} on cluster {{ $labels.cluster }} fails its scrapes: GPU activity, idle alerts and XID errors of its node are not seen (billing, from allocation, is not affected).",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUExporterDown",
              "summary": "A GPU exporter fails its scrapes.",
            },
          },
        ],
      },
      {
        // The idle-GPU pruner: stops that did not free the GPUs. Routed to the
        // provider.
        "name": "gpudash-alerts-prune",
        "interval": "5m",
        "rules": [
          {
            // A workload gpudash prune stopped still holds its GPUs after --effect-timeout (an older KServe,
            // a controller that ignores the stop): its idle GPUs are still billed to the tenant, and the
            // pruner marked it ineffective and will not retry it.
            "alert": "GPUPrunerIneffective",
            "expr": "max by (cluster, namespace, kind, workload) (last_over_time(gpudash_prune_ineffective_stop[7m30s])) > 0",
            "labels": {
              "severity": "warning",
              "audience": "provider",
            },
            "annotations": {
              "dashboard_url": "https://grafana.example.com/d/gpudash-provider",
              "description": "gpudash prune stopped {{ $labels.kind }} {{ $labels.workload }} in namespace {{ $labels.namespace }} on cluster {{ $labels.cluster }}, but its GPU pods still hold their GPUs: the stop did nothing, the tenant is still billed for idle GPUs and the pruner will not retry.",
              "runbook_url": "https://runbooks.example.com/gpudash/GPUPrunerIneffective",
              "summary": "The pruner stopped a workload, but its GPUs were not freed.",
            },
          },
        ],
      },
    ],
  },
}

"""Exact PromQL of the main rule builders: a table of (builder, model -> the exact expression and labels), as pyrra
tests its rule generation (pyrra-dev/pyrra ``slo/rules_test.go``, ``TestObjective_Burnrates``: each case an
objective and the exact ``monitoringv1.RuleGroup`` its ``Burnrates()`` must give, every ``Expr`` a literal PromQL
string, compared with ``require.Equal``).

The golden scenarios prove what the rules compute; this table pins how they say it, so a change to a builder shows
up as a diff of the PromQL it emits, reviewed with the change. The models are the smallest that exercise each
builder: one class and tenant (``minimal``) and the variants a builder's output depends on.
"""
from __future__ import annotations

import pytest

from gpudash.model import model_from_dict
from gpudash.model import series as names
from gpudash.promql import calendar
from gpudash.promql.lint import parse
from gpudash.render.rules import hub, spoke, spoke_tier

MINIMAL = {
    "gpu_classes": [{"name": "a100", "vendor": "nvidia", "products": ["NVIDIA A100-SXM4-40GB"], "price_per_hour": 2.8}],
    "tenants": [{"name": "team-a", "namespace": "team-a", "budget": 100}],
    "clusters": ["east"],
}
VARIANTS = {
    "minimal": {},
    "no-backfill": {"billing": {"backfill_hours": 0}},
    "30s-backfill-2": {"billing": {"resolution": "30s", "backfill_hours": 2}},
    "tier": {"billing": {"spoke_tier": "policy"}},
    "two-tenants": {"tenants": [{"name": "team-a", "namespace": "team-a", "budget": 100},
                                {"name": "ml", "namespace": "ml-research", "budget": 2500.5, "alert_at": [0.8]}]},
}


def hub_rules(model):
    return [r for g in hub.groups(model) for r in g.rules]


def tier_rules(model):
    return spoke_tier.group(model).rules


def rule(rules, record: str, *labels: tuple[str, str]):
    """The first rule of ``rules(model)`` recording ``record`` with ``labels``: (its expression, its labels)."""
    def build(model):
        found = next(r for r in rules(model) if r.record == record and set(labels) <= set(r.labels))
        return found.expr, dict(found.labels)
    return build


def builder(function):
    """A building block's PromQL (no rule, no labels)."""
    return lambda model: (function(model), None)


TABLE = [
    ("spoke namespace_pod:gpudash_gpus_allocated:running", "minimal", rule(spoke.rules, names.POD_ALLOCATED),
     'sum by (cluster, namespace, pod, node, product, resource, workload, workload_type) '
     '(namespace_pod:gpudash_gpus_allocated:step)',
     {}),
    ("spoke cluster:gpudash_billed_hour:start_timestamp", "minimal", rule(spoke.rules, names.BILLED_HOUR),
     'floor(vector(time()) / 3600) * 3600 - 3600',
     {}),
    ("spoke hour steps, resolution 1m", "minimal", builder(lambda m: spoke.hour_steps("x", m)),
     '(x)[1h:1m] offset 1ms',
     None),
    ("spoke hour steps, resolution 30s", "30s-backfill-2", builder(lambda m: spoke.hour_steps("x", m)),
     '(x)[1h:30s] offset 1ms',
     None),
    ("spoke previous hour, no backfill", "no-backfill", builder(lambda m: spoke.previous_hour(m, "x")),
     'last_over_time((x)[59m59s999ms:1h]) or label_replace(vector(0), "gpudash_sentinel", "1", "", "")',
     None),
    ("spoke previous hour, backfill 2h", "30s-backfill-2", builder(lambda m: spoke.previous_hour(m, "x")),
     'label_replace(last_over_time((x)[59m59s999ms:1h]) or label_replace(vector(0), '
     '"gpudash_sentinel", "1", "", ""), "gpudash_lag", "1", "", "") or '
     'label_replace(last_over_time((x)[59m59s999ms:1h] offset 1h) or label_replace(vector(0), '
     '"gpudash_sentinel", "1", "", ""), "gpudash_lag", "2", "", "") or '
     'label_replace(last_over_time((x)[59m59s999ms:1h] offset 2h) or label_replace(vector(0), '
     '"gpudash_sentinel", "1", "", ""), "gpudash_lag", "3", "", "")',
     None),
    # a settle's complete-hour reads (lags 1..N): one hour-boundary subquery, each read offset inside it
    ("hub settle, hours ago", "minimal", builder(lambda m: calendar.pushed_hours_ago([("x", 1), ("y", 3)])),
     'last_over_time((max_over_time(x[1h] offset 1ms) or max_over_time(y[1h] offset 2h1ms))[59m59s999ms:1h])',
     None),
    ("hub cluster_product_resource:gpudash_price_per_hour:model", "minimal", rule(hub_rules, names.SKU_PRICE),
     'vector(2.8)',
     dict(cluster="gpudash/model", gpu_class="a100", ksm_resource="nvidia_com_gpu",
          product="NVIDIA-A100-SXM4-40GB", resource="nvidia.com/gpu")),
    ("hub cluster_row:gpudash_tenant:model", "minimal", rule(hub_rules, names.TENANT_ROWS),
     'label_replace(vector(100.0), "row", "team-a team-a 0.5,0.9,1", "", "")',
     dict(cluster="gpudash/model", part="0")),
    ("hub cluster_namespace:gpudash_budget:model", "minimal", rule(hub_rules, names.TENANT_BUDGET),
     'max without (row, part) '
     '(label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster="gpudash/model"}, '
     '"namespace", "$1", "row", "([^ ]+) ([^ ]+) ([^ ]*)"), "tenant", "$2", "row", "([^ ]+) ([^ ]+) '
     '([^ ]*)"))',
     dict(cluster="east")),
    ("hub cluster_namespace:gpudash_budget_threshold:model", "minimal", rule(hub_rules, names.TENANT_THRESHOLD),
     'max without (row, part) '
     '(label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster="gpudash/model",row=~".*[ '
     ',]0\\\\.5(,.*)?"}, "namespace", "$1", "row", "([^ ]+) ([^ ]+) ([^ ]*)"), "tenant", "$2", "row", '
     '"([^ ]+) ([^ ]+) ([^ ]*)")) * 0 + 0.5',
     dict(cluster="east", threshold="0.5")),
    ("hub cluster_namespace:gpudash_tenant:info", "minimal", rule(hub_rules, names.TENANT_INFO),
     'cluster_namespace:gpudash_budget:model * 0 + 1',
     {}),
    ("hub cluster_namespace_class_resource:gpudash_gpus_allocated:current", "minimal",
     rule(hub_rules, names.CLASS_ALLOCATED),
     'sum by (cluster, namespace, gpu_class, resource) '
     '(label_replace(last_over_time(namespace_pod:gpudash_gpus_allocated:running[7m30s]), '
     '"ksm_resource", "$1", "resource", "(.*)") * on (product, ksm_resource) group_left (gpu_class, '
     'resource) (cluster_product_resource:gpudash_price_per_hour:model * 0 + 1))',
     {}),
    ("hub cluster_namespace_pod:gpudash_cost_per_hour:current", "minimal", rule(hub_rules, names.POD_COST_RATE),
     'sum by (cluster, namespace, pod, workload, workload_type) '
     '(label_replace(last_over_time(namespace_pod:gpudash_gpus_allocated:running[7m30s]), '
     '"ksm_resource", "$1", "resource", "(.*)") * on (product, ksm_resource) group_left (gpu_class, '
     'resource) cluster_product_resource:gpudash_price_per_hour:model)',
     {}),
    ("hub cluster_namespace_workload:gpudash_cost_per_hour:current", "minimal",
     rule(hub_rules, names.WORKLOAD_COST_RATE),
     'sum by (cluster, namespace, workload, workload_type) '
     '(cluster_namespace_pod:gpudash_cost_per_hour:current)',
     {}),
    ("hub cluster_namespace:gpudash_cost_per_hour:current", "minimal", rule(hub_rules, names.NAMESPACE_COST_RATE),
     'sum by (cluster, namespace) (cluster_namespace_pod:gpudash_cost_per_hour:current)',
     {}),
    ("hub cluster_namespace:gpudash_cost_per_hour:avg_window", "minimal", rule(hub_rules, names.TENANT_COST_RATE_AVG),
     'sum_over_time(last_over_time(cluster_namespace:gpudash_cost_per_hour:current[5m])[59m59s999ms:5m]) '
     '* 300 / 3600',
     {}),
    ("hub cluster_namespace:gpudash_cost:period_to_date", "minimal", rule(hub_rules, names.TENANT_COST_PTD),
     '(sum by (cluster, namespace) (label_replace(sum by (cluster, namespace) (sum by (cluster, '
     'namespace, gpudash_month) '
     '(sum_over_time((last_over_time(cluster_namespace:gpudash_cost:last_hour[1h] offset 1ms) * on () '
     'group_left (gpudash_month) count_values("gpudash_month", month(vector(time() - 93600)) % '
     '3))[31d:1h])) * on (gpudash_month) group_left () count_values("gpudash_month", '
     'month(vector(time())) % 3)), "gpudash_part", "hours", "", "") or label_replace(sum by (cluster, '
     'namespace) (cluster_namespace:gpudash_cost_per_hour:current * scalar((vector(time() % 3600 + '
     '90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or '
     '((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), "gpudash_part", '
     '"estimate", "", "")) * on (namespace) group_left (tenant) max by (namespace, tenant) '
     '(cluster_namespace:gpudash_tenant:info)) or (cluster_namespace:gpudash_tenant:info * 0)',
     {}),
    ("hub cluster_namespace:gpudash_cost:period_projection", "minimal", rule(hub_rules, names.TENANT_COST_PROJECTED),
     '(cluster_namespace:gpudash_cost:period_to_date + on (cluster, namespace) group_left () '
     '(cluster_namespace:gpudash_cost_per_hour:avg_window * scalar((days_in_month(vector(time())) * '
     '86400 - ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400)))) / 3600)) or '
     'cluster_namespace:gpudash_cost:period_to_date',
     {}),
    ("hub cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour", "minimal", rule(hub_rules, names.POD_IDLE),
     '((max by (cluster, namespace, pod, gpu_model) '
     '(max_over_time(namespace_pod:gpudash_gpu_activity:max[29m59s999ms])) == 0) and on (cluster, '
     'namespace, pod) last_over_time(namespace_pod:gpudash_gpu_activity:max[7m29s999ms] offset 30m)) + '
     'on (cluster, namespace, pod) group_left (workload, workload_type) '
     'last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current[7m30s])',
     {}),
    ("hub tenant rows, two tenants", "two-tenants", rule(hub_rules, names.TENANT_ROWS),
     'label_replace(vector(2500.5), "row", "ml-research ml 0.8", "", "") or '
     'label_replace(vector(100.0), "row", "team-a team-a 0.5,0.9,1", "", "")',
     dict(cluster="gpudash/model", part="0")),
    ("hub budget threshold 0.8 of one tenant", "two-tenants",
     rule(hub_rules, names.TENANT_THRESHOLD, ("threshold", "0.8")),
     'max without (row, part) '
     '(label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster="gpudash/model",row=~".*[ '
     ',]0\\\\.8(,.*)?"}, "namespace", "$1", "row", "([^ ]+) ([^ ]+) ([^ ]*)"), "tenant", "$2", "row", '
     '"([^ ]+) ([^ ]+) ([^ ]*)")) * 0 + 0.8',
     dict(cluster="east", threshold="0.8")),
    ("tier namespace_product_resource:gpudash_gpus_allocated:step", "tier", rule(tier_rules, names.TIER_ALLOCATED),
     'sum by (cluster, namespace, product, resource) '
     '((node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=""} and '
     '(timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=""}) == time()))) or '
     '(label_replace(vector(0), "gpudash_sentinel", "1", "", "") and on () '
     '(timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel="1"}) == time()))',
     {}),
    ("tier cluster:gpudash_ksm_up:step", "tier", rule(tier_rules, names.TIER_KSM_UP),
     'max by (cluster) (up{job="kube-state-metrics"} == 1) and on () '
     '(timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel="1"}) == time()) and '
     'on () (timestamp(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel="1"}) '
     '== time()) and on () '
     '(timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel="1"}) == time()) and on '
     '() (timestamp(node:gpudash_gpus_active:step{gpudash_sentinel="1"}) == time())',
     {}),
]


@pytest.mark.parametrize("variant, build, expr, labels", [pytest.param(*row[1:], id=row[0]) for row in TABLE])
def test_the_builder_gives_exactly_this_promql(variant, build, expr, labels):
    assert build(model_from_dict({**MINIMAL, **VARIANTS[variant]})) == (expr, labels)


def test_every_expected_expression_is_promql():
    """The table itself is checked: each expression parses (a building block's ``x`` stands for any series)."""
    for name, *_, expr, _labels in TABLE:
        assert parse(expr, name)

"""Recording rules: spoke (allocation, measured per cluster) and hub (billing, CCSP), as rule files and
``PrometheusRule`` objects for a single cluster without ACM."""
from gpudash.render.rules.rule_files import (
    SINGLE_CLUSTER_NAMESPACE,
    artifacts,
    files,
    namespace,
    objects,
    prometheus_rule,
    spoke_groups,
    tier_groups,
)

__all__ = ["SINGLE_CLUSTER_NAMESPACE", "artifacts", "files", "namespace", "objects", "prometheus_rule", "spoke_groups",
           "tier_groups"]

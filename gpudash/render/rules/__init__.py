"""Recording rules: spoke (allocation, measured per cluster) and hub (billing, CCSP), as rule files (the
``PrometheusRule`` objects of a single cluster without ACM are the prometheus-rule target's)."""
from gpudash.render.rules.rule_files import artifacts, files, spoke_groups, tier_groups

__all__ = ["artifacts", "files", "spoke_groups", "tier_groups"]

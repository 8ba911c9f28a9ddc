"""The PromQL gpudash reads its own series back with: the reports' queries and the pruner's plan. The render wing
renders them (tenant dashboards, the pruner's Deployment) and proves them isolated; the operations wing runs them."""

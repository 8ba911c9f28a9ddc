"""The optional spoke recording tier (``billing.spoke_tier: policy``): the per-step figures the hourly spoke rules
aggregate, recorded once per ``billing.resolution`` on each managed cluster's own Prometheus.

Without it every push re-derives the previous hour from raw kube-state-metrics series at every step (60
evaluations of the allocation join per rule per push at ``resolution: 1m``, 12 pushes an hour). With it the
allocation join runs once per step (the group's first rule, which the others read: :func:`spoke.tier_steps`), and
the hourly rules only sum or count the recorded samples; the pushed live per-pod allocation reads the tier's newest
step instead of redoing the allocation and workload joins at every push. A missed evaluation (a restart, a group
slower than its interval) or a failed first rule leaves no sample: the step heartbeat
(:data:`~gpudash.model.series.TIER_KSM_UP`) is missing too, so the step counts as not observed, the hour is billed
for the steps recorded and the hub's coverage falls below 1 (GPUBillingDataGap). See docs/billing.md.
"""
from __future__ import annotations

from gpudash.model import series as names
from gpudash.model.types import Model
from gpudash.render.rules import spoke
from gpudash.render.rules.format import Group, Rule

GROUP = "gpudash-spoke-tier"

_HELP = {
    names.TIER_POD_STEP:
        "GPUs allocated at this step per Running, node-bound pod, node, product and resource, and the sentinel"
        "\nrow: the step's one allocation join. The rules below read only the rows written at their own evaluation"
        "\n(the heartbeat needs the sentinel), so a failed step is missing from every figure, never copied.",
    names.TIER_ALLOCATED:
        "GPUs allocated at this step per namespace, product and resource (Running, node-bound pods):"
        "\nthe hourly GPU-hours rule sums these samples, one per step.",
    names.TIER_POD_KINDS:
        "Physical-GPU equivalents per pod, node and kind of device at this step (the SKU weights applied once):"
        "\nthe active-GPUs rule below reads these rows. Never billed or pushed.",
    names.TIER_NODE_ACTIVE:
        f"Active GPUs per node at this step ({names.FRACTION_EXPORTERS} attribution, else the fewest GPUs holding the"
        "\nallocation): the CCSP hourly per-node maximum reads these samples.",
    names.TIER_KSM_UP:
        "1 while kube-state-metrics is up and this step's allocation was recorded: the hourly steps-observed rule"
        "\ncounts these samples, so a missed or failed evaluation is a step not billed and alerted (coverage"
        "\nbelow 1), never a step billed twice or copied from the step before.",
    names.TIER_ENERGY:
        "GPU energy (J) of the step ending now per namespace (the row without namespace: held by no pod):"
        "\nthe hourly energy rule sums these samples, one per step.",
    names.TIER_POD_ALLOCATED:
        "GPUs allocated now to each Running, node-bound pod, with its workload: the pushed live allocation"
        "\nreads the newest step, so a push does not redo these joins. Never billed (the hourly rules read the"
        "\nper-line series above).",
}


def group(model: Model) -> Group:
    """The tier's rule group, evaluated every ``billing.resolution``."""
    rules = tuple(Rule(series, expr, _HELP[series]) for series, expr in spoke.tier_steps(model).items())
    return Group(GROUP, model.billing.resolution,
                 "Spoke tier: the per-step allocation the hourly spoke rules read (billing.spoke_tier: policy).",
                 rules)

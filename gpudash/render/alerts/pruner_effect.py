"""The idle-GPU pruner's alert: a stop it made did not free the GPUs (``gpudash prune``'s effect check).

It reads the pruner's own gauge ``an.PRUNE_INEFFECTIVE`` (1 per workload {namespace, kind, workload} whose GPU pods
were still there ``--effect-timeout`` after the stop: an older KServe, a controller that ignores the stop), which
the platform Prometheus of each cluster scrapes (``prune/metrics.servicemonitor.yaml``) and ACM pushes to the hub
through gpudash's custom allowlist ``names``. Rendered only with a ``prune:`` section.
"""
from __future__ import annotations

from gpudash.model import alert_names as an
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt

BY = ("cluster", "namespace", "kind", "workload")
SUMMARY = "The pruner stopped a workload, but its GPUs were not freed."


def _description(cluster, namespace, kind, workload) -> str:
    return (f"gpudash prune stopped {kind} {workload} in namespace {namespace} on cluster {cluster}, but its GPU "
            "pods still hold their GPUs: the stop did nothing, the tenant is still billed for idle GPUs and the "
            "pruner will not retry.")


def alerts(model: Model) -> tuple:
    lb = c.label
    expr = f"{q.agg('max', BY, c.fresh(model, an.PRUNE_INEFFECTIVE))} > 0"
    return (
        c.provider_alert(
            model, an.PRUNER_INEFFECTIVE, expr, 0, "warning", summary=SUMMARY,
            description=_description(lb("cluster"), lb("namespace"), lb("kind"), lb("workload")),
            help="A workload gpudash prune stopped still holds its GPUs after --effect-timeout (an older KServe,"
                 "\na controller that ignores the stop): its idle GPUs are still billed to the tenant, and the"
                 "\npruner marked it ineffective and will not retry it.",
            threshold="the pruner's gpudash_prune_ineffective_stop gauge is 1 (GPU pods still there after "
                      "--effect-timeout, default 10m)"),
    )


def group(model: Model):
    if model.prune is None:
        return None
    return c.group(an.GROUP_PRUNE, model, "The idle-GPU pruner: stops that did not free the GPUs. Routed to the"
                   "\nprovider.", alerts(model))


def allowlist_names(model: Model) -> tuple[str, ...]:
    return (an.PRUNE_INEFFECTIVE,) if model.prune is not None else ()


def tests(model: Model) -> dict | None:
    """A workload marked ineffective from step 2 fires from then; a pruner exposing no workload (the gauge's
    other series absent) and a 0 sample never fire; when the gauge goes (restored), the alert resolves once the
    last sample is older than the freshness window."""
    if model.prune is None:
        return None
    cluster = model.clusters[0]
    labels = {"cluster": cluster, "namespace": model.tenants[0].namespace, "kind": "InferenceService",
              "workload": "llm"}
    gone = pt.steps(model, 3 * c.push(model) // 2) + 1  # samples older than the freshness window
    inputs = [pt.series(an.PRUNE_INEFFECTIVE, labels, [None, None, 1, 1, 1, None, *[None] * gone]),
              pt.series(an.PRUNE_INEFFECTIVE, {**labels, "workload": "zero"}, [0] * (6 + gone))]
    firing = pt.provider_alert(model, alerts(model), an.PRUNER_INEFFECTIVE, {**labels, "severity": "warning"},
                               _description(*(labels[k] for k in BY)))
    cases = [pt.case(model, 1, an.PRUNER_INEFFECTIVE), pt.case(model, 2, an.PRUNER_INEFFECTIVE, [firing]),
             pt.case(model, 4, an.PRUNER_INEFFECTIVE, [firing]),
             pt.case(model, 4 + gone, an.PRUNER_INEFFECTIVE)]
    group = pt.test_group(model, "a stop that did not free the GPUs", inputs, cases)
    return pt.test_file(model, [group], "The pruner's ineffective-stop alert, fed the pushed pruner gauge directly.")

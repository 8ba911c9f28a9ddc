"""The quota alert: a tenant has requested all of its GPU quota (the ResourceQuota objects themselves are
content of :mod:`gpudash.render.quotas`). ``kube_resourcequota`` is in ACM's default allowlist.
"""
from __future__ import annotations

from gpudash.model import alert_names as an
from gpudash.model import series as names
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.promql import build as q
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt

KEY = ("cluster", "namespace", "resource")


def exhausted_for(model):
    return c.pushes(model, 3)


def _text(tenant, namespace, cluster, used, resource):
    return (f"Tenant {tenant} (namespace {namespace}) has requested {used} {resource} on cluster {cluster}, all "
            "of its quota: new pods asking for more are rejected until others finish.")


def alerts(model: Model) -> tuple:
    if not any(t.quota for t in model.tenants):
        return ()
    job = ksm.job(model.sources)

    def quota(kind: str) -> str:
        sel = q.selector(an.RESOURCE_QUOTA, job, ("resourcequota", "=", an.QUOTA_NAME), ("type", "=", kind))
        return q.agg("max", KEY, c.fresh(model, sel))

    full = f"({quota('used')} >= on {q.labels(KEY)} {quota('hard')}) and on {q.labels(KEY)} ({quota('hard')} > 0)"
    lb = c.label
    return (c.tenant_alert(
        model, an.QUOTA_EXHAUSTED, c.tenant_of(model, full), exhausted_for(model), "info",
        summary="A tenant has requested all the GPUs its quota allows on a cluster.",
        description=_text(lb("tenant"), lb("namespace"), lb("cluster"), c.VALUE_INT, lb("resource")),
        help="The tenant's requests reached its gpudash-gpu ResourceQuota: it is billed for all of it and cannot"
             "\nget more GPUs of this kind on the cluster. A quota of 0 never fires.",
        threshold=f"used >= hard in the `{an.QUOTA_NAME}` quota; for {q.duration(exhausted_for(model))}"),)


def group(model: Model):
    rules = alerts(model)
    if not rules:
        return None
    return c.group(an.GROUP_QUOTA, model, "GPU quotas: tenants that requested all the GPUs their quota allows."
                   "\nRouted to the tenant's receiver.", rules)


# --- promtool tests ----------------------------------------------------------------------------------------------

def tests(model: Model) -> dict | None:
    quoted = [t for t in model.tenants if t.quota]
    if not quoted:
        return None
    t = quoted[0]
    cluster = model.clusters[0]
    job = model.sources.kube_state_metrics_job
    hold = pt.steps(model, exhausted_for(model))
    full_at = 3
    total = full_at + hold + 2
    (resource, limit), *others = t.quota
    rq = f"requests.{resource}"
    base = {"cluster": cluster, "namespace": t.namespace, "job": job, "resourcequota": an.QUOTA_NAME}
    inputs = [
        pt.series(an.RESOURCE_QUOTA, {**base, "resource": rq, "type": "hard"}, [limit] * total),
        pt.series(an.RESOURCE_QUOTA, {**base, "resource": rq, "type": "used"},
                  [max(limit - 1, 0)] * full_at + [limit] * (total - full_at)),
        # another quota of the namespace, full: not gpudash's
        pt.series(an.RESOURCE_QUOTA, {**base, "resourcequota": "compute", "resource": "requests.cpu", "type": "hard"},
                  [16] * total),
        pt.series(an.RESOURCE_QUOTA, {**base, "resourcequota": "compute", "resource": "requests.cpu", "type": "used"},
                  [16] * total),
        pt.series(names.TENANT_INFO, {"namespace": t.namespace, "tenant": t.name}, [1] * total),
    ]
    for other, other_limit in others:  # the tenant's other GPU kinds: within quota
        inputs += [pt.series(an.RESOURCE_QUOTA, {**base, "resource": f"requests.{other}", "type": "hard"},
                             [other_limit] * total),
                   pt.series(an.RESOURCE_QUOTA, {**base, "resource": f"requests.{other}", "type": "used"},
                             [0] * total)]
    expected = []
    if limit > 0:
        expected = [pt.alert(
            {"cluster": cluster, "namespace": t.namespace, "resource": rq, "tenant": t.name, "severity": "info",
             an.AUDIENCE: an.TENANT},
            {"summary": "A tenant has requested all the GPUs its quota allows on a cluster.",
             "description": _text(t.name, t.namespace, cluster, str(limit), rq),
             "runbook_url": c.runbook_url(model, an.QUOTA_EXHAUSTED),
             "dashboard_url": c.tenant_dashboard_link(model, t.name)})]
    group = pt.test_group(model, "a tenant requests all of its GPU quota", inputs, [
        pt.case(model, full_at - 1, an.QUOTA_EXHAUSTED),
        pt.case(model, full_at + hold - 1, an.QUOTA_EXHAUSTED),
        pt.case(model, full_at + hold, an.QUOTA_EXHAUSTED, expected),
    ])
    return pt.test_file(model, [group], "GPU quota alert, fed kube-state-metrics' kube_resourcequota directly.")

"""GPU quotas per tenant: a ``ResourceQuota`` named ``gpudash-gpu`` in each tenant namespace with a ``quota`` in
the model (the alert when a tenant has requested all of it is :mod:`gpudash.render.alerts.quotas`). Pure; no I/O.

Kubernetes quotas extended resources through ``requests.<resource>`` only (a GPU's request always equals its
limit). On single-strategy MIG nodes a slice is requested as ``nvidia.com/gpu``, so ``requests.nvidia.com/gpu``
then counts slices. A quota is enforced per cluster and lives in the tenant's namespace: a tenant on every cluster
has it in ``quotas/`` (every managed cluster), one on some clusters only (``tenants[].clusters``) in
``quotas/<cluster>/`` of each of them (``deploy/clusters/<cluster>``), never on a cluster without its namespace.
"""
from __future__ import annotations

from gpudash.base import kube, layout
from gpudash.base.yamlfmt import COMMENT
from gpudash.model import alert_names as an
from gpudash.model.types import Model, Tenant


def resource_quota(model: Model, t: Tenant) -> dict:
    hard = {f"requests.{resource}": str(count) for resource, count in t.quota}
    obj = kube.obj("v1", "ResourceQuota", an.QUOTA_NAME, t.namespace, spec={"hard": hard})
    return {COMMENT: f"GPU quota of tenant {t.name}: the most GPUs of each kind its pods may request at once"
                           "\non one cluster.", **obj}


def objects(model: Model) -> dict[str, dict]:
    return {layout.quota(t.name, cluster): resource_quota(model, t) for t in model.tenants if t.quota
            for cluster in (t.clusters or ("",))}

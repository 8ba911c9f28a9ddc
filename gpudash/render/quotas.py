"""GPU quotas per tenant: a ``ResourceQuota`` named ``gpudash-gpu`` in each tenant namespace with a ``quota`` in
the model (the alert when a tenant has requested all of it is :mod:`gpudash.render.alerts.quotas`). Pure; no I/O.

Kubernetes quotas extended resources through ``requests.<resource>`` only (a GPU's request always equals its
limit). On single-strategy MIG nodes a slice is requested as ``nvidia.com/gpu``, so ``requests.nvidia.com/gpu``
then counts slices. A quota is enforced per cluster: apply the objects on every managed cluster (e.g. with an ACM
Policy or an Argo CD ApplicationSet), not on the hub.
"""
from __future__ import annotations

from gpudash.base import kube, layout
from gpudash.base.yamlfmt import COMMENT
from gpudash.model import alert_names as an
from gpudash.model.types import Model, Tenant


def quota_path(t: Tenant) -> str:
    return layout.quota(t.name)


def resource_quota(model: Model, t: Tenant) -> dict:
    hard = {f"requests.{resource}": str(count) for resource, count in t.quota}
    obj = kube.obj("v1", "ResourceQuota", an.QUOTA_NAME, t.namespace, spec={"hard": hard})
    return {COMMENT: f"GPU quota of tenant {t.name}: the most GPUs of each kind its pods may request at once"
                           "\non one cluster. Apply it on every managed cluster.", **obj}


def objects(model: Model) -> dict[str, dict]:
    return {quota_path(t): resource_quota(model, t) for t in model.tenants if t.quota}

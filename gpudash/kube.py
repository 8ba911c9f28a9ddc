"""Kubernetes object skeletons shared by the ACM, single-cluster and Grafana artifact families."""
from __future__ import annotations

PART_OF = {"app.kubernetes.io/part-of": "gpudash", "app.kubernetes.io/managed-by": "gpudash"}


def obj(api_version: str, kind: str, name: str, namespace: str | None = None, labels: dict | None = None,
        annotations: dict | None = None, **body) -> dict:
    """A Kubernetes object as plain data, with gpudash's ownership labels."""
    meta = {"name": name}
    if namespace:
        meta["namespace"] = namespace
    meta["labels"] = {**PART_OF, **(labels or {})}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": api_version, "kind": kind, "metadata": meta, **body}


def configmap(name: str, namespace: str, data: dict[str, str], **kw) -> dict:
    return obj("v1", "ConfigMap", name, namespace, data=data, **kw)


KUSTOMIZE_GROUP = "kustomize.config.k8s.io/"
PATCH_SUFFIX = ".patch.yaml"  # a kustomize patch: shaped like an object, never applied as one


def is_object(data) -> bool:
    """A Kubernetes object to apply (not a kustomize Kustomization/Component)."""
    return (isinstance(data, dict) and "apiVersion" in data and "kind" in data
            and not str(data["apiVersion"]).startswith(KUSTOMIZE_GROUP))


def is_resource(path: str, data) -> bool:
    """An output file that a kustomization lists as a resource: an object that is not a patch."""
    return is_object(data) and not path.endswith(PATCH_SUFFIX)

"""Every artifact family in one place: model -> {output path: plain data}. Pure; no I/O."""
from __future__ import annotations

from gpudash import alerts, golden, grafana, kube, mco, rules
from gpudash.model.types import Model

FAMILIES = (rules.artifacts, alerts.artifacts, mco.artifacts, grafana.artifacts, golden.artifacts)


def generate(model: Model) -> dict[str, object]:
    """All output files of ``model``, plus a ``kustomization.yaml`` listing every Kubernetes object."""
    files: dict[str, object] = {}
    for family in FAMILIES:
        for path, data in family(model).items():
            if path in files:
                raise AssertionError(f"two artifact families write {path}")
            files[path] = data
    objects = sorted(p for p, d in files.items() if kube.is_object(d))
    files["kustomization.yaml"] = {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "resources": objects,
    }
    return files

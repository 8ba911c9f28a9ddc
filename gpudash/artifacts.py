"""Every artifact family in one place: model -> {output path: plain data}. Pure; no I/O."""
from __future__ import annotations

from gpudash import alerts, golden, grafana, kube, mco, rules
from gpudash.model.types import Model

FAMILIES = (rules.artifacts, alerts.artifacts, mco.artifacts, grafana.artifacts, golden.artifacts)


def _kustomization(resources) -> dict:
    return {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "resources": sorted(resources)}


def generate(model: Model) -> dict[str, object]:
    """All output files of ``model``, plus kustomizations: one per folder holding Kubernetes objects (one
    deployment target each: ``mco`` and ``dashboards/acm`` on the ACM hub, ``rules/kubernetes``,
    ``alerts/kubernetes`` and ``quotas`` on a cluster, ``grafana/operator`` where grafana-operator runs) and a
    top-level one listing every object."""
    files: dict[str, object] = {}
    for family in FAMILIES:
        for path, data in family(model).items():
            if path in files:
                raise AssertionError(f"two artifact families write {path}")
            files[path] = data
    objects = sorted(p for p, d in files.items() if kube.is_resource(p, d))
    by_folder: dict[str, list[str]] = {}
    for path in objects:
        folder, _, name = path.rpartition("/")
        by_folder.setdefault(folder, []).append(name)
    for folder, names in by_folder.items():
        files[f"{folder}/kustomization.yaml" if folder else "kustomization.yaml"] = _kustomization(names)
    files["kustomization.yaml"] = _kustomization(objects)
    return files

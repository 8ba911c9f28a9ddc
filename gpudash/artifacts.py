"""Every artifact family in one place: model -> {output path: plain data}. Pure; no I/O."""
from __future__ import annotations

from gpudash import alerts, golden, grafana, kube, layout, mco, mixin, rules, targets, wiring
from gpudash.model.types import Model
from gpudash.prune import deploy as prune

FAMILIES = (rules.artifacts, alerts.artifacts, mco.artifacts, grafana.artifacts, golden.artifacts, mixin.artifacts,
            prune.artifacts, wiring.artifacts)
ONLY_FOR = {mixin.artifacts: "mixin"}  # families that write for one target only: not run without it


def _kustomization(resources) -> dict:
    return {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "resources": sorted(resources)}


def generate(model: Model, progress=None) -> dict[str, object]:
    """All output files of ``model``, plus kustomizations: one per folder holding Kubernetes objects (one
    deployment target each: ``mco`` and ``dashboards/acm`` on the ACM hub, ``rules/kubernetes``,
    ``alerts/kubernetes``, ``quotas``, ``prune`` and ``prune/<cluster>`` on a cluster, ``grafana/operator`` where
    grafana-operator runs) and a top-level one listing every object. Only the files of the model's
    ``outputs.targets`` (gpudash.targets) are kept; a family with no chosen target is not run.
    ``progress(done, total, what)`` is told of each family started."""
    files: dict[str, object] = {}
    chosen = model.outputs.targets
    with grafana.shared(model):  # the Grafana and mixin families share one build of the tenant dashboards
        for index, family in enumerate(FAMILIES):
            if progress:  # progress(done, total, what): the CLI's progress bar
                progress(index, len(FAMILIES), family.__module__.rsplit(".", 1)[-1])
            only = ONLY_FOR.get(getattr(family, "__wrapped__", family))
            if only is not None and only not in chosen:
                continue
            for path, data in family(model).items():
                if path in files:
                    raise AssertionError(f"two artifact families write {path}")
                if targets.wanted(path, chosen):
                    files[path] = data
    objects = sorted(p for p, d in files.items() if kube.is_resource(p, d))
    for path in objects:
        files[path] = kube.fit(path, files[path])
    by_folder: dict[str, list[str]] = {}
    for path in objects:
        folder, _, name = path.rpartition("/")
        by_folder.setdefault(folder, []).append(name)
    for folder, names in by_folder.items():
        files[layout.kustomization(folder)] = _kustomization(names)
    files[layout.KUSTOMIZATION] = _kustomization(objects)
    return files


def size_notes(files: dict[str, object]) -> list[str]:
    """One line per object annotated for server-side apply (what ``render`` prints)."""
    return [f"{path}: {kube.size(data)} bytes, over {kube.LAST_APPLIED_LIMIT} (client-side apply's last-applied "
            f"annotation limit): annotated {kube.SYNC_OPTIONS}: {kube.SERVER_SIDE_APPLY}; apply it server-side"
            for path, data in sorted(files.items()) if kube.server_side(data)]

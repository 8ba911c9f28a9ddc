"""A render's files: model -> content (built once) -> the chosen delivery targets -> {output path: plain data},
plus the kustomizations of the Kubernetes objects written. Pure; no I/O."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from gpudash.base import kube, layout
from gpudash.base.deferred import Deferred
from gpudash.model.types import Model
from gpudash.render import content, targets
from gpudash.render.targets import gitops


def _kustomization(resources: Iterable[str]) -> dict[str, Any]:
    return {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "resources": sorted(resources)}


def generate(model: Model, progress: Callable[[int, int, str], object] | None = None,
             tests: Mapping[str, object] | None = None) -> dict[str, object]:
    """All output files of ``model``, plus kustomizations: one per folder holding Kubernetes objects (one
    deployment target each: ``mco`` and ``dashboards/acm`` on the ACM hub, ``rules/kubernetes``,
    ``alerts/kubernetes``, ``quotas``, ``prune`` and ``prune/<cluster>`` on a cluster, ``grafana/operator`` where
    grafana-operator runs) and a top-level one listing every object (kept for one release), then the destinations
    of :mod:`gpudash.render.targets.gitops` with the output's README.md. ``progress(done, total, what)`` is told of
    each part started; ``tests``: the golden test files, when made elsewhere (:func:`content.build`)."""
    total = len(content.PARTS) + len(model.outputs.targets)
    started: list[str] = []

    def step(what: str) -> None:
        if progress:  # progress(done, total, what): the CLI's progress bar
            progress(len(started), total, what)
        started.append(what)

    files = targets.merge(targets.split(model, content.build(model, step, tests), step))
    objects = sorted(p for p, d in files.items() if kube.is_resource(p, d))
    for path in objects:  # each an object or a deferred one (kube.is_resource)
        files[path] = kube.fit(path, cast("dict[str, Any] | Deferred", files[path]))
    by_folder: dict[str, list[str]] = {}
    for path in objects:
        folder, _, name = path.rpartition("/")
        by_folder.setdefault(folder, []).append(name)
    for folder, names in by_folder.items():
        files[layout.kustomization(folder)] = _kustomization(names)
    files[layout.KUSTOMIZATION] = _kustomization(objects)
    files.update(gitops.artifacts(model, files))  # deploy/ destinations, ArgoCD objects, README.md
    return files


def size_notes(files: dict[str, object]) -> list[str]:
    """One line per object annotated for server-side apply (what ``render`` prints)."""
    return [f"{path}: {kube.annotations_size(data)} bytes of annotations applied client-side, over "
            f"{kube.LAST_APPLIED_LIMIT} (the last-applied annotation holds the whole object): annotated "
            f"{kube.SYNC_OPTIONS}: {kube.SERVER_SIDE_APPLY}; apply it server-side"
            for path, data in sorted(files.items()) if kube.server_side(data)]

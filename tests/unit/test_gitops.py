"""The output a GitOps user points ArgoCD at (gpudash/render/targets/gitops.py): one deploy/ folder per destination
listing only folders the render wrote, the model's clusters each with their own, and a README.md at the output root
naming every folder. tests/integration/test_schemas.py builds each destination alone with kustomize and validates it."""
from __future__ import annotations

from pathlib import Path

import yaml

from gpudash.base import layout


def _folders(rendered: Path) -> set[str]:
    return {str(p.relative_to(rendered)) for p in rendered.rglob("*") if p.is_dir()}


def test_the_readme_names_every_folder(rendered):
    readme = (rendered / layout.README).read_text()
    tops = {f for f in _folders(rendered) if "/" not in f}
    destinations = {f for f in _folders(rendered) if f.startswith(f"{layout.DEPLOY}/")
                    and (rendered / f / layout.KUSTOMIZATION).exists()}
    assert tops and destinations
    missing = [f for f in sorted(tops | destinations) if f"`{f}/`" not in readme]
    assert not missing, missing
    assert "Upgrade notes" in readme and f"`{layout.KUSTOMIZATION}`" in readme  # the old top-level one is explained


def test_destinations_list_only_what_the_render_wrote(rendered, example_model):
    for cluster in example_model.clusters:
        assert (rendered / layout.deploy_cluster(cluster) / layout.KUSTOMIZATION).exists(), cluster
    for kustomization in (rendered / layout.DEPLOY).rglob(layout.KUSTOMIZATION):
        for resource in yaml.safe_load(kustomization.read_text())["resources"]:
            assert (kustomization.parent / resource).exists(), (kustomization, resource)
    hub = yaml.safe_load((rendered / layout.DEPLOY_HUB / layout.KUSTOMIZATION).read_text())["resources"]
    assert hub == ["../../mco", "../../dashboards/acm"]  # the hub gets no single-cluster or spoke object
    assert (rendered / layout.KUSTOMIZATION).exists()  # the old path, kept for one release


def test_no_argocd_objects_without_a_repository(rendered, example_model):
    assert example_model.outputs.argocd is None
    assert not (rendered / layout.DEPLOY_ARGOCD).exists()

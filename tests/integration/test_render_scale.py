"""Delivery targets on whole renders of the example: each target writes in its own folders, and each chosen set
renders a subset of the full default render, byte for byte (the rest of render at scale, without whole renders:
tests/unit/test_render_scale.py)."""
from __future__ import annotations

import dataclasses

import pytest

from gpudash.base import layout
from gpudash.model.types import Outputs
from gpudash.render import content, targets, writer
from gpudash.render.targets import artifacts
from gpudash.render.targets.acm import mco


@pytest.mark.parametrize("chosen", [("acm",), ("files", "grafana-provisioning"), ()])
def test_targets_write_a_subset_of_the_default_render(example_model, rendered, parts, tmp_path, chosen):
    """Each chosen set writes exactly the always-written files plus its targets' files, each byte-identical to
    the default (all targets) render; kustomizations list only the objects written."""
    model = dataclasses.replace(example_model, outputs=Outputs(targets=chosen))
    out = tmp_path / "out"
    writer.apply(writer.plan(out, artifacts.generate(model)))
    written = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()} - {layout.MANIFEST}
    full = {str(p.relative_to(rendered)) for p in rendered.rglob("*") if p.is_file()} - {layout.MANIFEST}
    expected = {p for name in (targets.ALWAYS, *chosen) for p in parts[name] if not p.endswith("kustomization.yaml")}
    assert expected <= full
    gathered = {layout.README} | {p for p in written if p.startswith(f"{layout.DEPLOY}/")}  # gitops: of what is written
    assert {p for p in written - gathered if not p.endswith("kustomization.yaml")} == expected
    for p in expected:
        assert (out / p).read_bytes() == (rendered / p).read_bytes(), p
    assert layout.GOLDEN_INDEX in written  # the golden tests are always written
    assert (layout.mco_configmap(mco.RULER) in written) == ("acm" in chosen)
    provisioned = layout.grafana_provisioning("dashboards", "gpudash-provider")
    assert (provisioned in written) == ("grafana-provisioning" in chosen)
    assert not any(p.startswith((f"{layout.MIXIN}/", f"{layout.GRAFANA_OPERATOR}/")) for p in written)


@pytest.fixture(scope="module")
def parts(example_model) -> dict[str, dict[str, object]]:
    """The default render's files by target (targets.ALWAYS: the content's own)."""
    return targets.split(example_model, content.build(example_model))


# Where each target may write (docs/outputs.md), written here independently of gpudash/render/targets/.
FOLDERS = {
    "files": (f"{layout.DASHBOARDS}/gpudash-", f"{layout.DASHBOARDS_IMPORT}/"),
    "prometheus-rule": (f"{layout.RULES_KUBERNETES}/", f"{layout.ALERTS_KUBERNETES}/"),
    "acm": (f"{layout.MCO}/", f"{layout.DASHBOARDS_ACM}/"),
    "grafana-provisioning": (f"{layout.GRAFANA_PROVISIONING}/", layout.GRAFANA_BOOTSTRAP,
                             f"{layout.DASHBOARDS}/gpudash-"),
    "grafana-operator": (f"{layout.GRAFANA_OPERATOR}/",),
    "mixin": (f"{layout.MIXIN}/",),
}


def test_each_target_writes_in_its_own_folders_and_the_content_in_none(parts):
    assert set(parts) == {targets.ALWAYS, *FOLDERS}
    for name, prefixes in FOLDERS.items():
        assert parts[name] and all(p.startswith(prefixes) for p in parts[name]), name
    claimed = tuple(p for prefixes in FOLDERS.values() for p in prefixes)
    assert not [p for p in parts[targets.ALWAYS] if p.startswith(claimed)]
    shared = set(parts["files"]) & set(parts["grafana-provisioning"])
    assert layout.dashboard_json("gpudash-tenant-team-a") in shared  # delivered by both, identically

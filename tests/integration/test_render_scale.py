"""Delivery targets chosen by the model: each chosen set renders a subset of the full default render, byte for
byte (three whole renders; the rest of render at scale is tests/unit/test_render_scale.py)."""
from __future__ import annotations

import dataclasses

import pytest

from gpudash import artifacts, layout, mco, targets, writer
from gpudash.model.types import Outputs


@pytest.mark.parametrize("chosen", [("acm",), ("files", "grafana-provisioning"), ()])
def test_targets_write_a_subset_of_the_default_render(example_model, rendered, tmp_path, chosen):
    """Each chosen set writes exactly the always-written files plus its targets' files, each byte-identical to
    the default (all targets) render; kustomizations list only the objects written."""
    model = dataclasses.replace(example_model, outputs=Outputs(targets=chosen))
    out = tmp_path / "out"
    writer.apply(writer.plan(out, artifacts.generate(model)))
    written = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()} - {layout.MANIFEST}
    full = {str(p.relative_to(rendered)) for p in rendered.rglob("*") if p.is_file()} - {layout.MANIFEST}
    expected = {p for p in full if targets.wanted(p, chosen) and not p.endswith("kustomization.yaml")}
    assert {p for p in written if not p.endswith("kustomization.yaml")} == expected
    for p in expected:
        assert (out / p).read_bytes() == (rendered / p).read_bytes(), p
    assert layout.GOLDEN_INDEX in written  # the golden tests are always written
    assert (layout.mco_configmap(mco.RULER) in written) == ("acm" in chosen)
    provisioned = layout.grafana_provisioning("dashboards", "gpudash-provider")
    assert (provisioned in written) == ("grafana-provisioning" in chosen)
    assert not any(p.startswith((f"{layout.MIXIN}/", f"{layout.GRAFANA_OPERATOR}/")) for p in written)

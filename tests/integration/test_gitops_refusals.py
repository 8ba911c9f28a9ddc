"""What the GitOps output cannot do is refused by the CLI in one line, exit 2, before anything is written: ACM's
pull model (outputs.argocd.mode) and a tenant on a cluster the model does not declare (tenants[].clusters)."""
from __future__ import annotations

import pytest
import yaml

from tests.conftest import gpudash
from tests.integration.test_cli_errors import one_line_exit_2
from tests.unit.test_argocd_sync import ARGOCD
from tests.unit.test_mco_settings import example


def _tenant_on(cluster: str) -> dict:
    data = example()
    data["tenants"][0]["clusters"] = [cluster]
    return data


@pytest.mark.parametrize("data,needles", [
    (example(**{"outputs.argocd": {**ARGOCD, "mode": "pull"}}), ["outputs.argocd.mode", "pull model is not supported"]),
    (_tenant_on("prod-north"), ["tenants[0].clusters[0]", "'prod-north' is not one of the model's clusters"]),
])
def test_render_refuses_in_one_line(data, needles, tmp_path):
    (tmp_path / "gpudash.yaml").write_text(yaml.safe_dump(data))
    one_line_exit_2(gpudash("render", "-c", "gpudash.yaml", "-o", "out", cwd=tmp_path), *needles)
    assert not (tmp_path / "out").exists()

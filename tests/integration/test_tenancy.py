"""Hub objects within Kubernetes limits at scale, and ``render`` of a whole model saying why it annotates an object
for server-side apply or refuses one over 1 MiB (seconds each; the rest: tests/unit/test_tenancy.py)."""
from __future__ import annotations

import pytest
import yaml

from gpudash import cli
from gpudash.base import kube, layout
from gpudash.model import load_model
from gpudash.render import alerts
from gpudash.render.alerts import routing
from gpudash.render.rules import hub
from gpudash.render.targets import acm
from gpudash.render.targets.acm import mco
from gpudash.render.writer import serialise
from tests.unit.test_mco_allowlist import allowlist_of


def _model(tmp_path, n: int, **billing):
    raw = yaml.safe_load(open("e2e/data/model.yaml"))
    raw.setdefault("billing", {}).update(billing)
    raw["tenants"] = [{"name": f"t{i:05d}", "namespace": f"tenant-{i:05d}", "budget": 1000 + i,
                       "alert_at": [0.5, 0.9, 1.0]} for i in range(n)]
    path = tmp_path / f"model-{n}-{len(billing)}.yaml"
    path.write_text(yaml.safe_dump(raw))
    return load_model(str(path))


@pytest.mark.parametrize("billing", [{}, {"spoke_tier": "policy"}], ids=["plain", "backfill-24h"])
def test_5000_tenants_keep_every_hub_object_under_1_mib(tmp_path, billing):
    """Also with the spoke tier's default 24 hours of backfill, whose hub rules settle each hourly series from
    25 lags."""
    small, big = _model(tmp_path, 100, **billing), _model(tmp_path, 5000, **billing)
    ruler = mco.ruler_rules((*hub.groups(big), *alerts.hub_groups(big)))
    secret = acm.secret(routing.artifacts(big)[layout.ALERTMANAGER])
    allowlist = allowlist_of(big)
    for name, obj in {"ruler": ruler, "allowlist": allowlist, "alertmanager": secret}.items():
        assert kube.size(obj) < kube.MAX_OBJECT_BYTES, (name, kube.size(obj))
        assert len(serialise("x.yaml", obj).encode()) < kube.MAX_OBJECT_BYTES, name
    per_tenant = (kube.size(ruler) - kube.size(mco.ruler_rules((*hub.groups(small), *alerts.hub_groups(small))))) / 4900
    assert per_tenant <= 150, per_tenant


def test_render_says_why_it_annotates_and_refuses_with_exit_2(tmp_path, monkeypatch, capsys):
    model = tmp_path / "m.yaml"
    model.write_text(open("e2e/data/model.yaml").read())
    # over the largest dashboard ConfigMap (refused, never server-side applied), under the MCO allowlist's
    # last-applied annotation (provider dashboard ~78 kB, allowlist ~157 kB; the Ruler rules, ~55 kB since the hub
    # settles each pushed series once, are no longer over it)
    monkeypatch.setattr(kube, "LAST_APPLIED_LIMIT", 85_000)
    assert cli.main(["render", "-c", str(model), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    allowlist = layout.mco_configmap(mco.ALLOWLIST)
    assert allowlist in err and "ServerSideApply=true" in err
    assert kube.SYNC_OPTIONS in (tmp_path / "out" / allowlist).read_text()
    monkeypatch.setattr(kube, "MAX_OBJECT_BYTES", 20_000)
    assert cli.main(["render", "-c", str(model), "-o", str(tmp_path / "out2")]) == 2
    assert "1 MiB" in capsys.readouterr().err and not (tmp_path / "out2").exists()

"""Every dashboard loaded into grafana-foundation-sdk's typed models (Grafana Labs' schema-generated Python types):
whatever the types drop on the way in and out is a field or option Grafana's schema does not have (#14 point 11).
"""
from __future__ import annotations

import json

import pytest

from gpudash.render import grafana

sdk = pytest.importorskip("grafana_foundation_sdk", reason="pip install grafana-foundation-sdk (the test extra)")
from grafana_foundation_sdk.cog import encoder, plugins  # noqa: E402
from grafana_foundation_sdk.models import dashboard as typed  # noqa: E402

plugins.register_default_plugins()


def paths(value, at: str = "") -> set[str]:
    """Every key path of a JSON value."""
    if isinstance(value, dict):
        return {p for k, v in value.items() for p in {f"{at}.{k}"} | paths(v, f"{at}.{k}")}
    if isinstance(value, list):
        return {p for i, v in enumerate(value) for p in paths(v, f"{at}[{i}]")}
    return set()


def all_dashboards(model) -> dict[str, dict]:
    provider, tenants = grafana.rendered(model)
    return {**provider, **{f"{t}/{uid}": d for t, ds in tenants.items() for uid, d in ds.items()}}


def test_the_check_catches_unknown_fields():
    """The round trip is a real check: a misspelt option, panel field or target field is dropped."""
    grid = {"h": 1, "w": 1, "x": 0, "y": 0}
    data = {"title": "t", "panels": [{"type": "stat", "id": 1, "title": "p", "gridPos": grid,
                                      "options": {"colourMode": "value"}, "decription": "x",
                                      "datasource": {"type": "prometheus", "uid": "u"},
                                      "targets": [{"refId": "A", "expr": "up", "intervall": "1m"}]}]}
    back = json.loads(encoder.JSONEncoder().encode(typed.Dashboard.from_json(data)))
    assert paths(data) - paths(back) == {".panels[0].options.colourMode", ".panels[0].decription",
                                         ".panels[0].targets[0].intervall"}


def test_every_dashboard_fits_grafanas_typed_models(example_model):
    for name, data in all_dashboards(example_model).items():
        dash = typed.Dashboard.from_json(data)
        back = json.loads(encoder.JSONEncoder().encode(dash))
        assert not paths(data) - paths(back), (name, sorted(paths(data) - paths(back))[:10])
        for panel in dash.panels or ():
            if isinstance(panel, typed.Panel):  # a known panel plugin: its options were read into its own type
                assert panel.options is None or not isinstance(panel.options, dict), (name, panel.type)


def test_cluster_variable_lists_every_cluster_of_the_model(example_model):
    provider, _ = grafana.rendered(example_model)
    for data in provider.values():
        (var,) = [v for v in data["templating"]["list"] if v["name"] == "cluster"]
        assert var["type"] == "custom" and [o["value"] for o in var["options"]] == list(example_model.clusters)

"""The jsonnet mixin evaluates to exactly the rendered rules, alerts and dashboards, and its selectors follow
``_config``. Evaluated with gojsonnet (the Go implementation's binding; see pyproject's test extra)."""
from __future__ import annotations

import dataclasses
import json

import pytest
import yaml

from gpudash.base import layout
from gpudash.base.yamlfmt import strip_comments
from gpudash.render import alerts, grafana, overrides, rules
from gpudash.render.rules import hub
from gpudash.render.targets import mixin

_gojsonnet = pytest.importorskip("_gojsonnet", reason="gojsonnet is in the test extra")

MIXIN = f"import '{layout.mixin_file(layout.MIXIN_MAIN)}'"


def evaluate(root, overrides: str = "{}") -> dict:
    snippet = f"local m = ({MIXIN}) + {overrides}; " \
              "{rules: m.prometheusRules, alerts: m.prometheusAlerts, dashboards: m.grafanaDashboards}"
    return json.loads(_gojsonnet.evaluate_snippet("test.jsonnet", snippet, jpathdir=[str(root)]))


@pytest.fixture(scope="module")
def default(rendered):
    return evaluate(rendered)


def test_default_config_is_the_rendered_yaml(rendered, default):
    load = lambda rel: yaml.safe_load((rendered / rel).read_text())  # noqa: E731
    files = (layout.SPOKE_TIER_RULES, layout.SPOKE_RULES, layout.HUB_RULES)  # the tier's group first, as it records
    assert (rendered / layout.SPOKE_TIER_RULES).is_file()  # the example's default: the ACM target, the spoke tier
    assert default["rules"] == {"groups": [g for f in files for g in load(f)["groups"]]}
    assert default["alerts"] == load(layout.ALERT_RULES)
    dashboards = {p.name: json.loads(p.read_text()) for p in (rendered / layout.DASHBOARDS).glob("*.json")}
    assert dashboards and default["dashboards"] == dashboards


def test_the_mixin_is_vendorable(rendered):
    folder = rendered / layout.MIXIN
    assert json.loads((folder / layout.MIXIN_BUNDLER).read_text())["dependencies"] == []
    assert "jb install" in (folder / "README.md").read_text()


@pytest.mark.parametrize("field,value", [("dcgmExporterJob", "gpu-dcgm"),
                                         ("kubeStateMetricsJob", "ksm-main"),
                                         ("nvidiaProductLabel", "label_gpu_model")])
def test_a_selector_override_is_what_gpudash_renders_from_that_model(rendered, default, example_model, field,
                                                                     value):
    old = overrides.defaults(example_model)[field]
    got = evaluate(rendered, f"{{_config+:: {{{field}: '{value}'}}}}")
    model = dataclasses.replace(example_model, sources=overrides.fields()[field].put(example_model.sources, value))
    want = strip_comments(mixin.exposed((*rules.spoke_groups(model), *hub.groups(model)), alerts.hub_groups(model),
                                        *grafana.rendered(model)))
    assert got["rules"]["groups"] == want["prometheusRules"]
    assert got["alerts"]["groups"] == want["prometheusAlerts"]
    assert got["dashboards"] == want["grafanaDashboards"]
    text = json.dumps(got["rules"])
    assert value in text and f'"{old}"' not in text.replace('\\"', '"')
    assert got != default


def test_a_price_override_is_refused(rendered):
    with pytest.raises(RuntimeError, match="prices comes from gpudash.yaml"):
        evaluate(rendered, "{_config+:: {prices+: {'a100-80gb'+: {pricePerHour: 1}}}}")


def test_a_transformed_selector_cannot_be_templated():
    with pytest.raises(Exception, match="cannot template"):
        mixin.jsonnet.value("a\\.b", "gpudashcfg_x_end", {"gpudashcfg_x_end": "x"}, {"x": "a.b"})

"""Alertmanager routing checked by the real amtool (required: scripts/install-system-deps.sh installs Debian's
prometheus-alertmanager); quotas and receivers without amtool: tests/unit/test_alerts_routing.py."""
from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from gpudash.base import layout
from gpudash.base.yamlfmt import strip_comments
from gpudash.model import alert_names as an
from gpudash.model import model_from_dict
from gpudash.render.alerts import routing
from tests.conftest import require
from tests.unit.test_alerts import ODD, render_alerts
from tests.unit.test_alerts_routing import _with_receivers


def amtool(*args: str) -> subprocess.CompletedProcess:
    require("amtool")
    return subprocess.run(["amtool", *args], capture_output=True, text=True, timeout=60)


def receivers(config: Path, *labels: str) -> list[str]:
    """The receivers ``labels`` (name=value) reach, as amtool reports them."""
    result = amtool("config", "routes", "test", f"--config.file={config}", *labels)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.strip().split(",")


def check_config(config: Path):
    result = amtool("check-config", str(config))
    assert result.returncode == 0 and "SUCCESS" in result.stdout, result.stdout + result.stderr


def assert_routes(model, config: Path):
    check_config(config)
    for t in model.tenants:
        assert receivers(config, f"namespace={t.namespace}", "severity=warning") == [t.receiver]
        assert receivers(config, f"namespace={t.namespace}", f"{an.AUDIENCE}={an.TENANT}", "severity=critical",
                         f"alertname={an.BUDGET_EXHAUSTED}", f"tenant={t.name}") == [t.receiver]
        # a provider alert about the tenant's namespace stays with the provider
        assert receivers(config, f"namespace={t.namespace}", f"{an.AUDIENCE}={an.PROVIDER}", "severity=warning",
                         f"alertname={an.UNPRICED}") == [model.alerts.provider_receiver]
    assert receivers(config, f"{an.AUDIENCE}={an.PROVIDER}", "severity=critical", "cluster=prod-east",
                     f"alertname={an.CLUSTER_NOT_REPORTING}") == [model.alerts.provider_receiver]
    assert receivers(config, "namespace=openshift-monitoring", "severity=warning",
                     "alertname=KubePodCrashLooping") == [model.alerts.provider_receiver]
    assert receivers(config, "alertname=Watchdog", "severity=none") == [routing.NULL_RECEIVER]


def test_alertmanager_config_routes_each_tenant_to_its_receiver_only(rendered, example_model):
    assert_routes(example_model, rendered / layout.ALERTMANAGER)


def test_acm_secret_holds_the_same_config(rendered, tmp_path, example_model):
    secret = yaml.safe_load((rendered / layout.ALERTMANAGER_SECRET).read_text())
    assert secret["apiVersion"] == "v1" and secret["kind"] == "Secret" and secret["type"] == "Opaque"
    assert secret["metadata"]["name"] == "alertmanager-config"
    assert secret["metadata"]["namespace"] == "open-cluster-management-observability"
    assert set(secret["stringData"]) == {"alertmanager.yaml"}
    text = secret["stringData"]["alertmanager.yaml"]
    assert yaml.safe_load(text) == yaml.safe_load((rendered / layout.ALERTMANAGER).read_text())
    assert yaml.safe_load(text) == strip_comments(routing.config(example_model))
    assert "# " in text  # the receiver placeholders keep their comments
    path = tmp_path / "alertmanager.yaml"
    path.write_text(text)
    assert_routes(example_model, path)


def test_custom_and_shared_receivers(tmp_path):
    model = model_from_dict(ODD)  # zeta's receiver is the provider's; team-x has its own
    out = render_alerts(model, tmp_path)
    assert_routes(model, out / layout.ALERTMANAGER)
    names = [r["name"] for r in routing.config(model)["receivers"]]
    assert names == sorted(set(names)) == ["noc", "null", "pager-x"]


def test_matchers_are_exact_and_escaped(tmp_path):
    assert routing.matcher("namespace", "team-a") == 'namespace="team-a"'
    assert routing.matcher("x", 'a"b\\c\nd') == 'x="a\\"b\\\\c\\nd"'
    config = {"route": {"receiver": "r", "routes": [{"matchers": [routing.matcher("x", 'a"b\\c')], "receiver": "s"}]},
              "receivers": [{"name": "r"}, {"name": "s"}]}
    path = tmp_path / "am.yml"
    path.write_text(yaml.safe_dump(config))
    check_config(path)
    assert receivers(path, routing.matcher("x", 'a"b\\c')) == ["s"]
    assert receivers(path, "x=a.b.c") == ["r"]  # exact: no regex


def test_model_receivers_reach_the_rendered_config_and_alertmanager_accepts_it(example_model, tmp_path):
    rendered = {r["name"]: r for r in strip_comments(routing.config(example_model))["receivers"]}
    for name, integrations in example_model.alerts.receivers:
        assert rendered[name] == {"name": name, **integrations}
    assert "email_configs" in rendered[example_model.alerts.provider_receiver]
    config = tmp_path / "alertmanager.yml"
    config.write_text(yaml.safe_dump(strip_comments(routing.config(example_model))))
    assert_routes(example_model, config)


def test_receiver_only_named_in_the_model_is_rendered(example_data, tmp_path):
    model = model_from_dict(_with_receivers(example_data, {"spare": {"email_configs": [
        {"to": "x@example.com", "from": "am@example.com", "smarthost": "smtp.example.com:25"}]}}))
    names = [r["name"] for r in routing.config(model)["receivers"]]
    assert "spare" in names and names == sorted(names)
    config = tmp_path / "alertmanager.yml"
    config.write_text(yaml.safe_dump(strip_comments(routing.config(model))))
    check_config(config)

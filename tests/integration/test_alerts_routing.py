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
from tests.conftest import FIXTURES, require
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


# ACM forwards each managed cluster's platform alerts to the hub with the external label managed_cluster=<cluster id>
# (stolostron/multicluster-observability-operator operators/pkg/config/config.go ClusterLabelKeyForAlerts, set by
# operators/endpointmetrics/controllers/observabilityendpoint/ocp_monitoring_config.go).
FORWARDED = "managed_cluster=0b7f8a43-5e0c-4b6e-9a51-2d6c1f3e9a10"


def assert_routes(model, config: Path, platform: str = routing.NULL_RECEIVER, critical: str | None = None,
                  watchdog: str = routing.NULL_RECEIVER):
    """gpudash's alerts reach gpudash's receivers; every other alert reaches ``platform`` (``critical`` when
    critical), where the configuration gpudash joined sends it."""
    check_config(config)
    provider = [model.alerts.provider_receiver]
    for t in model.tenants:
        assert receivers(config, f"namespace={t.namespace}", f"{an.AUDIENCE}={an.TENANT}", "severity=critical",
                         f"alertname={an.BUDGET_EXHAUSTED}", f"tenant={t.name}", "cluster=prod-east") == [t.receiver]
        assert receivers(config, f"namespace={t.namespace}", f"{an.AUDIENCE}={an.TENANT}", "severity=warning",
                         f"alertname={an.IDLE}") == [t.receiver]
        # a provider alert about the tenant's namespace stays with the provider
        assert receivers(config, f"namespace={t.namespace}", f"{an.AUDIENCE}={an.PROVIDER}", "severity=warning",
                         f"alertname={an.UNPRICED}") == provider
        # a spoke's platform alert about the tenant's namespace is not gpudash's: it goes where it went
        assert receivers(config, FORWARDED, f"namespace={t.namespace}", "severity=warning",
                         "alertname=KubePodCrashLooping") == [platform]
    assert receivers(config, f"{an.AUDIENCE}={an.PROVIDER}", "severity=critical", "cluster=prod-east",
                     f"alertname={an.CLUSTER_NOT_REPORTING}") == provider
    assert receivers(config, FORWARDED, "namespace=openshift-monitoring", "severity=warning",
                     "alertname=KubePodCrashLooping") == [platform]
    assert receivers(config, FORWARDED, "namespace=openshift-etcd", "severity=critical",
                     "alertname=etcdInsufficientMembers") == [critical or platform]
    assert receivers(config, "namespace=open-cluster-management-observability", "severity=warning",
                     "alertname=ThanosRuleHighRuleEvaluationFailures") == [platform]  # the hub's own
    assert receivers(config, FORWARDED, "alertname=Watchdog", "severity=none") == [watchdog]


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


# --- joining the hub's configuration (issue #43 item 6) -----------------------------------------------------------

MCO_DEFAULT = FIXTURES / "upstream/mco/alertmanager-config.yaml"  # provenance: its SOURCE.md
PLATFORM_ALERTS = [  # what reaches the hub besides gpudash's: spokes' platform alerts, the hub's own, Watchdog
    (FORWARDED, "namespace=team-a", "severity=warning", "alertname=KubePodCrashLooping"),
    (FORWARDED, "namespace=openshift-etcd", "severity=critical", "alertname=etcdInsufficientMembers"),
    ("namespace=open-cluster-management-observability", "severity=warning",
     "alertname=ThanosRuleQueueIsDroppingAlerts"),
    (FORWARDED, "alertname=Watchdog", "severity=none"),
]


def test_every_alert_not_gpudashs_goes_where_mcos_default_sends_it(rendered, example_model, tmp_path):
    upstream = yaml.safe_load(yaml.safe_load(MCO_DEFAULT.read_text())["stringData"]["alertmanager.yaml"])
    mco_default = tmp_path / "mco-default.yaml"
    mco_default.write_text(yaml.safe_dump(upstream))
    config = rendered / layout.ALERTMANAGER
    check_config(mco_default)
    for labels in PLATFORM_ALERTS:
        assert receivers(config, *labels) == receivers(mco_default, *labels), labels
    ours = yaml.safe_load(config.read_text())
    assert {k: v for k, v in ours["route"].items() if k != "routes"} == \
        {k: v for k, v in upstream["route"].items() if k != "routes"}  # MCO's root, as it is
    assert ours["global"] == upstream["global"] and upstream["receivers"][0] in ours["receivers"]
    assert ours["route"]["routes"][0]["matchers"] == [routing.gpudash_alerts()]  # gpudash's route, first


ADMIN = {  # a hub admin's own configuration: a catch-all, a pager for critical alerts, a dead man's switch
    "global": {"resolve_timeout": "5m"},
    "route": {"receiver": "hub-oncall", "group_by": ["alertname", "managed_cluster"],
              "routes": [{"matchers": ['alertname="Watchdog"'], "receiver": "deadmans-switch",
                          "repeat_interval": "5m"},
                         {"matchers": ['severity="critical"'], "receiver": "hub-pager"}]},
    "inhibit_rules": [{"source_matchers": ['severity="critical"'], "target_matchers": ['severity="warning"'],
                       "equal": ["alertname", "managed_cluster"]}],
    "receivers": [{"name": "hub-oncall", "webhook_configs": [{"url": "http://oncall.example.com/hook"}]},
                  {"name": "hub-pager", "webhook_configs": [{"url": "http://pager.example.com/hook"}]},
                  {"name": "deadmans-switch", "webhook_configs": [{"url": "http://dms.example.com/ping"}]}],
}


def merge(own: dict, rendered: dict) -> dict:
    """The merge step of docs/alerts.md ("Routing"), as written there: gpudash's route first in your route.routes,
    gpudash's receivers your configuration lacks into your receivers, gpudash's inhibit rules after yours."""
    names = {r["name"] for r in own["receivers"]}
    return {**own,
            "route": {**own["route"], "routes": [rendered["route"]["routes"][0], *own["route"].get("routes", [])]},
            "receivers": [*own["receivers"], *(r for r in rendered["receivers"] if r["name"] not in names)],
            "inhibit_rules": [*own.get("inhibit_rules", []), *rendered["inhibit_rules"]]}


def test_gpudash_joins_a_hub_admins_own_configuration(rendered, example_model, tmp_path):
    path = tmp_path / "hub.yaml"
    path.write_text(yaml.safe_dump(ADMIN))
    check_config(path)
    joined = tmp_path / "joined.yaml"
    joined.write_text(yaml.safe_dump(merge(ADMIN, yaml.safe_load((rendered / layout.ALERTMANAGER).read_text()))))
    assert_routes(example_model, joined, platform="hub-oncall", critical="hub-pager", watchdog="deadmans-switch")
    # gpudash's critical alerts go to gpudash's provider, not to the admin's pager
    assert receivers(joined, f"{an.AUDIENCE}={an.PROVIDER}", "severity=critical",
                     f"alertname={an.BILLING_DATA_GAP}") == [example_model.alerts.provider_receiver]


def test_a_hub_that_merges_gets_no_secret_to_overwrite_its_own(example_data, rendered):
    from tests.conftest import generate_without_golden

    merged = model_from_dict({**example_data, "mco": {"alertmanager_config": "merge"}})
    files = generate_without_golden(merged)
    assert layout.ALERTMANAGER_SECRET not in files
    assert layout.ALERTMANAGER_SECRET.rpartition("/")[2] not in files[layout.kustomization(layout.MCO)]["resources"]
    assert layout.ALERTMANAGER in files  # the file the admin merges from
    assert (rendered / layout.ALERTMANAGER_SECRET).exists()  # the default: mco.alertmanager_config "render"

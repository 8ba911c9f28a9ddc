"""Dashboards and their delivery: JSON shape, UIDs, units, descriptions, parseable PromQL, determinism,
ACM ConfigMaps, grafana-operator CRs (gzip round trip), file provisioning and the bootstrap description."""
from __future__ import annotations

import copy
import json
import re

import promql_parser
import pytest
import yaml

from gpudash.base import kube, layout
from gpudash.model import model_from_dict
from gpudash.model import series as names
from gpudash.promql import read
from gpudash.promql.lint import vector_selectors
from gpudash.render import grafana
from gpudash.render.grafana import isolation, panels, provisioning, uids
from gpudash.render.rules import hub, spoke
from gpudash.render.targets import grafana_operator as delivery
from tests.conftest import generate_without_golden
from tests.unit.test_model_load import example_dict


def recorded_series(model) -> set[str]:
    """Every series the rules record (what dashboards may read), plus Prometheus' own ``up`` and ``ALERTS``."""
    out = {r.record for r in spoke.rules(model)}
    out |= {r.record for g in hub.groups(model) for r in g.rules}
    return out | {"up", "ALERTS"}


def all_dashboards(model, acm=False) -> list[dict]:
    provider, tenants = grafana.rendered(model, acm=acm)
    return [*provider.values(), *(d for group in tenants.values() for d in group.values())]


def panel_datasources(dash: dict) -> set[str]:
    """The datasource uid every panel and target queries, ``${datasource}`` read from the variable's selection
    (as Grafana interpolates it)."""
    current = {v["name"]: v["current"]["value"] for v in dash["templating"]["list"] if v["type"] == "datasource"}
    refs = {p["datasource"]["uid"] for p in panels.iter_panels(dash) if p["type"] != "row"}
    refs |= {t["datasource"]["uid"] for _, t in panels.iter_targets(dash)}
    return {current.get(r[2:-1], r) if r.startswith("${") else r for r in refs}


def substitute(expr: str) -> str:
    """Grafana macros and the provider dashboards' $cluster variable ("All" = .*)."""
    return isolation.substitute_macros(expr).replace("$cluster", ".*")


@pytest.fixture(scope="module")
def model(example_model):
    return example_model


@pytest.fixture(scope="module")
def dashes(model):
    return all_dashboards(model)


def test_every_dashboard_is_rendered(model, dashes):
    assert len(dashes) == 2 + len(model.tenants)
    titles = {d["title"] for d in dashes}
    assert "GPU billing: provider" in titles and "GPU billing: CCSP hourly report" in titles
    for t in model.tenants:
        assert f"GPU usage and cost: {t.name}" in titles


def test_dashboard_json_shape(dashes):
    for d in dashes:
        assert "id" not in d, d["title"]
        assert d["schemaVersion"] == panels.SCHEMA_VERSION == 39
        assert isinstance(d["panels"], list) and d["panels"]
        assert d["timezone"] == "utc" and d["editable"] is False
        assert set(d["time"]) == {"from", "to"}
        json.dumps(d)  # plain data only
        for key in ("rows", "style", "hideControls", "sharedCrosshair", "gnetId"):
            assert key not in d


def test_uids_are_unique_short_and_stable(model, dashes):
    found = [d["uid"] for d in dashes]
    assert len(found) == len(set(found))
    for uid in found:
        assert 0 < len(uid) <= 40 and re.fullmatch(r"[A-Za-z0-9_-]+", uid)
    for t in model.tenants:
        assert uids.tenant_dashboard_uid(t.name) == f"gpudash-tenant-{t.name}"[:40]
    assert all_dashboards(model) == dashes


def test_long_names_hash_to_40_characters():
    long = "a" * 63
    uid = uids.tenant_dashboard_uid(long)
    assert len(uid) == 40 and uid.startswith("gpudash-tenant-aaaa")
    assert uid == uids.tenant_dashboard_uid(long)
    assert uid != uids.tenant_dashboard_uid("a" * 62 + "b")
    assert uids.uid("gpudash-provider") == "gpudash-provider"
    assert len(uids.uid("x" * 41)) == 40
    assert uids.uid("has space") != "has space" and re.fullmatch(r"[A-Za-z0-9_-]+", uids.uid("has space"))


def test_panel_ids_and_grid(dashes):
    for d in dashes:
        ids = [p["id"] for p in panels.iter_panels(d)]
        assert len(ids) == len(set(ids))
        for p in d["panels"]:
            pos = p["gridPos"]
            assert 0 <= pos["x"] and pos["x"] + pos["w"] <= 24 and pos["h"] > 0


def test_every_panel_has_unit_description_datasource_and_thresholds(dashes):
    for d in dashes:
        for p in panels.iter_panels(d):
            if p["type"] == "row":
                continue
            where = f"{d['title']} / {p['title']}"
            assert p.get("description", "").strip(), where
            defaults = p["fieldConfig"]["defaults"]
            assert defaults.get("unit"), where
            steps = defaults["thresholds"]["steps"]
            assert isinstance(steps, list) and steps and steps[0]["value"] is None, where
            assert isinstance(p["datasource"], dict) and p["datasource"]["uid"], where
            for t in p["targets"]:
                assert isinstance(t["datasource"], dict) and t["datasource"]["uid"] == p["datasource"]["uid"]
                for legacy in ("intervalFactor", "step"):
                    assert legacy not in t


def test_no_null_datasource_anywhere(dashes):
    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "datasource":
                    assert v is not None, path
                walk(v, f"{path}.{k}")
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{path}[{i}]")
    for d in dashes:
        walk(d, d["uid"])


def test_every_target_parses_and_reads_only_recorded_series(model, dashes):
    allowed = recorded_series(model)
    count = 0
    for d in dashes:
        for panel, target in panels.iter_targets(d):
            expr = substitute(target["expr"])
            assert not re.search(r"\$[A-Za-z_{\[]|\[\[", expr), expr  # only label_replace's "$1" is left
            ast = promql_parser.parse(expr)
            for sel in vector_selectors(ast):
                assert sel.name in allowed, f"{panel['title']}: {sel.name} is not a recorded series"
            count += 1
    assert count > 60


def test_no_range_shorter_than_the_freshness_window(model, dashes):
    """On the hub samples are mco_interval apart: rate(x[1m]) would return nothing. Every range over data (a
    range selector, or a subquery over an expression that reads series) spans at least the hub's freshness
    window (gpudash.promql.read: the latest push, whatever its jitter)."""
    minimum = read.fresh_seconds(model.billing.mco_interval)
    for d in dashes:
        for _, target in panels.iter_targets(d):
            expr = substitute(target["expr"])
            assert "rate(" not in expr
            ranges = []

            def visit(node, ranges=ranges):
                if isinstance(node, promql_parser.MatrixSelector):
                    ranges.append(node.range)
                elif isinstance(node, promql_parser.SubqueryExpr) and vector_selectors(node.expr):
                    ranges.append(node.range)
                return True

            promql_parser.walk(promql_parser.parse(expr), pre_visit=visit)
            for rng in ranges:
                assert rng.total_seconds() >= minimum, f"{d['title']}: range {rng} in {expr}"


def test_currency_comes_from_the_model():
    data = example_dict()
    data["currency"] = "EUR"
    eur = model_from_dict(data)
    units = {p["fieldConfig"]["defaults"]["unit"] for d in all_dashboards(eur)
             for p in panels.iter_panels(d) if p["type"] != "row"}
    assert "suffix: EUR" in units and "suffix: EUR/h" in units
    assert not any("USD" in u for u in units)
    assert not any(u.startswith("currency") for u in units)  # Grafana scales those: "$5.00K", not one format


def test_tenant_thresholds_follow_budget_and_alert_levels(model):
    t = next(t for t in model.tenants if t.name == "team-a")
    d = grafana.rendered(model)[1]["team-a"][uids.tenant_dashboard_uid("team-a")]
    cost = next(p for p in d["panels"] if p["title"] == "Cost this period")
    steps = [(s["value"], s["color"]) for s in cost["fieldConfig"]["defaults"]["thresholds"]["steps"]]
    assert steps[0] == (None, "green") and steps[-1] == (t.budget, "red")
    assert [v for v, _ in steps[1:-1]] == [a * t.budget for a in t.alert_at if a < 1]


def test_ccsp_tables_are_hourly_exportable_range_queries(dashes):
    ccsp = next(d for d in dashes if d["uid"] == uids.ccsp_dashboard_uid())
    tables = [p for p in ccsp["panels"] if p["type"] == "table"]
    assert len(tables) == 2
    for p in tables:
        assert p["maxDataPoints"] >= 24 * 62
        for t in p["targets"]:
            assert t["format"] == "table" and t["instant"] is False and t.get("interval") == "1h"
        assert {"id": "merge", "options": {}} in p["transformations"]


def test_tenant_dashboards_have_no_variables_and_exact_namespace(model):
    _, tenants = grafana.rendered(model)
    for t in model.tenants:
        d = tenants[t.name][uids.tenant_dashboard_uid(t.name)]
        assert d["templating"]["list"] == []
        for _, target in panels.iter_targets(d):
            for sel in vector_selectors(promql_parser.parse(isolation.substitute_macros(target["expr"]))):
                ns = [m for m in sel.matchers.matchers if m.name == "namespace"]
                assert len(ns) == 1 and ns[0].op == promql_parser.MatchOp.Equal and ns[0].value == t.namespace


def test_namespace_values_are_escaped():
    data = example_dict()
    model = model_from_dict(data)
    t = model.tenants[0]
    from gpudash.render.grafana.shared_panel_queries import tenant_scope

    weird = dataclasses_replace(t, namespace='x"}or{namespace=~".*')
    scope = tenant_scope(model, weird.namespace)
    expr = scope.now(names.POD_COST_RATE)
    sel = vector_selectors(promql_parser.parse(expr))[0]
    assert [(m.name, m.value) for m in sel.matchers.matchers] == [("namespace", weird.namespace)]


def dataclasses_replace(obj, **changes):
    import dataclasses

    return dataclasses.replace(obj, **changes)


# --- rendered files ------------------------------------------------------------------------------------------------

def test_render_writes_every_grafana_file(rendered, model):
    for d in ("gpudash-provider", "gpudash-ccsp", *(f"gpudash-tenant-{t.name}" for t in model.tenants)):
        assert (rendered / layout.dashboard_json(d)).is_file()
        assert (rendered / layout.dashboard_configmap(d)).is_file()
        assert (rendered / layout.grafana_operator(f"gpudash-dashboard-{d}")).is_file()
    text = (rendered / layout.dashboard_json("gpudash-provider")).read_text()
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert (rendered / layout.GRAFANA_BOOTSTRAP).is_file()
    for t in model.tenants:
        assert (rendered / layout.grafana_provisioning("datasources", f"gpudash-tenant-{t.name}")).is_file()
        assert (rendered / layout.grafana_provisioning("dashboards", f"gpudash-tenant-{t.name}")).is_file()


def test_acm_configmaps(rendered, model):
    for path in sorted((rendered / layout.DASHBOARDS / "acm").glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        cm = yaml.safe_load(path.read_text())
        assert cm["apiVersion"] == "v1" and cm["kind"] == "ConfigMap"
        meta = cm["metadata"]
        assert meta["namespace"] == "open-cluster-management-observability"
        assert meta["labels"]["grafana-custom-dashboard"] == "true"
        folder = meta["annotations"]["observability.open-cluster-management.io/dashboard-folder"]
        (key, text), = cm["data"].items()
        assert key == f"{path.stem}.json"
        dash = json.loads(text)
        assert dash["uid"] == path.stem
        assert panel_datasources(dash) == {uids.ACM_DATASOURCE_UID}
        if path.stem.startswith("gpudash-tenant-"):
            t = next(t for t in model.tenants if uids.tenant_dashboard_uid(t.name) == path.stem)
            assert folder == provisioning.tenant_folder_title(t)
            assert isolation.violations(dash, t.namespace, uids.ACM_DATASOURCE_UID) == []
        else:
            assert folder == model.grafana.provider_folder
        assert kube.annotations_size(cm) <= kube.LAST_APPLIED_LIMIT


def test_operator_objects_and_gzip_round_trip(rendered, model):
    provider, tenants = grafana.rendered(model)
    by_uid = {**provider, **{s: d for g in tenants.values() for s, d in g.items()}}
    folders = {}
    for path in sorted((rendered / layout.GRAFANA / "operator").glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        obj = yaml.safe_load(path.read_text())
        assert obj["apiVersion"] == "grafana.integreatly.org/v1beta1"
        assert obj["metadata"]["name"] == path.stem
        spec = obj["spec"]
        assert spec["instanceSelector"]["matchLabels"]
        if obj["kind"] == "GrafanaFolder":
            assert len(spec["uid"]) <= 40
            assert json.loads(spec["permissions"])["items"]
            folders[obj["metadata"]["name"]] = spec["instanceSelector"]
        elif obj["kind"] == "GrafanaDashboard":
            dash = delivery.ungzip_json(spec["gzipJson"])
            assert dash == by_uid[dash["uid"]]
            assert "json" not in spec
            assert kube.annotations_size(obj) <= kube.LAST_APPLIED_LIMIT
        else:
            assert obj["kind"] == "GrafanaDatasource"
            ds = spec["datasource"]
            assert ds["secureJsonData"]["httpHeaderValue1"] == "Bearer ${token}"
            assert spec["valuesFrom"][0]["valueFrom"]["secretKeyRef"]["key"] == "token"
    for path in sorted((rendered / layout.GRAFANA / "operator").glob("gpudash-dashboard-*.yaml")):
        obj = yaml.safe_load(path.read_text())
        assert folders[obj["spec"]["folderRef"]] == obj["spec"]["instanceSelector"]


def test_gzip_json_is_deterministic():
    d = {"b": [1, 2], "a": "é"}
    assert delivery.gzip_json(delivery.compact_json(d)) == delivery.gzip_json(delivery.compact_json(copy.deepcopy(d)))
    assert delivery.ungzip_json(delivery.gzip_json(delivery.compact_json(d))) == d


def test_file_provisioning_per_org(rendered, model):
    prov = rendered / layout.GRAFANA / "provisioning"
    provider = yaml.safe_load((prov / "datasources" / "gpudash-provider.yaml").read_text())
    assert provider["apiVersion"] == 1 and provider["datasources"][0]["orgId"] == 1
    for t in model.tenants:
        ds = yaml.safe_load((prov / "datasources" / f"gpudash-tenant-{t.name}.yaml").read_text())["datasources"]
        assert len(ds) == 1
        assert ds[0]["uid"] == uids.tenant_datasource_uid(t.name)
        assert ds[0]["orgId"] == f"${{{provisioning.org_id_env(t)}}}"
        assert ds[0]["secureJsonData"]["httpHeaderValue1"] == f"Bearer ${{{provisioning.token_env(model, t)}}}"
        assert ds[0]["url"] == model.grafana.tenant_datasource.url
        dp = yaml.safe_load((prov / "dashboards" / f"gpudash-tenant-{t.name}.yaml").read_text())["providers"]
        assert [p["options"]["path"] for p in dp] == \
            [f"{provisioning.DASHBOARDS_DIR}/{uids.tenant_dashboard_uid(t.name)}.json"]
        assert {p["orgId"] for p in dp} == {ds[0]["orgId"]}
        assert {p["folderUid"] for p in dp} == {uids.tenant_folder_uid(t.name)}


def test_thanos_querier_mode_adds_the_namespace_parameter():
    data = example_dict()
    data["grafana"]["tenant_datasource"] = {"mode": "thanos-querier"}
    model = model_from_dict(data)
    files = generate_without_golden(model)
    for t in model.tenants:
        ds = files[layout.grafana_provisioning("datasources", f"gpudash-tenant-{t.name}")]["datasources"][0]
        assert ds["jsonData"]["customQueryParameters"] == f"namespace={t.namespace}"
        assert ds["jsonData"]["httpMethod"] == "GET"
        assert ":9092" in ds["url"]


def test_bootstrap_description(rendered, model):
    desc = json.loads((rendered / layout.GRAFANA_BOOTSTRAP).read_text())
    assert desc == provisioning.bootstrap(model)
    orgs = desc["orgs"]
    assert orgs[0]["id"] == 1 and orgs[0]["create"] is False
    assert [o["tenant"] for o in orgs[1:]] == [t.name for t in model.tenants]
    for org in orgs:
        for f in org["folders"]:
            assert {"role": "Viewer", "permission": 1} in f["permissions"]
        assert org["serviceAccounts"]


# --- datasource variable and manual import (#14 point 11) ---------------------------------------------------------

def import_dashboard(template: dict, inputs: list[dict]) -> dict:
    """A stand-in for Grafana's import (POST /api/dashboards/import), written from grafana/grafana
    pkg/services/dashboardimport/utils/dash_template_evaluator.go: every ``__inputs`` entry needs an input of its
    name and type, each ``${NAME}`` in any string becomes the input's value, ``__inputs`` is dropped."""
    values = {}
    for want in template.get("__inputs", []):
        found = [i for i in inputs if i["type"] == want["type"] and i["name"] in (want["name"], "*")]
        if not found:
            raise KeyError(f"Dashboard input variable: {want['name']} missing from import command")
        values["${" + want["name"] + "}"] = found[0]["value"]

    def walk(node):
        if isinstance(node, str):
            return re.sub(r"\$\{.+?\}", lambda m: values.get(m.group(0), m.group(0)), node)
        if isinstance(node, list):
            return [walk(v) for v in node]
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items() if k != "__inputs"}
        return node
    return walk(template)


def test_provider_dashboards_read_a_datasource_variable_set_to_the_provisioned_datasource(rendered, model):
    ds_file = yaml.safe_load((rendered / "grafana/provisioning/datasources/gpudash-provider.yaml").read_text())
    (provisioned,) = ds_file["datasources"]
    for acm, uid in ((False, provisioned["uid"]), (True, uids.ACM_DATASOURCE_UID)):
        provider, _ = grafana.rendered(model, acm=acm)
        assert set(provider) == {uids.provider_dashboard_uid(), uids.ccsp_dashboard_uid()}
        for dash in provider.values():
            var = dash["templating"]["list"][0]
            assert (var["name"], var["type"], var["query"]) == ("datasource", "datasource", provisioned["type"])
            assert var["current"]["value"] == uid
            refs = {p["datasource"]["uid"] for p in panels.iter_panels(dash) if p["type"] != "row"}
            assert refs | {t["datasource"]["uid"] for _, t in panels.iter_targets(dash)} == {"${datasource}"}
            assert panel_datasources(dash) == {uid}
            assert "${DS_" not in json.dumps(dash)  # nothing substitutes an import input in provisioned copies
    on_disk = json.loads((rendered / "dashboards" / f"{uids.provider_dashboard_uid()}.json").read_text())
    assert panel_datasources(on_disk) == {provisioned["uid"]}


def test_manual_import_asks_for_the_datasource_and_every_panel_uses_it(rendered, model):
    provider, _ = grafana.rendered(model)
    files = sorted((rendered / layout.dashboard_import("x")).parent.glob("*.json"))
    assert [p.stem for p in files] == sorted(provider)
    for path in files:
        template = json.loads(path.read_text())
        (wanted,) = template["__inputs"]
        assert wanted["type"] == "datasource" and wanted["pluginId"] == "prometheus"
        names_used = set(re.findall(r"\$\{([A-Za-z0-9_]+)", json.dumps(template)))
        variables = {v["name"] for v in template["templating"]["list"]}
        assert names_used <= variables | {wanted["name"]}, names_used
        with pytest.raises(KeyError, match="missing from import command"):
            import_dashboard(template, [])
        imported = import_dashboard(template, [{"name": wanted["name"], "type": "datasource",
                                                "pluginId": "prometheus", "value": "their-prometheus"}])
        assert "__inputs" not in imported and "${DS_" not in json.dumps(imported)
        assert panel_datasources(imported) == {"their-prometheus"}
        # apart from the selected datasource, the import is the provisioned dashboard
        imported["templating"]["list"][0]["current"] = provider[path.stem]["templating"]["list"][0]["current"]
        assert imported == provider[path.stem]


def test_for_import_needs_a_datasource_variable(model):
    _, tenants = grafana.rendered(model)
    tenant = next(iter(tenants["team-a"].values()))
    with pytest.raises(ValueError, match="no datasource variable"):
        panels.for_import(tenant)


def test_money_has_one_format_everywhere(model, dashes):
    """Every amount of money, in every panel and column, is the currency code suffix with 2 decimals."""
    money = {panels.currency_unit(model.currency), panels.currency_rate_unit(model.currency)}
    seen = 0
    for d in dashes:
        for p in panels.iter_panels(d):
            if p["type"] == "row":
                continue
            defaults = p["fieldConfig"]["defaults"]
            units = [defaults["unit"]] + [prop["value"] for o in p["fieldConfig"].get("overrides", [])
                                          for prop in o["properties"] if prop["id"] == "unit"]
            for unit in units:
                assert not unit.startswith("currency"), (d["title"], p["title"], unit)
                if unit in money:
                    seen += 1
                    assert defaults.get("decimals") == 2, (d["title"], p["title"])
    assert seen > 20

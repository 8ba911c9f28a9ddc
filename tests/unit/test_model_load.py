"""Loading valid models: the bundled example, defaults, normalisation, MIG prices and the JSON Schema."""
from __future__ import annotations

import copy
import dataclasses
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

from gpudash.base.errors import GpudashError
from gpudash.model import (
    Model,
    json_schema,
    load_bundled_example,
    load_model,
    mig,
    model_from_dict,
    resolve_model_path,
    types,
    vendors,
)
from gpudash.model.durations import format_duration, parse_duration
from gpudash.model.load import BUNDLED_SOURCE

EXAMPLE_TEXT = resources.files("gpudash").joinpath("examples", "gpudash.yaml").read_text()
MINIMAL = {
    "gpu_classes": [{"name": "a100", "vendor": "nvidia", "products": ["NVIDIA A100-SXM4-40GB"],
                     "price_per_hour": 2.8}],
    "tenants": [{"name": "team-a", "namespace": "team-a", "budget": 100}],
    "clusters": ["east"],
}


def example_dict() -> dict:
    return yaml.safe_load(EXAMPLE_TEXT)


def minimal(**changes) -> dict:
    data = copy.deepcopy(MINIMAL)
    data.update(changes)
    return data


def gpu_class(model: Model, name: str) -> types.GpuClass:
    return next(c for c in model.gpu_classes if c.name == name)


def schema_property(*path: str) -> dict:
    """The schema of the property at ``path`` ("[]" steps into array items), $refs resolved."""
    schema = root = json_schema()
    for step in path:
        schema = schema["items"] if step == "[]" else schema["properties"][step]
        while "$ref" in schema:
            own = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**root["$defs"][schema["$ref"].rsplit("/", 1)[-1]], **own}
    return schema


# --- the bundled example ---------------------------------------------------------------------------------------

def test_bundled_example_loads_sorted_and_complete():
    model = load_bundled_example()
    assert model.source == BUNDLED_SOURCE
    assert [c.name for c in model.gpu_classes] == ["a100-80gb", "h100-80gb", "l40s", "mi300x"]
    assert [t.name for t in model.tenants] == ["inference", "research", "team-a", "team-b"]
    assert model.clusters == ("prod-east", "prod-west")
    assert model.sources.dcgm.tenant_label == "exported_namespace"
    assert model.sources.dcgm.pod_label == "exported_pod"
    assert model.sources.amd.pod_label == "pod"
    assert model.tenant_for_namespace("ml-research").name == "research"
    assert model.tenant_for_namespace("openshift-monitoring") is None


def test_example_file_equals_bundled_example(tmp_path):
    path = tmp_path / "gpudash.yaml"
    path.write_text(EXAMPLE_TEXT)
    model = load_model(path)
    assert model == load_bundled_example()
    assert model.source == str(path)
    assert load_model(str(path)) == model


def test_schema_is_valid_draft_2020_12_and_accepts_the_example():
    schema = json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(example_dict())


def test_json_schema_returns_a_fresh_dict():
    json_schema()["properties"].clear()
    assert "tenants" in json_schema()["properties"]


# --- the schema covers the model -------------------------------------------------------------------------------

DERIVED = {"Model.source", "Model.tenant_order", "GpuClass.shared_price_per_hour", "GpuClass.time_slicing_replicas",
           "Sources.exporters", "Sources.settings"}  # Sources: the registered vendors' keys (test below)
SECTIONS = {  # dataclass -> schema path of the object it is built from
    types.Billing: ("billing",), types.Sources: ("sources",), types.GpuClass: ("gpu_classes", "[]"),
    types.Tenant: ("tenants", "[]"), types.Alerts: ("alerts",), types.IdleAlerts: ("alerts", "idle"),
    types.Grafana: ("grafana",), types.TenantDatasource: ("grafana", "tenant_datasource"), types.Model: (),
    types.Issuer: ("issuer",),
}


@pytest.mark.parametrize("cls", SECTIONS, ids=lambda c: c.__name__)
def test_schema_has_every_model_field(cls):
    properties = schema_property(*SECTIONS[cls])["properties"]
    for f in dataclasses.fields(cls):
        assert f.name in properties or f"{cls.__name__}.{f.name}" in DERIVED, f"{cls.__name__}.{f.name}"


def test_every_vendors_sources_key_is_in_the_schema_and_the_model():
    """Sources holds each registered vendor's keys (its exporter, its own fields), read as the YAML spells them."""
    properties = schema_property("sources")["properties"]
    sources = model_from_dict(minimal()).sources
    for v in vendors.VENDORS.values():
        assert v.source in properties and getattr(sources, v.source) == sources.exporter(v.source)
        for key, schema in v.sources_fields:
            assert properties[key] == schema and getattr(sources, key) == schema["default"]


def _all_properties(schema: dict, where: str = ""):
    for name, sub in schema.get("properties", {}).items():
        yield f"{where}.{name}", sub
        yield from _all_properties(sub, f"{where}.{name}")
    for name, sub in schema.get("$defs", {}).items():
        yield from _all_properties(sub, f"$defs.{name}")


def test_every_schema_property_has_a_description():
    missing = [where for where, sub in _all_properties(json_schema()) if not sub.get("description")]
    assert not missing


def test_schema_defaults_are_valid_and_used():
    model = model_from_dict(minimal())
    assert model.currency == json_schema()["properties"]["currency"]["default"]
    assert format_duration(model.billing.resolution) == schema_property("billing", "resolution")["default"]
    assert model.sources.dcgm.job == schema_property("sources", "dcgm")["properties"]["job"]["default"]
    assert model.alerts.runbook_url == schema_property("alerts", "runbook_url")["default"]


# --- defaults --------------------------------------------------------------------------------------------------

def test_defaults_of_a_minimal_model():
    model = model_from_dict(minimal())
    assert model.source == "<dict>"
    assert model.currency == "USD"
    # every target by default, acm among them: the spoke tier and its 24 hours of backfill
    assert model.billing == types.Billing(period="monthly", resolution=60, mco_interval=300, burn_rate_window=3600,
                                          spoke_tier="policy", backfill_hours=types.DEFAULT_BACKFILL_HOURS)
    assert model.sources == types.Sources(
        kube_state_metrics_job="kube-state-metrics",
        dcgm=types.Exporter(job="nvidia-dcgm-exporter", tenant_label="exported_namespace"),
        amd=types.Exporter(job=".+-metrics-exporter", tenant_label="namespace"), amd_metric_prefix="",
        nvidia_product_label="label_nvidia_com_gpu_product", amd_product_label="label_amd_com_gpu_product_name",
        amd_partition_label="label_amd_com_gpu_compute_memory_partition")
    (tenant,) = model.tenants
    assert tenant.alert_at == (0.5, 0.9, 1.0)
    assert tenant.quota == ()
    assert tenant.receiver == "tenant-team-a"
    assert model.alerts == types.Alerts(
        runbook_url="https://github.com/gpudash/gpudash/blob/main/docs/alerts.md#alert-{alertname}",
        dashboard_url="http://localhost:3000", provider_receiver="gpu-provider", burn_jump_factor=2.0,
        idle=types.IdleAlerts(window=1800, namespace_regex=".*", model_regex=".*", power_veto_watts=0.0))
    provider = "http://rbac-query-proxy.open-cluster-management-observability.svc:8080"
    assert model.grafana == types.Grafana(
        provider_datasource_url=provider, provider_folder="GPU Provider",
        tenant_datasource=types.TenantDatasource(mode="rbac-query-proxy", url=provider, token_env="GF_TENANT_TOKEN"))


def test_tenant_datasource_url_defaults_by_mode():
    thanos = model_from_dict(minimal(grafana={"tenant_datasource": {"mode": "thanos-querier"}}))
    assert thanos.grafana.tenant_datasource.url == "https://thanos-querier.openshift-monitoring.svc:9092"
    custom = model_from_dict(minimal(grafana={"provider_datasource_url": "https://hub:8443"}))
    assert custom.grafana.tenant_datasource.url == "https://hub:8443"


# --- normalisation ---------------------------------------------------------------------------------------------

def test_everything_is_sorted():
    data = minimal(clusters=["west", "east", "central"])
    data["gpu_classes"].insert(0, {"name": "t4", "vendor": "nvidia", "products": ["Tesla T4", "NVIDIA T4"],
                                   "price_per_hour": 0.3})
    data["tenants"].insert(0, {"name": "zeta", "namespace": "zeta", "budget": 1,
                               "quota": {"nvidia.com/mig-1g.5gb": 2, "amd.com/gpu": 1, "nvidia.com/gpu": 3}})
    model = model_from_dict(data)
    assert model.clusters == ("central", "east", "west")
    assert [c.name for c in model.gpu_classes] == ["a100", "t4"]
    assert gpu_class(model, "t4").products == ("NVIDIA T4", "Tesla T4")
    assert [t.name for t in model.tenants] == ["team-a", "zeta"]
    assert model.tenants[1].quota == (("amd.com/gpu", 1), ("nvidia.com/gpu", 3), ("nvidia.com/mig-1g.5gb", 2))


@pytest.mark.parametrize("text,seconds", [("30s", 30), ("1m", 60), ("5m", 300), ("1h", 3600), ("1h30m", 5400),
                                          ("2d", 172800), ("90m", 5400), ("1d1h1m1s", 90061)])
def test_durations(text, seconds):
    assert parse_duration(text) == seconds
    assert parse_duration(format_duration(seconds)) == seconds


def test_durations_and_numbers_are_converted():
    data = minimal(billing={"resolution": "30s", "mco_interval": "1m", "burn_rate_window": "1h30m"},
                   alerts={"dashboard_url": "https://grafana.example.com/", "idle": {"window": "2m"}})
    data["tenants"][0].update(budget=100, alert_at=[1, 2], quota={"nvidia.com/gpu": 4.0})
    model = model_from_dict(data)
    assert model.billing == types.Billing("monthly", 30, 60, 5400, "policy", backfill_hours=24)
    assert model.alerts.dashboard_url == "https://grafana.example.com"
    assert model.alerts.idle.window == 120
    tenant = model.tenants[0]
    assert isinstance(tenant.budget, float) and tenant.alert_at == (1.0, 2.0)
    assert tenant.quota == (("nvidia.com/gpu", 4),) and isinstance(tenant.quota[0][1], int)


def test_model_from_dict_does_not_modify_its_input():
    data = minimal()
    before = copy.deepcopy(data)
    model_from_dict(data)
    assert data == before


def test_yaml_anchors_and_merge_keys(tmp_path):
    path = tmp_path / "gpudash.yaml"
    path.write_text(
        "gpu_classes:\n"
        "  - {name: a100, vendor: nvidia, products: ['NVIDIA A100-SXM4-40GB'], price_per_hour: 2}\n"
        "tenants:\n"
        "  - &base {name: team-a, namespace: team-a, budget: 100, alert_at: [0.8, 1.0]}\n"
        "  - <<: *base\n"
        "    name: team-b\n"
        "    namespace: team-b\n"
        "clusters: [east]\n")
    model = load_model(path)
    assert [(t.name, t.namespace, t.alert_at) for t in model.tenants] == [
        ("team-a", "team-a", (0.8, 1.0)), ("team-b", "team-b", (0.8, 1.0))]


# --- prices ----------------------------------------------------------------------------------------------------

def test_mig_profiles_priced_from_model_or_default_rule():
    a100 = gpu_class(load_bundled_example(), "a100-80gb")
    assert a100.mig_model == "A100-80GB"
    assert [p.name for p in a100.mig] == ["1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"]
    prices = {p.name: (p.price_per_hour, p.price_source) for p in a100.mig}
    assert prices["1g.10gb"] == (0.55, "model")
    assert prices["3g.40gb"] == (1.60, "model")
    assert prices["2g.20gb"] == (round(3.20 * 2 / 7, 6), "default")  # compute share 2/7 > memory share 2/8
    assert prices["1g.20gb"] == (round(3.20 * 2 / 8, 6), "default")  # memory share 2/8 > compute share 1/7
    assert prices["7g.80gb"] == (3.20, "default")
    assert all(p.resource == f"nvidia.com/mig-{p.name}" for p in a100.mig)


def test_every_profile_of_the_mig_model_is_present_and_sorted():
    for model_name, profiles in mig.PROFILES.items():
        data = minimal()
        data["gpu_classes"][0]["mig_model"] = model_name
        (c,) = model_from_dict(data).gpu_classes
        assert {p.name for p in c.mig} == set(profiles)
        keys = [(p.compute_slices, p.memory_slices, p.name) for p in c.mig]
        assert keys == sorted(keys)
        for p in c.mig:
            assert p.price_per_hour == round(2.8 * mig.default_share(model_name, p.name), 6)


def test_media_extension_variants_priced_only_when_listed():
    data = minimal()
    data["gpu_classes"][0]["mig"] = {"1g.5gb+me": 0.4}
    (c,) = model_from_dict(data).gpu_classes
    variant = next(p for p in c.mig if p.name == "1g.5gb+me")
    assert (variant.compute_slices, variant.memory_slices, variant.price_per_hour, variant.price_source) == \
        (1, 1, 0.4, "model")
    assert variant.resource == "nvidia.com/mig-1g.5gb+me"
    assert not any(p.name.endswith(("-me", "+gfx", "+me.all")) for p in c.mig)  # others are not invented


def test_mig_model_inferred_explicit_or_none():
    assert gpu_class(load_bundled_example(), "h100-80gb").mig_model == "H100-80GB"
    assert model_from_dict(minimal()).gpu_classes[0].mig_model == "A100-40GB"
    for name in ("l40s", "mi300x"):
        c = gpu_class(load_bundled_example(), name)
        assert (c.mig_model, c.mig) == (None, ())
    data = minimal()
    data["gpu_classes"][0].update(products=["NVIDIA A100-SXM4-40GB", "NVIDIA L4"], mig_model="A100-40GB")
    assert model_from_dict(data).gpu_classes[0].mig_model == "A100-40GB"  # explicit model: no inference


def test_shared_price():
    model = load_bundled_example()
    l40s = gpu_class(model, "l40s")
    assert (l40s.shared_price_per_hour, l40s.time_slicing_replicas) == (1.10 / 4, 4)
    assert gpu_class(model, "a100-80gb").shared_price_per_hour == 3.20  # no rule: a replica bills as a whole GPU
    data = minimal()
    data["gpu_classes"][0]["time_slicing"] = {"replicas": 3, "price_per_hour": 1.25}
    assert model_from_dict(data).gpu_classes[0].shared_price_per_hour == 1.25


# --- which file ------------------------------------------------------------------------------------------------

def test_resolve_model_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert resolve_model_path("other.yaml") == Path("other.yaml")
    with pytest.raises(GpudashError, match=r"^no gpudash.yaml here: pass -c FILE, or run `gpudash init`"):
        resolve_model_path(None)  # never the example without a word
    assert load_model(resolve_model_path(None, example=True)).source == BUNDLED_SOURCE
    assert load_model(resolve_model_path("other.yaml", example=True)).source == BUNDLED_SOURCE
    (tmp_path / "gpudash.yaml").write_text(EXAMPLE_TEXT)
    assert resolve_model_path(None) == Path("gpudash.yaml")
    assert load_model(resolve_model_path("")).source == "gpudash.yaml"


@pytest.mark.parametrize("text", [
    "a: 1\nb:\n  - x\n  - {y: 2, z: [3, 4]}\nc: &anchor\n  d: e\nf: *anchor\n",
    "# comment\n\na: |\n  block\n  text\nb: >\n  folded\n  text\nc: 2026-01-01\nd: 1e3\ne: ~\n",
    "a:\n- 1\n- 2\nb: 'quoted: yes'\nc: \"esc\\n\"\n<<: {m: 1}\n",
])
def test_the_fast_parser_reads_what_pyyaml_reads_with_the_same_lines(text):
    """A model is parsed with libyaml (thousands of tenants load 5x faster), its errors with PyYAML's own parser:
    data and the line of every field path are the same."""
    from gpudash.model import parse

    assert parse._FAST is not None, "PyYAML is built with libyaml here"
    assert parse._parsed(parse._FAST(text), "m.yaml") == parse._parsed(parse._Loader(text), "m.yaml")
    example = resources.files("gpudash.examples").joinpath("gpudash.yaml").read_text()
    assert parse._parsed(parse._FAST(example), "m.yaml") == parse._parsed(parse._Loader(example), "m.yaml")


@pytest.mark.parametrize("targets, tier", [(["acm"], "policy"), (["files", "prometheus-rule"], "none")])
def test_the_spoke_tier_is_the_default_of_the_acm_path(targets, tier):
    """The tier is delivered by an ACM Policy and keeps each push cheap (benchmarks/RESULTS.md section 1): the default
    where the acm target is rendered; without it the rules re-derive each hour, unless the model says otherwise."""
    model = model_from_dict(minimal(outputs={"targets": targets}))
    assert (model.billing.spoke_tier, model.billing.backfill_hours) == (tier, 24 if tier == "policy" else 0)
    explicit = model_from_dict(minimal(outputs={"targets": targets}, billing={"spoke_tier": "none"}))
    assert (explicit.billing.spoke_tier, explicit.billing.backfill_hours) == ("none", 0)


@pytest.mark.parametrize("text", [EXAMPLE_TEXT, "tenants: [", "clusters: 1\n"])
@pytest.mark.parametrize("enabled", [True, False])
def test_a_load_leaves_the_cyclic_collector_as_it_found_it(tmp_path, monkeypatch, text, enabled):
    """The collector is held off while a model loads (gpudash.model.load._collector_paused), never longer: a valid
    model, a YAML error and a schema error leave it on if it was on, off if it was off; it is off meanwhile."""
    import gc

    from gpudash.model import load as loading

    seen = []
    parse = loading.parse_yaml
    monkeypatch.setattr(loading, "parse_yaml", lambda *a: seen.append(gc.isenabled()) or parse(*a))
    path = tmp_path / "gpudash.yaml"
    path.write_text(text)
    (gc.enable if enabled else gc.disable)()
    try:
        try:
            load_model(path)
        except GpudashError:
            assert text != EXAMPLE_TEXT
        assert (gc.isenabled(), seen) == (enabled, [False])
    finally:
        gc.enable()

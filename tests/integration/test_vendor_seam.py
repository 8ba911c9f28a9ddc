"""Vendors as a seam (issues #33, #48): adding a GPU vendor is adding one module. A test-only vendor
(tests/fixtures/vendor_acme.py: fictional names, labels and units) is registered, a model with one class of it is
rendered, and golden scenarios written for its nodes pass with the real promtool of every pinned Prometheus version:
the rules, the series synthesiser and the reference model all take that vendor's series from its module. Its
tenants get a quota of its GPUs, a self-managed spoke its exporter's ServiceMonitor, and its lines an invoice
wording, all without a change outside that module."""
from __future__ import annotations

import re

import pytest

from e2e import toolsets
from gpudash.base import layout
from gpudash.model import model_from_dict, vendors
from gpudash.ops.promtest import run_promtool_tests
from gpudash.ops.report import common, invoice
from gpudash.render import quotas, rules, wiring, writer
from gpudash.render.golden.emit import SCENARIO_DIR, emit_tests
from tests.conftest import load_yaml
from tests.fixtures import vendor_acme as acme

# bundled scenarios replayed on an ACME node: whole GPUs billed, activity and power per pod (every_series), and
# each GPU's energy split among the pods holding it
SCENARIOS = ("whole-gpu-steady", "energy-busy-idle")


@pytest.fixture(scope="module")
def acme_registered():
    vendors.register(acme)
    yield acme.VENDOR
    vendors.unregister(acme.VENDOR.name)


@pytest.fixture(scope="module")
def acme_model(acme_registered):
    return model_from_dict({
        "gpu_classes": [{"name": "x1", "vendor": "acme", "products": ["ACME X1"], "price_per_hour": 3}],
        "tenants": [{"name": t, "namespace": f"team-{t}", "budget": 1000} for t in ("a", "b", "c")],
        "clusters": ["c1"],
        "energy": {"price_per_kwh": 0.25},
    })


@pytest.fixture(scope="module")
def acme_render(tmp_path_factory, acme_model):
    """The model's rules and the golden tests of :data:`SCENARIOS` with their nodes' vendor set to acme."""
    out = tmp_path_factory.mktemp("acme")
    folder = out / "scenarios"
    folder.mkdir()
    for name in SCENARIOS:
        text = (SCENARIO_DIR / f"{name}.yaml").read_text()
        assert "vendor: nvidia" in text, name
        text = text.replace("vendor: nvidia", "vendor: acme").replace(f"name: {name}\n", f"name: acme-{name}\n")
        (folder / f"acme-{name}.yaml").write_text(text)
    files = {**rules.artifacts(acme_model), **emit_tests(acme_model, folder)}
    writer.apply(writer.plan(out / "render", files))
    return out / "render"


def test_the_model_reads_the_vendors_section_and_resource(acme_model):
    (cls,) = acme_model.gpu_classes
    assert cls.whole_resource == "acme.com/gpu"
    exporter = acme_model.sources.exporter("acme")
    assert (exporter.job, exporter.tenant_label) == ("acme-gpu-exporter", "namespace")


def test_the_rules_select_the_vendors_series(acme_render):
    """The spoke rules read the module's names: a rule path that ignored the module would select DCGM's or AMD's
    series only and leave these out."""
    spoke = (acme_render / layout.SPOKE_RULES).read_text()
    tier = (acme_render / layout.SPOKE_TIER_RULES).read_text()  # the per-step energy split
    job = re.escape('job=~"acme-gpu-exporter"')
    for metric, text in ((acme.BUSY, spoke), (acme.POWER, spoke), (acme.ENERGY, tier), (acme.MEMORY_USED, tier)):
        assert re.search(rf"{metric}\{{[^}}]*{job}", text), metric
    assert re.search(rf"max_over_time\({acme.BUSY}\{{[^}}]*\}}\[[^]]+\]\) / 100", spoke)  # percent -> 0-1
    assert f"{acme.ENERGY}{{" in tier and "* 0.01" in tier  # centijoules -> joules
    assert "acme_com_.+" in tier  # kube-state-metrics' resources of the vendor's domain are allocation
    assert "label_acme_com_gpu_product" in tier  # the node's product, from the vendor's node label key


def test_the_synthesised_series_are_the_vendors(acme_render):
    """The golden inputs come from the module: its metric names, GPU, host and model labels, and no other
    vendor's exporter series."""
    test = load_yaml(acme_render / layout.TESTS / "golden-acme-whole-gpu-steady.test.yaml")
    names = {s["series"].split("{")[0] for t in test["tests"] for s in t["input_series"]}
    assert {acme.BUSY, acme.POWER, acme.ENERGY, acme.MEMORY_USED} <= names
    assert not any(n.startswith(("DCGM_", "gpu_gfx", "gpu_package", "gpu_energy")) for n in names)
    busy = next(s["series"] for t in test["tests"] for s in t["input_series"] if s["series"].startswith(acme.BUSY))
    for label in ('acme_gpu="', 'node_name="gpu-node-1"', 'acme_model="ACME X1"', 'job="acme-gpu-exporter"'):
        assert label in busy


def test_the_golden_index_runs_every_scenario(acme_render):
    index = load_yaml(acme_render / layout.GOLDEN_INDEX)["scenarios"]
    spoke = {f"golden-acme-{name}.test.yaml" for name in SCENARIOS} | {layout.golden_shared("spoke").rpartition("/")[2]}
    for name in SCENARIOS:
        assert spoke & set(index[f"acme-{name}"]["files"]), index[f"acme-{name}"]


@pytest.mark.parametrize("toolset", toolsets.params())
def test_the_vendors_golden_scenarios_pass(acme_render, toolset):
    promtool = toolsets.require(toolset).promtool
    results = run_promtool_tests(acme_render, promtool=promtool)
    index = load_yaml(acme_render / layout.GOLDEN_INDEX)["scenarios"]
    assert {r.file for r in results} >= {f for n in SCENARIOS for f in index[f"acme-{n}"]["files"]}
    failed = [str(r) for r in results if not r.ok]
    assert not failed, "\n".join(failed)


def test_unregistering_leaves_the_bundled_vendors(acme_registered):
    assert list(vendors.VENDORS)[:2] == ["nvidia", "amd"]
    assert vendors.vendor("acme") is acme.VENDOR


@pytest.fixture(scope="module")
def acme_managed(acme_registered):
    """A model quota-limiting the vendor's GPUs, on self-managed spokes."""
    return model_from_dict({
        "gpu_classes": [{"name": "x1", "vendor": "acme", "products": ["ACME X1"], "price_per_hour": 3}],
        "tenants": [{"name": "a", "namespace": "team-a", "budget": 1000, "quota": {acme.VENDOR.resource: 4}}],
        "clusters": ["c1"],
        "sources": {"self_managed": {"acme_service_labels": {"app": "acme"}}},
    })


def test_a_tenant_gets_a_quota_of_the_vendors_gpus(acme_managed):
    (quota,) = quotas.objects(acme_managed).values()
    assert quota["spec"]["hard"] == {f"requests.{acme.VENDOR.resource}": "4"}


def test_a_self_managed_spoke_gets_the_vendors_service_monitor(acme_managed):
    files = wiring.artifacts(acme_managed)
    monitor = files[layout.wiring_service_monitor(acme.VENDOR.wiring.stem)]
    assert monitor["spec"]["selector"] == {"matchLabels": {"app": "acme"}}  # the model's labels for it
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["honorLabels"] is True  # its tenant_label is namespace
    assert [r["replacement"] for r in endpoint["relabelings"]] == ["acme-gpu-exporter"]


def test_an_invoice_line_names_the_vendors_product_and_unit(acme_managed):
    assert invoice.describe(acme_managed, "x1", acme.VENDOR.resource, "c1") == "ACME X1: whole GPU (x1)"
    assert common.unit(acme.VENDOR.resource) == "GPU-hours"

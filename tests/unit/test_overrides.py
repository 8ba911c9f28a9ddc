"""The mixin's ``_config`` selectors come from the vendor registry (gpudash/render/overrides.py): kube-state-metrics'
job, then each registered vendor's exporter job, product and partition labels; a test-only vendor gets its own
without touching another file, and the mixin templates its job from ``_config``."""
from __future__ import annotations

import dataclasses

import pytest

from gpudash.base import layout
from gpudash.base.deferred import built
from gpudash.model import vendors
from gpudash.model.load import model_from_dict
from gpudash.render import content, overrides
from gpudash.render.targets import mixin
from tests.fixtures import vendor_acme as acme


def test_the_bundled_vendors_selectors_in_their_order(example_model):
    fields = overrides.fields()
    assert list(fields)[0] == "kubeStateMetricsJob"
    jobs = [f"{v.source}{overrides.EXPORTER_JOB}" for v in vendors.VENDORS.values()]
    assert [n for n in fields if n.endswith(overrides.EXPORTER_JOB)] == jobs
    assert overrides.defaults(example_model)[jobs[0]] == example_model.sources.exporter(
        next(iter(vendors.VENDORS.values())).source).job


@pytest.fixture
def acme_model():
    vendors.register(acme)
    yield model_from_dict({
        "gpu_classes": [{"name": "x1", "vendor": "acme", "products": ["ACME X1"], "price_per_hour": 3}],
        "tenants": [{"name": "a", "namespace": "team-a", "budget": 1000}], "clusters": ["c1"],
        "outputs": {"targets": ["mixin"]}})
    vendors.unregister(acme.VENDOR.name)


def test_a_registered_vendors_exporter_job_is_a_selector(acme_model):
    field = f"{acme.VENDOR.source}{overrides.EXPORTER_JOB}"
    f = overrides.fields()[field]
    assert f.get(acme_model.sources) == acme_model.sources.exporter(acme.VENDOR.source).job
    moved = f.put(acme_model.sources, "acme-elsewhere")
    assert moved.exporter(acme.VENDOR.source).job == "acme-elsewhere"
    assert dataclasses.replace(moved, exporters=acme_model.sources.exporters) == acme_model.sources  # only that
    probe = overrides.probe_model(acme_model)
    assert overrides.defaults(probe) == {name: overrides.sentinel(name) for name in overrides.fields()}
    files = mixin.deliver(acme_model, content.build(acme_model, tests={}))
    assert f"    {field}: " in str(files[layout.mixin_file(layout.MIXIN_CONFIG)])
    assert f"%({field})s" in str(built(files[layout.mixin_file(layout.MIXIN_RULES)]))

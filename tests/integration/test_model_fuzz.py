"""Fuzzing the loader: whatever the input, the outcome is a Model or an InputError, never another exception."""
from __future__ import annotations

import copy
import datetime
from importlib import resources

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpudash.base.errors import InputError
from gpudash.model import Model, load_model, mig, model_from_dict
from gpudash.model.schema import quota_resources
from tests.thorough import examples

EXAMPLE_TEXT = resources.files("gpudash").joinpath("examples", "gpudash.yaml").read_text()
EXAMPLE = yaml.safe_load(EXAMPLE_TEXT)
FUZZ = settings(max_examples=examples(200), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20), st.binary(max_size=8),
    st.dates(), st.sampled_from(["", "1m", "5m", "0s", "1h30m", "60", "openshift", "A100-80GB", "1g.10gb",
                                 "nvidia", "amd", "team-a", ".*", "(?=x)", "[", "yes", "http://x", "{alertname}"]))
keys = st.one_of(st.text(max_size=12), st.sampled_from(["name", "mig", "quota", "price_per_hour", "replicas",
                                                        "window", "mig_model", "url", "mode", "budget"]))
junk = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4),
    st.dictionaries(st.integers(), inner, max_size=2), st.tuples(inner), st.frozensets(st.integers(), max_size=3)),
    max_leaves=10)


def outcome_ok(load, *args) -> None:
    try:
        assert isinstance(load(*args), Model)
    except InputError as err:  # one line per error (InputErrors lists several under a count)
        for e in getattr(err, "errors", [err]):
            assert str(e) and "\n" not in str(e)


# --- mutations of the example ----------------------------------------------------------------------------------

def _slots(value, found: list) -> list:
    """Every (container, key) in ``value``."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found.append((value, key))
        _slots(item, found)
    return found


@st.composite
def mutated_example(draw) -> dict:
    data = copy.deepcopy(EXAMPLE)
    for _ in range(draw(st.integers(1, 4))):
        slots = _slots(data, [])
        if not slots:
            break
        container, key = draw(st.sampled_from(slots))
        action = draw(st.sampled_from(["delete", "replace", "inject", "wrap", "stringify", "duplicate"]))
        if action == "delete":
            del container[key]
        elif action == "replace":
            container[key] = draw(junk)
        elif action == "inject" and isinstance(container, dict):
            container[draw(keys)] = draw(junk)
        elif action == "wrap":
            container[key] = draw(st.sampled_from([[container[key]], {"x": container[key]}]))
        elif action == "stringify":
            container[key] = str(container[key])
        elif action == "duplicate" and isinstance(container, list):
            container.append(copy.deepcopy(container[key]))
    return data


@FUZZ
@given(mutated_example())
def test_mutated_example(data):
    outcome_ok(model_from_dict, data)


# --- plausible models built from the model's own vocabulary ---------------------------------------------------

# Mostly valid values with a few bad ones, so that many models get past the schema to the cross-field rules.
names = st.one_of(st.sampled_from(["a", "b", "c", "team-a", "team-b", "x1", "openshift-x", "Bad_Name"]),
                  st.from_regex(r"[a-z][a-z0-9-]{0,6}[a-z0-9]", fullmatch=True))
prices = st.one_of(st.floats(min_value=0, max_value=100), st.integers(0, 10),
                   st.sampled_from([0.5, 1, 2.25, 3.2, 4.9, 10, 100, -1, True, "1"]))
products = st.sampled_from(["NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-40GB",
                            "NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA A30", "NVIDIA L40S", "NVIDIA L4",
                            "AMD Instinct MI300X", "Tesla T4", "!!!", "NVIDIA-A100-SXM4-80GB"])
profiles = st.sampled_from(sorted({p for ps in mig.PROFILES.values() for p in ps} | {"9g.1gb"}))
durations = st.sampled_from(["10s", "15s", "30s", "1m", "5m", "7m", "15m", "30m", "1h", "2h", "1h30m", "1d"])


def maybe(**fields) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({}, optional=fields)


gpu_classes = st.fixed_dictionaries(
    {"name": names, "vendor": st.sampled_from(["nvidia", "nvidia", "amd"]),
     "products": st.lists(products, min_size=1, max_size=2, unique=True), "price_per_hour": prices},
    optional={"mig_model": st.sampled_from(sorted(mig.PROFILES)), "mig": st.dictionaries(profiles, prices, max_size=2),
              "time_slicing": maybe(replicas=st.integers(1, 8), price_per_hour=prices)})
tenants = st.fixed_dictionaries(
    {"name": names, "namespace": names, "budget": prices},
    optional={"alert_at": st.lists(st.sampled_from([0.5, 0.9, 1, 1.5, 0, 11]), min_size=1, max_size=3),
              "quota": st.dictionaries(st.sampled_from(quota_resources() + ["nvidia.com/gpus"]),
                                       st.integers(-1, 8), max_size=3),
              "receiver": st.sampled_from(["r", "tenant-x", "bad receiver"])})
models = st.fixed_dictionaries(
    {"gpu_classes": st.lists(gpu_classes, min_size=1, max_size=3),
     "tenants": st.lists(tenants, min_size=1, max_size=3), "clusters": st.lists(names, min_size=1, max_size=3)},
    optional={"currency": st.sampled_from(["USD", "EUR", "usd"]),
              "billing": maybe(resolution=durations, mco_interval=durations, burn_rate_window=durations),
              "sources": maybe(dcgm=maybe(tenant_label=st.sampled_from(["namespace", "exported_namespace", "ns"]))),
              "alerts": maybe(idle=maybe(window=durations, namespace_regex=st.sampled_from([".*", "a|b", "(?!a)"])),
                              burn_jump_factor=prices, dashboard_url=st.sampled_from(["http://g/", "https://g", "g"])),
              "grafana": maybe(tenant_datasource=maybe(mode=st.sampled_from(["thanos-querier", "rbac-query-proxy"])))})


@FUZZ
@given(models)
def test_random_models(data):
    outcome_ok(model_from_dict, data)


@FUZZ
@given(junk)
def test_random_junk(data):
    outcome_ok(model_from_dict, data)


# --- files -----------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz") / "gpudash.yaml"


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(scratch, content):
    scratch.write_bytes(content)
    outcome_ok(load_model, scratch)


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(EXAMPLE_TEXT)), st.integers(0, 3),
                          st.sampled_from(list(":-[]{}&*!|>'\"#%@`,? \t\n") + ["\n  ", "<<: ", "~", "yes", "\x00"])),
                max_size=4))
def test_mutated_yaml_text(scratch, edits):
    text = EXAMPLE_TEXT
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut:]
    scratch.write_text(text)
    outcome_ok(load_model, scratch)


@FUZZ
@given(models)
def test_random_models_as_yaml(scratch, data):
    scratch.write_text(yaml.safe_dump(data, default_flow_style=None))
    outcome_ok(load_model, scratch)


def test_date_where_a_string_is_expected(scratch):
    """A date where a string is expected is a clean error, not a crash (YAML reads 2024-01-01 as a date)."""
    data = copy.deepcopy(EXAMPLE)
    data["clusters"] = [datetime.date(2024, 1, 1)]
    scratch.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError, match=r"clusters\[0\]: expected a string, got date"):
        load_model(scratch)

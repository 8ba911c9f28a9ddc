"""Grafana provisioning files hold the model's strings as Grafana will read them (issue 26, defect 9).

Grafana expands environment variables in every string value of a provisioning file: grafana/grafana
``pkg/services/provisioning/values/values.go`` ``interpolateValue`` splits the value on ``$$``, expands
``$VAR``/``${VAR}`` in each part (``os.ExpandEnv``) and joins the parts with ``$``. :func:`grafana_reads` is
that, in Python, so a model string with ``$`` must come back unchanged whatever the environment holds.
"""
from __future__ import annotations

import re

import pytest

from gpudash.model import model_from_dict
from gpudash.render.grafana import provisioning

ENV = {"HOME": "/root", "x": "EXPANDED", "PATH": "/bin"}


def grafana_reads(value: str, env: dict[str, str] = ENV) -> str:
    """What Grafana makes of a provisioning string ``value`` (values.go interpolateValue; Go's os.Expand: ``$``
    then a name of letters, digits and '_', a single special character, or ``{...}``; unknown names are '')."""
    def expand(part: str) -> str:
        return re.sub(r"\$(\{([^}]*)\}|([A-Za-z0-9_]+)|([*#$@!?\-0-9]))",
                      lambda m: env.get(m.group(2) or m.group(3) or m.group(4) or "", ""), part)
    return "$".join(expand(part) for part in value.split("$$"))


def _strings(data):
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            if key != "__comment__":  # not a field Grafana reads
                yield from _strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)


@pytest.fixture()
def dollar_model(example_data):
    example_data["grafana"] = {
        "provider_folder": "GPU $HOME ${x} $$ cost",
        "provider_datasource_url": "https://thanos.example.com/$x/${HOME}",
        "tenant_datasource": {"mode": "rbac-query-proxy", "url": "https://rbac.example.com/q?$x=1"}}
    return model_from_dict(example_data)


def test_model_strings_with_a_dollar_reach_grafana_unchanged(dollar_model):
    files = provisioning.files(dollar_model, {"provider": ["p.json"],
                                              **{t.name: [f"{t.name}.json"] for t in dollar_model.tenants}})
    provider = files["grafana/provisioning/datasources/gpudash-provider.yaml"]["datasources"][0]
    assert grafana_reads(provider["url"]) == "https://thanos.example.com/$x/${HOME}"
    folder = files["grafana/provisioning/dashboards/gpudash-provider.yaml"]["providers"][0]["folder"]
    assert grafana_reads(folder) == "GPU $HOME ${x} $$ cost"
    for t in dollar_model.tenants:
        source = files[f"grafana/provisioning/datasources/gpudash-tenant-{t.name}.yaml"]["datasources"][0]
        assert grafana_reads(source["url"]) == "https://rbac.example.com/q?$x=1"
        # gpudash's own references still expand: the org id and the token
        assert grafana_reads(source["orgId"], {provisioning.org_id_env(t): "7"}) == "7"
        assert grafana_reads(source["secureJsonData"]["httpHeaderValue1"],
                             {provisioning.token_env(dollar_model, t): "tok"}) == "Bearer tok"


def test_every_string_of_the_example_reads_as_written(example_model):
    """Without a '$' in the model, only gpudash's own ${...} references expand."""
    files = provisioning.files(example_model, {"provider": ["p.json"],
                                               **{t.name: [f"{t.name}.json"] for t in example_model.tenants}})
    for data in files.values():
        for text in _strings(data):
            if "${" not in text:
                assert grafana_reads(text) == text, text


def test_a_tenant_name_cannot_hold_a_dollar(example_data):
    from gpudash.base.errors import InputError

    example_data["tenants"][0]["name"] = "team-$x"
    with pytest.raises(InputError, match=r"tenants\[0\]\.name"):
        model_from_dict(example_data)

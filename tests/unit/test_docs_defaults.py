"""The defaults README.md and docs/ state in prose for a model field are the model's: the schema's default, or,
for the fields whose default depends on the model (the spoke tier and its backfill), what the loader gives, with
the condition said. The generated field table of docs/model.md is the schema by construction (test_docs.py)."""
from __future__ import annotations

import re

import pytest

from gpudash.model import model_from_dict
from gpudash.model.durations import parse_duration
from gpudash.model.field_table import fields
from gpudash.model.load import bundled_example_path
from gpudash.model.types import ALL_TARGETS
from tests.conftest import ROOT

FIELD = r"`((?:[a-z0-9_]+(?:\[\])?\.)+[a-z0-9_]+)`"
CLAIMS = (re.compile(FIELD + r" \(default:? ([^)]+)\)"),  # `billing.resolution` (default 60 s)
          re.compile(FIELD + r": `([^`]+)` \(default([^)]*)\)"))  # `billing.spoke_tier`: `none` (default ...)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def claims() -> list[tuple[str, str, str]]:
    """(page, field path, the claim's text: the value first, then any condition) of every default stated."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for pattern in CLAIMS:
            out += [(page.name, m[1], " ".join(g.strip() for g in m.groups()[1:] if g.strip()))
                    for m in pattern.finditer(text)]
    return out


def conditional_defaults() -> dict[str, set[str]]:
    """{field: its possible defaults} of the fields whose default depends on the rest of the model, as the loader
    fills them in the bundled example (ACM target: the tier) and in the same model without the ACM target."""
    import yaml

    data = yaml.safe_load(bundled_example_path().read_text(encoding="utf-8"))
    for key in ("spoke_tier", "backfill_hours"):
        data.get("billing", {}).pop(key, None)
    with_acm = model_from_dict(data)
    data.setdefault("outputs", {})["targets"] = [t for t in ALL_TARGETS if t != "acm"]
    without = model_from_dict(data)
    assert with_acm.billing.tier and not without.billing.tier
    return {"billing.spoke_tier": {with_acm.billing.spoke_tier, without.billing.spoke_tier},
            "billing.backfill_hours": {str(with_acm.billing.backfill_hours), str(without.billing.backfill_hours)}}


def _same(claimed: str, default) -> bool:
    quoted = re.match(r'"([^"]*)"', claimed)  # "GPU Provider"
    value = quoted[1] if quoted else claimed.split()[0].strip("`")
    if claimed.split()[1:2] == ["s"]:  # "60 s"
        value = f"{value}s"
    if isinstance(default, str) and re.fullmatch(r"\d+[smhd]", default):
        return re.fullmatch(r"\d+[smhd]|\d+", value) is not None and parse_duration(value) == parse_duration(default)
    return value == (default if isinstance(default, str) else str(default).lower())


def test_the_docs_find_defaults_to_check():
    found = {path for _, path, _ in claims()}
    assert {"billing.resolution", "billing.spoke_tier", "billing.backfill_hours"} <= found, found


@pytest.mark.parametrize("page,path,claimed", claims())
def test_a_default_the_docs_state_is_the_models(page, path, claimed):
    schema = {p: node for p, node, _ in fields()}
    assert path in schema, f"{page}: `{path}` is no field of the model"
    conditional = conditional_defaults()
    if path in conditional:
        value = claimed.split()[0].strip("`")
        assert value in conditional[path], f"{page}: `{path}` defaults to one of {sorted(conditional[path])}"
        assert len(claimed.split()) > 1, f"{page}: `{path}` (default {claimed}) without its condition: it has two"
        return
    assert "default" in schema[path], f"{page}: `{path}` has no default in the schema"
    assert _same(claimed, schema[path]["default"]), f"{page}: `{path}` (default {claimed}) but the schema says " \
                                                    f"{schema[path]['default']!r}"


"""Every model the schema accepts renders, or is refused with one line (issue 26: "every valid model renders").

Models come from the JSON Schema ``python -m gpudash schema`` prints (hypothesis-jsonschema ``from_schema``),
each top-level section either generated or the bundled example's, with a few values the schema leaves open
drawn from realistic ones (see :func:`models`), so that many of them pass validation and reach every
generator, the golden emitter and the writer; arrays are kept short so that a render stays a few seconds.
Each is rendered in-process (``cli.main``): the outcome is exit 0, or exit 2 with one line (or the model's
errors under a count, one line each), never an exception.
"""
from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from gpudash import cli
from gpudash.model.load import bundled_example_path
from tests.thorough import examples

SCHEMA = json.loads(cli._schema_text())  # what `python -m gpudash schema` prints
EXAMPLE = yaml.safe_load(bundled_example_path().read_text())
MAX_ITEMS = 3  # per array: a render of a generated model stays a few seconds


def _bounded(schema):
    """``schema`` with every array at most MAX_ITEMS long (and every open object at most 3 extra keys)."""
    if isinstance(schema, dict):
        out = {k: _bounded(v) for k, v in schema.items()}
        if out.get("type") == "array":
            out["maxItems"] = min(out.get("maxItems", MAX_ITEMS), MAX_ITEMS)
        if out.get("type") == "object" and out.get("additionalProperties") not in (None, False):
            out["maxProperties"] = min(out.get("maxProperties", 3), 3)
        return out
    if isinstance(schema, list):
        return [_bounded(v) for v in schema]
    return schema


BOUNDED = _bounded(SCHEMA)


def _section(name: str):
    """A generated value of top-level property ``name``, its ``$ref``s resolved against the whole schema."""
    return from_schema({**BOUNDED["properties"][name], "$defs": BOUNDED["$defs"]})


# Values the schema leaves open but validation narrows (currency codes, push intervals): drawn from realistic
# ones half the time, so that a generated section more often passes validation and reaches the render.
CURRENCIES = ["USD", "EUR", "JPY", "CHF", "BHD"]
INTERVALS = ["15s", "30s", "1m", "2m", "3m", "4m", "5m", "10m", "15m"]
RESOLUTIONS = ["10s", "30s", "1m", "2m", "5m"]


@st.composite
def models(draw) -> dict:
    """A model: each top-level section generated (one time in five) or the example's."""
    data = {}
    for name in sorted(SCHEMA["properties"]):
        if draw(st.integers(0, 4)) == 0:
            data[name] = draw(_section(name))
        elif name in EXAMPLE:
            data[name] = copy.deepcopy(EXAMPLE[name])
    if draw(st.booleans()):
        data["currency"] = draw(st.sampled_from(CURRENCIES))
    if isinstance(data.get("billing"), dict) and draw(st.booleans()):
        data["billing"] = {**data["billing"], "mco_interval": draw(st.sampled_from(INTERVALS)),
                           "resolution": draw(st.sampled_from(RESOLUTIONS)), "burn_rate_window": "1h"}
        data["billing"].pop("retention", None)
    if data["clusters"] is not EXAMPLE["clusters"]:  # the example's sections name its clusters
        data["clusters"] = list(dict.fromkeys(EXAMPLE["clusters"] + data["clusters"]))
    if data["gpu_classes"] != EXAMPLE["gpu_classes"]:  # the example's quotas name its classes' resources
        data["tenants"] = [{k: v for k, v in t.items() if k != "quota"} for t in data["tenants"]]
    return data


def _one_line_or_the_models_errors(err: str) -> bool:
    lines = err.splitlines()
    if len(lines) == 1:
        return lines[0].startswith("gpudash: ")
    count = re.fullmatch(r"gpudash: .*: (\d+) errors:", lines[0])
    return bool(count) and int(count[1]) == len(lines) - 1 and all(line.startswith("  ") for line in lines[1:])


# No shrinking: each step renders (seconds), so a failure is reported as found, within the run's few minutes.
@settings(max_examples=examples(40, floor=10), deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(models())
def test_a_model_from_the_schema_renders_or_is_refused_in_one_line(data):
    with tempfile.TemporaryDirectory(prefix="gpudash-property-") as tmp:
        model = Path(tmp) / "gpudash.yaml"
        model.write_text(yaml.safe_dump(data, allow_unicode=True))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["render", "-c", str(model), "-o", str(Path(tmp) / "out"), "-j", "1"])
    event("rendered" if code == 0 else "refused")
    assert "Traceback" not in err.getvalue(), err.getvalue()
    assert code == 0 or (code == 2 and _one_line_or_the_models_errors(err.getvalue())), (code, err.getvalue())

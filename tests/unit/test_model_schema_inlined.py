"""The validator's schema with its local references inlined (gpudash.model.validate.inlined) finds the same errors
as the schema itself: same field, keyword, value, message and holding schema's title and properties, in the same
order, on the example model damaged at every field in many ways."""
from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import jsonschema

from gpudash.model import vendors
from gpudash.model.schema import json_schema
from gpudash.model.validate import _ecma_pattern, _validator, inlined

WRONG = (None, "not a thing!", {"x": 1})  # a wrong type or value for every field


def _leaves(data: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    for key, item in data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ():
        yield from _leaves(item, (*path, key))


def _damaged(data: dict) -> Iterator[dict]:
    """The data with one field (any depth, a whole section too) replaced by each of WRONG, or one unknown key."""
    for path in list(_leaves(data))[1:]:
        for wrong in WRONG:
            bad = copy.deepcopy(data)
            *up, last = path
            holder = bad
            for key in up:
                holder = holder[key]
            holder[last] = wrong
            yield bad
            if isinstance(holder, dict):
                extra = copy.deepcopy(data)
                target = extra
                for key in up:
                    target = target[key]
                target["nmae"] = 1
                yield extra


def _found(validator: Any, data: dict) -> list[tuple]:
    return [(tuple(e.absolute_path), e.validator, repr(e.validator_value), e.message,
             e.schema.get("title") if isinstance(e.schema, dict) else None,
             sorted(e.schema.get("properties", {})) if isinstance(e.schema, dict) else None,
             [(tuple(c.absolute_path), c.validator, c.message) for c in e.context])
            for e in validator.iter_errors(data)]


def test_the_inlined_schema_finds_the_same_errors(example_data):
    plain = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})(json_schema())
    used = _validator(tuple(vendors.VENDORS))
    tenant = used.schema["properties"]["tenants"]["items"]
    assert "$ref" not in tenant and "$ref" not in tenant["properties"]["name"]  # the references are inlined indeed
    cases = 0
    for bad in _damaged(example_data):
        assert _found(used, bad) == _found(plain, bad)
        cases += 1
    assert cases > 600


def test_a_reference_beside_a_validating_keyword_or_in_a_cycle_stays():
    defs = {"a": {"type": "string", "title": "an a"}, "loop": {"items": {"$ref": "#/$defs/loop"}}}
    assert inlined({"$ref": "#/$defs/a", "description": "d"}, defs) == {"type": "string", "title": "an a",
                                                                         "description": "d"}
    for kept in ({"$ref": "#/$defs/a", "title": "other"}, {"$ref": "#/$defs/a", "not": {}},
                 {"$ref": "#/$defs/a", "description": "d", "type": "string"}):
        assert inlined(kept, defs) == kept
    assert inlined({"$ref": "#/$defs/loop"}, defs) == {"items": {"$ref": "#/$defs/loop"}}
    assert inlined({"enum": [{"$ref": "#/$defs/a"}]}, defs) == {"enum": [{"$ref": "#/$defs/a"}]}

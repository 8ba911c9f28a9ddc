"""The two fast paths of model validation, held to jsonschema on the example model damaged at every field in many
ways: the validator's schema with its local references inlined (gpudash.model.validate.inlined) finds the same
errors as the schema itself (same field, keyword, value, message, holding schema's title and properties, order),
and gpudash.model.schema_fit.fits, which spares a valid model jsonschema, says "fits" only where jsonschema finds
no error and "does not fit" only where it finds one."""
from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from gpudash.model import vendors
from gpudash.model.schema import json_schema
from gpudash.model.schema_fit import Unknown, fits
from gpudash.model.validate import _ecma_pattern, _schema, _validator, inlined

WRONG = (None, "not a thing!", {"x": 1})  # a wrong type or value for every field
# what fits is asked beyond WRONG: each JSON type, integral floats, NaN, edge strings, duplicates of each kind
ODD = (True, False, 0, 1, 1.0, 2.5, -1, 10**20, float("nan"), float("inf"), "", "a\n", "A", "x" * 300, [], {}, ["a"],
       ["a", "a"], [1, 1.0], [1, True], [0.5, 0.5], [{"a": 1}, {"a": 1}], {"name": 1})


def _leaves(data: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    for key, item in data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ():
        yield from _leaves(item, (*path, key))


def _damaged(data: dict, wrongs: tuple = WRONG, start: int = 0, step: int = 1) -> Iterator[dict]:
    """The data with one field (any depth, a whole section too; every ``step``-th from ``start``) replaced by each of
    ``wrongs``, or one unknown key."""
    for path in list(_leaves(data))[1 + start::step]:
        for wrong in wrongs:
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


def test_fits_agrees_with_jsonschema_wherever_it_decides(example_data):
    plain = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})(json_schema())
    schema = _schema(tuple(vendors.VENDORS))
    assert fits(schema, example_data, schema["$defs"])
    decided = unknown = 0
    for bad in (*_damaged(example_data), *_damaged(example_data, ODD, 1, 4)):
        valid = not any(True for _ in plain.iter_errors(bad))
        try:
            assert fits(schema, bad, schema["$defs"]) == valid, bad
            decided += 1
        except Unknown:
            unknown += 1
    assert decided > 20 * unknown


SMALL = [  # (schema, instances): each keyword fits decides, on values around its edges
    ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, [1, 1.5, "x", True]),
    ({"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}, [{}, {"a": 1}, {"a": 1, "b": 2}, []]),
    ({"not": {"pattern": "^x$"}}, ["x", "x\n", "y", 1]),
    ({"type": ["string", "null"], "enum": ["a", "b"]}, ["a", "c", None, 1]),
    ({"const": "a"}, ["a", "b", 1]),
    ({"uniqueItems": True}, [["a", "a"], ["a", "b"], [1, 1.0], [0.5, 1], [], "x"]),
    ({"minimum": 0, "exclusiveMinimum": -1, "maximum": 10}, [0, -0.5, 10, 10.5, float("nan"), True, "5"]),
    ({"minItems": 1, "maxItems": 2, "items": {"type": "integer"}}, [[], [1], [1, 2, 3], [1.0], [True], {}]),
    ({"minLength": 1, "maxLength": 2}, ["", "ab", "abc", 5]),
    ({"minProperties": 1, "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"type": "string"},
      "properties": {"n": {"type": "number"}}}, [{}, {"n": 1}, {"n": "1"}, {"ab": "x"}, {"ab": 1}, {"A": "x"}]),
    ({"type": "object", "additionalProperties": False, "properties": {"a": True, "b": False}}, [{"a": 1}, {"b": 1},
                                                                                                 {"c": 1}, []]),
]


def test_fits_decides_each_keyword_as_jsonschema():
    cls = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})
    for schema, instances in SMALL:
        for instance in instances:
            assert fits(schema, instance, {}) == cls(schema).is_valid(instance), (schema, instance)


def test_what_fits_does_not_decide_goes_to_jsonschema():
    for schema, instance in [({"enum": [1, "a"]}, 1), ({"uniqueItems": True}, [1, True]), ({"format": "email"}, "x"),
                             ({"uniqueItems": True}, [float("nan")]), ({"$ref": "#/$defs/none"}, 1),
                             ({"type": "integer", "multipleOf": 2}, 4), ({"prefixItems": [], "items": {}}, [])]:
        with pytest.raises(Unknown):
            fits(schema, instance, {})

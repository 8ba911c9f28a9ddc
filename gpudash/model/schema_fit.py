"""Whether data fits the model's JSON Schema, decided without jsonschema for the keywords the schema uses: a valid
model (every render's) skips jsonschema's import and validation (0.04 + 0.08 s at 1,000 tenants, before the golden
workers fork); data that does not fit, or a keyword this module does not know, goes to jsonschema, which words the
errors (:func:`gpudash.model.validate.validate`).

Each keyword is decided as jsonschema 4.26 decides it for Draft 2020-12 (python-jsonschema/jsonschema
``jsonschema/_keywords.py`` and ``_types.py``, the ``type`` checks of ``draft202012_type_checker``), ``pattern`` in
its ECMA-262 form (:func:`ecma_regex`, gpudash's ``pattern`` keyword); ``enum`` and ``const`` only over strings, and
``uniqueItems`` only over strings or over numbers without NaN (where jsonschema's ``_utils.uniq`` and ``equal`` are
Python's ``==``), else jsonschema decides. tests/unit/test_model_schema_fit.py holds :func:`fits` to jsonschema on
damaged models.
"""
from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping
from typing import Any

_ANNOTATIONS = frozenset({"$schema", "$defs", "$comment", "title", "description", "default", "examples"})
_LOCAL_REF = "#/$defs/"


class Unknown(Exception):
    """A keyword or value this module does not decide: jsonschema does."""


def ecma_regex(pattern: str) -> str:
    """A JSON Schema ``pattern`` (ECMA-262) as Python's ``re`` reads it: ``$`` never matches before a trailing newline
    (Python's does)."""
    return pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, bool)


TYPES: dict[str, Callable[[Any], bool]] = {  # draft202012_type_checker
    "array": lambda x: isinstance(x, list), "boolean": lambda x: isinstance(x, bool),
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer()),
    "null": lambda x: x is None, "number": _is_number, "object": lambda x: isinstance(x, dict),
    "string": lambda x: isinstance(x, str),
}


def _strings(values: Any) -> frozenset[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise Unknown
    return frozenset(values)


def _unique(items: list[Any]) -> bool:
    if not all(isinstance(x, str) for x in items) and not all(_is_number(x) and x == x for x in items):
        raise Unknown
    return len(set(items)) == len(items)


def fits(schema: Any, data: Any, defs: Mapping[str, Any]) -> bool:
    """Whether ``data`` has no error under ``schema`` (``defs``: its ``$defs``); raises :class:`Unknown` where
    jsonschema must decide."""
    if schema is True or schema is False:
        return schema
    if not isinstance(schema, dict):
        raise Unknown
    for key, value in schema.items():
        if key not in _ANNOTATIONS and not _keyword(key, value, schema, data, defs):
            return False
    return True


def _keyword(key: str, value: Any, schema: dict[str, Any], data: Any, defs: Mapping[str, Any]) -> bool:
    """Whether ``data`` passes the keyword ``key`` of ``schema`` (jsonschema/_keywords.py, keyword by keyword)."""
    if key == "$ref":
        if not isinstance(value, str) or not value.startswith(_LOCAL_REF) or value[len(_LOCAL_REF):] not in defs:
            raise Unknown
        return fits(defs[value[len(_LOCAL_REF):]], data, defs)
    if key == "type":
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not all(n in TYPES for n in names):
            raise Unknown
        return any(TYPES[n](data) for n in names)
    if key in ("enum", "const"):
        allowed = _strings(value if key == "enum" else [value])
        return isinstance(data, str) and data in allowed
    if key == "pattern":
        return not isinstance(data, str) or re.search(ecma_regex(value), data) is not None
    if key in _SIZES:
        kind, within = _SIZES[key]
        return not TYPES[kind](data) or within(len(data), value)
    if key in _BOUNDS:
        return not _is_number(data) or _BOUNDS[key](data, value)
    if key == "uniqueItems":
        return not value or not isinstance(data, list) or _unique(data)
    if key == "not":
        return not fits(value, data, defs)
    if key in ("anyOf", "oneOf"):
        passed = sum(fits(sub, data, defs) for sub in value)
        return passed >= 1 if key == "anyOf" else passed == 1
    if not isinstance(data, dict):
        if key in _OBJECT_KEYWORDS:
            return True
    elif key in _OBJECT_KEYWORDS:
        return _OBJECT_KEYWORDS[key](value, schema, data, defs)
    if key == "items":
        if "prefixItems" in schema:
            raise Unknown
        return not isinstance(data, list) or all(fits(value, item, defs) for item in data)
    raise Unknown


def _additional(value: Any, schema: dict[str, Any], data: dict[str, Any], defs: Mapping[str, Any]) -> bool:
    if "patternProperties" in schema:
        raise Unknown
    known = schema.get("properties", {})
    extras = [k for k in data if k not in known]
    if isinstance(value, dict):
        return all(fits(value, data[k], defs) for k in extras)
    return bool(value) or not extras


_SIZES: dict[str, tuple[str, Callable[[int, Any], bool]]] = {
    "minLength": ("string", lambda n, v: n >= v), "maxLength": ("string", lambda n, v: n <= v),
    "minItems": ("array", lambda n, v: n >= v), "maxItems": ("array", lambda n, v: n <= v),
    "minProperties": ("object", lambda n, v: n >= v), "maxProperties": ("object", lambda n, v: n <= v)}
_BOUNDS: dict[str, Callable[[Any, Any], bool]] = {  # jsonschema errs on `<`, `<=`, `>`, `>=`: NaN passes
    "minimum": lambda x, v: not x < v, "maximum": lambda x, v: not x > v,
    "exclusiveMinimum": lambda x, v: not x <= v, "exclusiveMaximum": lambda x, v: not x >= v}
_OBJECT_KEYWORDS: dict[str, Callable[[Any, dict[str, Any], dict[str, Any], Mapping[str, Any]], bool]] = {
    "properties": lambda value, _, data, defs: all(fits(sub, data[k], defs) for k, sub in value.items() if k in data),
    "required": lambda value, _, data, defs: all(k in data for k in value),
    "propertyNames": lambda value, _, data, defs: all(fits(value, k, defs) for k in data),
    "additionalProperties": _additional,
}

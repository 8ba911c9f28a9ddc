"""Check a parsed model against the JSON Schema and what no schema can describe, and fill its defaults.

Each schema error becomes one readable reason per field (:func:`validate`); :func:`check_plain` and
:func:`check_numbers` reject what the schema cannot (non-string keys, cycles, URLs with credentials, NaN, huge
integers); :func:`fill_defaults` sets every omitted field that has a schema ``default``.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any, cast

import jsonschema
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator

from gpudash.model import vendors
from gpudash.model.context import (
    MAX_VALUES,
    USERINFO,
    USERINFO_REASON,
    Ctx,
    FieldPath,
    describe,
    did_you_mean,
    hide_userinfo,
    short,
)
from gpudash.model.durations import format_duration
from gpudash.model.schema import json_schema
from gpudash.model.schema_types import DURATION_PATTERN, LOCAL_REF

_SURROGATE = re.compile(r"[\ud800-\udfff]")
_TYPE_WORDS = {"string": "a string", "number": "a number", "integer": "an integer", "object": "a mapping",
               "array": "a list", "boolean": "true or false", "null": "null"}


def _ecma_pattern(validator: Validator, pattern: str, instance: Any, schema: Mapping[str, Any]
                  ) -> Iterator[ValidationError]:
    """``pattern`` with ECMA-262 semantics: ``$`` never matches before a trailing newline (Python's does)."""
    regex = pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern
    if validator.is_type(instance, "string") and not re.search(regex, instance):
        yield ValidationError(f"{hide_userinfo(instance)!r} does not match {pattern!r}")


@lru_cache(maxsize=2)
def _validator(registered: tuple[str, ...]) -> Validator:
    """The schema's validator while the vendors ``registered`` are (the schema's vendor enum and sources sections
    are theirs: gpudash.model.vendors.register)."""
    cls = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})
    schema = json_schema()
    validator: Validator = cls(inlined(schema, schema["$defs"]))
    return validator


_ANNOTATIONS = {"default", "description"}  # keywords beside a $ref that neither validate nor word an error (_explain)
_VALUES = {"default", "enum", "const", "examples"}  # keywords holding data, not schemas


def inlined(schema: Any, defs: Mapping[str, Any], through: tuple[str, ...] = ()) -> Any:
    """``schema`` with each ``{"$ref": "#/$defs/x"}`` (beside it at most :data:`_ANNOTATIONS` that x does not have)
    replaced by x's keywords at the reference's place: the validator then yields the same errors in the same order,
    each with the same instance, keyword, value and holding schema's title and properties, without a registry lookup
    per instance (jsonschema ``_keywords.ref``: about half of a 1,000-tenant model's validation). A reference to a
    definition being inlined (a cycle) stays a reference."""
    if isinstance(schema, list):
        return [inlined(x, defs, through) for x in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    name = ref[len(LOCAL_REF):] if isinstance(ref, str) and ref.startswith(LOCAL_REF) else ""
    target = defs.get(name) if name and name not in through else None
    beside = set(schema) - {"$ref"}
    if isinstance(target, dict) and beside <= _ANNOTATIONS and not beside & set(target):
        out: dict[str, Any] = {}
        for key, value in schema.items():
            out.update(inlined(target, defs, (*through, name)) if key == "$ref" else {key: value})
        return out
    return {k: v if k in _VALUES else inlined(v, defs, through) for k, v in schema.items()}


def validate(data: Any, ctx: Ctx) -> None:
    """Every schema error of the file: one per object or value (the most relevant of those found there, e.g. a
    misspelt key rather than the required key it was meant to be)."""
    def relevance(err: ValidationError) -> tuple[int, int]:  # the shallowest error, then the first in the file
        return -len(err.path), -(ctx.line(tuple(err.path)) or 10**9)

    where: dict[FieldPath, list[ValidationError]] = {}
    for err in _validator(tuple(vendors.VENDORS)).iter_errors(data):
        where.setdefault(tuple(err.absolute_path), []).append(err)
    for errors in where.values():
        path, reason = _explain(best_match(errors, key=relevance))
        ctx.errors.setdefault(path, ctx.error(path, reason))
    ctx.raise_errors()


def _explain(err: ValidationError) -> tuple[FieldPath, str]:
    """The field path and a readable reason of a schema error."""
    # The validator sets the instance and the keyword's value on every error it yields (only an error made by hand
    # and never validated has them unset); a keyword's error has the schema holding the keyword.
    inst, value = cast(Any, err.instance), cast(Any, err.validator_value)
    path, kw = tuple(err.absolute_path), str(err.validator)
    schema = err.schema if isinstance(err.schema, dict) else {}
    title = schema.get("title")
    if kw == "required":
        return path + (next(k for k in value if k not in inst),), "required key is missing"
    if kw == "additionalProperties":
        known = schema.get("properties", {})
        extra = next(k for k in inst if k not in known)
        return path + (extra,), "unknown key" + did_you_mean(extra, known)
    if "propertyNames" in err.absolute_schema_path:
        return path + (inst,), f"{short(inst)} is not {title}" + did_you_mean(inst, value if kw == "enum" else ())
    if kw == "type":
        return path, _type_reason(schema, value, inst)
    if kw == "uniqueItems":
        dup = next((j for j, x in enumerate(inst) if x in inst[:j]), None)
        return (path + (dup,), f"duplicate item {short(inst[dup])}") if dup else (path, "items must be unique")
    if kw == "not":
        return path, f"{short(inst)} is {value.get('title', 'not allowed here')}"
    return path, _value_reason(kw, value, inst, title) or " ".join(err.message.split())


def _type_reason(schema: dict[str, Any], expected: str | list[str], inst: Any) -> str:
    words = " or ".join(_TYPE_WORDS.get(t, t) for t in ([expected] if isinstance(expected, str) else expected))
    reason = f"expected {words}, got {describe(inst)}"
    if schema.get("pattern") == DURATION_PATTERN and isinstance(inst, int) and not isinstance(inst, bool):
        hint = f"{inst}s" + (f" or {format_duration(inst)}" if 0 < inst and inst % 60 == 0 else "")
        return reason + f" (durations need a unit: write {hint})"
    if isinstance(inst, bool) and expected in ("number", "integer"):
        return reason + " (YAML reads yes/no/on/off/true/false as booleans)"
    if expected == "string" and (inst is None or isinstance(inst, (bool, int, float))):
        return reason + " (quote it)"
    if expected in ("number", "integer") and isinstance(inst, str) and _out_of_range(inst):
        return f"{inst} is out of range (larger than any finite number)"
    return reason


def _out_of_range(text: str) -> bool:
    """A number YAML left as a string because it overflows a float, such as ``1e400``."""
    try:
        return abs(float(text)) == float("inf") and text.strip().lower().lstrip("+-") not in ("inf", "infinity")
    except ValueError:
        return False


def _value_reason(kw: str, value: Any, inst: Any, title: str | None) -> str | None:
    if kw == "enum":
        allowed = f"one of {', '.join(map(str, value))}" if len(value) <= 8 else "a known value"
        return f"{short(inst)} is not {title or allowed}" + did_you_mean(inst, value)
    comparisons = {"minimum": ">=", "exclusiveMinimum": ">", "maximum": "<=", "exclusiveMaximum": "<"}
    if kw in comparisons:
        return f"must be {comparisons[kw]} {value}, got {short(inst)}"
    if kw == "minItems":
        return f"needs at least {value} item{'s' if value > 1 else ''}"
    if kw == "maxLength":
        return f"{short(inst)} is longer than {value} characters"
    if kw == "minLength" and value == 1:
        return "must not be empty"
    if title and kw in ("pattern", "minLength"):
        return f"{short(inst)} is not {title}"
    return None


# --- checks on plain data --------------------------------------------------------------------------------------

def check_plain(data: Any, ctx: Ctx) -> None:
    """Reject what no schema can describe: non-string keys, reference cycles, oversized trees, lone surrogates,
    and a URL with a user name or password anywhere (the schema's own error would show the value)."""
    active: set[int] = set()
    visits = 0

    def walk(value: Any, path: FieldPath) -> None:
        nonlocal visits
        visits += 1
        ctx.require(visits <= MAX_VALUES, path, f"more than {MAX_VALUES} values")
        if isinstance(value, str):
            ctx.check(not USERINFO.match(value.strip()), path, USERINFO_REASON)
            ctx.check(not _SURROGATE.search(value), path, "holds a lone surrogate (U+D800..U+DFFF), which no "
                      "text can carry (UTF-8, XML 1.0)")
        if not isinstance(value, (dict, list)):
            return
        ctx.require(id(value) not in active, path, "a value contains itself")
        active.add(id(value))
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            ctx.require(isinstance(value, list) or isinstance(key, str), path,
                        f"key {short(key)} is not a string; quote it")
            walk(item, path + (key,))
        active.discard(id(value))

    walk(data, ())


def check_numbers(value: Any, path: FieldPath, ctx: Ctx) -> None:
    """Reject NaN, infinities and integers too large to be exact floats anywhere in the (valid) data."""
    if isinstance(value, (dict, list)):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            check_numbers(item, path + (key,), ctx)
    elif isinstance(value, float):
        ctx.check(value == value and abs(value) != float("inf"), path, f"{value} is not a finite number")
    elif isinstance(value, int) and not isinstance(value, bool):
        ctx.check(abs(value) <= 2**53, path, f"{short(value)} is too large")


def tree_copy(value: Any) -> Any:
    """A deep copy that does not preserve sharing (YAML aliases), so filling defaults stays local."""
    if isinstance(value, dict):
        return {k: tree_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [tree_copy(v) for v in value]
    return value


def fill_defaults(data: Any, schema: dict[str, Any], root: dict[str, Any], path: FieldPath, ctx: Ctx) -> None:
    """Set every omitted property that has a schema ``default``, recursively."""
    while "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[-1]]
    if isinstance(data, dict):
        for key, sub in schema.get("properties", {}).items():
            if key not in data and "default" in sub:
                data[key] = tree_copy(sub["default"])
                ctx.defaulted.add(path + (key,))
            if key in data:
                fill_defaults(data[key], sub, root, path + (key,), ctx)
    elif isinstance(data, list) and "items" in schema:
        for index, item in enumerate(data):
            fill_defaults(item, schema["items"], root, path + (index,), ctx)

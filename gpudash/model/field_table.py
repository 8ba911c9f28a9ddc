"""The field table of docs/model.md, generated from the JSON Schema (gpudash/model/schema.py), so the page and
the editor's hover text say the same (a test keeps the doc in sync)."""
from __future__ import annotations

import json

from gpudash.base import doctable
from gpudash.model.schema import json_schema
from gpudash.model.schema_types import Schema

SOURCE = "gpudash.model.field_table from gpudash/model/schema.py"
TAG = "model-fields"


def _resolved(node: Schema, defs: Schema) -> Schema:
    """``node`` with its ``$ref`` merged in (the node's own keys win)."""
    if "$ref" not in node:
        return node
    return {**_resolved(defs[node["$ref"].rsplit("/", 1)[1]], defs), **{k: v for k, v in node.items() if k != "$ref"}}


def fields(schema: Schema | None = None) -> list[tuple[str, Schema, bool]]:
    """(field path, resolved schema, required) of every field, depth first in schema order; ``[]`` marks the
    items of a list of objects."""
    schema = schema or json_schema()
    defs, out = schema.get("$defs", {}), []

    def walk(node: Schema, path: str, required: bool) -> None:
        node = _resolved(node, defs)
        if path:
            out.append((path, node, required))
        items = _resolved(node.get("items", {}), defs) if node.get("type") == "array" else {}
        if "properties" in items:
            node, path = items, f"{path}[]"
        for name, child in node.get("properties", {}).items():
            walk(child, f"{path}.{name}" if path else name, name in node.get("required", ()))

    walk(schema, "", False)
    return out


def _default(node: Schema, required: bool) -> str:
    if required:
        return "required"
    if "default" not in node or node["default"] == {}:
        return "—"
    if node["default"] is None:
        return "absent"
    value = node["default"]
    return f"`{value}`" if isinstance(value, str) and value else f"`{json.dumps(value)}`"


def _meaning(node: Schema) -> str:
    text = node.get("description") or node.get("title", "")
    enum = node.get("enum")
    if enum and len(enum) > 1:
        text = f"{text.rstrip('.')} (one of {', '.join(f'`{v}`' for v in enum)})."
    return doctable.cell(text)


def table() -> str:
    rows = [(f"`{path}`", _default(node, required), _meaning(node)) for path, node, required in fields()]
    return doctable.block(TAG, SOURCE, ("field", "default", "meaning"), rows)

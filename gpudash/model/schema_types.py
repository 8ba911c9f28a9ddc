"""The value types of gpudash.yaml's JSON Schema (its ``$defs``: durations, amounts, DNS names, Kubernetes labels,
URLs, ...) and the two builders every section of the schema is written with."""
from __future__ import annotations

from typing import Any

Schema = dict[str, Any]  # a JSON Schema or a part of one
DURATION_PATTERN = "^([0-9]+d)?([0-9]+h)?([0-9]+m)?([0-9]+s)?$"
# A character of one line of text: no C0 or C1 control or DEL (that moves a terminal, a CSV, a table), nor what
# XML 1.0 cannot carry (its Char production, w3.org/TR/xml/#charsets: no C0 but tab, CR, LF; no U+FFFE, U+FFFF),
# so every model string can go into the HTML, the CSV, the JSON and the e-invoice's XML. Lone surrogates, no
# character of any text, are refused in every string by gpudash.model.validate.check_plain.
TEXT_CHAR = "[^\\x00-\\x1f\\x7f-\\x9f\\ufffe\\uffff]"
_NO_CONTROL = f"^{TEXT_CHAR}+$"
MAX_AMOUNT = 10**12  # the largest price or budget a model may hold (see "amount")


LOCAL_REF = "#/$defs/"  # how the schema names one of its own definitions (gpudash.model.validate inlines them)


def ref(name: str, description: str, **extra: Any) -> Schema:
    return {"$ref": f"{LOCAL_REF}{name}", "description": description, **extra}


def closed_object(properties: dict[str, Schema], description: str, required: tuple[str, ...] = (),
                  **extra: Any) -> Schema:
    schema = {"type": "object", "description": description, "additionalProperties": False, "properties": properties}
    return {**schema, "required": list(required), **extra} if required else {**schema, **extra}


def value_types() -> Schema:
    """The value types (``$defs``) that the fields of every section refer to."""
    return {
        "duration": {
            "title": "a duration such as 30s, 5m, 1h or 1h30m (whole seconds; units d, h, m, s)",
            "type": "string", "pattern": DURATION_PATTERN, "minLength": 2,
        },
        # at most 10^12: no price or budget of any currency is larger, and larger ones overflow the billing
        # arithmetic (1.7e308 per hour is infinity once multiplied by hours)
        "amount": {"title": "a finite number from 0 to 10^12", "type": "number", "minimum": 0,
                   "maximum": MAX_AMOUNT},
        "dns_label": {
            "title": "a DNS-1123 label (lowercase letters, digits and '-', starting and ending with a letter or "
                     "digit, at most 63 characters)",
            "type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "maxLength": 63,
        },
        "dns_subdomain": {
            "title": "a DNS-1123 subdomain (dot-separated DNS-1123 labels, at most 253 characters)",
            "type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
            "maxLength": 253,
        },
        "k8s_labels": {"title": "Kubernetes labels (a mapping of label keys to values)", "type": "object",
                       "minProperties": 1, "propertyNames": {"$ref": "#/$defs/k8s_label_key"},
                       "additionalProperties": {"$ref": "#/$defs/k8s_label_value"}},
        "k8s_label_key": {
            "title": "a Kubernetes label key (an optional DNS subdomain and '/', then at most 63 letters, digits, "
                     "'-', '_' and '.', starting and ending with a letter or digit)",
            "type": "string",
            "pattern": "^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$",
        },
        "k8s_label_value": {
            "title": "a Kubernetes label value (at most 63 letters, digits, '-', '_' and '.', starting and ending "
                     "with a letter or digit)",
            "type": "string", "pattern": "^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$",
        },
        "label_name": {
            "title": "a Prometheus label name (letters, digits and '_', not starting with a digit)",
            "type": "string", "pattern": "^[a-zA-Z_][a-zA-Z0-9_]*$",
        },
        "name": {"title": "a non-empty name without control characters", "type": "string",
                     "minLength": 1, "pattern": _NO_CONTROL},
        "url": {"title": "an http:// or https:// URL", "type": "string", "pattern": "^https?://[^\\s/?#]+\\S*$"},
        "receiver": {"title": "an Alertmanager receiver name (letters, digits, '_', '.' and '-')",
                     "type": "string", "pattern": "^[A-Za-z0-9_.-]+$",
                     # gpudash/render/alerts/routing.py keeps MCO's default root, whose receiver is "null"
                     "not": {"title": "MCO's default receiver, which takes every alert that is not gpudash's",
                             "const": "null"}},
        "regex": {"title": "a regular expression", "type": "string"},
        "product": {
            "title": "a GPU product name (printable ASCII without quotes or backslashes, at most 128 characters)",
            "type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[ !#-&(-\\[\\]-~]+$",
        },
    }

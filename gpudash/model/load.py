"""Load gpudash.yaml into the typed :class:`~gpudash.model.types.Model`.

Steps: read and parse the YAML (safe semantics, duplicate keys rejected, a line recorded per field path),
validate against :func:`~gpudash.model.schema.json_schema`, fill defaults from it, check the rules that span
fields, then build the sorted, immutable model. Every bad input raises
:class:`~gpudash.base.errors.InputError` naming the file, the line where known, the field path and the reason.
"""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import iso4217
import jsonschema
import yaml
from jsonschema.exceptions import ValidationError, best_match
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from gpudash.base.errors import GpudashError, InputError, raise_all
from gpudash.model import mig
from gpudash.model.pricing import ksm_resource, product_label
from gpudash.model.schema import DURATION_PATTERN, HTTP_SECRETS, INLINE_SECRETS, THANOS_QUERIER_URL, json_schema
from gpudash.model.sources import kube_state_metrics as ksm
from gpudash.model.types import (
    ALL_TARGETS,
    DAY,
    DEFAULT_BACKFILL_HOURS,
    HOUR,
    MIN_RETENTION,
    SPOKE_TIERS,
    Alerts,
    ArgoCD,
    Billing,
    BillingIdentity,
    Energy,
    Exporter,
    GpuClass,
    Grafana,
    IdleAlerts,
    Issuer,
    Mco,
    MigProfile,
    Model,
    Outputs,
    Prune,
    Retention,
    SelfManaged,
    Sources,
    Tax,
    Tenant,
    TenantDatasource,
)

BUNDLED_SOURCE = "<bundled example>"
DEFAULT_MODEL = "gpudash.yaml"  # looked for in the current folder; ``gpudash init`` writes it
MAX_VALUES = 100_000  # YAML aliases can expand a small file into a huge tree: refuse beyond this many values
FieldPath = tuple[str | int, ...]

_UNITS = {"d": DAY, "h": HOUR, "m": 60, "s": 1}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RE2_UNSUPPORTED = re.compile(r"\\[1-9]|\(\?(?:=|!|<=|<!|P=|>|\()|[*+?}]\+")
_RE_ESCAPES_AND_CLASSES = re.compile(r"\\[^1-9]|\[(?:\\.|[^\]\\])*\]")
_MERGE_TAG, _STR_TAG = "tag:yaml.org,2002:merge", "tag:yaml.org,2002:str"
_TYPE_WORDS = {"string": "a string", "number": "a number", "integer": "an integer", "object": "a mapping",
               "array": "a list", "boolean": "true or false", "null": "null"}


# --- public API ----------------------------------------------------------------------------------------------

def bundled_example_path() -> Traversable:
    """The bundled example model (a :class:`pathlib.Path` for a regular install)."""
    return resources.files("gpudash").joinpath("examples", "gpudash.yaml")


def resolve_model_path(arg: str | os.PathLike | None, example: bool = False) -> Path | Traversable:
    """The model to load: the bundled example if asked for, else ``arg``, else ``./gpudash.yaml``.

    Never falls back to the example silently: a render or report from someone else's model is worse than none.
    """
    if example:
        return bundled_example_path()
    if arg:
        return Path(arg)
    if not Path(DEFAULT_MODEL).exists():
        raise GpudashError(f"no {DEFAULT_MODEL} here: pass -c FILE, or run `gpudash init` to start from the example")
    return Path(DEFAULT_MODEL)


def load_model(path: str | os.PathLike | Traversable) -> Model:
    """Load and validate the model in ``path`` (a path or an importlib.resources Traversable)."""
    file = BUNDLED_SOURCE if path == bundled_example_path() else str(path)
    data, lines = _parse_yaml(_read_text(path, file), file)
    return _build(data, _Ctx(file, lines))


def load_bundled_example() -> Model:
    """The bundled example model (``--example``)."""
    return load_model(bundled_example_path())


def model_from_dict(data: Any, file: str = "<dict>") -> Model:
    """Validate already-parsed data (no line numbers) and build the model; ``data`` is not modified."""
    return _build(data, _Ctx(file, {}))


def parse_duration(text: str) -> int:
    """Seconds of a schema-valid duration such as ``1h30m``."""
    return sum(int(n) * _UNITS[u] for n, u in re.findall(r"([0-9]+)([dhms])", text))


def format_duration(seconds: int) -> str:
    """The shortest duration string of ``seconds``, e.g. ``5400`` -> ``1h30m``."""
    parts = []
    for unit, size in _UNITS.items():
        count, seconds = divmod(seconds, size)
        parts += [f"{count}{unit}"] if count else []
    return "".join(parts) or "0s"


# --- errors --------------------------------------------------------------------------------------------------

def format_path(path: FieldPath) -> str:
    """``("tenants", 2, "namespace")`` -> ``tenants[2].namespace``; odd keys as ``quota['nvidia.com/gpu']``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENT.fullmatch(part):
            text += f".{part}" if text else part
        else:
            text += f"[{part!r}]"
    return text


@dataclass
class _Ctx:
    """Where the data came from: file name, line per field path, and the paths filled from defaults."""

    file: str
    lines: dict[FieldPath, int]
    defaulted: set[FieldPath] = field(default_factory=set)
    errors: dict[FieldPath, InputError] = field(default_factory=dict)  # the first error per field, in check order

    def line(self, path: FieldPath) -> int | None:
        return next((self.lines[path[:n]] for n in range(len(path), 0, -1) if path[:n] in self.lines), None)

    def error(self, path: FieldPath, reason: str) -> InputError:
        if path in self.defaulted:
            reason += " (the default value; set it explicitly)"
        return InputError(self.file, format_path(path), reason, self.line(path))

    def check(self, ok: Any, path: FieldPath, reason: str) -> None:
        """Record an error when not ``ok`` and go on, so that one run reports every error of the file."""
        if not ok:
            self.errors.setdefault(path, self.error(path, reason))

    def require(self, ok: Any, path: FieldPath, reason: str) -> None:
        """Like :meth:`check`, for what nothing after it can work without: stop here with every error so far."""
        if not ok:
            self.raise_errors(self.error(path, reason))

    def raise_errors(self, also: InputError | None = None) -> None:
        errors = [*self.errors.values(), *([also] if also else [])]
        raise_all(sorted(errors, key=lambda e: e.line or 0))


def _short(value: Any) -> str:
    text = repr(_hide_userinfo(value) if isinstance(value, str) else value)
    return text if len(text) <= 60 else text[:57] + "..."


# A URL's user information: ``scheme://user:password@`` before the host, or, in a URL that does not parse (a
# password holding '/', '?', '#' or a space), ``scheme://user:...@`` whose ':' is no port (digits then '/').
_USERINFO = re.compile(r"^[^:/?#\s]+://(?:[^/?#@\s]*@|[^/?#@:\s]*:(?!\d*(?:[/?#]|$))[^@]*@)")
USERINFO_REASON = ("a user name or password in a URL: a secret inlined in the model (it would be copied into "
                   "rendered files); remove it and give the credential as a secret: a file mounted into "
                   "Alertmanager (receivers' *_file, http_config.basic_auth.password_file), prune.token_secret, or "
                   "grafana.tenant_datasource.token_env")


def _hide_userinfo(value: str) -> str:
    """``value`` as an error may show it: a URL's user information, parsable or not, written ``***@``."""
    found = _USERINFO.match(value.strip())
    if not found:
        return value
    head = value.strip()
    return head[:head.index("://") + 3] + "***@" + head[found.end():]


def _describe(value: Any) -> str:
    if value is None:
        return "null (an empty value)"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, str):
        return f"string {_short(value)}"
    if isinstance(value, (int, float)):
        return f"number {_short(value)}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {_short(value)}"


def did_you_mean(word: Any, choices) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``choices``, or ''."""
    lowered = {str(c).lower(): str(c) for c in choices}
    close = difflib.get_close_matches(str(word).lower(), lowered, n=1, cutoff=0.6)
    return f" (did you mean {lowered[close[0]]!r}?)" if close else ""


# --- reading and parsing ---------------------------------------------------------------------------------------

def _read_text(path: str | os.PathLike | Traversable, file: str) -> str:
    try:
        raw = (Path(path) if isinstance(path, (str, os.PathLike)) else path).read_bytes()
    except FileNotFoundError:
        raise InputError(file, "", "no such file") from None
    except IsADirectoryError:
        raise InputError(file, "", "is a directory, not a model file") from None
    except (OSError, ValueError) as err:
        raise InputError(file, "", f"cannot read the file: {getattr(err, 'strerror', None) or err}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise InputError(file, "", f"not UTF-8 text (byte 0x{raw[err.start]:02x} at offset {err.start})",
                         line) from None


class _PositionedValues:
    """A loader whose value errors (e.g. the date 2024-13-45) become positioned YAML errors."""

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, TypeError, OverflowError) as err:
            value = node.value if isinstance(node, ScalarNode) else node.tag
            raise yaml.constructor.ConstructorError(None, None, f"invalid value {_short(value)}: {err}",
                                                    node.start_mark) from err


class _Loader(_PositionedValues, yaml.SafeLoader):
    """PyYAML's own parser: its error messages are the ones gpudash reports."""


# libyaml's parser (5x faster on a model of thousands of tenants) where PyYAML has it: the same resolver and
# constructors, nodes with the same lines; a text it refuses is parsed again by _Loader for the message.
_FAST = type("_FastLoader", (_PositionedValues, yaml.CSafeLoader), {}) if hasattr(yaml, "CSafeLoader") else None


def _parse_yaml(text: str, file: str) -> tuple[Any, dict[FieldPath, int]]:
    """The data of a one-document YAML text and the line of every field path in it."""
    if _FAST is not None:
        try:
            return _parsed(_FAST(text), file)
        except (yaml.YAMLError, RecursionError):
            pass  # parsed again below, for PyYAML's message
    try:
        return _parsed(_Loader(text), file)
    except yaml.YAMLError as err:
        raise InputError(file, "", *_yaml_problem(err, text)) from None
    except RecursionError:
        raise InputError(file, "", "invalid YAML: nested too deeply") from None


def _parsed(loader, file: str) -> tuple[Any, dict[FieldPath, int]]:
    node = loader.get_single_node()
    if node is None:
        raise InputError(file, "", "the file is empty (expected a mapping with gpu_classes, tenants and clusters)")
    if not isinstance(node, MappingNode):
        raise _not_a_mapping(file, loader.construct_document(node), node.start_mark.line + 1)
    lines = _LineRecorder(file)
    lines.walk(node, ())
    return loader.construct_document(node), lines.lines


def _not_a_mapping(file: str, data: Any, line: int | None) -> InputError:
    return InputError(file, "", f"the top level must be a mapping with gpu_classes, tenants and clusters, got "
                                f"{_describe(data)}", line)


def _yaml_problem(err: yaml.YAMLError, text: str) -> tuple[str, int | None]:
    """A one-line reason and the line of a PyYAML error."""
    if isinstance(err, yaml.reader.ReaderError):
        char = err.character if isinstance(err.character, str) else chr(err.character)
        return f"not a YAML text: character #x{ord(char):04x} is not allowed", text.count("\n", 0, err.position) + 1
    if isinstance(err, yaml.MarkedYAMLError):
        mark, context = err.problem_mark or err.context_mark, err.context
        if context and err.context_mark and mark and err.context_mark.line != mark.line:
            context += f" that starts on line {err.context_mark.line + 1}"
        reason = f"{err.problem} ({context})" if context else str(err.problem)
        return "invalid YAML: " + " ".join(reason.split()), mark.line + 1 if mark else None
    return "invalid YAML: " + " ".join(str(err).split()), None


class _LineRecorder:
    """Walks the composed YAML nodes: records lines, rejects duplicate and non-string keys and alias bombs."""

    def __init__(self, file: str):
        self.file, self.lines, self.visits, self.active = file, {}, 0, set()

    def walk(self, node, path: FieldPath) -> None:
        self.visits += 1
        if self.visits > MAX_VALUES or id(node) in self.active:
            reason = f"more than {MAX_VALUES} values" if self.visits > MAX_VALUES else "a value contains itself"
            raise InputError(self.file, format_path(path), f"{reason} (through YAML aliases)",
                             node.start_mark.line + 1)
        if isinstance(node, ScalarNode):
            return
        self.active.add(id(node))
        if isinstance(node, SequenceNode):
            for index, item in enumerate(node.value):
                self.lines.setdefault(path + (index,), item.start_mark.line + 1)
                self.walk(item, path + (index,))
        else:
            self._mapping(node, path)
        self.active.discard(id(node))

    def _mapping(self, node: MappingNode, path: FieldPath) -> None:
        first: dict[str, int] = {}
        merged = []
        for key, value in node.value:
            if key.tag == _MERGE_TAG:
                merged += value.value if isinstance(value, SequenceNode) else [value]
                continue
            name, line = self._key(key, path), key.start_mark.line + 1
            if name in first:
                raise InputError(self.file, format_path(path + (name,)),
                                 f"duplicate key (first on line {first[name]})", line)
            first[name] = line
            self.lines.setdefault(path + (name,), line)
            self.walk(value, path + (name,))
        for source in merged:  # explicit keys keep their own lines (setdefault)
            if isinstance(source, MappingNode):
                self.walk(source, path)

    def _key(self, key, path: FieldPath) -> str:
        if isinstance(key, ScalarNode) and key.tag == _STR_TAG:
            return key.value
        shown = _short(key.value) if isinstance(key, ScalarNode) else "a " + key.id  # "sequence" or "mapping"
        kind = key.tag.rsplit(":", 1)[-1]
        raise InputError(self.file, format_path(path), f"key {shown} is not a string (YAML reads it as {kind}); "
                                                       "quote it", key.start_mark.line + 1)


# --- schema validation -----------------------------------------------------------------------------------------

def _ecma_pattern(validator, pattern, instance, schema):
    """``pattern`` with ECMA-262 semantics: ``$`` never matches before a trailing newline (Python's does)."""
    regex = pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern
    if validator.is_type(instance, "string") and not re.search(regex, instance):
        yield ValidationError(f"{_hide_userinfo(instance)!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def _validator():
    cls = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _ecma_pattern})
    return cls(json_schema())


def _validate(data: Any, ctx: _Ctx) -> None:
    """Every schema error of the file: one per object or value (the most relevant of those found there, e.g. a
    misspelt key rather than the required key it was meant to be)."""
    def relevance(err):  # the shallowest error, then the first in the file
        return -len(err.path), -(ctx.line(tuple(err.path)) or 10**9)

    where: dict[FieldPath, list] = {}
    for err in _validator().iter_errors(data):
        where.setdefault(tuple(err.absolute_path), []).append(err)
    for errors in where.values():
        path, reason = _explain(best_match(errors, key=relevance))
        ctx.errors.setdefault(path, ctx.error(path, reason))
    ctx.raise_errors()


def _explain(err: ValidationError) -> tuple[FieldPath, str]:
    """The field path and a readable reason of a schema error."""
    path, inst, value, kw = tuple(err.absolute_path), err.instance, err.validator_value, err.validator
    title = err.schema.get("title") if isinstance(err.schema, dict) else None
    if kw == "required":
        return path + (next(k for k in value if k not in inst),), "required key is missing"
    if kw == "additionalProperties":
        known = err.schema.get("properties", {})
        extra = next(k for k in inst if k not in known)
        return path + (extra,), "unknown key" + did_you_mean(extra, known)
    if "propertyNames" in err.absolute_schema_path:
        return path + (inst,), f"{_short(inst)} is not {title}" + did_you_mean(inst, value if kw == "enum" else ())
    if kw == "type":
        return path, _type_reason(err.schema, value, inst)
    if kw == "uniqueItems":
        dup = next((j for j, x in enumerate(inst) if x in inst[:j]), None)
        return (path + (dup,), f"duplicate item {_short(inst[dup])}") if dup else (path, "items must be unique")
    if kw == "not":
        return path, f"{_short(inst)} is {value.get('title', 'not allowed here')}"
    return path, _value_reason(kw, value, inst, title) or " ".join(err.message.split())


def _type_reason(schema: dict, expected: str | list, inst: Any) -> str:
    words = " or ".join(_TYPE_WORDS.get(t, t) for t in ([expected] if isinstance(expected, str) else expected))
    reason = f"expected {words}, got {_describe(inst)}"
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
        return f"{_short(inst)} is not {title or allowed}" + did_you_mean(inst, value)
    comparisons = {"minimum": ">=", "exclusiveMinimum": ">", "maximum": "<=", "exclusiveMaximum": "<"}
    if kw in comparisons:
        return f"must be {comparisons[kw]} {value}, got {_short(inst)}"
    if kw == "minItems":
        return f"needs at least {value} item{'s' if value > 1 else ''}"
    if kw == "maxLength":
        return f"{_short(inst)} is longer than {value} characters"
    if kw == "minLength" and value == 1:
        return "must not be empty"
    if title and kw in ("pattern", "minLength"):
        return f"{_short(inst)} is not {title}"
    return None


# --- checks on plain data --------------------------------------------------------------------------------------

def _check_plain(data: Any, ctx: _Ctx) -> None:
    """Reject what no schema can describe: non-string keys, reference cycles, oversized trees, and a URL with a
    user name or password anywhere (the schema's own error would show the value)."""
    active: set[int] = set()
    visits = 0

    def walk(value: Any, path: FieldPath) -> None:
        nonlocal visits
        visits += 1
        ctx.require(visits <= MAX_VALUES, path, f"more than {MAX_VALUES} values")
        if isinstance(value, str):
            ctx.check(not _USERINFO.match(value.strip()), path, USERINFO_REASON)
        if not isinstance(value, (dict, list)):
            return
        ctx.require(id(value) not in active, path, "a value contains itself")
        active.add(id(value))
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            ctx.require(isinstance(value, list) or isinstance(key, str), path,
                        f"key {_short(key)} is not a string; quote it")
            walk(item, path + (key,))
        active.discard(id(value))

    walk(data, ())


def _check_numbers(value: Any, path: FieldPath, ctx: _Ctx) -> None:
    """Reject NaN, infinities and integers too large to be exact floats anywhere in the (valid) data."""
    if isinstance(value, (dict, list)):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            _check_numbers(item, path + (key,), ctx)
    elif isinstance(value, float):
        ctx.check(value == value and abs(value) != float("inf"), path, f"{value} is not a finite number")
    elif isinstance(value, int) and not isinstance(value, bool):
        ctx.check(abs(value) <= 2**53, path, f"{_short(value)} is too large")


def _tree_copy(value: Any) -> Any:
    """A deep copy that does not preserve sharing (YAML aliases), so filling defaults stays local."""
    if isinstance(value, dict):
        return {k: _tree_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tree_copy(v) for v in value]
    return value


def _fill_defaults(data: Any, schema: dict, root: dict, path: FieldPath, ctx: _Ctx) -> None:
    """Set every omitted property that has a schema ``default``, recursively."""
    while "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[-1]]
    if isinstance(data, dict):
        for key, sub in schema.get("properties", {}).items():
            if key not in data and "default" in sub:
                data[key] = _tree_copy(sub["default"])
                ctx.defaulted.add(path + (key,))
            if key in data:
                _fill_defaults(data[key], sub, root, path + (key,), ctx)
    elif isinstance(data, list) and "items" in schema:
        for index, item in enumerate(data):
            _fill_defaults(item, schema["items"], root, path + (index,), ctx)


# --- building the model ----------------------------------------------------------------------------------------

def _build(data: Any, ctx: _Ctx) -> Model:
    try:
        return _build_model(data, ctx)
    except RecursionError:
        raise InputError(ctx.file, "", "values nested too deeply") from None


def _build_model(data: Any, ctx: _Ctx) -> Model:
    if not isinstance(data, dict):
        raise _not_a_mapping(ctx.file, data, None)
    _check_plain(data, ctx)
    _validate(data, ctx)
    data = _tree_copy(data)
    _check_numbers(data, (), ctx)
    ctx.raise_errors()
    schema = json_schema()
    _fill_defaults(data, schema, schema, (), ctx)
    try:
        model = _semantic(data, ctx)
    except InputError as err:  # a check that cannot go on: report it with those found before
        ctx.raise_errors(err)
        raise
    except Exception:  # a later step tripped over a value already found wrong: report what was found
        ctx.raise_errors()
        raise
    ctx.raise_errors()
    return model


def _semantic(data: dict, ctx: _Ctx) -> Model:
    billing = _billing(data["billing"], "acm" in data["outputs"]["targets"], ctx)
    classes = _gpu_classes(data["gpu_classes"], ctx)
    return Model(
        currency=_currency(data["currency"], ctx),
        billing=billing,
        sources=_sources(data["sources"], ctx),
        gpu_classes=classes,
        tenants=_tenants(data["tenants"], classes, ctx),
        clusters=tuple(sorted(data["clusters"])),
        alerts=_alerts(data["alerts"], billing, ctx),
        grafana=_grafana(data["grafana"]),
        mco=_mco(data["mco"]),
        issuer=_issuer(data["issuer"]),
        prune=_prune(data["prune"], data["clusters"], ctx) if "prune" in data else None,
        outputs=Outputs(targets=tuple(t for t in ALL_TARGETS if t in data["outputs"]["targets"]),
                        argocd=ArgoCD(**data["outputs"]["argocd"]) if "argocd" in data["outputs"] else None),
        energy=_energy(data["energy"], data["clusters"], ctx) if "energy" in data else Energy(),
        source=ctx.file,
        tenant_order=tuple(t["name"] for t in data["tenants"]),
    )


def _currency(code: str, ctx: _Ctx) -> str:
    """An ISO 4217 code with a minor unit (invoices round each line to it), per the ``iso4217`` package's copy
    of the published list."""
    try:
        minor = iso4217.Currency(code).exponent
    except ValueError:
        minor = None
        ctx.check(False, ("currency",), f"{code!r} is not an ISO 4217 currency code")
    ctx.check(minor is not None, ("currency",), f"{code!r} has no minor unit in ISO 4217 (a fund or metal): "
                                                "invoices cannot be rounded in it")
    return code


def _billing(d: dict, acm: bool, ctx: _Ctx) -> Billing:
    """``acm``: the model renders the ACM target, where the spoke tier is the default (delivered by an ACM Policy)."""
    res, mco, burn = (parse_duration(d[k]) for k in ("resolution", "mco_interval", "burn_rate_window"))
    ctx.check(10 <= res <= 900, ("billing", "resolution"), f"{d['resolution']} must be between 10s and 15m")
    ctx.check(HOUR % res == 0, ("billing", "resolution"),
              f"{d['resolution']} must divide 1h exactly (e.g. 10s, 15s, 30s, 1m, 5m, 15m)")
    ctx.check(15 <= mco <= HOUR, ("billing", "mco_interval"),
              f"{d['mco_interval']} must be between 15s and 1h (the range ACM accepts)")
    ctx.check(mco >= res, ("billing", "mco_interval"),
              f"{d['mco_interval']} must be at least billing.resolution ({d['resolution']})")
    ctx.check(burn >= 2 * mco, ("billing", "burn_rate_window"),
              f"{d['burn_rate_window']} must be at least 2 x billing.mco_interval ({format_duration(2 * mco)})")
    spoke_tier = d.get("spoke_tier", SPOKE_TIERS[1] if acm else SPOKE_TIERS[0])
    tier = spoke_tier == "policy"
    backfill = d.get("backfill_hours", DEFAULT_BACKFILL_HOURS if tier else 0)
    ctx.check(tier or backfill == 0, ("billing", "backfill_hours"),
              f"{backfill} needs billing.spoke_tier: policy (without the tier every push would re-derive each "
              "earlier hour from raw series); set it to 0 or turn the tier on")
    return Billing(period=d["period"], resolution=res, mco_interval=mco, burn_rate_window=burn,
                   spoke_tier=spoke_tier, retention=_retention(d["retention"], ctx), backfill_hours=backfill)


def _retention(d: dict, ctx: _Ctx) -> Retention:
    """Raw samples are what reports read, so raw must cover the dispute window; downsampled data (dashboards)
    is kept at least as long as the finer resolution it comes from."""
    raw, five, hour = (parse_duration(d[k]) for k in ("raw", "5m", "1h"))
    floor = format_duration(MIN_RETENTION)
    ctx.check(raw >= MIN_RETENTION, ("billing", "retention", "raw"),
              f"{d['raw']} must be at least {floor} (13 months: reports read raw samples, and a provider must be "
              "able to re-invoice last year's month)")
    ctx.check(five >= raw, ("billing", "retention", "5m"), f"{d['5m']} must be at least raw ({d['raw']})")
    ctx.check(hour >= five, ("billing", "retention", "1h"), f"{d['1h']} must be at least 5m ({d['5m']})")
    return Retention(raw=raw, five_minutes=five, one_hour=hour)


def _mco(d: dict) -> Mco:
    storage = d["object_storage"]
    return Mco(output=d["output"], name=d["name"], storage_secret=storage["secret"], storage_key=storage["key"])


def _issuer(d: dict) -> Issuer:
    return Issuer(name=d.get("name", ""), address=tuple(d.get("address", ())), country=d.get("country", ""),
                  tax_id=d.get("tax_id", ""), email=d.get("email", ""), payment_terms_days=d["payment_terms_days"],
                  payment=tuple(d.get("payment", ())), iban=d.get("iban", ""), bic=d.get("bic", ""),
                  tax=_tax(d["tax"]), hours_digits=d["hours_digits"], kwh_digits=d["kwh_digits"])


def _tax(d: dict) -> Tax:
    """A tax rate, or an exemption (the schema's oneOf; its label default is filled here)."""
    return Tax(exempt=d["exempt"]) if "exempt" in d else Tax(label=d.get("label", "VAT"), rate=float(d["rate"]))


def _billing_identity(d: dict) -> BillingIdentity:
    return BillingIdentity(**{k: tuple(v) if k == "address" else _tax(v) if k == "tax" else v for k, v in d.items()})


def _energy(d: dict, clusters: list[str], ctx: _Ctx) -> Energy:
    overrides = d.get("clusters", {})
    for cluster in overrides:
        ctx.check(cluster in clusters, ("energy", "clusters", cluster),
                  f"{cluster!r} is not one of the model's clusters ({', '.join(sorted(clusters))})")
    return Energy(price_per_kwh=float(d["price_per_kwh"]),
                  cluster_prices=tuple(sorted((c, float(p)) for c, p in overrides.items())),
                  unallocated_alert_ratio=float(d["unallocated_alert_ratio"]), in_budget=d["in_budget"], metered=True)


def _prune(d: dict, clusters: list[str], ctx: _Ctx) -> Prune:
    interval = parse_duration(d["check_interval"])
    ctx.check(15 <= interval <= DAY, ("prune", "check_interval"), f"{d['check_interval']} must be between 15s and 1d")
    for i, cluster in enumerate(d.get("clusters", ())):
        ctx.check(cluster in clusters, ("prune", "clusters", i), f"{cluster!r} is not one of the model's clusters "
                                                                 f"({', '.join(sorted(clusters))})")
    return Prune(image=d["image"], prometheus_url=d["prometheus_url"],
                 clusters=tuple(sorted(d.get("clusters", clusters))), namespace=d["namespace"],
                 run_mode=d["run_mode"], check_interval=interval, duration=parse_duration(d["duration"]),
                 max_actions=d["max_actions"], token_secret=d.get("token_secret", ""),
                 trusted_ca_bundle=d["trusted_ca_bundle"])


def _unique(items: list[dict], key: str, path: FieldPath, what: str, ctx: _Ctx) -> None:
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        seen = first.setdefault(item[key], index)
        ctx.check(seen == index, path + (index, key),
                  f"{what} {item[key]!r} is already used by {format_path(path + (seen,))}")


def _gpu_classes(items: list[dict], ctx: _Ctx) -> tuple[GpuClass, ...]:
    _unique(items, "name", ("gpu_classes",), "class name", ctx)
    owners: dict[str, str] = {}
    classes = []
    for index, c in enumerate(items):
        path = ("gpu_classes", index)
        _claim_products(c, path, owners, ctx)
        model = _mig_model(c, path, ctx)
        classes.append(GpuClass(
            name=c["name"], vendor=c["vendor"], products=tuple(sorted(c["products"])),
            price_per_hour=float(c["price_per_hour"]), mig_model=model, mig=_mig_profiles(c, model, path, ctx),
            shared_price_per_hour=_shared_price(c),
            time_slicing_replicas=int(c.get("time_slicing", {}).get("replicas", 1)),
            partitions=tuple(sorted((k, float(v)) for k, v in c.get("partitions", {}).items()))))
    return tuple(sorted(classes, key=lambda c: c.name))


_DERIVED_PRODUCT = re.compile(r"-MIG-|-SHARED$")


def _claim_products(c: dict, path: FieldPath, owners: dict[str, str], ctx: _Ctx) -> None:
    """Each product, compared as its node label value, belongs to one class only."""
    for index, product in enumerate(c["products"]):
        label = product_label(c["vendor"], product)
        where = path + ("products", index)
        ctx.check(label, where, f"{product!r} keeps no characters as a node label value")
        # GPU Feature Discovery derives the slice and replica values from the whole GPU's: listing one would
        # price a MIG slice or a time-sliced replica as a whole GPU (NVIDIA/k8s-device-plugin internal/lm/resource.go)
        ctx.check(c["vendor"] != "nvidia" or not _DERIVED_PRODUCT.search(label), where,
                  f"{product!r} is a MIG slice or time-sliced value (node label {label!r}); list the whole GPU's "
                  "product only, gpudash derives the -MIG-<profile> and -SHARED values from it")
        owner = owners.setdefault(label, c["name"])
        ctx.check(owner == c["name"], where, f"{product!r} (node label {label!r}) already belongs to class "
                                             f"{owner!r}; a product belongs to one class only")


def _mig_model(c: dict, path: FieldPath, ctx: _Ctx) -> str | None:
    """The class's MIG model: explicit, else inferred from the products (NVIDIA only)."""
    ctx.check(c["vendor"] == "amd" or "partitions" not in c, path + ("partitions",),
              "only for vendor amd (compute partitions are an AMD Instinct feature; NVIDIA has mig)")
    if c["vendor"] == "amd":
        for key in ("mig", "mig_model", "time_slicing"):
            ctx.check(key not in c, path + (key,), "not supported for vendor amd (MIG and time-slicing are "
                                                   "NVIDIA features)")
        return None
    if "mig_model" in c:
        return c["mig_model"]
    inferred = {product: mig.model_for_product(product) for product in c["products"]}
    ctx.check(len(set(inferred.values())) == 1, path + ("products",),
              "products name different MIG models (" + ", ".join(f"{p!r}: {m or 'none'}" for p, m in
                                                                  inferred.items()) + "); set mig_model")
    model = next(iter(inferred.values()))
    ctx.check(model or not c.get("mig"), path + ("mig",),
              f"cannot tell the MIG model from the products; set mig_model to one of {', '.join(mig.PROFILES)}")
    return model


def _mig_profiles(c: dict, model: str | None, path: FieldPath, ctx: _Ctx) -> tuple[MigProfile, ...]:
    """Every profile of ``model``, priced from the class's ``mig`` prices or by the default share rule, and the
    media-extension variants (``1g.10gb+me``) the class prices."""
    if model is None:
        return ()
    profiles, prices = mig.PROFILES[model], c.get("mig", {})
    resources: dict[str, str] = {}
    for name in prices:
        ctx.check(mig.base_profile(name) in profiles, path + ("mig", name),
                  f"{name!r} is not a MIG profile of {model} (valid: {', '.join(profiles)}); a media-extension "
                  "variant adds +me, -me, +me.all or +gfx")
        seen = resources.setdefault(ksm_resource(f"nvidia.com/mig-{name}"), name)
        ctx.check(seen == name, path + ("mig", name),
                  f"{name!r} and {seen!r} are the same kube-state-metrics resource; price only one of them")
    priced = [MigProfile(name, compute, memory,
                         float(prices[name]) if name in prices else
                         round(c["price_per_hour"] * mig.default_share(model, name), 6),
                         "model" if name in prices else "default")
              for name, (compute, memory) in profiles.items()]
    priced += [MigProfile(name, *profiles[mig.base_profile(name)], float(price), "model")
               for name, price in prices.items() if name not in profiles and mig.base_profile(name) in profiles]
    return tuple(sorted(priced, key=lambda p: (p.compute_slices, p.memory_slices, p.name)))


def _shared_price(c: dict) -> float:
    """Price of one time-sliced replica; a whole GPU's price when the class has no time-slicing rule."""
    sliced = c.get("time_slicing")
    if sliced is None:
        return float(c["price_per_hour"])
    if "price_per_hour" in sliced:
        return float(sliced["price_per_hour"])
    return round(c["price_per_hour"] / sliced["replicas"], 6)


def _tenants(items: list[dict], classes: tuple[GpuClass, ...], ctx: _Ctx) -> tuple[Tenant, ...]:
    _unique(items, "name", ("tenants",), "tenant name", ctx)
    _unique(items, "namespace", ("tenants",), "namespace", ctx)
    offered = sorted({p.resource for c in classes for p in c.mig})
    tenants = []
    for index, t in enumerate(items):
        for resource in t.get("quota", {}):
            ctx.check(not resource.startswith("nvidia.com/mig-") or resource in offered,
                      ("tenants", index, "quota", resource),
                      f"no GPU class of the model has MIG profile {resource} (classes offer: "
                      f"{', '.join(offered) or 'no MIG profile'}): the quota would limit nothing")
        alert_at = t["alert_at"]
        for j in range(1, len(alert_at)):
            ctx.check(alert_at[j] > alert_at[j - 1], ("tenants", index, "alert_at", j),
                      f"{alert_at[j]} is not above {alert_at[j - 1]}: alert_at must be strictly ascending")
        tenants.append(Tenant(
            name=t["name"], namespace=t["namespace"], budget=float(t["budget"]),
            alert_at=tuple(float(x) for x in alert_at),
            quota=tuple(sorted((k, int(v)) for k, v in t.get("quota", {}).items())),
            receiver=t.get("receiver", f"tenant-{t['name']}"), billing=_billing_identity(t.get("billing", {}))))
    return tuple(sorted(tenants, key=lambda t: t.name))


def _re2_problem(pattern: str) -> str | None:
    """Why ``pattern`` is no RE2 regex (Prometheus), or None. Python's ``re`` stands in for RE2's syntax."""
    try:
        re.compile(pattern)
    except re.error as err:
        return f"{pattern!r} is not a valid regular expression: {err}"
    found = _RE2_UNSUPPORTED.search(_RE_ESCAPES_AND_CLASSES.sub("", pattern))
    if found:
        return (f"{pattern!r} uses {found.group()!r}, which RE2 (Prometheus) does not support (no lookarounds, "
                "backreferences, atomic groups or possessive quantifiers)")
    return None


def _sources(d: dict, ctx: _Ctx) -> Sources:
    for key in ("dcgm", "amd"):
        problem = _re2_problem(d[key]["job"])
        ctx.check(problem is None, ("sources", key, "job"), str(problem))
    managed = d.get("self_managed")
    if managed is not None:
        known = {ksm.node_label(k) for k in ksm.PRODUCT_KEYS}
        for key in ("nvidia_product_label", "amd_product_label", "amd_partition_label"):
            ctx.check(d[key] in known, ("sources", key),
                      f"{d[key]!r} is not kube-state-metrics' name of a node label gpudash knows ("
                      f"{', '.join(ksm.PRODUCT_KEYS)}), so sources.self_managed cannot write its "
                      "--metric-labels-allowlist: use the default or omit self_managed")
        managed = SelfManaged(managed["namespace"], *(tuple(sorted(managed[f"{e}_service_labels"].items()))
                                                      for e in ("dcgm", "amd")))
    return Sources(**{**d, "dcgm": Exporter(**d["dcgm"]), "amd": Exporter(**d["amd"]), "self_managed": managed})


def _alerts(d: dict, billing: Billing, ctx: _Ctx) -> Alerts:
    idle = d["idle"]
    window = parse_duration(idle["window"])
    ctx.check(window >= billing.min_window, ("alerts", "idle", "window"),
              f"{idle['window']} must be at least 2 x billing.mco_interval ({format_duration(billing.min_window)})")
    for key in ("namespace_regex", "model_regex"):
        problem = _re2_problem(idle[key])
        ctx.check(problem is None, ("alerts", "idle", key), str(problem))
    return Alerts(
        runbook_url=d["runbook_url"], dashboard_url=d["dashboard_url"].rstrip("/"),
        provider_receiver=d["provider_receiver"], burn_jump_factor=float(d["burn_jump_factor"]),
        idle=IdleAlerts(window=window, namespace_regex=idle["namespace_regex"], model_regex=idle["model_regex"],
                        power_veto_watts=float(idle["power_veto_watts"])),
        receivers=_receivers(d["receivers"], ctx))


def _receivers(d: dict, ctx: _Ctx) -> tuple[tuple[str, dict], ...]:
    """Receivers as given, once no integration inlines a secret (in its own fields or its http_config)."""
    def refuse(fields: dict, secrets: dict[str, str], path: FieldPath) -> None:
        for key in fields:
            ctx.check(key not in secrets, (*path, key), "a secret inlined in the model; reference a file mounted "
                                                        f"into Alertmanager with {secrets.get(key)} instead")

    def http(value: Any, path: FieldPath) -> None:
        if isinstance(value, dict):
            refuse(value, HTTP_SECRETS, path)
            for key, item in value.items():
                http(item, (*path, key))

    for name, integrations in d.items():
        for kind, entries in integrations.items():
            for i, entry in enumerate(entries):
                path = ("alerts", "receivers", name, kind, i)
                refuse(entry, INLINE_SECRETS[kind], path)
                http(entry.get("http_config"), (*path, "http_config"))
    return tuple((name, _tree_copy(d[name])) for name in sorted(d))


def _grafana(d: dict) -> Grafana:
    source = d["tenant_datasource"]
    default_url = THANOS_QUERIER_URL if source["mode"] == "thanos-querier" else d["provider_datasource_url"]
    return Grafana(
        provider_datasource_url=d["provider_datasource_url"], provider_folder=d["provider_folder"],
        tenant_datasource=TenantDatasource(mode=source["mode"], url=source.get("url", default_url),
                                           token_env=source["token_env"]))

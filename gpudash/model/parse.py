"""Read a model file and parse its YAML: safe semantics, duplicate and non-string keys rejected, alias bombs
refused, and the line of every field path recorded for the error messages."""
from __future__ import annotations

import os
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import BaseConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from gpudash.base.capped import read_capped
from gpudash.base.errors import InputError
from gpudash.model.context import MAX_VALUES, FieldPath, describe, format_path, short

# The most a model file may hold: a model of 10 000 tenants is about 2 MB.
MAX_MODEL_BYTES = 32 * 2**20
_MERGE_TAG, _STR_TAG = "tag:yaml.org,2002:merge", "tag:yaml.org,2002:str"
YamlNode = ScalarNode | SequenceNode | MappingNode  # the nodes of a composed document


def read_text(path: str | os.PathLike[str] | Traversable, file: str) -> str:
    try:
        if isinstance(path, (str, os.PathLike)) and not os.path.isdir(path):
            raw = read_capped(path, MAX_MODEL_BYTES)  # never a FIFO, never /dev/zero read to the end
            if raw is None:
                raise FileNotFoundError
        else:
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


class _PositionedValues(BaseConstructor):
    """A loader whose value errors (e.g. the date 2024-13-45) become positioned YAML errors."""

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, TypeError, OverflowError) as err:
            value = node.value if isinstance(node, ScalarNode) else node.tag
            raise yaml.constructor.ConstructorError(None, None, f"invalid value {short(value)}: {err}",
                                                    node.start_mark) from err


class _Loader(_PositionedValues, yaml.SafeLoader):
    """PyYAML's own parser: its error messages are the ones gpudash reports."""


# libyaml's parser (5x faster on a model of thousands of tenants) where PyYAML has it: the same resolver and
# constructors, nodes with the same lines; a text it refuses is parsed again by _Loader for the message.
_FAST: type[yaml.CSafeLoader] | None = None
if hasattr(yaml, "CSafeLoader"):
    class _FastLoader(_PositionedValues, yaml.CSafeLoader):
        """libyaml's parser with :class:`_PositionedValues`' value errors."""

    _FAST = _FastLoader


def parse_yaml(text: str, file: str) -> tuple[Any, dict[FieldPath, int]]:
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


def _parsed(loader: yaml.SafeLoader | yaml.CSafeLoader, file: str) -> tuple[Any, dict[FieldPath, int]]:
    node = loader.get_single_node()
    if node is None:
        raise InputError(file, "", "the file is empty (expected a mapping with gpu_classes, tenants and clusters)")
    if not isinstance(node, MappingNode):
        raise not_a_mapping(file, loader.construct_document(node), node.start_mark.line + 1)
    lines = _LineRecorder(file)
    lines.walk(node, ())
    return loader.construct_document(node), lines.lines


def not_a_mapping(file: str, data: Any, line: int | None) -> InputError:
    return InputError(file, "", f"the top level must be a mapping with gpu_classes, tenants and clusters, got "
                                f"{describe(data)}", line)


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
        self.file, self.visits = file, 0
        self.lines: dict[FieldPath, int] = {}
        self.active: set[int] = set()

    def walk(self, node: YamlNode, path: FieldPath) -> None:
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
        merged: list[YamlNode] = []
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

    def _key(self, key: YamlNode, path: FieldPath) -> str:
        if isinstance(key, ScalarNode) and key.tag == _STR_TAG:
            name: str = key.value  # a scalar node's value is its text
            return name
        shown = short(key.value) if isinstance(key, ScalarNode) else "a " + key.id  # "sequence" or "mapping"
        kind = key.tag.rsplit(":", 1)[-1]
        raise InputError(self.file, format_path(path), f"key {shown} is not a string (YAML reads it as {kind}); "
                                                       "quote it", key.start_mark.line + 1)

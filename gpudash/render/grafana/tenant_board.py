"""Specialising a rendered tenant dashboard: the one place that edits dashboard JSON after grafanalib.

A tenant dashboard is built through grafanalib once per model and tenant and serialised once (a :class:`Board`);
its variants (gpudash's own tenant datasource, the ACM hub's ``Observatorium`` datasource) differ only in the
datasource each panel and target names. A variant's text is the board's text with the datasource uid's JSON
token replaced, when that is provably the same as serialising the substituted structure (every occurrence of
the token is a panel's or target's datasource uid); otherwise the structure is substituted and serialised.
The isolation proof then runs on every variant as written (a reference left behind fails it).

Tenants alike in all but their names, budget, receiver and quota (the same ``alert_at``) share a
:class:`Template`: two probe tenants differing in all of those are built through grafanalib, and the first
probe's text with its values (:func:`gpudash.render.grafana.dashboards.tenant_values`) replaced by the second's must be
the second's build, byte for byte, in both the written (sorted) and the built (grafanalib's key order) JSON;
otherwise every tenant of the group is built. A tenant's board is the template with its values written in,
JSON-escaped.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpudash.base.yamlfmt import dump_json
from gpudash.model import vendors
from gpudash.model.types import Tenant


@dataclass(frozen=True)
class Board:
    """A rendered dashboard: its file stem (its uid) and ``dump_json`` of it, which is both
    ``dashboards/<stem>.json`` and the ACM ConfigMap's data. A board built through grafanalib keeps that
    structure; a board written into a template keeps only its values, so a render of thousands of tenants holds
    their texts, not their parsed JSON."""

    stem: str
    text: str
    template: Template | None = None  # the template it was written into, with its values
    values: tuple = ()
    built: dict | None = None  # grafanalib's structure, for a board built (not written into a template)

    @property
    def data(self) -> dict:
        """Its JSON in grafanalib's key order (read-only); a templated board's is parsed afresh at each call."""
        if self.built is not None:
            return self.built
        assert self.template is not None, "a board is built or written into a template"
        return json.loads(self.template.compact(self.values))


def board(stem: str, data: dict) -> Board:
    return Board(stem, dump_json(data), built=data)


def text(b: Board, fmt: Callable[[dict], str], ascii: bool = False) -> str:
    """``fmt`` of ``b``'s data: through its template where the substitution is checked for ``fmt`` too (strings
    escaped as JSON, with ``ascii`` as ``ensure_ascii``), else ``fmt`` of it."""
    serialise = b.template.serialiser(fmt, ascii) if b.template is not None else None
    return serialise(b.values) if serialise else fmt(b.data)


def variant(b: Board, old_uid: str, new_uid: str) -> Board:
    """``b`` with every datasource reference to ``old_uid`` pointing at ``new_uid``: its data parsed back from the
    text actually written."""
    old, new = json.dumps(old_uid, ensure_ascii=False), json.dumps(new_uid, ensure_ascii=False)
    if b.text.count(old) == _references(b, old_uid):  # each reference is one occurrence of the token; no other
        out = b.text.replace(old, new)
    else:
        out = dump_json(with_datasource(b.data, old_uid, new_uid))
    return Board(b.stem, out, built=json.loads(out))


def _references(b: Board, uid: str) -> int:
    """Panels and targets of ``b`` whose datasource is ``uid``, or fewer: a templated board whose value ``uid`` is
    counts them in its template's first board (the same structure), once per template. Never more, which is all
    :func:`variant` needs (it substitutes the text only when its occurrences of the token are that count)."""
    if b.template is None or uid not in b.values:
        return _count_references(b.data, uid)
    return b.template.references(b.values.index(uid))


def _count_references(data: dict, uid: str) -> int:
    from gpudash.render.grafana.panels import iter_panels, iter_targets  # grafanalib only where dashboards are built

    return sum(1 for node in (*iter_panels(data), *(t for _, t in iter_targets(data)))
               if isinstance(node.get("datasource"), dict) and node["datasource"].get("uid") == uid)


def with_datasource(data, old_uid: str, new_uid: str):
    """A copy of ``data`` (plain dashboard JSON, left unchanged) with every ``datasource`` reference to
    ``old_uid`` pointing at ``new_uid`` instead; containers are copied, scalars shared."""
    if old_uid == new_uid:
        return data

    def copy(node):
        if isinstance(node, dict):
            out = {k: copy(v) for k, v in node.items()}
            ref = out.get("datasource")
            if isinstance(ref, dict) and ref.get("uid") == old_uid:
                out["datasource"] = {**ref, "uid": new_uid}
            return out
        if isinstance(node, list):
            return [copy(v) for v in node]
        return node

    return copy(data)


# Two tenants no model holds, differing in every field but ``alert_at``: names long enough that their uids are
# hashed (no uid holds a name), with a quote and a backslash (a place that escapes the name other than as JSON
# fails the check), budgets whose every threshold and ``:g`` text is a number nothing else in a dashboard is,
# another receiver and quota (a dashboard depending on them fails the check).
PROBES: tuple[dict[str, Any], ...] = (
    {"name": 'gpudash template probe "one" \\ whose uids are hashed', "namespace": "gpudash-probe-one",
     "budget": 987654.321, "receiver": "gpudash-probe-one", "quota": ()},
    {"name": 'gpudash template probe "two" \\ whose uids are hashed', "namespace": "gpudash-probe-two",
     "budget": 123456.789, "receiver": "gpudash-probe-two", "quota": ((f"requests.{vendors.sample().resource}", 7),)})


def alike(t: Tenant) -> Tenant:
    """What tenants sharing a template have in common: ``t`` without the fields the probes vary."""
    return dataclasses.replace(t, name="", namespace="", budget=0.0, receiver="", quota=())


def _token(value, ascii: bool = False) -> str:
    """``value`` as JSON text holds it: a string's escaped characters (inside quotes; non-ASCII ones escaped
    too with ``ascii``), a number's text."""
    return json.dumps(value, ensure_ascii=ascii)[1:-1] if isinstance(value, str) else json.dumps(value)


class _Cut:
    """``text`` cut at every occurrence of the ``old`` values' tokens (one pass, longest first): each substitution of
    new values is then a join of the pieces, not a scan of the text (a tenant's board is ~50 KB)."""

    def __init__(self, text: str, old: tuple, ascii: bool = False):
        tokens = [_token(v, ascii) for v in old]
        self.slot = {t: i for i, t in enumerate(tokens)}
        pattern = re.compile("(" + "|".join(re.escape(t) for t in sorted(self.slot, key=len, reverse=True)) + ")")
        self.pieces = pattern.split(text)  # text, token, text, token, ..., text
        self.ascii = ascii

    def __call__(self, new: tuple) -> str:
        tokens = [_token(v, self.ascii) for v in new]
        pieces = self.pieces.copy()
        for i in range(1, len(pieces), 2):
            pieces[i] = tokens[self.slot[pieces[i]]]
        return "".join(pieces)


def _compact(data) -> str:
    return json.dumps(data, ensure_ascii=False)  # grafanalib's key order; the C encoder


@dataclass(frozen=True)
class Template:
    """The two probes' boards and values (:data:`PROBES`); a board is the first with its values replaced."""

    first: Board
    values: tuple
    second: Board
    second_values: tuple
    _serialisers: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)
    _references: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    def specialise(self, values: tuple) -> Board:
        """The board of the tenant whose :func:`~gpudash.render.grafana.dashboards.tenant_values` are ``values``."""
        return Board(self._cut_stem(values), self._cut_text(values), self, values)

    def references(self, slot: int) -> int:
        """Panels and targets of the first board whose datasource is its value in ``slot``."""
        if slot not in self._references:
            self._references[slot] = _count_references(self.first.data, self.values[slot])
        return self._references[slot]

    def compact(self, values: tuple) -> str:
        """Compact JSON (grafanalib's key order) of the board of ``values``."""
        return self._cut_compact(values)

    @functools.cached_property
    def _cut_stem(self) -> _Cut:
        return _Cut(self.first.stem, self.values)

    @functools.cached_property
    def _cut_text(self) -> _Cut:
        return _Cut(self.first.text, self.values)

    @functools.cached_property
    def _cut_compact(self) -> _Cut:
        return _Cut(_compact(self.first.data), self.values)

    def serialiser(self, fmt: Callable[[dict], str], ascii: bool) -> Callable[[tuple], str] | None:
        """``values -> fmt(data of their board)`` by substitution into ``fmt`` of the first probe (strings escaped
        as JSON, with ``ascii`` as ``ensure_ascii``), or None when that does not give ``fmt`` of the second; checked
        once per ``fmt`` and ``ascii``."""
        key = (fmt, ascii)
        if key not in self._serialisers:
            cut = _Cut(fmt(self.first.data), self.values, ascii)
            self._serialisers[key] = cut if cut(self.second_values) == fmt(self.second.data) else None
        return self._serialisers[key]


def template(like: Tenant, build: Callable[[Tenant], Board], values: Callable[[Tenant], tuple]) -> Template | None:
    """The template of the tenants :func:`alike` ``like`` (see the module), or None when the second probe is not
    the first one specialised."""
    first, second = (dataclasses.replace(like, **probe) for probe in PROBES)
    out = Template(build(first), values(first), build(second), values(second))
    if len({_token(v) for v in out.values}) != len(out.values):
        return None
    got, two = out.specialise(out.second_values), out.second
    same = (got.stem, got.text, _compact(got.data)) == (two.stem, two.text, _compact(two.data))
    return out if same else None

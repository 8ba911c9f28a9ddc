"""Specialising a rendered tenant dashboard: the one place that edits dashboard JSON after grafanalib.

A tenant dashboard is built through grafanalib once per model and tenant and serialised once (a :class:`Board`);
its variants (gpudash's own tenant datasource, the ACM hub's ``Observatorium`` datasource) differ only in the
datasource each panel and target names. A variant's text is the board's text with the datasource uid's JSON
token replaced, when that is provably the same as serialising the substituted structure (every occurrence of
the token is a panel's or target's datasource uid); otherwise the structure is substituted and serialised.
The isolation proof then runs on every variant as written (a reference left behind fails it).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from gpudash.yamlfmt import dump_json


@dataclass(frozen=True)
class Board:
    """A rendered dashboard: its file stem, its JSON (shared: read-only) and ``dump_json`` of it, which is both
    ``dashboards/<stem>.json`` and the ACM ConfigMap's data."""

    stem: str
    data: dict
    text: str


def board(stem: str, data: dict) -> Board:
    return Board(stem, data, dump_json(data))


def variant(b: Board, old_uid: str, new_uid: str) -> Board:
    """``b`` with every datasource reference to ``old_uid`` pointing at ``new_uid``: its data parsed back from the
    text actually written."""
    from gpudash.grafana.panels import iter_panels, iter_targets  # grafanalib only where dashboards are built

    old, new = json.dumps(old_uid, ensure_ascii=False), json.dumps(new_uid, ensure_ascii=False)
    refs = sum(1 for node in (*iter_panels(b.data), *(t for _, t in iter_targets(b.data)))
               if isinstance(node.get("datasource"), dict) and node["datasource"].get("uid") == old_uid)
    if b.text.count(old) == refs:  # each reference is one occurrence of the token; there is no other
        text = b.text.replace(old, new)
    else:
        text = dump_json(with_datasource(b.data, old_uid, new_uid))
    return Board(b.stem, json.loads(text), text)


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

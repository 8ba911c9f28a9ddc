"""Specialising a rendered tenant dashboard: the one place that edits dashboard JSON after grafanalib.

A tenant dashboard is built through grafanalib once per model and tenant; its variants (gpudash's own tenant
datasource, the ACM hub's ``Observatorium`` datasource) differ only in the datasource each panel and target
names, so a variant is the same JSON with those references substituted in the structure (never in text).
The isolation proof then runs on every variant as written (a reference left behind fails it).
"""
from __future__ import annotations


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

"""Specialising a rendered tenant dashboard: the one place that edits dashboard JSON after grafanalib.

A tenant dashboard is built through grafanalib once per model and tenant; its variants (gpudash's own tenant
datasource, the ACM hub's ``Observatorium`` datasource) differ only in the datasource each panel and target
names, so a variant is the same JSON with those references substituted in the structure (never in text).
The isolation proof then runs on every variant as written (a reference left behind fails it).
"""
from __future__ import annotations


def with_datasource(data, old_uid: str, new_uid: str):
    """``data`` (plain dashboard JSON, changed in place and returned) with every ``datasource`` reference to
    ``old_uid`` pointing at ``new_uid`` instead."""
    if old_uid == new_uid:
        return data
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("datasource")
            if isinstance(ref, dict) and ref.get("uid") == old_uid:
                node["datasource"] = {**ref, "uid": new_uid}
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return data

"""Tenant dashboards written into a checked template are, byte for byte, what grafanalib builds for each tenant."""
from __future__ import annotations

import dataclasses
import json

from gpudash.model import model_from_dict
from gpudash.render import grafana
from gpudash.render.grafana import dashboards, tenant_board
from tests.unit.test_model_load import example_dict

LONG = "a-tenant-name-long-enough-that-its-dashboard-uid-is-hashed"  # over 40 - 15 characters: hashed uids


def tricky_model():
    """Tenants alike in alert_at but with short and hashed uids, whole, fractional, tiny and huge budgets, other
    receivers and quotas; and a second alike group (other alert_at) of three."""
    data = example_dict()
    budgets = (5000, 0.5, 1234.5678, 1e9, 7, 99999.99)
    data["tenants"] = [{"name": name, "namespace": f"ns-{i}", "budget": budgets[i % len(budgets)],
                        **({"quota": {"nvidia.com/gpu": i + 1}} if i % 2 else {})}
                       for i, name in enumerate(["a", "b", LONG, "team-with-dashes", "x1", "y2"])]
    data["tenants"] += [{"name": f"late-{i}", "namespace": f"late-{i}", "budget": 10 ** i, "alert_at": [0.8, 1.0]}
                        for i in range(3)]
    return model_from_dict(data, "tenant-template")


def _identical(a: tenant_board.Board, b: tenant_board.Board) -> bool:
    return (a.stem, a.text, json.dumps(a.data)) == (b.stem, b.text, json.dumps(b.data))  # key order too


def test_templated_boards_are_the_grafanalib_builds():
    model = tricky_model()
    blind = dataclasses.replace(model, sources=None)
    boards = grafana.tenant_boards(model)
    assert list(boards) == [t.name for t in model.tenants]
    for t in model.tenants:
        assert _identical(boards[t.name], grafana.built_board(blind, t)), t.name


def test_the_model_groups_use_a_template(monkeypatch):
    made = []
    real = tenant_board.template
    monkeypatch.setattr(tenant_board, "template", lambda *a: made.append(real(*a)) or made[-1])
    grafana.tenant_boards(tricky_model())
    assert len(made) == 2 and all(made)  # both alike groups (6 and 3 tenants) were templated, not built


def test_a_value_the_template_does_not_know_fails_its_check():
    model = tricky_model()
    blind = dataclasses.replace(model, sources=None)
    t = model.tenants[0]
    assert tenant_board.template(t, lambda x: grafana.built_board(blind, x), dashboards.tenant_values)
    without_budget_text = lambda x: dashboards.tenant_values(x)[:4] + dashboards.tenant_values(x)[5:]  # noqa: E731
    assert tenant_board.template(t, lambda x: grafana.built_board(blind, x), without_budget_text) is None
    without_namespace = lambda x: dashboards.tenant_values(x)[:3] + dashboards.tenant_values(x)[4:]  # noqa: E731
    assert tenant_board.template(t, lambda x: grafana.built_board(blind, x), without_namespace) is None


def test_other_serialisations_through_the_template_are_those_of_each_build():
    """The mixin's jsonnet (strings ASCII-escaped) of every tenant dashboard, written into the template, is the
    jsonnet of its build; a serialisation the substitution cannot reproduce is written from each board."""
    from gpudash.render.targets.mixin import jsonnet

    model = tricky_model()
    blind = dataclasses.replace(model, sources=None)
    boards = grafana.tenant_boards(model)
    texts = {name: tenant_board.text(b, lambda data: jsonnet.plain(data, 2), ascii=True) for name, b in boards.items()}
    assert texts == {t.name: jsonnet.plain(grafana.built_board(blind, t).data, 2) for t in model.tenants}
    shout = lambda data: json.dumps(data).upper()  # noqa: E731 - the values' tokens are not there as written
    board = boards[model.tenants[0].name]
    assert board.template is not None and board.template.serialiser(shout, ascii=True) is None
    assert {name: tenant_board.text(b, shout) for name, b in boards.items()} == {
        t.name: shout(grafana.built_board(blind, t).data) for t in model.tenants}

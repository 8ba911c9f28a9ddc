"""Render speed without changing a byte (issue #16): each tenant dashboard built through grafanalib (or written
into a template) once per render, serialised once, its ACM variant derived from that text, and the shortcuts
equal to the long way."""
from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gpudash.base import kube
from gpudash.base.yamlfmt import COMMENT, dump_json, json_text, strip_comments
from gpudash.render import alerts, grafana, overrides
from gpudash.render.alerts import routing
from gpudash.render.grafana import dashboards, tenant_board, uids
from gpudash.render.rules import hub, spoke
from gpudash.render.targets import artifacts
from gpudash.render.targets.mixin import jsonnet
from tests.thorough import examples


def _own(model, t):
    return grafana.tenant_boards(model)[t.name]


def test_each_tenant_dashboard_is_built_once_per_render(example_model, monkeypatch):
    """Once per render, either built or (tenants alike) written into a template built from two probe tenants."""
    built = []
    real = dashboards.tenant
    monkeypatch.setattr(dashboards, "tenant", lambda model, t: built.append(t.name) or real(model, t))
    probes = {p["name"] for p in tenant_board.PROBES}
    artifacts.generate(example_model, tests={})  # every target (files, ACM, provisioning, operator, mixin); no golden
    once = [name for name in built if name not in probes]
    assert len(once) == len(set(once)) and set(once) < {t.name for t in example_model.tenants}
    assert len(built) - len(once) == 2  # the example's three tenants alike: one template
    first = sorted(built)
    built.clear()
    grafana.rendered(example_model)  # outside a render nothing is shared: a fresh build
    assert sorted(built) == first


# content builders a target used to call again (issue 48): (module, function)
BUILDERS = ((spoke, "group"), (hub, "groups"), (alerts, "hub_groups"), (alerts, "allowlist_names"),
            (routing, "config"), (grafana, "provider_boards"))


def test_each_content_builder_runs_once_per_render_for_the_same_content(example_model, monkeypatch):
    """Every target chosen: each builder runs once per model and arguments (the mixin's probe is another model,
    built once by content.build); no target builds the same content again."""
    calls = []

    def counted(module, name):
        real = getattr(module, name)
        return lambda model, *args, **kw: calls.append((name, id(model), args, tuple(kw.items()))) or real(
            model, *args, **kw)

    for module, name in BUILDERS:
        monkeypatch.setattr(module, name, counted(module, name))
    artifacts.generate(example_model, tests={})
    assert set(example_model.outputs.targets) >= {"acm", "mixin"}
    assert {name for name, *_ in calls} == {name for _, name in BUILDERS}
    assert len(calls) == len(set(calls)), sorted((c[0], c[2], c[3]) for c in calls if calls.count(c) > 1)
    assert [c[0] for c in calls].count("groups") == 1  # the hub rules read no source: their own probe


def test_tenant_dashboards_do_not_read_the_sources(example_model):
    """Built from the model without its sources: the mixin's probe reuses them."""
    probe = overrides.probe_model(example_model)
    assert probe.sources != example_model.sources
    for t in example_model.tenants:
        assert _own(probe, t).text == _own(example_model, t).text


def test_acm_variant_text_is_the_substituted_structure_serialised(example_model):
    for t in example_model.tenants:
        own, old = _own(example_model, t), uids.tenant_datasource_uid(t.name)
        acm = tenant_board.variant(own, old, uids.ACM_DATASOURCE_UID)
        want = tenant_board.with_datasource(own.data, old, uids.ACM_DATASOURCE_UID)
        assert acm.text == dump_json(want) and acm.data == want
        assert json.dumps(old) not in acm.text and own.text == dump_json(own.data)  # the board is untouched


def test_acm_variant_falls_back_when_the_uid_is_also_plain_text(example_model):
    """A description naming the datasource uid must not be rewritten with it."""
    t = example_model.tenants[0]
    own, old = _own(example_model, t), uids.tenant_datasource_uid(t.name)
    data = copy.deepcopy(own.data)
    data["panels"][1]["description"] = old
    acm = tenant_board.variant(tenant_board.board(own.stem, data), old, uids.ACM_DATASOURCE_UID)
    assert acm.data["panels"][1]["description"] == old
    assert acm.text == dump_json(tenant_board.with_datasource(data, old, uids.ACM_DATASOURCE_UID))


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.sampled_from(["a", "b", COMMENT, "__comment__x"]), inner, max_size=3),
                     max_leaves=12)


@settings(max_examples=examples(200), deadline=None)
@given(_json)
def test_json_text_is_the_comment_free_dump(data):
    for args in ({"indent": 2, "sort_keys": True, "ensure_ascii": False}, {"separators": (",", ":")}):
        assert json_text(data, **args) == json.dumps(strip_comments(data), **args)


def test_object_size_ignores_comments():
    obj = {COMMENT: "why", "kind": "ConfigMap", "data": {"k": "v"}}
    assert kube.size(obj) == len(json.dumps({"kind": "ConfigMap", "data": {"k": "v"}}, separators=(",", ":")))


def test_mixin_shortcut_for_unchanged_dashboards_equals_the_comparison(example_model):
    data = _own(example_model, example_model.tenants[0]).data
    commented = {COMMENT: "two\nlines", "list": [data["panels"][0], []], "empty": {}, "text": "é\"%"}
    for value in (data, commented):
        assert jsonnet.value(value, value, {}, {}, "x", 1) == jsonnet.value(value, copy.deepcopy(value), {}, {}, "x", 1)


def test_jsonnet_written_once_is_placed_at_any_depth():
    data = {"a": [1, {"b": "x"}, []], "c": {}, "d": {"e": [None, True, 2.5]}}
    written = jsonnet.Written(jsonnet.plain(data, 2), 2)
    for depth in range(4):
        assert jsonnet.value(written, written, {}, {}, "", depth) == jsonnet.plain(data, depth)


def test_templated_acm_variant_falls_back_when_another_value_is_the_uid(example_model):
    """A templated board counts its datasource references in the template (once); a tenant whose namespace is its
    own datasource uid has more occurrences of the token than references, so its variant is the structure's."""
    import dataclasses

    base = example_model.tenants[0]
    ds = uids.tenant_datasource_uid("twin-2")
    tenants = tuple(dataclasses.replace(base, name=f"twin-{i}", namespace=ds if i == 2 else f"twin-ns-{i}")
                    for i in range(4))
    model = dataclasses.replace(example_model, tenants=tenants)
    boards = grafana.tenant_boards(model)
    assert all(b.template is not None for b in boards.values())
    for t in tenants:
        own, old = boards[t.name], uids.tenant_datasource_uid(t.name)
        acm = tenant_board.variant(own, old, uids.ACM_DATASOURCE_UID)
        assert acm.text == dump_json(tenant_board.with_datasource(own.data, old, uids.ACM_DATASOURCE_UID))
    assert ds in tenant_board.variant(boards["twin-2"], ds, uids.ACM_DATASOURCE_UID).text  # as the namespace

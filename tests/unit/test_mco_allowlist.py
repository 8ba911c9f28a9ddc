"""Every raw series a hub alert reads reaches the hub's Thanos: pushed by gpudash's allowlist or ACM's default one."""
from __future__ import annotations

import re

import yaml

from e2e.mco_sim import DEFAULT_NAMES, decode_allowlist
from gpudash.model.load import load_bundled_example
from gpudash.promql.lint import parse, vector_selectors
from gpudash.render import alerts
from gpudash.render.rules import hub, spoke
from gpudash.render.targets.acm import mco

_MATCHER = re.compile(r'(\w+)(=~|!~|!=|=)"((?:[^"\\]|\\.)*)"')
_OPS = {"MatchOp.Equal": "=", "MatchOp.NotEqual": "!=", "MatchOp.Re": "=~", "MatchOp.NotRe": "!~"}


def allowlist_of(model):
    """The rendered allowlist ConfigMap of ``model``'s spoke rules and hub alerts."""
    return mco.allowlist(spoke.group(model), alerts.allowlist_names(model), alerts.allowlist_matches(model))


def _matchers(selector) -> set[tuple[str, str, str]]:
    out = {(m.name, _OPS[str(m.op)], m.value) for m in selector.matchers.matchers}
    return out | ({("__name__", "=", selector.name)} if selector.name else set())


def _covered(selector, names: set[str], matches: list[str]) -> bool:
    """The selector reads only series the allowlist pushes: a listed name, or a ``matches`` entry whose every
    matcher the selector also requires (so it selects a subset of what is pushed)."""
    if selector.name in names:
        return True
    needs = _matchers(selector)
    return any(set(_MATCHER.findall(m)) <= needs for m in matches)


def test_every_raw_series_of_a_hub_alert_is_pushed(tmp_path):
    model = load_bundled_example()
    path = tmp_path / "allowlist.yaml"
    path.write_text(yaml.safe_dump(allowlist_of(model)))
    pushed = decode_allowlist(path)  # merged with ACM's default names, as the collector does
    recorded = {r.record for r in spoke.rules(model)} | {r.record for g in hub.groups(model) for r in g.rules
                                                          if hasattr(r, "record")}
    missing = []
    for group in alerts.hub_groups(model):
        for rule in group.rules:
            for sel in vector_selectors(parse(rule.expr, rule.alert)):
                if sel.name not in recorded and not _covered(sel, set(pushed.names), list(pushed.matches)):
                    missing.append(f"{rule.alert}: {sel}")
    assert missing == []


def test_rule_health_series_need_the_custom_matches(tmp_path):
    """Without gpudash's ``matches`` the rule-health alerts would read nothing (the test above can fail)."""
    model = load_bundled_example()
    body = allowlist_of(model)
    listed = yaml.safe_load(body["data"]["metrics_list.yaml"])
    assert len(listed["matches"]) == 3 and all('rule_group=~".*;gpudash-.*"' in m for m in listed["matches"])
    listed.pop("matches")
    body["data"]["metrics_list.yaml"] = yaml.safe_dump(listed)
    path = tmp_path / "allowlist.yaml"
    path.write_text(yaml.safe_dump(body))
    pushed = decode_allowlist(path)
    integrity = next(g for g in alerts.hub_groups(model) if g.name.endswith("integrity"))
    rule = next(r for r in integrity.rules if r.alert == "GPUBillingRuleFailures")
    assert not any(_covered(s, set(pushed.names), list(pushed.matches)) for s in vector_selectors(parse(rule.expr, "")))
    assert "prometheus_rule_evaluation_failures_total" not in DEFAULT_NAMES

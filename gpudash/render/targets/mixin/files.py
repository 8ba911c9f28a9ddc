"""The mixin's files (``mixin/``): ``config.libsonnet``, ``mixin.libsonnet``, the rules, alerts and dashboards,
its README; the layout and the templating are the package's docstring. Pure; no I/O."""
from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from gpudash.base import layout
from gpudash.base.deferred import Deferred
from gpudash.model.types import Model
from gpudash.render import overrides
from gpudash.render.content import Content
from gpudash.render.grafana import tenant_board
from gpudash.render.grafana.tenant_board import Board
from gpudash.render.rules.format import Group, rule_file
from gpudash.render.targets.mixin import jsonnet


def exposed(rule_groups: tuple[Group, ...], alert_groups: tuple[Group, ...], provider: dict[str, dict[str, Any]],
            tenants: Mapping[str, Mapping[str, object]]) -> dict[str, Any]:
    """What the mixin exposes, as the YAML files hold it: rule groups, alert groups, dashboards by file name."""
    dashboards = {f"{stem}.json": d for group in (provider, *tenants.values()) for stem, d in group.items()}
    return {"prometheusRules": rule_file(rule_groups)["groups"], "prometheusAlerts": rule_file(alert_groups)["groups"],
            "grafanaDashboards": dashboards}


def config(model: Model) -> dict[str, Any]:
    """The model's data a jsonnet user reads beside the selectors: currency, prices, tenants, clusters."""
    prices = {c.name: {"vendor": c.vendor, "products": list(c.products), "pricePerHour": c.price_per_hour,
                       "sharedPricePerHour": c.shared_price_per_hour,
                       "mig": {p.name: p.price_per_hour for p in c.mig}} for c in model.gpu_classes}
    tenants = {t.name: {"namespace": t.namespace, "budget": t.budget, "alertAt": list(t.alert_at)}
               for t in model.tenants}
    return {"currency": model.currency, "prices": prices, "tenants": tenants, "clusters": list(model.clusters)}


HEADER = f"// {layout.HEADER}\n"
FROZEN = ("currency", "prices", "tenants", "clusters")


def _config_libsonnet(model: Model) -> str:
    lines = [HEADER, "{", "  _config+:: {"]
    for name, f in overrides.fields().items():
        lines += [f"    // {f.what}", f"    {name}: {json.dumps(f.get(model.sources))},"]
    lines.append("    // From gpudash.yaml and built into the rules: read them, change them only in the model.")
    lines += [f"    {k}: {jsonnet.value(v, v, {}, {}, k, 2)}," for k, v in config(model).items()]
    return "\n".join([*lines, "  },", "}", ""])


DASHBOARD_DEPTH = 2  # of a dashboard in dashboards.libsonnet (under grafanaDashboards+::, by file name)


def _part(field: str, real: object, probe: object, sentinels: dict[str, str], values: dict[str, str]) -> str:
    """One ``<field>+::`` file: rule and alert groups go under ``groups+:``, dashboards by file name."""
    if field == "grafanaDashboards":
        body = jsonnet.value(real, probe, sentinels, values, field, DASHBOARD_DEPTH - 1)
    else:
        body = "{\n    groups+: " + jsonnet.value(real, probe, sentinels, values, field, 2) + ",\n  }"
    return f"{HEADER}{{\n  {field}+:: {body},\n}}\n"


def _mixin_libsonnet() -> str:
    checks = "\n".join(f"  assert self._config.{k} == rendered._config.{k} : '_config.{k} comes from gpudash.yaml "
                       "(the rules are built from it): change it there and re-render'," for k in FROZEN)
    return (f"{HEADER}local rendered = import '{layout.MIXIN_CONFIG}';\n\n"
            f"(import '{layout.MIXIN_RULES}') +\n(import '{layout.MIXIN_ALERTS}') +\n"
            f"(import '{layout.MIXIN_DASHBOARDS}') +\n"
            f"rendered + {{\n{checks}\n}}\n")


def _tenant_jsonnet(data: dict[str, Any]) -> str:
    return jsonnet.plain(data, DASHBOARD_DEPTH)


# Where a tenant dashboard's jsonnet goes in dashboards.libsonnet: the file is written with a mark in its place
# (NUL cannot appear in jsonnet text: strings are JSON-escaped), then streamed with each mark's dashboard.
_MARK = re.compile("\0([0-9]+)\0")


def _mark(i: int) -> jsonnet.Written:
    return jsonnet.Written(f"\0{i}\0", DASHBOARD_DEPTH)


def _dashboards(text: str, boards: tuple[Board, ...]) -> Iterator[str]:
    """dashboards.libsonnet piece by piece: ``text`` with its marks replaced by the tenant dashboards' jsonnet,
    each written when reached (through its template: tenant_board.text), so a render holds one of them."""
    for i, piece in enumerate(_MARK.split(text)):
        yield piece if i % 2 == 0 else tenant_board.text(boards[int(piece)], _tenant_jsonnet, ascii=True)


def deliver(model: Model, c: Content) -> dict[str, object]:
    """The mixin's files from the render's content ``c`` and its probe (:attr:`Content.probe`: where the ``_config``
    selectors go). The hub rules and the tenant dashboards are their own probes (:mod:`gpudash.render.overrides`);
    a tenant dashboard's jsonnet is placed as written, at a mark (_dashboards)."""
    assert c.probe is not None, "content.build builds the probe when the mixin target is chosen"
    boards = c.tenants
    tenants = {name: {b.stem: _mark(i)} for i, (name, b) in enumerate(boards.items())}
    real = exposed((*c.tier, c.spoke, *c.hub), c.alerts, c.provider, tenants)
    probe = exposed((*c.probe.spoke, *c.hub), c.probe.alerts, c.probe.provider, tenants)
    sentinels = {overrides.sentinel(name): name for name in overrides.fields()}
    values = overrides.defaults(model)
    files: dict[str, object] = {
        layout.mixin_file(name): _part(field, real[field], probe[field], sentinels, values)
        for name, field in ((layout.MIXIN_RULES, "prometheusRules"), (layout.MIXIN_ALERTS, "prometheusAlerts"),
                            (layout.MIXIN_DASHBOARDS, "grafanaDashboards"))}
    dashboards = layout.mixin_file(layout.MIXIN_DASHBOARDS)
    files[dashboards] = Deferred(_dashboards, (files[dashboards], tuple(boards.values())))
    files[layout.mixin_file(layout.MIXIN_CONFIG)] = _config_libsonnet(model)
    files[layout.mixin_file(layout.MIXIN_MAIN)] = _mixin_libsonnet()
    files[layout.mixin_file(layout.MIXIN_BUNDLER)] = {"version": 1, "dependencies": [], "legacyImports": True}
    files[layout.mixin_file(layout.README)] = readme()
    return files


_README = """# gpudash monitoring mixin

Rendered by gpudash from gpudash.yaml: edit the model and re-render, not these files.

The same recording rules, alerts and Grafana dashboards as the YAML files beside this folder, as a jsonnet
mixin in the monitoring-mixins layout: `mixin.libsonnet` exposes `prometheusRules`, `prometheusAlerts` and
`grafanaDashboards`; `config.libsonnet` holds `_config`.

## Vendor it with jsonnet-bundler

    jb init                                   # once, in your jsonnet project
    jb install https://<your git host>/<your gpudash repo>/mixin@main

Then compose it like any mixin (kube-prometheus, `mixtool generate all`):

    local gpudash = (import 'gpudash-mixin/mixin.libsonnet') + {{
      _config+:: {{ {job}: 'gpu-{source}' }},
    }};
    {{
      'gpudash.rules.json': gpudash.prometheusRules,
      'gpudash.alerts.json': gpudash.prometheusAlerts,
    }} + {{
      ['dashboards/' + name]: gpudash.grafanaDashboards[name]
      for name in std.objectFields(gpudash.grafanaDashboards)
    }}

## `_config`

* Selectors ({selectors}) are templated into every rule, alert and dashboard query: override
  them to match your installation.
  Each value is pasted inside a PromQL string (`job=~"%({job})s"`): the job values are RE2
  regexes (kube-state-metrics' is matched exactly), the labels are label names.
* `currency`, `prices`, `tenants` and `clusters` are there to read. The rules are built from them, so an
  override fails evaluation with a message: change them in gpudash.yaml and re-render.
"""


def readme() -> str:
    """The mixin's README.md: the selectors of :func:`gpudash.render.overrides.fields` (four to a line), its example
    overriding the first vendor's exporter job."""
    fields = [f"`{name}`" for name in overrides.fields()]
    selectors = ",\n  ".join(", ".join(fields[i:i + 4]) for i in range(0, len(fields), 4))
    job = next(name for name in overrides.fields() if name.endswith(overrides.EXPORTER_JOB))
    return _README.format(selectors=selectors, job=job, source=job.removesuffix(overrides.EXPORTER_JOB))

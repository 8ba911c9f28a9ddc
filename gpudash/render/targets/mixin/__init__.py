"""``mixin``: a monitoring mixin (``mixin/``) for kube-prometheus and monitoring-mixins users, vendored with
jsonnet-bundler.

The layout follows kubernetes-monitoring/kubernetes-mixin and prometheus/node_exporter docs/node-mixin:
``mixin.libsonnet`` joins ``rules.libsonnet`` (``prometheusRules``), ``alerts.libsonnet``
(``prometheusAlerts``), ``dashboards.libsonnet`` (``grafanaDashboards``) and ``config.libsonnet`` (``_config``).
Its content is the render's rules, alerts and dashboards themselves (no second definition, no second build): the
selectors of :func:`gpudash.render.overrides.fields` are templated from ``_config`` where the content's probe
differs from it (see :mod:`.jsonnet`); prices and tenants are in ``_config`` for reading, and an override of them
fails evaluation (they are priced into the rules: change them in gpudash.yaml and re-render). Pure; no I/O.
"""
from gpudash.render.targets.mixin.files import config, deliver, exposed, readme

__all__ = ["config", "deliver", "exposed", "readme"]

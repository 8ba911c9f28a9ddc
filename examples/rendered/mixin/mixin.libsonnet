// Rendered by gpudash from the model (gpudash.yaml): edit the model and re-render, not this file.
local rendered = import 'config.libsonnet';

(import 'rules.libsonnet') +
(import 'alerts.libsonnet') +
(import 'dashboards.libsonnet') +
rendered + {
  assert self._config.currency == rendered._config.currency : '_config.currency comes from gpudash.yaml (the rules are built from it): change it there and re-render',
  assert self._config.prices == rendered._config.prices : '_config.prices comes from gpudash.yaml (the rules are built from it): change it there and re-render',
  assert self._config.tenants == rendered._config.tenants : '_config.tenants comes from gpudash.yaml (the rules are built from it): change it there and re-render',
  assert self._config.clusters == rendered._config.clusters : '_config.clusters comes from gpudash.yaml (the rules are built from it): change it there and re-render',
}

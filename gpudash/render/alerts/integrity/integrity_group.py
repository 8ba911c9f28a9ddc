"""The billing-data integrity group: its alerts and their promtool tests, one function each, in order."""
from __future__ import annotations

from gpudash.model import alert_names as an
from gpudash.model.types import Model
from gpudash.render.alerts import common as c
from gpudash.render.alerts import promtool as pt
from gpudash.render.alerts.integrity import pushing, rule_health, sources, unbilled

# One function per alert, in the group's order; sources.exporter_missing is None when no vendor has an exporter,
# unbilled.energy_unallocated None without an energy section, sources.input_missing gives one rule per input.
_ALERTS = (pushing.not_reporting, pushing.gap, sources.ksm_down, sources.exporter_missing, unbilled.unpriced,
           unbilled.energy_unallocated, sources.input_missing, sources.no_product, unbilled.unscheduled,
           rule_health.rule_failures, rule_health.rule_slow)
# Their promtool tests, in the same order.
_TESTS = (pushing.not_reporting_tests, pushing.gap_tests, sources.ksm_tests, sources.exporter_missing_tests,
          unbilled.unpriced_tests, unbilled.energy_tests, sources.input_missing_tests, sources.no_product_tests,
          unbilled.unscheduled_tests, rule_health.rule_tests)


def alerts(model: Model) -> tuple:
    built = (build(model) for build in _ALERTS)
    return tuple(rule for out in built for rule in (out if isinstance(out, tuple) else (out,)) if rule is not None)


def group(model: Model):
    return c.group(an.GROUP_INTEGRITY, model, "Billing-data integrity: every cluster pushing, allocation measured,"
                   "\nevery GPU-hour priced, billing rules evaluating. Routed to the provider.", alerts(model))


def tests(model: Model) -> dict:
    groups = [g for family in _TESTS for g in family(model)]
    return pt.test_file(model, groups, "Billing-data integrity alerts, fed pushed and recorded series directly.")

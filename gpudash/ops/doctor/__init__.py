"""Checks that a live spoke or hub is ready to bill: what the rules read is there, labelled and priced as the
model assumes, and the rules run. Each check reads the Prometheus HTTP API through
:class:`gpudash.ops.prometheus_client.Prometheus` and gives one :class:`Check` (ok / warn / fail, what was found,
the fix); :func:`run` runs a role's checks. The checks live in modules named for what they check."""
from gpudash.ops.doctor.check import FAIL, OK, WARN, Check
from gpudash.ops.doctor.exporter_scrape import exporters
from gpudash.ops.doctor.prometheus_storage import PLATFORM_NAMESPACE, storage
from gpudash.ops.doctor.roles import ROLES, run

__all__ = ["FAIL", "OK", "PLATFORM_NAMESPACE", "ROLES", "WARN", "Check", "exporters", "run", "storage"]

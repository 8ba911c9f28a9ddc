"""The e2e tests' Prometheus: :mod:`gpudash.ops.demo.prometheus` (the server, queries and backfill, in the package
so ``gpudash demo`` can use it) on a pinned Prometheus version picked by name (:mod:`e2e.toolsets`)::

    with Prometheus(tmp_path / "prom", rule_files=[...], toolset="3") as prom:
        prom.backfill_openmetrics(day_files)
        prom.backfill_rules([spoke, hub], start, end)
        prom.query("sum(x)", time=end)
"""
from __future__ import annotations

from e2e import toolsets
from gpudash.ops.demo import prometheus
from gpudash.ops.demo.prometheus import (  # noqa: F401  (the names e2e tests and benchmarks import from here)
    RETENTION,
    Binaries,
    QueryError,
    ToolMissing,
    free_port,
    go_env,
    has_at_modifier,
)
from gpudash.ops.demo.rule_levels import rule_levels  # noqa: F401
from gpudash.ops.demo.rule_timing import _labels_bytes, group_eval_start, xxh64  # noqa: F401

# GOGC of every Prometheus server and promtool run the e2e tests start (the Go runtime's default is 100): their
# heaps are small and short-lived, so collecting four times less often buys CPU for memory the machine has.
GOGC = 400


def tools(toolset: str = toolsets.DEFAULT) -> tuple[str, str]:
    """Paths of ``prometheus`` and ``promtool`` of a Prometheus toolset ("2" is PATH's, "3" the fetched 3.x);
    raises :class:`ToolMissing`."""
    found = toolsets.find(toolset)
    if found.missing:
        raise ToolMissing(found.missing)
    return found.prometheus, found.promtool


class Prometheus(prometheus.Prometheus):
    """:class:`gpudash.ops.demo.prometheus.Prometheus` on the toolset ``toolset`` (``e2e.toolsets``)."""

    def __init__(self, workdir, rule_files=(), config_extra: dict | None = None, args=(),
                 toolset: str = toolsets.DEFAULT, gogc: int | None = GOGC):
        prom, promtool = tools(toolset)
        self.toolset = toolsets.find(toolset)
        super().__init__(workdir, rule_files, config_extra, args,
                         binaries=Binaries(prom, promtool, self.toolset.labels_encoding), gogc=gogc)

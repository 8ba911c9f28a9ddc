"""Single cluster without ACM: a month of raw history in one Prometheus, the rendered spoke and hub rule files
backfilled level by level, every hour's bill and CCSP figures compared with the reference model.

CCSP on MIG and time-sliced nodes (mixed and single strategy MIG, time-sliced slices): on every hour where
dcgm-exporter reported (the month's last day), each node's maximum equals the physical GPUs dcgm-exporter shows
holding a pod, including hours where that is more than the fewest GPUs that could hold the allocation."""
from __future__ import annotations

import pytest

from e2e import pipeline, toolsets
from gpudash import layout

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.mark.parametrize("toolset", toolsets.params())
def test_month_single_cluster(tmp_path, prometheus_factory, e2e_cache, month, stopwatch, toolset):
    model, mock, rendered = month
    blocks, built = pipeline.cached_blocks(e2e_cache, model, mock, toolset=toolset)
    stopwatch("history")
    cluster = mock.scenario.clusters[0]
    prom = pipeline.prometheus_with_blocks(tmp_path / "spoke", blocks[cluster], toolset=toolset)
    prometheus_factory.track(prom)
    stopwatch("start")
    start, end = mock.start, mock.at(mock.scenario.duration)
    files = [rendered / layout.SPOKE_RULES, rendered / layout.HUB_RULES]
    levels = prom.backfill_rules(files, start, end, method="query")
    stopwatch("rules_backfill")
    assert len(levels) >= 3, levels
    refs = pipeline.references(model, mock, toolset)
    hours = range(0, mock.scenario.duration // 60 - 2)
    problems, counts = pipeline.compare_hub(prom, model, mock, refs, hours, cluster_label=False, clusters=[cluster])
    stopwatch("compare")
    assert counts["gpu_hours"] > 700 and counts["node_max"] > 700, counts
    assert not problems, f"{len(problems)} mismatches (of {counts}):\n" + "\n".join(problems[:25])
    assert not pipeline.shared_ccsp_gaps(mock, counts, [cluster]), counts["shared"]

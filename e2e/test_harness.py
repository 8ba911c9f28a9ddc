"""The harness itself: rule levels, Prometheus's group evaluation offsets, and the query backfill method giving
exactly the samples promtool's rules backfill gives."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from e2e import pipeline, toolsets
from e2e.harness import _labels_bytes, group_eval_start, rule_levels, xxh64
from gpudash.base import layout
from gpudash.model import series as names

HOUR = 3600


def test_xxh64_known_values():
    assert xxh64(b"") == 0xEF46DB3751D8E999
    assert xxh64(b"abc") == 0x44BC2CF5AD770999
    assert xxh64(b"Nobody inspects the spammish repetition") == 0xFBCEA83C8A378BF1


def test_rule_levels_follow_recorded_names(tmp_path):
    model, _ = pipeline.load()
    rendered = pipeline.render(model, tmp_path / "r", rules_only=True)
    groups = [g for f in ("gpudash-spoke", "gpudash-hub") for g in
              yaml.safe_load((rendered / layout.RULES / f"{f}.rules.yaml").read_text())["groups"]]
    levels = rule_levels(groups)
    where = {rec: i for i, level in enumerate(levels) for rec in level}
    assert where["namespace_product_resource:gpudash_gpu_hours:previous_hour"] == 0
    assert where["cluster_namespace_class_resource:gpudash_cost:last_hour"] > where[
        "namespace_product_resource:gpudash_gpu_hours:previous_hour"]
    assert where[names.TENANT_COST_PROJECTED] == len(levels) - 1


@pytest.mark.e2e
@pytest.mark.parametrize("toolset", toolsets.params())
def test_query_backfill_equals_promtool(tmp_path: Path, prometheus_factory, e2e_cache, toolset):
    """Both backfill methods write the same samples at the same timestamps for every rule of both files."""
    model, mock = pipeline.load()
    rendered = pipeline.render(model, tmp_path / "rendered", rules_only=True)
    blocks, _ = pipeline.cached_blocks(e2e_cache, model, mock, toolset=toolset)
    east = mock.scenario.clusters[0]
    # around the trainer's crash and recreation (10d 4h17m), short jobs nearby; one 2 h block per rule, as
    # promtool's cost is per rule and block
    start = mock.at(10 * 1440 + 4 * 60)
    end = start + 2 * HOUR - 60
    files = [rendered / layout.SPOKE_RULES, rendered / layout.HUB_RULES]
    out = {}
    for method in ("promtool", "query"):
        prom = pipeline.prometheus_with_blocks(tmp_path / method, blocks[east], toolset=toolset)
        prometheus_factory.track(prom)
        # the same level file paths for both, so promtool's group offsets (hash of name and file) match
        prom.workdir = tmp_path / "levels"
        prom.workdir.mkdir(exist_ok=True)
        levels = prom.backfill_rules(files, start, end, method=method)
        out[method] = {rec: prom.samples(f'{{__name__="{rec}"}}', start - 1, end + 1)
                       for level in levels for rec in level}
        prom.stop()
    assert out["promtool"].keys() == out["query"].keys()
    for rec in out["promtool"]:
        assert out["query"][rec] == out["promtool"][rec], rec
    assert sum(len(s) for v in out["query"].values() for _, s in v) > 1000


def test_group_offsets_are_prometheus_offsets():
    # A group evaluated every 5 minutes gets a fixed offset within the interval, the same for every start.
    a = group_eval_start("gpudash-hub-billing", 300, 1_790_812_800, "f.yaml")
    b = group_eval_start("gpudash-hub-billing", 300, 1_790_812_800 + 7 * 300 + 1, "f.yaml")
    assert 0 <= a - 1_790_812_800 < 300 and (b - a) % 300 == 0 and b >= 1_790_812_800 + 7 * 300 + 1


def test_group_hash_bytes_follow_the_labels_encoding():
    """Prometheus 3.5's default stringlabels hashes length-prefixed strings, so a group's evaluation offset differs
    from Debian's 2.42 (slicelabels) for the same file and name (model/labels/labels_stringlabels.go)."""
    long = "d" * 300
    assert _labels_bytes({"name": "g", "file": "f"}, "slicelabels") == b"file\xfff\xffname\xffg\xff"
    assert _labels_bytes({"name": "g", "file": long}, "stringlabels") == (
        b"\x04file\xff\x2c\x01\x00" + long.encode() + b"\x04name\x01g")
    assert _labels_bytes({"name": "g", "file": long}, "stringlabels-varint") == (
        b"\x04file\xac\x02" + long.encode() + b"\x04name\x01g")
    offsets = {enc: group_eval_start("gpudash-hub-billing", 300, 1_790_812_800, "f.yaml", enc)
               for enc in ("slicelabels", "stringlabels")}
    assert offsets["slicelabels"] != offsets["stringlabels"]

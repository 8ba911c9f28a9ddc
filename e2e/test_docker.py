"""The optional Docker backend: a containerised Prometheus loads the rendered rules and serves queries.
Skips cleanly where no Docker engine answers (as on this project's CI machines)."""
from __future__ import annotations

import pytest

from e2e import pipeline
from e2e.docker_backend import DockerPrometheus, unavailable
from gpudash.base import layout

pytestmark = [pytest.mark.e2e]


def test_docker_prometheus_loads_rendered_rules(tmp_path):
    why = unavailable()
    if why:
        pytest.skip(why)
    model, _ = pipeline.load()
    rendered = pipeline.render(model, tmp_path / "rendered", rules_only=True)
    prom = DockerPrometheus(tmp_path / "docker", rule_files=[rendered / layout.SPOKE_RULES,
                                                             rendered / layout.HUB_RULES])
    try:
        prom.start()
        groups = prom.api("rules")["groups"]
        assert {g["name"] for g in groups} >= {"gpudash-spoke", "gpudash-hub-billing"}
        assert prom.query("vector(1)", 1_790_812_800) == [((), 1.0)]
    finally:
        prom.stop()

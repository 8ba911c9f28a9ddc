"""The synthetic GPU cluster without a Prometheus: mock files, history files, live exposition, fast reference."""
from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from e2e import pipeline
from gpudash.base.errors import InputError
from gpudash.ops.mock import config
from gpudash.ops.mock.history import write_history
from gpudash.ops.mock.server import MockServer
from gpudash.ops.mock.timeline import FastReference, Timeline, for_cluster
from gpudash.simulation.reference import Reference

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def model():
    return pipeline.load()[0]


def _small(**extra) -> dict:
    raw = yaml.safe_load((pipeline.DATA / "live.mock.yaml").read_text())
    raw.update({"duration": "6h", **extra})
    return raw


def test_utilisation_schedule_expands():
    steps = config.utilisation_steps({"schedule": [{"percent": 80, "for": "1h"}, {"percent": 0, "for": "1h"}],
                                      "repeat": 5, "then": 10}, first=7)
    assert steps[0] == {"at": 7, "percent": 80.0} and steps[1] == {"at": 67, "percent": 0.0}
    assert len(steps) == 11 and steps[-1] == {"at": 7 + 600, "percent": 10.0}


def test_jobs_stream_is_deterministic(model):
    raw = _small(workload=[{"jobs": {"name": "etl", "tenant": 0, "pool": "a100", "every": "30m", "run": "7m",
                                     "jitter": "3m", "until": "5h", "seed": 3, "fail_every": 4}}])
    a, b = config.compile_mock(raw, model), config.compile_mock(raw, model)
    assert a.scenario.pods == b.scenario.pods and len(a.scenario.pods) == 10
    assert sum(1 for p in a.scenario.pods if any(e.phase == "Failed" for e in p.lifecycle)) == 2


def test_bad_mock_names_the_problem(model):
    with pytest.raises(InputError, match="pool"):
        config.compile_mock({"node_pools": [{"name": "x", "nodes": 1}], "workload": []}, model)
    with pytest.raises(InputError, match="whole UTC hour"):
        config.compile_mock(_small(start="2026-10-01T00:30:00Z"), model)


def test_history_files_are_what_promtool_needs(tmp_path, model):
    mock = config.compile_mock(_small(duration="1d2h"), model)
    stats = write_history(mock, model, tmp_path)
    assert [f.name for f in stats.files] == ["2026-10-01.om", "2026-10-02.om"]
    text = stats.files[0].read_text()
    assert text.endswith("# EOF\n")
    last: dict[str, float] = {}
    families, current = [], None
    for line in text.splitlines()[:-1]:
        if line.startswith("# TYPE "):
            current = line.split()[2]
            families.append(current)
            continue
        series, _, ts = line.rpartition(" ")
        assert series.startswith(current)
        t = float(ts)
        assert 1.79e9 < t < 1.80e9, "timestamps in seconds"
        assert t > last.get(series.rsplit(" ", 1)[0], 0), "samples in time order per series"
        last[series.rsplit(" ", 1)[0]] = t
    assert len(families) == len(set(families)), "each family contiguous"
    assert 'kube_pod_status_phase{' in text and 'exported_namespace="team-alpha"' in text
    assert 'GPU_I_PROFILE="1g.10gb"' in text and 'up{instance="kube-state-metrics:8443"' in text


def test_fast_reference_agrees_with_the_golden_reference(model):
    _, mock = pipeline.load()
    cluster = mock.scenario.clusters[0]
    short = for_cluster(mock.scenario, cluster)
    import dataclasses

    short = dataclasses.replace(short, duration=2 * 1440 + 180)  # days 0-2: restart, init container, jobs
    fast, slow = FastReference(short, model), Reference(short, model)
    for h in range(0, short.duration // 60):
        assert fast.billing(h) == slow.billing(h), h
        assert fast.node_max(h) == slow.node_max(h), h


def test_energy_counters_follow_the_served_power(model):
    """The mock's energy counters are the golden definition (gpudash.simulation.devices.energy_counter) at every
    minute, rise by the power it serves, and restart at a driver reload; the fast reference's energy is the
    golden reference's."""
    from gpudash.simulation.devices import energy_counter

    mock = config.compile_mock(_small(faults=[{"kind": "driver_reload", "node": "a100-0", "at": "97m"}]), model)
    cluster = mock.scenario.clusters[0]
    tl = Timeline(mock, model, cluster)
    nodes = {n.name: n for n in mock.scenario.nodes}
    reset = 0
    for m in range(1, 240):
        for key, mj in tl.counters(m)["dcgm"].items():
            d = dict(key)
            node = nodes[d.get("Hostname") or d.get("hostname")]
            assert mj == round(energy_counter(mock.scenario, node, int(d["gpu"]))[m] * 1000), (m, key)
            power = [v for k, v in tl.exposed(m)["dcgm"].items() if dict(k)["__name__"] == "DCGM_FI_DEV_POWER_USAGE"
                     and dict(k)["gpu"] == d["gpu"] and node.name in dict(k).values()]
            rise = mj - tl.counters(m - 1)["dcgm"][key]
            reset += rise < 0
            assert rise == (power[0] * 60_000 if m != 97 or node.name != "a100-0" else -tl.counters(m - 1)["dcgm"][key])
    assert reset == 8, "every GPU of a100-0 restarts from 0 at the reload"
    fast, slow = FastReference(mock.scenario, model), Reference(mock.scenario, model)
    for h in range(4):
        assert fast.energy(h) == slow.energy(h) and fast.fleet_energy(h) == slow.fleet_energy(h), h
    assert fast.energy(1)[(cluster, "team-alpha")] > 0


def test_timeline_changes_only_at_change_minutes(model):
    mock = config.compile_mock(_small(), model)
    tl = Timeline(mock, model, mock.scenario.clusters[0])
    assert tl.exposed(6.5) is tl.exposed(7.9)  # minutes 6..8 are one segment
    pods = {dict(k).get("pod") for k in tl.exposed(7)["ksm"] if dict(k)["__name__"] == "kube_pod_status_phase"}
    assert "doomed" not in pods and "steady" in pods


def test_server_paths_and_hot_reload(tmp_path, model):
    path = tmp_path / "m.yaml"
    path.write_text(yaml.safe_dump(_small()))
    with MockServer(path, model, port=0, t0=time.time() - 35) as server:  # 3.5 scenario minutes in
        base = f"http://{server.address}"
        ksm = urllib.request.urlopen(f"{base}/ksm/metrics").read().decode()
        dcgm = urllib.request.urlopen(f"{base}/dcgm/metrics").read().decode()
        assert 'kube_pod_status_phase{namespace="team-beta",phase="Running",pod="batch"' in ksm
        assert "job=" not in ksm and "# TYPE kube_pod_container_resource_requests gauge" in ksm
        assert 'namespace="team-alpha"' in dcgm and 'pod="steady"' in dcgm and "exported_" not in dcgm
        assert 'GPU_I_PROFILE="1g.10gb"' in dcgm and "DCGM_FI_DEV_FB_FREE" in dcgm
        assert "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{" in dcgm
        raw = yaml.safe_load(path.read_text())
        raw["workload"][0]["containers"][0]["requests"]["gpu"] = 3
        path.write_text(yaml.safe_dump(raw))
        time.sleep(0.6)
        ksm = urllib.request.urlopen(f"{base}/ksm/metrics").read().decode()
        assert 'pod="steady",resource="nvidia_com_gpu",uid=' in ksm and server.cluster.reloads == 1
        line = next(x for x in ksm.splitlines() if x.startswith("kube_pod_container_resource_requests")
                    and 'pod="steady"' in x)
        assert line.endswith(" 3")
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{base}/nope")


def test_cli_history_and_bill(tmp_path):
    live = str(pipeline.DATA / "live.mock.yaml")
    out = subprocess.run([sys.executable, "-m", "gpudash", "mock", "bill", "-f", live, "-c", str(pipeline.MODEL),
                          "--hours", "0:2"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    rows = out.stdout.splitlines()
    assert rows[0].startswith("hour_start,cluster") and any("team-alpha" in r for r in rows[1:])
    out = subprocess.run([sys.executable, "-m", "gpudash", "mock", "history", "-f", live, "-c", str(pipeline.MODEL),
                          "-o", str(tmp_path), "--jobs", "ksm"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in (tmp_path / "prod-east").iterdir()) == ["2026-10-01.om", "2026-10-02.om"]

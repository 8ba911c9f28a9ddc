"""End to end: ``gpudash prune`` against a real Prometheus holding the idle story and a stand-in kube-apiserver.

At 02:00 of the report story (e2e/test_reports.py) with a 30 min idle window: notebook-0 (Notebook nb-alice)
never used its GPU and infer-0 has been idle since 01:10, but infer-1 of the same Deployment is busy.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from e2e import harness
from e2e import test_reports as story
from gpudash.alerts import idle as idle_alert
from gpudash.model import load_model
from gpudash.prune import plan
from gpudash.rules import names
from tests.conftest import ROOT
from tests.kube_apiserver import ApiServer

AT = story.ts("2026-02-01T02:00:00")
NS = "team-a"


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    try:
        harness.tools()
    except harness.ToolMissing as err:
        pytest.skip(str(err))
    work = tmp_path_factory.mktemp("prune-hub")
    model_file = work / "gpudash.yaml"
    model_file.write_text(yaml.safe_dump(story.MODEL, sort_keys=False))
    om = work / "pushed.om.txt"
    om.write_text(story.openmetrics())
    prom = harness.Prometheus(work / "prom")
    try:
        prom.start()
        prom.backfill_openmetrics([om])
        needed = {names.POD_COST_RATE, names.POD_IDLE}
        rules = story.hub_rule_file(load_model(model_file), work / "hub.rules.yaml", needed)
        prom.backfill_rules([rules], AT - 3 * 3600, AT)
        prom.model = load_model(model_file)
        yield prom
    finally:
        prom.stop()


def cluster(api: ApiServer, notebook_annotations=None, namespace_annotations=None) -> None:
    """The east cluster's objects: Notebook nb-alice -> StatefulSet -> notebook-0; Deployment infer ->
    ReplicaSet -> infer-0, infer-1; a bare pod dev-0 elsewhere."""
    api.add("v1", "namespaces", {"metadata": {"name": NS, "annotations": namespace_annotations or {}}})
    api.add("kubeflow.org/v1", "notebooks", {"metadata": {"name": "nb-alice", "namespace": NS,
                                                         "annotations": notebook_annotations or {}}, "spec": {}})
    owner = {"controller": True, "apiVersion": "kubeflow.org/v1", "kind": "Notebook", "name": "nb-alice", "uid": "u"}
    api.add("apps/v1", "statefulsets", {"metadata": {"name": "nb-alice", "namespace": NS, "ownerReferences": [owner]},
                                        "spec": {"replicas": 1}})
    sts = {"controller": True, "apiVersion": "apps/v1", "kind": "StatefulSet", "name": "nb-alice", "uid": "u"}
    api.add("v1", "pods", {"metadata": {"name": "notebook-0", "namespace": NS, "ownerReferences": [sts]}})
    api.add("apps/v1", "deployments", {"metadata": {"name": "infer", "namespace": NS}, "spec": {"replicas": 2}})
    dep = {"controller": True, "apiVersion": "apps/v1", "kind": "Deployment", "name": "infer", "uid": "u"}
    api.add("apps/v1", "replicasets", {"metadata": {"name": "infer-7d9", "namespace": NS, "ownerReferences": [dep]},
                                       "spec": {"replicas": 2}})
    rs = {"controller": True, "apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "infer-7d9", "uid": "u"}
    for pod in ("infer-0", "infer-1"):
        api.add("v1", "pods", {"metadata": {"name": pod, "namespace": NS, "ownerReferences": [rs]}})


def prune(api: ApiServer, tmp_path, hub, *args) -> tuple[int, list[dict], str]:
    cmd = [sys.executable, "-m", "gpudash", "prune", "--kubeconfig", api.kubeconfig(tmp_path / "kubeconfig"),
           "--prometheus-url", hub.url, "--cluster", "east", "--idle-window", "30m", "--time", str(AT), *args]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    return r.returncode, [json.loads(line) for line in r.stdout.splitlines()], r.stderr


def by_result(lines) -> dict:
    out: dict[str, list] = {}
    for line in lines:
        out.setdefault(line["result"], []).append(line)
    return out


def test_the_pruner_reads_what_the_alert_fires_for(hub):
    alert = hub.query(idle_alert._expr(hub.model), AT)
    pruned = hub.query(plan.idle_query(450, cluster="east"), AT)
    assert sorted(dict(lb)["pod"] for lb, _ in alert) == sorted(dict(lb)["pod"] for lb, _ in pruned) \
        == ["infer-0", "notebook-0"]


def test_dry_run_then_scale_down_then_restore(hub, tmp_path):
    with ApiServer() as api:
        cluster(api)
        code, lines, err = prune(api, tmp_path, hub)
        assert code == 0, err
        dry = by_result(lines)
        assert [(x["kind"], x["name"]) for x in dry["dry-run"]] == [("Notebook", "nb-alice")]
        assert dry["skipped"][0]["name"] == "infer" and "still use" in dry["skipped"][0]["reason"]
        assert not api.events and not [r for r in api.requests if r[0] == "PATCH"]
        code, lines, err = prune(api, tmp_path, hub, "--run-mode", "scale-down", "--daemon", "--cycles", "2",
                                 "--check-interval", "0s")
        assert code == 0, err
        real = by_result(lines)
        stopped = real["stopped"]
        assert len(stopped) == 1 and {k: v for k, v in stopped[0].items() if k in dry["dry-run"][0]
                                      and k not in ("mode", "result", "time")} == \
            {k: v for k, v in dry["dry-run"][0].items() if k not in ("mode", "result", "time")}  # same shape
        assert any(x["reason"] == "already stopped" for x in real["skipped"])  # second cycle
        nb = api.get(f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb-alice")
        assert plan.NOTEBOOK_STOPPED in nb["metadata"]["annotations"]
        assert [(e["reason"], e["involvedObject"]["name"]) for e in api.events] == [(plan.REASON, "nb-alice")]
        assert "3.20 USD/hour" in api.events[0]["message"]
        code, lines, err = prune(api, tmp_path, hub, "--restore", f"{NS}/Notebook/nb-alice")
        assert code == 0, err
        assert plan.NOTEBOOK_STOPPED not in api.get(f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb-alice")[
            "metadata"]["annotations"]


def test_deployment_scale_down_and_restore(hub, tmp_path):
    with ApiServer() as api:
        cluster(api)
        path = f"/apis/apps/v1/namespaces/{NS}/deployments/infer"
        api.objects[path]["spec"]["replicas"] = 2
        # infer-1 is busy: the Deployment is never scaled; a namespace-less pattern for infer only shows the skip
        code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down")
        assert api.get(path)["spec"]["replicas"] == 2
        # restore refuses a workload gpudash did not stop
        code, _, err = prune(api, tmp_path, hub, "--restore", f"{NS}/Deployment/infer")
        assert code == 2 and "not stopped by gpudash prune" in err and "Traceback" not in err


def test_opt_out_on_workload_and_namespace(hub, tmp_path):
    off = {plan.OPT_OUT: "false"}
    for kwargs in ({"notebook_annotations": off}, {"namespace_annotations": off}):
        with ApiServer() as api:
            cluster(api, **kwargs)
            code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down")
            assert code == 0 and "stopped" not in by_result(lines) and not api.events
            assert any("opt" in x.get("reason", "") or plan.OPT_OUT in x.get("reason", "") for x in lines)


def test_cap_and_api_errors_mid_cycle(hub, tmp_path):
    with ApiServer() as api:
        cluster(api)
        code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down", "--max-actions", "0")
        assert code == 0 and not api.events
        assert any("--max-actions 0" in x.get("reason", "") for x in lines)
        api.forbid.add(("PATCH", f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb-alice"))
        code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down")
        errors = by_result(lines)["error"]
        assert code == 0 and len(errors) == 1 and "403 Forbidden" in errors[0]["error"] and not api.events
        api.forbid.clear()
        del api.objects[f"/api/v1/namespaces/{NS}/pods/infer-0"]
        code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down")
        result = by_result(lines)
        assert "404 NotFound" in result["error"][0]["error"] and len(result["stopped"]) == 1  # the loop went on


def test_missing_metrics_are_never_idleness(hub):
    # notebook-0 keeps a cost after its activity series stop: not idle, reported as skipped
    unobserved = hub.query(plan.unobserved_query(450, cluster="east"), AT)
    idle = {dict(lb)["pod"] for lb, _ in hub.query(plan.idle_query(450, cluster="east"), AT)}
    assert not ({dict(lb)["pod"] for lb, _ in unobserved} & idle)

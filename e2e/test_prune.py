"""End to end: ``gpudash prune`` against a real Prometheus holding the idle story and a stand-in kube-apiserver.

The report story (e2e/test_reports.py) plus a wholly idle Deployment ``chat`` (chat-0 and chat-1, one 1g.10gb
MIG slice each at 0.55/h, busy until 01:20), shifted in time so that its 02:00 is the present: the same Prometheus
then evaluates the rendered GPUAllocatedIdle alert live and writes real ``ALERTS`` series (promtool's rule
backfill skips alerting rules). With the 30 min idle window, at 02:00: chat-0 and chat-1 are idle since 01:20,
notebook-0 (Notebook nb-alice) never used its GPU, infer-0 has been idle since 01:10 but infer-1 of the same
Deployment is busy.
"""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import time

import pytest
import yaml

from e2e import pushed_story as pushed
from e2e import test_reports as story
from e2e.harness import Prometheus, free_port
from gpudash.base.yamlfmt import strip_comments
from gpudash.model import alert_names, load_bundled_example, load_model
from gpudash.model import series as names
from gpudash.queries import prune_plan as plan
from gpudash.render.alerts import idle as idle_alert
from gpudash.render.alerts import pruner_effect as prune_alert
from gpudash.render.rules.format import rule_file
from tests.conftest import ROOT
from tests.prune_cluster import pod
from tests.standins import ApiServer

STORY_AT = story.ts("2026-02-01T02:00:00")  # the story's "now"
NS = "team-a"
CHAT = [("east", NS, pod, "gpu-1", story.A100, story.MIG_1G, 1, story.ts("2026-02-01T00:00:00"),
         story.ts("2026-02-01T04:00:00"), "chat", "Deployment", "NVIDIA A100-SXM4-80GB",
         lambda m: 0.7 if m < story.ts("2026-02-01T01:20:00") else 0.0) for pod in ("chat-0", "chat-1")]
RULE_STEP = 60  # hub rules backfilled every minute, so the latest idle sample is at most a minute old
FIRING = f'ALERTS{{alertname="{alert_names.IDLE}", alertstate="firing"}}'


def shifted(pods, shift: int) -> list[tuple]:
    return [(*p[:7], p[7] + shift, p[8] + shift, *p[9:12], lambda m, f=p[12]: f(m - shift)) for p in pods]


@pytest.fixture(scope="module")
def hub(tmp_path_factory, pushed_hub):
    work = tmp_path_factory.mktemp("prune-model")
    model_file = work / "gpudash.yaml"
    model_file.write_text(yaml.safe_dump(story.MODEL, sort_keys=False))
    model = load_model(model_file)
    shift = (int(time.time()) - STORY_AT) // pushed.STEP * pushed.STEP  # whole minutes: pushes keep their phase
    at = STORY_AT + shift
    series = pushed.Series()
    for t in range(story.PUSH_FROM + shift, at + 1, story.PUSH):  # nothing pushed after "now"
        pushed.push(series, shifted(story.PODS + CHAT, shift), ("east", "west"), t, story.PUSH)
    # the rendered idle alert, evaluated live every 5 s instead of every push (its expression unchanged)
    alerts = strip_comments(rule_file([idle_alert.group(model)]))
    for g in alerts["groups"]:
        g["interval"] = "5s"
    alert_file = work / "idle.alerts.yaml"
    alert_file.write_text(yaml.safe_dump(alerts, sort_keys=False))
    groups = story.hub_rule_groups(model, {names.POD_COST_RATE, names.POD_IDLE})
    prom = pushed_hub("prune-hub", series.openmetrics(), groups, at - 3 * 3600, at, eval_interval=RULE_STEP,
                      rule_files=[alert_file])
    prom.model, prom.at = model, at
    return prom


def firing(hub) -> tuple[float, set[tuple[str, str, str]]]:
    """(time, {(workload_type, workload, pod)}) of the first evaluation of the live alert that fires."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        now = time.time()
        found = hub.query(FIRING, now)
        if found:
            return now, {(lb["workload_type"], lb["workload"], lb["pod"]) for lb in (dict(x) for x, _ in found)}
        time.sleep(1)
    raise AssertionError(f"{alert_names.IDLE} never fired; log:\n{hub.log_tail()}")


def cluster(api: ApiServer, notebook_annotations=None, namespace_annotations=None) -> None:
    """The east cluster's objects: Notebook nb-alice -> StatefulSet -> notebook-0; Deployments infer and chat
    -> ReplicaSets -> infer-0, infer-1 and chat-0, chat-1; every pod Running with a GPU."""
    api.add("v1", "namespaces", {"metadata": {"name": NS, "annotations": namespace_annotations or {}}})
    api.add("kubeflow.org/v1", "notebooks", {"metadata": {"name": "nb-alice", "namespace": NS,
                                                         "annotations": notebook_annotations or {}}, "spec": {}})
    owner = {"controller": True, "apiVersion": "kubeflow.org/v1", "kind": "Notebook", "name": "nb-alice", "uid": "u"}
    api.add("apps/v1", "statefulsets", {"metadata": {"name": "nb-alice", "namespace": NS, "ownerReferences": [owner]},
                                        "spec": {"replicas": 1}})
    sts = {"controller": True, "apiVersion": "apps/v1", "kind": "StatefulSet", "name": "nb-alice", "uid": "u"}
    pod(api, NS, "notebook-0", [sts])
    for name in ("infer", "chat"):
        api.add("apps/v1", "deployments", {"metadata": {"name": name, "namespace": NS}, "spec": {"replicas": 2}})
        dep = {"controller": True, "apiVersion": "apps/v1", "kind": "Deployment", "name": name, "uid": "u"}
        api.add("apps/v1", "replicasets", {"metadata": {"name": f"{name}-7d9", "namespace": NS,
                                                        "ownerReferences": [dep]}, "spec": {"replicas": 2}})
        rs = {"controller": True, "apiVersion": "apps/v1", "kind": "ReplicaSet", "name": f"{name}-7d9", "uid": "u"}
        for p in (f"{name}-0", f"{name}-1"):
            pod(api, NS, p, [rs])


def command(api: ApiServer, tmp_path, hub, *args, at: float | None = None) -> list[str]:
    return [sys.executable, "-m", "gpudash", "prune", "--kubeconfig", api.kubeconfig(tmp_path / "kubeconfig"),
            "--prometheus-url", hub.url, "--cluster", "east", "--tenant-namespace", NS, "--tenant-namespace",
            "team-b", "--idle-window", "30m", "--time", str(at or hub.at), *args]


ENV = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}


def prune(api: ApiServer, tmp_path, hub, *args, at: float | None = None) -> tuple[int, list[dict], str]:
    r = subprocess.run(command(api, tmp_path, hub, *args, at=at), capture_output=True, text=True, timeout=120,
                       env=ENV, cwd=ROOT)
    return r.returncode, [json.loads(line) for line in r.stdout.splitlines()], r.stderr


def by_result(lines) -> dict:
    out: dict[str, list] = {}
    for line in lines:
        out.setdefault(line["result"], []).append(line)
    return out


def test_daemon_stops_exactly_what_the_alert_fires_for_and_restores_it(hub, tmp_path):
    """Issue #17's "done when": the live GPUAllocatedIdle alert's ALERTS series and a scale-down daemon run at
    the same instant on the same Prometheus. Every alerted workload is acted on or skipped for a busy sibling
    pod (infer), nothing else is touched; one Event per action; --restore brings each back."""
    at, alerted = firing(hub)
    assert alerted == {("Deployment", "chat", "chat-0"), ("Deployment", "chat", "chat-1"),
                       ("Deployment", "infer", "infer-0"), ("Notebook", "nb-alice", "notebook-0")}
    with ApiServer() as api:
        cluster(api)
        code, lines, err = prune(api, tmp_path, hub, "--run-mode", "scale-down", "--daemon", "--cycles", "2",
                                 "--check-interval", "0s", at=at)
        assert code == 0, err
        result = by_result(lines)
        assert {(x["kind"], x["name"]) for x in lines if "kind" in x} == {(k, w) for k, w, _ in alerted}
        assert {(x["kind"], x["name"], tuple(x["pods"])) for x in result["stopped"]} == {
            ("Deployment", "chat", ("chat-0", "chat-1")), ("Notebook", "nb-alice", ("notebook-0",))}
        assert all((x["cluster"], x["namespace"], x["replicas_after"]) == ("east", NS, 0) for x in result["stopped"])
        assert {(x["name"], x["replicas_before"]) for x in result["stopped"]} == {("chat", 2), ("nb-alice", 1)}
        assert {(x.get("name") or x["pod"], x["reason"]) for x in result["skipped"]} == {
            ("infer", "other pods of it still use their GPUs"),  # both cycles
            ("chat-0", "no such pod on this cluster"), ("chat-1", "no such pod on this cluster"),  # 2nd cycle: the
            ("notebook-0", "no such pod on this cluster")}  # idle series lag behind the stop
        assert {(x["kind"], x["name"]) for x in result["released"]} == {("Deployment", "chat"),
                                                                       ("Notebook", "nb-alice")}  # proven
        assert "error" not in result
        assert sorted((e["reason"], e["involvedObject"]["kind"], e["involvedObject"]["name"]) for e in api.events) \
            == [(plan.REASON, "Deployment", "chat"), (plan.REASON, "Notebook", "nb-alice")]
        messages = {e["involvedObject"]["name"]: e["message"] for e in api.events}
        assert "1.10 USD/hour" in messages["chat"] and "3.20 USD/hour" in messages["nb-alice"]  # 2 x 0.55; 3.20
        chat = f"/apis/apps/v1/namespaces/{NS}/deployments/chat"
        notebook = f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb-alice"
        assert api.get(chat)["spec"]["replicas"] == 0
        assert api.get(chat)["metadata"]["annotations"][plan.PREVIOUS_REPLICAS] == "2"
        assert plan.NOTEBOOK_STOPPED in api.get(notebook)["metadata"]["annotations"]
        assert api.get(f"/apis/apps/v1/namespaces/{NS}/deployments/infer")["spec"]["replicas"] == 2
        for target in ("Deployment/chat", "Notebook/nb-alice"):
            code, lines, err = prune(api, tmp_path, hub, "--restore", f"{NS}/{target}")
            assert code == 0 and lines[0]["result"] == "restored", err
        assert api.get(chat)["spec"]["replicas"] == 2
        assert plan.PREVIOUS_REPLICAS not in api.get(chat)["metadata"]["annotations"]
        assert plan.NOTEBOOK_STOPPED not in api.get(notebook)["metadata"]["annotations"]
        assert len(api.events) == 2  # a restore posts no Event


def test_a_dry_run_has_the_shape_of_a_real_run(hub, tmp_path):
    with ApiServer() as api:
        cluster(api)
        code, lines, err = prune(api, tmp_path, hub)
        assert code == 0, err
        dry = by_result(lines)["dry-run"]
        assert [(x["kind"], x["name"]) for x in dry] == [("Deployment", "chat"), ("Notebook", "nb-alice")]
        assert not api.events and not [r for r in api.requests if r[0] == "PATCH"]
        code, lines, err = prune(api, tmp_path, hub, "--run-mode", "scale-down")
        assert code == 0, err
        real = by_result(lines)["stopped"]
        mine = ("mode", "result", "time", "detail")  # what differs by nature: the real run says what it did
        assert [{k: v for k, v in x.items() if k not in mine} for x in real] == \
            [{k: v for k, v in x.items() if k not in mine} for x in dry]


def test_restore_refuses_a_workload_it_did_not_stop(hub, tmp_path):
    with ApiServer() as api:
        cluster(api)
        code, _, err = prune(api, tmp_path, hub, "--restore", f"{NS}/Deployment/infer")
        assert code == 2 and "not stopped by gpudash prune" in err and "Traceback" not in err


def test_opt_out_on_workload_and_namespace(hub, tmp_path):
    off = {plan.OPT_OUT: "false"}
    with ApiServer() as api:
        cluster(api, notebook_annotations=off)
        code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down")
        assert code == 0 and [x["name"] for x in by_result(lines)["stopped"]] == ["chat"]
        assert any(x.get("reason") == f"Notebook annotated {plan.OPT_OUT}=false" for x in lines)
    with ApiServer() as api:
        cluster(api, namespace_annotations=off)
        code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down")
        assert code == 0 and "stopped" not in by_result(lines) and not api.events
        assert sum(x.get("reason") == f"namespace annotated {plan.OPT_OUT}=false" for x in lines) == 2


def test_cap_and_api_errors_mid_cycle(hub, tmp_path):
    with ApiServer() as api:
        cluster(api)
        code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down", "--max-actions", "1")
        assert code == 0 and len(api.events) == 1 and len(by_result(lines)["stopped"]) == 1
        assert any("--max-actions 1" in x.get("reason", "") for x in lines)
    with ApiServer() as api:
        cluster(api)
        api.forbid.add(("PATCH", f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb-alice"))
        del api.objects[f"/api/v1/namespaces/{NS}/pods/infer-0"]
        code, lines, _ = prune(api, tmp_path, hub, "--run-mode", "scale-down")
        result = by_result(lines)
        assert code == 0 and [x["error"].split(":")[0] for x in result["error"]] == \
            ["annotate Notebook team-a/nb-alice"]
        assert "403 Forbidden" in result["error"][0]["error"]
        assert {"pod": "infer-0", "reason": "no such pod on this cluster"}.items() <= result["skipped"][0].items()
        assert [x["name"] for x in result["stopped"]] == ["chat"]  # the loop went on
        assert [e["involvedObject"]["name"] for e in api.events] == ["chat"]


def test_an_ineffective_stop_is_detected_and_alerted(hub, tmp_path):
    """Issue 27: the notebook controller ignores the stop (as an older KServe ignores serving.kserve.io/stop).
    The daemon's next cycle past --effect-timeout finds notebook-0 still there: it marks nb-alice ineffective
    (annotation, Warning Event) and exposes its gauge; a real Prometheus scrapes the daemon and evaluates the
    rendered GPUPrunerIneffective, which fires for exactly that workload. chat's stop works and is released."""
    at, _ = firing(hub)
    notebook = f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb-alice"
    with_pruner = dataclasses.replace(hub.model, prune=load_bundled_example().prune)  # the story has no prune:
    rules = strip_comments(rule_file([prune_alert.group(with_pruner)]))
    rules["groups"][0]["interval"] = "1s"  # evaluated every second instead of every push (its expression unchanged)
    rule_path = tmp_path / "prune.alerts.yaml"
    rule_path.write_text(yaml.safe_dump(rules, sort_keys=False))
    port = free_port()
    scrape = {"global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
              "scrape_configs": [{"job_name": "gpudash-prune", "static_configs": [
                  {"targets": [f"127.0.0.1:{port}"], "labels": {"cluster": "east"}}]}]}  # ACM adds cluster
    fired = f'ALERTS{{alertname="{alert_names.PRUNER_INEFFECTIVE}", alertstate="firing"}}'
    with ApiServer() as api:
        cluster(api)
        api.ignore_stop.add(notebook)
        daemon = subprocess.Popen(command(api, tmp_path, hub, "--run-mode", "scale-down", "--daemon",
                                          "--check-interval", "1s", "--effect-timeout", "0s", "--metrics-port",
                                          str(port), at=at),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT)
        found = []
        try:
            with Prometheus(tmp_path / "prom", rule_files=[rule_path], config_extra=scrape) as prom:
                deadline = time.monotonic() + 60
                while not found and time.monotonic() < deadline and daemon.poll() is None:
                    found = [dict(lb) for lb, _ in prom.query(fired, time.time())]
                    time.sleep(1)
        finally:
            daemon.terminate()
            out, err = daemon.communicate(timeout=30)
        lines = [json.loads(line) for line in out.splitlines()]
        assert found, f"{alert_names.PRUNER_INEFFECTIVE} never fired; pruner:\n{out}{err}"
        assert [{k: a[k] for k in ("cluster", "namespace", "kind", "workload")} for a in found] == \
            [{"cluster": "east", "namespace": NS, "kind": "Notebook", "workload": "nb-alice"}]
        result = by_result(lines)
        assert [(x["kind"], x["name"], x["pods"]) for x in result["ineffective"]] == \
            [("Notebook", "nb-alice", ["notebook-0"])]
        assert {x["name"] for x in result["released"]} == {"chat"}
        assert [x["name"] for x in result["stopped"]] == ["chat", "nb-alice"]  # stopped once, never retried
        assert plan.INEFFECTIVE in api.get(notebook)["metadata"]["annotations"]
        assert [(e["type"], e["reason"]) for e in api.events if e["involvedObject"]["name"] == "nb-alice"] == \
            [("Normal", plan.REASON), ("Warning", plan.REASON_INEFFECTIVE)]


def test_missing_metrics_are_never_idleness(hub):
    # pods holding priced GPUs without activity samples are reported as skipped, never idle
    fresh = hub.model.billing.mco_interval * 3 // 2
    unobserved = hub.query(plan.unobserved_query(fresh, cluster="east"), hub.at)
    idle = {dict(lb)["pod"] for lb, _ in hub.query(plan.idle_query(fresh, cluster="east"), hub.at)}
    assert idle == {"chat-0", "chat-1", "infer-0", "notebook-0"}
    assert not ({dict(lb)["pod"] for lb, _ in unobserved} & idle)

"""The pruner's cycle against the stand-in kube-apiserver (issue 27): scope checked on the cluster, re-verified
before acting, a stop's effect proven, every call bounded, restore that never loses a replica count."""
from __future__ import annotations

import io
import json
import threading
import time

import pytest

from gpudash.base.errors import GpudashError
from gpudash.cli import _parser
from gpudash.ops.prune import cli, cycle
from gpudash.queries import prune_plan as plan
from tests.prune_cluster import CLUSTER, OWN, deployment, inference_service, lines, notebook, pod, pruner, ref, replicas
from tests.standins import ApiServer, StandIn

NS = "team-a"


def row(pod_name, ns=NS, cluster=CLUSTER, cost=1.0):
    return plan.IdlePod(cluster, ns, pod_name, cost)


def test_a_row_of_another_cluster_is_refused_and_named(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "infer")
        p = pruner(api, tmp_path)
        p.cycle([row(pods[0], cluster="prod-west")], [])
        assert replicas(api, NS, "infer") == 2 and not api.events
        (line,) = lines(p)
        assert (line["result"], line["cluster"], line["row_cluster"]) == ("refused", CLUSTER, "prod-west")
        assert "acts on 'prod-east' only" in line["reason"]


@pytest.mark.parametrize("ns,why", [("kube-system", "system namespace"), ("openshift-monitoring", "system namespace"),
                                    ("default", "system namespace"), (OWN, "the pruner's own"),
                                    ("team-z", "not a tenant namespace")])
def test_system_own_and_foreign_namespaces_are_refused(tmp_path, ns, why):
    with ApiServer() as api:
        pods = deployment(api, ns, "coredns")
        p = pruner(api, tmp_path)
        p.cycle([row(pods[0], ns=ns), row(pods[1], ns=ns)], [])
        assert replicas(api, ns, "coredns") == 2 and not api.events
        assert [x["result"] for x in lines(p)] == ["refused", "refused"] and why in lines(p)[0]["reason"]
        assert not [r for r in api.requests if f"/namespaces/{ns}" in r[1]]  # not even read


def test_rows_without_cluster_only_in_single_cluster_mode(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "infer", pods=1, replicas=1)
        p = pruner(api, tmp_path)
        p.cycle([row(pods[0], cluster=None)], [])
        assert lines(p)[0]["result"] == "refused" and "--single-cluster" in lines(p)[0]["reason"]
        p = pruner(api, tmp_path, single_cluster=True)
        p.cycle([row(pods[0], cluster=None)], [])
        assert [x["result"] for x in lines(p)] == ["stopped"] and replicas(api, NS, "infer") == 0


def test_the_cli_reads_rows_without_cluster_label(tmp_path, monkeypatch):
    """A cluster's own Prometheus answers rows without ``cluster``: refused by default, acted on with
    --single-cluster; never a KeyError (in-process CLI against a Prometheus query API stand-in)."""
    def prometheus(request):
        query = request.query.get("query", [""])[0] or ""
        rows = [{"metric": {"namespace": NS, "pod": "infer-0", "workload": "infer", "workload_type": "Deployment"},
                 "value": [1, "0.5"]}] if "gpudash_gpu_idle" in query and "unless" not in query else []
        return 200, {"status": "success", "data": {"resultType": "vector", "result": rows}}

    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    with ApiServer() as api, StandIn(prometheus) as prom:
        deployment(api, NS, "infer", pods=1, replicas=1)
        base = ["prune", "--kubeconfig", api.kubeconfig(tmp_path / "k"), "--prometheus-url", prom.url,
                "--cluster", CLUSTER, "--tenant-namespace", NS, "--run-mode", "scale-down"]
        for extra, result in (([], "refused"), (["--single-cluster"], "stopped")):
            out = io.StringIO()
            monkeypatch.setattr("sys.stdout", out)
            assert cli.run(_parser().parse_args(base + extra)) == 0
            assert [json.loads(x)["result"] for x in out.getvalue().splitlines()] == [result]


@pytest.mark.parametrize("missing,message", [("--cluster", "--cluster is required"),
                                             ("--tenant-namespace", "--tenant-namespace is required")])
def test_scope_flags_are_required(tmp_path, missing, message, monkeypatch):
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    with ApiServer() as api:
        argv = {"--kubeconfig": api.kubeconfig(tmp_path / "k"), "--prometheus-url": "http://127.0.0.1:9",
                "--cluster": CLUSTER, "--tenant-namespace": NS}
        args = ["prune", "--daemon", *(x for k, v in argv.items() if k != missing for x in (k, v))]
        with pytest.raises(GpudashError, match=message):
            cli.run(_parser().parse_args(args))


def test_a_system_tenant_namespace_is_refused_at_start(tmp_path, monkeypatch):
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    with ApiServer() as api:
        args = ["prune", "--kubeconfig", api.kubeconfig(tmp_path / "k"), "--prometheus-url", "http://127.0.0.1:9",
                "--cluster", CLUSTER, "--tenant-namespace", "kube-system"]
        with pytest.raises(GpudashError, match="--tenant-namespace kube-system: namespace kube-system is a system"):
            cli.run(_parser().parse_args(args))


@pytest.mark.parametrize("bad", ["two", "-1", "1e3", "", "９", "12345678901"])
def test_restore_with_a_bad_annotation_is_one_line_and_keeps_it(tmp_path, bad):
    with ApiServer() as api:
        api.add("apps/v1", "deployments", {"metadata": {"name": "d", "namespace": NS, "annotations": {
            plan.PREVIOUS_REPLICAS: bad}}, "spec": {"replicas": 0}})
        p = pruner(api, tmp_path)
        with pytest.raises(GpudashError) as info:
            cycle.restore(p.api, f"{NS}/Deployment/d", out=io.StringIO())
        assert "not a replica count: left as it is" in str(info.value) and "\n" not in str(info.value)
        obj = api.get(f"/apis/apps/v1/namespaces/{NS}/deployments/d")
        assert obj["metadata"]["annotations"][plan.PREVIOUS_REPLICAS] == bad and obj["spec"]["replicas"] == 0


def test_restore_scales_back_then_removes_the_marks(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "infer")
        p = pruner(api, tmp_path)
        p.cycle([row(x) for x in pods], [])
        cycle.restore(p.api, f"{NS}/Deployment/infer", out=io.StringIO())
        obj = api.get(f"/apis/apps/v1/namespaces/{NS}/deployments/infer")
        assert obj["spec"]["replicas"] == 2
        assert not {plan.PREVIOUS_REPLICAS, plan.PRUNED_AT} & set(obj["metadata"]["annotations"])


def test_an_api_that_never_answers_is_an_error_line_not_a_hang(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "infer")
        api.hang.add(f"/api/v1/namespaces/{NS}/pods")
        p = pruner(api, tmp_path)
        p.api.timeout = 0.5
        done = threading.Event()
        started = time.monotonic()
        threading.Thread(target=lambda: (p.cycle([row(x) for x in pods], []), done.set()), daemon=True).start()
        assert done.wait(10), "the cycle hung on an API that never answers"
        assert time.monotonic() - started < 1.5  # one deadline per namespace, not one per row
        assert [x["result"] for x in lines(p)] == ["error", "error"]
        assert "list pods in team-a" in lines(p)[0]["error"] and "timed out" in lines(p)[0]["error"]


def test_a_prometheus_that_never_answers_is_one_line_within_the_timeout(tmp_path, monkeypatch):
    release = threading.Event()

    def silent(request):
        release.wait(30)
        return 503, {}

    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    with ApiServer() as api, StandIn(silent) as prom:
        args = ["prune", "--kubeconfig", api.kubeconfig(tmp_path / "k"), "--prometheus-url", prom.url,
                "--cluster", CLUSTER, "--tenant-namespace", NS, "--timeout", "1s"]
        started = time.monotonic()
        try:
            with pytest.raises(GpudashError, match="did not answer within 1s"):
                cli.run(_parser().parse_args(args))
        finally:
            release.set()
        assert time.monotonic() - started < 5


@pytest.mark.parametrize("value", ["false", "", "2026-01-01T00:00:00Z"])
def test_a_notebook_with_the_stop_annotation_is_stopped_whatever_its_value(tmp_path, value):
    with ApiServer() as api:
        api.ignore_stop.add(f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb")  # its pod is still listed
        name = notebook(api, NS, "nb", **{plan.NOTEBOOK_STOPPED: value})
        p = pruner(api, tmp_path)
        p.cycle([row(name)], [])
        assert plan.stopped(plan.KINDS["Notebook"], api.get(f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb"))
        assert [x["result"] for x in lines(p)] == ["skipped"] and "already stopped" in lines(p)[0]["reason"]
        assert not api.events and not [r for r in api.requests if r[0] == "PATCH"]


def test_a_stop_that_does_nothing_is_found_marked_and_never_retried(tmp_path):
    """An InferenceService on a KServe older than 0.15.1 ignores serving.kserve.io/stop: its predictor pod stays.
    The next cycle past --effect-timeout marks it ineffective (annotation, Warning Event, the gauge); later cycles
    skip it without a write."""
    clock = [1_000_000.0]
    with ApiServer() as api:
        isvc = f"/apis/serving.kserve.io/v1beta1/namespaces/{NS}/inferenceservices/m"
        api.ignore_stop.add(isvc)
        name = inference_service(api, NS, "m")
        p = pruner(api, tmp_path, effect_timeout=300, clock=lambda: clock[0])
        p.cycle([row(name)], [])
        clock[0] += 120
        p.cycle([row(name)], [])
        clock[0] += 300
        p.cycle([row(name)], [])
        writes = len([r for r in api.requests if r[0] in ("PATCH", "POST")])
        p.cycle([row(name)], [])
        assert len([r for r in api.requests if r[0] in ("PATCH", "POST")]) == writes
        results = [(x["result"], x.get("kind")) for x in lines(p)]
        assert results[0] == ("stopped", "InferenceService")
        assert ("waiting", "InferenceService") in results and ("ineffective", "InferenceService") in results
        assert results.count(("stopped", "InferenceService")) == 1 and "released" not in {r for r, _ in results}
        assert "never retried" in lines(p)[-1]["reason"]
        assert plan.INEFFECTIVE in api.get(isvc)["metadata"]["annotations"]
        assert [(e["type"], e["reason"]) for e in api.events] == [("Normal", plan.REASON),
                                                                   ("Warning", plan.REASON_INEFFECTIVE)]
        assert 'gpudash_prune_ineffective_stop{namespace="team-a",kind="InferenceService",workload="m"} 1' \
            in p.metrics()
        cycle.restore(p.api, f"{NS}/InferenceService/m", out=io.StringIO())  # fixed by hand, marks removed
        p.cycle([], [])
        assert "} 1" not in p.metrics()


def test_a_workload_scaled_back_up_is_not_stopped_twice_but_found_ineffective(tmp_path):
    """Another controller (a GitOps sync) puts the replicas back right after the stop: the pruner does not fight
    it; the pods are still there past --effect-timeout, so the stop is ineffective."""
    clock = [1_000_000.0]
    with ApiServer() as api:
        path = f"/apis/apps/v1/namespaces/{NS}/deployments/infer"
        api.ignore_stop.add(path)
        pods = deployment(api, NS, "infer")
        p = pruner(api, tmp_path, effect_timeout=300, clock=lambda: clock[0])
        p.cycle([row(x) for x in pods], [])
        api.objects[path]["spec"]["replicas"] = 2  # synced back
        clock[0] += 120
        p.cycle([row(x) for x in pods], [])
        assert lines(p)[-1]["reason"].endswith("its effect is being checked") and replicas(api, NS, "infer") == 2
        clock[0] += 300
        p.cycle([row(x) for x in pods], [])
        results = [x["result"] for x in lines(p)]
        assert results.count("stopped") == 1 and "ineffective" in results


def test_a_released_workload_started_again_is_a_candidate_again(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "infer")
        p = pruner(api, tmp_path)
        p.cycle([row(x) for x in pods], [])
        p.cycle([], [])  # released: the pods are gone
        path = f"/apis/apps/v1/namespaces/{NS}/deployments/infer"
        assert plan.PRUNED_AT not in api.get(path)["metadata"]["annotations"]
        api.objects[path]["spec"]["replicas"] = 2  # its owner starts it again, and it idles again
        for x in pods:
            pod(api, NS, x, ref("apps/v1", "ReplicaSet", "infer-7d9"))
        p.cycle([row(x) for x in pods], [])
        assert [x["result"] for x in lines(p)] == ["stopped", "released", "stopped"]


def test_a_zero_effect_timeout_marks_at_the_next_cycle(tmp_path):
    """--effect-timeout 0s and no time passed (a fast daemon): ineffective at once, no crash on a zero duration."""
    with ApiServer() as api:
        api.ignore_stop.add(f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb")
        name = notebook(api, NS, "nb")
        p = pruner(api, tmp_path, effect_timeout=0, clock=lambda: 1_000_000.0)
        p.cycle([row(name)], [])
        p.cycle([row(name)], [])
        assert "ineffective" in [x["result"] for x in lines(p)]


def test_a_restarted_pruner_proves_a_stop_from_the_annotation(tmp_path):
    clock = [1_000_000.0]
    with ApiServer() as api:
        nb = f"/apis/kubeflow.org/v1/namespaces/{NS}/notebooks/nb"
        api.ignore_stop.add(nb)
        name = notebook(api, NS, "nb")
        pruner(api, tmp_path, clock=lambda: clock[0]).cycle([row(name)], [])
        clock[0] += 900
        fresh = pruner(api, tmp_path, clock=lambda: clock[0])  # a new process: nothing pending in memory
        fresh.cycle([row(name)], [])
        assert "ineffective" in [x["result"] for x in lines(fresh)] and "kind=\"Notebook\"" in fresh.metrics()


def test_a_stop_that_works_is_released(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "chat")
        nb = notebook(api, NS, "nb")
        p = pruner(api, tmp_path)
        p.cycle([row(x) for x in [*pods, nb]], [])
        assert [x["result"] for x in lines(p)] == ["stopped", "stopped"]
        p.cycle([row(x) for x in [*pods, nb]], [])  # the idle series lag: the pods are gone
        second = lines(p)[2:]
        assert sorted((x["result"], x.get("name")) for x in second if x["result"] == "released") == \
            [("released", "chat"), ("released", "nb")]
        assert {x["reason"] for x in second if x["result"] == "skipped"} == {"no such pod on this cluster"}
        assert not p.pending and "} 1" not in p.metrics()


def test_every_action_line_names_cluster_namespace_kind_name_and_replicas(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "chat", pods=3, replicas=3)
        for mode in ("dry-run", "scale-down"):
            p = pruner(api, tmp_path, run_mode=mode)
            p.cycle([row(x) for x in pods], [])
            (line,) = lines(p)
            assert {k: line[k] for k in ("cluster", "namespace", "kind", "name", "replicas_before",
                                         "replicas_after")} == {"cluster": CLUSTER, "namespace": NS,
                                                                "kind": "Deployment", "name": "chat",
                                                                "replicas_before": 3, "replicas_after": 0}


def test_a_deployment_under_an_hpa_is_skipped(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "infer")
        api.add("autoscaling/v2", "horizontalpodautoscalers", {"metadata": {"name": "infer", "namespace": NS},
                "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "infer"},
                         "minReplicas": 1, "maxReplicas": 4}})
        p = pruner(api, tmp_path)
        p.cycle([row(x) for x in pods], [])
        assert replicas(api, NS, "infer") == 2
        assert lines(p)[0]["reason"] == "managed by HorizontalPodAutoscaler infer: its replicas are the autoscaler's"


@pytest.mark.parametrize("change,reason", [
    (lambda api: api.objects[f"/api/v1/namespaces/{NS}/pods/infer-0"].__setitem__("status", {"phase": "Pending"}),
     "re-check: pod infer-0 is Pending, not Running"),
    (lambda api: api.objects[f"/api/v1/namespaces/{NS}/pods/infer-1"]["spec"]["containers"][0].__setitem__(
        "resources", {}), "re-check: pod infer-1 requests no GPU"),
    (lambda api: pod(api, NS, "infer-2", [{"controller": True, "apiVersion": "apps/v1", "kind": "ReplicaSet",
                                          "name": "infer-7d9", "uid": "u"}]),
     "re-check: GPU pods infer-2 of it are not recorded idle now"),
    (lambda api: api.objects[f"/api/v1/namespaces/{NS}/pods/infer-0"]["metadata"].__setitem__(
        "ownerReferences", []), "re-check: pod infer-0 no longer belongs to Deployment infer"),
], ids=["not-running", "no-gpu", "new-busy-pod", "orphaned"])
def test_a_change_between_reading_and_acting_is_a_skip(tmp_path, change, reason):
    """Owners are read, then the cluster changes before the action: re-verified on the API, never acted on."""
    with ApiServer() as api:
        deployment(api, NS, "infer")
        p = pruner(api, tmp_path, idle_now=lambda ns: {"infer-0", "infer-1"})
        original = p._verify

        def verify_after_change(*args):
            change(api)
            return original(*args)

        p._verify = verify_after_change
        p.cycle([row("infer-0"), row("infer-1")], [])
        assert replicas(api, NS, "infer") == 2 and not api.events
        assert lines(p)[0]["reason"] == reason


def test_idle_at_read_but_busy_at_action_time_is_a_skip(tmp_path):
    with ApiServer() as api:
        pods = deployment(api, NS, "infer")
        p = pruner(api, tmp_path, idle_now=lambda ns: {pods[0]})  # infer-1 worked since the rows were read
        p.cycle([row(x) for x in pods], [])
        assert replicas(api, NS, "infer") == 2
        assert lines(p)[0]["reason"] == "re-check: GPU pods infer-1 of it are not recorded idle now"


def test_an_unexpected_error_in_a_cycle_is_one_line_and_the_daemon_goes_on(tmp_path, monkeypatch):
    """A bug or an answer nobody foresaw costs the daemon one cycle (logged), never the process (a traceback)."""
    def prometheus(request):
        return 200, {"status": "success", "data": {"resultType": "vector", "result": []}}

    def broken(self, rows, unobserved):
        raise KeyError("surprise")

    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    monkeypatch.setattr(cycle.Pruner, "cycle", broken)
    with ApiServer() as api, StandIn(prometheus) as prom:
        base = ["prune", "--kubeconfig", api.kubeconfig(tmp_path / "k"), "--prometheus-url", prom.url,
                "--cluster", CLUSTER, "--tenant-namespace", NS, "--check-interval", "15s"]
        out = io.StringIO()
        monkeypatch.setattr("sys.stdout", out)
        monkeypatch.setattr("time.sleep", lambda seconds: None)
        assert cli.run(_parser().parse_args([*base, "--daemon", "--cycles", "2"])) == 0
        logged = [json.loads(x) for x in out.getvalue().splitlines()]
        assert [x["result"] for x in logged] == ["error", "error"] and "unexpected KeyError" in logged[0]["error"]
        with pytest.raises(GpudashError, match="prune cycle failed: unexpected KeyError"):
            cli.run(_parser().parse_args(base))

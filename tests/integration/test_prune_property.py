"""Issue 27's property: whatever the idle answer (random clusters, namespaces including system ones, pod names,
missing labels, odd costs) and whatever is idle at action time, the workloads the pruner acts on are a subset of
{workloads on this cluster, in tenant namespaces, whose every GPU pod is idle at action time} (hypothesis, against
the stand-in kube-apiserver). The reference set is computed from the topology below, not by the pruner's code."""
from __future__ import annotations

import io
import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpudash.ops.prune import cycle
from gpudash.ops.prune.api import connect
from gpudash.queries import prune_plan as plan
from tests.prune_cluster import CLUSTER, OWN, TENANTS, deployment, inference_service, namespace, notebook, pod, ref
from tests.standins import ApiServer

NAMESPACES = sorted(TENANTS) + ["kube-system", "openshift-monitoring", "default", OWN, "team-z"]
# workload (kind, name) -> its GPU pods (every one Running but pend-1, Pending); cpu-0 holds no GPU
WORKLOADS = {("Deployment", "d"): ["d-0", "d-1"], ("Notebook", "nb"): ["nb-0"],
             ("InferenceService", "m"): ["m-predictor-0"], ("Deployment", "pend"): ["pend-0", "pend-1"],
             ("Deployment", "cpu"): []}
PODS = sorted({p for pods in WORKLOADS.values() for p in pods} | {"cpu-0"})


def build(api: ApiServer) -> None:
    for ns in NAMESPACES:
        namespace(api, ns)
        deployment(api, ns, "d")
        notebook(api, ns, "nb")
        inference_service(api, ns, "m")
        deployment(api, ns, "pend", pods=1)
        pod(api, ns, "pend-1", ref("apps/v1", "ReplicaSet", "pend-7d9"), phase="Pending")
        deployment(api, ns, "cpu", pods=0, replicas=1)
        pod(api, ns, "cpu-0", ref("apps/v1", "ReplicaSet", "cpu-7d9"), resources={})


rows = st.lists(st.builds(
    plan.IdlePod,
    st.sampled_from([CLUSTER, "prod-west", None, "", "PROD-EAST"]),
    st.sampled_from([*NAMESPACES, None, "", "Team-A", "team-a/../kube-system"]),
    st.sampled_from([*PODS, None, "", "ghost-0", "../d-0", "D-0"]),
    st.floats(allow_nan=True, allow_infinity=True) | st.just(0.55),
    st.booleans()), max_size=12)
idle_now = st.dictionaries(st.sampled_from(NAMESPACES), st.sets(st.sampled_from(PODS)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=rows, idle_now=idle_now, single_cluster=st.booleans(), run_mode=st.sampled_from(["scale-down", "dry-run"]))
def test_acted_on_is_within_scope_and_idle(tmp_path_factory, rows, idle_now, single_cluster, run_mode):
    with ApiServer() as api:
        build(api)
        kube = connect(api.kubeconfig(tmp_path_factory.mktemp("k") / "kubeconfig"), timeout=5)
        scope = plan.Scope(CLUSTER, TENANTS, OWN, single_cluster)
        out = io.StringIO()
        pruner = cycle.Pruner(kube, scope, cycle.Options(run_mode, 100, 1800, "USD"),
                              lambda ns: set(idle_now.get(ns, ())), out)
        pruner.cycle(rows, [])
        acted = {(x["kind"], x["namespace"], x["name"]) for x in map(json.loads, out.getvalue().splitlines())
                 if x["result"] in ("stopped", "dry-run")}
        allowed = {(kind, ns, name) for ns in TENANTS for (kind, name), gpu in WORKLOADS.items()
                   if gpu and set(gpu) <= idle_now.get(ns, set())
                   and any(r.namespace == ns and r.pod in gpu and not r.busy_siblings
                           and (r.cluster == CLUSTER or (r.cluster is None and single_cluster)) for r in rows)}
        assert acted <= allowed
        assert {(e["involvedObject"]["kind"], e["metadata"]["namespace"], e["involvedObject"]["name"])
                for e in api.events} == (acted if run_mode == "scale-down" else set())
        touched = {path.split("/")[path.split("/").index("namespaces") + 1] for method, path in api.requests
                   if "/namespaces/" in path}
        assert touched <= TENANTS  # nothing outside tenant namespaces is even read
        assert run_mode == "scale-down" or all(m == "GET" for m, _ in api.requests)  # a dry run only reads
        for line in map(json.loads, out.getvalue().splitlines()):
            assert line["cluster"] == CLUSTER
            assert line.get("cost_per_hour") is None or math.isfinite(line["cost_per_hour"])  # no NaN printed

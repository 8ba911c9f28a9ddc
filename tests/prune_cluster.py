"""A cluster for the pruner's tests, on the stand-in kube-apiserver (tests/standins.py): tenant and system
namespaces, GPU workloads of every kind the pruner resolves, each pod Running with a GPU request."""
from __future__ import annotations

import io
import json

from gpudash.ops.prune import cycle
from gpudash.ops.prune.api import connect
from gpudash.queries import prune_plan as plan
from tests.standins import ApiServer

CLUSTER = "prod-east"
TENANTS = frozenset({"team-a", "team-b"})
OWN = "gpudash-prune"
GPU = {"limits": {"nvidia.com/gpu": "1"}}


def ref(api_version: str, kind: str, name: str) -> list[dict]:
    return [{"controller": True, "apiVersion": api_version, "kind": kind, "name": name, "uid": f"uid-{name}"}]


def pod(api: ApiServer, ns: str, name: str, owner=None, labels=None, resources=GPU, phase="Running") -> None:
    api.add("v1", "pods", {"metadata": {"name": name, "namespace": ns, "ownerReferences": owner or [],
                                        "labels": labels or {}},
                           "spec": {"containers": [{"name": "main", "image": "cuda", "resources": resources}]},
                           "status": {"phase": phase}})


def namespace(api: ApiServer, ns: str, **annotations) -> None:
    if f"/api/v1/namespaces/{ns}" not in api.objects:
        api.add("v1", "namespaces", {"metadata": {"name": ns, "annotations": annotations}})


def deployment(api: ApiServer, ns: str, name: str, pods: int = 2, replicas: int = 2) -> list[str]:
    """A Deployment -> ReplicaSet -> ``pods`` GPU pods named NAME-0, NAME-1, ..."""
    namespace(api, ns)
    api.add("apps/v1", "deployments", {"metadata": {"name": name, "namespace": ns}, "spec": {"replicas": replicas}})
    api.add("apps/v1", "replicasets", {"metadata": {"name": f"{name}-7d9", "namespace": ns,
                                                    "ownerReferences": ref("apps/v1", "Deployment", name)},
                                       "spec": {"replicas": replicas}})
    names = [f"{name}-{i}" for i in range(pods)]
    for p in names:
        pod(api, ns, p, ref("apps/v1", "ReplicaSet", f"{name}-7d9"))
    return names


def notebook(api: ApiServer, ns: str, name: str, **annotations) -> str:
    namespace(api, ns)
    api.add("kubeflow.org/v1", "notebooks", {"metadata": {"name": name, "namespace": ns,
                                                         "annotations": annotations}, "spec": {}})
    api.add("apps/v1", "statefulsets", {"metadata": {"name": name, "namespace": ns, "ownerReferences": ref(
        "kubeflow.org/v1", "Notebook", name)}, "spec": {"replicas": 1}})
    pod(api, ns, f"{name}-0", ref("apps/v1", "StatefulSet", name))
    return f"{name}-0"


def inference_service(api: ApiServer, ns: str, name: str) -> str:
    namespace(api, ns)
    api.add("serving.kserve.io/v1beta1", "inferenceservices", {"metadata": {"name": name, "namespace": ns},
                                                               "spec": {}})
    pod(api, ns, f"{name}-predictor-0", labels={plan.KSERVE_LABEL: name})
    return f"{name}-predictor-0"


def scope(single_cluster: bool = False) -> plan.Scope:
    return plan.Scope(CLUSTER, TENANTS, OWN, single_cluster)


def pruner(api: ApiServer, tmp_path, idle_now=None, run_mode="scale-down", effect_timeout=600, clock=None,
           single_cluster=False, max_actions=10):
    """A Pruner on ``api``; ``idle_now`` (ns -> pods) answers the action-time re-query (default: every pod idle)."""
    kube = connect(api.kubeconfig(tmp_path / "kubeconfig"), timeout=5)
    out = io.StringIO()
    recheck = idle_now or (lambda ns: {p["metadata"]["name"] for p in kube.pods(ns)})
    kw = {"clock": clock} if clock else {}
    return cycle.Pruner(kube, scope(single_cluster), cycle.Options(run_mode, max_actions, 1800, "USD",
                                                                   effect_timeout), recheck, out, **kw)


def lines(p: cycle.Pruner) -> list[dict]:
    return [json.loads(x) for x in p.out.getvalue().splitlines()]


def replicas(api: ApiServer, ns: str, name: str) -> int:
    return api.get(f"/apis/apps/v1/namespaces/{ns}/deployments/{name}")["spec"]["replicas"]

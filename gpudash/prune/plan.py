"""What the pruner acts on, and how each kind is stopped: pure decisions, no Kubernetes client, no I/O."""
from __future__ import annotations

from dataclasses import dataclass

from gpudash.promql import build as q
from gpudash.rules import names

REASON = "GPUIdleScaledDown"  # the Event reason of every action
OPT_OUT = "gpudash.io/prune"  # "false" on a workload or its namespace: never touched
PREVIOUS_REPLICAS = "gpudash.io/pruned-replicas"  # replicas before scale-down, read by --restore
NOTEBOOK_STOPPED = "kubeflow-resource-stopped"  # honoured by the Kubeflow notebook controller
# KServe >= 0.15 stops an InferenceService (deletes its serving objects) while this is "true"
# (kserve/kserve pkg/constants/constants.go StopAnnotationKey); removing it starts it again.
KSERVE_STOP = "serving.kserve.io/stop"
POD = names.POD
POD_NAME_ENV = "POD_NAME"  # the pruner pod's name, the Events' reportingInstance


@dataclass(frozen=True)
class Kind:
    """A kind the pruner can stop: its API group/version and plural, and how (``scale`` or ``annotation``)."""
    name: str
    group: str
    version: str
    plural: str
    how: str  # "scale": the scale subresource; "annotation": set ``stop_annotation``; "report": never touched
    stop_annotation: str = ""


KINDS = {k.name: k for k in (
    Kind("Deployment", "apps", "v1", "deployments", "scale"),
    Kind("StatefulSet", "apps", "v1", "statefulsets", "scale"),
    Kind("ReplicaSet", "apps", "v1", "replicasets", "scale"),
    Kind("Notebook", "kubeflow.org", "v1", "notebooks", "annotation", NOTEBOOK_STOPPED),
    Kind("InferenceService", "serving.kserve.io", "v1beta1", "inferenceservices", "annotation", KSERVE_STOP),
    Kind("Job", "batch", "v1", "jobs", "report"),
    Kind("Pod", "", "v1", "pods", "report"),
)}


def permissions() -> frozenset[tuple[str, str, str]]:
    """(verb, API group, resource) of every call :mod:`gpudash.prune.api` makes: get pods and namespaces, get
    each owner kind, patch the annotations of stoppable kinds and the ``scale`` subresource of scalable ones,
    create Events. The ClusterRole's rules (:mod:`gpudash.prune.deploy`), nothing more."""
    out = {("get", "", "namespaces"), ("create", "", "events")}
    for kind in KINDS.values():
        out.add(("get", kind.group, kind.plural))
        if kind.how != "report":
            out.add(("patch", kind.group, kind.plural))
        if kind.how == "scale":
            out |= {("get", kind.group, f"{kind.plural}/scale"), ("patch", kind.group, f"{kind.plural}/scale")}
    return frozenset(out)


@dataclass(frozen=True)
class IdlePod:
    cluster: str
    namespace: str
    pod: str
    cost_per_hour: float
    busy_siblings: bool = False  # another pod of its workload holds GPUs and is not idle


def idle_query(fresh_seconds: int, cluster: str = ".*", namespace: str = ".*", gpu_model: str = ".*",
               duration: int = 0) -> str:
    """The recorded idle series of tenant namespaces (exactly what GPUAllocatedIdle fires for), narrowed by the
    patterns; with ``duration``, the pod must also have been recorded idle ``duration`` ago."""
    fresh = q.duration(fresh_seconds)
    matchers = [(k, "=~", v) for k, v in (("cluster", cluster), ("namespace", namespace), ("gpu_model", gpu_model))
                if v != ".*"]
    idle = f"last_over_time({q.selector(names.POD_IDLE, *matchers)}[{fresh}])"  # labels names.labels(names.POD_IDLE)
    tenants = f"max by (namespace) (last_over_time({names.TENANT_INFO}[{fresh}]))"
    out = f"{idle} and on (namespace) {tenants}"
    if duration:
        out = f"({out}) and on {q.labels(POD)} ({idle} offset {q.duration(duration)})"
    return q.agg("max", (*POD, "workload", "workload_type"), out)


def unobserved_query(fresh_seconds: int, cluster: str = ".*", namespace: str = ".*") -> str:
    """Pods holding priced GPUs now without any recent activity sample: never idle, reported as skipped."""
    fresh = q.duration(fresh_seconds)
    matchers = [(k, "=~", v) for k, v in (("cluster", cluster), ("namespace", namespace)) if v != ".*"]
    cost = f"last_over_time({q.selector(names.POD_COST_RATE, *matchers)}[{fresh}])"
    seen = f"last_over_time({names.POD_ACTIVITY_MAX}[{fresh}])"
    return q.agg("max", POD, f"{cost} unless on {q.labels(POD)} {seen}")


def busy_workloads_query(fresh_seconds: int) -> str:
    """(cluster, namespace, workload, workload_type) with a pod holding GPUs that is not idle: never stopped."""
    fresh = q.duration(fresh_seconds)
    keys = ("cluster", "namespace", "workload", "workload_type")
    busy = (f"last_over_time({names.POD_COST_RATE}[{fresh}]) unless on {q.labels(POD)} "
            f"last_over_time({names.POD_IDLE}[{fresh}])")
    return q.agg("count", keys, busy)


def event_message(kind: str, name: str, idle_for: str, cost: float, currency: str, pods) -> str:
    return (f"gpudash prune stopped {kind} {name}: its GPUs (pods {', '.join(sorted(pods))}) showed no activity for "
            f"at least {idle_for}, billed {cost:.2f} {currency}/hour while idle. Restore with: gpudash prune "
            f"--restore <namespace>/{kind}/{name}")

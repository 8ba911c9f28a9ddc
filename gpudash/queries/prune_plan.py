"""What the pruner acts on, and how each kind is stopped: pure decisions, no Kubernetes client, no I/O."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from gpudash.model import series as names
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.promql import build as q

REASON = "GPUIdleScaledDown"  # the Event reason of every action
REASON_INEFFECTIVE = "GPUIdleStopIneffective"  # Warning Event: a stop did not free the GPUs in --effect-timeout
OPT_OUT = "gpudash.io/prune"  # "false" on a workload or its namespace: never touched
PREVIOUS_REPLICAS = "gpudash.io/pruned-replicas"  # replicas before scale-down, read by --restore
PRUNED_AT = "gpudash.io/pruned-at"  # when gpudash prune stopped it (RFC 3339), until its GPUs are proven free
INEFFECTIVE = "gpudash.io/prune-ineffective"  # when its stop was found not to free the GPUs: never retried
# The Kubeflow notebook controller stops a Notebook (its StatefulSet to 0 replicas) while this annotation is
# present, whatever its value: kubeflow/kubeflow components/notebook-controller/pkg/culler/culler.go
# StopAnnotationIsSet (v0.7.0-v1.6.1), controllers/notebook_controller.go metav1.HasAnnotation (v1.7.0-v1.10.0).
NOTEBOOK_STOPPED = "kubeflow-resource-stopped"
# KServe stops an InferenceService (deletes its serving objects) while this is "true", case-insensitively
# (kserve/kserve pkg/constants/constants.go StopAnnotationKey, pkg/utils/utils.go GetForceStopRuntime): from
# v0.15.1 in Serverless mode (PR #4337), from v0.16.0 in RawDeployment mode (PR #4455). An older KServe ignores
# it: the pruner then finds the predictor pods still there and marks the stop ineffective.
KSERVE_STOP = "serving.kserve.io/stop"
KSERVE_LABEL = ksm.INFERENCESERVICE_KEY  # on every predictor pod (gpu-pruner's shortcut too)
POD = names.POD
POD_NAME_ENV = "POD_NAME"  # the pruner pod's name, the Events' reportingInstance
POD_NAMESPACE_ENV = "POD_NAMESPACE"  # the pruner pod's namespace: never acted on
# Never acted on, whatever the rows say: the cluster's own namespaces (and the pruner's, see Scope).
SYSTEM_NAMESPACES = ("default", "openshift")
SYSTEM_PREFIXES = ("openshift-", "kube-")
_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")
_DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")


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
# Listed in each namespace it scales in: a Deployment, StatefulSet or ReplicaSet an HPA targets is skipped (the
# HPA owns its replicas; upstream gpu-pruner scales it regardless, wseaton/gpu-pruner gpu-pruner/src/lib.rs
# scale_to_zero).
HPA = Kind("HorizontalPodAutoscaler", "autoscaling", "v2", "horizontalpodautoscalers", "report")


def permissions() -> frozenset[tuple[str, str, str]]:
    """(verb, API group, resource) of every call :mod:`gpudash.ops.prune.api` makes, all in a tenant namespace: list
    pods, get its namespace, get each owner kind, list HPAs, patch the annotations of stoppable kinds and
    the ``scale`` subresource of scalable ones, create Events. Each tenant namespace's Role
    (:mod:`gpudash.render.pruner_deployment`), nothing more and nothing cluster-wide."""
    out = {("get", "", "namespaces"), ("create", "", "events"), ("list", "", "pods"),
           ("list", HPA.group, HPA.plural)}
    for kind in KINDS.values():
        if kind.name != "Pod":  # pods are listed (every GPU pod of a workload), never read one by one
            out.add(("get", kind.group, kind.plural))
        if kind.how != "report":
            out.add(("patch", kind.group, kind.plural))
        if kind.how == "scale":
            out |= {("get", kind.group, f"{kind.plural}/scale"), ("patch", kind.group, f"{kind.plural}/scale")}
    return frozenset(out)


def system_namespace(ns: str) -> bool:
    return ns in SYSTEM_NAMESPACES or ns.startswith(SYSTEM_PREFIXES)


@dataclass(frozen=True)
class Scope:
    """Where this pruner may act: its own cluster (rows of any other are refused; rows without ``cluster`` only
    with ``single_cluster``, a cluster's own Prometheus) and the model's tenant namespaces, never a system
    namespace or its own."""
    cluster: str
    namespaces: frozenset[str]
    own_namespace: str = ""
    single_cluster: bool = False

    def namespace_refusal(self, ns) -> str | None:
        if not isinstance(ns, str) or not _DNS_LABEL.fullmatch(ns):
            return f"namespace {ns!r} is not a namespace name"
        if ns == self.own_namespace:
            return f"namespace {ns} is the pruner's own"
        if system_namespace(ns):
            return f"namespace {ns} is a system namespace (openshift-*, kube-*, default): never pruned"
        if ns not in self.namespaces:
            return f"namespace {ns} is not a tenant namespace of the model"
        return None

    def refusal(self, row: IdlePod) -> str | None:
        """Why ``row`` is outside this pruner's scope, or None."""
        if row.cluster is None:
            if not self.single_cluster:
                return f"the row has no cluster label (accepted only with --single-cluster): not {self.cluster}'s"
        elif row.cluster != self.cluster:
            return f"the row is of cluster {row.cluster!r}: this pruner acts on {self.cluster!r} only"
        refused = self.namespace_refusal(row.namespace)
        if refused:
            return refused
        if not isinstance(row.pod, str) or not _DNS_SUBDOMAIN.fullmatch(row.pod):
            return f"pod {row.pod!r} is not a pod name"
        return None


@dataclass(frozen=True)
class IdlePod:
    cluster: str | None  # None: the row had no cluster label
    namespace: str | None
    pod: str | None
    cost_per_hour: float
    busy_siblings: bool = False  # another pod of its workload holds GPUs and is not idle


def idle_query(fresh_seconds: int, cluster: str | None = None, gpu_model: str = ".*", duration: int = 0) -> str:
    """The recorded idle series of tenant namespaces (exactly what GPUAllocatedIdle fires for) of ``cluster``
    (None: every row, a cluster's own Prometheus), narrowed by the GPU model pattern; with ``duration``, the pod
    must also have been recorded idle ``duration`` ago. The pruner checks the scope of every row again itself."""
    fresh = q.duration(fresh_seconds)
    matchers = [("cluster", "=", cluster)] if cluster is not None else []
    matchers += [("gpu_model", "=~", gpu_model)] if gpu_model != ".*" else []
    idle = f"last_over_time({q.selector(names.POD_IDLE, *matchers)}[{fresh}])"  # labels names.labels(names.POD_IDLE)
    tenants = f"max by (namespace) (last_over_time({names.TENANT_INFO}[{fresh}]))"
    out = f"{idle} and on (namespace) {tenants}"
    if duration:
        out = f"({out}) and on {q.labels(POD)} ({idle} offset {q.duration(duration)})"
    return q.agg("max", (*POD, "workload", "workload_type"), out)


def unobserved_query(fresh_seconds: int, cluster: str | None = None) -> str:
    """Pods holding priced GPUs now without any recent activity sample: never idle, reported as skipped."""
    fresh = q.duration(fresh_seconds)
    matchers = [("cluster", "=", cluster)] if cluster is not None else []
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


def money(cost: float) -> str:
    return f"{cost:.2f}" if math.isfinite(cost) and cost >= 0 else "an unknown amount"


def event_message(kind: str, name: str, idle_for: str, cost: float, currency: str, pods) -> str:
    return (f"gpudash prune stopped {kind} {name}: its GPUs (pods {', '.join(sorted(pods))}) showed no activity for "
            f"at least {idle_for}, billed {money(cost)} {currency}/hour while idle. Restore with: gpudash prune "
            f"--restore <namespace>/{kind}/{name}")


def ineffective_message(kind: str, name: str, stopped_at: str, waited: str, pods) -> str:
    return (f"gpudash prune stopped {kind} {name} at {stopped_at}, but after {waited} its GPU pods "
            f"({', '.join(sorted(pods))}) still hold their GPUs: the stop did nothing (for an InferenceService: "
            f"KServe older than 0.15.1 Serverless / 0.16.0 RawDeployment). Not retried; GPUPrunerIneffective fires.")


def stopped(kind: Kind, obj: dict) -> bool:
    """Whether ``obj`` is stopped as its controller reads it (see NOTEBOOK_STOPPED and KSERVE_STOP)."""
    annotations = obj["metadata"].get("annotations") or {}
    if kind.name == "Notebook":
        return NOTEBOOK_STOPPED in annotations
    if kind.name == "InferenceService":
        return str(annotations.get(KSERVE_STOP, "")).lower() == "true"
    return (obj.get("spec") or {}).get("replicas") == 0


def gpu_requests(pod: dict) -> bool:
    """Whether a pod requests any GPU vendor resource (kube-state-metrics' gpu_resource_regex()), in a container or
    an init container, as a request or a limit (extended resources default their request to the limit)."""
    spec = pod.get("spec") or {}
    for c in [*(spec.get("containers") or []), *(spec.get("initContainers") or [])]:
        res = (c or {}).get("resources") or {}
        for amounts in (res.get("requests") or {}, res.get("limits") or {}):
            for name, amount in amounts.items():
                if re.fullmatch(ksm.gpu_resource_regex(), ksm.sanitise_resource(name)) and str(amount) not in ("0", ""):
                    return True
    return False

"""The few Kubernetes calls the pruner makes, through the official client (the ``gpudash[prune]`` extra).

GET pods, namespaces and owners (generic ``/apis/{group}/{version}/namespaces/{ns}/{plural}/{name}`` paths, so
built-in kinds and the Notebook / InferenceService CRDs go the same way), GET/PATCH the ``scale`` subresource,
PATCH annotations (JSON merge patch: accepted by built-in kinds and CRDs alike), POST core/v1 Events.
Every failure becomes :class:`ApiError`, one line naming the call and the API's Status message.
"""
from __future__ import annotations

import json
import os
from datetime import UTC, datetime

from kubernetes import client, config
from kubernetes.client.exceptions import ApiException

from gpudash.prune.plan import KINDS, POD_NAME_ENV, Kind

MERGE = "application/merge-patch+json"
KSERVE_LABEL = "serving.kserve.io/inferenceservice"  # on every predictor pod (gpu-pruner's shortcut too)



class ApiError(Exception):
    """One Kubernetes call failed; ``str()`` is the one line logged."""


def connect(kubeconfig: str | None) -> Api:
    """The in-cluster config when running in a pod (and no kubeconfig is given), else the kubeconfig."""
    if kubeconfig is None and os.environ.get("KUBERNETES_SERVICE_HOST"):
        config.load_incluster_config()
        return Api(client.ApiClient())
    return Api(config.new_client_from_config(config_file=kubeconfig))


def _status(err: ApiException) -> str:
    try:
        body = json.loads(err.body or "{}")
    except ValueError:
        body = {}
    return f"{err.status} {body.get('reason') or err.reason}: {body.get('message') or (err.body or '').strip()}"


class Api:
    def __init__(self, api_client):
        self.core = client.CoreV1Api(api_client)
        self.custom = client.CustomObjectsApi(api_client)

    def _call(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ApiException as err:
            raise ApiError(f"{what}: {_status(err)}") from None
        except Exception as err:  # connection refused, TLS, timeouts: still one line
            raise ApiError(f"{what}: {type(err).__name__}: {err}") from None

    def pod(self, ns: str, name: str) -> dict:
        pod = self._call(f"get pod {ns}/{name}", self.core.read_namespaced_pod, name, ns)
        return self.core.api_client.sanitize_for_serialization(pod)

    def namespace_annotations(self, ns: str) -> dict:
        obj = self._call(f"get namespace {ns}", self.core.read_namespace, ns)
        return obj.metadata.annotations or {}

    def get(self, kind: Kind, ns: str, name: str) -> dict:
        return self._call(f"get {kind.name} {ns}/{name}", self.custom.get_namespaced_custom_object,
                          kind.group, kind.version, ns, kind.plural, name)

    def annotate(self, kind: Kind, ns: str, name: str, annotations: dict, resource_version: str | None = None):
        """Merge ``annotations`` (None removes one); with ``resource_version``, a 409 if the object changed."""
        meta = {"annotations": annotations, **({"resourceVersion": resource_version} if resource_version else {})}
        return self._call(f"annotate {kind.name} {ns}/{name}", self.custom.patch_namespaced_custom_object,
                          kind.group, kind.version, ns, kind.plural, name, {"metadata": meta}, _content_type=MERGE)

    def scale(self, kind: Kind, ns: str, name: str) -> dict:
        return self._call(f"get {kind.name} {ns}/{name} scale", self.custom.get_namespaced_custom_object_scale,
                          kind.group, kind.version, ns, kind.plural, name)

    def set_replicas(self, kind: Kind, ns: str, name: str, replicas: int, resource_version: str):
        body = {"metadata": {"resourceVersion": resource_version}, "spec": {"replicas": replicas}}
        return self._call(f"scale {kind.name} {ns}/{name} to {replicas}",
                          self.custom.patch_namespaced_custom_object_scale,
                          kind.group, kind.version, ns, kind.plural, name, body, _content_type=MERGE)

    def event(self, kind: Kind, obj: dict, reason: str, message: str, action: str) -> None:
        meta = obj["metadata"]
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        body = {"apiVersion": "v1", "kind": "Event",
                "metadata": {"generateName": f"{meta['name']}.gpudash-prune-", "namespace": meta["namespace"]},
                "involvedObject": {"apiVersion": obj.get("apiVersion", f"{kind.group}/{kind.version}".lstrip("/")),
                                   "kind": kind.name, "name": meta["name"], "namespace": meta["namespace"],
                                   "uid": meta.get("uid"), "resourceVersion": meta.get("resourceVersion")},
                "reason": reason, "message": message, "type": "Normal", "action": action,
                "source": {"component": "gpudash-prune"}, "reportingComponent": "gpudash.io/prune",
                "reportingInstance": os.environ.get(POD_NAME_ENV, "gpudash-prune"),
                "firstTimestamp": now, "lastTimestamp": now, "count": 1}
        self._call(f"create event for {kind.name} {meta['namespace']}/{meta['name']}",
                   self.core.create_namespaced_event, meta["namespace"], body)


def root(api: Api, ns: str, pod_name: str) -> tuple[Kind, dict]:
    """The object that owns a pod's GPUs, following owner references (gpu-pruner's find_root_object):
    KServe predictor pod -> InferenceService; ReplicaSet -> its Deployment; StatefulSet -> its Notebook; a Job
    or a bare pod is returned as itself (reported, never touched)."""
    pod = api.pod(ns, pod_name)
    isvc = (pod["metadata"].get("labels") or {}).get(KSERVE_LABEL)
    if isvc:
        return KINDS["InferenceService"], api.get(KINDS["InferenceService"], ns, isvc)
    kind, obj = KINDS["Pod"], pod
    for _ in range(3):  # Pod -> ReplicaSet/StatefulSet/Job -> Deployment/Notebook
        owner = next((o for o in obj["metadata"].get("ownerReferences") or [] if o.get("controller")), None)
        if owner is None or owner["kind"] not in KINDS:
            return kind, obj
        kind = KINDS[owner["kind"]]
        obj = api.get(kind, ns, owner["name"])
    return kind, obj

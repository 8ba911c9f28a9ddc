"""The few Kubernetes calls the pruner makes, through the official client (the ``gpudash[prune]`` extra).

GET a namespace or an owner (generic ``/apis/{group}/{version}/namespaces/{ns}/{plural}/{name}`` paths, so
built-in kinds and the Notebook / InferenceService CRDs go the same way), LIST the pods and the
HorizontalPodAutoscalers of a tenant namespace, GET/PATCH the ``scale`` subresource, PATCH annotations (JSON merge
patch: accepted by built-in kinds and CRDs alike), POST core/v1 Events: every call namespaced, so a Role per tenant
namespace is all it needs (:func:`gpudash.queries.prune_plan.permissions`).

Every call has a deadline (``timeout``, connect and read) and is tried once (no urllib3 retries that would
multiply it); every failure becomes :class:`ApiError`, one line naming the call and the API's Status message.
"""
from __future__ import annotations

import json
import os
from datetime import UTC, datetime

from kubernetes import client, config
from kubernetes.client.exceptions import ApiException

from gpudash.queries.prune_plan import HPA, KINDS, KSERVE_LABEL, POD_NAME_ENV, Kind

MERGE = "application/merge-patch+json"
TIMEOUT = 10.0  # seconds, the default deadline of one call (--api-timeout)


class ApiError(Exception):
    """One Kubernetes call failed; ``str()`` is the one line logged, ``status`` the HTTP status (0: none)."""

    def __init__(self, message: str, status: int = 0):
        super().__init__(message)
        self.status = status


def connect(kubeconfig: str | None, timeout: float = TIMEOUT) -> Api:
    """The in-cluster config when running in a pod (and no kubeconfig is given), else the kubeconfig."""
    cfg = client.Configuration()
    if kubeconfig is None and os.environ.get("KUBERNETES_SERVICE_HOST"):
        config.load_incluster_config(client_configuration=cfg)
    else:
        config.load_kube_config(config_file=kubeconfig, client_configuration=cfg)
    cfg.retries = False  # one try per call: the deadline is the call's, not a multiple of it
    return Api(client.ApiClient(cfg), timeout)


def _status(err: ApiException) -> str:
    try:
        body = json.loads(err.body or "{}")
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    return f"{err.status} {body.get('reason') or err.reason}: {body.get('message') or (err.body or '').strip()}"


class Api:
    def __init__(self, api_client, timeout: float = TIMEOUT):
        self.core = client.CoreV1Api(api_client)
        self.custom = client.CustomObjectsApi(api_client)
        self.timeout = timeout

    def _call(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs, _request_timeout=(self.timeout, self.timeout))
        except ApiException as err:
            raise ApiError(f"{what}: {_status(err)}", err.status or 0) from None
        except Exception as err:  # connection refused, TLS, timeouts: still one line
            raise ApiError(f"{what}: {type(err).__name__}: {err}") from None

    def _raw(self, what: str, fn, *args) -> dict:
        """A core call's JSON as the API sent it (no client model: a pod the model cannot hold is still read)."""
        resp = self._call(what, fn, *args, _preload_content=False)
        try:
            out = json.loads(resp.data)
        except ValueError:
            raise ApiError(f"{what}: the answer is not JSON") from None
        if not isinstance(out, dict):
            raise ApiError(f"{what}: the answer is not an object")
        return out

    def pods(self, ns: str) -> list[dict]:
        items = self._raw(f"list pods in {ns}", self.core.list_namespaced_pod, ns).get("items")
        if not isinstance(items, list):
            raise ApiError(f"list pods in {ns}: the answer has no items list")
        return [p for p in items if isinstance(p, dict) and isinstance(p.get("metadata"), dict)]

    def autoscalers(self, ns: str) -> list[dict]:
        out = self._call(f"list {HPA.plural} in {ns}", self.custom.list_namespaced_custom_object,
                         HPA.group, HPA.version, ns, HPA.plural)
        return [h for h in out.get("items") or [] if isinstance(h, dict)]

    def namespace_annotations(self, ns: str) -> dict:
        obj = self._raw(f"get namespace {ns}", self.core.read_namespace, ns)
        return (obj.get("metadata") or {}).get("annotations") or {}

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

    def event(self, kind: Kind, obj: dict, reason: str, message: str, action: str, warning: bool = False) -> None:
        meta = obj["metadata"]
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        body = {"apiVersion": "v1", "kind": "Event",
                "metadata": {"generateName": f"{meta['name']}.gpudash-prune-", "namespace": meta["namespace"]},
                "involvedObject": {"apiVersion": obj.get("apiVersion", f"{kind.group}/{kind.version}".lstrip("/")),
                                   "kind": kind.name, "name": meta["name"], "namespace": meta["namespace"],
                                   "uid": meta.get("uid"), "resourceVersion": meta.get("resourceVersion")},
                "reason": reason, "message": message, "type": "Warning" if warning else "Normal", "action": action,
                "source": {"component": "gpudash-prune"}, "reportingComponent": "gpudash.io/prune",
                "reportingInstance": os.environ.get(POD_NAME_ENV, "gpudash-prune"),
                "firstTimestamp": now, "lastTimestamp": now, "count": 1}
        self._call(f"create event for {kind.name} {meta['namespace']}/{meta['name']}",
                   self.core.create_namespaced_event, meta["namespace"], body)


class Owners:
    """Owner resolution for one cycle (gpu-pruner's find_root_object, wseaton/gpu-pruner gpu-pruner/src/lib.rs):
    KServe predictor pod -> InferenceService (its ``serving.kserve.io/inferenceservice`` label); ReplicaSet -> its
    Deployment; StatefulSet -> its Notebook; a Job or a bare pod is returned as itself (reported, never touched).
    Each owner is read once per instance."""

    def __init__(self, api: Api):
        self.api = api
        self.cache: dict[tuple[str, str, str], dict] = {}

    def get(self, kind: Kind, ns: str, name: str) -> dict:
        key = (kind.name, ns, name)
        if key not in self.cache:
            self.cache[key] = self.api.get(kind, ns, name)
        return self.cache[key]

    def root(self, pod: dict) -> tuple[Kind, dict]:
        meta = pod["metadata"]
        ns = meta.get("namespace", "")
        isvc = (meta.get("labels") or {}).get(KSERVE_LABEL)
        if isvc:
            return KINDS["InferenceService"], self.get(KINDS["InferenceService"], ns, isvc)
        kind, obj = KINDS["Pod"], pod
        for _ in range(3):  # Pod -> ReplicaSet/StatefulSet/Job -> Deployment/Notebook
            owner = next((o for o in obj["metadata"].get("ownerReferences") or [] if o.get("controller")), None)
            if owner is None or owner.get("kind") not in KINDS:
                return kind, obj
            kind = KINDS[owner["kind"]]
            obj = self.get(kind, ns, owner["name"])
        return kind, obj


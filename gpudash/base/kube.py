"""Kubernetes object skeletons shared by the ACM, single-cluster and Grafana artifact families."""
from __future__ import annotations

import re
from typing import Any, TypeGuard

from gpudash.base.deferred import Deferred
from gpudash.base.errors import GenerationError
from gpudash.base.yamlfmt import COMMENT, json_text

# Kubernetes size limits, the one home for them. Every object (a ConfigMap's or Secret's data in particular) must
# stay under 1 MiB; client-side `kubectl apply` and ArgoCD's default sync store the whole object as JSON in the
# kubectl.kubernetes.io/last-applied-configuration annotation, and annotations total at most 256 KiB: the API server
# sums len(key) + len(value) of every annotation and refuses more than 256 << 10 bytes
# (kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateAnnotationsSize).
MAX_OBJECT_BYTES = 1024 * 1024
LAST_APPLIED_LIMIT = 262_144
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
# The annotation's value is the object encoded by unstructuredJSONScheme (kubernetes/kubernetes
# staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/helpers.go doEncode: a Go json.Encoder, which
# escapes <, >, & and U+2028/U+2029 as \u00XX (HTML escaping is on by default) and ends with a newline), with the
# object's other annotations in it and without the last-applied one (kubernetes/kubectl pkg/util/apply.go
# GetModifiedConfiguration).
# Each escape is 6 bytes (golang/go src/encoding/json/encode.go: `\u00` + two hex digits, `\u202` + one): an
# ASCII <, > or & (1 byte in UTF-8) grows by 5, U+2028/U+2029 (3 bytes) by 3; the size
# is counted from these instead of building the escaped text (str.translate with a dict is slow on 250 KB).
_GO_ESCAPE_GROWTH = {"<": 5, ">": 5, "&": 5, "\u2028": 3, "\u2029": 3}
# Object names (kubernetes/apimachinery pkg/util/validation/validation.go): most kinds' names are DNS-1123
# subdomains (DNS1123SubdomainMaxLength 253; a Deployment's too, kubernetes/kubernetes pkg/apis/apps/validation
# ValidateDeploymentName = NameIsDNSSubdomain), a Namespace's or Service's a DNS-1123 label (DNS1123LabelMaxLength
# 63), as is a label value (LabelValueMaxLength 63).
SUBDOMAIN_MAX = 253
LABEL_MAX = 63
# A Deployment's ReplicaSet is named <deployment>-<pod template hash> (kubernetes/kubernetes
# pkg/controller/deployment/sync.go), the hash a uint32 in decimal, at most 10 characters (pkg/controller/
# controller_utils.go ComputeHash): a longer Deployment name is accepted, but its ReplicaSet never is.
DEPLOYMENT_MAX = SUBDOMAIN_MAX - len("-") - len(str(2**32 - 1))
PRUNE_NAME = "gpudash-prune"  # the pruner's ServiceAccount, Roles, bindings and Service; Deployments add a cluster
SYNC_OPTIONS = "argocd.argoproj.io/sync-options"
SERVER_SIDE_APPLY = "ServerSideApply=true"
# An object gpudash labels but does not own (a namespace whose workloads others deploy): ArgoCD neither prunes it
# when it leaves the folder nor deletes it with the Application (argoproj/argo-cd docs/user-guide/sync-options.md,
# "No Prune Resources", "No Resource Deletion").
NOT_OWNED = "Prune=false,Delete=false"

# OpenShift's platform Prometheus selects ServiceMonitors and PrometheusRules only in namespaces labelled so
# (openshift/cluster-monitoring-operator assets/prometheus-k8s/prometheus.yaml, *NamespaceSelector).
CLUSTER_MONITORING = {"openshift.io/cluster-monitoring": "true"}
# The platform Prometheus itself: the Prometheus CR "k8s" in openshift-monitoring, running as the service account
# prometheus-k8s (assets/prometheus-k8s/prometheus.yaml serviceAccountName).
PLATFORM_NAMESPACE = "openshift-monitoring"
PLATFORM_PROMETHEUS = "prometheus-k8s"
RBAC_API = "rbac.authorization.k8s.io/v1"
# A Service's in-cluster DNS names end so (kubernetes/website content/en/docs/concepts/services-networking/
# dns-pod-service.md): only there is a pod's own service account token meant to be sent.
SERVICE_DNS_SUFFIXES = (".svc", ".svc.cluster.local")
PART_OF = {"app.kubernetes.io/part-of": "gpudash", "app.kubernetes.io/managed-by": "gpudash"}


# The REST resource of every kind gpudash renders, as RBAC rules name it (the plural of the kind's CRD or built-in
# type): what the Roles rendered for ArgoCD's application controller grant, and what the sync check tests.
RESOURCES = {
    "Namespace": "namespaces", "ServiceAccount": "serviceaccounts", "Service": "services", "ConfigMap": "configmaps",
    "Secret": "secrets", "ResourceQuota": "resourcequotas", "Deployment": "deployments", "Role": "roles",
    "RoleBinding": "rolebindings", "ClusterRole": "clusterroles", "ClusterRoleBinding": "clusterrolebindings",
    "ServiceMonitor": "servicemonitors", "PrometheusRule": "prometheusrules",
    "MultiClusterObservability": "multiclusterobservabilities", "Policy": "policies",
    "PlacementBinding": "placementbindings", "Placement": "placements",
    "ManagedClusterSetBinding": "managedclustersetbindings", "GrafanaDashboard": "grafanadashboards",
    "GrafanaFolder": "grafanafolders", "GrafanaDatasource": "grafanadatasources", "Application": "applications",
    "ApplicationSet": "applicationsets",
}


def resource(data: dict[str, Any]) -> tuple[str, str]:
    """(API group, resource) of an object, as an RBAC rule names them ("" = the core group)."""
    kind = data["kind"]
    if kind not in RESOURCES:
        raise GenerationError(f"{kind} {data['metadata']['name']}: no REST resource known for kind {kind} "
                              "(add it to gpudash.base.kube.RESOURCES)")
    return str(data["apiVersion"]).rpartition("/")[0], RESOURCES[kind]


def obj(api_version: str, kind: str, name: str, namespace: str | None = None, labels: dict[str, str] | None = None,
        annotations: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    """A Kubernetes object as plain data, with gpudash's ownership labels."""
    meta: dict[str, Any] = {"name": name}
    if namespace:
        meta["namespace"] = namespace
    meta["labels"] = {**PART_OF, **(labels or {})}
    if annotations:
        meta["annotations"] = annotations
    return {"apiVersion": api_version, "kind": kind, "metadata": meta, **body}


def configmap(name: str, namespace: str, data: dict[str, str], **kw: Any) -> dict[str, Any]:
    return obj("v1", "ConfigMap", name, namespace, data=data, **kw)


KUSTOMIZE_GROUP = "kustomize.config.k8s.io/"
PATCH_SUFFIX = ".patch.yaml"  # a kustomize patch: shaped like an object, never applied as one


def is_object(data: object) -> TypeGuard[dict[str, Any]]:
    """A Kubernetes object to apply (not a kustomize Kustomization/Component)."""
    return (isinstance(data, dict) and "apiVersion" in data and "kind" in data
            and not str(data["apiVersion"]).startswith(KUSTOMIZE_GROUP))


def is_resource(path: str, data: object) -> bool:
    """An output file that a kustomization lists as a resource: an object that is not a patch (a deferred file
    says so without being built)."""
    if isinstance(data, Deferred):
        return data.resource
    return is_object(data) and not path.endswith(PATCH_SUFFIX)


def _compact(data: dict[str, Any]) -> str:
    return json_text(data, separators=(",", ":"), ensure_ascii=False)


def size(data: dict[str, Any], compact: str | None = None) -> int:
    """Bytes of the object as compact JSON: what the API server stores and last-applied would hold (``compact``:
    that text, when the caller has it)."""
    return len((_compact(data) if compact is None else compact).encode())


def annotations_size(data: dict[str, Any], compact: str | None = None) -> int:
    """Bytes the API server counts against :data:`LAST_APPLIED_LIMIT` once client-side apply has stored ``data``
    as its last-applied annotation: that annotation's key and value (the object as kubectl encodes it) and every
    other annotation's key and value (``compact``: the object's compact JSON, when the caller has it; without it,
    each long string of ``data``, such as a dashboard's JSON in a ConfigMap, is counted, not escaped)."""
    others = {k: v for k, v in data.get("metadata", {}).get("annotations", {}).items() if k != LAST_APPLIED}
    if compact is None:
        long: list[str] = []
        compact = _compact(_without_long(data, long))
        encoded = sum(_string_bytes(text) - len('""') for text in long)
    else:
        encoded = 0
    encoded += _go_bytes(compact) + len("\n")
    return len(LAST_APPLIED.encode()) + encoded + sum(len(f"{k}{v}".encode()) for k, v in others.items())


def _go_bytes(text: str) -> int:
    """Bytes of JSON text ``text`` as Go's encoder writes it."""
    raw = text.encode()
    return len(raw) + _go_growth(text, raw)


_GO_ASCII = {c.encode(): n for c, n in _GO_ESCAPE_GROWTH.items() if c.isascii()}
_NOT_GO_ASCII = bytes(b for b in range(0x100) if bytes([b]) not in _GO_ASCII)


def _go_growth(text: str, raw: bytes) -> int:
    """What Go's encoder adds to JSON text ``text`` (``raw``: its UTF-8), :data:`_GO_ESCAPE_GROWTH`, by C scans: the
    ASCII escapes counted in what is left of ``raw`` without every other byte, the others only in a text not ASCII."""
    return _growth(text, raw.translate(None, _NOT_GO_ASCII), len(raw) != len(text))


def _growth(text: str, kept: bytes, non_ascii: bool) -> int:
    """:func:`_go_growth` from ``kept``: the text's UTF-8 without (at least) every byte not in :data:`_GO_ASCII`."""
    grown = sum(n * kept.count(c) for c, n in _GO_ASCII.items())
    if non_ascii:
        grown += sum(n * text.count(c) for c, n in _GO_ESCAPE_GROWTH.items() if not c.isascii())
    return grown


LONG = 4096  # characters of a string counted by _string_bytes instead of being escaped by json


def _without_long(data: Any, long: list[str]) -> Any:
    """``data`` with each string value of :data:`LONG` characters or more replaced by "", appended to
    ``long``; ``data`` itself where it holds none (its containers are not copied)."""
    if isinstance(data, str):
        if len(data) < LONG:
            return data
        long.append(data)
        return ""
    if isinstance(data, dict):
        found = len(long)
        out = {k: _without_long(v, long) for k, v in data.items()}  # keys kept: two long ones would collide
        return out if len(long) > found else data
    if isinstance(data, list):
        found = len(long)
        items = [_without_long(v, long) for v in data]
        return items if len(long) > found else data
    return data


# json.dumps (ensure_ascii=False) writes " and \ and \b \f \n \r \t with a backslash, any other character under
# U+0020 as \u00XX (cpython Lib/json/encoder.py ESCAPE, ESCAPE_DCT). Go's encoder writes the same, but for \b and \f
# as \u0008 and \u000c, 4 bytes more each (golang/go src/encoding/json/encode.go, encodeState.string, the version
# read): no rendered object holds either, the model's texts refuse control characters (gpudash/model/schema_types.py).
# The escapes Go adds beyond these are _GO_ESCAPE_GROWTH.
_SHORT_ESCAPES = b"\b\f\n\r\t"
_CONTROLS = bytes(range(0x20))
_ESCAPED_ASCII = _CONTROLS + b'"\\' + b"".join(_GO_ASCII)  # what json.dumps or Go's encoder escapes of ASCII
_NOT_ESCAPED_ASCII = bytes(b for b in range(0x100) if b not in _ESCAPED_ASCII)


def _string_bytes(text: str) -> int:
    """Bytes of ``text`` as Go encodes it in JSON, quotes included: what ``_go_bytes(json.dumps(text,
    ensure_ascii=False))`` gives, counted with C scans instead of built: one ``bytes.translate`` keeps the escaped
    ASCII bytes (UTF-8 keeps them one byte each), which are then sorted and counted (a dashboard's 49 KB: 0.02 ms;
    a scan per count took 0.09, building it 0.3)."""
    raw = text.encode()
    kept = raw.translate(None, _NOT_ESCAPED_ASCII)
    controls = kept.translate(None, _NOT_CONTROL)  # the characters under U+0020
    go = kept.translate(None, _NOT_GO_ASCII)
    short = sum(controls.count(c) for c in _SHORT_ESCAPES)
    quoted = len(kept) - len(controls) - len(go)  # '"' and '\\'
    escaped = quoted + short + 5 * (len(controls) - short)
    return len(raw) + len('""') + escaped + _growth(text, go, len(raw) != len(text))


_NOT_CONTROL = bytes(range(0x20, 0x100))


def fit(path: str, data: dict[str, Any] | Deferred) -> dict[str, Any] | Deferred:
    """``data`` checked against the size limits: refused over 1 MiB; with annotations over 256 KiB once
    client-side apply adds last-applied (:func:`annotations_size`), annotated for ArgoCD server-side apply (and
    commented why). A deferred object is left as it is: its builder refuses it over 256 KiB
    (:class:`gpudash.base.deferred.Deferred`)."""
    if isinstance(data, Deferred):
        return data
    compact = _compact(data)  # serialised once for both sizes
    n = size(data, compact)
    kind, name = data.get("kind"), data.get("metadata", {}).get("name")
    if n >= MAX_OBJECT_BYTES:
        raise GenerationError(f"{path}: {kind} {name} is {n} bytes, over Kubernetes' {MAX_OBJECT_BYTES}-byte object "
                              "limit (1 MiB): it cannot be applied; reduce the model (fewer tenants or GPU classes)")
    annotated = annotations_size(data, compact)
    if annotated <= LAST_APPLIED_LIMIT:
        return data
    meta = dict(data["metadata"])
    meta["annotations"] = {**meta.get("annotations", {}), SYNC_OPTIONS: SERVER_SIDE_APPLY}
    why = (f"{kind} {name} would need {annotated} bytes of annotations applied client-side (its last-applied\n"
           f"annotation holds the whole object), over the {LAST_APPLIED_LIMIT}-byte limit: apply it server-side\n"
           f"(ArgoCD: {SYNC_OPTIONS}: {SERVER_SIDE_APPLY}; kubectl: apply --server-side).")
    return {COMMENT: why, **{k: v for k, v in data.items() if k != COMMENT}, "metadata": meta}


def server_side(data: object) -> TypeGuard[dict[str, Any]]:
    """Whether :func:`fit` annotated ``data`` for server-side apply."""
    return is_object(data) and data.get("metadata", {}).get("annotations", {}).get(SYNC_OPTIONS) == SERVER_SIDE_APPLY


# What ArgoCD's cluster generator offers an ApplicationSet template as {{.nameNormalized}}: the cluster's name lowered,
# every character but [-a-z0-9.] replaced by "-", cut to 253 characters, "-" and "." trimmed from both ends
# (argoproj/argo-cd applicationset/generators/cluster.go sanitizeName).
_ARGOCD_NOT_DNS = re.compile(r"[^-a-z0-9.]")
ARGOCD_APP_PREFIX = "gpudash-"  # every Application gpudash renders, or its ApplicationSet generates, is named so


def argocd_name_normalized(cluster: str) -> str:
    """``{{.nameNormalized}}`` of ``cluster`` in an ApplicationSet's cluster generator."""
    return _ARGOCD_NOT_DNS.sub("-", cluster.lower())[:SUBDOMAIN_MAX].strip("-.")


def spoke_application_name(cluster: str) -> str:
    """The Application the spokes' ApplicationSet generates for ``cluster``."""
    return ARGOCD_APP_PREFIX + argocd_name_normalized(cluster)


def prune_deployment_name(cluster: str) -> str:
    """The pruner's Deployment on ``cluster``."""
    return f"{PRUNE_NAME}-{cluster}"

"""The pruner's in-cluster deployment, from the model's ``prune:`` section: pure data, no I/O.

``prune/`` (the same on every cluster): the Namespace, the ServiceAccount, a ClusterRole holding exactly the
permissions of :func:`gpudash.prune.plan.permissions` and its binding. ``prune/<cluster>/``: that cluster's
Deployment ``gpudash-prune-<cluster>`` running ``gpudash prune --daemon`` on its own workloads (named after
the cluster, so the top-level kustomization holds no two objects alike). Apply both folders on each cluster.
Like gpu-pruner (wseaton/gpu-pruner ``gpu-pruner/hack/``), one replica without leader election: ``Recreate``
stops the old pod before the new one starts, so two pruners never act in the same cycle.
"""
from __future__ import annotations

from gpudash import kube, layout
from gpudash.model.types import Model, Prune
from gpudash.promql import build as q
from gpudash.promql.read import TOKEN_ENV
from gpudash.prune import plan
from gpudash.yamlfmt import COMMENT

NAME = "gpudash-prune"  # ServiceAccount, ClusterRole and binding; Deployments add their cluster
TOKEN_KEY = "token"  # key of prune.token_secret
# prune.trusted_ca_bundle: OpenShift's Cluster Network Operator fills a ConfigMap labelled so with the cluster's
# trusted CA bundle (RHCOS trust store plus the proxy's trustedCA) under the key ca-bundle.crt; the pod mounts it
# (OpenShift docs, "Configuring a custom PKI: certificate injection using Operators").
TRUSTED_CA = f"{NAME}-trusted-ca"
TRUSTED_CA_LABEL = {"config.openshift.io/inject-trusted-cabundle": "true"}
TRUSTED_CA_KEY = "ca-bundle.crt"
TRUSTED_CA_DIR = "/etc/gpudash/trusted-ca"


def cluster_role() -> dict:
    """Only the verbs and resources the pruner's calls use (:func:`plan.permissions`)."""
    by_group: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    resources: dict[tuple[str, str], list[str]] = {}
    for verb, group, resource in plan.permissions():
        resources.setdefault((group, resource), []).append(verb)
    for (group, resource), verbs in resources.items():
        by_group.setdefault((group, tuple(sorted(verbs))), []).append(resource)
    rules = [{"apiGroups": [group], "resources": sorted(names), "verbs": list(verbs)}
             for (group, verbs), names in sorted(by_group.items())]
    return {COMMENT: "What gpudash prune calls, nothing more: get pods, namespaces and owners; patch annotations;\n"
                     "get and patch the scale subresource; create Events. Generated from gpudash.prune.plan.",
            **kube.obj("rbac.authorization.k8s.io/v1", "ClusterRole", NAME, rules=rules)}


def _args(model: Model, prune: Prune, cluster: str) -> list[str]:
    args = ["--daemon", "--run-mode", prune.run_mode, "--check-interval", q.duration(prune.check_interval),
            "--max-actions", str(prune.max_actions), "--cluster", cluster.replace(".", "\\."),
            "--idle-window", q.duration(model.alerts.idle.window), "--push-interval",
            q.duration(model.billing.mco_interval), "--currency", model.currency,
            "--prometheus-url", prune.prometheus_url]
    if prune.trusted_ca_bundle:
        args += ["--ca-file", f"{TRUSTED_CA_DIR}/{TRUSTED_CA_KEY}"]
    return args + (["--duration", q.duration(prune.duration)] if prune.duration else [])


def deployment(model: Model, prune: Prune, cluster: str) -> dict:
    env = [{"name": plan.POD_NAME_ENV, "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]
    if prune.token_secret:
        secret = {"name": prune.token_secret, "key": TOKEN_KEY}
        env.append({"name": TOKEN_ENV, "valueFrom": {"secretKeyRef": secret}})
    container = {
        "name": "prune", "image": prune.image, "command": ["python", "-m", "gpudash", "prune"],
        "args": _args(model, prune, cluster), "env": env,
        "resources": {"requests": {"cpu": "10m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}},
        "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                            "runAsNonRoot": True, "capabilities": {"drop": ["ALL"]}}}
    pod = {"serviceAccountName": NAME, "containers": [container],
           "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}}
    if prune.trusted_ca_bundle:
        container["volumeMounts"] = [{"name": "trusted-ca", "mountPath": TRUSTED_CA_DIR, "readOnly": True}]
        pod["volumes"] = [{"name": "trusted-ca", "configMap": {"name": TRUSTED_CA}}]
    labels = {"app.kubernetes.io/name": NAME}
    spec = {"replicas": 1, "strategy": {"type": "Recreate"}, "selector": {"matchLabels": labels},
            "template": {"metadata": {"labels": labels}, "spec": pod}}
    return {COMMENT: f"gpudash prune on cluster {cluster} ({prune.run_mode}). One replica, no leader election:\n"
                     "Recreate stops the old pod before a new one starts; never scale it up.",
            **kube.obj("apps/v1", "Deployment", f"{NAME}-{cluster}", prune.namespace, labels=labels, spec=spec)}


def artifacts(model: Model) -> dict[str, dict]:
    prune = model.prune
    if prune is None:
        return {}
    account = {"kind": "ServiceAccount", "name": NAME, "namespace": prune.namespace}
    return {
        layout.PRUNE_NAMESPACE: kube.obj("v1", "Namespace", prune.namespace),
        layout.PRUNE_SERVICE_ACCOUNT: kube.obj("v1", "ServiceAccount", NAME, prune.namespace),
        layout.PRUNE_CLUSTER_ROLE: cluster_role(),
        layout.PRUNE_CLUSTER_ROLE_BINDING: kube.obj(
            "rbac.authorization.k8s.io/v1", "ClusterRoleBinding", NAME, subjects=[account],
            roleRef={"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": NAME}),
        **{layout.prune_deployment(c): deployment(model, prune, c) for c in prune.clusters},
        **({layout.PRUNE_TRUSTED_CA: {
            COMMENT: "Left empty: OpenShift injects the cluster's trusted CA bundle (key ca-bundle.crt).",
            **kube.obj("v1", "ConfigMap", TRUSTED_CA, prune.namespace, labels=TRUSTED_CA_LABEL)}}
           if prune.trusted_ca_bundle else {}),
    }

"""The pruner's in-cluster deployment, from the model's ``prune:`` section: pure data, no I/O.

``prune/`` (the same on every cluster): the Namespace (labelled for OpenShift's platform Prometheus, like the
scrape wiring), the ServiceAccount, a Role and RoleBinding in each tenant namespace holding exactly the
permissions of :func:`gpudash.queries.prune_plan.permissions` (no ClusterRole: nothing cluster-wide), and the
Service and ServiceMonitor of its ``gpudash_prune_ineffective_stop`` gauge with the platform Prometheus' discovery Role
(:func:`gpudash.render.wiring.discovery_rbac`). ``prune/<cluster>/``: that cluster's Deployment
``gpudash-prune-<cluster>`` running ``gpudash prune --daemon --cluster <cluster>`` on its own workloads in the
model's tenant namespaces existing there, and the Roles of the tenants existing on some clusters only. Apply both
folders on each cluster. Like gpu-pruner (wseaton/gpu-pruner ``gpu-pruner/hack/``), one replica without leader
election: ``Recreate`` stops the old pod before the new one starts, so two pruners never act in the same cycle. No
secret is ever in an argument: the Prometheus token comes from ``prune.token_secret`` through an environment
variable.
"""
from __future__ import annotations

from gpudash.base import kube, layout
from gpudash.base.environ import TOKEN_ENV
from gpudash.base.yamlfmt import COMMENT
from gpudash.model.types import Model, Prune, Tenant
from gpudash.promql import build as q
from gpudash.queries import prune_plan as plan
from gpudash.render.wiring import discovery_rbac

NAME = kube.PRUNE_NAME
TOKEN_KEY = "token"  # key of prune.token_secret
METRICS_PORT = 8080  # gpudash prune --metrics-port in the pod
METRICS_PORT_NAME = "metrics"
LABELS = {"app.kubernetes.io/name": NAME}
# prune.trusted_ca_bundle: OpenShift's Cluster Network Operator fills a ConfigMap labelled so with the cluster's
# trusted CA bundle (RHCOS trust store plus the proxy's trustedCA) under the key ca-bundle.crt; the pod mounts it
# (OpenShift docs, "Configuring a custom PKI: certificate injection using Operators").
TRUSTED_CA = f"{NAME}-trusted-ca"
TRUSTED_CA_LABEL = {"config.openshift.io/inject-trusted-cabundle": "true"}
TRUSTED_CA_KEY = "ca-bundle.crt"
TRUSTED_CA_DIR = "/etc/gpudash/trusted-ca"


def acted_in(model: Model, prune: Prune) -> list[Tenant]:
    """The tenants whose namespace the pruner may act in (never a system namespace or its own), in model order."""
    scope = plan.Scope("", frozenset(t.namespace for t in model.tenants), prune.namespace)
    return [t for t in model.tenants if scope.namespace_refusal(t.namespace) is None]


def _rbac(tenants: list[Tenant], prune: Prune) -> dict[str, dict]:
    """A Role and RoleBinding per namespace of ``tenants`` (:func:`acted_in`): in prune/ for a tenant on every
    cluster, in prune/<cluster>/ of each pruned cluster it exists on for the others (``tenants[].clusters``)."""
    permitted = rules()  # one list for every Role: the same rules, and no Role's data is changed once built
    out: dict[str, dict] = {}
    for t in tenants:
        for cluster in (c for c in prune.clusters if t.on(c)) if t.clusters else ("",):
            out[layout.prune_role(t.namespace, cluster)] = role(t.namespace, permitted)
            out[layout.prune_role_binding(t.namespace, cluster)] = role_binding(t.namespace, prune)
    return out


def rules() -> list[dict]:
    """:func:`plan.permissions` as Role rules: one rule per (group, verbs), resources sorted."""
    by_group: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    resources: dict[tuple[str, str], list[str]] = {}
    for verb, group, resource in sorted(plan.permissions()):
        resources.setdefault((group, resource), []).append(verb)
    for (group, resource), verbs in resources.items():
        by_group.setdefault((group, tuple(sorted(verbs))), []).append(resource)
    return [{"apiGroups": [group], "resources": sorted(names), "verbs": list(verbs)}
            for (group, verbs), names in sorted(by_group.items())]


def role(namespace: str, permitted: list[dict]) -> dict:
    """The Role of ``namespace`` holding the rules ``permitted`` (:func:`rules`)."""
    return {COMMENT: f"What gpudash prune calls in tenant namespace {namespace}, nothing more: list pods, get the\n"
                     "namespace and owners, list HPAs, patch annotations and the scale subresource, create\n"
                     "Events. Generated from gpudash.queries.prune_plan.",
            **kube.obj("rbac.authorization.k8s.io/v1", "Role", NAME, namespace, rules=permitted)}


def role_binding(namespace: str, prune: Prune) -> dict:
    account = {"kind": "ServiceAccount", "name": NAME, "namespace": prune.namespace}
    return kube.obj("rbac.authorization.k8s.io/v1", "RoleBinding", NAME, namespace, subjects=[account],
                    roleRef={"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": NAME})


def _args(model: Model, prune: Prune, cluster: str, tenants: list[Tenant]) -> list[str]:
    args = ["--daemon", "--run-mode", prune.run_mode, "--check-interval", q.duration(prune.check_interval),
            "--max-actions", str(prune.max_actions), "--cluster", cluster,
            *(a for ns in sorted({t.namespace for t in tenants if t.on(cluster)}) for a in ("--tenant-namespace", ns)),
            "--idle-window", q.duration(model.alerts.idle.window), "--push-interval",
            q.duration(model.billing.mco_interval), "--currency", model.currency,
            "--metrics-port", str(METRICS_PORT), "--prometheus-url", prune.prometheus_url]
    if prune.trusted_ca_bundle:
        args += ["--ca-file", f"{TRUSTED_CA_DIR}/{TRUSTED_CA_KEY}"]
    return args + (["--duration", q.duration(prune.duration)] if prune.duration else [])


def deployment(model: Model, prune: Prune, cluster: str, tenants: list[Tenant]) -> dict:
    """The Deployment of ``cluster``'s pruner, acting in the namespaces of ``tenants`` (:func:`acted_in`) there."""
    env = [{"name": plan.POD_NAME_ENV, "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
           {"name": plan.POD_NAMESPACE_ENV, "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}}]
    if prune.token_secret:
        secret = {"name": prune.token_secret, "key": TOKEN_KEY}
        env.append({"name": TOKEN_ENV, "valueFrom": {"secretKeyRef": secret}})
    container = {
        "name": "prune", "image": prune.image, "command": ["python", "-m", "gpudash", "prune"],
        "args": _args(model, prune, cluster, tenants), "env": env,
        "ports": [{"name": METRICS_PORT_NAME, "containerPort": METRICS_PORT}],
        "resources": {"requests": {"cpu": "10m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}},
        "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                            "runAsNonRoot": True, "capabilities": {"drop": ["ALL"]}}}
    pod = {"serviceAccountName": NAME, "containers": [container],
           "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}}
    if prune.trusted_ca_bundle:
        container["volumeMounts"] = [{"name": "trusted-ca", "mountPath": TRUSTED_CA_DIR, "readOnly": True}]
        pod["volumes"] = [{"name": "trusted-ca", "configMap": {"name": TRUSTED_CA}}]
    spec = {"replicas": 1, "strategy": {"type": "Recreate"}, "selector": {"matchLabels": LABELS},
            "template": {"metadata": {"labels": LABELS}, "spec": pod}}
    return {COMMENT: f"gpudash prune on cluster {cluster} ({prune.run_mode}). One replica, no leader election:\n"
                     "Recreate stops the old pod before a new one starts; never scale it up.",
            **kube.obj("apps/v1", "Deployment", kube.prune_deployment_name(cluster), prune.namespace, labels=LABELS,
                       spec=spec)}


def _metrics(prune: Prune) -> dict[str, dict]:
    """The gauge GPUPrunerIneffective reads: a Service on the pod's port and a ServiceMonitor for the platform
    Prometheus (the Namespace is labelled for it, and the wiring's Role and RoleBinding let it discover the
    Service), whose series ACM pushes to the hub through the allowlist."""
    service = kube.obj("v1", "Service", NAME, prune.namespace, labels=LABELS, spec={
        "selector": LABELS, "ports": [{"name": METRICS_PORT_NAME, "port": METRICS_PORT,
                                       "targetPort": METRICS_PORT_NAME}]})
    monitor = kube.obj("monitoring.coreos.com/v1", "ServiceMonitor", NAME, prune.namespace, spec={
        "selector": {"matchLabels": LABELS}, "endpoints": [{"port": METRICS_PORT_NAME, "path": "/metrics"}]})
    role, binding = discovery_rbac(prune.namespace)
    return {layout.PRUNE_SERVICE: service, layout.PRUNE_SERVICE_MONITOR: monitor,
            layout.PRUNE_METRICS_ROLE: role, layout.PRUNE_METRICS_ROLE_BINDING: binding}


def artifacts(model: Model) -> dict[str, dict]:
    prune = model.prune
    if prune is None:
        return {}
    tenants = acted_in(model, prune)
    return {
        layout.PRUNE_NAMESPACE: kube.obj("v1", "Namespace", prune.namespace, labels=kube.CLUSTER_MONITORING),
        layout.PRUNE_SERVICE_ACCOUNT: kube.obj("v1", "ServiceAccount", NAME, prune.namespace),
        **_rbac(tenants, prune),
        **_metrics(prune),
        **{layout.prune_deployment(c): deployment(model, prune, c, tenants) for c in prune.clusters},
        **({layout.PRUNE_TRUSTED_CA: {
            COMMENT: "Left empty: OpenShift injects the cluster's trusted CA bundle (key ca-bundle.crt).",
            **kube.obj("v1", "ConfigMap", TRUSTED_CA, prune.namespace, labels=TRUSTED_CA_LABEL)}}
           if prune.trusted_ca_bundle else {}),
    }

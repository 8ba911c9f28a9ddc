"""The output layout: every path ``render`` writes, relative to the output folder, defined here and nowhere else.

Generators name their files with these; the writer, the CLI, tests, e2e and benchmarks read them from here.
"""
from __future__ import annotations

import fnmatch

# --- folders ------------------------------------------------------------------------------------------------------
RULES = "rules"  # recording rules: plain rule files, and PrometheusRule objects for a single cluster
ALERTS = "alerts"  # alert rules and the Alertmanager configuration
MCO = "mco"  # objects for the ACM hub (MultiClusterObservability, allowlist, Thanos Ruler rules)
DASHBOARDS = "dashboards"  # Grafana dashboard JSON, and ACM's grafana-dashboard ConfigMaps under acm/
GRAFANA = "grafana"  # Grafana provisioning, grafana-operator objects, the bootstrap description
QUOTAS = "quotas"  # tenants' ResourceQuotas
TESTS = "tests"  # promtool tests (alerts and golden scenarios); ``promtool test rules tests/*.yaml`` runs them all
MIXIN = "mixin"  # the monitoring-mixin (jsonnet)
WIRING = "wiring"  # scrape wiring for self-managed spokes (sources.self_managed)
PRUNE = "prune"  # the idle-GPU pruner's RBAC (same on every cluster) and one Deployment folder per cluster

RULES_KUBERNETES = f"{RULES}/kubernetes"  # PrometheusRule objects for a cluster's own Prometheus
ALERTS_KUBERNETES = f"{ALERTS}/kubernetes"
DASHBOARDS_ACM = f"{DASHBOARDS}/acm"  # ACM hub Grafana ConfigMaps
DASHBOARDS_IMPORT = f"{DASHBOARDS}/import"  # provider and CCSP dashboards with __inputs for a manual import
DASHBOARD_PREFIX = "gpudash-"  # every dashboard's file stem (its uid) starts so
GRAFANA_OPERATOR = f"{GRAFANA}/operator"  # grafana-operator v5 objects
GRAFANA_PROVISIONING = f"{GRAFANA}/provisioning"  # Grafana file provisioning

DEPLOY = "deploy"  # one folder per destination (hub, spokes, clusters/<name>, single, grafana), and argocd/
README = "README.md"  # what each folder is and where it goes (generated)

KUSTOMIZATION = "kustomization.yaml"  # one per folder of Kubernetes objects, and one at the top
MANIFEST = ".gpudash-manifest.json"  # what the writer owns in the output folder
DEFAULT_OUTPUT = "gpudash-out"  # render's folder without -o: never the current folder, which may be a project
# Files that mark a folder as some project's root: render refuses such a folder unless it already owns it.
PROJECT_MARKERS = (".git", "pyproject.toml", "setup.py", "package.json", "go.mod", "Cargo.toml", "pom.xml",
                   "tox.ini")
# What every rendered file says first (as a comment in its own syntax), and the output's README.
RENDERED = "Rendered by gpudash from the model (gpudash.yaml): edit the model and re-render"
HEADER = f"{RENDERED}, not this file."
LOCK = ".gpudash-lock"  # held while a render writes the output folder (pid, host, start)
STAGE_PREFIX = ".gpudash-stage-"  # a render's staged files, and the journal of an apply under way

# --- rules --------------------------------------------------------------------------------------------------------
SPOKE_RULES = f"{RULES}/gpudash-spoke.rules.yaml"
HUB_RULES = f"{RULES}/gpudash-hub.rules.yaml"
RULES_NAMESPACE = f"{RULES_KUBERNETES}/namespace.yaml"
RULES_PROMETHEUS_RULE = f"{RULES_KUBERNETES}/gpudash-rules.prometheusrule.yaml"
SPOKE_TIER_RULES = f"{RULES}/gpudash-spoke-tier.rules.yaml"  # billing.spoke_tier: policy only

# --- alerts -------------------------------------------------------------------------------------------------------
ALERT_RULES = f"{ALERTS}/gpudash.alerts.yaml"
ALERTS_PROMETHEUS_RULE = f"{ALERTS_KUBERNETES}/gpudash-alerts.prometheusrule.yaml"
ALERTMANAGER = f"{ALERTS}/alertmanager.yml"
ALERTMANAGER_SECRET = f"{MCO}/alertmanager-config.secret.yaml"

# --- ACM hub ------------------------------------------------------------------------------------------------------
MCO_SETTINGS = f"{MCO}/settings"  # the kustomize Component (patch output)
MCO_RESOURCE = f"{MCO}/multiclusterobservability.yaml"  # resource output
MCO_SECRET_TEMPLATE = f"{MCO}/thanos-object-storage.secret.template.yaml"
GRAFANA_BOOTSTRAP = f"{GRAFANA}/bootstrap.json"
# the spoke recording tier (billing.spoke_tier: policy): an ACM governance Policy placed on the model's clusters
MCO_TIER_POLICY = f"{MCO}/gpudash-spoke-tier.policy.yaml"
MCO_TIER_PLACEMENT = f"{MCO}/gpudash-spoke-tier.placement.yaml"
MCO_TIER_PLACEMENT_BINDING = f"{MCO}/gpudash-spoke-tier.placementbinding.yaml"
MCO_TIER_CLUSTER_SET_BINDING = f"{MCO}/global.managedclustersetbinding.yaml"

# --- scrape wiring ------------------------------------------------------------------------------------------------
WIRING_NAMESPACE = f"{WIRING}/namespace.yaml"
WIRING_ROLE = f"{WIRING}/prometheus-k8s.role.yaml"  # the platform Prometheus may discover the exporters' Endpoints
WIRING_ROLE_BINDING = f"{WIRING}/prometheus-k8s.rolebinding.yaml"
KSM_ALLOWLIST = f"{WIRING}/kube-state-metrics-metric-labels-allowlist.txt"


def wiring_service_monitor(stem: str) -> str:
    """A GPU exporter's ServiceMonitor (``stem``: its vendor's Wiring.stem)."""
    return f"{WIRING}/{stem}.servicemonitor.yaml"


def wiring_service(stem: str) -> str:
    """wiring's own Service selecting a GPU exporter's pods (a vendor whose Wiring.own_service is set)."""
    return f"{WIRING}/{stem}.service.yaml"


# --- idle-GPU pruner ---------------------------------------------------------------------------------------------
PRUNE_NAMESPACE = f"{PRUNE}/namespace.yaml"
PRUNE_SERVICE_ACCOUNT = f"{PRUNE}/serviceaccount.yaml"
PRUNE_SERVICE = f"{PRUNE}/metrics.service.yaml"  # the pruner's gpudash_prune_ineffective_stop gauge
PRUNE_SERVICE_MONITOR = f"{PRUNE}/metrics.servicemonitor.yaml"
# the platform Prometheus may discover the metrics Service (a namespace has no dot: never a tenant's Role file)
PRUNE_METRICS_ROLE = f"{PRUNE}/metrics.prometheus-k8s.role.yaml"
PRUNE_METRICS_ROLE_BINDING = f"{PRUNE}/metrics.prometheus-k8s.rolebinding.yaml"
PRUNE_TRUSTED_CA = f"{PRUNE}/trusted-ca.configmap.yaml"  # filled by OpenShift with the cluster's trusted CA bundle


def prune_deployment(cluster: str) -> str:
    return f"{PRUNE}/{cluster}/deployment.yaml"


def prune_role(namespace: str, cluster: str = "") -> str:
    """The pruner's Role in one tenant namespace (no ClusterRole: it acts in tenant namespaces only); with
    ``cluster``, that of a tenant existing on some clusters only, in that cluster's folder."""
    return f"{PRUNE}/{cluster + '/' if cluster else ''}{namespace}.role.yaml"


def prune_role_binding(namespace: str, cluster: str = "") -> str:
    return f"{PRUNE}/{cluster + '/' if cluster else ''}{namespace}.rolebinding.yaml"


# --- monitoring mixin (inside MIXIN; its files import each other by these names) -------------------------------------
MIXIN_RULES = "rules.libsonnet"  # prometheusRules
MIXIN_ALERTS = "alerts.libsonnet"  # prometheusAlerts
MIXIN_DASHBOARDS = "dashboards.libsonnet"  # grafanaDashboards
MIXIN_CONFIG = "config.libsonnet"  # _config
MIXIN_MAIN = "mixin.libsonnet"  # joins the four: what a user imports
MIXIN_BUNDLER = "jsonnetfile.json"  # jsonnet-bundler's file (no dependencies)


def mixin_file(name: str) -> str:
    return f"{MIXIN}/{name}"


# --- promtool tests -----------------------------------------------------------------------------------------------
TEST_GLOB = "*.test.yaml"  # every promtool test file in TESTS
# The golden scenario index is not a promtool test: it lives in a subfolder, out of reach of `tests/*.yaml`.
GOLDEN_INDEX = f"{TESTS}/golden/scenarios.yaml"


def mco_configmap(name: str) -> str:
    return f"{MCO}/{name}.yaml"


def quota(tenant: str, cluster: str = "") -> str:
    """A tenant's ResourceQuota; with ``cluster``, that of a tenant existing on some clusters only
    (quotas/<cluster>/)."""
    return f"{QUOTAS}/{cluster + '/' if cluster else ''}{tenant}.resourcequota.yaml"


def quotas_on(cluster: str) -> str:
    """The quotas of the tenants existing on ``cluster`` but not on every cluster."""
    return f"{QUOTAS}/{cluster}"


def alert_test(family: str) -> str:
    return f"{TESTS}/alerts-{family}.test.yaml"


# The kinds of a golden scenario's test files (gpudash.render.golden.emit): the spoke path, the spoke tier's own
# group, the push path, and with billing.backfill_hours the hours of the scenario settling on the hub N + 1 hours later.
GOLDEN_KINDS = ("spoke", "tier", "hub", "settled")


def golden_test(scenario: str, kind: str = "spoke") -> str:
    """A golden scenario's test file of ``kind`` (:data:`GOLDEN_KINDS`)."""
    if kind not in GOLDEN_KINDS:
        raise ValueError(f"golden test kind {kind!r}")
    return f"{TESTS}/golden-{scenario}{'' if kind == 'spoke' else '-' + kind}.test.yaml"


def golden_shared(kind: str) -> str:
    """The one test file every scenario's checks of ``kind`` share (gpudash.render.golden.shared: "spoke", "tier" or
    "settled"); the dot keeps it apart from any scenario's own files (scenario names are letters, digits, dashes)."""
    if kind not in ("spoke", "tier", "settled"):
        raise ValueError(f"shared golden test kind {kind!r}")
    return f"{TESTS}/golden-scenarios.{kind}.test.yaml"


def golden_pair(first: str, second: str, kind: str = "hub") -> str:
    """The test file of ``kind`` two scenarios share, each on its own cluster (gpudash.render.golden.shared)."""
    return f"{TESTS}/golden-{first}.{second}.{kind}.test.yaml"


def golden_kind_of(path: str) -> str:
    """The kind (:data:`GOLDEN_KINDS`) of the golden test file at ``path`` (:func:`golden_test`,
    :func:`golden_shared` or :func:`golden_pair`)."""
    name = path.rpartition("/")[2].removesuffix(".test.yaml")
    for kind in GOLDEN_KINDS[1:]:
        if name.endswith((f"-{kind}", f".{kind}")):
            return kind
    return "spoke"


def is_golden(path: str) -> bool:
    """``path`` is where a golden test file or the index goes: the index, or ``tests/golden-*.test.yaml`` directly
    in TESTS (never another folder, never a rule file)."""
    folder, _, name = path.rpartition("/")
    return path == GOLDEN_INDEX or (folder == TESTS and fnmatch.fnmatchcase(name, f"golden-{TEST_GLOB}"))


def from_tests(path: str) -> str:
    """``path`` as a promtool test file in TESTS names it (``rule_files`` are relative to the test file)."""
    return f"../{path}"


def dashboard_json(stem: str) -> str:
    return f"{DASHBOARDS}/{stem}.json"


def dashboard_import(stem: str) -> str:
    """A provider or CCSP dashboard with ``__inputs``, for Grafana's manual "Import dashboard"."""
    return f"{DASHBOARDS_IMPORT}/{stem}.json"


def dashboard_configmap(stem: str) -> str:
    """ACM's grafana-dashboard ConfigMap of a dashboard."""
    return f"{DASHBOARDS_ACM}/{stem}.yaml"


def grafana_operator(name: str) -> str:
    return f"{GRAFANA_OPERATOR}/{name}.yaml"


def grafana_provisioning(kind: str, name: str) -> str:
    """Grafana provisioning file of ``kind`` ``datasources`` or ``dashboards``."""
    return f"{GRAFANA_PROVISIONING}/{kind}/{name}.yaml"


def kustomization(folder: str) -> str:
    return f"{folder}/{KUSTOMIZATION}" if folder else KUSTOMIZATION


# --- GitOps destinations ------------------------------------------------------------------------------------------
DEPLOY_HUB = f"{DEPLOY}/hub"  # the ACM hub
DEPLOY_SPOKES = f"{DEPLOY}/spokes"  # what every managed cluster gets
DEPLOY_SINGLE = f"{DEPLOY}/single"  # a cluster without ACM
DEPLOY_GRAFANA = f"{DEPLOY}/grafana"  # where grafana-operator runs
DEPLOY_ARGOCD = f"{DEPLOY}/argocd"  # ArgoCD Applications of the destinations (outputs.argocd only)


def deploy_argocd(name: str) -> str:
    """A set of ArgoCD objects applied together: ``acm`` (on the hub) or ``single`` (a cluster without ACM)."""
    return f"{DEPLOY_ARGOCD}/{name}"


def argocd_object(name: str, obj_name: str, kind: str) -> str:
    """An object of the ArgoCD set ``name`` (an Application, or the application controller's RBAC)."""
    return f"{deploy_argocd(name)}/{obj_name}.{kind.lower()}.yaml"


def deploy_cluster(cluster: str) -> str:
    """A managed cluster's destination: what every spoke gets plus its own objects."""
    return f"{DEPLOY}/clusters/{cluster}"

"""The pruner's rendered deployment (prune/): the model's prune: section, a Role per tenant namespace that allows
exactly the calls the pruner makes (recorded by the stand-in API server) and nothing cluster-wide, and a Deployment
whose arguments the real CLI accepts and which holds no secret."""
from __future__ import annotations

import re

import pytest

from gpudash.base import kube, layout
from gpudash.base.environ import TOKEN_ENV
from gpudash.base.errors import InputError
from gpudash.cli import _parser
from gpudash.model import model_from_dict
from gpudash.ops.prune import cycle
from gpudash.queries import prune_plan as plan
from gpudash.render import pruner_deployment as deploy
from tests.conftest import ROOT, generate_without_golden
from tests.prune_cluster import deployment, inference_service, lines, notebook, pod, pruner, ref
from tests.standins import ApiServer

MINIMAL = {
    "gpu_classes": [{"name": "t4", "vendor": "nvidia", "products": ["Tesla T4"], "price_per_hour": 0.3}],
    "tenants": [{"name": "team-a", "namespace": "team-a", "budget": 100},
                {"name": "team-b", "namespace": "team-b", "budget": 100}],
    "clusters": ["east", "west.eu", "prod-east"],
}
PRUNE = {"image": "registry.example.com/gpudash:1",
         "prometheus_url": "https://thanos-querier.openshift-monitoring.svc:9091"}  # in-cluster: no token needed
NS = "team-a"


def model(**prune):
    return model_from_dict({**MINIMAL, "prune": {**PRUNE, **prune}}, file="m.yaml")


def granted(files: dict) -> set[tuple[str, str, str, str]]:
    """(verb, group, resource, namespace) every rendered Role grants its bound pruner; "" = cluster-wide."""
    out = set()
    bound = {(f["metadata"]["namespace"], f["roleRef"]["kind"], f["roleRef"]["name"]) for f in files.values()
             if isinstance(f, dict) and f.get("kind") in ("RoleBinding", "ClusterRoleBinding")
             and any(s["name"] == deploy.NAME for s in f["subjects"])}
    for f in files.values():
        if isinstance(f, dict) and f.get("kind") in ("Role", "ClusterRole"):
            ns = f["metadata"].get("namespace", "")
            if f["metadata"]["name"] == kube.PLATFORM_PROMETHEUS:  # the platform Prometheus', not the pruner's
                continue
            assert (ns, f["kind"], f["metadata"]["name"]) in bound
            out |= {(verb, group, resource, ns) for rule in f["rules"] for group in rule["apiGroups"]
                    for resource in rule["resources"] for verb in rule["verbs"]}
    return out


def every_kind(api: ApiServer, ns: str = NS) -> list[plan.IdlePod]:
    """One idle GPU pod under each owner kind the pruner resolves: Deployment (via its ReplicaSet), a bare
    StatefulSet and ReplicaSet, a Notebook (via its StatefulSet), an InferenceService (predictor label), a Job
    and a bare pod."""
    pods = [deployment(api, ns, "dep", pods=1, replicas=1)[0], notebook(api, ns, "nb"),
            inference_service(api, ns, "isvc")]
    for api_version, plural, name in (("apps/v1", "statefulsets", "sts"), ("apps/v1", "replicasets", "rs"),
                                      ("batch/v1", "jobs", "job")):
        api.add(api_version, plural, {"metadata": {"name": name, "namespace": ns}, "spec": {"replicas": 1}})
        kind = {"statefulsets": "StatefulSet", "replicasets": "ReplicaSet", "jobs": "Job"}[plural]
        pod(api, ns, f"{name}-0", ref(api_version, kind, name))
        pods.append(f"{name}-0")
    pod(api, ns, "bare")
    return [plan.IdlePod("prod-east", ns, p, 1.0) for p in [*pods, "bare"]]


def test_roles_allow_exactly_the_calls_of_a_full_cycle(tmp_path):
    """Scale-down cycles over every kind in two tenant namespaces, the next cycle proving each stop, rows of
    system and foreign namespaces, then a restore of each way of stopping: the (verb, group, resource,
    namespace) of every request the stand-in served is what the rendered Roles grant, no more and no fewer; no
    ClusterRole."""
    files = generate_without_golden(model())
    assert not [f for f in files.values() if isinstance(f, dict) and f.get("kind", "").startswith("Cluster")]
    with ApiServer() as server:
        idle = every_kind(server, "team-a") + every_kind(server, "team-b")
        deployment(server, "kube-system", "coredns")
        idle += [plan.IdlePod("prod-east", "kube-system", "coredns-0", 1.0),
                 plan.IdlePod("prod-east", "openshift-ops", "x-0", 1.0)]  # the model refuses such a tenant
        p = pruner(server, tmp_path)
        assert p.cycle(idle, []) == {"stopped": 10, "reported": 4, "refused": 2}, p.out.getvalue()
        assert p.cycle(idle, [])["released"] == 10
        for ns in ("team-a", "team-b"):
            for target in ("Deployment/dep", "StatefulSet/sts", "ReplicaSet/rs", "Notebook/nb",
                           "InferenceService/isvc"):
                cycle.restore(p.api, f"{ns}/{target}", out=p.out)
        assert server.calls() == granted(files)


def test_the_docs_rbac_table_is_the_role():
    text = (ROOT / "docs" / "prune.md").read_text()
    table = text[text.index("**RBAC**"):text.index("No `ClusterRole`")]
    documented = set()
    for row in table.splitlines()[4:]:
        if row.startswith("| "):
            group, resources, verbs = (cell.strip() for cell in row.strip("|").split("|"))
            group = "" if group == "core" else group.strip("`")
            names = [n for n in re.findall(r"`([^`]+)`", resources) if n != "/scale"]
            names += [f"{n}/scale" for n in names] if "/scale" in resources else []
            documented |= {(v, group, n) for n in names for v in re.findall(r"`(\w+)`", verbs)}
    rendered = {(v, g, r) for rule in deploy.rules() for g in rule["apiGroups"] for r in rule["resources"]
                for v in rule["verbs"]}
    assert documented == rendered == plan.permissions()


def test_a_workload_changed_since_it_was_read_is_left_alone(tmp_path):
    """409 Conflict on the resourceVersion precondition: no scale, no Event, one error line, the cycle goes on."""
    with ApiServer() as server:
        idle = every_kind(server)
        server.written_after_get.add(f"/apis/apps/v1/namespaces/{NS}/deployments/dep")
        p = pruner(server, tmp_path)
        counts = p.cycle(idle, [])
        errors = [line for line in lines(p) if line["result"] == "error"]
        assert counts == {"error": 1, "stopped": 4, "reported": 2}
        assert errors[0]["name"] == "dep" and "409 Conflict: Operation cannot be fulfilled on deployments" \
            in errors[0]["error"]
        assert server.get(f"/apis/apps/v1/namespaces/{NS}/deployments/dep")["spec"]["replicas"] == 1
        assert "dep" not in {e["involvedObject"]["name"] for e in server.events} and len(server.events) == 4


def test_deployment_runs_the_daemon_with_the_model_settings():
    m = model(clusters=["west.eu"], run_mode="scale-down", check_interval="90s", max_actions=3, duration="15m",
              token_secret="hub-token", namespace="team-b")
    files = generate_without_golden(m)
    assert layout.prune_deployment("east") not in files
    dep = files[layout.prune_deployment("west.eu")]
    assert files[f"{layout.PRUNE}/west.eu/kustomization.yaml"]["resources"] == ["deployment.yaml"]
    assert (dep["spec"]["replicas"], dep["spec"]["strategy"]) == (1, {"type": "Recreate"})
    pod = dep["spec"]["template"]["spec"]
    assert pod["serviceAccountName"] == files[layout.PRUNE_SERVICE_ACCOUNT]["metadata"]["name"]
    binding = files[layout.prune_role_binding("team-a")]
    assert binding["subjects"][0]["namespace"] == dep["metadata"]["namespace"] == "team-b"
    assert layout.prune_role("team-b") not in files  # the pruner's own namespace, though a tenant's
    (container,) = pod["containers"]
    assert container["command"][-3:] == ["-m", "gpudash", "prune"]
    args = _parser().parse_args(container["command"][3:] + container["args"])  # the real CLI accepts them
    assert (args.daemon, args.run_mode, args.check_interval, args.max_actions, args.duration) == \
        (True, "scale-down", "1m30s", 3, "15m")
    assert (args.cluster, args.idle_window, args.push_interval, args.currency, args.prometheus_url) == \
        ("west.eu", "30m", "5m", "USD", PRUNE["prometheus_url"])
    assert args.tenant_namespace == ["team-a"] and not args.single_cluster
    assert args.metrics_port == container["ports"][0]["containerPort"] == deploy.METRICS_PORT
    assert args.prometheus_token is None  # the token is an environment variable, never an argument
    env = {e["name"]: e["valueFrom"] for e in container["env"]}
    assert env[TOKEN_ENV]["secretKeyRef"] == {"name": "hub-token", "key": deploy.TOKEN_KEY}
    assert env[plan.POD_NAME_ENV]["fieldRef"]["fieldPath"] == "metadata.name"
    assert env[plan.POD_NAMESPACE_ENV]["fieldRef"]["fieldPath"] == "metadata.namespace"


def test_no_secret_in_any_argument():
    """Issue 26 item 7: the rendered pod's argv holds no token (it is read from the Secret through an
    environment variable) and no URL userinfo."""
    files = generate_without_golden(model(token_secret="hub-token"))
    for cluster in model().prune.clusters:
        container = files[layout.prune_deployment(cluster)]["spec"]["template"]["spec"]["containers"][0]
        argv = " ".join(container["command"] + container["args"])
        assert "token" not in argv.lower() and "@" not in argv and "Bearer" not in argv
        assert {e["name"] for e in container["env"] if "secretKeyRef" in e.get("valueFrom", {})} == {TOKEN_ENV}


def test_metrics_are_served_to_the_platform_prometheus():
    files = generate_without_golden(model())
    assert files[layout.PRUNE_NAMESPACE]["metadata"]["labels"]["openshift.io/cluster-monitoring"] == "true"
    service, monitor = files[layout.PRUNE_SERVICE], files[layout.PRUNE_SERVICE_MONITOR]
    template = files[layout.prune_deployment("east")]["spec"]["template"]
    assert service["spec"]["selector"].items() <= template["metadata"]["labels"].items()
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    assert monitor["spec"]["endpoints"][0]["port"] == service["spec"]["ports"][0]["name"] == \
        template["spec"]["containers"][0]["ports"][0]["name"]
    # the platform Prometheus discovers the Service only where a Role lets its service account list services,
    # endpoints and pods (openshift/cluster-monitoring-operator assets/prometheus-k8s/cluster-role.yaml grants none;
    # CMO's own namespaces get role-specific-namespaces.yaml): else the gauge never exists
    role, binding = files[layout.PRUNE_METRICS_ROLE], files[layout.PRUNE_METRICS_ROLE_BINDING]
    assert role["metadata"]["namespace"] == binding["metadata"]["namespace"] == service["metadata"]["namespace"]
    granted = {(g, r, v) for rule in role["rules"] for g in rule["apiGroups"] for r in rule["resources"]
               for v in rule["verbs"]}
    assert {("", r, v) for r in ("services", "endpoints", "pods") for v in ("get", "list", "watch")} <= granted
    assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role",
                                  "name": role["metadata"]["name"]}
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": kube.PLATFORM_PROMETHEUS,
                                    "namespace": kube.PLATFORM_NAMESPACE}]


def test_trusted_ca_bundle_is_injected_mounted_and_passed_to_the_cli():
    files = generate_without_golden(model(trusted_ca_bundle=True))
    cm = files[layout.PRUNE_TRUSTED_CA]
    assert (cm["kind"], cm["metadata"]["namespace"]) == ("ConfigMap", "gpudash-prune") and "data" not in cm
    assert cm["metadata"]["labels"]["config.openshift.io/inject-trusted-cabundle"] == "true"
    assert "trusted-ca.configmap.yaml" in files[layout.kustomization(layout.PRUNE)]["resources"]
    pod = files[layout.prune_deployment("east")]["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    args = _parser().parse_args(container["command"][3:] + container["args"])
    (mount,) = container["volumeMounts"]
    assert args.ca_file == f"{mount['mountPath']}/ca-bundle.crt" and mount["readOnly"]
    assert pod["volumes"] == [{"name": mount["name"], "configMap": {"name": cm["metadata"]["name"]}}]
    assert layout.PRUNE_TRUSTED_CA not in generate_without_golden(model())


@pytest.mark.parametrize("url", ["https://rbac-query-proxy-open-cluster-management-observability.apps.hub.example.com",
                                 "https://thanos.example.com", "https://evil.svc.example.com"])
def test_a_url_outside_the_cluster_needs_a_token_secret(url):
    """Without prune.token_secret the pruner sends its pod's service account token, which only its own cluster's
    API server accepts: to the hub (a spoke's pruner reads the hub) it is refused, and it must not leave the
    cluster at all."""
    with pytest.raises(InputError) as info:
        model(prometheus_url=url)
    err = next(e for e in getattr(info.value, "errors", [info.value]) if e.path == "prune.token_secret")
    assert "required" in err.reason and info.value.exit_code == 2
    assert model(prometheus_url=url, token_secret="hub-token").prune.token_secret == "hub-token"


def test_defaults_and_no_section():
    p = model().prune
    assert (p.clusters, p.run_mode, p.check_interval, p.max_actions, p.namespace, p.token_secret) == \
        (("east", "prod-east", "west.eu"), "dry-run", 180, 10, "gpudash-prune", "")
    dep = generate_without_golden(model())[layout.prune_deployment("east")]
    assert TOKEN_ENV not in {e["name"] for e in dep["spec"]["template"]["spec"]["containers"][0]["env"]}
    files = generate_without_golden(model_from_dict(MINIMAL))
    assert not [p for p in files if p.startswith(f"{layout.PRUNE}/")]


@pytest.mark.parametrize("prune,path,reason", [
    ({"clusters": ["north"]}, "prune.clusters[0]", "is not one of the model's clusters (east, prod-east, west.eu)"),
    ({"check_interval": "5s"}, "prune.check_interval", "5s must be between 15s and 1d"),
    ({"run_mode": "delete"}, "prune.run_mode", "'delete'"),
    ({"max_actions": -1}, "prune.max_actions", "-1"),
    ({"image": "two words"}, "prune.image", "a container image reference"),
    ({"token_secret": "Hub_Token"}, "prune.token_secret", "DNS-1123"),
], ids=["cluster", "interval", "run-mode", "cap", "image", "secret"])
def test_bad_prune_section(prune, path, reason):
    with pytest.raises(InputError) as info:
        model(**prune)
    err = next(e for e in getattr(info.value, "errors", [info.value]) if e.path == path)
    assert reason in err.reason and info.value.exit_code == 2


@pytest.mark.parametrize("key", ["image", "prometheus_url"])
def test_image_and_url_are_required(key):
    with pytest.raises(InputError) as info:
        model_from_dict({**MINIMAL, "prune": {k: v for k, v in PRUNE.items() if k != key}}, file="m.yaml")
    assert str(info.value) == f"m.yaml: prune.{key}: required key is missing"

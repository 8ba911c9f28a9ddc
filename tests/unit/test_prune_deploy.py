"""The pruner's rendered deployment (prune/): the model's prune: section, a ClusterRole that allows exactly the calls
the pruner makes (recorded by the stand-in API server), and a Deployment whose arguments the real CLI accepts."""
from __future__ import annotations

import io
import json
import re

import pytest

from gpudash import layout
from gpudash.cli import _parser
from gpudash.errors import InputError
from gpudash.model import model_from_dict
from gpudash.promql.read import TOKEN_ENV
from gpudash.prune import cycle, deploy, plan
from gpudash.prune.api import connect
from tests.conftest import ROOT, generate_without_golden
from tests.standins import ApiServer

MINIMAL = {
    "gpu_classes": [{"name": "t4", "vendor": "nvidia", "products": ["Tesla T4"], "price_per_hour": 0.3}],
    "tenants": [{"name": "team-a", "namespace": "team-a", "budget": 100}],
    "clusters": ["east", "west.eu"],
}
PRUNE = {"image": "registry.example.com/gpudash:1", "prometheus_url": "https://thanos.example.com"}
NS = "team-a"


def model(**prune):
    return model_from_dict({**MINIMAL, "prune": {**PRUNE, **prune}}, file="m.yaml")


def granted(role: dict) -> set[tuple[str, str, str]]:
    return {(verb, group, resource) for rule in role["rules"] for group in rule["apiGroups"]
            for resource in rule["resources"] for verb in rule["verbs"]}


def every_kind(api: ApiServer) -> list[plan.IdlePod]:
    """One idle pod under each owner kind the pruner resolves: Deployment (via its ReplicaSet), a bare
    StatefulSet and ReplicaSet, a Notebook (via its StatefulSet), an InferenceService (predictor label), a Job
    and a bare pod."""
    api.add("v1", "namespaces", {"metadata": {"name": NS}})

    def owned(api_version, plural, name, owner=None, **extra):
        refs = [{"controller": True, "apiVersion": owner[0], "kind": owner[1], "name": owner[2], "uid": "u"}] \
            if owner else []
        spec = {"containers": [{"name": "main", "image": "cuda"}]} if plural == "pods" else {"replicas": 1}
        api.add(api_version, plural, {"metadata": {"name": name, "namespace": NS, "ownerReferences": refs,
                                                   **extra}, "spec": spec})

    owned("apps/v1", "deployments", "dep")
    owned("apps/v1", "replicasets", "dep-1", ("apps/v1", "Deployment", "dep"))
    owned("v1", "pods", "dep-1-a", ("apps/v1", "ReplicaSet", "dep-1"))
    owned("apps/v1", "statefulsets", "sts")
    owned("v1", "pods", "sts-0", ("apps/v1", "StatefulSet", "sts"))
    owned("apps/v1", "replicasets", "rs")
    owned("v1", "pods", "rs-a", ("apps/v1", "ReplicaSet", "rs"))
    owned("kubeflow.org/v1", "notebooks", "nb")
    owned("apps/v1", "statefulsets", "nb", ("kubeflow.org/v1", "Notebook", "nb"))
    owned("v1", "pods", "nb-0", ("apps/v1", "StatefulSet", "nb"))
    owned("serving.kserve.io/v1beta1", "inferenceservices", "isvc")
    owned("v1", "pods", "isvc-predictor-a", labels={"serving.kserve.io/inferenceservice": "isvc"})
    owned("batch/v1", "jobs", "job")
    owned("v1", "pods", "job-x", ("batch/v1", "Job", "job"))
    owned("v1", "pods", "bare")
    pods = ("dep-1-a", "sts-0", "rs-a", "nb-0", "isvc-predictor-a", "job-x", "bare")
    return [plan.IdlePod("east", NS, pod, 1.0) for pod in pods]


def test_cluster_role_allows_exactly_the_calls_the_pruner_makes(tmp_path):
    """A scale-down cycle over every kind, then a restore of each way of stopping: the (verb, group, resource)
    of every request the stand-in served is the rendered ClusterRole's grants, no more and no fewer."""
    role = generate_without_golden(model())[layout.PRUNE_CLUSTER_ROLE]
    with ApiServer() as server:
        idle = every_kind(server)
        api = connect(server.kubeconfig(tmp_path / "kubeconfig"))
        out = io.StringIO()
        counts = cycle.run_cycle(api, idle, [], cycle.Options("scale-down", 10, 1800, "USD"), out=out)
        assert counts == {"stopped": 5, "reported": 2}, out.getvalue()
        for target in ("Deployment/dep", "StatefulSet/sts", "ReplicaSet/rs", "Notebook/nb", "InferenceService/isvc"):
            cycle.restore(api, f"{NS}/{target}", out=out)
        assert granted(role) == server.calls()


def test_the_docs_rbac_table_is_the_cluster_role():
    text = (ROOT / "docs" / "prune.md").read_text()
    table = text[text.index("**RBAC**"):text.index("No `list`, `watch`")]
    documented = set()
    for row in table.splitlines()[4:]:
        if row.startswith("| "):
            group, resources, verbs = (cell.strip() for cell in row.strip("|").split("|"))
            group = "" if group == "core" else group.strip("`")
            names = [n for n in re.findall(r"`([^`]+)`", resources) if n != "/scale"]
            names += [f"{n}/scale" for n in names] if "/scale" in resources else []
            documented |= {(v, group, n) for n in names for v in re.findall(r"`(\w+)`", verbs)}
    assert documented == granted(deploy.cluster_role())


def test_a_workload_changed_since_it_was_read_is_left_alone(tmp_path):
    """409 Conflict on the resourceVersion precondition: no scale, no Event, one error line, the cycle goes on."""
    with ApiServer() as server:
        idle = every_kind(server)
        server.written_after_get.add(f"/apis/apps/v1/namespaces/{NS}/deployments/dep")
        out = io.StringIO()
        counts = cycle.run_cycle(connect(server.kubeconfig(tmp_path / "kubeconfig")), idle, [],
                                 cycle.Options("scale-down", 10, 1800, "USD"), out=out)
        errors = [line for line in map(json.loads, out.getvalue().splitlines()) if line["result"] == "error"]
        assert counts == {"error": 1, "stopped": 4, "reported": 2}
        assert errors[0]["name"] == "dep" and "409 Conflict: Operation cannot be fulfilled on deployments" \
            in errors[0]["error"]
        assert server.get(f"/apis/apps/v1/namespaces/{NS}/deployments/dep")["spec"]["replicas"] == 1
        assert "dep" not in {e["involvedObject"]["name"] for e in server.events} and len(server.events) == 4


def test_deployment_runs_the_daemon_with_the_model_settings():
    m = model(clusters=["west.eu"], run_mode="scale-down", check_interval="90s", max_actions=3, duration="15m",
              token_secret="hub-token")
    files = generate_without_golden(m)
    assert layout.prune_deployment("east") not in files
    dep = files[layout.prune_deployment("west.eu")]
    assert files[f"{layout.PRUNE}/west.eu/kustomization.yaml"]["resources"] == ["deployment.yaml"]
    assert (dep["spec"]["replicas"], dep["spec"]["strategy"]) == (1, {"type": "Recreate"})
    pod = dep["spec"]["template"]["spec"]
    assert pod["serviceAccountName"] == files[layout.PRUNE_SERVICE_ACCOUNT]["metadata"]["name"]
    binding = files[layout.PRUNE_CLUSTER_ROLE_BINDING]
    assert binding["subjects"][0]["namespace"] == dep["metadata"]["namespace"] == "gpudash-prune"
    (container,) = pod["containers"]
    assert container["command"][-3:] == ["-m", "gpudash", "prune"]
    args = _parser().parse_args(container["command"][3:] + container["args"])  # the real CLI accepts them
    assert (args.daemon, args.run_mode, args.check_interval, args.max_actions, args.duration) == \
        (True, "scale-down", "1m30s", 3, "15m")
    assert (args.cluster, args.idle_window, args.push_interval, args.currency, args.prometheus_url) == \
        ("west\\.eu", "30m", "5m", "USD", PRUNE["prometheus_url"])
    env = {e["name"]: e["valueFrom"] for e in container["env"]}
    assert env[TOKEN_ENV]["secretKeyRef"] == {"name": "hub-token", "key": deploy.TOKEN_KEY}
    assert env[plan.POD_NAME_ENV]["fieldRef"]["fieldPath"] == "metadata.name"


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


def test_defaults_and_no_section():
    p = model().prune
    assert (p.clusters, p.run_mode, p.check_interval, p.max_actions, p.namespace, p.token_secret) == \
        (("east", "west.eu"), "dry-run", 180, 10, "gpudash-prune", "")
    dep = generate_without_golden(model())[layout.prune_deployment("east")]
    assert TOKEN_ENV not in {e["name"] for e in dep["spec"]["template"]["spec"]["containers"][0]["env"]}
    files = generate_without_golden(model_from_dict(MINIMAL))
    assert not [p for p in files if p.startswith(f"{layout.PRUNE}/")]


@pytest.mark.parametrize("prune,path,reason", [
    ({"clusters": ["north"]}, "prune.clusters[0]", "'north' is not one of the model's clusters (east, west.eu)"),
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

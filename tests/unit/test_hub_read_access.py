"""Reading the ACM hub with a bearer token: the rendered Grafana datasources use the rbac-query-proxy port that
takes one. The Route's oauth-proxy admits a token only when it may get namespaces cluster-wide, which neither a
tenant's token (metrics/<namespace> on its clusters) nor a datasource should need; the Service's http port reaches
rbac-query-proxy itself, which reads ``Authorization: Bearer`` (upstream manifests in
tests/fixtures/upstream/rbac-query-proxy/, SOURCE.md)."""
from __future__ import annotations

import json
from urllib.parse import urlsplit

import yaml

from gpudash.model import schema
from tests.conftest import FIXTURES, generate_without_golden

UPSTREAM = FIXTURES / "upstream/rbac-query-proxy"
DEPLOYMENT = yaml.safe_load((UPSTREAM / "deployment.yaml").read_text())
SERVICE = yaml.safe_load((UPSTREAM / "service.yaml").read_text())


def _containers() -> dict[str, dict]:
    return {c["name"]: c for c in DEPLOYMENT["spec"]["template"]["spec"]["containers"]}


def _arg(container: dict, flag: str) -> str:
    (value,) = [a.split("=", 1)[1] for a in container["args"] if a.startswith(f"{flag}=")]
    return value


def bearer_url() -> str:
    """The in-cluster URL of the Service port that reaches rbac-query-proxy itself (plain HTTP: it serves on its
    --listen-address without TLS)."""
    proxy = _containers()["rbac-query-proxy"]
    (port,) = proxy["ports"]
    assert _arg(proxy, "--listen-address").endswith(f":{port['containerPort']}")
    (number,) = [p["port"] for p in SERVICE["spec"]["ports"] if p["targetPort"] == port["name"]]
    meta = SERVICE["metadata"]
    return f"http://{meta['name']}.{meta['namespace']}.svc:{number}"


def test_the_route_port_needs_cluster_wide_get_namespaces():
    """The oauth-proxy behind the Route's https port delegates every path to a SubjectAccessReview of get
    namespaces with no namespace: cluster-wide (openshift/oauth-proxy providers/openshift/provider.go)."""
    oauth = _containers()["oauth-proxy"]
    assert json.loads(_arg(oauth, "--openshift-delegate-urls")) == {"/": {"resource": "namespaces", "verb": "get"}}
    (https,) = [p for p in SERVICE["spec"]["ports"] if p["name"] == "https"]
    assert https["targetPort"] == oauth["ports"][0]["name"]


def test_the_default_datasource_url_is_the_bearer_port():
    assert schema.PROVIDER_DATASOURCE_URL == bearer_url()


def test_rendered_hub_datasources_take_a_bearer_token(example_model):
    """Every datasource of the example (rbac-query-proxy mode: file provisioning and grafana-operator alike)
    reaches rbac-query-proxy where a tenant's token is enough."""
    assert example_model.grafana.tenant_datasource.mode == "rbac-query-proxy"
    files = generate_without_golden(example_model)
    sources = [d for f in files.values() if isinstance(f, dict) for d in f.get("datasources", ())]
    sources += [f["spec"]["datasource"] for f in files.values()
                if isinstance(f, dict) and f.get("kind") == "GrafanaDatasource"]
    urls = {d["uid"]: d["url"] for d in sources}
    assert len(urls) > 2 and set(urls.values()) == {bearer_url()}, urls
    assert all(urlsplit(u).hostname.endswith(".svc") for u in urls.values())

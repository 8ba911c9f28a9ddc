"""Tenants per cluster (``tenants[].clusters``, issue #43 item 4): a tenant's ResourceQuota, the pruner's Role and
RoleBinding in its namespace and the pruner's ``--tenant-namespace`` go only to the clusters where its namespace
exists; a cluster the model does not declare is refused with one line; every cluster is the default."""
from __future__ import annotations

import pytest

from gpudash.base import layout
from gpudash.base.errors import InputError
from gpudash.model import model_from_dict
from gpudash.render.targets import gitops
from tests.conftest import generate_without_golden
from tests.unit.test_mco_settings import example

PRUNE = {"image": "registry.example.com/gpudash:1", "prometheus_url": "https://thanos.example.com",
         "token_secret": "hub-token"}
EAST, WEST = "prod-east", "prod-west"


def restricted(tenant: str = "team-a", clusters: list[str] | None = None) -> dict:
    """The example with a pruner and ``tenant`` existing on ``clusters`` only (default: prod-east)."""
    data = example(prune=PRUNE)
    for t in data["tenants"]:
        if t["name"] == tenant:
            t["clusters"] = clusters or [EAST]
    return data


def namespaced_on(files: dict, destination_folders: tuple[str, ...]) -> set[str]:
    """The namespaces of the objects the listed object folders hold."""
    return {d["metadata"].get("namespace", "") for p, d in files.items()
            if isinstance(d, dict) and "metadata" in d and p.rpartition("/")[0] in destination_folders}


def test_a_tenant_on_one_cluster_gets_its_objects_there_only():
    model = model_from_dict(restricted())
    files = generate_without_golden(model)
    team_a = next(t for t in model.tenants if t.name == "team-a")
    assert team_a.clusters == (EAST,) and team_a.on(EAST) and not team_a.on(WEST)
    assert layout.quota("team-a") not in files and layout.quota("team-a", EAST) in files
    assert layout.quota("team-a", WEST) not in files
    assert layout.prune_role("team-a") not in files and layout.prune_role_binding("team-a") not in files
    assert layout.prune_role("team-a", EAST) in files and layout.prune_role_binding("team-a", EAST) in files
    assert layout.prune_role("team-a", WEST) not in files
    present = gitops.destinations(model, {p.rpartition("/")[0] for p in files if p.endswith(layout.KUSTOMIZATION)})
    assert layout.quotas_on(EAST) in present[layout.deploy_cluster(EAST)]
    assert layout.quotas_on(WEST) not in present[layout.deploy_cluster(WEST)]
    for folders in (present[layout.DEPLOY_SPOKES], present[layout.DEPLOY_SINGLE], present[layout.deploy_cluster(WEST)]):
        assert "team-a" not in namespaced_on(files, folders), folders
    west = files[layout.prune_deployment(WEST)]["spec"]["template"]["spec"]["containers"][0]["args"]
    east = files[layout.prune_deployment(EAST)]["spec"]["template"]["spec"]["containers"][0]["args"]
    assert "team-a" not in west and "team-a" in east


def test_every_cluster_is_the_default_and_listing_all_is_the_same():
    default = model_from_dict(example(prune=PRUNE))
    assert all(not t.clusters for t in default.tenants)
    everywhere = model_from_dict(restricted(clusters=[WEST, EAST]))
    assert everywhere.tenants == default.tenants
    files = generate_without_golden(default)
    assert layout.quota("team-a") in files and layout.prune_role("team-a") in files
    assert not any(p.startswith(layout.quotas_on(EAST) + "/") for p in files)


def test_an_undeclared_cluster_is_refused_with_one_line():
    with pytest.raises(InputError) as err:
        model_from_dict(restricted(clusters=["prod-north"]), file="m.yaml")
    assert "tenants[0].clusters[0]" in str(err.value) and "'prod-north' is not one of the model's clusters" in str(
        err.value)

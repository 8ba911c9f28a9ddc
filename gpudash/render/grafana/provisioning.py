"""Grafana file provisioning per org, and the org bootstrap description.

Tenancy model for a self-managed Grafana:

* org 1 (Grafana's "Main Org.") is the provider's: the provider datasource (all namespaces) and the
  provider folder with the provider and CCSP dashboards;
* one org per tenant: only that tenant's datasource, which points at a namespace-enforcing endpoint
  (thanos-querier tenancy port 9092 with ``namespace=<ns>``, or ACM's rbac-query-proxy), and one folder with
  the tenant's dashboard. A tenant user is a member of its own org only.

Grafana cannot create orgs from provisioning files and assigns org ids itself, so the tenant files read the
org id from the environment (Grafana expands ``${VAR}`` in provisioning files, ``orgId`` included):
``gpudash grafana-bootstrap`` creates the orgs, folders, folder permissions and service accounts over the
HTTP API (idempotently) and prints the ``GPUDASH_ORG_ID_<TENANT>=<id>`` lines to put in Grafana's
environment. Bearer tokens also come from the environment: ``${<token_env>_<TENANT>}`` per tenant and
``${GPUDASH_PROVIDER_TOKEN}`` for the provider.

Dashboards are mounted at :data:`DASHBOARDS_DIR` (the rendered ``dashboards/`` folder); each org's provider
names its dashboard files one by one, so a JSON file dropped into the folder never lands in a tenant's org.
"""
from __future__ import annotations

import re
from urllib.parse import urlencode

from gpudash.base import layout
from gpudash.base.errors import GenerationError
from gpudash.model.types import Model, Tenant
from gpudash.render.grafana import uids

DASHBOARDS_DIR = "/var/lib/grafana/dashboards/gpudash"
PROVIDER_ORG_ID = 1
PROVIDER_TOKEN_ENV = "GPUDASH_PROVIDER_TOKEN"
ORG_ID_ENV_PREFIX = "GPUDASH_ORG_ID"
PROMETHEUS = "prometheus"

# Grafana folder permission levels.
VIEW, EDIT, ADMIN = 1, 2, 4
PROVIDER_FOLDER_PERMISSIONS = ({"role": "Viewer", "permission": VIEW}, {"role": "Editor", "permission": VIEW},
                               {"role": "Admin", "permission": ADMIN})
# Tenants read their generated dashboards; edits would be overwritten by the next provisioning run anyway.
TENANT_FOLDER_PERMISSIONS = PROVIDER_FOLDER_PERMISSIONS
SERVICE_ACCOUNT = "gpudash-dashboards"


def env_suffix(name: str) -> str:
    """A tenant name as an environment-variable suffix: ``team-a`` -> ``TEAM_A``."""
    return re.sub(r"[^A-Z0-9]", "_", name.upper())


def org_id_env(t: Tenant) -> str:
    return f"{ORG_ID_ENV_PREFIX}_{env_suffix(t.name)}"


def token_env(model: Model, t: Tenant) -> str:
    return f"{model.grafana.tenant_datasource.token_env}_{env_suffix(t.name)}"


def org_name(t: Tenant) -> str:
    return f"GPU tenant {t.name}"


def provider_folder_title(model: Model) -> str:
    return model.grafana.provider_folder


def tenant_folder_title(t: Tenant) -> str:
    return f"GPU usage {t.name}"


def check_names(model: Model) -> None:
    """Environment names and folder titles must be unique per tenant (DNS-label names always are)."""
    seen: dict[str, str] = {}
    for t in model.tenants:
        for key in (org_id_env(t), token_env(model, t)):
            if key in seen and seen[key] != t.name:
                raise GenerationError(f"tenants {seen[key]!r} and {t.name!r} map to the same variable {key}")
            seen[key] = t.name


def literal(text: str) -> str:
    """A model string as a provisioning value Grafana reads back unchanged: Grafana expands ``$VAR`` and
    ``${VAR}`` in every string of a provisioning file and reads ``$$`` as ``$`` (grafana/grafana
    ``pkg/services/provisioning/values/values.go``, ``interpolateValue``)."""
    return text.replace("$", "$$")


def datasource_ref(uid: str) -> dict:
    return {"type": PROMETHEUS, "uid": uid}


def _interval(model: Model) -> str:
    return f"{model.billing.mco_interval}s"


def provider_datasource(model: Model) -> dict:
    """All namespaces: provider org only."""
    return {
        "name": "gpudash provider", "uid": uids.provider_datasource_uid(), "type": PROMETHEUS,
        "access": "proxy", "orgId": PROVIDER_ORG_ID, "url": literal(model.grafana.provider_datasource_url),
        "isDefault": True, "editable": False,
        "jsonData": {"httpMethod": "POST", "timeInterval": _interval(model), "httpHeaderName1": "Authorization",
                     "customQueryParameters": "max_source_resolution=auto"},
        "secureJsonData": {"httpHeaderValue1": f"Bearer ${{{PROVIDER_TOKEN_ENV}}}"},
    }


def tenant_query_parameters(model: Model, t: Tenant) -> str:
    """``namespace=<ns>`` on the thanos-querier tenancy port (prom-label-proxy enforces it); on ACM's
    rbac-query-proxy the user's token decides the namespaces and Thanos gets ``max_source_resolution``."""
    if model.grafana.tenant_datasource.mode == "thanos-querier":
        return urlencode({"namespace": t.namespace})
    return "max_source_resolution=auto"


def tenant_datasource(model: Model, t: Tenant, org_id) -> dict:
    """The tenant's only datasource: a namespace-enforcing endpoint with the tenant's bearer token."""
    mode = model.grafana.tenant_datasource.mode
    return {
        "name": literal(f"gpudash {t.name}"), "uid": uids.tenant_datasource_uid(t.name), "type": PROMETHEUS,
        "access": "proxy", "orgId": org_id, "url": literal(model.grafana.tenant_datasource.url),
        "isDefault": True, "editable": False,
        # The tenancy port reads the namespace from the URL query: GET keeps it there for every request.
        "jsonData": {"httpMethod": "GET" if mode == "thanos-querier" else "POST",
                     "timeInterval": _interval(model), "httpHeaderName1": "Authorization",
                     "customQueryParameters": tenant_query_parameters(model, t)},
        "secureJsonData": {"httpHeaderValue1": f"Bearer ${{{token_env(model, t)}}}"},
    }


def _provider_entry(name: str, org_id, folder: str, folder_uid: str, file: str) -> dict:
    return {
        "name": name, "orgId": org_id, "type": "file", "folder": literal(folder), "folderUid": folder_uid,
        "disableDeletion": False, "allowUiUpdates": False, "updateIntervalSeconds": 60,
        "options": {"path": f"{DASHBOARDS_DIR}/{file}", "foldersFromFilesStructure": False},
    }


def _file(kind: str, items: list[dict], comment: str) -> dict:
    return {"__comment__": comment, "apiVersion": 1, kind: items}


def files(model: Model, dashboard_files: dict[str, list[str]]) -> dict[str, dict]:
    """Provisioning files: ``grafana/provisioning/{datasources,dashboards}/<org>.yaml``.

    ``dashboard_files`` maps ``"provider"`` and each tenant name to the dashboard JSON file names of its org.
    """
    check_names(model)
    out = {}
    out[layout.grafana_provisioning("datasources", "gpudash-provider")] = _file(
        "datasources", [provider_datasource(model)],
        f"Provider org ({PROVIDER_ORG_ID}): all namespaces. Set {PROVIDER_TOKEN_ENV} in Grafana's environment.")
    out[layout.grafana_provisioning("dashboards", "gpudash-provider")] = _file(
        "providers", [_provider_entry(f"gpudash-provider-{f.removesuffix('.json')}", PROVIDER_ORG_ID,
                                      provider_folder_title(model), uids.provider_folder_uid(), f)
                      for f in dashboard_files["provider"]],
        f"Provider dashboards, org {PROVIDER_ORG_ID}; mount the rendered dashboards/ folder at {DASHBOARDS_DIR}.")
    for t in model.tenants:
        org = f"${{{org_id_env(t)}}}"
        out[layout.grafana_provisioning("datasources", f"gpudash-tenant-{t.name}")] = _file(
            "datasources", [tenant_datasource(model, t, org)],
            f"Tenant {t.name} (namespace {t.namespace}), org \"{org_name(t)}\": {org_id_env(t)} comes from "
            f"`gpudash grafana-bootstrap`; {token_env(model, t)} holds the tenant's bearer token.")
        out[layout.grafana_provisioning("dashboards", f"gpudash-tenant-{t.name}")] = _file(
            "providers", [_provider_entry(f"gpudash-tenant-{t.name}-{f.removesuffix('.json')}", org,
                                          tenant_folder_title(t), uids.tenant_folder_uid(t.name), f)
                          for f in dashboard_files[t.name]],
            f"Tenant {t.name}'s dashboards, in its own org only ({org_id_env(t)}).")
    return out


def bootstrap(model: Model) -> dict:
    """What ``gpudash grafana-bootstrap`` makes exist: orgs, folders with permissions, service accounts.

    Written to ``grafana/bootstrap.json`` for review; the command computes the same from the model.
    """
    check_names(model)
    sa = {"name": SERVICE_ACCOUNT, "role": "Editor"}
    orgs = [{
        "key": "provider", "name": None, "id": PROVIDER_ORG_ID, "create": False, "orgIdEnv": None,
        "folders": [{"uid": uids.provider_folder_uid(), "title": provider_folder_title(model),
                     "permissions": list(PROVIDER_FOLDER_PERMISSIONS)}],
        "serviceAccounts": [sa],
    }]
    for t in model.tenants:
        orgs.append({
            "key": t.name, "name": org_name(t), "id": None, "create": True, "orgIdEnv": org_id_env(t),
            "tenant": t.name, "namespace": t.namespace,
            "folders": [{"uid": uids.tenant_folder_uid(t.name), "title": tenant_folder_title(t),
                         "permissions": list(TENANT_FOLDER_PERMISSIONS)}],
            "serviceAccounts": [sa],
        })
    return {
        "description": "Grafana orgs, folders, folder permissions and service accounts for gpudash. Apply with "
                       "`python -m gpudash grafana-bootstrap --grafana-url URL`; it prints the org ids that the "
                       "provisioning files read from GPUDASH_ORG_ID_* variables. Service accounts are created "
                       "without tokens: create a token per org for your deployment pipeline.",
        "orgs": orgs,
    }

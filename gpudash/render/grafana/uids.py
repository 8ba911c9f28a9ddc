"""Stable Grafana UIDs derived from names: the same model always yields the same UIDs.

Grafana accepts UIDs of at most 40 characters from ``[A-Za-z0-9_-]``. A name that already fits is used as
is, so the common UIDs are readable (``gpudash-tenant-team-a``); a longer name keeps a readable prefix and
ends in 8 hex digits of its SHA-256, so two long names never collide by truncation.

Other modules link to dashboards by these UIDs (alert annotations use
``<dashboard_url>/d/<tenant_dashboard_uid(tenant)>``), so the functions here are the contract.
"""
from __future__ import annotations

import hashlib
import re

MAX_LEN = 40
_ALLOWED = re.compile(r"^[A-Za-z0-9_-]+$")

# Datasource UID of ACM's hub Grafana ("Observatorium", the default datasource MCO provisions).
ACM_DATASOURCE_UID = "000000001"


def uid(name: str) -> str:
    """``name`` when it is a valid UID of at most 40 characters, else a deterministic 40-character UID."""
    if len(name) <= MAX_LEN and _ALLOWED.match(name):
        return name
    clean = re.sub(r"[^A-Za-z0-9_-]", "-", name)
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
    return f"{clean[:MAX_LEN - 9]}-{digest}"


def provider_dashboard_uid() -> str:
    return uid("gpudash-provider")


def ccsp_dashboard_uid() -> str:
    return uid("gpudash-ccsp")


def tenant_dashboard_uid(tenant_name: str) -> str:
    """``gpudash-tenant-<tenant name>``, hashed down to 40 characters when longer."""
    return uid(f"gpudash-tenant-{tenant_name}")


def provider_folder_uid() -> str:
    return uid("gpudash-folder-provider")


def tenant_folder_uid(tenant_name: str) -> str:
    return uid(f"gpudash-folder-tenant-{tenant_name}")


def provider_datasource_uid() -> str:
    return uid("gpudash-ds-provider")


def tenant_datasource_uid(tenant_name: str) -> str:
    return uid(f"gpudash-ds-tenant-{tenant_name}")

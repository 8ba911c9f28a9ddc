"""The files Alertmanager receivers read (their ``*_file`` fields) and the Secret the ACM hub mounts each one from.

MCO mounts the Secrets listed in the MultiClusterObservability's ``spec.advanced.alertmanager.secrets``, and no
other, into the hub Alertmanager's ``alertmanager`` container: Secret S as volume ``secret-S`` at
``/etc/alertmanager/secrets/S`` (stolostron/multicluster-observability-operator
operators/multiclusterobservability/pkg/rendering/renderer_alertmanager.go, ``renderAlertManagerStatefulSet``; the
field: operators/multiclusterobservability/api/v1beta2/multiclusterobservability_types.go, ``AlertmanagerSpec.Secrets``,
present from release-2.12). A Secret volume without ``items`` holds one file per key, so a receiver reads key K of
Secret S at ``/etc/alertmanager/secrets/S/K``.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from gpudash.base import kube

SECRETS_DIR = "/etc/alertmanager/secrets"
FILE_SUFFIX = "_file"  # Alertmanager's convention for a field naming a file (api_url_file, credentials_file, ...)
# The volume secret-S must be a DNS-1123 label of at most 63 characters (kubernetes pkg/apis/core/validation/
# validation.go, validateVolumes), so S is a label of at most 56.
_VOLUME_PREFIX = "secret-"
_DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
# A Secret's key (kubernetes/apimachinery pkg/util/validation/validation.go, IsConfigMapKey; no leading "..").
_SECRET_KEY = re.compile(r"(?!\.\.)[-._a-zA-Z0-9]{1,253}")
MOUNTABLE = (f"{SECRETS_DIR}/<secret>/<key>, <secret> a DNS-1123 label of at most "
             f"{kube.LABEL_MAX - len(_VOLUME_PREFIX)} characters")


def file_fields(tree: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every ``*_file`` field under ``tree`` (one receiver integration): its path below ``tree`` and its value."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            if str(key).endswith(FILE_SUFFIX) and isinstance(value, str):
                yield (*path, key), value
            else:
                yield from file_fields(value, (*path, key))
    elif isinstance(tree, list):
        for i, item in enumerate(tree):
            yield from file_fields(item, (*path, i))


def mounted_secret(file: str) -> str | None:
    """The Secret whose key MCO mounts at ``file``, or None when no listed Secret can put a file there."""
    parts = file.removeprefix(SECRETS_DIR + "/").split("/") if file.startswith(SECRETS_DIR + "/") else []
    if len(parts) != 2:
        return None
    secret, key = parts
    fits = len(_VOLUME_PREFIX + secret) <= kube.LABEL_MAX
    return secret if fits and _DNS_LABEL.fullmatch(secret) and _SECRET_KEY.fullmatch(key) else None


def secrets(receivers: Iterable[tuple[str, dict[str, Any]]]) -> list[str]:
    """The Secrets the receivers (name, integrations) read files from, sorted, each once."""
    found = {mounted_secret(file) for _, integrations in receivers for _, file in file_fields(integrations)}
    return sorted(s for s in found if s)

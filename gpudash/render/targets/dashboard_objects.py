"""What both Kubernetes deliveries of a dashboard share (the acm target's ConfigMaps, grafana-operator's CRs): the
object's name and the size it may have. Pure; no I/O."""
from __future__ import annotations

import re
from typing import Any

from gpudash.base import kube
from gpudash.base.errors import GenerationError


def object_name(prefix: str, name: str) -> str:
    """A DNS-1123 object name: ``<prefix>-<name>`` lower-cased, other characters -> ``-``."""
    return re.sub(r"[^a-z0-9-]", "-", f"{prefix}-{name}".lower()).strip("-")[:253]


def check_size(kind: str, name: str, obj: dict[str, Any]) -> dict[str, Any]:
    """``obj``, refused when client-side apply could not store it as its last-applied annotation (the file is
    deferred: never annotated for server-side apply)."""
    size = kube.annotations_size(obj)
    if size > kube.LAST_APPLIED_LIMIT:
        raise GenerationError(f"{kind} {name} needs {size} bytes of annotations applied client-side, over the "
                              f"{kube.LAST_APPLIED_LIMIT}-byte limit")
    return obj

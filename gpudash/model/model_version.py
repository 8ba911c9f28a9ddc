"""The version of the model's format: the ``version:`` key of gpudash.yaml, as sloth's SLO specs carry
``version: "prometheus/v1"`` (slok/sloth pkg/prometheus/api/v1/v1.go, ``const Version``).

Optional while there is one version: a model without the key is read as :data:`CURRENT`. A version this gpudash
does not read stops the load before any other check, with one line, since its other keys may mean something else.
"""
from __future__ import annotations

from typing import Any

from gpudash.model.context import Ctx, short

MODEL_VERSIONS = ("gpudash/v1",)  # oldest first; the formats this gpudash reads
CURRENT = MODEL_VERSIONS[-1]  # what a model without ``version:`` is read as, and what ``gpudash init`` writes


def check_version(data: dict[str, Any], ctx: Ctx) -> None:
    """Refuse a model whose ``version:`` this gpudash does not read, before its other keys are looked at."""
    version = data.get("version", CURRENT)
    if version not in MODEL_VERSIONS:
        raise ctx.error(("version",), f"{short(version)} is not a model version this gpudash reads "
                                      f"({', '.join(MODEL_VERSIONS)}): a newer model needs a newer gpudash")

"""The model's durations (``30s``, ``5m``, ``1h30m``; the schema's ``duration``) as seconds and back."""
from __future__ import annotations

import re

from gpudash.model.types import DAY
from gpudash.promql.read import HOUR

_UNITS = {"d": DAY, "h": HOUR, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    """Seconds of a schema-valid duration such as ``1h30m``."""
    return sum(int(n) * _UNITS[u] for n, u in re.findall(r"([0-9]+)([dhms])", text))


def format_duration(seconds: int) -> str:
    """The shortest duration string of ``seconds``, e.g. ``5400`` -> ``1h30m``."""
    parts = []
    for unit, size in _UNITS.items():
        count, seconds = divmod(seconds, size)
        parts += [f"{count}{unit}"] if count else []
    return "".join(parts) or "0s"

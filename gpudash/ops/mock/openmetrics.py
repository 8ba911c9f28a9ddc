"""OpenMetrics text for ``promtool tsdb create-blocks-from openmetrics``.

What promtool needs (shared/reference/toolchain.md): timestamps in seconds (milliseconds are accepted silently
and land in the year 58851), every sample timestamped, samples of a series in time order (out-of-order samples
are dropped silently), each family contiguous after its ``# TYPE`` line, ``# EOF`` at the end, and one file
per day (promtool re-reads a file once per 2 h block it writes).
"""
from __future__ import annotations

import math
from pathlib import Path

Labels = tuple[tuple[str, str], ...]  # sorted (name, value) pairs including ("__name__", metric)


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def series_text(labels: Labels) -> str:
    """``name{a="b",...}`` of a label set that includes ``__name__``."""
    d = dict(labels)
    name = d.pop("__name__")
    if not d:
        return name
    return name + "{" + ",".join(f'{k}="{escape(v)}"' for k, v in sorted(d.items())) + "}"


def number(v: float) -> str:
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15):
        return str(int(v))
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "+Inf" if v > 0 else "-Inf"
    return repr(float(v))


def seconds(t: float) -> str:
    return str(int(t)) if float(t).is_integer() else repr(float(t))


class FamilyBuffer:
    """Collects sample lines per metric family for one file, then writes them family by family."""

    def __init__(self):
        self.families: dict[str, list[str]] = {}
        self.samples = 0

    def add_run(self, labels: Labels, value: float, times) -> None:
        """The same ``value`` at each of ``times`` (ascending Unix seconds)."""
        prefix = series_text(labels) + " " + number(value) + " "
        lines = self.families.setdefault(dict(labels)["__name__"], [])
        n = len(lines)
        lines.extend(prefix + seconds(t) + "\n" for t in times)
        self.samples += len(lines) - n

    def add(self, labels: Labels, samples) -> None:
        """``samples``: [(t, value)] ascending."""
        prefix = series_text(labels) + " "
        lines = self.families.setdefault(dict(labels)["__name__"], [])
        for t, v in samples:
            lines.append(prefix + number(v) + " " + seconds(t) + "\n")
            self.samples += 1

    def write(self, path: Path, kind: str = "gauge") -> Path | None:
        """Write the file (None when it would hold no sample)."""
        if not self.samples:
            return None
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w") as f:
            for name in sorted(self.families):
                f.write(f"# TYPE {name} {kind}\n")
                f.writelines(self.families[name])
            f.write("# EOF\n")
        return path

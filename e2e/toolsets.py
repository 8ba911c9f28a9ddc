"""The Prometheus versions the tests run on, and where their binaries are: the one home of that fact.

``scripts/prometheus-versions.env`` pins them: "2" is the system's ``prometheus``/``promtool`` on PATH
(Debian 12's 2.42), "3" the toolset ``scripts/fetch-prometheus3.sh`` unpacks into a tool folder
(``$GPUDASH_PROMETHEUS3_DIR`` overrides it). Tests parametrise over :data:`NAMES` with :func:`params`.
In CI (``CI=true``) a missing toolset, or one that is not the pinned version, fails its tests; elsewhere a
missing one skips them and another version runs them (:func:`require`). So CI cannot pass without both.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from gpudash.ops.demo.prometheus import build_info
from gpudash.ops.demo.rule_timing import labels_encoding

VERSIONS_FILE = Path(__file__).resolve().parent.parent / "scripts" / "prometheus-versions.env"
NAMES = ("2", "3")
DEFAULT = "2"


@functools.cache
def pinned() -> dict[str, str]:
    """The KEY=value lines of ``scripts/prometheus-versions.env``."""
    pairs = (line.split("=", 1) for line in VERSIONS_FILE.read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#"))
    return {k.strip(): v.strip() for k, v in pairs}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@dataclass(frozen=True)
class Toolset:
    name: str  # "2" or "3": the major line, used in test ids
    expected: str  # the pinned version, e.g. "3.5.3"
    prometheus: str | None
    promtool: str | None
    version: str | None  # what ``promtool --version`` reports (e.g. "3.5.3+ds1"), None when missing
    server_version: str | None  # the same of ``prometheus --version``
    tags: frozenset[str] = frozenset()  # the server's Go build tags (``--version``)

    @property
    def missing(self) -> str | None:
        """Why the binaries cannot be used at all (None when they can)."""
        if not (self.prometheus and self.promtool and self.version):
            how = ("scripts/install-system-deps.sh installs it" if self.name == "2" else
                   "scripts/fetch-prometheus3.sh fetches it; GPUDASH_PROMETHEUS3_DIR overrides the folder")
            return f"Prometheus {self.expected} (toolset {self.name}) not found: {how}"
        if self.server_version != self.version:
            return f"toolset {self.name}: prometheus {self.server_version} but promtool {self.version}"
        return None

    @property
    def off_pin(self) -> str | None:
        """Why this is not the pinned version (None when it is)."""
        if self.version and not re.fullmatch(rf"{re.escape(self.expected)}([+~-].*)?", self.version):
            return f"toolset {self.name} is Prometheus {self.version}, not the pinned {self.expected}"
        return None

    @property
    def labels_encoding(self) -> str:
        """How this build hashes a label set (:func:`gpudash.ops.demo.rule_timing.labels_encoding`)."""
        return labels_encoding(self.server_version, self.tags)


@functools.cache
def find(name: str = DEFAULT) -> Toolset:
    """The toolset ``name`` ("2": PATH, "3": the tool folder), whether or not it is there."""
    pins = pinned()
    if name == "2":
        prometheus, promtool = shutil.which("prometheus"), shutil.which("promtool")
    elif name == "3":
        folder = Path(os.environ.get("GPUDASH_PROMETHEUS3_DIR") or pins["PROMETHEUS3_DIR"]) / "bin"
        prometheus, promtool = (str(p) if os.access(p, os.X_OK) else None
                                for p in (folder / "prometheus", folder / "promtool"))
    else:
        raise ValueError(f"unknown Prometheus toolset {name!r} (known: {', '.join(NAMES)})")
    server_version, tags = build_info(prometheus)
    return Toolset(name, pins[f"PROMETHEUS{name}_VERSION"], prometheus, promtool, build_info(promtool)[0],
                   server_version, tags)


def params() -> list:
    """``pytest.param`` per toolset, ids ``prometheus2``/``prometheus3``, for ``parametrize("toolset", ...)``."""
    import pytest

    return [pytest.param(name, id=f"prometheus{name}") for name in NAMES]


def require(name: str) -> Toolset:
    """The toolset, or the test fails (CI) or skips (elsewhere) saying why."""
    import pytest

    toolset = find(name)
    problem = toolset.missing or (toolset.off_pin if in_ci() else None)
    if problem is None:
        return toolset
    if in_ci():
        pytest.fail(f"{problem} (CI must run every pinned Prometheus version)", pytrace=False)
    pytest.skip(problem)

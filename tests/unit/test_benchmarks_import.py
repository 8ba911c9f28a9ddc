"""The benchmarks are run by hand, not by the suite: this keeps them importable, so a rename in the package
cannot break them unnoticed until someone wants figures."""
from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCHMARKS.glob("*.py") if p.stem != "__init__"))
def test_benchmark_module_imports(name: str) -> None:
    importlib.import_module(f"benchmarks.{name}")

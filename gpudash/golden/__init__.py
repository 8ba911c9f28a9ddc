"""Golden tests: synthetic scenarios replayed through promtool against an independent reference model.

``artifacts(model)`` gives the rendered test files (``tests/golden-*.test.yaml``); ``run_promtool_tests``
runs them. See scenario.py (format), series.py (input series), reference.py (expected figures), emit.py.
"""
from gpudash.golden.emit import emit_tests
from gpudash.golden.runner import Result, report, run_promtool_tests

artifacts = emit_tests

__all__ = ["Result", "artifacts", "emit_tests", "report", "run_promtool_tests"]

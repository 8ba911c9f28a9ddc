"""Golden tests: synthetic scenarios replayed through promtool against an independent reference model.

``artifacts(model)`` gives the rendered test files (``tests/golden-*.test.yaml``, emit.py) from the scenario
catalogue (``scenarios/``) and the simulation (gpudash/simulation); ``gpudash test`` runs them
(gpudash/ops/promtest.py).
"""
from gpudash.render.golden.emit import emit_paths, emit_tests

artifacts = emit_tests
paths = emit_paths

__all__ = ["artifacts", "emit_tests", "paths"]

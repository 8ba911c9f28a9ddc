"""The test oracle: scenarios (scenario.py) and the devices their pods hold (devices.py), the raw series they
produce (series.py, written in notation.py's promtool notation), what the collectors push of them (pushes.py) and
the independent reference model of what they bill (reference.py, with its mixins hourly.py, ccsp.py and
energy.py), written from docs/billing-contract.md; caches.py forgets what they memoised between scenarios.

The golden emitter (gpudash/render/golden) and the synthetic cluster (gpudash/ops/mock) build on it; generators never
import it (tests/unit/test_layering.py).
"""
from gpudash.simulation.caches import clear_caches

__all__ = ["clear_caches"]

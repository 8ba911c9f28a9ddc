"""The test oracle: scenarios (scenario.py), the raw and pushed series they produce (series.py) and the
independent reference model of what they bill (reference.py), written from docs/billing-contract.md.

The golden emitter (gpudash/golden) and the synthetic cluster (gpudash/mock) build on it; generators never
import it (tests/unit/test_layering.py).
"""
